"""Turn streamed model output into text, reasoning and tool-call events.

Text goes out as soon as it cannot be the start of a tag, so the user sees the answer while
it is generated. A tool-call block is held until it is complete (its text is never shown),
then converted and validated against the offered tools. The parser never raises on what
the model writes: anything broken becomes a `CallFailed` with a message for the model.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping

from app.llm.formats.body import FUNC, Scan, scan_body
from app.llm.formats.events import (
    CallFailed,
    CallParsed,
    Event,
    ReasoningDelta,
    TextDelta,
    merge_deltas,
)
from app.llm.tools import (
    CallProblem,
    ToolCall,
    ToolSpec,
    coerce_arguments,
    convert_arguments,
    tool_map,
    validate_call,
)

CALL_OPEN = "<tool_call>"
CALL_CLOSE = "</tool_call>"
THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"

_TEXT_TAGS = (CALL_OPEN, THINK_OPEN, THINK_CLOSE, CALL_CLOSE)
# Qwen3.5 ends reasoning at "<tool_call>" too (llama.cpp's qwen3-coder parser does the same).
_REASONING_TAGS = (THINK_CLOSE, CALL_OPEN)

_TEXT, _REASONING, _CALL = "text", "reasoning", "call"


class StreamParser:
    """Incremental parser for one model reply. Feed text pieces, then call `finish()`."""

    def __init__(
        self,
        tools: Mapping[str, ToolSpec] | Iterable[ToolSpec],
        *,
        in_reasoning: bool = False,
        id_prefix: str | None = None,
        syntax_hint: str = "",
    ) -> None:
        """`in_reasoning`: the prompt already opened <think> (output starts as reasoning).
        `id_prefix`: call ids are f"{id_prefix}_{n}" (random prefix by default).
        `syntax_hint`: one sentence showing the right call syntax, added to messages
        about unreadable calls."""
        self.tools = tool_map(tools)
        self._state = _REASONING if in_reasoning else _TEXT
        self._buffer = ""  # text not yet classified
        self._body = ""  # text of the open call block, after "<tool_call>"
        self._checked = 0  # "</tool_call>" candidates before this index were rejected
        self._skip_space = True  # drop whitespace at the start of a text/reasoning run
        self._pending_space = ""  # trailing whitespace, held until more text follows
        self._count = 0
        self._prefix = id_prefix or "call_" + secrets.token_hex(4)
        self._hint = syntax_hint

    @property
    def in_call(self) -> bool:
        """True while a <tool_call> block is open (the runtime samples under a grammar)."""
        return self._state == _CALL

    @property
    def call_text(self) -> str:
        """The open block's text so far, after "<tool_call>"."""
        return self._body if self._state == _CALL else ""

    def feed(self, text: str) -> list[Event]:
        """Add a piece of output; returns the events it completes."""
        self._buffer += text
        return merge_deltas(self._drain(final=False))

    def finish(self) -> list[Event]:
        """The output ended: flush held text, settle an open call (cut off or complete)."""
        events: list[Event] = []
        while True:
            events.extend(self._drain(final=True))
            if self._state != _CALL:
                break
            body = self._body
            close = body.find(CALL_CLOSE)
            self._body = ""
            self._state = _TEXT
            if close == -1:
                events.extend(self._call_events(body, scan_body(body, "eof"), closed=False))
                break
            # Every "</tool_call>" looked like part of a value, but nothing else came:
            # the first one was the real end after all.
            inner = body[:close]
            events.extend(self._call_events(inner, scan_body(inner, "closed"), closed=True))
            self._skip_space = True
            self._buffer = body[close + len(CALL_CLOSE) :] + self._buffer
        self._pending_space = ""
        self._skip_space = True
        return merge_deltas(events)

    # -- internals ---------------------------------------------------------------------------

    def _drain(self, final: bool) -> list[Event]:
        events: list[Event] = []
        while True:
            if self._state == _CALL:
                self._body += self._buffer
                self._buffer = ""
                closed = self._try_close()
                if closed is None:
                    return events
                found, rest = closed
                events.extend(found)
                self._state = _TEXT
                self._skip_space = True
                self._body = ""
                self._checked = 0
                self._buffer = rest
                continue
            tags = _TEXT_TAGS if self._state == _TEXT else _REASONING_TAGS
            index, tag = _first_tag(self._buffer, tags)
            if tag is None:
                keep = 0 if final else _partial_tag_length(self._buffer, tags)
                cut = len(self._buffer) - keep
                self._emit(self._buffer[:cut], events)
                self._buffer = self._buffer[cut:]
                return events
            self._emit(self._buffer[:index], events)
            self._buffer = self._buffer[index + len(tag) :]
            if tag == CALL_CLOSE or (tag == THINK_CLOSE and self._state == _TEXT):
                continue  # a stray closing tag in text: drop just the tag
            self._pending_space = ""  # whitespace before a tag is layout, not content
            self._skip_space = True
            if tag == CALL_OPEN:
                self._state = _CALL
                self._body = ""
                self._checked = 0
            elif tag == THINK_OPEN:
                self._state = _REASONING
            else:  # "</think>": reasoning is over
                self._state = _TEXT

    def _emit(self, text: str, events: list[Event]) -> None:
        if not text:
            return
        if self._skip_space:
            text = text.lstrip()
            if not text:
                return
            self._skip_space = False
        text = self._pending_space + text
        body = text.rstrip()
        self._pending_space = text[len(body) :]
        if body:
            kind = TextDelta if self._state == _TEXT else ReasoningDelta
            events.append(kind(body))

    def _try_close(self) -> tuple[list[Event], str] | None:
        """Close the open block if it is over; returns (events, text after the block)."""
        body = self._body
        search = self._checked
        while (close := body.find(CALL_CLOSE, search)) != -1:
            inner = body[:close]
            scan = scan_body(inner, "candidate")
            if scan.status != "in_value":
                if scan.status == "complete" and inner[scan.end :].strip():
                    # The call ended earlier and other text followed: close it there.
                    return self._implicit_close(body, scan)
                final = scan_body(inner, "closed")
                return self._call_events(inner, final, closed=True), body[close + len(CALL_CLOSE) :]
            search = close + 1
        self._checked = max(search, len(body) - len(CALL_CLOSE) + 1, 0)
        scan = scan_body(body, "open")
        if scan.status == "complete":
            after = body[scan.end :].lstrip()
            if after and not CALL_CLOSE.startswith(after) and not FUNC.startswith(after):
                return self._implicit_close(body, scan)
        return None

    def _implicit_close(self, body: str, scan: Scan) -> tuple[list[Event], str]:
        """The model forgot "</tool_call>" but the call itself is complete."""
        return self._call_events(body[: scan.end], scan, closed=False), body[scan.end :]

    def _call_events(self, body: str, scan: Scan, *, closed: bool) -> list[Event]:
        raw = CALL_OPEN + body + (CALL_CLOSE if closed else "")
        if scan.status != "complete":
            if scan.status == "invalid" or (closed and scan.status != "in_value"):
                reason = scan.message or "the call could not be read"
                message = f"Your tool call could not be read: {reason}."
                if self._hint:
                    message += " " + self._hint
            else:
                detail = f" ({scan.message})" if scan.message else ""
                message = (
                    f"The call was cut off before it was complete{detail}. "
                    "Write the whole call again."
                )
            return [CallFailed(CallProblem(raw, scan.tool, message, (message,)))]
        events: list[Event] = []
        for found in scan.calls:
            spec = self.tools.get(found.name)
            if found.typed:
                arguments = coerce_arguments(found.arguments, spec)
            else:
                arguments = convert_arguments(found.arguments, spec)
            self._count += 1
            call = ToolCall(found.name, arguments, id=f"{self._prefix}_{self._count}")
            errors = [*found.notes, *validate_call(call, self.tools)]
            if errors:
                problem = CallProblem(raw, found.name, " ".join(errors), tuple(errors))
                events.append(CallFailed(problem))
            else:
                events.append(CallParsed(call, raw))
        return events


def _first_tag(text: str, tags: tuple[str, ...]) -> tuple[int, str | None]:
    best, found = len(text), None
    for tag in tags:
        index = text.find(tag, 0, best + len(tag))
        if index != -1 and index < best:
            best, found = index, tag
    return best, found


def _partial_tag_length(text: str, tags: tuple[str, ...]) -> int:
    """Length of a suffix that may grow into a tag (all tags start with "<")."""
    start = text.rfind("<")
    if start == -1:
        return 0
    tail = text[start:]
    return len(tail) if any(tag.startswith(tail) and tag != tail for tag in tags) else 0
