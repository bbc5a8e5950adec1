"""The model runtime: GGUF files, prompts, generation and tool-call formats (no Qt)."""
