"""Scoring named calls on the real model: the numbers are log-probabilities of exclusive
choices that add up to one, scoring leaves the model's context as it found it, and
`only_call` holds a step to the one tool chosen (the intents choose by score, then fill only
that intent's slots).

No test asserts which name wins: logits differ between CPUs. What holds on every CPU is."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator

import pytest

from app.llm.backend import SamplingSettings, ScoresCalls, StepRequest
from app.llm.embedded import ensure_tool_model
from app.llm.runtime import LocalModel, RuntimeSettings
from app.llm.tools import ToolSpec

pytestmark = pytest.mark.real_model

_TEXT = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
TOOLS = [
    ToolSpec("add_note", "Write down a note the user dictates.", _TEXT),
    ToolSpec("add_notes", "Write down several notes at once.", _TEXT),
    ToolSpec("search_web", "Look something up on the internet.", _TEXT),
    ToolSpec("send_email", "Send an email the user dictates.", _TEXT),
]
NAMES = [tool.name for tool in TOOLS]
GREEDY = SamplingSettings(temperature=0.0, top_k=1, max_tokens=60)


@pytest.fixture(scope="module")
def qwen() -> Iterator[LocalModel]:
    model = LocalModel(ensure_tool_model(verify=False), RuntimeSettings(n_ctx=2048, seed=3))
    model.load()
    yield model
    model.close()


def _request(text: str) -> StepRequest:
    return StepRequest(
        messages=[
            {"role": "system", "content": "Call the one function that fits."},
            {"role": "user", "content": text},
        ],
        tools=TOOLS,
        sampling=GREEDY,
        tool_choice="required",
    )


def test_the_local_model_offers_scores(qwen: LocalModel) -> None:
    assert isinstance(qwen, ScoresCalls)


@pytest.mark.parametrize("text", ["Look up the weather in Lisbon", "Merci !", "N/A"])
def test_scores_are_log_probabilities_of_exclusive_choices(qwen: LocalModel, text: str) -> None:
    scores = qwen.score_calls(_request(text), NAMES, threading.Event())
    assert scores is not None and set(scores) == set(NAMES)
    assert all(math.isfinite(s) and s <= 1e-6 for s in scores.values())
    # "add_note" and "add_notes" are told apart by the character after the name: the four
    # are exclusive choices, renormalised where they part, so they add up to one.
    assert sum(math.exp(s) for s in scores.values()) == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("which", ["qwen", "tiny_qwen35_model"])
def test_scoring_leaves_the_context_as_it_found_it(
    which: str, request: pytest.FixtureRequest
) -> None:
    """On a transformer each branch is cut off the cache; on a hybrid model (a recurrent
    state that only moves forward) the state is restored: either way the next branch, and
    the next step, start from the same place."""
    model: LocalModel = request.getfixturevalue(which)
    step = _request("Send Ana an email saying I'm late")
    cancel = threading.Event()
    first = model.score_calls(step, NAMES, cancel)
    assert model.cache is not None
    held = model.cache.cached
    again = model.score_calls(step, list(reversed(NAMES)), cancel)
    assert model.cache.cached == held  # every branch was cut off again
    assert first is not None and again is not None
    for name in NAMES:
        assert again[name] == pytest.approx(first[name], abs=1e-3)
    assert sum(math.exp(s) for s in first.values()) == pytest.approx(1.0, abs=1e-4)


def test_only_call_holds_the_step_to_the_chosen_tool(qwen: LocalModel) -> None:
    request = _request("Look up the weather in Lisbon")
    cancel = threading.Event()
    for name in ("send_email", "add_notes"):
        result = qwen.step(
            StepRequest(**{**request.__dict__, "only_call": name}), lambda _e: None, cancel
        )
        assert [call.name for call in result.calls] == [name]


def test_cancelled_scoring_says_so(qwen: LocalModel) -> None:
    cancel = threading.Event()
    cancel.set()
    assert qwen.score_calls(_request("Look up the weather"), NAMES, cancel) is None
