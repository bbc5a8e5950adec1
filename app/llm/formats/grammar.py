"""GBNF grammars for one tool-call span, built from the offered tools' JSON schemas.

The runtime samples freely until the model writes "<tool_call>", then continues under one
of these grammars until "</tool_call>" (llama.cpp's lazy grammar, emulated). A grammar
makes the call well-formed by construction: known tool names only, required parameters
present, enums as literal alternatives, typed numbers and booleans, bounded strings (tiny
models otherwise wander inside a string until the token limit).

Rules of the house:
- Only quoted literals and character classes: never a token literal like <|im_end|>.
  llama.cpp aborts the whole process if a grammar names an end-of-generation token.
- Parameters come in schema order (required ones mandatory, optional ones optional);
  the parser accepts any order, the grammar only has to produce one valid form.
- Qwen XML string values cannot contain "\\n<" or "</", so "\\n</parameter>" can only
  ever be the real end of a value; JSON strings cannot contain a raw "</" either, so
  "</tool_call>" cannot appear inside one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from app.llm.tools import ToolSpec, schema_types

# Strings up to this many characters (by maxLength) are single-line in the XML format:
# titles, queries and names, where a newline is a small model's mistake.
SHORT_STRING = 200
_MAX_DEPTH = 8

# One JSON string unit. A raw "</" is refused (the model can write "<\\/" instead): a call
# ends at "</tool_call>" in the text, so a string holding one would cut the call in half.
_JSON_ESCAPE = r'"\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F]{4} )'
_JSON_CHAR = (
    rf'[^"\\<\x7F\x00-\x1F] | "<" ( [^/"\\<\x7F\x00-\x1F] | {_JSON_ESCAPE} ) | {_JSON_ESCAPE}'
)
# One XML text unit: no "</" and no "<" at a line start; blank lines are fine.
_XML_UNIT = r'[^\n<] | "<" [^/\n<] | "\n" "\n"? [^<\n]'
# Blank space between JSON tokens in a loose grammar: enough for a pretty-printed call,
# bounded so that a model cannot wander in it.
JSON_SPACE = "[ \\t\\n]{0,24}"
_URL_CHARS = "[a-zA-Z0-9._~:/?#@!$&'()*+,;=%-]"
# Dates and times in ranges a calendar knows (month 01-12, day 01-31, hour 00-23), the same
# shapes app.llm.tools checks, so a call the grammar allows is never refused by validation.
_DATE = '[12] [0-9]{3} "-" ( "0" [1-9] | "1" [0-2] ) "-" ( "0" [1-9] | [12] [0-9] | "3" [01] )'
_HOUR = '( [01] [0-9] | "2" [0-3] )'
_TIME = f'{_HOUR} ":" [0-5] [0-9] ( ":" [0-5] [0-9] )?'
_FORMATS = {
    "date": _DATE,
    "time": _TIME,
    "date-time": f'{_DATE} "T" {_TIME} ( "Z" | [+-] {_HOUR} ":" [0-5] [0-9] )?',
    "email": ('[a-zA-Z0-9._%+-]{1,64} "@" [a-zA-Z0-9-]{1,63} ( "." [a-zA-Z0-9-]{1,63} ){1,4}'),
    "uri": f'"http" "s"? "://" {_URL_CHARS}{{1,500}}',
    "url": f'"http" "s"? "://" {_URL_CHARS}{{1,500}}',
}


def literal(text: str) -> str:
    """A GBNF string literal matching exactly `text`."""
    out = ['"']
    for char in text:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\x{ord(char):02X}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def xml_text(value: Any) -> str:
    """A value as the Qwen3.5 template writes it: JSON for containers, else `| string`."""
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


class GrammarBuilder:
    """Collects named GBNF rules; one instance builds one grammar."""

    def __init__(self, max_string_length: int | None = None, *, loose: bool = False) -> None:
        """`loose`: JSON may be spaced as the model likes (a few blanks or newlines around
        each bracket, comma and colon), for calls the model began in its own layout."""
        self.max_string = max_string_length
        self.rules: dict[str, str] = {}
        self.loose = loose
        if loose:
            self.rules["ws"] = JSON_SPACE

    def _sep(self, text: str) -> str:
        """A JSON separator (", " or ": "), exactly so, or loosely spaced."""
        return f'"{text.strip()}" ws' if self.loose else literal(text)

    def _brackets(self, opening: str, inner: str, closing: str) -> str:
        if self.loose:
            return f'"{opening}" ws {inner} ws "{closing}"'
        return f'"{opening}" {inner} "{closing}"'

    def add(self, name: str, body: str) -> str:
        """Add a rule (or reuse an identical one) and return its name."""
        base = re.sub(r"[^a-zA-Z0-9-]+", "-", name).strip("-").lower() or "r"
        name, number = base, 1
        while name in self.rules and self.rules[name] != body:
            number += 1
            name = f"{base}-{number}"
        self.rules[name] = body
        return name

    def render(self, root: str) -> str:
        lines = [f"root ::= {root}"]
        lines.extend(f"{name} ::= {body}" for name, body in self.rules.items())
        return "\n".join(lines) + "\n"

    # -- JSON values ------------------------------------------------------------------------

    def json_value(self, schema: Any, name: str, depth: int = 0) -> str:
        """Rule name for a JSON text (compact, ", " and ": " like json.dumps) of `schema`."""
        if depth > _MAX_DEPTH or not isinstance(schema, Mapping) or not schema:
            return self.any_json()
        if "const" in schema:
            return self.add(name, literal(_dumps(schema["const"])))
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            return self.add(name, " | ".join(literal(_dumps(option)) for option in enum))
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches:
                parts = [
                    self.json_value(_merged(schema, branch, key), f"{name}-{index}", depth + 1)
                    for index, branch in enumerate(branches)
                ]
                return self.add(name, " | ".join(parts))
        types = schema_types(schema)
        if not types:
            return self.any_json()
        if len(types) == 1:
            return self.json_typed(schema, types[0], name, depth)
        parts = [self.json_typed(schema, kind, f"{name}-{kind}", depth) for kind in types]
        return self.add(name, " | ".join(parts))

    def json_typed(self, schema: Mapping[str, Any], kind: str, name: str, depth: int) -> str:
        if kind == "string":
            return self.json_string(schema)
        if kind == "integer":
            return self.integer(schema)
        if kind == "number":
            return self.number(schema)
        if kind == "boolean":
            return self.add("boolean", '"true" | "false"')
        if kind == "null":
            return self.add("null", '"null"')
        if kind == "object":
            if isinstance(schema.get("properties"), Mapping) and schema["properties"]:
                return self.json_object(schema, name, depth)
            return self.add("any-object", self._any_object_body())
        if kind == "array":
            items = schema.get("items")
            item = (
                self.json_value(items, f"{name}-item", depth + 1)
                if isinstance(items, Mapping)
                else self.any_json()
            )
            return self.add(name, self._array_body(item, schema))
        return self.any_json()

    def json_object(self, schema: Mapping[str, Any], name: str, depth: int) -> str:
        """An object with the schema's properties in order; required ones always present."""
        props = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        entries = []
        for index, (key, sub) in enumerate(props.items()):
            value = self.json_value(sub, f"{name}-{index}", depth + 1)
            key_text = literal(_dumps(str(key)))
            pair = self.add(f"{name}-kv{index}", f"{key_text} {self._sep(': ')} {value}")
            entries.append((pair, key in required))
        memo: dict[tuple[int, bool], str | None] = {}

        def tail(index: int, started: bool) -> str | None:
            """Rule for entries index.. given whether an entry was already written."""
            if index == len(entries):
                return None
            if (index, started) in memo:
                return memo[(index, started)]
            pair, needed = entries[index]
            if started:
                comma = self._sep(", ")
                part = f"{comma} {pair}" if needed else f"( {comma} {pair} )?"
                after = tail(index + 1, True)
                body = f"{part} {after}" if after else part
            else:
                after = tail(index + 1, True)
                with_this = f"{pair} {after}" if after else pair
                if needed:
                    body = with_this
                else:
                    skip = tail(index + 1, False)
                    body = f"{with_this} | {skip}" if skip else f"( {with_this} )?"
            rule = self.add(f"{name}-{'r' if started else 's'}{index}", body)
            memo[(index, started)] = rule
            return rule

        inner = tail(0, False)
        return self.add(name, self._brackets("{", inner or "", "}"))

    def json_string(self, schema: Mapping[str, Any]) -> str:
        fmt = schema.get("format")
        if fmt in _FORMATS:
            return self.add(f"json-{fmt}", f'"\\"" {self.add(f"fmt-{fmt}", _FORMATS[fmt])} "\\""')
        low, high = self._length_bounds(schema)
        char = self.add("json-char", _JSON_CHAR)
        bounds = f"{{{low},{high}}}" if high is not None else f"{{{low},}}"
        return self.add(f"json-string-{low}-{high or 'n'}", f'"\\"" {char}{bounds} "\\""')

    def integer(self, schema: Mapping[str, Any]) -> str:
        low, high = _int_bounds(schema)
        if low is not None and high is not None and 0 <= high - low <= 200:
            options = " | ".join(literal(str(value)) for value in range(low, high + 1))
            return self.add(f"int-{low}-{high}".replace("--", "-m"), options)
        if low is not None and high is None and 0 <= low < 10**14:
            return self.add(f"int-min-{low}", _at_least(low))
        if low is not None and high is not None and 0 <= low <= high < 10**15:
            return self.add(f"int-{low}-to-{high}", _between(low, high))
        digits = 15
        if low is not None and high is not None:
            digits = max(len(str(abs(low))), len(str(abs(high))))
        sign = '"-"? ' if low is None or low < 0 else ""
        body = f'{sign}( "0" | [1-9] [0-9]{{0,{digits - 1}}} )'
        return self.add(f"int-{'s' if sign else 'u'}{digits}", body)

    def number(self, schema: Mapping[str, Any]) -> str:
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        unsigned = isinstance(low, (int, float)) and not isinstance(low, bool) and low >= 0
        sign = "" if unsigned else '"-"? '
        body = f'{sign}( "0" | [1-9] [0-9]{{0,14}} ) ( "." [0-9]{{1,10}} )?'
        return self.add(f"number-{'u' if unsigned else 's'}", body)

    def any_json(self) -> str:
        """Any JSON value (for schemas that say nothing): recursion is fine in GBNF."""
        if "any-json" not in self.rules:
            self.rules["any-json"] = ""  # reserve the name for the recursive references
            string = self.json_string({})
            self.rules["any-json"] = (
                f'any-object | any-array | {string} | {self.number({})} | "true" | "false" | "null"'
            )
            self.add("any-object", self._any_object_body())
            self.add("any-array", self._array_body("any-json", {}))
        return "any-json"

    def _any_object_body(self) -> str:
        self.any_json()
        key = self.json_string({})
        pair = f"{key} {self._sep(': ')} any-json"
        return self._brackets("{", f"( {pair} ( {self._sep(', ')} {pair} )* )?", "}")

    def _array_body(self, item: str, schema: Mapping[str, Any]) -> str:
        low = schema.get("minItems")
        high = schema.get("maxItems")
        low = low if isinstance(low, int) and low > 0 else 0
        high = high if isinstance(high, int) and high >= max(low, 1) else None
        if high == 0:
            return self._brackets("[", "", "]")
        more_low = max(low - 1, 0)
        more = f"{{{more_low},{high - 1}}}" if high is not None else f"{{{more_low},}}"
        items = f"{item} ( {self._sep(', ')} {item} ){more}"
        return self._brackets("[", items if low > 0 else f"( {items} )?", "]")

    # -- Qwen XML values --------------------------------------------------------------------

    def xml_value(self, schema: Any, name: str) -> str:
        """Rule name for a raw parameter value as the Qwen3.5 template writes it."""
        if not isinstance(schema, Mapping) or not schema:
            return self.xml_string({})
        if "const" in schema:
            return self.add(name, literal(xml_text(schema["const"])))
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            options = {xml_text(option) for option in enum}
            return self.add(name, " | ".join(literal(option) for option in sorted(options)))
        types = schema_types(schema)
        if not types or "string" in types:
            return self.xml_string(schema)  # a raw string can stand for any other type
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches:
                parts = [
                    self.xml_value(_merged(schema, branch, key), f"{name}-{index}")
                    for index, branch in enumerate(branches)
                ]
                return self.add(name, " | ".join(parts))
        parts = []
        for kind in types:
            if kind == "boolean":
                parts.append(self.add("xml-boolean", '"true" | "false" | "True" | "False"'))
            elif kind == "null":
                parts.append(self.add("xml-null", '"null" | "None"'))
            else:
                parts.append(self.json_typed(schema, kind, f"{name}-{kind}", 0))
        return parts[0] if len(parts) == 1 else self.add(name, " | ".join(parts))

    def xml_string(self, schema: Mapping[str, Any]) -> str:
        fmt = schema.get("format")
        if fmt in _FORMATS:
            return self.add(f"fmt-{fmt}", _FORMATS[fmt])
        low, high = self._length_bounds(schema)
        low = max(low, 1)  # an empty value is almost always a small model's slip
        if high is not None and high <= SHORT_STRING:
            return self.add(f"xml-line-{low}-{high}", f"[^\\n<]{{{low},{high}}}")
        unit = self.add("xml-unit", _XML_UNIT)
        bounds = f"{{{low},{high}}}" if high is not None else f"{{{low},}}"
        return self.add(f"xml-text-{low}-{high or 'n'}", f"{unit}{bounds}")

    def _length_bounds(self, schema: Mapping[str, Any]) -> tuple[int, int | None]:
        low = schema.get("minLength")
        low = low if isinstance(low, int) and low >= 0 else 1  # "" is usually a slip
        high = schema.get("maxLength")
        high = high if isinstance(high, int) and high >= 0 else self.max_string
        if high is not None:
            high = max(high, low, 1)
        return low, high


