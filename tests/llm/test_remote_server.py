"""The remote backend against a real llama-cpp-python server on loopback (SmolLM2)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.agent.tools.registry import Registry
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.backend import SamplingSettings, StepRequest, StreamEvent
from app.llm.remote import RemoteError, RemoteModel, RemoteSettings
from app.llm.tools import ToolSpec, validate_call
from tests.llm_server import ServerProcess, free_port, llama_server

pytestmark = pytest.mark.real_model

SECRET = "correct horse battery staple"
SEARCH = ToolSpec(
    "web_search",
    "Search the web",
    {
        "type": "object",
        "properties": {
            "query": {"type": "string", "maxLength": 60},
            "max_results": {"type": "integer", "minimum": 1, "maximum": 10},
        },
        "required": ["query"],
    },
)
SYSTEM = {"role": "system", "content": "You are a helpful assistant."}


@pytest.fixture(scope="module")
def server(smollm2_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with llama_server(smollm2_path, tmp_path_factory.mktemp("srv") / "server.log") as process:
        yield process


@pytest.fixture(scope="module")
def locked_server(
    smollm2_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    log = tmp_path_factory.mktemp("locked") / "server.log"
    with llama_server(smollm2_path, log, api_key=SECRET) as process:
        yield process


def connect(server: ServerProcess, **options: object) -> RemoteModel:
    model = RemoteModel(RemoteSettings(server.base_url, **options))  # type: ignore[arg-type]
    model.load()
    return model


def ask(text: str, **options: object) -> StepRequest:
    request = StepRequest(messages=[SYSTEM, {"role": "user", "content": text}])
    request.sampling = SamplingSettings(max_tokens=48)
    for key, value in options.items():
        setattr(request, key, value)
    return request


def test_streams_a_reply_in_pieces(server: ServerProcess) -> None:
    model = connect(server)
    assert model.mode == "completion"  # ChatML found: our own prompt rendering and grammar
    assert model.name == "SmolLM2-135M-Instruct.Q4_1 on 127.0.0.1"
    events: list[StreamEvent] = []
    result = model.step(ask("Tell me about cats."), events.append, threading.Event())
    assert len(events) > 3
    assert "".join(e.text for e in events if e.kind == "text") == result.text
    assert result.text.strip()
    assert result.stats.stop_reason in ("end", "max_tokens")
    assert result.stats.generated_tokens > 3


def test_a_constrained_call_parses_and_validates(server: ServerProcess) -> None:
    model = connect(server)
    request = ask("Search the web for the weather in Paris.", tools=[SEARCH])
    request.tool_choice = "required"
    result = model.step(request, lambda _e: None, threading.Event())
    assert result.problems == []
    assert len(result.calls) == 1
    call = result.calls[0]
    assert call.name == "web_search"
    assert validate_call(call, {"web_search": SEARCH}) == []
    assert result.raw.startswith("<tool_call>")
    assert "</tool_call>" in result.raw
    assert result.text == ""  # whatever the model wrote after the call is never shown


def test_a_call_that_repeats_itself_is_stopped_by_the_guard(
    server: ServerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's loop inside a call ends there too, not at the token limit, and the model is
    told why (the local runtime's test, over HTTP: the server sends only text)."""
    model = connect(server)
    loop = (
        'root ::= "\\n{\\"name\\": \\"web_search\\", \\"arguments\\": {\\"query\\": \\"" "abc"{400}'
    )
    monkeypatch.setattr(type(model.wire_format), "span_grammar", lambda *_a, **_k: loop)
    request = ask("Search the web.", tools=[SEARCH])
    request.tool_choice = "required"
    request.sampling = SamplingSettings(max_tokens=800)
    result = model.step(request, lambda _e: None, threading.Event())
    assert result.stats.stop_reason == "repetition"
    # Stopped long before the grammar's 1,200 characters, however the model cuts them
    # into tokens: the text check trips within 162 characters of the loop (+ the ~48 of
    # the call's start), even at one character a token.
    assert result.stats.generated_tokens < 300 and "abcabc" in result.raw
    assert result.calls == []
    [problem] = result.problems
    assert "repeating" in problem.message


