"""Scoring whole replies on the real model: the numbers are log-probabilities of exclusive
choices that add up to one, scoring leaves the model's context as it found it (a transformer
and a hybrid model), worked examples given as turns are kept as the shared prefix, and
`only_call` holds a step to the one tool chosen (the intents choose by score, then fill only
that intent's slots).

No test asserts which reply wins: logits differ between CPUs. What holds on every CPU is."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from app.llm.backend import SamplingSettings, ScoresReplies, StepRequest
from app.llm.embedded import ensure_tool_model
from app.llm.kv_cache import PromptCache
from app.llm.runtime import LocalModel, RuntimeSettings
from app.llm.tools import ToolSpec

pytestmark = pytest.mark.real_model

# "note" and "notes" part only at the end of the turn: the choice must tell them apart.
REPLIES = ["note", "notes", "search_web", "send_email"]
EXAMPLES = [("Write down: milk", "note"), ("Look up trains to Lyon", "search_web")]
GREEDY = SamplingSettings(temperature=0.0, top_k=1, max_tokens=60)


@pytest.fixture(scope="module")
def qwen() -> Iterator[LocalModel]:
    model = LocalModel(ensure_tool_model(verify=False), RuntimeSettings(n_ctx=2048, seed=3))
    model.load()
    yield model
    model.close()


def _request(text: str) -> StepRequest:
    messages: list[dict[str, str]] = [
        {"role": "system", "content": "Answer with the kind of request alone."}
    ]
    for example, name in EXAMPLES:
        messages += [{"role": "user", "content": example}, {"role": "assistant", "content": name}]
    return StepRequest(
        messages=[*messages, {"role": "user", "content": text}],
        sampling=GREEDY,
        shared_messages=len(messages),
    )


def test_the_local_model_offers_scores(qwen: LocalModel) -> None:
    assert isinstance(qwen, ScoresReplies)


@pytest.mark.parametrize("text", ["Look up the weather in Lisbon", "Merci !", "N/A"])
def test_scores_are_log_probabilities_of_exclusive_choices(qwen: LocalModel, text: str) -> None:
    scores = qwen.score_replies(_request(text), REPLIES, threading.Event())
    assert scores is not None and set(scores) == set(REPLIES)
    assert all(math.isfinite(s) and s <= 1e-6 for s in scores.values())
    assert sum(math.exp(s) for s in scores.values()) == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("which", ["qwen", "tiny_qwen35_model"])
def test_scoring_leaves_the_context_as_it_found_it(
    which: str, request: pytest.FixtureRequest
) -> None:
    """On a transformer each branch is cut off the cache; on a hybrid model (a recurrent
    state that only moves forward) the state is restored: either way the next branch, and
    the next step, start from the same place. (The same scores up to the drift of a prompt
    evaluated in other batches, which differs by CPU: 1.2% of an unlikely reply's
    log-probability, -8.68 against -8.79, with the AVX2 ("haswell") backend; a branch left in
    the context moves them by far more, and changes their order.)"""
    model: LocalModel = request.getfixturevalue(which)
    step = _request("Send Ana an email saying I'm late")
    cancel = threading.Event()
    first = model.score_replies(step, REPLIES, cancel)
    assert model.cache is not None
    held = model.cache.cached
    again = model.score_replies(step, list(reversed(REPLIES)), cancel)
    assert model.cache.cached == held  # every branch was cut off again
    assert first is not None and again is not None
    for name in REPLIES:
        assert again[name] == pytest.approx(first[name], rel=0.05, abs=0.02)
    assert sorted(REPLIES, key=again.__getitem__) == sorted(REPLIES, key=first.__getitem__)
    assert sum(math.exp(s) for s in first.values()) == pytest.approx(1.0, abs=1e-4)


def _counting(cache: PromptCache, monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The tokens each later `evaluate` of `cache` computes, in order."""
    computed: list[int | None] = []
    evaluate = cache.evaluate

    def counted(*args: Any, **kw: Any) -> int | None:
        computed.append(evaluate(*args, **kw))
        return computed[-1]

    monkeypatch.setattr(cache, "evaluate", counted)
    return computed


def test_worked_examples_are_evaluated_once(
    qwen: LocalModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    cancel = threading.Event()
    assert qwen.warm(_request("…"), cancel) is not None
    cache = qwen.cache
    assert cache is not None
    computed = _counting(cache, monkeypatch)
    # Another prompt in between (as the slot step's is), then the next message: the examples
    # come back from their checkpoint and only the new message is read.
    qwen.step(StepRequest(messages=[{"role": "user", "content": "Hi"}], sampling=GREEDY),
              lambda _e: None, cancel)  # fmt: skip
    qwen.score_replies(_request("Merci !"), REPLIES, cancel)
    prompt, boundaries = qwen.build_prompt(_request("Merci !"))
    # The shared prefix ends where the message's turn begins: the examples are inside it.
    assert 0 < len(qwen.tokenize_prompt(prompt)) - boundaries[0] < 15
    assert computed[-1] is not None and 0 < computed[-1] < 20


def test_a_prompt_asked_once_keeps_nothing(
    qwen: LocalModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A close choice asked again among a few intents (`shared_messages=0`): scored like any
    other, no checkpoint of it is kept, and the shared examples come back after it."""
    cancel = threading.Event()
    assert qwen.warm(_request("…"), cancel) is not None
    cache = qwen.cache
    assert cache is not None
    kept = [c.tokens for c in cache.checkpoints]
    once = StepRequest(
        messages=[{"role": "system", "content": "Answer with one word."},
                  {"role": "user", "content": "Write down: eggs"}],
        sampling=GREEDY,
        shared_messages=0,
    )  # fmt: skip
    assert qwen.build_prompt(once)[1] == [0]
    scores = qwen.score_replies(once, REPLIES, cancel)
    assert scores is not None
    assert sum(math.exp(s) for s in scores.values()) == pytest.approx(1.0, abs=1e-4)
    assert [c.tokens for c in cache.checkpoints] == kept
    computed = _counting(cache, monkeypatch)
    qwen.score_replies(_request("Danke!"), REPLIES, cancel)
    assert computed[-1] is not None and 0 < computed[-1] < 20


def test_only_call_holds_the_step_to_the_chosen_tool(qwen: LocalModel) -> None:
    text = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    tools = [
        ToolSpec("add_note", "Write down a note the user dictates.", text),
        ToolSpec("search_web", "Look something up on the internet.", text),
        ToolSpec("send_email", "Send an email the user dictates.", text),
    ]
    request = StepRequest(
        messages=[{"role": "user", "content": "Look up the weather in Lisbon"}],
        tools=tools,
        sampling=GREEDY,
        tool_choice="required",
    )
    for name in ("send_email", "add_note"):
        held = StepRequest(**{**request.__dict__, "only_call": name})
        result = qwen.step(held, lambda _e: None, threading.Event())
        assert [call.name for call in result.calls] == [name]


def test_cancelled_scoring_says_so(qwen: LocalModel) -> None:
    cancel = threading.Event()
    cancel.set()
    assert qwen.score_replies(_request("Look up the weather"), REPLIES, cancel) is None
