"""Re-use of evaluated prompt tokens between model calls.

A transformer's KV cache can be cut back to any common prefix. A hybrid (recurrent +
attention) model such as Qwen3.5 cannot: its recurrent state only moves forward, so any
divergence from the cached tokens would cost a full re-prefill. For those we keep a few
checkpoints (llama.cpp sequence states) at stable points of the prompt: after the system
prompt and tool block, and after each user message, and restore the longest one that is a
prefix of the new prompt.

The first stable point, the end of the system prompt and tool block, is shared by every
conversation: it is checkpointed on every model (a turn can switch between prompts, such as
the intents' and the tool loop's), and with a `PrefixStore` also kept on disk for the next
process.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from app.llm.prefix_store import PrefixStore

log = logging.getLogger(__name__)

MAX_CHECKPOINTS = 4
# A shared prefix shorter than this is not kept (but the one warmed ahead of every request):
# computing it again costs less than the room it would take from a long one (a narrow
# question's two-line system prompt beside the intents' worked examples, thousands of tokens).
_WORTH_KEEPING = 128
# Tokens a restored checkpoint must save over what the cache already shares: below this,
# computing them is about as quick as copying a whole state back.
_WORTH_RESTORING = 32


@dataclass
class Checkpoint:
    tokens: tuple[int, ...]
    state: bytes


class PromptCache:
    """Brings a llama context to a given token prefix as cheaply as possible."""

    def __init__(self, llama: Any, store: PrefixStore | None = None, identity: str = "") -> None:
        """`store` keeps the shared prefix on disk under `identity`: what makes this
        context's numbers what they are (model file, llama.cpp and its CPU code, settings)."""
        self.llama = llama
        self.store = store
        self.identity = identity
        self.checkpoints: list[Checkpoint] = []
        self.needs_checkpoints = bool(
            getattr(llama, "_is_hybrid", False) or getattr(llama, "_is_recurrent", False)
        )

    @property
    def cached(self) -> list[int]:
        return [int(t) for t in self.llama.input_ids[: self.llama.n_tokens]]

    def evaluate(
        self, tokens: Sequence[int], cancel: threading.Event, boundaries: Sequence[int] = ()
    ) -> int | None:
        """Evaluate `tokens`, reusing what is cached. Returns how many tokens had to be
        computed, or None if cancelled part-way (the context then holds a valid prefix).
        `boundaries` are stable points worth a checkpoint; the first one ends the prefix
        every conversation shares, the one a store keeps on disk.

        The prompt goes to llama.cpp in whole batches (small chunks would compute the output
        layer, 150k entries wide on Qwen, once per chunk); Stop still ends it at once, through
        llama.cpp's abort callback, checked between the graph's operations."""
        tokens = list(tokens)
        start = self._reuse(tokens)
        shared = boundaries[0] if boundaries else 0
        if start < shared < len(tokens):
            restored = self._restore_stored(tokens[:shared])
            # A state llama.cpp refused leaves the context empty: start from what it holds.
            start = shared if restored else min(start, self.llama.n_tokens)
        marks = [*sorted({b for b in boundaries if start < b < len(tokens)}), len(tokens)]
        position = start
        with _abortable(self.llama, cancel):
            for mark in marks:
                if cancel.is_set():
                    return None
                try:
                    self.llama.eval(tokens[position:mark])
                except RuntimeError:
                    if not cancel.is_set():
                        raise
                    self._after_abort()
                    return None
                position = mark
                if mark < len(tokens) and (self.needs_checkpoints or mark == shared):
                    self._save(tokens[:mark], keep=mark == shared)
        return len(tokens) - start

    def warm(self, tokens: Sequence[int], cancel: threading.Event) -> int | None:
        """Evaluate a prefix every later prompt starts with (system prompt and tool block)
        ahead of time, and checkpoint its end on hybrid models. Returns the tokens computed,
        or None if cancelled."""
        tokens = list(tokens)
        if common_prefix(self.cached, tokens) < len(tokens) and self._restore_stored(tokens):
            return 0
        computed = self.evaluate(tokens, cancel)
        if computed is not None and computed:
            self._save(tokens, keep=True, warmed=True)
        return computed

    def append(self, tokens: Sequence[int]) -> None:
        """Evaluate tokens that continue the current context (a generated or forced token)."""
        self.llama.eval(list(tokens))

    def choice_logprobs(
        self, options: Sequence[Sequence[int]], cancel: threading.Event
    ) -> list[float] | None:
        """The log-probability of each option (token sequences continuing what the context
        holds, none a prefix of another) when only these options may follow: at each point
        where they part, the model's probabilities are renormalised over the tokens that
        continue one of them, as a grammar allowing just these would. Only those points cost
        a model evaluation (one short branch each, cut off again); the context ends as it
        began. The last evaluated token's logits must be fresh, as after `evaluate`. None if
        cancelled."""
        llama = self.llama
        base = llama.n_tokens
        saved = Checkpoint(tuple(self.cached), self._state()) if self.needs_checkpoints else None
        paths = [tuple(int(t) for t in option) for option in options]
        scores = [0.0] * len(paths)
        parted: dict[tuple[int, ...], set[int]] = {}  # prefix -> the tokens that follow it
        for path in paths:
            for depth in range(len(path)):
                parted.setdefault(path[:depth], set()).add(path[depth])
        for prefix, following in parted.items():
            if len(following) < 2:
                continue  # every option through here goes on the same way: no choice made
            if cancel.is_set():
                return None
            if prefix:
                llama.eval(list(prefix))
            logprobs = _logprobs(llama, -1, sorted(following))
            if prefix:
                if saved is not None:
                    self._restore(saved)
                elif not self._truncate(base):
                    raise RuntimeError("llama.cpp could not cut a scored branch off")
            for index, path in enumerate(paths):
                if path[: len(prefix)] == prefix and len(path) > len(prefix):
                    scores[index] += logprobs[path[len(prefix)]]
        return scores

    def _reuse(self, tokens: list[int]) -> int:
        cached = self.cached
        common = common_prefix(cached, tokens)
        checkpoint = self._best_checkpoint(tokens)
        if checkpoint is not None:
            self._used(checkpoint)  # needed by this prompt, restored or already in place
        if common == len(tokens):
            common -= 1  # re-evaluate the last token so that fresh logits exist for sampling
        if common == len(cached):
            return common  # append-only: nothing to undo
        if checkpoint is not None and len(checkpoint.tokens) > common + _WORTH_RESTORING:
            # Another prompt's prefix (the intents' after the loop's): copying its state back
            # beats computing it again.
            self._restore(checkpoint)
            return len(checkpoint.tokens)
        if not self.needs_checkpoints and common > 0 and self._truncate(common):
            return common
        if checkpoint is not None and len(checkpoint.tokens) > 0:
            self._restore(checkpoint)
            return len(checkpoint.tokens)
        self.llama.reset()
        self._clear_memory()
        return 0

    def _after_abort(self) -> None:
        """The batch being computed was dropped. A transformer's cache keeps the batches
        before it (llama-cpp-python counted them); a recurrent state cannot be rolled back,
        so a hybrid model starts over from its checkpoints."""
        if self.needs_checkpoints:
            self.llama.reset()
            self._clear_memory()

    def _truncate(self, keep: int) -> bool:
        if self.llama._ctx.kv_cache_seq_rm(-1, keep, -1):
            self.llama.n_tokens = keep
            return True
        return False

    def _best_checkpoint(self, tokens: list[int]) -> Checkpoint | None:
        best: Checkpoint | None = None
        for checkpoint in self.checkpoints:
            size = len(checkpoint.tokens)
            fits = size < len(tokens) and tuple(tokens[:size]) == checkpoint.tokens
            if fits and (best is None or size > len(best.tokens)):
                best = checkpoint
        return best

    def _restore_stored(self, tokens: list[int]) -> bool:
        """Bring the context to `tokens` from the store, if it has them."""
        if self.store is None:
            return False
        state = self.store.load(self.identity, tokens)
        if state is None:
            return False
        checkpoint = Checkpoint(tuple(tokens), state)
        try:
            self._restore(checkpoint)
        except RuntimeError:
            log.warning("llama.cpp refused a stored prompt prefix; computing it")
            self.store.discard(self.identity, tokens)
            self.llama.reset()
            self._clear_memory()
            return False
        if self.needs_checkpoints:
            self._remember(checkpoint)
        return True

    def _save(self, tokens: list[int], keep: bool = False, warmed: bool = False) -> None:
        """Checkpoint the context (which holds exactly `tokens`) on a hybrid model; with
        `keep` (a prefix every conversation of one prompt shares) on any model, and in the
        store too: the app switches between prompts (the intents', the loop's, the chat's)
        and each comes back to its prefix."""
        key = tuple(tokens)
        if keep and not warmed and len(key) < _WORTH_KEEPING and not self.needs_checkpoints:
            return  # `warmed`: the prefix every request starts from, kept whatever its size
        store = self.store if keep else None
        remember = (self.needs_checkpoints or keep) and all(
            c.tokens != key for c in self.checkpoints
        )
        if not remember and store is None:
            return  # nothing to do: skip copying the state out of llama.cpp
        checkpoint = Checkpoint(key, self._state())
        if remember:
            self._remember(checkpoint)
        if store is not None:
            store.save(self.identity, tokens, checkpoint.state)

    def _state(self) -> bytes:
        import llama_cpp

        ctx = self.llama._ctx.ctx
        size = llama_cpp.llama_state_seq_get_size(ctx, 0)
        buffer = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(ctx, buffer, size, 0)
        return bytes(buffer[:written])

    def _remember(self, checkpoint: Checkpoint) -> None:
        if any(c.tokens == checkpoint.tokens for c in self.checkpoints):
            return
        self.checkpoints.append(checkpoint)
        if len(self.checkpoints) > MAX_CHECKPOINTS:
            # The one used longest ago goes (the list is kept in order of use): the prefix
            # every request starts from is used again before the few others a request adds.
            del self.checkpoints[0]

    def _used(self, checkpoint: Checkpoint) -> None:
        """Mark `checkpoint` as the one used last."""
        others = [c for c in self.checkpoints if c is not checkpoint]  # not by value: states
        if len(others) < len(self.checkpoints):  # are megabytes
            self.checkpoints = [*others, checkpoint]

    def _restore(self, checkpoint: Checkpoint) -> None:
        import llama_cpp

        self.llama.reset()
        self._clear_memory()
        data = (ctypes.c_uint8 * len(checkpoint.state)).from_buffer_copy(checkpoint.state)
        ctx = self.llama._ctx.ctx
        if llama_cpp.llama_state_seq_set_data(ctx, data, len(checkpoint.state), 0) == 0:
            raise RuntimeError("llama.cpp refused to restore a prompt checkpoint")
        count = len(checkpoint.tokens)
        self.llama.input_ids[:count] = checkpoint.tokens
        self.llama.n_tokens = count

    def _clear_memory(self) -> None:
        import llama_cpp

        memory = llama_cpp.llama_get_memory(self.llama._ctx.ctx)
        if memory is not None:
            llama_cpp.llama_memory_clear(memory, True)