def xml_call_grammar(tools: Iterable[ToolSpec], max_string_length: int | None = None) -> str:
    """Grammar for the Qwen3.5 XML call, from just after "<tool_call>" to "</tool_call>"."""
    builder = GrammarBuilder(max_string_length)
    choices = []
    for index, tool in enumerate(_tool_list(tools)):
        body = " ".join([literal(f"{tool.name}>\n"), *_xml_parameters(builder, tool, index)])
        choices.append(builder.add(f"t{index}-{tool.name}", body))
    call = builder.add("call", " | ".join(choices))
    # The newline is optional: the token that finished "<tool_call>" may have carried it.
    return builder.render(f'"\\n"? "<function=" {call} "</function>\\n</tool_call>"')


def json_call_grammar(tools: Iterable[ToolSpec], max_string_length: int | None = None) -> str:
    """Grammar for the Hermes JSON call, from just after "<tool_call>" to "</tool_call>"."""
    builder = GrammarBuilder(max_string_length)
    choices = []
    for index, tool in enumerate(_tool_list(tools)):
        arguments = builder.json_object(_arguments_schema(tool), f"t{index}-args", 0)
        head = literal(_dumps(tool.name) + ', "arguments": ')
        choices.append(builder.add(f"t{index}-{tool.name}", f"{head} {arguments}"))
    call = builder.add("call", " | ".join(choices))
    return builder.render(f'"\\n"? "{{\\"name\\": " {call} "}}\\n</tool_call>"')


