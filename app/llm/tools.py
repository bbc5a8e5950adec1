"""Tool specs, parsed tool calls, value conversion and a small argument validator.

Pure Python and format-agnostic: the wire formats (app.llm.formats) turn model output into
`ToolCall`s, and everything here decides whether such a call can run. Problems come back as
`CallProblem`s whose message is written for the *model*, so the agent can hand it back for
one repair try. The validator is deliberately small and hand-written (no jsonschema
dependency): tool schemas are ours and use a plain subset of JSON Schema.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from app.llm.literal import load_literal

__all__ = [
    "CallProblem",
    "ToolCall",
    "ToolSpec",
    "coerce_arguments",
    "convert_arguments",
    "convert_value",
    "new_call_id",
    "schema_types",
    "tool_map",
    "validate_call",
]

JSON_TYPES = ("string", "integer", "number", "boolean", "object", "array", "null")


@dataclass(frozen=True)
class ToolSpec:
    """One tool offered to the model: its public name, what it does, its JSON schema."""

    name: str
    description: str
    parameters: Mapping[str, Any] = field(
        default_factory=lambda: {"type": "object", "properties": {}, "required": []},
        hash=False,
    )

    @property
    def properties(self) -> dict[str, Any]:
        props = self.parameters.get("properties") or {}
        return dict(props) if isinstance(props, Mapping) else {}

    @property
    def required(self) -> list[str]:
        required = self.parameters.get("required") or []
        return [str(name) for name in required] if isinstance(required, list) else []

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI tool shape that chat templates render with `tool | tojson`."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": _plain(self.parameters),
            },
        }

    @classmethod
    def from_openai(cls, data: Mapping[str, Any]) -> ToolSpec:
        """Accept both {"type": "function", "function": {...}} and the bare function object."""
        function = data.get("function", data)
        return cls(
            name=str(function["name"]),
            description=str(function.get("description", "")),
            parameters=function.get("parameters")
            or {"type": "object", "properties": {}, "required": []},
        )


def new_call_id() -> str:
    """An OpenAI-style call id; random so ids never collide across turns."""
    return "call_" + secrets.token_hex(8)


@dataclass
class ToolCall:
    """A parsed call: arguments are already converted to their schema types."""

    name: str
    arguments: dict[str, Any]
    id: str = field(default_factory=new_call_id)

    def to_openai(self) -> dict[str, Any]:
        """The assistant-message `tool_calls` entry; arguments stay a dict because the
        Qwen3.5 template iterates `arguments|items` (a JSON string makes it raise)."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": dict(self.arguments)},
        }


@dataclass(frozen=True)
class CallProblem:
    """A call the agent cannot run, explained for the model (one repair try).

    `raw` is the model's text for the call, `tool` the tool name if one could be read,
    `message` the whole explanation, `errors` the individual findings.
    """

    raw: str
    tool: str | None
    message: str
    errors: tuple[str, ...] = ()


def tool_map(tools: Iterable[ToolSpec] | Mapping[str, ToolSpec]) -> dict[str, ToolSpec]:
    """Normalise a list or mapping of tools into {name: spec}."""
    if isinstance(tools, Mapping):
        return dict(tools)
    return {tool.name: tool for tool in tools}


# -- conversion -------------------------------------------------------------------------------


def schema_types(schema: Any) -> list[str]:
    """The JSON types a schema admits, in schema order ([] when it says nothing)."""
    if not isinstance(schema, Mapping):
        return []
    found: list[str] = []

    def add(name: Any) -> None:
        text = str(name).lower()
        alias = {"int": "integer", "float": "number", "dict": "object", "list": "array"}
        text = alias.get(text, text)
        if text in JSON_TYPES and text not in found:
            found.append(text)

    kind = schema.get("type")
    if isinstance(kind, str):
        add(kind)
    elif isinstance(kind, list):
        for item in kind:
            add(item)
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for branch in branches:
                for item in schema_types(branch):
                    add(item)
    if not found and "enum" in schema and isinstance(schema["enum"], list):
        for value in schema["enum"]:
            add(_json_type_of(value))
    if not found and isinstance(schema.get("properties"), Mapping):
        add("object")
    if not found and isinstance(schema.get("items"), Mapping):
        add("array")
    if schema.get("nullable") is True:
        add("null")
    return found


