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
    intents = "Sort the message into one of these kinds. " * 12
    loop = "You are a helpful assistant with tools for calendars and mail. " * 12
    a, a_shared = _tokens(smollm2, intents, "What's on tomorrow?")
    b, b_shared = _tokens(smollm2, loop, "Hello there")
    a2, _ = _tokens(smollm2, intents, "Cancel the dentist")
    assert a_shared > 64 and b_shared > 64
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
