"""A conversation and one assistant turn over it, with no Qt: the GUI, the `ask` command and
the tests all drive the same code.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.llm.runtime import GenerationStats, SamplingSettings

SYSTEM_PROMPT = (
    "You are Hearth, a helpful personal assistant running on the user's own computer. "
    "Answer clearly and briefly."
)


@dataclass
class Message:
    role: str  # "system" | "user" | "assistant" | "tool"
    content: str
    stopped: bool = False  # the user pressed Stop while this reply was written

    def for_template(self) -> dict[str, Any]:
        return {"role": self.role, "content": self.content}


@dataclass
class Conversation:
    messages: list[Message] = field(default_factory=list)
    system_prompt: str = SYSTEM_PROMPT

    def add(self, role: str, content: str) -> Message:
        message = Message(role, content)
        self.messages.append(message)
        return message

    def for_template(self) -> list[dict[str, Any]]:
        rendered = [{"role": "system", "content": self.system_prompt}]
        rendered += [m.for_template() for m in self.messages]
        return rendered


class ChatModel(Protocol):
    """What a turn needs from a model backend (in-process llama.cpp, a server, a script)."""

    name: str

    def reply(
        self,
        messages: list[dict[str, Any]],
        on_text: Callable[[str], None],
        cancel: threading.Event,
        sampling: SamplingSettings,
    ) -> GenerationStats: ...


@dataclass
class TurnResult:
    reply: Message
    stats: GenerationStats


def run_turn(
    conversation: Conversation,
    user_text: str,
    model: ChatModel,
    on_text: Callable[[str], None],
    cancel: threading.Event,
    sampling: SamplingSettings | None = None,
) -> TurnResult:
    """Add the user's message, stream the model's reply into the conversation, return it.

    The reply is added to the conversation even when the turn is cancelled or fails part-way,
    so nothing the user saw is lost.
    """
    conversation.add("user", user_text)
    prompt = conversation.for_template()
    reply = conversation.add("assistant", "")

    def collect(text: str) -> None:
        reply.content += text
        on_text(text)

    try:
        stats = model.reply(prompt, collect, cancel, sampling or SamplingSettings())
    finally:
        if not reply.content:
            conversation.messages.remove(reply)
    reply.stopped = stats.stop_reason == "cancelled"
    return TurnResult(reply, stats)
