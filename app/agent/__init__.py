"""The agent: conversations, turns, tools and the policy gate (no Qt)."""
