"""Sampling under a grammar, cheaply.

llama-cpp-python puts the grammar at the front of its sampler chain, so every token of a
tool call checks the whole vocabulary (49k to 250k entries) against the grammar. Like
llama.cpp's own server we sample the ordinary way first and ask the grammar about that one
token; only when the grammar refuses it do we apply the grammar to the whole vocabulary and
sample again. The result is the same distribution restricted to what the grammar allows.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any

import numpy as np


class ConstrainedSampler:
    """A drop-in for llama-cpp-python's sampler object (`sample(ctx, idx)`) under a grammar."""

    def __init__(self, llama: Any, grammar_text: str, free_chain: Any, rest_chain: Any) -> None:
        import llama_cpp

        self._llama_cpp = llama_cpp
        self.llama = llama
        vocab = llama_cpp.llama_model_get_vocab(llama.model)
        self.grammar = llama_cpp.llama_sampler_init_grammar(
            vocab, grammar_text.encode("utf-8"), b"root"
        )
        if not self.grammar:
            raise ValueError("llama.cpp rejected the grammar")
        self.free_chain = free_chain  # penalties + top-k ... + dist, no grammar
        self.rest_chain = rest_chain  # the same without penalties, for the slow path
        self.n_vocab = llama.n_vocab()
        self._one_data = (llama_cpp.llama_token_data * 1)()
        self._one = llama_cpp.llama_token_data_array(
            data=self._one_data, size=1, selected=-1, sorted=False
        )
        from llama_cpp._internals import LlamaTokenDataArray

        self._all = LlamaTokenDataArray(n_vocab=self.n_vocab)
        self.fast_hits = 0
        self.slow_hits = 0

    def sample(self, ctx: Any, idx: int = -1) -> int:
        llama_cpp = self._llama_cpp
        token = self.free_chain.sample(ctx, idx)
        self._one_data[0].id = token
        self._one_data[0].logit = 0.0
        self._one_data[0].p = 0.0
        self._one.size = 1
        self._one.selected = -1
        self._one.sorted = False
        llama_cpp.llama_sampler_apply(self.grammar, ctypes.byref(self._one))
        if not math.isinf(self._one_data[0].logit):
            self.fast_hits += 1
            llama_cpp.llama_sampler_accept(self.grammar, token)
            return int(token)
        self.slow_hits += 1
        pointer = llama_cpp.llama_get_logits_ith(ctx.ctx, idx)
        logits = np.ctypeslib.as_array(pointer, shape=(self.n_vocab,))
        self._all.copy_logits(logits)
        candidates = ctypes.byref(self._all.candidates)
        llama_cpp.llama_sampler_apply(self.grammar, candidates)
        llama_cpp.llama_sampler_apply(self.rest_chain.sampler, candidates)
        token = int(self._all.candidates_data.id[self._all.candidates.selected])
        llama_cpp.llama_sampler_accept(self.grammar, token)
        return token

    def close(self) -> None:
        if self.grammar:
            self._llama_cpp.llama_sampler_free(self.grammar)
            self.grammar = None

    def __del__(self) -> None:
        self.close()
