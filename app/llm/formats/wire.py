"""The three tool-call wire formats and how one is chosen from a chat template.

- qwen35_xml: Qwen3.5 / Qwen3-Coder (<function=...><parameter=...>), rendered by the template.
- hermes_json: Qwen2.5 / Qwen3 ({"name": ..., "arguments": ...} in <tool_call>), rendered
  by the template.
- json_fallback: a template with no tool branch (plain ChatML, or none at all). The same
  Hermes JSON calls, but we describe the tools in the system message ourselves and turn
  tool history into plain text the template can render.

`render_call` produces exactly what the model emits (and what the template writes back
into history), so a continued prompt stays append-only for KV-cache reuse.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from app.llm.formats.events import Event, merge_deltas
from app.llm.formats.grammar import (
    function_rest_grammar,
    json_call_grammar,
    json_rest_grammar,
    xml_call_grammar,
    xml_text,
)
from app.llm.formats.parser import CALL_CLOSE, CALL_OPEN, StreamParser
from app.llm.formats.span import CallSpans, CallStart
from app.llm.tools import ToolCall, ToolSpec, new_call_id, tool_map

Tools = Mapping[str, ToolSpec] | Iterable[ToolSpec]


class WireFormat:
    """How tool calls look on the wire for one family of chat templates."""

    name: ClassVar[str] = ""
    native_tools: ClassVar[bool] = True  # does the template render tools and calls itself?
    call_open: ClassVar[str] = CALL_OPEN
    call_close: ClassVar[str] = CALL_CLOSE
    syntax_hint: ClassVar[str] = ""
    xml_parameters: ClassVar[bool] = False  # arguments as <parameter=...> (else JSON)

    def __repr__(self) -> str:
        return f"<WireFormat {self.name}>"

    # -- output ------------------------------------------------------------------------------

    def render_call(self, call: ToolCall) -> str:
        """The exact text of one call block, tags included."""
        raise NotImplementedError

    def render_calls(self, calls: Sequence[ToolCall]) -> str:
        """Parallel calls: one block each, separated by a newline (as the templates do)."""
        return "\n".join(self.render_call(call) for call in calls)

    def new_parser(
        self, tools: Tools, *, in_reasoning: bool = False, id_prefix: str | None = None
    ) -> StreamParser:
        """A parser for one reply. `in_reasoning`: the prompt ends inside <think>."""
        return StreamParser(
            tools, in_reasoning=in_reasoning, id_prefix=id_prefix, syntax_hint=self.syntax_hint
        )

    def parse(self, text: str, tools: Tools, *, in_reasoning: bool = False) -> list[Event]:
        """Parse a whole reply at once (tests, evaluations), finding calls in every form a
        model writes them, as the runtime does."""
        parser = self.new_parser(tools, in_reasoning=in_reasoning)
        spans = CallSpans(parser.tools, in_reasoning=in_reasoning)
        canonical = spans.feed_uncut(text).text + spans.finish()
        return merge_deltas(parser.feed(canonical) + parser.finish())

    def call_grammar(self, tools: Tools, *, max_string_length: int | None = None) -> str:
        """GBNF for the span right after "<tool_call>" up to and including "</tool_call>".

        `max_string_length` bounds strings whose schema has no maxLength."""
        raise NotImplementedError

    def span_grammar(
        self, tools: Tools, start: CallStart, *, max_string_length: int | None = None
    ) -> str | None:
        """GBNF for what follows the start of a call (see `CallStart`): the whole call after
        "<tool_call>", or the rest of one the model opened in another form (None: a tool
        that was not offered, which no grammar can fix)."""
        if start.style == "tag":
            return self.call_grammar(tools, max_string_length=max_string_length)
        if start.tool is None:
            return None
        tool = tool_map(tools)[start.tool]
        if start.style == "json":
            return json_rest_grammar(tool, max_string_length)
        return function_rest_grammar(
            tool, xml=self.xml_parameters, max_string_length=max_string_length
        )

    # -- prompts and history -----------------------------------------------------------------

    def template_tools(self, tools: Tools) -> list[dict[str, Any]] | None:
        """The `tools` value to pass to the chat template (None: it cannot render them)."""
        specs = list(tool_map(tools).values())
        return [spec.to_openai() for spec in specs] if self.native_tools and specs else None

    def system_tools_block(self, tools: Tools) -> str:
        """Text to append to the system message ("" when the template renders tools)."""
        return ""

    def assistant_message(
        self, content: str, calls: Sequence[ToolCall], *, reasoning: str | None = None
    ) -> dict[str, Any]:
        """An assistant turn with tool calls, OpenAI-style, arguments as dicts."""
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if calls:
            message["tool_calls"] = [call.to_openai() for call in calls]
        if reasoning:
            message["reasoning_content"] = reasoning
        return message

    def tool_message(self, call: ToolCall, content: str) -> dict[str, Any]:
        """A tool result. Templates render results in call order, not by id."""
        return {"role": "tool", "tool_call_id": call.id, "name": call.name, "content": content}

    def prepare_messages(
        self, messages: Sequence[Mapping[str, Any]], tools: Tools
    ) -> list[dict[str, Any]]:
        """Messages ready for the template (render with `tools=template_tools(tools)`)."""
        return normalize_history(messages)

    def history_to_plain(self, messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Rewrite tool calls and tool results as plain user/assistant text.

        For templates without a tool branch: an assistant turn's calls become their
        rendered blocks after its text, and consecutive tool results become one user turn
        of <tool_response> blocks (the Qwen convention the model may know).
        """
        plain: list[dict[str, Any]] = []
        previous_tool = False
        for message in messages:
            role = str(message.get("role", "user"))
            content = _text_of(message.get("content"))
            if role == "tool":
                block = f"<tool_response>\n{content}\n</tool_response>"
                if previous_tool:
                    plain[-1]["content"] += "\n" + block
                else:
                    plain.append({"role": "user", "content": block})
                previous_tool = True
                continue
            previous_tool = False
            calls = [_call_from_entry(entry) for entry in message.get("tool_calls") or []]
            if role == "assistant" and calls:
                head = content.strip()
                rendered = self.render_calls(calls)
                content = f"{head}\n\n{rendered}" if head else rendered
            plain.append({"role": role, "content": content})
        return plain