def convert_value(raw: str, schema: Mapping[str, Any] | None) -> Any:
    """Turn one raw XML parameter value into the schema's type (vLLM Qwen3-coder rules).

    Strings and enums keep the raw text; failures keep the raw string too, so that
    validation reports them instead of a value being silently invented.
    """
    if not isinstance(schema, Mapping):
        return raw
    types = schema_types(schema)
    if "enum" in schema and not types:
        types = ["string"]
    if not types:
        return raw
    text = raw.strip()
    if text in ("null", "None", "NULL") and ("null" in types or "string" not in types):
        return None
    if "enum" in schema and isinstance(schema["enum"], list):
        for option in schema["enum"]:
            if not isinstance(option, str) and _scalar_text(option) == text:
                return option
    non_string = [kind for kind in types if kind not in ("string", "null")]
    for kind in non_string:
        ok, value = _convert_as(text, kind)
        if ok:
            return value
    return raw


def _convert_as(text: str, kind: str) -> tuple[bool, Any]:
    if kind == "integer":
        try:
            return True, int(text)
        except ValueError:
            pass
        try:
            number = float(text)
        except ValueError:
            return False, None
        if math.isfinite(number) and number.is_integer():
            return True, int(number)
        return False, None
    if kind == "number":
        try:
            number = float(text)
        except ValueError:
            return False, None
        if not math.isfinite(number):
            return False, None
        return True, int(number) if number.is_integer() else number
    if kind == "boolean":
        lowered = text.lower()
        if lowered in ("true", "false"):
            return True, lowered == "true"
        return False, None
    if kind in ("object", "array"):
        wanted = dict if kind == "object" else list
        value = load_literal(text)
        if isinstance(value, wanted):
            return True, value
        if kind == "array" and isinstance(value, tuple):
            return True, list(value)
        return False, None
    return False, None


def convert_arguments(raw: Mapping[str, str], tool: ToolSpec | None) -> dict[str, Any]:
    """Convert every raw XML value by its schema; unknown parameters stay strings."""
    props = tool.properties if tool else {}
    return {name: convert_value(value, props.get(name)) for name, value in raw.items()}


def coerce_arguments(args: Mapping[str, Any], tool: ToolSpec | None) -> dict[str, Any]:
    """Repair JSON arguments a small model typed loosely ("10" for 10, 3.0 for 3).

    Only lossless fixes: a string is converted when the schema does not admit strings,
    an integral float becomes an int where only integers are allowed.
    """
    props = tool.properties if tool else {}
    fixed: dict[str, Any] = {}
    for name, value in args.items():
        schema = props.get(name)
        types = schema_types(schema)
        if isinstance(value, str) and types and "string" not in types:
            value = convert_value(value, schema)
        elif (
            isinstance(value, float)
            and "integer" in types
            and "number" not in types
            and math.isfinite(value)
            and value.is_integer()
        ):
            value = int(value)
        fixed[name] = value
    return fixed


# -- validation -------------------------------------------------------------------------------


def validate_call(call: ToolCall, tools: Mapping[str, ToolSpec]) -> list[str]:
    """Everything wrong with `call`, each a sentence for the model; [] when it can run."""
    tool = tools.get(call.name)
    if tool is None:
        names = ", ".join(sorted(tools)) or "none"
        close = _likely_tool(call.name, list(tools))
        hint = f" Did you mean '{close}'?" if close else ""
        return [f"Unknown tool '{call.name}'.{hint} Available tools: {names}."]
    errors: list[str] = []
    props = tool.properties
    extra_allowed = tool.parameters.get("additionalProperties") not in (None, False)
    for name in call.arguments:
        if name not in props and not extra_allowed:
            known = ", ".join(props) or "none"
            errors.append(
                f"Tool '{tool.name}' has no parameter '{name}'. Its parameters are: {known}."
            )
    for name in tool.required:
        if name not in call.arguments:
            errors.append(f"Missing required parameter '{name}' for tool '{tool.name}'.")
    for name, value in call.arguments.items():
        if name in props:
            errors.extend(_check(value, props[name], f"Parameter '{name}'"))
    return errors


