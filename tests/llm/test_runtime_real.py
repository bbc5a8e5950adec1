"""The real SmolLM2 model through llama.cpp: streaming, cancel, a second message, limits."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from app.agent.tools.registry import Registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.backend import StepRequest
from app.llm.runtime import GenerationError, GenerationStats, LocalModel, SamplingSettings

pytestmark = pytest.mark.real_model

LONG = SamplingSettings(max_tokens=400, temperature=0.8)


def _prompt(model: LocalModel, text: str) -> list[int]:
    messages = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": text},
    ]
    return model.tokenize_prompt(model.render(messages))


def test_reply_streams_in_pieces(smollm2: LocalModel) -> None:
    stats = GenerationStats()
    pieces = list(smollm2.generate(_prompt(smollm2, "Name three colours."), LONG, None, stats))
    assert len(pieces) > 3
    assert "".join(pieces).strip()
    assert stats.generated_tokens >= len(pieces) - 1
    assert stats.stop_reason in {"end", "max_tokens"}
    assert stats.tokens_per_second > 0


def test_cancel_mid_reply_stops_quickly(smollm2: LocalModel) -> None:
    cancel = threading.Event()
    stats = GenerationStats()
    pieces: list[str] = []
    cancelled_at = 0.0
    prompt = _prompt(smollm2, "Write a long story about a lighthouse keeper.")
    for piece in smollm2.generate(prompt, SamplingSettings(max_tokens=2000), cancel, stats):
        pieces.append(piece)
        if len(pieces) == 10:
            cancelled_at = time.perf_counter()
            cancel.set()
    stopped_after = time.perf_counter() - cancelled_at
    assert stats.stop_reason == "cancelled"
    assert len(pieces) == 10  # nothing more was produced once cancelled
    assert stopped_after < 0.2


def test_cancel_during_prompt_evaluation(smollm2: LocalModel) -> None:
    cancel = threading.Event()
    cancel.set()
    stats = GenerationStats()
    pieces = list(smollm2.generate(_prompt(smollm2, "word " * 600), LONG, cancel, stats))
    assert pieces == []
    assert stats.stop_reason == "cancelled"


def test_stop_in_the_middle_of_a_long_prompt_is_immediate(smollm2: LocalModel) -> None:
    """The prompt goes in whole batches, and Stop still ends its evaluation at once (llama.cpp's
    abort callback); the model answers correctly afterwards."""
    greedy = SamplingSettings(max_tokens=8, temperature=0.0)
    short = _prompt(smollm2, "Name a colour.")
    smollm2.llama.reset()
    expected = list(smollm2.generate(short, greedy))
    cancel = threading.Event()
    stopped_at = 0.0

    def stop() -> None:
        nonlocal stopped_at
        stopped_at = time.perf_counter()
        cancel.set()

    stats = GenerationStats()
    long_prompt = _prompt(smollm2, "tulip " * 950)  # several batches of 512
    timer = threading.Timer(0.3, stop)
    timer.start()
    pieces = list(smollm2.generate(long_prompt, LONG, cancel, stats))
    timer.join()
    assert stats.stop_reason == "cancelled" and pieces == []
    assert stats.prompt_seconds > 0.25  # it really was stopped in the middle
    assert time.perf_counter() - stopped_at < 0.2
    assert 0 < smollm2.llama.n_tokens < len(long_prompt)  # the batches before it are kept
    assert list(smollm2.generate(short, greedy)) == expected


def test_second_message_reuses_the_cached_prefix(smollm2: LocalModel) -> None:
    conversation = Conversation()
    agent = Agent(smollm2, Registry(), sampling=SamplingSettings(max_tokens=40))
    first = agent.run_turn(conversation, "What is the capital of France?")
    second = agent.run_turn(conversation, "And of Italy?")
    assert first.answer and second.answer
    assert [m.role for m in conversation.messages] == ["user", "assistant", "user", "assistant"]
    # The second prompt starts with the first turn, so most of it comes from the cache.
    assert second.stats.evaluated_prompt_tokens < second.stats.prompt_tokens / 2


def test_max_tokens_is_a_hard_limit(smollm2: LocalModel) -> None:
    stats = GenerationStats()
    list(
        smollm2.generate(
            _prompt(smollm2, "Count to one hundred."), SamplingSettings(max_tokens=5), None, stats
        )
    )
    assert stats.generated_tokens == 5
    assert stats.stop_reason == "max_tokens"


def test_prompt_longer_than_the_context_is_refused_clearly(smollm2: LocalModel) -> None:
    with pytest.raises(GenerationError, match="too long"):
        list(smollm2.generate(_prompt(smollm2, "word " * 3000)))


def _a_turn_with_a_long_result(request: str, words: int) -> list[dict[str, Any]]:
    call = {"id": "c1", "type": "function",
            "function": {"name": "list_events", "arguments": "{}"}}  # fmt: skip
    return [
        {"role": "user", "content": request},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "name": "list_events", "content": "event " * words},
    ]


def test_an_earlier_turns_long_result_is_left_out_rather_than_the_next_turn_refused(
    smollm2: LocalModel,
) -> None:
    """A calendar listed in the first turn filled the model's memory: the second turn is
    answered without it (the first turn's answer stays), not refused."""
    n_ctx = smollm2.llama.n_ctx()
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are helpful."},
        *_a_turn_with_a_long_result("What's on this summer?", n_ctx),
        {"role": "assistant", "content": "You have a hike on Saturday."},
        {"role": "user", "content": "Thanks! How many legs does a spider have?"},
    ]
    request = StepRequest(messages=messages, sampling=SamplingSettings(max_tokens=8),
                          tool_choice="none")  # fmt: skip
    result = smollm2.step(request, lambda _event: None, threading.Event())
    assert 0 < result.stats.prompt_tokens < n_ctx // 2
    assert result.stats.stop_reason in {"end", "max_tokens"}
    # The latest turn's own result is never left out: too long, the turn is refused clearly.
    messages = [messages[0], *_a_turn_with_a_long_result("What's on this summer?", n_ctx)]
    with pytest.raises(GenerationError, match="too long"):
        smollm2.step(StepRequest(messages=messages), lambda _event: None, threading.Event())
