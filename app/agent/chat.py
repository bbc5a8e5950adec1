"""A conversation: what the user, the assistant and the tools said, with no Qt.

The GUI, the `ask` command and the tests all drive the same objects. Messages keep tool calls
as structured data (never as text the model could have forged) and tool results keep their
provenance (trusted or not).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.llm.tools import ToolCall

SYSTEM_PROMPT = (
    "You are Hearth, a helpful personal assistant running on the user's own computer. "
    "Answer clearly and briefly. Use a tool only when it is needed to answer."
)


def sent_note(moment: datetime) -> str:
    """The date, time and UTC offset a user message was sent, as the model reads it.

    It travels with the message, not in the system prompt: the prompt's start stays the same
    all day and every earlier turn renders the same, so the model's cached prefix stays valid.
    Minutes only, so a message renders the same after a restart."""
    local = moment.astimezone()
    offset = local.strftime("%z")
    return f"(sent {local:%A %d %B %Y, %H:%M}, UTC{offset[:3]}:{offset[3:]})"


@dataclass
class Message:
    role: str  # "user" | "assistant" | "tool"
    content: str = ""
    reasoning: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_call_id: str = ""  # for role "tool": which call this answers
    name: str = ""  # for role "tool": the tool's name
    trusted: bool = True  # False for email bodies, web pages, file contents, ...
    stopped: bool = False  # the user pressed Stop while this reply was written
    # For role "user": when it was sent, so "tomorrow at 3" or "in an hour" has one answer.
    sent_at: datetime | None = None

    def for_template(self, sent_notes: bool = True) -> dict[str, Any]:
        """The OpenAI-style message that chat templates understand (`sent_notes`: with the
        sending time the model is told; off for transcripts that show what the user typed)."""
        content = self.content
        if sent_notes and self.role == "user" and self.sent_at is not None:
            content = f"{sent_note(self.sent_at)}\n{content}"
        message: dict[str, Any] = {"role": self.role, "content": content}
        if self.reasoning:
            message["reasoning_content"] = self.reasoning
        if self.tool_calls:
            message["tool_calls"] = [call.to_openai() for call in self.tool_calls]
        if self.role == "tool":
            message["tool_call_id"] = self.tool_call_id
            message["name"] = self.name
        return message


@dataclass
class Conversation:
    messages: list[Message] = field(default_factory=list)
    system_prompt: str = SYSTEM_PROMPT
    # Called with each message as it is added (the GUI saves it there and then, so a crash
    # loses nothing the agent has already said). Not part of the conversation's value.
    on_add: Callable[[Message], None] | None = field(default=None, repr=False, compare=False)

    def add(self, role: str, content: str = "", **fields: Any) -> Message:
        if role == "user":
            fields.setdefault("sent_at", datetime.now().astimezone())
        message = Message(role, content, **fields)
        self.messages.append(message)
        if self.on_add is not None:
            self.on_add(message)
        return message

    def for_template(self, sent_notes: bool = True) -> list[dict[str, Any]]:
        rendered = [{"role": "system", "content": self.system_prompt}]
        rendered += [m.for_template(sent_notes) for m in self.messages]
        return rendered