class Qwen35XmlFormat(WireFormat):
    name = "qwen35_xml"
    native_tools = True
    xml_parameters = True
    syntax_hint = (
        "Write each call exactly as <tool_call>\\n<function=NAME>\\n<parameter=PARAM>\\n"
        "VALUE\\n</parameter>\\n</function>\\n</tool_call>."
    )

    def render_call(self, call: ToolCall) -> str:
        lines = [CALL_OPEN, f"<function={call.name}>"]
        for key, value in call.arguments.items():
            lines += [f"<parameter={key}>", xml_text(value), "</parameter>"]
        lines += ["</function>", CALL_CLOSE]
        return "\n".join(lines)

    def call_grammar(self, tools: Tools, *, max_string_length: int | None = None) -> str:
        return xml_call_grammar(tool_map(tools).values(), max_string_length)


class HermesJsonFormat(WireFormat):
    name = "hermes_json"
    native_tools = True
    syntax_hint = (
        'Write each call exactly as <tool_call>\\n{"name": "TOOL", "arguments": '
        '{"PARAM": VALUE}}\\n</tool_call>.'
    )

    def render_call(self, call: ToolCall) -> str:
        # Byte for byte what the Qwen3 template writes: '{"name": "' + name + '", ...'
        arguments = json.dumps(call.arguments, ensure_ascii=False)
        return f'{CALL_OPEN}\n{{"name": "{call.name}", "arguments": {arguments}}}\n{CALL_CLOSE}'

    def call_grammar(self, tools: Tools, *, max_string_length: int | None = None) -> str:
        return json_call_grammar(tool_map(tools).values(), max_string_length)


class JsonFallbackFormat(HermesJsonFormat):
    name = "json_fallback"
    native_tools = False

    def system_tools_block(self, tools: Tools) -> str:
        specs = list(tool_map(tools).values())
        if not specs:
            return ""
        described = "\n".join(json.dumps(spec.to_openai(), ensure_ascii=False) for spec in specs)
        return (
            "# Tools\n\n"
            "You can call functions to help with the user's request. "
            "They are described in JSON inside <tools></tools>:\n"
            f"<tools>\n{described}\n</tools>\n\n"
            "To call a function, reply with one block per call, exactly like this:\n"
            f'{CALL_OPEN}\n{{"name": "function_name", "arguments": {{"parameter": "value"}}}}\n'
            f"{CALL_CLOSE}\n\n"
            "The results come back in <tool_response></tool_response> blocks. "
            "If no function fits, answer normally."
        )

    def prepare_messages(
        self, messages: Sequence[Mapping[str, Any]], tools: Tools
    ) -> list[dict[str, Any]]:
        plain = self.history_to_plain(messages)
        block = self.system_tools_block(tools)
        if not block:
            return plain
        if plain and plain[0]["role"] == "system":
            head = plain[0]["content"].rstrip()
            plain[0] = {"role": "system", "content": f"{head}\n\n{block}" if head else block}
        else:
            plain.insert(0, {"role": "system", "content": block})
        return plain


QWEN35_XML = Qwen35XmlFormat()
HERMES_JSON = HermesJsonFormat()
JSON_FALLBACK = JsonFallbackFormat()
FORMATS: dict[str, WireFormat] = {f.name: f for f in (QWEN35_XML, HERMES_JSON, JSON_FALLBACK)}


def detect_format(chat_template: str | None) -> WireFormat:
    """Pick the wire format from the template text (the same test llama.cpp uses)."""
    source = chat_template or ""
    if "<tool_call>" in source:
        if "<function=" in source and "<parameter=" in source:
            return QWEN35_XML
        return HERMES_JSON
    return JSON_FALLBACK


def normalize_history(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Copy messages, turning OpenAI JSON-string arguments into dicts for the template."""
    result = []
    for message in messages:
        copy = dict(message)
        entries = message.get("tool_calls")
        if entries:
            calls = []
            for entry in entries:
                call = _call_from_entry(entry)
                calls.append(
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments},
                    }
                )
            copy["tool_calls"] = calls
        if copy.get("content") is None:
            copy["content"] = ""
        result.append(copy)
    return result


def _call_from_entry(entry: Any) -> ToolCall:
    """A ToolCall from an OpenAI `tool_calls` entry, a ToolCall, or a bare {name, arguments}."""
    if isinstance(entry, ToolCall):
        return entry
    function = entry.get("function", entry) if isinstance(entry, Mapping) else {}
    arguments = function.get("arguments") or {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            arguments = {}
    if not isinstance(arguments, Mapping):
        arguments = {}
    call_id = entry.get("id") if isinstance(entry, Mapping) else None
    return ToolCall(str(function.get("name", "")), dict(arguments), id=call_id or new_call_id())


def _text_of(content: Any) -> str:
    """Message content as text (OpenAI content parts are joined)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, Mapping) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        return "".join(parts)
    return str(content)