def test_the_chat_endpoint_streams_too(server: ServerProcess) -> None:
    model = connect(server)
    model.mode = "chat"  # what vLLM or Ollama get: the server renders the prompt
    events: list[StreamEvent] = []
    result = model.step(ask("Say hello."), events.append, threading.Event())
    assert result.text.strip()
    assert len(events) > 1


def test_the_chat_endpoint_returns_structured_calls(server: ServerProcess) -> None:
    """Where we cannot render the prompt, the server's tool_calls are parsed and validated,
    and a history with calls and results goes back in the OpenAI shape."""
    model = connect(server)
    model.mode = "chat"
    # The server's grammar keeps no number bounds (max_results: 2413 was seen), so we validate;
    # a schema without numbers keeps this test about parsing. The server does keep maxLength,
    # so the query cannot run past max_tokens (a sample that did left truncated JSON).
    search = ToolSpec(
        "web_search",
        "Search the web",
        {
            "type": "object",
            "properties": {"query": {"type": "string", "maxLength": 24}},
            "required": ["query"],
        },
    )
    request = ask("Search the web for cats.", tools=[search])
    request.sampling = SamplingSettings(max_tokens=96)  # the JSON frame and 24 characters
    request.tool_choice = "required"
    result = model.step(request, lambda _e: None, threading.Event())
    assert result.problems == []
    assert [c.name for c in result.calls] == ["web_search"]
    assert isinstance(result.calls[0].arguments["query"], str)
    history = [
        *request.messages,
        {"role": "assistant", "content": "", "tool_calls": [result.calls[0].to_openai()]},
        {
            "role": "tool",
            "tool_call_id": result.calls[0].id,
            "name": "web_search",
            "content": "Cats are small mammals.",
        },
    ]
    follow = model.step(
        StepRequest(messages=history, tools=[search], sampling=SamplingSettings(max_tokens=32)),
        lambda _e: None,
        threading.Event(),
    )
    assert follow.text.strip() or follow.calls or follow.problems


def test_stop_ends_the_reply(server: ServerProcess) -> None:
    model = connect(server)
    cancel = threading.Event()
    events: list[StreamEvent] = []

    def on_event(event: StreamEvent) -> None:
        events.append(event)
        if len(events) == 2:
            cancel.set()

    request = ask("Write a very long story about a dragon.")
    request.sampling = SamplingSettings(max_tokens=1000)
    result = model.step(request, on_event, cancel)
    assert result.stats.stop_reason == "cancelled"
    assert result.stats.generated_tokens < 1000
    # The server is still fine for the next request.
    assert model.step(ask("Hello"), lambda _e: None, threading.Event()).text


def test_the_gate_decides_as_with_the_local_model(server: ServerProcess) -> None:
    """A remote model proposes; the same Agent and policy decide: web_search is outbound, so
    it needs the user's say-so, and a refusal means it does not run."""
    tools = build_registry()
    search = tools.get("web_search")
    assert search is not None
    asked = []

    def confirmer(request):
        from app.agent.turn.confirm import ConfirmationAnswer

        asked.append(request)
        return ConfirmationAnswer.deny()

    agent = Agent(
        connect(server),
        Registry([search]),
        confirmer=confirmer,
        sampling=SamplingSettings(max_tokens=64),
        max_steps=2,
    )
    agent.first_tool_choice = "required"
    conversation = Conversation()
    report = agent.run_turn(conversation, "Search the web for the weather in Paris.")
    assert report.calls, report
    first = report.calls[0]
    assert first.name == "web_search"
    assert first.decision == "confirm"
    assert first.answer == "denied"
    assert first.status == "refused"
    assert len(asked) == len([c for c in report.calls if c.decision == "confirm"])


def test_wrong_model_name_is_named(server: ServerProcess) -> None:
    with pytest.raises(RemoteError) as caught:
        connect(server, model="qwen-does-not-exist")
    message = str(caught.value)
    assert "no model named “qwen-does-not-exist”" in message
    assert server.model_id in message  # what it does offer