def _likely_tool(name: str, names: list[str]) -> str | None:
    """The offered tool a misnamed call most likely meant: the same words in another order
    ("search_web" → web_search), else the closest spelling."""
    words = set(re.split(r"[\W_]+", name.lower())) - {""}
    for candidate in names:
        if set(candidate.lower().split("_")) == words:
            return candidate
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return close[0] if close else None


_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean (true or false)",
    "object": "an object",
    "array": "an array",
    "null": "null",
}


def _check(value: Any, schema: Any, where: str, depth: int = 0) -> list[str]:
    if not isinstance(schema, Mapping) or depth > 20:
        return []
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            results = [_check(value, branch, where, depth + 1) for branch in branches]
            if any(not found for found in results):
                return []
            typed = [
                found
                for branch, found in zip(branches, results, strict=True)
                if _matches_type(value, schema_types(branch))
            ]
            if typed:
                return typed[0]
            wanted = _type_phrase(schema_types(schema))
            return [f"{where} must be {wanted}, got {_show(value)}."]
    if "const" in schema and not _same(value, schema["const"]):
        return [f"{where} must be {_show(schema['const'])}, got {_show(value)}."]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        if not any(_same(value, option) for option in enum):
            options = ", ".join(_show(option) for option in enum)
            return [f"{where} must be one of {options}, got {_show(value)}."]
        return []
    types = schema_types(schema)
    if types and not _matches_type(value, types):
        return [f"{where} must be {_type_phrase(types)}, got {_show(value)}."]
    errors: list[str] = []
    if isinstance(value, str):
        errors.extend(_check_string(value, schema, where))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        errors.extend(_check_number(value, schema, where))
    elif isinstance(value, list):
        errors.extend(_check_array(value, schema, where, depth))
    elif isinstance(value, dict):
        errors.extend(_check_object(value, schema, where, depth))
    return errors


def _check_string(value: str, schema: Mapping[str, Any], where: str) -> list[str]:
    errors = []
    longest = schema.get("maxLength")
    if isinstance(longest, int) and len(value) > longest:
        errors.append(
            f"{where} must be at most {longest} characters long, got {len(value)} characters."
        )
    shortest = schema.get("minLength")
    if isinstance(shortest, int) and len(value) < shortest:
        errors.append(
            f"{where} must be at least {shortest} characters long, got {len(value)} characters."
        )
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            if re.search(pattern, value) is None:
                errors.append(f"{where} must match the pattern {pattern}, got {_show(value)}.")
        except re.error:
            pass
    problem = _format_problem(value, schema.get("format"))
    if problem:
        errors.append(f"{where} must be {problem}, got {_show(value)}.")
    return errors


# The shapes the call grammar produces (app.llm.formats.grammar), plus fractions of a second.
_DATE = r"[12]\d{3}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])"
_TIME = r"([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?"
_DATE_TIME = re.compile(rf"{_DATE}[T ]{_TIME}(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?")
# An address to send to, as `connectors.email_address.ADDRESS` defines it (the model layer
# reaches no connector, so the shape is repeated here; tests/llm/test_tools_email.py holds
# the two to the same answers).
_ADDRESS_CHAR = r"[^@\s<>()\[\],;:\"'\\]"
_EMAIL = re.compile(rf"{_ADDRESS_CHAR}+@{_ADDRESS_CHAR}+\.[^@\s<>()\[\],;:\"'\\.]+")