def json_rest_grammar(tool: ToolSpec, max_string_length: int | None = None) -> str:
    """Grammar for the rest of a JSON call the model opened as `{"name": "TOOL"` in its own
    layout (bare, in a fence): the arguments, spaced as it likes, and the closing brace."""
    builder = GrammarBuilder(max_string_length, loose=True)
    arguments = builder.json_object(_arguments_schema(tool), "args", 0)
    return builder.render(f'ws "," ws "\\"arguments\\"" ws ":" ws {arguments} ws "}}"')


def function_rest_grammar(
    tool: ToolSpec, *, xml: bool, max_string_length: int | None = None
) -> str:
    """Grammar for the rest of a call the model opened as `<function=TOOL>` without
    "<tool_call>": Qwen XML parameters (`xml`), or one JSON object of arguments."""
    builder = GrammarBuilder(max_string_length, loose=not xml)
    if xml:
        inner = " ".join(['"\\n"?', *_xml_parameters(builder, tool, 0)])
    else:
        inner = "ws " + builder.json_object(_arguments_schema(tool), "args", 0) + " ws"
    return builder.render(f'{inner} "</function>"')


def _xml_parameters(builder: GrammarBuilder, tool: ToolSpec, index: int) -> list[str]:
    """One rule per parameter (optional ones marked "?"), in schema order."""
    params = []
    for number, (key, schema) in enumerate(tool.properties.items()):
        value = builder.xml_value(schema, f"t{index}-v{number}")
        head = literal(f"<parameter={key}>\n")
        rule = builder.add(f"t{index}-p{number}", f'{head} {value} "\\n</parameter>\\n"')
        params.append(rule if key in tool.required else f"{rule}?")
    return params


