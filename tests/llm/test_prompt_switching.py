"""A transformer model that switches between two prompts (the intents' and the tool loop's)
gets each one's shared prefix back from a checkpoint instead of computing it again, with the
same numbers as a fresh evaluation (issue #35's latency goal). SmolLM2 is a plain transformer."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from app.llm.kv_cache import PromptCache, common_prefix
from app.llm.runtime import LocalModel

pytestmark = pytest.mark.real_model


def _last_logits(llama: Any) -> np.ndarray:
    """A copy: llama.cpp's buffer is overwritten by the next decode (and `Llama.scores` is
    not filled unless every position's logits are kept)."""
    return np.ctypeslib.as_array(llama._ctx.get_logits(), shape=(llama.n_vocab(),)).copy()


def _tokens(model: LocalModel, system: str, user: str) -> tuple[list[int], int]:
    prefix = model.tokenize_prompt(f"<|im_start|>system\n{system}<|im_end|>\n")
    whole = model.tokenize_prompt(
        f"<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n"
        "<|im_start|>assistant\n"
    )
    assert whole[: len(prefix)] == prefix
    return whole, len(prefix)


def test_switching_prompts_restores_each_shared_prefix(smollm2: LocalModel) -> None:
    cancel = threading.Event()
    intents = "Sort the message into one of these kinds. " * 24
    loop = "You are a helpful assistant with tools for calendars and mail. " * 24
    a, a_shared = _tokens(smollm2, intents, "What's on tomorrow?")
    b, b_shared = _tokens(smollm2, loop, "Hello there")
    a2, _ = _tokens(smollm2, intents, "Cancel the dentist")
    assert a_shared > 128 and b_shared > 128
    with smollm2._lock:
        cache = PromptCache(smollm2.llama)
        assert not cache.needs_checkpoints  # a transformer: no checkpoints but the shared ones
        cache.llama.reset()
        assert cache.evaluate(a, cancel, [a_shared]) == len(a)
        # The second prompt shares only the template's first tokens with the first one.
        assert cache.evaluate(b, cancel, [b_shared]) == len(b) - common_prefix(a, b)
        # Back to the first prompt: only what follows its shared prefix is computed.
        computed = cache.evaluate(a2, cancel, [a_shared])
        assert computed == len(a2) - a_shared
        switched = _last_logits(cache.llama)
        cache.llama.reset()
        cache.checkpoints.clear()
        assert cache.evaluate(a2, cancel, [a_shared]) == len(a2)
        fresh = _last_logits(cache.llama)
    assert np.abs(fresh).max() > 0  # real logits, not an unused buffer
    assert np.allclose(switched, fresh, rtol=1e-4, atol=1e-4)


def test_the_prefix_used_again_outlives_the_others_and_short_ones_are_not_kept(
    smollm2: LocalModel,
) -> None:
    """Each request starts from the intents' prefix, then adds a few prompts of its own (a
    slot's, a narrow question's): the prefix used last is kept, the one used longest ago goes,
    and a two-line system prompt takes no room at all."""
    cancel = threading.Event()
    recognise, shared = _tokens(smollm2, "Pick the kind of the message. " * 40, "Hi")
    others = [_tokens(smollm2, f"Fill the slots of intent {n}. " * 20, "Hi") for n in range(4)]
    short, short_shared = _tokens(smollm2, "Answer from the text.", "Hi")
    again, _ = _tokens(smollm2, "Pick the kind of the message. " * 40, "Cancel the dentist")
    assert short_shared < 64 and 128 < min(s for _, s in others) < shared
    with smollm2._lock:
        cache = PromptCache(smollm2.llama)
        cache.llama.reset()
        cache.evaluate(recognise, cancel, [shared])
        for tokens, boundary in others[:3]:
            cache.evaluate(tokens, cancel, [boundary])
        cache.evaluate(short, cancel, [short_shared])
        assert len(cache.checkpoints) == 4  # the short one was not kept
        # The next request: the intents' prefix restored (not computed again), used last.
        assert cache.evaluate(recognise, cancel, [shared]) == len(recognise) - shared
        cache.evaluate(*others[3][:1], cancel, [others[3][1]])  # one more: a slot's prompt
        assert len(cache.checkpoints) == 4
        # The intents' prefix, first made but used since, stays; the oldest unused one went.
        assert cache.evaluate(again, cancel, [shared]) == len(again) - shared
        kept = {c.tokens for c in cache.checkpoints}
        assert tuple(others[0][0][: others[0][1]]) not in kept
        assert tuple(recognise[:shared]) in kept
