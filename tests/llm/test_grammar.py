"""GBNF grammars for the call span: they compile, accept exactly the valid calls, never name
an end-of-generation token, and steer a real model into calls that parse and validate."""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import llama_cpp
import pytest
from llama_cpp import LlamaGrammar

from app.llm.backend import GenerationStats, SamplingSettings
from app.llm.formats import (
    HERMES_JSON,
    JSON_FALLBACK,
    QWEN35_XML,
    CallFailed,
    CallParsed,
    CallSpans,
    WireFormat,
    grammar_compiles,
    runaway_problem,
)
from app.llm.runtime import LocalModel
from app.llm.tools import ToolCall, ToolSpec, tool_map, validate_call
from tests.support.toolset import (
    ALL,
    CREATE_EVENT,
    FIND_FREE_TIME,
    LIST_EMAILS,
    LIST_EVENTS,
    READ_WEBPAGE,
    SEND_EMAIL,
    SET_REMINDER,
    TOOLS,
    WEB_SEARCH,
    WRITE_FILE,
)

real_model = pytest.mark.real_model

FORMATS = [QWEN35_XML, HERMES_JSON, JSON_FALLBACK]
OPEN = "<tool_call>"

# -- helpers -------------------------------------------------------------------------------


def accepts(llama: Any, grammar: str, text: str, *, special: bool = False) -> bool:
    """Does the grammar accept exactly `text` (token by token, then end of generation)?

    Each token is offered alone to the grammar sampler; a rejected one gets -inf. Nothing
    is ever accepted that the grammar refused (that would abort inside llama.cpp).
    """
    sampler = llama_cpp.llama_sampler_init_grammar(
        llama._model.vocab, grammar.encode("utf-8"), b"root"
    )
    assert sampler, "grammar did not compile"
    try:
        tokens = llama.tokenize(text.encode("utf-8"), add_bos=False, special=special)
        for token in [*tokens, llama.token_eos()]:
            data = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(token, 0.0, 0.0))
            array = llama_cpp.llama_token_data_array(data, 1, -1, False)
            llama_cpp.llama_sampler_apply(sampler, ctypes.byref(array))
            if math.isinf(data[0].logit):
                return False
            if token != llama.token_eos():
                llama_cpp.llama_sampler_accept(sampler, token)
        return True
    finally:
        llama_cpp.llama_sampler_free(sampler)


def span(fmt: WireFormat, call: ToolCall) -> str:
    """What the grammar must produce: the rendered call after "<tool_call>"."""
    return fmt.render_call(call).removeprefix(OPEN)


def outside_literals(grammar: str) -> str:
    """The grammar with quoted literals, character classes and comments removed."""
    out, index = [], 0
    while index < len(grammar):
        char = grammar[index]
        if char in '"[':
            close = '"' if char == '"' else "]"
            index += 1
            while grammar[index] != close:
                index += 2 if grammar[index] == "\\" else 1
            index += 1
        elif char == "#":
            while index < len(grammar) and grammar[index] != "\n":
                index += 1
        else:
            out.append(char)
            index += 1
    return "".join(out)


def sample_span(llama: Any, prompt: str, grammar: str, max_tokens: int = 300) -> str:
    """Evaluate `prompt` (ending in "<tool_call>") and sample under the grammar."""
    llama.reset()
    llama.eval(llama.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))
    sampler = llama._init_sampler(
        temp=0.7, grammar=LlamaGrammar.from_string(grammar, verbose=False)
    )
    out = b""
    for _ in range(max_tokens):
        token = sampler.sample(llama._ctx, -1)
        out += llama.detokenize([token], special=True)
        llama.eval([token])
        if out.endswith(b"</tool_call>"):
            break
    return out.decode("utf-8", errors="replace")


# -- compiling -----------------------------------------------------------------------------

TOOL_SETS = {
    "all": ALL,
    **{tool.name: [tool] for tool in ALL},
    "calendar": [LIST_EVENTS, FIND_FREE_TIME, CREATE_EVENT],
}


