"""The chat endpoint's runaway guard: a server whose model loops (inside a call's arguments, or
in a call it writes as text) is cut off by Hearth, not left to run to its token limit.

The server here is a small real HTTP server on loopback (`tests/support/sse_server`) that
streams what a looping model streams until the client hangs up: no real model loops on cue."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from app.llm.backend import SamplingSettings, StepRequest, StepResult
from app.llm.remote import RemoteModel, RemoteSettings
from app.llm.tools import ToolSpec
from tests.support.sse_server import choice_event, scripted_server

SEARCH = ToolSpec(
    "web_search",
    "Search the web",
    {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)
CHUNKS = 3000  # what the server would send if nobody stopped it


def _structured(n: int) -> dict[str, object]:
    """A `tool_calls` delta: the name first, then the arguments looping."""
    if n == 0:
        function = {"name": "web_search", "arguments": '{"query": "'}
        return {"tool_calls": [{"index": 0, "id": "c1", "type": "function", "function": function}]}
    return {"tool_calls": [{"index": 0, "function": {"arguments": "cats and dogs "}}]}


def _in_text(n: int) -> dict[str, object]:
    """A call written as text (no tool parser on the server), looping in its argument."""
    if n == 0:
        return {"content": '<tool_call>\n{"name": "web_search", "arguments": {"query": "'}
    return {"content": "cats and dogs "}


def _prose(n: int) -> dict[str, object]:
    return {"content": "I will look that up for you. "}


@contextmanager
def looping_server(delta: Callable[[int], dict[str, object]]) -> Iterator[int]:
    """A chat endpoint on a free loopback port (yielded) that streams `delta(n)` for ever."""

    def script(*_: object) -> Iterator[dict[str, Any]]:
        for n in range(CHUNKS):
            yield choice_event({"delta": delta(n)})
        yield choice_event({"delta": {}, "finish_reason": "length"})

    with scripted_server(script) as server:
        yield server.port


def _step(port: int) -> StepResult:
    model = RemoteModel(RemoteSettings(f"http://127.0.0.1:{port}/v1", model="m"))
    model.mode = "chat"
    request = StepRequest(
        [{"role": "user", "content": "Search the web for cats."}],
        [SEARCH],
        SamplingSettings(max_tokens=CHUNKS + 10),
    )
    return model.step(request, lambda _e: None, threading.Event())


@pytest.mark.parametrize(
    ("delta", "tool"),
    [(_structured, "web_search"), (_in_text, None)],  # in the text the name was not parsed yet
    ids=["tool_calls", "in the text"],
)
def test_a_call_that_loops_is_cut_off_and_the_model_told_why(
    delta: Callable[[int], dict[str, object]], tool: str | None
) -> None:
    with looping_server(delta) as port:
        result = _step(port)
    assert result.stats.stop_reason == "repetition"
    assert result.stats.generated_tokens < 200
    assert result.calls == []
    [problem] = result.problems
    assert "repeating" in problem.message and problem.tool == tool


def test_looping_prose_ends_without_a_call_problem() -> None:
    with looping_server(_prose) as port:
        result = _step(port)
    assert result.stats.stop_reason == "repetition"
    assert result.stats.generated_tokens < 200
    assert result.problems == [] and result.text.startswith("I will look")
