"""The call-span machine: every form a small model writes a call in is found, in any chunking,
and text that merely contains JSON stays text. Pure Python, no model."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.llm.formats import (
    HERMES_JSON,
    QWEN35_XML,
    CallFailed,
    CallParsed,
    CallSpans,
    Event,
    SpanStep,
    TextDelta,
    WireFormat,
    merge_deltas,
)
from app.llm.formats.span import FORCED_THINK_END
from tests.support.toolset import TOOLS

NAMES = list(TOOLS)
SEARCH = {"name": "web_search", "arguments": {"query": "Louvre opening hours"}}
PRETTY = json.dumps(SEARCH, indent=2)
COMPACT = json.dumps(SEARCH)

# (what the model wrote, the calls the user expects to run)
CALLS = {
    "tag": (f"<tool_call>\n{COMPACT}\n</tool_call>", ["web_search"]),
    "bare": (COMPACT, ["web_search"]),
    "bare after blank lines": (f"\n\n  {COMPACT}", ["web_search"]),
    "fence": (f"```json\n{PRETTY}\n```", ["web_search"]),
    "fence without language": (f"```\n{PRETTY}\n```", ["web_search"]),
    "function_call wrapper": (f"<function_call>{COMPACT}</function_call>", ["web_search"]),
    "wrapper after words": (
        f"Let me look that up.\n<function_call>\n{COMPACT}\n</function_call>",
        ["web_search"],
    ),
    "function tag with JSON": (
        '<function=web_search>{"query": "Louvre opening hours"}</function>',
        ["web_search"],
    ),
    "function tag with XML": (
        "<function=web_search>\n<parameter=query>\nLouvre opening hours\n</parameter>\n</function>",
        ["web_search"],
    ),
    "two bare calls": (
        COMPACT + "\n" + json.dumps({"name": "list_emails", "arguments": {"limit": 3}}),
        ["web_search", "list_emails"],
    ),
    "two fenced calls": (
        f"```json\n{PRETTY}\n```\n```json\n"
        + json.dumps({"name": "list_emails", "arguments": {"limit": 3}})
        + "\n```",
        ["web_search", "list_emails"],
    ),
    "after reasoning": (f"<think>\nThe user wants hours.\n</think>\n\n{COMPACT}", ["web_search"]),
}

TEXTS = {
    "words then JSON": f"Here is an example of a call:\n```json\n{PRETTY}\n```",
    "JSON with a name that is no tool": json.dumps({"name": "John Smith", "age": 42}),
    "JSON without a name": json.dumps({"query": "Louvre"}),
    "a code fence of Python": "```python\nprint('hi')\n```",
    "a tag-like word": "Use <function> tags in HTML, or <tool> if you like.",
    "a plain answer": "The Louvre opens at 9 am.",
}


def run(
    text: str, chunks: list[int] | None = None, fmt: WireFormat = HERMES_JSON
) -> tuple[list[Event], list[SpanStep]]:
    """Feed `text` in pieces (sizes cycling through `chunks`); return the parser's events
    and the machine's steps."""
    spans = CallSpans(NAMES)
    parser = fmt.new_parser(TOOLS)
    events: list[Event] = []
    steps: list[SpanStep] = []
    position, index = 0, 0
    sizes = chunks or [1]
    while position < len(text):
        size = max(1, sizes[index % len(sizes)])
        piece = text[position : position + size]
        position += size
        index += 1
        step = spans.feed_uncut(piece)  # what a grammar would regenerate, fed on as written
        steps.append(step)
        events += parser.feed(step.text)
        if step.stop:
            break
    events += parser.feed(spans.finish()) + parser.finish()
    return merge_deltas(events), steps


@pytest.mark.parametrize("case", list(CALLS))
def test_every_form_of_call_is_found(case: str) -> None:
    text, expected = CALLS[case]
    events, steps = run(text)
    calls = [e.call.name for e in events if isinstance(e, CallParsed)]
    assert calls == expected, events
    assert not [e for e in events if isinstance(e, CallFailed)]
    assert sum(1 for s in steps if s.start) == len(expected)
    assert sum(1 for s in steps if s.ended) == len(expected)
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert "{" not in shown and "name" not in shown  # no half call ever reaches the user


def test_words_before_a_wrapper_are_shown() -> None:
    events, _ = run(CALLS["wrapper after words"][0])
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["Let me look that up."]