@real_model
@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
@pytest.mark.parametrize("tools", list(TOOL_SETS.values()), ids=list(TOOL_SETS))
def test_every_grammar_compiles(
    smollm2: LocalModel, fmt: WireFormat, tools: list[ToolSpec]
) -> None:
    for limit in (None, 64):
        grammar = fmt.call_grammar(tools, max_string_length=limit)
        LlamaGrammar.from_string(grammar, verbose=False)
        assert grammar_compiles(smollm2.llama, grammar), grammar


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_grammars_never_name_a_token(fmt: WireFormat) -> None:
    grammar = fmt.call_grammar(ALL)
    assert "<" not in outside_literals(grammar)  # no token literals such as <|im_end|>
    for special in ("<|im_end|>", "<|endoftext|>", "<|im_start|>", "<eos>", "</s>"):
        assert special not in grammar


@real_model
def test_a_broken_grammar_is_reported_not_used(smollm2: LocalModel) -> None:
    assert not grammar_compiles(smollm2.llama, 'root ::= "a" missing-rule')


def test_no_tools_no_grammar() -> None:
    for fmt in FORMATS:
        with pytest.raises(ValueError, match="at least one tool"):
            fmt.call_grammar([])


def test_grammar_shape() -> None:
    xml = QWEN35_XML.call_grammar([WEB_SEARCH, LIST_EMAILS])
    assert xml.startswith('root ::= "\\n"? "<function=" call "</function>\\n</tool_call>"')
    assert '"web_search>\\n"' in xml and '"inbox" | "sent"' in xml.replace('"drafts" | ', "")
    hermes = HERMES_JSON.call_grammar([WEB_SEARCH])
    assert hermes.startswith('root ::= "\\n"? "{\\"name\\": " call "}\\n</tool_call>"')
    assert '"1" | "2" | "3"' in hermes  # a small integer range is spelled out


# -- what the grammars accept --------------------------------------------------------------

VALID_CALLS = [
    ToolCall("web_search", {"query": "weather in Lyon", "max_results": 3}),
    ToolCall("web_search", {"query": 'C++ vs. Rust: "2026" & beyond? (100%)'}),
    ToolCall("list_events", {"start": "2026-05-01T00:00", "end": "2026-05-07T23:59:59Z"}),
    ToolCall(
        "list_events",
        {"start": "2026-05-01T08:00+02:00", "end": "2026-05-01T18:00", "calendar": "Work"},
    ),
    ToolCall(
        "send_email",
        {
            "to": ["ana@example.org", "b.c@mail.example.com"],
            "subject": "Lunch",
            "body": "Hi Ana,\n\nlunch at 12?\n  Ben",
            "cc": ["x@y.org"],
        },
    ),
    ToolCall("set_reminder", {"text": "Call mum", "at": "2026-05-01T18:00"}),
    ToolCall("list_emails", {}),
    ToolCall("list_emails", {"folder": "archive", "unread_only": True, "limit": 100}),
    ToolCall(
        "write_file", {"path": "notes/todo.md", "content": "- milk\n- <b>eggs", "overwrite": False}
    ),
    ToolCall(
        "find_free_time",
        {"start": "2026-05-01T08:00", "end": "2026-05-02T08:00", "duration_minutes": 30},
    ),
    ToolCall(
        "create_event",
        {
            "title": "Dentist",
            "start": "2026-05-03T10:00",
            "end": "2026-05-03T11:00",
            "location": None,
            "attendees": [{"email": "dr@example.org", "name": "Dr. Who"}, {"email": "me@x.org"}],
        },
    ),
    ToolCall("read_webpage", {"url": "https://example.org/a?b=1&c=%20#top"}),
]


@real_model
@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_valid_calls_are_accepted(smollm2: LocalModel, fmt: WireFormat) -> None:
    grammar = fmt.call_grammar(ALL)
    for call in VALID_CALLS:
        assert validate_call(call, TOOLS) == []
        assert accepts(smollm2.llama, grammar, span(fmt, call)), fmt.render_call(call)
    # The runtime may switch to the grammar after a token that already carried the newline.
    assert accepts(smollm2.llama, grammar, span(fmt, VALID_CALLS[0]).removeprefix("\n"))