def _arguments_schema(tool: ToolSpec) -> dict[str, Any]:
    return {"type": "object", "properties": tool.properties, "required": tool.required}


def grammar_compiles(llama: Any, grammar: str) -> bool:
    """Whether llama.cpp accepts `grammar` for this model's vocabulary.

    Check before `Llama._init_sampler(grammar=...)`: llama-cpp-python's
    `LlamaGrammar.from_string` does not parse anything, and a grammar llama.cpp rejects
    becomes a NULL sampler that is added to the chain anyway.
    """
    import llama_cpp  # here: importing it loads the C library

    sampler = llama_cpp.llama_sampler_init_grammar(
        llama._model.vocab, grammar.encode("utf-8"), b"root"
    )
    if not sampler:
        return False
    llama_cpp.llama_sampler_free(sampler)
    return True


def _tool_list(tools: Iterable[ToolSpec] | Mapping[str, ToolSpec]) -> list[ToolSpec]:
    found = list(tools.values()) if isinstance(tools, Mapping) else list(tools)
    if not found:
        raise ValueError("a tool-call grammar needs at least one tool")
    return found


def _int_bounds(schema: Mapping[str, Any]) -> tuple[int | None, int | None]:
    def number(key: str) -> float | None:
        value = schema.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        return None

    low, high = number("minimum"), number("maximum")
    exclusive_low, exclusive_high = number("exclusiveMinimum"), number("exclusiveMaximum")
    bounds_low = None if low is None else int(-(-low // 1))  # ceil
    bounds_high = None if high is None else int(high // 1)
    if exclusive_low is not None:
        candidate = int(exclusive_low // 1) + 1
        bounds_low = candidate if bounds_low is None else max(bounds_low, candidate)
    if exclusive_high is not None:
        candidate = int(-(-exclusive_high // 1)) - 1
        bounds_high = candidate if bounds_high is None else min(bounds_high, candidate)
    return bounds_low, bounds_high


def _merged(parent: Mapping[str, Any], branch: Any, key: str) -> Any:
    """A union branch, keeping the parent's other keywords (e.g. a description)."""
    if not isinstance(branch, Mapping):
        return branch
    base = {k: v for k, v in parent.items() if k not in (key, "type", "enum", "const")}
    base.update(branch)
    return base


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _at_least(low: int) -> str:
    """GBNF for the decimal integers >= `low` (low >= 0) with no leading zeros: every
    number with more digits, plus the same-length numbers that beat `low` at the first
    digit where they differ (or equal it)."""
    text = str(low)
    width = len(text)
    options = [f"[1-9] [0-9]{{{width},14}}"]  # more digits than low
    if low == 0:
        options.append('"0"')
    for index, digit in enumerate(text):
        lowest_next = int(digit) + 1
        if lowest_next > 9:
            continue
        prefix = " ".join(literal(c) for c in text[:index])
        rest = width - index - 1
        head = f"[{lowest_next}-9]"
        tail = f" [0-9]{{{rest}}}" if rest else ""
        options.append(f"{prefix} {head}{tail}".strip())
    if low > 0:
        options.append(literal(text))
    return " | ".join(f"( {option} )" for option in options)


def _between(low: int, high: int) -> str:
    """GBNF for the decimal integers in [low, high] (0 <= low <= high), width by width."""
    options: list[str] = []
    for width in range(len(str(low)), len(str(high)) + 1):
        first = max(low, 10 ** (width - 1) if width > 1 else 0)
        last = min(high, 10**width - 1)
        if first <= last:
            options += _same_width(str(first), str(last))
    return " | ".join(f"( {option} )" for option in options)


def _same_width(low: str, high: str) -> list[str]:
    """Patterns for the numbers from `low` to `high`, two digit strings of one width."""
    if not low:
        return [""]
    rest = len(low) - 1
    any_rest = f" [0-9]{{{rest}}}" if rest else ""
    if low[0] == high[0]:
        return [f"{literal(low[0])} {p}".strip() for p in _same_width(low[1:], high[1:])]
    if low[1:] == "0" * rest and high[1:] == "9" * rest:
        return [f"[{low[0]}-{high[0]}]{any_rest}"]
    options = [f"{literal(low[0])} {p}".strip() for p in _same_width(low[1:], "9" * rest)]
    if int(high[0]) - int(low[0]) > 1:
        options.append(f"[{int(low[0]) + 1}-{int(high[0]) - 1}]{any_rest}")
    options += [f"{literal(high[0])} {p}".strip() for p in _same_width("0" * rest, high[1:])]
    return options
