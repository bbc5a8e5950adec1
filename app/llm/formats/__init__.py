"""Tool-call wire formats: rendering, streaming parsers and GBNF grammars (pure Python).

The runtime picks a format with `detect_format(template_source)`, renders prompts with
`fmt.prepare_messages(...)` / `fmt.template_tools(...)`, parses output with
`fmt.new_parser(tools)`, finds call spans with `CallSpans` and samples each under
`fmt.span_grammar(tools, start)`.
"""

from app.llm.formats.events import (
    CallFailed,
    CallParsed,
    Event,
    ReasoningDelta,
    TextDelta,
    merge_deltas,
)
from app.llm.formats.grammar import grammar_compiles, json_call_grammar, xml_call_grammar
from app.llm.formats.parser import CALL_CLOSE, CALL_OPEN, StreamParser
from app.llm.formats.span import FORCED_THINK_END, CallSpans, CallStart, SpanStep, runaway_problem
from app.llm.formats.wire import (
    FORMATS,
    HERMES_JSON,
    JSON_FALLBACK,
    QWEN35_XML,
    HermesJsonFormat,
    JsonFallbackFormat,
    Qwen35XmlFormat,
    WireFormat,
    detect_format,
    normalize_history,
)

__all__ = [
    "CALL_CLOSE",
    "CALL_OPEN",
    "FORCED_THINK_END",
    "FORMATS",
    "HERMES_JSON",
    "JSON_FALLBACK",
    "QWEN35_XML",
    "CallFailed",
    "CallParsed",
    "CallSpans",
    "CallStart",
    "Event",
    "HermesJsonFormat",
    "JsonFallbackFormat",
    "Qwen35XmlFormat",
    "ReasoningDelta",
    "SpanStep",
    "StreamParser",
    "TextDelta",
    "WireFormat",
    "detect_format",
    "grammar_compiles",
    "json_call_grammar",
    "merge_deltas",
    "normalize_history",
    "runaway_problem",
    "xml_call_grammar",
]
