"""Where tool calls begin and end in a stream of model output: one machine for every backend.

Small models do not always write a call the way their template says. Besides the canonical
`<tool_call>` tag, a call may come as `<function=NAME>` without the tag, as a bare JSON object
`{"name": "NAME", "arguments": {...}}`, inside a ```json fence, or wrapped in
`<function_call>` (llama.cpp's Hermes parser triggers on the same forms). The machine finds
each of them, tells the backend when to sample under a grammar and when to stop, and hands the
parser a canonical stream in which every call is a `<tool_call>…</tool_call>` block.

Where the line is drawn: the tag forms (`<tool_call>`, `<function=NAME>` naming an offered
tool, a `<function_call>` wrapper around a JSON call) are calls wherever they appear. A bare or
fenced JSON object is a call only as the reply's first content (or right after another call):
a reply that starts with words and later shows JSON, say because the user asked for an
example, is text. An object naming a tool that was not offered is text too.

Pure Python, no I/O: the local runtime feeds it one token's text at a time, the remote backend
one streamed chunk at a time; both keep only their own I/O.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from app.llm.formats.parser import CALL_CLOSE, CALL_OPEN, THINK_CLOSE, THINK_OPEN
from app.llm.tools import CallProblem

FORCED_THINK_END = "\n</think>\n\n"
FUNCTION_OPEN = "<function="
FUNCTION_CLOSE = "</function>"

Style = Literal["tag", "json", "function"]
_TEXT, _REASONING, _CALL, _AFTER = "text", "reasoning", "call", "after"
_MAYBE: Final = "maybe"

# What may stand between two calls: the closers of the call before.
_CLOSERS = ("```", CALL_CLOSE, "</function_call>", "</tools>", "</tool_calls>")
_FENCE_LANGUAGES = ("json", "tool_call", "xml")
_WRAPPERS = ("<function_call>", "<tools>")
_JSON_DECODER = json.JSONDecoder()
_ARGUMENT_KEYS = ('"arguments"', '"parameters"')


@dataclass(frozen=True)
class CallStart:
    """A call began. `style` says what the grammar must cover from here on:

    - "tag": everything after `<tool_call>` (the format's whole call grammar);
    - "json": the rest of `{"name": "TOOL"`: its arguments and the closing brace (no `tool`:
      a name that was not offered, sampled freely so the model can be told);
    - "function": the rest of `<function=TOOL>`: its arguments and `</function>`.
    """

    style: Style
    tool: str | None = None


@dataclass
class SpanStep:
    """What the backend must do after one piece of output."""

    text: str = ""  # canonical text for the StreamParser
    # Keep only piece[:cut] in the model's context: a call's constrained part starts there
    # (None: keep the whole piece; the rest of a cut piece is dropped).
    cut: int | None = None
    start: CallStart | None = None  # from now on, sample under the grammar for this call
    ended: bool = False  # the call is complete: sample freely again
    stop: bool = False  # the reply is over: text after a call that is not another call
    inject: str = ""  # add to the model's context (already in `text`): thinking forced shut


@dataclass(frozen=True)
class _Match:
    start: int  # where the trigger begins in the held text (what comes before is text)
    body: int  # where the call's own text begins ("{", "<function=", or after the tag)
    end: int  # just after the trigger
    opens: CallStart


class CallSpans:
    """Feed the model's output piece by piece; each `feed` says what to do next."""

    def __init__(
        self,
        tools: Iterable[str],
        *,
        in_reasoning: bool = False,
        forced_open: bool = False,
        thinking_budget: int | None = None,
    ) -> None:
        """`tools`: the names offered (none: calls are not watched for). `in_reasoning`:
        the prompt ends inside <think>. `forced_open`: the prompt already ends with
        "<tool_call>" (tool_choice=required). `thinking_budget`: pieces of reasoning
        before "</think>" is forced (None: no limit)."""
        self.names: tuple[str, ...] = tuple(tools)
        self._state = _REASONING if in_reasoning else _TEXT
        self._held = ""  # free text not passed on yet: it may still become a call
        self._first = True  # a JSON call may start here (the reply's first content)
        self._style: Style = "tag"
        self._body = ""  # the open call's text
        self._checked = 0  # where the search for the call's end resumes in _body
        self._tail = ""  # recent passed-on text, for tags split across pieces
        self._piece = 0  # length of the piece being fed
        self._budget = thinking_budget
        self._reasoning_pieces = 0
        if forced_open and self.names:
            self._open_call("tag")

    @property
    def in_call(self) -> bool:
        return self._state == _CALL

    @property
    def in_reasoning(self) -> bool:
        return self._state == _REASONING

    def feed(self, piece: str) -> SpanStep:
        step = SpanStep()
        self._piece = len(piece)
        if self._state == _CALL:
            self._feed_call(piece, step)
        elif self._state == _REASONING:
            self._feed_reasoning(piece, step)
        else:
            self._feed_free(piece, step)
        return step

    def feed_uncut(self, piece: str) -> SpanStep:
        """For output that cannot be cut short (a server's chat reply): like `feed`, but
        what follows a call's start is fed on too; the steps come back merged."""
        merged = SpanStep()
        while True:
            step = self.feed(piece)
            merged.text += step.text
            merged.inject += step.inject
            merged.start = merged.start or step.start
            merged.ended = merged.ended or step.ended
            merged.stop = step.stop
            if step.stop or step.cut is None or step.cut >= len(piece):
                return merged
            piece = piece[step.cut :]

    def finish(self) -> str:
        """The output ended: canonical text still held back (none after a call)."""
        held, self._held = self._held, ""
        return held if self._state == _TEXT else ""

    # -- free text ---------------------------------------------------------------------------

    def _feed_free(self, piece: str, step: SpanStep) -> None:
        self._held += piece
        held = self._held
        if not self.names:
            self._held = ""
            self._pass(held, step)
            return
        if self._state == _AFTER:
            after = self._after_call(held)
            if isinstance(after, _Match):
                self._begin(after, step)
            elif after is None:
                step.stop = True
                self._held = ""
            return
        if self._first:
            opened = _json_opener(held, 0, self.names)
            if opened == _MAYBE:
                return
            if isinstance(opened, _Match):
                self._begin(opened, step)
                return
            if held.strip():
                self._first = False
        found = self._tag_trigger(held)
        if isinstance(found, _Match):
            self._begin(found, step)
        elif isinstance(found, tuple):  # <think>: reasoning starts here
            end = found[1]
            self._held = ""
            self._pass(held[:end], step)
            self._state = _REASONING
            if end < len(held):
                self._feed_reasoning(held[end:], step)
        else:
            cut = len(held) - found  # keep back a suffix that may still grow into a tag
            self._held = held[cut:]
            self._pass(held[:cut], step)

    def _tag_trigger(self, held: str) -> _Match | tuple[str, int] | int:
        """The first tag trigger in `held` (or where "<think>" ends), else the length of a
        suffix that may still become one."""
        search = 0
        while (index := held.find("<", search)) != -1:
            rest = held[index:]
            if rest.startswith(CALL_OPEN):
                end = index + len(CALL_OPEN)
                return _Match(index, end, end, CallStart("tag"))
            if rest.startswith(THINK_OPEN):
                return ("think", index + len(THINK_OPEN))
            if rest.startswith(FUNCTION_OPEN):
                close = rest.find(">")
                name = rest[len(FUNCTION_OPEN) : close if close != -1 else len(rest)]
                if close == -1 and _could_be_name(name, self.names):
                    return len(rest)
                if close != -1 and name.strip() in self.names:
                    end = index + close + 1
                    return _Match(index, index, end, CallStart("function", name.strip()))
            elif rest.startswith(_WRAPPERS):
                opened = _json_opener(held, index, self.names, wrapped=True)
                if isinstance(opened, _Match):
                    return opened
                if opened == _MAYBE:
                    return len(rest)
            elif _may_become_tag(rest):
                return len(rest)
            search = index + 1
        return 0

    def _after_call(self, held: str) -> _Match | Literal["maybe"] | None:
        """After a call only another call may follow (blank space and closers aside)."""
        pos = 0
        while True:
            pos = _skip_space(held, pos)
            opened = _json_opener(held, pos, self.names)
            if opened is not None:
                return opened
            closer = next((c for c in _CLOSERS if held.startswith(c, pos)), None)
            if closer is None:
                break
            pos += len(closer)
        rest = held[pos:]
        if not rest or any(c.startswith(rest) for c in _CLOSERS):
            return _MAYBE
        found = self._tag_trigger(rest)
        if isinstance(found, _Match) and found.start == 0:
            return _Match(pos, pos + found.body, pos + found.end, found.opens)
        if isinstance(found, int) and found == len(rest):
            return _MAYBE
        return None

    def _begin(self, match: _Match, step: SpanStep) -> None:
        """A call starts: pass on the text before it, then the canonical opening."""
        held = self._held
        self._held = ""
        if self._state == _TEXT:
            self._pass(held[: match.start], step)
        call_text = held[match.body : match.end]
        self._pass(CALL_OPEN + call_text, step)
        # What the piece holds past the trigger is dropped: the grammar takes over there.
        step.cut = self._piece - (len(held) - match.end)
        step.start = match.opens
        self._open_call(match.opens.style, call_text)

    def _open_call(self, style: Style, text: str = "") -> None:
        self._state = _CALL
        self._style = style
        self._body = text
        self._checked = 0

    # -- inside a call -----------------------------------------------------------------------

    def _feed_call(self, piece: str, step: SpanStep) -> None:
        before = len(self._body)
        self._body += piece
        end = self._call_end()
        if end is None:
            self._pass(piece, step)
            return
        inside = end - before  # where the call ends in this piece
        self._pass(piece[:inside], step)
        if self._style != "tag":
            self._pass(CALL_CLOSE, step)
        step.ended = True
        self._state = _AFTER
        self._first = True
        self._body = ""
        if inside < len(piece):
            self._feed_free(piece[inside:], step)

    def _call_end(self) -> int | None:
        """Index in the call's text just after its end, once it has ended."""
        body = self._body
        if self._style == "json":
            if "}" not in body[self._checked :]:
                return None
            self._checked = len(body)
            try:
                return _JSON_DECODER.raw_decode(body, 0)[1]
            except ValueError:
                return None
        closer = CALL_CLOSE if self._style == "tag" else FUNCTION_CLOSE
        index = body.find(closer, self._checked)
        self._checked = max(0, len(body) - len(closer) + 1)
        return None if index == -1 else index + len(closer)

    # -- reasoning ---------------------------------------------------------------------------

    def _feed_reasoning(self, piece: str, step: SpanStep) -> None:
        joined = self._tail + piece
        tags = (THINK_CLOSE, CALL_OPEN) if self.names else (THINK_CLOSE,)
        found = [
            (index, tag)
            for tag in tags
            if (index := joined.find(tag, max(0, len(self._tail) - len(tag) + 1))) != -1
        ]
        if not found:
            self._pass(piece, step)
            self._reasoning_pieces += 1
            if self._budget is not None and self._reasoning_pieces >= self._budget:
                step.inject = FORCED_THINK_END
                self._pass(FORCED_THINK_END, step)
                self._state = _TEXT
                self._first = True
            return
        index, tag = min(found)
        end = index + len(tag) - len(self._tail)  # just after the tag, in this piece
        self._pass(piece[:end], step)
        if tag == CALL_OPEN:
            # Qwen3.5 ends reasoning at "<tool_call>" (as llama.cpp's parser does).
            step.cut = self._piece - (len(piece) - end)
            step.start = CallStart("tag")
            self._open_call("tag")
            return
        self._state = _TEXT
        self._first = True
        if end < len(piece):
            self._feed_free(piece[end:], step)

    def _pass(self, text: str, step: SpanStep) -> None:
        if text:
            step.text += text
            self._tail = (self._tail + text)[-64:]


# -- the JSON opener: ws (```lang ws)? (<wrapper> ws)? { ws "name" ws : ws "TOOL" ----------------


def _json_opener(
    text: str, pos: int, names: Sequence[str], *, wrapped: bool = False
) -> _Match | Literal["maybe"] | None:
    """Does `text[pos:]` open a JSON call to one of `names`? "maybe": it still could.
    `wrapped`: only with a wrapper tag such as <function_call> (allowed anywhere)."""
    start = pos
    pos = _skip_space(text, pos)
    if not wrapped:
        fence = _literal(text, pos, "```")
        if fence == _MAYBE:
            return _MAYBE
        if isinstance(fence, int):
            pos = fence
            for language in _FENCE_LANGUAGES:
                found = _literal(text, pos, language)
                if found == _MAYBE:
                    return _MAYBE
                if isinstance(found, int):
                    pos = found
                    break
            pos = _skip_space(text, pos)
    wrapper = None
    if pos < len(text) and text[pos] == "<":
        for tag in _WRAPPERS:
            found = _literal(text, pos, tag)
            if isinstance(found, int):
                wrapper = found
                break
            if found == _MAYBE:
                return _MAYBE
    if wrapper is not None:
        pos = _skip_space(text, wrapper)
    elif wrapped:
        return None
    body = pos
    for part in ("{", '"name"', ":", '"'):
        found = _literal(text, pos, part)
        if not isinstance(found, int):
            return found
        pos = found if part == '"' else _skip_space(text, found)
    close = text.find('"', pos)
    if close == -1:
        # Any name may still come with "arguments" after it (a misnamed call); a tool name
        # is one short line.
        partial = text[pos:]
        return _MAYBE if len(partial) <= 64 and "\n" not in partial else None
    name = text[pos:close]
    if name in names:
        return _Match(start, body, close + 1, CallStart("json", name))
    # A name that was not offered is still a call attempt when "arguments" follows (the
    # model misnamed a tool: it is told so and gets one repair); else it is just JSON.
    pos = _skip_space(text, close + 1)
    for words in (",", _ARGUMENT_KEYS):
        found = _literal_of(text, pos, words)
        if not isinstance(found, int):
            return found
        pos = _skip_space(text, found)
    return _Match(start, body, pos, CallStart("json"))


def _literal_of(text: str, pos: int, words: str | tuple[str, ...]) -> int | Literal["maybe"] | None:
    """`_literal` for the first of several words that fits."""
    outcomes = [
        _literal(text, pos, word) for word in ((words,) if isinstance(words, str) else words)
    ]
    for outcome in outcomes:
        if isinstance(outcome, int):
            return outcome
    return _MAYBE if _MAYBE in outcomes else None


def _literal(text: str, pos: int, word: str) -> int | Literal["maybe"] | None:
    """Index after `word` at `pos`; "maybe" if the text ends inside it (or before it)."""
    rest = text[pos : pos + len(word)]
    if rest == word:
        return pos + len(word)
    if word.startswith(rest):
        return _MAYBE
    return None


def _could_be_name(partial: str, names: Sequence[str]) -> bool:
    return any(name.startswith(partial) for name in names)


def _may_become_tag(rest: str) -> bool:
    """`rest` (starting with "<") is cut short and may still become a tag trigger."""
    return any(
        len(rest) < len(tag) and tag.startswith(rest)
        for tag in (CALL_OPEN, THINK_OPEN, FUNCTION_OPEN, *_WRAPPERS)
    )


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def runaway_problem(problem: CallProblem) -> CallProblem:
    """A call that never ended because the model kept repeating itself (or ran to the token
    limit): say so, so that its one repair try writes a shorter call."""
    message = (
        "Your tool call did not end: it kept repeating the same text and was stopped. "
        "Write the call again, complete and short."
    )
    return CallProblem(problem.raw, problem.tool, message, (message,))