@real_model
def test_xml_booleans_as_the_template_writes_them(smollm2: LocalModel) -> None:
    grammar = QWEN35_XML.call_grammar([LIST_EMAILS])

    def text(value: str) -> str:
        return (
            "\n<function=list_emails>\n<parameter=unread_only>\n"
            f"{value}\n</parameter>\n</function>\n</tool_call>"
        )

    for value in ("true", "false", "True", "False"):
        assert accepts(smollm2.llama, grammar, text(value))
    assert not accepts(smollm2.llama, grammar, text("yes"))


INVALID_CALLS = [
    ToolCall("book_flight", {"to": "Paris"}),  # unknown tool
    ToolCall("web_search", {"max_results": 3}),  # missing required
    ToolCall("web_search", {"query": "x", "max_results": 11}),  # above maximum
    ToolCall("web_search", {"query": "x", "max_results": 0}),  # below minimum
    ToolCall("web_search", {"query": "x", "max_results": "3 please"}),
    ToolCall("web_search", {"query": "x" * (WEB_SEARCH.properties["query"]["maxLength"] + 1)}),
    ToolCall("web_search", {"query": ""}),  # an empty value is a slip
    ToolCall("list_emails", {"folder": "spam"}),  # not in the enum
    ToolCall("list_events", {"start": "tomorrow", "end": "2026-05-01T00:00"}),  # not a date-time
    ToolCall("send_email", {"to": [], "subject": "s", "body": "b"}),  # minItems
    ToolCall("send_email", {"to": ["not an address"], "subject": "s", "body": "b"}),
    ToolCall("send_email", {"to": ["a@b.org"], "subject": "s", "body": "b", "bcc": ["c@d.org"]}),
    ToolCall("set_reminder", {"at": "2026-05-01T18:00", "text": "x"}),  # schema order only
    ToolCall(
        "create_event",
        {
            "title": "x",
            "start": "2026-05-03T10:00",
            "end": "2026-05-03T11:00",
            "attendees": [{"name": "no email"}],
        },
    ),
]


@real_model
@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_invalid_calls_are_rejected(smollm2: LocalModel, fmt: WireFormat) -> None:
    grammar = fmt.call_grammar(ALL)
    for call in INVALID_CALLS:
        assert not accepts(smollm2.llama, grammar, span(fmt, call)), fmt.render_call(call)


@real_model
def test_xml_strings_cannot_contain_the_value_end(smollm2: LocalModel) -> None:
    grammar = QWEN35_XML.call_grammar([WRITE_FILE])

    def text(content: str) -> str:
        return span(QWEN35_XML, ToolCall("write_file", {"path": "a.txt", "content": content}))

    assert accepts(smollm2.llama, grammar, text("line one\n\nline <two> & three"))
    assert not accepts(smollm2.llama, grammar, text("a\n</parameter>\nb"))
    assert not accepts(smollm2.llama, grammar, text("a</parameter>b"))  # no "</" at all
    assert not accepts(smollm2.llama, grammar, text("a\n<parameter=x>"))  # no "<" at a line start
    # Short strings (maxLength up to 200: titles, queries) are one line without "<".
    short = QWEN35_XML.call_grammar([WEB_SEARCH])
    for query in ("two\nlines", "a < b"):
        call = ToolCall("web_search", {"query": query})
        assert not accepts(smollm2.llama, short, span(QWEN35_XML, call))
        assert accepts(
            smollm2.llama, HERMES_JSON.call_grammar([WEB_SEARCH]), span(HERMES_JSON, call)
        )


@real_model
@pytest.mark.parametrize("fmt", [HERMES_JSON, JSON_FALLBACK], ids=lambda f: f.name)
def test_json_strings_cannot_contain_the_call_end(smollm2: LocalModel, fmt: WireFormat) -> None:
    """Seen with SmolLM2: `{"start": "); }}</tool_call>` ended the call inside a string."""
    grammar = fmt.call_grammar([WRITE_FILE])

    def text(content: str) -> str:
        return span(fmt, ToolCall("write_file", {"path": "a.txt", "content": content}))

    assert accepts(smollm2.llama, grammar, text("a < b, <b>bold<\\/b> & c"))
    assert not accepts(smollm2.llama, grammar, text("x }}</tool_call>"))
    assert not accepts(smollm2.llama, grammar, text("</"))
    escaped = span(fmt, ToolCall("write_file", {"path": "a.txt", "content": "X"}))
    assert accepts(smollm2.llama, grammar, escaped.replace('"X"', '"<\\/tool_call>"'))
    events = fmt.parse(OPEN + escaped.replace('"X"', '"<\\/b>"'), tool_map([WRITE_FILE]))
    assert [e.call.arguments["content"] for e in events if isinstance(e, CallParsed)] == ["</b>"]


