"""Read the body of one <tool_call> block: Qwen XML or Hermes JSON, whichever it is.

Both readers accept both bodies, because a small model sometimes answers in the other
family's syntax and there is no ambiguity between "<function=" and "{".

A scan is asked in one of four modes, because what "the end of the text" means differs:

- "open": streaming, more text may come. Only a structurally complete call counts.
- "candidate": the text is cut right before a "</tool_call>"; is that tag real, or is it
  inside a parameter value / JSON string (status "in_value")?
- "closed": the block was closed by "</tool_call>"; missing inner closers are tolerated.
- "eof": the stream ended without "</tool_call>"; a call is kept only if nothing is cut
  off (a value that never ended means the output was truncated).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from app.llm.literal import load_literal

Mode = Literal["open", "candidate", "closed", "eof"]
Status = Literal["complete", "in_value", "incomplete", "invalid"]

FUNC = "<function="
PARAM = "<parameter="
END_PARAM = "</parameter>"
END_FUNC = "</function>"

_DECODER = json.JSONDecoder()


@dataclass
class RawCall:
    """A call as read from the text: XML values are still raw strings (`typed` False)."""

    name: str
    arguments: dict[str, Any]
    typed: bool
    notes: list[str] = field(default_factory=list)


@dataclass
class Scan:
    status: Status
    end: int = 0  # for "complete": index just after the structural end
    calls: list[RawCall] = field(default_factory=list)
    message: str = ""  # what is wrong or missing, for the model
    tool: str | None = None  # the function name, if it was read


def scan_body(body: str, mode: Mode) -> Scan:
    """Scan the text after "<tool_call>" (without the closing tag)."""
    pos = _skip_ws(body, 0)
    if pos == len(body):
        return Scan("incomplete", message="the tool call was empty")
    if body[pos] == "<":
        return _scan_xml(body, pos, mode)
    if body[pos] in "{[":
        return _scan_json(body, pos, mode)
    return Scan(
        "invalid",
        message=f"expected the call right after <tool_call>, found {_snippet(body[pos:])}",
    )


# -- Qwen XML --------------------------------------------------------------------------------


def _scan_xml(body: str, pos: int, mode: Mode) -> Scan:
    calls: list[RawCall] = []
    while True:
        rest = body[pos:]
        if not body.startswith(FUNC, pos):
            if FUNC.startswith(rest) and mode in ("open", "eof"):
                return Scan("incomplete", message="the output ended before the function name")
            return Scan(
                "invalid",
                message=f"expected <function=NAME> after <tool_call>, found {_snippet(rest)}",
            )
        name_start = pos + len(FUNC)
        name_end = _tag_end(body, name_start)
        if name_end is None:
            if "\n" not in body[name_start:] and mode in ("open", "eof"):
                return Scan("incomplete", message="the output ended inside the function name")
            return Scan("invalid", message="the <function=NAME> tag was not closed with '>'")
        name = body[name_start:name_end].strip()
        if not name:
            return Scan("invalid", message="the <function=NAME> tag has no name")
        pos = name_end + 1
        if body.startswith("{", _skip_ws(body, pos)):
            found = _json_arguments(body, _skip_ws(body, pos), mode, name)
            if isinstance(found, Scan):
                return found
            calls.append(found[0])
            pos = found[1]
            following = _skip_ws(body, pos)
            if body.startswith(FUNC, following):
                pos = following
                continue
            return Scan("complete", end=pos, calls=calls, tool=name)
        arguments: dict[str, Any] = {}
        notes: list[str] = []
        while True:
            pos = _skip_ws(body, pos)
            if body.startswith(PARAM, pos):
                outcome = _read_parameter(body, pos, mode, name)
                if isinstance(outcome, Scan):
                    return outcome
                param, value, pos = outcome
                if param in arguments:
                    notes.append(f"Parameter '{param}' was given more than once.")
                else:
                    arguments[param] = value
                continue
            if body.startswith(END_FUNC, pos):
                pos += len(END_FUNC)
                calls.append(RawCall(name, arguments, typed=False, notes=notes))
                following = _skip_ws(body, pos)
                if body.startswith(FUNC, following):  # several functions in one block
                    pos = following
                    break
                return Scan("complete", end=pos, calls=calls, tool=name)
            rest = body[pos:]
            partial_tag = bool(rest) and (PARAM.startswith(rest) or END_FUNC.startswith(rest))
            if mode == "open" and (not rest or partial_tag):
                return Scan("incomplete", tool=name)
            if not rest or partial_tag:
                # "</function>" never came: fine once the block was closed, or when the
                # output simply stopped after a finished parameter.
                if mode == "eof" and not arguments:
                    return Scan(
                        "incomplete",
                        tool=name,
                        message=f"the output ended right after <function={name}>",
                    )
                calls.append(RawCall(name, arguments, typed=False, notes=notes))
                return Scan("complete", end=pos, calls=calls, tool=name)
            return Scan(
                "invalid",
                tool=name,
                message=(
                    f"unexpected text {_snippet(rest)} inside <function={name}>; write each "
                    "argument as <parameter=NAME>, the value on the next lines, then </parameter>"
                ),
            )


def _json_arguments(body: str, pos: int, mode: Mode, function: str) -> tuple[RawCall, int] | Scan:
    """`<function=NAME>{...}</function>`: one JSON object of arguments (Llama-style calls
    that Hermes models sometimes write). Returns the call and the index after its end."""
    try:
        value, end = _DECODER.raw_decode(body, pos)
    except (json.JSONDecodeError, RecursionError):
        in_string, depth = _json_state(body, pos)
        if mode in ("open", "candidate") or (mode == "eof" and (in_string or depth > 0)):
            status: Status = "in_value" if in_string and mode != "eof" else "incomplete"
            return Scan(status, tool=function, message="the output ended inside the arguments")
        return Scan("invalid", tool=function, message="the arguments are not valid JSON")
    if not isinstance(value, dict):
        return Scan("invalid", tool=function, message="the arguments must be a JSON object")
    after = _skip_ws(body, end)
    if body.startswith(END_FUNC, after):
        end = after + len(END_FUNC)
    elif mode == "open" and END_FUNC.startswith(body[after:]):
        return Scan("incomplete", tool=function)
    return RawCall(function, value, typed=True), end


def _read_parameter(body: str, pos: int, mode: Mode, function: str) -> tuple[str, str, int] | Scan:
    """Read one <parameter=NAME> and its value; returns (name, raw value, next index)."""
    name_start = pos + len(PARAM)
    name_end = _tag_end(body, name_start)
    if name_end is None:
        if "\n" not in body[name_start:] and mode in ("open", "eof"):
            return Scan("incomplete", tool=function, message="the output ended inside a tag")
        return Scan(
            "invalid",
            tool=function,
            message="a <parameter=NAME> tag was not closed with '>'",
        )
    param = body[name_start:name_end].strip()
    start = name_end + 1
    if body.startswith("\n", start):
        start += 1
    found = _value_end(body, start, mode)
    if found is None:
        if mode in ("open", "candidate"):
            return Scan("in_value", tool=function)
        boundary = _fallback_boundary(body, start)
        if boundary is not None:
            end, after = boundary, boundary + 1
        elif mode == "closed":
            end = after = len(body)
        else:
            return Scan(
                "in_value",
                tool=function,
                message=f"the output ended inside the value of '{param}'",
            )
    else:
        end, after = found
    value = body[start:end]
    if value.endswith("\n"):
        value = value[:-1]
    return param, value, after


def _value_end(body: str, start: int, mode: Mode) -> tuple[int, int] | None:
    """Where a value ends: the first "</parameter>" followed by another parameter or by
    "</function>" (or by the end of a finished block). A "</parameter>" followed by
    anything else is part of the value. A complete <parameter=NAME> tag at a line start
    before that also ends it: the model forgot "</parameter>" (a common slip)."""
    early = _parameter_at_line_start(body, start)
    search = start
    while (index := body.find(END_PARAM, search, early)) != -1:
        after = index + len(END_PARAM)
        follow = body[_skip_ws(body, after) :]
        if follow.startswith(PARAM) or follow.startswith(END_FUNC):
            return index, after
        partial = PARAM.startswith(follow) or END_FUNC.startswith(follow)  # "" counts
        if partial:
            if mode == "open":
                return None  # cannot tell yet
            if not follow or mode == "eof":
                return index, after
        search = index + 1
    if early is not None:
        return early + 1, early + 1  # the caller drops the newline before the tag
    return None


def _parameter_at_line_start(body: str, start: int) -> int | None:
    """Index of the newline before the first complete "<parameter=NAME>" at a line start."""
    index = body.find("\n" + PARAM, start)
    while index != -1:
        if _tag_end(body, index + 1 + len(PARAM)) is not None:
            return index
        index = body.find("\n" + PARAM, index + 1)
    return None


def _fallback_boundary(body: str, start: int) -> int | None:
    """For a value whose "</parameter>" is missing in a finished block: "</function>"
    at a line start ends it."""
    index = body.find("\n" + END_FUNC, start)
    return index if index >= 0 else None


def _tag_end(body: str, start: int) -> int | None:
    """Index of the ">" closing a tag name, or None if the name is unfinished/broken."""
    close = body.find(">", start)
    newline = body.find("\n", start)
    if close == -1 or (newline != -1 and newline < close):
        return None
    return close


# -- Hermes JSON -----------------------------------------------------------------------------


def _scan_json(body: str, pos: int, mode: Mode) -> Scan:
    calls: list[RawCall] = []
    while True:
        try:
            value, end = _DECODER.raw_decode(body, pos)
        except (json.JSONDecodeError, RecursionError) as exc:
            if calls:  # a later object is unfinished or broken: stop after the good ones
                if mode == "open":
                    return Scan("incomplete")
                return Scan("complete", end=pos, calls=calls, tool=calls[0].name)
            return _broken_json(body, pos, mode, exc)
        found = _calls_from_json(value)
        if isinstance(found, str):
            return Scan("invalid", message=found)
        calls.extend(found)
        following = _skip_ws(body, end)
        if following < len(body) and body[following] == "{":
            pos = following
            continue
        return Scan("complete", end=end, calls=calls, tool=calls[0].name if calls else None)


def _broken_json(body: str, pos: int, mode: Mode, exc: Exception) -> Scan:
    in_string, depth = _json_state(body, pos)
    if mode == "open":
        return Scan("incomplete")
    if mode == "candidate":
        return Scan("in_value" if in_string else "incomplete")
    text = body[pos:].strip()
    if not in_string:
        for attempt in (text, text + "}", text + "}}", text + "]"):
            value = _lenient_load(attempt)
            if value is not None:
                found = _calls_from_json(value)
                if isinstance(found, str):
                    return Scan("invalid", message=found)
                return Scan(
                    "complete", end=len(body), calls=found, tool=found[0].name if found else None
                )
    if mode == "eof" and (in_string or depth > 0):
        return Scan("incomplete", message="the output ended inside the JSON of the call")
    detail = getattr(exc, "msg", str(exc))
    return Scan("invalid", message=f"the call is not valid JSON ({detail})")


def _lenient_load(text: str) -> Any:
    value = load_literal(text)
    return value if isinstance(value, (dict, list)) else None


def _json_state(body: str, pos: int) -> tuple[bool, int]:
    """(inside a string?, open bracket depth) at the end of `body`."""
    in_string = escaped = False
    depth = 0
    for char in body[pos:]:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
    return in_string, depth


def _calls_from_json(value: Any) -> list[RawCall] | str:
    items = value if isinstance(value, list) else [value]
    calls = []
    for item in items:
        if not isinstance(item, dict):
            return 'each call must be a JSON object like {"name": ..., "arguments": {...}}'
        if isinstance(item.get("function"), dict) and "name" not in item:
            item = item["function"]  # OpenAI shape
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            return 'the call has no "name" (write {"name": "TOOL", "arguments": {...}})'
        arguments = item.get("arguments", item.get("parameters", {}))
        if isinstance(arguments, str):
            loaded = _lenient_load(arguments) if arguments.strip() else {}
            if not isinstance(loaded, dict):
                return f'the "arguments" of {name} must be a JSON object'
            arguments = loaded
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return f'the "arguments" of {name} must be a JSON object'
        calls.append(RawCall(name.strip(), dict(arguments), typed=True))
    if not calls:
        return "the call list was empty"
    return calls


# -- helpers ---------------------------------------------------------------------------------


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _snippet(text: str, limit: int = 40) -> str:
    text = text.strip()
    if len(text) > limit:
        text = text[:limit] + "..."
    return repr(text)
