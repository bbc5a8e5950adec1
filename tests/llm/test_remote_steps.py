"""The remote backend's two ways of reading a streamed step, against a scripted real HTTP
server on loopback: calls written in the text (the completion endpoint, our prompt and
grammar) and native `tool_calls` deltas (the chat endpoint). No model runs here: the server
sends what a model would, split where a model splits it."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from app.llm.backend import SamplingSettings, StepRequest, StepResult, StreamEvent
from app.llm.chat_template import ChatTemplate
from app.llm.formats import HERMES_JSON
from app.llm.remote import RemoteModel, RemoteSettings
from app.llm.tools import ToolCall, ToolSpec
from tests.support.sse_server import ScriptedServer, choice_event, scripted_server

SEARCH = ToolSpec(
    "web_search",
    "Search the web",
    {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "max_results": {"type": "integer", "minimum": 1, "maximum": 10},
        },
        "required": ["query"],
    },
)
CALL = '\n{"name": "web_search", "arguments": {"query": "cats"}}\n</tool_call>'


def texts(*pieces: str, finish: str = "stop") -> list[dict[str, Any]]:
    """Completion chunks, one a piece, the last with the finish reason."""
    events = [choice_event({"text": piece}) for piece in pieces]
    return [*events, choice_event({"text": "", "finish_reason": finish})]


def deltas(*parts: dict[str, Any], finish: str = "stop") -> list[dict[str, Any]]:
    """Chat chunks, one a delta, the last with the finish reason."""
    events = [choice_event({"delta": part}) for part in parts]
    return [*events, choice_event({"delta": {}, "finish_reason": finish})]


def model_for(server: ScriptedServer, mode: str) -> RemoteModel:
    """A model as `load` leaves it for a ChatML server (completion) or a chat-only one."""
    model = RemoteModel(RemoteSettings(server.base_url, model="m"))
    if mode == "completion":
        model.mode = "completion"
        model.template = ChatTemplate.for_model(None, "", "")
        model.wire_format = HERMES_JSON
    return model


def run(
    server: ScriptedServer,
    mode: str,
    request: StepRequest,
    events: list[StreamEvent] | None = None,
    cancel: threading.Event | None = None,
) -> StepResult:
    sink: list[StreamEvent] = [] if events is None else events
    return model_for(server, mode).step(request, sink.append, cancel or threading.Event())


def ask(tools: Iterable[ToolSpec] = (), **options: Any) -> StepRequest:
    request = StepRequest(
        [{"role": "user", "content": "Search the web for cats."}],
        list(tools),
        SamplingSettings(max_tokens=200),
    )
    for key, value in options.items():
        setattr(request, key, value)
    return request


# -- calls written in the text (completion endpoint) ------------------------------------------


def test_prose_streams_in_one_request() -> None:
    with scripted_server(lambda *_: texts("Cats ", "are ", "small.")) as server:
        events: list[StreamEvent] = []
        result = run(server, "completion", ask([SEARCH]), events)
    assert result.text == "Cats are small." == "".join(e.text for e in events)
    assert result.stats.stop_reason == "end" and result.stats.generated_tokens == 3
    [body] = server.bodies
    assert "grammar" not in body and body["prompt"].endswith("<|im_start|>assistant\n")
    assert body["max_tokens"] == 200 and body["stream"] is True


def test_a_call_in_the_text_continues_under_the_grammar() -> None:
    """The text up to "<tool_call>" is one request; the call is a second one that continues
    the text under our grammar; after the call a third, free again."""

    def script(_path: str, _body: dict[str, Any], count: int) -> list[dict[str, Any]]:
        if count == 0:
            return texts("Let me look. ", "<tool_call>", " never sent")
        if count == 1:
            return texts(CALL[:30], CALL[30:])
        return texts(finish="stop")

    with scripted_server(script) as server:
        result = run(server, "completion", ask([SEARCH]))
    first, second, third = server.bodies
    assert "grammar" not in first and "web_search" in second["grammar"]
    assert second["prompt"] == first["prompt"] + "Let me look. <tool_call>"
    assert second["repeat_penalty"] == 1.0  # a grammar's span is not penalised for repeats
    assert "grammar" not in third and third["prompt"].endswith("</tool_call>")
    assert result.text == "Let me look."
    assert [(c.name, c.arguments) for c in result.calls] == [("web_search", {"query": "cats"})]
    assert result.stats.stop_reason == "end"


def test_a_required_call_opens_the_span_itself() -> None:
    with scripted_server(lambda *_: texts(CALL)) as server:
        result = run(server, "completion", ask([SEARCH], tool_choice="required"))
    assert server.bodies[0]["prompt"].endswith("<tool_call>") and server.bodies[0]["grammar"]
    assert result.raw.startswith("<tool_call>") and result.text == ""
    assert [c.arguments for c in result.calls] == [{"query": "cats"}]


def test_the_token_limit_ends_the_step() -> None:
    with scripted_server(lambda *_: texts("Cats ", "are", finish="length")) as server:
        result = run(server, "completion", ask())
    assert result.stats.stop_reason == "max_tokens" and result.text == "Cats are"
    assert len(server.bodies) == 1


def test_a_call_cut_at_the_token_limit_tells_the_model_why() -> None:
    with scripted_server(lambda *_: texts('\n{"name": "web_search"', finish="length")) as server:
        result = run(server, "completion", ask([SEARCH], tool_choice="required"))
    assert result.stats.stop_reason == "max_tokens" and result.calls == []
    [problem] = result.problems
    assert "did not end" in problem.message


def test_stop_ends_the_step_between_pieces() -> None:
    cancel = threading.Event()

    class Pressing(list[StreamEvent]):
        def append(self, event: StreamEvent) -> None:
            super().append(event)
            cancel.set()  # Stop pressed as the first words show

    with scripted_server(lambda *_: texts(*["Once upon a time. "] * 200)) as server:
        result = run(server, "completion", ask(), Pressing(), cancel)
    assert result.stats.stop_reason == "cancelled"
    assert result.text.startswith("Once upon") and result.stats.generated_tokens < 50
    assert len(server.bodies) == 1


# -- native tool_calls deltas (chat endpoint) -------------------------------------------------


def test_native_calls_are_joined_validated_and_sent_named() -> None:
    parts = [
        {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "web_search"}}]},
        {"tool_calls": [{"index": 0, "function": {"name": "web_search", "arguments": '{"qu'}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": 'ery": "cats"}'}}]},
        {"tool_calls": [{"index": 1, "id": "c2", "function": {"name": "web_search"}}]},
        {"tool_calls": [{"index": 1, "function": {"arguments": {"max_results": 99}}}]},
    ]
    with scripted_server(lambda *_: deltas(*parts, finish="tool_calls")) as server:
        result = run(server, "chat", ask([SEARCH], tool_choice="required"))
    assert result.calls == [ToolCall("web_search", {"query": "cats"}, id="c1")]
    [problem] = result.problems
    assert problem.tool == "web_search" and "query" in problem.message
    assert result.stats.stop_reason == "end" and result.stats.generated_tokens == 5
    [body] = server.bodies
    assert body["tool_choice"] == {"type": "function", "function": {"name": "web_search"}}
    assert [t["function"]["name"] for t in body["tools"]] == ["web_search"]


def test_the_chat_endpoint_streams_reasoning_and_text_calls() -> None:
    parts = [
        {"reasoning_content": "They want cats."},
        {"content": "Sure. "},
        {"content": '<tool_call>\n{"name": "web_search", '},
        {"content": '"arguments": {"query": "cats"}}\n</tool_call>'},
    ]
    with scripted_server(lambda *_: deltas(*parts)) as server:
        events: list[StreamEvent] = []
        result = run(server, "chat", ask([SEARCH]), events)
    assert result.reasoning == "They want cats." and result.text == "Sure."
    assert [e.kind for e in events][:2] == ["reasoning", "text"]
    assert [c.arguments for c in result.calls] == [{"query": "cats"}]
    assert server.bodies[0]["tool_choice"] == "auto"


def test_a_native_call_cut_at_the_token_limit_tells_the_model_why() -> None:
    parts: list[dict[str, Any]] = [
        {"content": "Searching."},
        {"tool_calls": [{"index": 0, "function": {"name": "web_search", "arguments": '{"q'}}]},
    ]
    with scripted_server(lambda *_: deltas(*parts, finish="length")) as server:
        result = run(server, "chat", ask([SEARCH]))
    assert result.stats.stop_reason == "max_tokens" and result.calls == []
    [problem] = result.problems
    assert "did not end" in problem.message


def test_no_tools_offered_sends_none() -> None:
    with scripted_server(lambda *_: deltas({"content": "Hello."})) as server:
        result = run(server, "chat", ask([SEARCH], tool_choice="none"))
    assert result.text == "Hello." and "tools" not in server.bodies[0]
    assert server.bodies[0]["chat_template_kwargs"] == {"enable_thinking": False}