@real_model
def test_max_string_length_bounds_strings_without_max_length(smollm2: LocalModel) -> None:
    for fmt in FORMATS:
        grammar = fmt.call_grammar([WRITE_FILE], max_string_length=10)

        def text(content: str, fmt: WireFormat = fmt) -> str:
            return span(fmt, ToolCall("write_file", {"path": "a", "content": content}))

        assert accepts(smollm2.llama, grammar, text("0123456789"))
        assert not accepts(smollm2.llama, grammar, text("0123456789A"))
        unbounded = fmt.call_grammar([WRITE_FILE])
        assert accepts(smollm2.llama, unbounded, text("x" * 300))


# -- sampling with the real SmolLM2 model --------------------------------------------------

REQUESTS = [
    (
        "What's the weather in Lyon tomorrow? Search the web.",
        [WEB_SEARCH, LIST_EVENTS, SET_REMINDER],
    ),
    ("Remind me to call mum at 6pm on 1 May 2026.", [SET_REMINDER, WEB_SEARCH]),
    ("Email ana@example.org that lunch moves to 1pm.", [SEND_EMAIL, LIST_EMAILS]),
    ("What is on my calendar next week?", [LIST_EVENTS, CREATE_EVENT]),
    ("Show me my five newest unread emails.", [LIST_EMAILS, READ_WEBPAGE]),
]
SAMPLED = [(JSON_FALLBACK, request) for request in REQUESTS] + [
    (QWEN35_XML, REQUESTS[0]),
    (QWEN35_XML, REQUESTS[2]),
    (HERMES_JSON, REQUESTS[1]),
    (HERMES_JSON, REQUESTS[4]),
]


def chat_prompt(model: LocalModel, fmt: WireFormat, request: str, tools: list[ToolSpec]) -> str:
    """SmolLM2's own (ChatML) template; tools described by the fallback format's block."""
    messages = [
        {"role": "system", "content": "You are Hearth, a helpful assistant."},
        {"role": "user", "content": request},
    ]
    prepared = JSON_FALLBACK.prepare_messages(messages, tools)
    if fmt is QWEN35_XML:  # show the XML syntax instead of the JSON one
        prepared[0]["content"] += (
            "\n\nWrite calls as:\n<tool_call>\n<function=NAME>\n<parameter=PARAM>\nVALUE\n"
            "</parameter>\n</function>\n</tool_call>"
        )
    return model.render(prepared) + OPEN


@pytest.mark.parametrize(
    ("fmt", "request_and_tools"),
    SAMPLED,
    ids=[f"{fmt.name}-{i}" for i, (fmt, _) in enumerate(SAMPLED)],
)
@real_model
def test_sampled_calls_parse_and_validate(
    smollm2: LocalModel, fmt: WireFormat, request_and_tools: tuple[str, list[ToolSpec]]
) -> None:
    """Through the runtime, as the app samples a call. What holds for any sample on any CPU:
    a call that closes is valid; one that never closes was a loop, ended by the repetition
    guard long before the token limit (SmolLM2 loops inside strings on some CPUs)."""
    request, tools = request_and_tools
    grammar = fmt.call_grammar(tools, max_string_length=80)
    stats = GenerationStats()
    smollm2.llama.set_seed(1234)
    pieces = smollm2.stream(
        smollm2.tokenize_prompt(chat_prompt(smollm2, fmt, request, tools)),
        SamplingSettings(max_tokens=900, temperature=0.7),
        None,
        stats,
        CallSpans([t.name for t in tools], forced_open=True),
        lambda _start: grammar,
    )
    text = "".join(raw for raw, _ in pieces)
    call, close, _after = text.partition("</tool_call>")  # after the call: never shown
    events = fmt.parse(OPEN + call + close, tools)
    if stats.stop_reason == "repetition":
        assert not close
        assert len(events) == 1 and isinstance(events[0], CallFailed), events
        return
    assert close, (stats.stop_reason, text)
    assert len(events) == 1 and isinstance(events[0], CallParsed), (text, events)
    assert validate_call(events[0].call, tool_map(tools)) == []
    assert events[0].call.name in {tool.name for tool in tools}