def test_server_down_is_said_plainly() -> None:
    port = free_port()  # nothing listens there
    model = RemoteModel(RemoteSettings(f"http://127.0.0.1:{port}/v1"))
    with pytest.raises(RemoteError, match="nothing is listening"):
        model.load()


def test_a_silent_server_times_out() -> None:
    with socket.socket() as listener:  # accepts connections, never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]
        model = RemoteModel(
            RemoteSettings(f"http://127.0.0.1:{port}", connect_timeout=1.0, read_timeout=1.0)
        )
        with pytest.raises(RemoteError, match="did not answer in time"):
            model.load()


def test_stop_works_while_the_server_is_still_reading_the_prompt() -> None:
    """A big prompt can keep a server silent for a long time: Stop must not wait for it."""
    with socket.socket() as listener:  # accepts connections, never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]
        model = RemoteModel(RemoteSettings(f"http://127.0.0.1:{port}", read_timeout=120.0))
        model.mode = "chat"
        cancel = threading.Event()
        results = []
        thread = threading.Thread(
            target=lambda: results.append(model.step(ask("Hello"), lambda _e: None, cancel))
        )
        thread.start()
        threading.Timer(0.5, cancel.set).start()
        thread.join(60)  # far below the 120 s read timeout
        assert not thread.is_alive()
    assert results[0].stats.stop_reason == "cancelled"


def test_auth_refused_then_accepted(locked_server: ServerProcess) -> None:
    with pytest.raises(RemoteError, match=r"refused access \(HTTP 401\).*API key"):
        connect(locked_server)
    with pytest.raises(RemoteError, match="HTTP 401"):
        connect(locked_server, api_key="wrong")
    model = connect(locked_server, api_key=SECRET)
    assert model.mode == "completion"
    result = model.step(ask("Hello"), lambda _e: None, threading.Event())
    assert result.text.strip()
    assert SECRET not in repr(model.settings)


def test_server_killed_mid_reply_keeps_the_conversation(smollm2_path: Path, tmp_path: Path) -> None:
    with llama_server(smollm2_path, tmp_path / "doomed.log") as doomed:
        agent = Agent(connect(doomed), Registry(), sampling=SamplingSettings(max_tokens=1000))
        conversation = Conversation()
        conversation.add("user", "Hello")
        conversation.add("assistant", "Hello! How can I help?")
        before = len(conversation.messages)
        streamed: list[str] = []

        def on_event(event) -> None:
            if event.kind == "text":
                streamed.append(event.text)
                if len(streamed) == 3:
                    doomed.kill()

        with pytest.raises(RemoteError) as caught:
            agent.run_turn(conversation, "Write a very long story about a dragon.", on_event)
    assert "broke off in the middle of the reply" in str(caught.value)
    assert len(streamed) >= 3
    messages = conversation.messages
    assert len(messages) == before + 1  # the history and the new question are kept
    assert messages[-1].content == "Write a very long story about a dragon."


def test_calls_from_the_chat_endpoint_are_validated_like_ours() -> None:
    """The server's own grammar does not enforce bounds: our validator still does."""
    from app.llm.remote import _structured_call

    call, problem = _structured_call(
        {"id": "c1", "name": "web_search", "arguments": '{"query": "cats", "max_results": 2413}'},
        {"web_search": SEARCH},
    )
    assert call is None and problem is not None
    assert "at most 10" in problem.message
    call, problem = _structured_call(
        {"id": "c2", "name": "web_search", "arguments": '{"query": "ca'}, {"web_search": SEARCH}
    )
    assert call is None and problem is not None and "not valid JSON" in problem.message
    call, problem = _structured_call(
        {"id": "c3", "name": "web_search", "arguments": '{"query": "cats", "max_results": "3"}'},
        {"web_search": SEARCH},
    )
    assert problem is None and call is not None
    assert call.arguments == {"query": "cats", "max_results": 3} and call.id == "c3"