@pytest.mark.parametrize("case", list(TEXTS))
def test_text_that_only_contains_json_stays_text(case: str) -> None:
    events, steps = run(TEXTS[case])
    assert not any(isinstance(e, (CallParsed, CallFailed)) for e in events)
    assert not any(s.start for s in steps)
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert shown == TEXTS[case].strip()


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"name": "add_event", "arguments": {"title": "Dentist"}}),
        "```json\n" + json.dumps({"name": "search_web", "parameters": {"q": "x"}}, indent=2),
    ],
)
def test_a_misnamed_call_is_a_call_the_model_is_told_about(text: str) -> None:
    """A call object naming a tool that was not offered never runs and is not shown as
    text: the model hears which tool it probably meant (its one repair try)."""
    events, steps = run(text)
    [failed] = [e for e in events if isinstance(e, CallFailed)]
    assert "Unknown tool" in failed.problem.message
    assert "Did you mean 'create_event'" in failed.problem.message or (
        "Did you mean 'web_search'" in failed.problem.message
    )
    assert not [e for e in events if isinstance(e, (CallParsed, TextDelta))]
    starts = [s.start for s in steps if s.start]
    assert len(starts) == 1 and starts[0].tool is None  # no grammar can fix a wrong name


def test_text_after_a_call_ends_the_reply() -> None:
    events, steps = run(COMPACT + "\nI searched the web for you.")
    assert [e.call.name for e in events if isinstance(e, CallParsed)] == ["web_search"]
    assert steps[-1].stop
    assert not [e for e in events if isinstance(e, TextDelta)]


def test_the_piece_is_cut_where_the_grammar_takes_over() -> None:
    spans = CallSpans(NAMES)
    assert spans.feed('{"name": "web_').text == ""
    step = spans.feed('search", "arg')
    assert step.start is not None and step.start.style == "json"
    assert step.start.tool == "web_search"
    assert step.cut == len('search"')  # the rest of the piece is sampled under the grammar
    assert step.text == '<tool_call>{"name": "web_search"'


def test_tag_start_asks_for_the_whole_call_grammar() -> None:
    spans = CallSpans(NAMES)
    step = spans.feed("Sure.<tool_call>\n{")
    assert step.start is not None and step.start.style == "tag" and step.start.tool is None
    assert step.cut == len("Sure.<tool_call>")


def test_no_tools_offered_nothing_is_a_call() -> None:
    spans = CallSpans([])
    assert spans.feed(COMPACT).text == COMPACT


def test_thinking_budget_forces_the_end() -> None:
    spans = CallSpans(NAMES, in_reasoning=True, thinking_budget=3)
    steps = [spans.feed(word) for word in ("a ", "b ", "c ", "d")]
    assert steps[2].inject == FORCED_THINK_END
    assert not spans.in_reasoning
    assert steps[3].text == "d"


def test_a_call_inside_reasoning_ends_it() -> None:
    spans = CallSpans(NAMES, in_reasoning=True)
    step = spans.feed("hmm<tool_call>\n<func")
    assert step.start is not None and step.cut == len("hmm<tool_call>")
    assert spans.in_call


def test_xml_calls_parse_in_the_qwen35_format() -> None:
    events, _ = run(CALLS["function tag with XML"][0], fmt=QWEN35_XML)
    [call] = [e.call for e in events if isinstance(e, CallParsed)]
    assert call.arguments == {"query": "Louvre opening hours"}


@settings(max_examples=60, deadline=None)
@given(
    case=st.sampled_from(list(CALLS) + list(TEXTS)),
    chunks=st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=6),
)
def test_chunking_never_changes_the_outcome(case: str, chunks: list[int]) -> None:
    text = CALLS[case][0] if case in CALLS else TEXTS[case]
    whole, _ = run(text, [len(text)])
    pieces, _ = run(text, chunks)

    def summary(events: list[Event]) -> tuple[list[Any], str]:
        calls = [(e.call.name, e.call.arguments) for e in events if isinstance(e, CallParsed)]
        shown = "".join(e.text for e in events if isinstance(e, TextDelta))
        return calls, shown

    assert summary(whole) == summary(pieces)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='{}"<>`/:_ \nabcnmefrtwsjol=', max_size=80))
def test_never_raises_on_any_output(text: str) -> None:
    run(text, [3])