@real_model
def test_a_call_that_repeats_itself_is_stopped_by_the_guard(smollm2: LocalModel) -> None:
    """The repetition guard watches the call span too: a loop inside a call string ends
    there, not at the token limit, and the model is told why (its one repair try)."""
    loop = (
        'root ::= "\\n{\\"name\\": \\"web_search\\", \\"arguments\\": {\\"query\\": \\"" "abc"{400}'
    )
    stats = GenerationStats()
    prompt = chat_prompt(smollm2, JSON_FALLBACK, "Search the web.", [WEB_SEARCH])
    text = "".join(
        raw
        for raw, _ in smollm2.stream(
            smollm2.tokenize_prompt(prompt),
            SamplingSettings(max_tokens=800),
            None,
            stats,
            CallSpans(["web_search"], forced_open=True),
            lambda _start: loop,
        )
    )
    assert stats.stop_reason == "repetition"
    # Stopped long before the grammar's 1,200 characters, however the model cuts them
    # into tokens: the text check trips within 162 characters of the loop (+ the ~48 of
    # the call's start), even at one character a token.
    assert stats.generated_tokens < 300 and "abcabc" in text
    [event] = JSON_FALLBACK.parse(OPEN + text, [WEB_SEARCH])
    assert isinstance(event, CallFailed)
    assert "repeating" in runaway_problem(event.problem).message


# -- a vocabulary where the tags are single tokens (tiny random-weight Qwen3.5) -------------


@pytest.fixture(scope="module")
def tiny_qwen35(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    fixture = pytest.importorskip("tests.support.tiny_qwen35")
    path: Path = fixture.tiny_qwen35_path(tmp_path_factory)
    model = llama_cpp.Llama(model_path=str(path), n_ctx=1024, n_threads=2, seed=1234, verbose=False)
    yield model
    model.close()


@real_model
def test_tag_tokens_match_quoted_grammar_literals(tiny_qwen35: Any) -> None:
    close = tiny_qwen35.tokenize(b"</tool_call>", add_bos=False, special=True)
    assert len(close) == 1  # one special token, as in the real Qwen vocabularies
    call = ToolCall("web_search", {"query": "rain in Lyon", "max_results": 2})
    for fmt in (QWEN35_XML, HERMES_JSON):
        grammar = fmt.call_grammar(ALL)
        assert grammar_compiles(tiny_qwen35, grammar)
        text = span(fmt, call)
        assert close[0] in tiny_qwen35.tokenize(text.encode(), add_bos=False, special=True)
        assert accepts(tiny_qwen35, grammar, text, special=True)


@real_model
@pytest.mark.parametrize("fmt", [QWEN35_XML, HERMES_JSON], ids=lambda f: f.name)
def test_even_a_random_model_makes_valid_calls_under_the_grammar(
    tiny_qwen35: Any, fmt: WireFormat
) -> None:
    tools = [WEB_SEARCH, LIST_EMAILS, SET_REMINDER]
    grammar = fmt.call_grammar(tools, max_string_length=40)
    prompt = "<|im_start|>user\nWeather in Lyon?<|im_end|>\n<|im_start|>assistant\n" + OPEN
    for seed in range(3):
        tiny_qwen35.set_seed(seed)
        text = sample_span(tiny_qwen35, prompt, grammar, max_tokens=600)
        assert text.endswith("</tool_call>"), text
        [event] = fmt.parse(OPEN + text, tools)
        if isinstance(event, CallFailed):
            # llama.cpp's grammar reads a malformed UTF-8 sequence inside one token as one
            # character; decoded with replacement characters it is longer, so only a length
            # limit can be overshot, and only with such bytes (a trained model hardly makes
            # them, a random one does).
            assert "\ufffd" in text, event
            assert all("characters long" in error for error in event.problem.errors), event
        else:
            assert isinstance(event, CallParsed)
