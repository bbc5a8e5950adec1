"""What a stream parser reports: text, reasoning, and finished tool calls (or why not)."""

from __future__ import annotations

from dataclasses import dataclass

from app.llm.tools import CallProblem, ToolCall


@dataclass(frozen=True)
class TextDelta:
    """Answer text for the user; emitted as soon as it cannot be part of a tag."""

    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """Text inside <think>...</think>: shown folded, never sent as the answer."""

    text: str


@dataclass(frozen=True)
class CallParsed:
    """A call that parsed and validated; `raw` is the model's text for the whole block."""

    call: ToolCall
    raw: str = ""


@dataclass(frozen=True)
class CallFailed:
    """A call that cannot run; the problem's message is meant for the model."""

    problem: CallProblem


Event = TextDelta | ReasoningDelta | CallParsed | CallFailed


def merge_deltas(events: list[Event]) -> list[Event]:
    """Join neighbouring text (or reasoning) deltas: chunking must not change the result."""
    merged: list[Event] = []
    for event in events:
        last = merged[-1] if merged else None
        if isinstance(event, TextDelta) and isinstance(last, TextDelta):
            merged[-1] = TextDelta(last.text + event.text)
        elif isinstance(event, ReasoningDelta) and isinstance(last, ReasoningDelta):
            merged[-1] = ReasoningDelta(last.text + event.text)
        else:
            merged.append(event)
    return merged