def _format_problem(value: str, fmt: Any) -> str:
    """What `value` should look like for the schema's `format` ("" when it does). The call
    grammar enforces the same shapes, and calls made without it are held to them too. An
    impossible day (30 February) passes here and is refused by the tool, with its reason."""
    if fmt == "date-time" and not _DATE_TIME.fullmatch(value):
        if re.fullmatch(_DATE, value):
            return "a date and time, not only a date"
        return "a date and time in ISO 8601 form, like 2026-12-01T09:30"
    if fmt == "date" and not re.fullmatch(_DATE, value):
        return "a date in the form YYYY-MM-DD"
    if fmt == "time" and not re.fullmatch(_TIME, value):
        return "a time like 09:30"
    if fmt == "email" and not _EMAIL.fullmatch(value):
        return "an email address like name@example.org"
    if fmt in ("uri", "url") and not re.match(r"https?://\S", value):
        return "a web address starting with http:// or https://"
    return ""


def _check_number(value: float, schema: Mapping[str, Any], where: str) -> list[str]:
    errors = []
    low, high = schema.get("minimum"), schema.get("maximum")
    if _is_number(low) and value < low:
        errors.append(f"{where} must be at least {_show(low)}, got {_show(value)}.")
    if _is_number(high) and value > high:
        errors.append(f"{where} must be at most {_show(high)}, got {_show(value)}.")
    low, high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if _is_number(low) and value <= low:
        errors.append(f"{where} must be greater than {_show(low)}, got {_show(value)}.")
    if _is_number(high) and value >= high:
        errors.append(f"{where} must be less than {_show(high)}, got {_show(value)}.")
    return errors


def _check_array(value: list[Any], schema: Mapping[str, Any], where: str, depth: int) -> list[str]:
    errors = []
    fewest, most = schema.get("minItems"), schema.get("maxItems")
    if isinstance(fewest, int) and len(value) < fewest:
        errors.append(f"{where} must have at least {fewest} items, got {len(value)}.")
    if isinstance(most, int) and len(value) > most:
        errors.append(f"{where} must have at most {most} items, got {len(value)}.")
    items = schema.get("items")
    if isinstance(items, Mapping):
        for index, item in enumerate(value, start=1):
            errors.extend(_check(item, items, f"{where} item {index}", depth + 1))
    return errors


def _check_object(
    value: dict[str, Any], schema: Mapping[str, Any], where: str, depth: int
) -> list[str]:
    errors = []
    props = schema.get("properties")
    props = props if isinstance(props, Mapping) else {}
    required = schema.get("required")
    for name in required if isinstance(required, list) else []:
        if name not in value:
            errors.append(f"{where} is missing the field '{name}'.")
    for name, item in value.items():
        if name in props:
            errors.extend(_check(item, props[name], f"{where} field '{name}'", depth + 1))
        elif schema.get("additionalProperties") is False:
            errors.append(f"{where} has an unknown field '{name}'.")
    return errors


def _matches_type(value: Any, types: list[str]) -> bool:
    return any(_is_type(value, kind) for kind in types) if types else True


def _is_type(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return _is_number(value)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "null":
        return value is None
    return True


def _is_number(value: Any) -> TypeGuard[float]:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and (not isinstance(value, float) or math.isfinite(value))
    )


def _same(value: Any, option: Any) -> bool:
    """Equality that keeps True apart from 1 (Python says True == 1)."""
    if isinstance(value, bool) or isinstance(option, bool):
        return isinstance(value, bool) and isinstance(option, bool) and value == option
    return bool(value == option)


def _type_phrase(types: list[str]) -> str:
    words = [_TYPE_WORDS.get(kind, kind) for kind in types]
    if len(words) <= 1:
        return words[0] if words else "a value"
    return ", ".join(words[:-1]) + " or " + words[-1]


def _json_type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _show(value: Any, limit: int = 80) -> str:
    """A value as the model would recognise it: strings quoted, the rest as JSON."""
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 3] + "..."
        return "'" + text + "'"
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _plain(value: Any) -> Any:
    """Deep-copy mappings into dicts so json.dumps and Jinja see ordinary containers."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value
