"""Wire formats: detection, rendering, history, and the streaming parser's nasty cases."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.llm.chat_template import CHATML_TEMPLATE, ChatTemplate
from app.llm.formats import (
    HERMES_JSON,
    JSON_FALLBACK,
    QWEN35_XML,
    CallFailed,
    CallParsed,
    Event,
    ReasoningDelta,
    TextDelta,
    WireFormat,
    detect_format,
    merge_deltas,
    normalize_history,
)
from app.llm.tools import ToolCall, ToolSpec, tool_map
from tests.support.toolset import TOOLS

# -- helpers -------------------------------------------------------------------------------


def parse(
    fmt: WireFormat,
    text: str,
    chunks: list[int] | None = None,
    *,
    in_reasoning: bool = False,
    tools: dict[str, ToolSpec] = TOOLS,
) -> list[Event]:
    """Feed `text` whole or in pieces of the given sizes; ids are deterministic."""
    parser = fmt.new_parser(tools, in_reasoning=in_reasoning, id_prefix="t")
    events: list[Event] = []
    if chunks is None:
        events += parser.feed(text)
    else:
        index = 0
        for size in chunks:
            events += parser.feed(text[index : index + size])
            index += size
        events += parser.feed(text[index:])
    events += parser.finish()
    return merge_deltas(events)


def random_chunks(text: str, seed: int) -> list[int]:
    rng = random.Random(seed)
    sizes, total = [], 0
    while total < len(text):
        size = rng.randint(1, 12)
        sizes.append(size)
        total += size
    return sizes


def calls(events: list[Event]) -> list[tuple[str, dict]]:
    return [(e.call.name, e.call.arguments) for e in events if isinstance(e, CallParsed)]


def failures(events: list[Event]) -> list[str]:
    return [e.problem.message for e in events if isinstance(e, CallFailed)]


def text_of(events: list[Event]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def xml_call(name: str, **params: str) -> str:
    """A Qwen3.5 call block written out by hand (values are raw text)."""
    parts = [f"<tool_call>\n<function={name}>\n"]
    for key, value in params.items():
        parts.append(f"<parameter={key}>\n{value}\n</parameter>\n")
    parts.append("</function>\n</tool_call>")
    return "".join(parts)


# -- detection -----------------------------------------------------------------------------

QWEN35_LIKE = (
    "{% for tool in tools %}{{ tool | tojson }}{% endfor %}"
    "<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\n"
)
QWEN3_LIKE = '{{- "<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args>}" }}'


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        (QWEN35_LIKE, QWEN35_XML),
        (QWEN3_LIKE, HERMES_JSON),
        (CHATML_TEMPLATE, JSON_FALLBACK),
        (None, JSON_FALLBACK),
        ("", JSON_FALLBACK),
        ("<function= without the call tag <parameter=", JSON_FALLBACK),
    ],
)
def test_detect_format(template: str | None, expected: WireFormat) -> None:
    assert detect_format(template) is expected


def test_format_properties() -> None:
    assert (QWEN35_XML.name, HERMES_JSON.name, JSON_FALLBACK.name) == (
        "qwen35_xml",
        "hermes_json",
        "json_fallback",
    )
    for fmt in (QWEN35_XML, HERMES_JSON, JSON_FALLBACK):
        assert fmt.call_open == "<tool_call>" and fmt.call_close == "</tool_call>"
    assert QWEN35_XML.native_tools and HERMES_JSON.native_tools
    assert not JSON_FALLBACK.native_tools


# -- rendering -----------------------------------------------------------------------------

EMAIL_CALL = ToolCall(
    "send_email",
    {"to": ["ana@example.org"], "subject": "Lunch", "body": "Hi Ana,\n\nLunch at 12?\nBen"},
    id="call_1",
)


def test_render_xml_call() -> None:
    assert QWEN35_XML.render_call(EMAIL_CALL) == (
        "<tool_call>\n<function=send_email>\n"
        '<parameter=to>\n["ana@example.org"]\n</parameter>\n'
        "<parameter=subject>\nLunch\n</parameter>\n"
        "<parameter=body>\nHi Ana,\n\nLunch at 12?\nBen\n</parameter>\n"
        "</function>\n</tool_call>"
    )


def test_render_xml_scalars_like_the_template() -> None:
    call = ToolCall("list_emails", {"unread_only": True, "limit": 5, "folder": None})
    rendered = QWEN35_XML.render_call(call)
    assert "<parameter=unread_only>\nTrue\n</parameter>" in rendered  # Jinja `| string`
    assert "<parameter=folder>\nNone\n</parameter>" in rendered


def test_render_hermes_call() -> None:
    assert HERMES_JSON.render_call(EMAIL_CALL) == (
        '<tool_call>\n{"name": "send_email", "arguments": {"to": ["ana@example.org"], '
        '"subject": "Lunch", "body": "Hi Ana,\\n\\nLunch at 12?\\nBen"}}\n</tool_call>'
    )
    assert JSON_FALLBACK.render_call(EMAIL_CALL) == HERMES_JSON.render_call(EMAIL_CALL)


def test_parallel_calls_are_separate_blocks() -> None:
    second = ToolCall("web_search", {"query": "weather"})
    text = QWEN35_XML.render_calls([EMAIL_CALL, second])
    assert text.count("<tool_call>") == 2 and "</tool_call>\n<tool_call>" in text


# Our own minimal templates doing what the Qwen templates do with history tool calls, to
# check that the model's emitted text and the re-rendered history are the same bytes
# (append-only prompts keep the KV cache).
XML_HISTORY_TEMPLATE = (
    "{%- for m in messages %}{%- if m.tool_calls %}{%- for tc in m.tool_calls %}"
    "{%- set tc = tc.function %}"
    "{{- '<tool_call>\\n<function=' + tc.name + '>\\n' }}"
    "{%- for k, v in tc.arguments|items %}{{- '<parameter=' + k + '>\\n' }}"
    "{%- set v = v | tojson | safe if v is mapping or (v is sequence and v is not string)"
    " else v | string %}{{- v }}{{- '\\n</parameter>\\n' }}{%- endfor %}"
    "{{- '</function>\\n</tool_call>' }}{%- if not loop.last %}{{- '\\n' }}{%- endif %}"
    "{%- endfor %}{%- endif %}{%- endfor %}"
)
HERMES_HISTORY_TEMPLATE = (
    "{%- for m in messages %}{%- if m.tool_calls %}{%- for tc in m.tool_calls %}"
    "{%- set tc = tc.function %}"
    '{{- \'<tool_call>\\n{"name": "\' + tc.name + \'", "arguments": \' }}'
    "{{- tc.arguments | tojson }}{{- '}\\n</tool_call>' }}"
    "{%- if not loop.last %}{{- '\\n' }}{%- endif %}"
    "{%- endfor %}{%- endif %}{%- endfor %}"
)


@pytest.mark.parametrize(
    ("fmt", "source"),
    [(QWEN35_XML, XML_HISTORY_TEMPLATE), (HERMES_JSON, HERMES_HISTORY_TEMPLATE)],
)
def test_history_renders_the_same_bytes_the_model_emitted(fmt: WireFormat, source: str) -> None:
    second = ToolCall("list_emails", {"unread_only": False, "limit": 3, "folder": "inbox"})
    message = fmt.assistant_message("", [EMAIL_CALL, second])
    assert isinstance(message["tool_calls"][0]["function"]["arguments"], dict)
    rendered = ChatTemplate(source, "gguf").render([message], add_generation_prompt=False)
    assert rendered == fmt.render_calls([EMAIL_CALL, second])


def test_assistant_and_tool_messages() -> None:
    message = QWEN35_XML.assistant_message("Sending.", [EMAIL_CALL], reasoning="ok")
    assert message == {
        "role": "assistant",
        "content": "Sending.",
        "tool_calls": [EMAIL_CALL.to_openai()],
        "reasoning_content": "ok",
    }
    assert QWEN35_XML.assistant_message("Hi", []) == {"role": "assistant", "content": "Hi"}
    assert QWEN35_XML.tool_message(EMAIL_CALL, '{"sent": true}') == {
        "role": "tool",
        "tool_call_id": "call_1",
        "name": "send_email",
        "content": '{"sent": true}',
    }


def test_normalize_history_turns_json_string_arguments_into_dicts() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "web_search", "arguments": '{"query": "x"}'},
                }
            ],
        },
    ]
    fixed = normalize_history(messages)
    assert fixed[1]["tool_calls"][0]["function"]["arguments"] == {"query": "x"}
    assert fixed[1]["tool_calls"][0]["id"] == "c1"
    assert fixed[1]["content"] == ""
    assert messages[1]["tool_calls"][0]["function"]["arguments"] == '{"query": "x"}'
    assert QWEN35_XML.prepare_messages(messages, TOOLS) == fixed
    assert QWEN35_XML.template_tools([TOOLS["web_search"]]) == [TOOLS["web_search"].to_openai()]
    assert JSON_FALLBACK.template_tools(TOOLS) is None


def test_json_fallback_prompt_and_plain_history() -> None:
    search = ToolCall("web_search", {"query": "Lyon weather"}, id="c1")
    reminder = ToolCall("set_reminder", {"text": "umbrella", "at": "2026-05-01T08:00"}, id="c2")
    messages = [
        {"role": "system", "content": "You are Hearth."},
        {"role": "user", "content": "Weather in Lyon? Remind me."},
        JSON_FALLBACK.assistant_message("Let me check.", [search, reminder]),
        JSON_FALLBACK.tool_message(search, "Sunny, 21 C"),
        JSON_FALLBACK.tool_message(reminder, "ok"),
        {"role": "assistant", "content": "Sunny. Reminder set."},
        {"role": "user", "content": [{"type": "text", "text": "Thanks"}]},
    ]
    tools = [TOOLS["web_search"], TOOLS["set_reminder"]]
    prepared = JSON_FALLBACK.prepare_messages(messages, tools)
    block = JSON_FALLBACK.system_tools_block(tools)
    assert prepared[0] == {"role": "system", "content": "You are Hearth.\n\n" + block}
    assert json.dumps(TOOLS["web_search"].to_openai(), ensure_ascii=False) in block
    assert '<tool_call>\n{"name": "function_name"' in block
    assert prepared[2] == {
        "role": "assistant",
        "content": "Let me check.\n\n" + JSON_FALLBACK.render_calls([search, reminder]),
    }
    assert prepared[3] == {
        "role": "user",
        "content": "<tool_response>\nSunny, 21 C\n</tool_response>\n"
        "<tool_response>\nok\n</tool_response>",
    }
    assert prepared[4:] == [
        {"role": "assistant", "content": "Sunny. Reminder set."},
        {"role": "user", "content": "Thanks"},
    ]
    assert all(set(m) == {"role", "content"} for m in prepared)
    # Plain ChatML can render all of it.
    prompt = ChatTemplate(CHATML_TEMPLATE, "chatml-fallback").render(prepared)
    assert prompt.count("<tool_response>\n") == 2 and "# Tools" in prompt
    # No system message: one is added; no tools: nothing is added.
    assert JSON_FALLBACK.prepare_messages(messages[1:2], tools)[0]["content"] == block
    assert JSON_FALLBACK.prepare_messages(messages[1:2], []) == [messages[1]]
    assert QWEN35_XML.system_tools_block(tools) == ""


QWEN35_TEMPLATE = Path(__file__).parents[1] / "support" / "qwen35_chat_template.jinja"


def test_the_real_qwen35_template() -> None:
    if not QWEN35_TEMPLATE.is_file():
        pytest.skip("the Qwen3.5 template fixture is not in this checkout")
    source = QWEN35_TEMPLATE.read_text(encoding="utf-8")
    assert detect_format(source) is QWEN35_XML
    tools = [TOOLS["web_search"], TOOLS["send_email"]]
    search = ToolCall("web_search", {"query": "Lyon weather", "max_results": 3}, id="c1")
    history = [
        {"role": "system", "content": "You are Hearth."},
        {"role": "user", "content": "Weather in Lyon, then tell Ana."},
        QWEN35_XML.assistant_message("Let me check.", [search, EMAIL_CALL]),
        QWEN35_XML.tool_message(search, "Sunny, 21 C"),
        QWEN35_XML.tool_message(EMAIL_CALL, "sent"),
    ]
    # OpenAI clients send arguments as JSON text; the template needs dicts.
    history[2]["tool_calls"][0]["function"]["arguments"] = json.dumps(search.arguments)
    prompt = ChatTemplate(source, "gguf").render(
        QWEN35_XML.prepare_messages(history, tools),
        tools=QWEN35_XML.template_tools(tools),
        enable_thinking=False,
    )
    assert json.dumps(tools[1].to_openai(), ensure_ascii=False) in prompt
    emitted = "Let me check.\n\n" + QWEN35_XML.render_calls([search, EMAIL_CALL])
    assert emitted + "<|im_end|>" in prompt  # what the model wrote, byte for byte
    assert (
        "<|im_start|>user\n<tool_response>\nSunny, 21 C\n</tool_response>\n"
        "<tool_response>\nsent\n</tool_response><|im_end|>"
    ) in prompt
    assert prompt.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    events = parse(QWEN35_XML, emitted)
    assert events[0] == TextDelta("Let me check.")
    assert calls(events) == [
        (search.name, search.arguments),
        (EMAIL_CALL.name, EMAIL_CALL.arguments),
    ]


# -- parsing: Qwen3.5 XML --------------------------------------------------------------------

SEARCH = xml_call("web_search", query="weather in Lyon", max_results="3")
EMAIL_BODY = "Hi Ana,\n\nare we still on for lunch?\n\n  Ben"
EMAIL = xml_call("send_email", to='["ana@example.org"]', subject="Lunch tomorrow", body=EMAIL_BODY)

XML_SAMPLES: dict[str, str] = {
    "plain_text": "Hello! How can I help you today?",
    "text_then_call": "I'll look that up for you.\n\n" + SEARCH,
    "call_only": SEARCH,
    "multiline_value": EMAIL,
    "literal_end_tag_in_value": xml_call(
        "write_file",
        path="notes/xml.txt",
        content="Close a value with </parameter> on its own line:\n</parameter>\nlike that.",
    ),
    "tool_call_tag_in_value": xml_call(
        "write_file", path="a.md", content="The model writes </tool_call> at the end."
    ),
    "parallel": SEARCH + "\n" + xml_call("set_reminder", text="Umbrella", at="2026-05-01T08:00"),
    "interleaved": "First the weather. "
    + SEARCH
    + "\nThen your mail.\n"
    + xml_call("list_emails", folder="inbox", unread_only="true")
    + "\nDone.",
    "missing_close_at_end": SEARCH.removesuffix("</tool_call>"),
    "missing_function_and_close": "<tool_call>\n<function=web_search>\n"
    "<parameter=query>\ncats\n</parameter>\n",
    "missing_param_close_before_close": "<tool_call>\n<function=web_search>\n"
    "<parameter=query>\ncats\n</function>\n</tool_call>",
    "missing_param_close_between": "<tool_call>\n<function=list_events>\n"
    "<parameter=start>\n2026-05-01T00:00\n<parameter=end>\n2026-05-02T00:00\n</parameter>\n"
    "</function>\n</tool_call>",
    "missing_tool_call_close_then_text": SEARCH.removesuffix("</tool_call>") + "\nSearching now.",
    "missing_tool_call_close_then_call": SEARCH.removesuffix("</tool_call>") + SEARCH,
    "two_functions_one_block": "<tool_call>\n<function=web_search>\n<parameter=query>\na\n"
    "</parameter>\n</function>\n<function=web_search>\n<parameter=query>\nb\n</parameter>\n"
    "</function>\n</tool_call>",
    "no_newlines": "<tool_call><function=web_search><parameter=query>cats</parameter>"
    "</function></tool_call>",
    "truncated_in_value": "Sure. <tool_call>\n<function=send_email>\n<parameter=to>\n"
    '["ana@example.org"]\n</parameter>\n<parameter=body>\nHi Ana, are we',
    "truncated_in_name": "<tool_call>\n<function=web_sea",
    "truncated_after_open": "Let me check.\n<tool_call>",
    "unknown_tool": xml_call("book_flight", to="Paris"),
    "wrong_types": xml_call("list_emails", folder="spam", limit="ten", unread_only="maybe"),
    "missing_required": xml_call("send_email", to='["a@b.org"]'),
    "unknown_parameter": xml_call("web_search", query="x", engine="bing"),
    "duplicate_parameter": xml_call("web_search", query="x")[:-24]
    + "<parameter=query>\ny\n</parameter>\n</function>\n</tool_call>",
    "garbage_in_call": "<tool_call>\nweb_search(query='cats')\n</tool_call> ok",
    "garbage_after_function": "<tool_call>\n<function=web_search>\nquery: cats\n</tool_call>",
    "empty_call": "<tool_call></tool_call>Nothing.",
    "reasoning_then_call": "<think>\nThe user wants the weather.\n</think>\n\n" + SEARCH,
    "stray_tags": "Done </tool_call> and </think> there.",
    "angle_brackets_in_text": "If a < b and b > c then <b>bold</b> <tool ok.",
    "json_body_in_xml_format": '<tool_call>\n{"name": "web_search", "arguments": '
    '{"query": "cats"}}\n</tool_call>',
}


def test_text_only() -> None:
    assert parse(QWEN35_XML, XML_SAMPLES["plain_text"]) == [
        TextDelta("Hello! How can I help you today?")
    ]


def test_text_then_call() -> None:
    events = parse(QWEN35_XML, XML_SAMPLES["text_then_call"])
    assert events[0] == TextDelta("I'll look that up for you.")
    assert isinstance(events[1], CallParsed)
    assert events[1].call == ToolCall(
        "web_search", {"query": "weather in Lyon", "max_results": 3}, id="t_1"
    )
    assert events[1].raw == SEARCH
    assert len(events) == 2


def test_value_spanning_lines_keeps_inner_blank_lines_and_indent() -> None:
    assert calls(parse(QWEN35_XML, XML_SAMPLES["multiline_value"])) == [
        (
            "send_email",
            {"to": ["ana@example.org"], "subject": "Lunch tomorrow", "body": EMAIL_BODY},
        )
    ]


def test_literal_end_parameter_tag_inside_a_value() -> None:
    [(_, arguments)] = calls(parse(QWEN35_XML, XML_SAMPLES["literal_end_tag_in_value"]))
    assert arguments["content"] == (
        "Close a value with </parameter> on its own line:\n</parameter>\nlike that."
    )


def test_literal_end_call_tag_inside_a_value() -> None:
    [(_, arguments)] = calls(parse(QWEN35_XML, XML_SAMPLES["tool_call_tag_in_value"]))
    assert arguments["content"] == "The model writes </tool_call> at the end."


def test_parallel_calls() -> None:
    events = parse(QWEN35_XML, XML_SAMPLES["parallel"])
    assert [type(e) for e in events] == [CallParsed, CallParsed]
    assert calls(events)[1] == ("set_reminder", {"text": "Umbrella", "at": "2026-05-01T08:00"})
    assert [e.call.id for e in events if isinstance(e, CallParsed)] == ["t_1", "t_2"]


def test_calls_interleaved_with_text() -> None:
    events = parse(QWEN35_XML, XML_SAMPLES["interleaved"])
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["TextDelta", "CallParsed", "TextDelta", "CallParsed", "TextDelta"]
    assert [e.text for e in events if isinstance(e, TextDelta)] == [
        "First the weather.",
        "Then your mail.",
        "Done.",
    ]
    assert calls(events)[1] == ("list_emails", {"folder": "inbox", "unread_only": True})


@pytest.mark.parametrize(
    "sample", ["missing_close_at_end", "missing_function_and_close", "no_newlines"]
)
def test_complete_enough_calls_without_closing_tags(sample: str) -> None:
    events = parse(QWEN35_XML, XML_SAMPLES[sample])
    [event] = events
    assert isinstance(event, CallParsed) and event.call.name == "web_search"


def test_missing_parameter_close_is_tolerated_inside_a_closed_block() -> None:
    assert calls(parse(QWEN35_XML, XML_SAMPLES["missing_param_close_before_close"])) == [
        ("web_search", {"query": "cats"})
    ]
    assert calls(parse(QWEN35_XML, XML_SAMPLES["missing_param_close_between"])) == [
        ("list_events", {"start": "2026-05-01T00:00", "end": "2026-05-02T00:00"})
    ]


def test_forgotten_call_close_before_more_text_or_another_call() -> None:
    events = parse(QWEN35_XML, XML_SAMPLES["missing_tool_call_close_then_text"])
    assert [type(e) for e in events] == [CallParsed, TextDelta]
    assert events[1] == TextDelta("Searching now.")
    events = parse(QWEN35_XML, XML_SAMPLES["missing_tool_call_close_then_call"])
    assert [type(e) for e in events] == [CallParsed, CallParsed]


def test_two_functions_in_one_block() -> None:
    assert calls(parse(QWEN35_XML, XML_SAMPLES["two_functions_one_block"])) == [
        ("web_search", {"query": "a"}),
        ("web_search", {"query": "b"}),
    ]


def test_truncated_output_is_reported_as_cut_off() -> None:
    events = parse(QWEN35_XML, XML_SAMPLES["truncated_in_value"])
    assert events[0] == TextDelta("Sure.")
    [problem] = [e.problem for e in events if isinstance(e, CallFailed)]
    assert "the call was cut off" in problem.message.lower()
    assert "'body'" in problem.message
    assert problem.tool == "send_email"
    assert problem.raw.startswith("<tool_call>\n<function=send_email>")
    for sample in ("truncated_in_name", "truncated_after_open"):
        [message] = failures(parse(QWEN35_XML, XML_SAMPLES[sample]))
        assert "cut off" in message
    assert parse(QWEN35_XML, XML_SAMPLES["truncated_after_open"])[0] == TextDelta("Let me check.")


def test_unknown_tool() -> None:
    [event] = parse(QWEN35_XML, XML_SAMPLES["unknown_tool"])
    assert isinstance(event, CallFailed)
    assert event.problem.tool == "book_flight"
    assert event.problem.message.startswith("Unknown tool 'book_flight'. Available tools: ")
    assert "web_search" in event.problem.message


def test_wrong_types_list_every_problem() -> None:
    [event] = parse(QWEN35_XML, XML_SAMPLES["wrong_types"])
    assert isinstance(event, CallFailed)
    assert event.problem.errors == (
        "Parameter 'folder' must be one of 'inbox', 'sent', 'drafts', 'archive', got 'spam'.",
        "Parameter 'limit' must be an integer, got 'ten'.",
        "Parameter 'unread_only' must be a boolean (true or false), got 'maybe'.",
    )
    assert event.problem.message == " ".join(event.problem.errors)


def test_missing_unknown_and_duplicate_parameters() -> None:
    [message] = failures(parse(QWEN35_XML, XML_SAMPLES["missing_required"]))
    assert "Missing required parameter 'subject'" in message
    assert "Missing required parameter 'body'" in message
    [message] = failures(parse(QWEN35_XML, XML_SAMPLES["unknown_parameter"]))
    assert "has no parameter 'engine'" in message
    [message] = failures(parse(QWEN35_XML, XML_SAMPLES["duplicate_parameter"]))
    assert "Parameter 'query' was given more than once." in message


def test_unreadable_calls_explain_the_syntax() -> None:
    events = parse(QWEN35_XML, XML_SAMPLES["garbage_in_call"])
    assert isinstance(events[0], CallFailed) and events[1] == TextDelta("ok")
    message = events[0].problem.message
    assert message.startswith("Your tool call could not be read: expected the call right after")
    assert "<parameter=PARAM>" in message  # the syntax hint
    [message] = failures(parse(QWEN35_XML, XML_SAMPLES["garbage_after_function"]))
    assert "unexpected text 'query: cats'" in message
    events = parse(QWEN35_XML, XML_SAMPLES["empty_call"])
    assert "empty" in failures(events)[0] and events[-1] == TextDelta("Nothing.")


def test_reasoning_is_separate_from_text() -> None:
    events = parse(QWEN35_XML, XML_SAMPLES["reasoning_then_call"])
    assert events[0] == ReasoningDelta("The user wants the weather.")
    assert isinstance(events[1], CallParsed)


def test_prompt_that_already_opened_think() -> None:
    text = "The user wants rain data.\n</think>\n\nLet me search." + SEARCH
    events = parse(QWEN35_XML, text, in_reasoning=True)
    assert events[:2] == [ReasoningDelta("The user wants rain data."), TextDelta("Let me search.")]
    assert isinstance(events[2], CallParsed)
    # Qwen3.5 may go straight from reasoning into a call.
    events = parse(QWEN35_XML, "Need a search." + SEARCH, in_reasoning=True)
    assert events[0] == ReasoningDelta("Need a search.") and isinstance(events[1], CallParsed)
    # A prompt that closed the think block: nothing is reasoning.
    assert parse(QWEN35_XML, "Hi there") == [TextDelta("Hi there")]


def test_stray_tags_are_dropped_and_angle_brackets_kept() -> None:
    assert parse(QWEN35_XML, XML_SAMPLES["stray_tags"]) == [TextDelta("Done  and  there.")]
    assert parse(QWEN35_XML, XML_SAMPLES["angle_brackets_in_text"]) == [
        TextDelta(XML_SAMPLES["angle_brackets_in_text"])
    ]


def test_each_parser_reads_the_other_family_body() -> None:
    assert calls(parse(QWEN35_XML, XML_SAMPLES["json_body_in_xml_format"])) == [
        ("web_search", {"query": "cats"})
    ]
    assert calls(parse(HERMES_JSON, SEARCH)) == [
        ("web_search", {"query": "weather in Lyon", "max_results": 3})
    ]


# -- parsing: Hermes JSON ------------------------------------------------------------------

HSEARCH = (
    '<tool_call>\n{"name": "web_search", "arguments": {"query": "cats", "max_results": 2}}\n'
    "</tool_call>"
)

JSON_SAMPLES: dict[str, str] = {
    "text_then_call": "Searching.\n" + HSEARCH,
    "parallel": HSEARCH + "\n" + HSEARCH.replace("cats", "dogs"),
    "string_arguments": '<tool_call>\n{"name": "web_search", "arguments": '
    '"{\\"query\\": \\"cats\\"}"}\n</tool_call>',
    "python_literal": "<tool_call>\n{'name': 'web_search', 'arguments': {'query': 'cats'}}"
    "\n</tool_call>",
    "missing_brace": '<tool_call>\n{"name": "web_search", "arguments": {"query": "cats"}\n'
    "</tool_call>",
    "close_tag_in_string": '<tool_call>\n{"name": "write_file", "arguments": {"path": "a.txt", '
    '"content": "</tool_call> is the end tag"}}\n</tool_call>',
    "loose_types": '<tool_call>\n{"name": "list_emails", "arguments": {"limit": "5", '
    '"unread_only": "true"}}\n</tool_call>',
    "list_of_calls": '<tool_call>\n[{"name": "web_search", "arguments": {"query": "a"}}, '
    '{"name": "web_search", "arguments": {"query": "b"}}]\n</tool_call>',
    "two_objects": '<tool_call>\n{"name": "web_search", "arguments": {"query": "a"}}\n'
    '{"name": "web_search", "arguments": {"query": "b"}}\n</tool_call>',
    "openai_shape": '<tool_call>\n{"type": "function", "function": {"name": "web_search", '
    '"arguments": {"query": "a"}}}\n</tool_call>',
    "missing_close": '<tool_call>\n{"name": "web_search", "arguments": {"query": "a"}}',
    "missing_close_then_text": '<tool_call>\n{"name": "web_search", "arguments": '
    '{"query": "a"}}\nOK, searching.',
    "truncated": '<tool_call>\n{"name": "web_search", "arguments": {"query": "ca',
    "invalid": "<tool_call>\n{name: web_search, arguments: {query: cats}}\n</tool_call>",
    "no_name": '<tool_call>\n{"arguments": {"query": "cats"}}\n</tool_call>',
    "wrong_types": '<tool_call>\n{"name": "list_emails", "arguments": {"limit": 0.5, '
    '"folder": 3}}\n</tool_call>',
    "reasoning": "<think>Plan: search.</think>\n\n" + HSEARCH,
}


def test_hermes_calls() -> None:
    events = parse(HERMES_JSON, JSON_SAMPLES["text_then_call"])
    assert events[0] == TextDelta("Searching.")
    assert calls(events) == [("web_search", {"query": "cats", "max_results": 2})]
    assert calls(parse(HERMES_JSON, JSON_SAMPLES["parallel"])) == [
        ("web_search", {"query": "cats", "max_results": 2}),
        ("web_search", {"query": "dogs", "max_results": 2}),
    ]


@pytest.mark.parametrize(
    "sample",
    ["string_arguments", "python_literal", "missing_brace", "openai_shape", "missing_close"],
)
def test_hermes_leniency(sample: str) -> None:
    [(name, arguments)] = calls(parse(HERMES_JSON, JSON_SAMPLES[sample]))
    assert name == "web_search" and arguments["query"] in ("cats", "a")


def test_hermes_close_tag_inside_a_string() -> None:
    [(_, arguments)] = calls(parse(HERMES_JSON, JSON_SAMPLES["close_tag_in_string"]))
    assert arguments["content"] == "</tool_call> is the end tag"


def test_hermes_loose_types_are_coerced() -> None:
    assert calls(parse(HERMES_JSON, JSON_SAMPLES["loose_types"])) == [
        ("list_emails", {"limit": 5, "unread_only": True})
    ]


def test_hermes_several_calls_in_one_block() -> None:
    for sample in ("list_of_calls", "two_objects"):
        assert calls(parse(HERMES_JSON, JSON_SAMPLES[sample])) == [
            ("web_search", {"query": "a"}),
            ("web_search", {"query": "b"}),
        ]


def test_hermes_forgotten_close_before_text() -> None:
    events = parse(HERMES_JSON, JSON_SAMPLES["missing_close_then_text"])
    assert [type(e) for e in events] == [CallParsed, TextDelta]
    assert isinstance(events[1], TextDelta) and events[1].text == "OK, searching."


def test_hermes_failures() -> None:
    [message] = failures(parse(HERMES_JSON, JSON_SAMPLES["truncated"]))
    assert "cut off" in message
    [message] = failures(parse(HERMES_JSON, JSON_SAMPLES["invalid"]))
    assert message.startswith("Your tool call could not be read: the call is not valid JSON")
    assert '{"name": "TOOL"' in message
    [message] = failures(parse(HERMES_JSON, JSON_SAMPLES["no_name"]))
    assert 'has no "name"' in message
    [message] = failures(parse(HERMES_JSON, JSON_SAMPLES["wrong_types"]))
    assert "Parameter 'limit' must be an integer, got 0.5." in message
    assert "Parameter 'folder' must be one of" in message


def test_hermes_reasoning() -> None:
    events = parse(HERMES_JSON, JSON_SAMPLES["reasoning"])
    assert events[0] == ReasoningDelta("Plan: search.") and isinstance(events[1], CallParsed)


# -- streaming -----------------------------------------------------------------------------

ALL_SAMPLES = [(QWEN35_XML, key, text) for key, text in XML_SAMPLES.items()] + [
    (HERMES_JSON, key, text) for key, text in JSON_SAMPLES.items()
]


@pytest.mark.parametrize(("fmt", "key", "text"), ALL_SAMPLES, ids=[k for _, k, _ in ALL_SAMPLES])
def test_streaming_gives_the_same_events_as_one_feed(fmt: WireFormat, key: str, text: str) -> None:
    whole = parse(fmt, text)
    assert parse(fmt, text, [1] * len(text)) == whole
    for seed in range(5):
        assert parse(fmt, text, random_chunks(text, seed)) == whole
    if key.startswith("reasoning"):
        assert isinstance(whole[0], ReasoningDelta)


def test_text_is_emitted_promptly() -> None:
    parser = QWEN35_XML.new_parser(TOOLS, id_prefix="t")
    assert parser.feed("Hello wor") == [TextDelta("Hello wor")]
    assert parser.feed("ld, a < b") == [TextDelta("ld, a < b")]  # "< b" is no tag
    assert parser.feed(" <tool") == []  # maybe a tag: held back
    assert parser.feed("s") == [TextDelta(" <tools")]
    assert parser.feed("\n\n<tool_call>\n<function=web_search>\n") == []
    assert parser.in_call and parser.call_text == "\n<function=web_search>\n"
    assert parser.feed("<parameter=query>\ncats\n</parameter>\n</function>\n") == []
    [event] = parser.feed("</tool_call>")
    assert isinstance(event, CallParsed) and not parser.in_call
    assert parser.feed("\nFound") == [TextDelta("Found")]
    assert parser.finish() == []


def test_reasoning_is_emitted_promptly() -> None:
    parser = QWEN35_XML.new_parser(TOOLS, in_reasoning=True)
    assert parser.feed("\nHmm, the user") == [ReasoningDelta("Hmm, the user")]
    assert parser.feed(" asks.\n</th") == [ReasoningDelta(" asks.")]
    assert parser.feed("ink>\n\nYes") == [TextDelta("Yes")]


def test_finish_flushes_a_partial_tag_as_text() -> None:
    parser = QWEN35_XML.new_parser(TOOLS)
    assert parser.feed("Look: <tool_ca") == [TextDelta("Look:")]
    assert parser.finish() == [TextDelta(" <tool_ca")]


# -- round trips and properties ------------------------------------------------------------

ROUND_TRIP_TOOL = ToolSpec(
    "mixed",
    "",
    {
        "type": "object",
        "properties": {
            "s1": {"type": "string"},
            "s2": {"type": "string"},
            "n": {"type": "integer"},
            "x": {"type": "number"},
            "flag": {"type": "boolean"},
            "words": {"type": "array", "items": {"type": "string"}},
            "numbers": {"type": "array", "items": {"type": "integer"}},
            "obj": {"type": "object"},
        },
        "required": [],
    },
)
ROUND_TRIP_TOOLS = tool_map([ROUND_TRIP_TOOL])

value_text = st.text(
    alphabet=st.sampled_from(list(string.ascii_letters + " \n<>/=\"'{}[]\\\t.,é€😀")),
    max_size=40,
)
arguments_strategy = st.fixed_dictionaries(
    {},
    optional={
        "s1": value_text,
        "s2": st.text(max_size=30),
        "n": st.integers(),
        "x": st.floats(allow_nan=False, allow_infinity=False),
        "flag": st.booleans(),
        "words": st.lists(value_text, max_size=4),
        "numbers": st.lists(st.integers(-1000, 1000), max_size=4),
        "obj": st.dictionaries(st.text(max_size=5), st.integers() | value_text, max_size=3),
    },
)
plain_text = st.text(
    alphabet=st.sampled_from(list(string.ascii_letters + " .,!?\n<>")), max_size=30
)


@pytest.mark.parametrize("fmt", [QWEN35_XML, HERMES_JSON, JSON_FALLBACK], ids=lambda f: f.name)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=plain_text,
    after=plain_text,
    argument_sets=st.lists(arguments_strategy, min_size=1, max_size=3),
    seed=st.integers(0, 1000),
)
def test_render_then_parse_round_trip(
    fmt: WireFormat, before: str, after: str, argument_sets: list[dict], seed: int
) -> None:
    originals = [ToolCall("mixed", args, id=f"t_{i}") for i, args in enumerate(argument_sets, 1)]
    text = before + fmt.render_calls(originals) + after
    events = parse(fmt, text, tools=ROUND_TRIP_TOOLS)
    assert parse(fmt, text, random_chunks(text, seed), tools=ROUND_TRIP_TOOLS) == events
    expected: list[Event] = []
    if before.strip():
        expected.append(TextDelta(before.strip()))
    expected += [CallParsed(call, fmt.render_call(call)) for call in originals]
    if after.strip():
        expected.append(TextDelta(after.strip()))
    assert events == expected


tag_soup = st.lists(
    st.sampled_from(
        [
            "<tool_call>",
            "</tool_call>",
            "<function=web_search>",
            "<function=",
            "<parameter=query>",
            "<parameter=",
            "</parameter>",
            "</function>",
            "<think>",
            "</think>",
            '{"name": "web_search", "arguments": {',
            '"query": "x"',
            "}",
            "{",
            '"',
            "\\",
            "\n",
            " ",
            "<",
            ">",
            "cats",
            "5",
        ]
    )
    | st.text(max_size=8),
    max_size=40,
).map("".join)


SNIPPETS = [
    "<tool_call>",
    "</tool_call>",
    "</parameter>",
    "</function>",
    "<parameter=query>\n",
    "\n",
    "<think>",
    "</think>",
    '"',
    "}",
]


@st.composite
def near_calls(draw: st.DrawFn) -> str:
    """Valid calls of both families with text around, then damaged a little."""
    pieces = []
    for _ in range(draw(st.integers(1, 3))):
        pieces.append(draw(plain_text))
        fmt = draw(st.sampled_from([QWEN35_XML, HERMES_JSON]))
        arguments = draw(arguments_strategy)
        pieces.append(fmt.render_call(ToolCall("mixed", arguments)))
    text = "".join(pieces) + draw(plain_text)
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["cut", "delete", "insert"]))
        if action == "cut":
            text = text[:where]
        elif action == "delete":
            text = text[:where] + text[where + draw(st.integers(1, 15)) :]
        else:
            text = text[:where] + draw(st.sampled_from(SNIPPETS)) + text[where:]
    return text


@pytest.mark.parametrize("fmt", [QWEN35_XML, HERMES_JSON], ids=lambda f: f.name)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=tag_soup | near_calls(), seed=st.integers(0, 1000), in_reasoning=st.booleans())
def test_parser_never_raises_and_ignores_chunking(
    fmt: WireFormat, text: str, seed: int, in_reasoning: bool
) -> None:
    events = parse(fmt, text, in_reasoning=in_reasoning, tools=ROUND_TRIP_TOOLS)
    assert all(isinstance(e, TextDelta | ReasoningDelta | CallParsed | CallFailed) for e in events)
    chunks = random_chunks(text, seed)
    assert parse(fmt, text, chunks, in_reasoning=in_reasoning, tools=ROUND_TRIP_TOOLS) == events


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_parser_never_raises_on_arbitrary_unicode(text: str) -> None:
    for fmt in (QWEN35_XML, HERMES_JSON):
        parse(fmt, text)
        parse(fmt, "<tool_call>" + text)
        parse(fmt, "<tool_call>\n<function=web_search>\n<parameter=query>\n" + text)