def _logprobs(llama: Any, index: int, allowed: list[int]) -> dict[int, float]:
    """Log-softmax over `allowed` of the logits the last decode computed for its `index`-th
    output."""
    import llama_cpp
    import numpy as np

    pointer = llama_cpp.llama_get_logits_ith(llama._ctx.ctx, index)
    logits = np.ctypeslib.as_array(pointer, shape=(llama.n_vocab(),))[allowed].astype(np.float64)
    peak = logits.max()
    normal = logits - (peak + np.log(np.exp(logits - peak).sum()))
    return dict(zip(allowed, (float(x) for x in normal), strict=True))


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens `a` and `b` share (what a cache can keep)."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


@contextlib.contextmanager
def _abortable(llama: Any, cancel: threading.Event) -> Iterator[None]:
    """While inside, llama.cpp gives up the batch it is computing as soon as `cancel` is set
    (llama_decode then fails, and llama-cpp-python raises RuntimeError)."""
    import llama_cpp

    ctx = llama._ctx.ctx
    callback = llama_cpp.ggml_abort_callback(lambda _data: cancel.is_set())
    llama_cpp.llama_set_abort_callback(ctx, callback, None)
    try:
        yield
    finally:
        llama_cpp.llama_set_abort_callback(ctx, llama_cpp.ggml_abort_callback(), None)
