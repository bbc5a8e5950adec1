"""The in-process llama.cpp runtime: load a GGUF, evaluate prompts, stream tokens, cancel.

We drive llama-cpp-python's low-level pieces (eval, sampler) ourselves rather than its
`create_completion`: that way a prompt is evaluated in small chunks that can be cancelled,
the sampler can be switched (a grammar for tool calls) mid-generation, and we count exactly
which tokens were evaluated. Nothing here knows about Qt.
"""

from __future__ import annotations

import codecs
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.llm.chat_template import ChatTemplate
from app.llm.gguf_file import GGUFInfo, ModelFileError, read_gguf

log = logging.getLogger(__name__)

DEFAULT_CONTEXT = 8192


def default_threads() -> int:
    """All cores up to 8: llama.cpp decode speed stops growing with more on a laptop."""
    return max(1, min(8, os.cpu_count() or 2))


@dataclass
class RuntimeSettings:
    n_ctx: int = DEFAULT_CONTEXT
    n_threads: int = field(default_factory=default_threads)
    n_batch: int = 512
    seed: int = -1  # -1: a new random seed each load


@dataclass
class SamplingSettings:
    temperature: float = 0.7
    top_k: int = 40
    top_p: float = 0.9
    min_p: float = 0.05
    repeat_penalty: float = 1.1
    max_tokens: int = 1024


@dataclass
class GenerationStats:
    prompt_tokens: int = 0
    evaluated_prompt_tokens: int = 0  # prompt tokens that had to be computed (not cached)
    generated_tokens: int = 0
    prompt_seconds: float = 0.0
    generate_seconds: float = 0.0
    stop_reason: str = ""  # "end" | "cancelled" | "max_tokens" | "context_full" | "repetition"

    @property
    def tokens_per_second(self) -> float:
        if self.generate_seconds <= 0 or self.generated_tokens == 0:
            return 0.0
        return self.generated_tokens / self.generate_seconds


class GenerationError(Exception):
    """Generation failed in a way the user should hear about (not a bug in our code)."""


class LocalModel:
    """One GGUF model loaded in this process. Use it from one thread at a time."""

    def __init__(self, path: Path | str, settings: RuntimeSettings | None = None) -> None:
        self.path = Path(path)
        self.settings = settings or RuntimeSettings()
        self.info: GGUFInfo = read_gguf(self.path)  # raises ModelFileError with a clear message
        self._llama: Any = None
        self.template: ChatTemplate | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """The file's own name: what the user downloaded or chose, so they recognise it."""
        return self.path.stem

    @property
    def llama(self) -> Any:
        if self._llama is None:
            raise RuntimeError("the model is not loaded")
        return self._llama

    def load(self) -> None:
        """Load the weights (slow: call it from a worker thread)."""
        from llama_cpp import Llama  # imported here: importing llama_cpp loads the C library

        n_ctx = self.settings.n_ctx
        trained = self.info.context_length
        if trained:
            n_ctx = min(n_ctx, trained)
        try:
            self._llama = Llama(
                model_path=str(self.path),
                n_ctx=n_ctx,
                n_batch=self.settings.n_batch,
                n_threads=self.settings.n_threads,
                n_threads_batch=self.settings.n_threads,
                seed=self.settings.seed if self.settings.seed >= 0 else _random_seed(),
                verbose=False,
            )
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelFileError(
                self.path,
                f"llama.cpp could not load it ({exc}). The file may be damaged, or made for a "
                f"model type ('{self.info.architecture}') this version of llama.cpp does not know.",
                "Download the model again, or choose another model file.",
            ) from exc
        vocab = self._llama._model
        self.template = ChatTemplate.for_model(
            self.info.chat_template,
            bos_token=_token_text(vocab, vocab.token_bos()),
            eos_token=_token_text(vocab, vocab.token_eos()),
        )
        if self.template.is_fallback:
            log.warning("%s has no chat template: using the ChatML fallback", self.path.name)

    def close(self) -> None:
        if self._llama is not None:
            self._llama.close()
            self._llama = None

    # -- prompts -----------------------------------------------------------------------------

    def tokenize_prompt(self, prompt: str) -> list[int]:
        # A GGUF template writes its own BOS text when it wants one; the fallback does not.
        template = self.template
        add_bos = bool(template and template.is_fallback and self.llama._model.add_bos_token())
        return self.llama.tokenize(prompt.encode("utf-8"), add_bos=add_bos, special=True)

    def render(self, messages: list[dict[str, Any]], **options: Any) -> str:
        if self.template is None:
            raise RuntimeError("the model is not loaded")
        return self.template.render(messages, **options)

    # -- generation --------------------------------------------------------------------------

    def reply(
        self,
        messages: list[dict[str, Any]],
        on_text: Callable[[str], None],
        cancel: threading.Event,
        sampling: SamplingSettings,
    ) -> GenerationStats:
        """Render the conversation with the model's template and stream the answer."""
        stats = GenerationStats()
        tokens = self.tokenize_prompt(self.render(messages))
        for piece in self.generate(tokens, sampling, cancel, stats):
            on_text(piece)
        return stats

    def generate(
        self,
        prompt_tokens: Sequence[int],
        sampling: SamplingSettings | None = None,
        cancel: threading.Event | None = None,
        stats: GenerationStats | None = None,
    ) -> Iterator[str]:
        """Evaluate `prompt_tokens` and yield the reply as text pieces until the model stops.

        Fills `stats` as it goes (stop_reason at the end). Cancelling stops within one
        prompt chunk or one token.
        """
        sampling = sampling or SamplingSettings()
        cancel = cancel or threading.Event()
        stats = stats if stats is not None else GenerationStats()
        with self._lock:
            yield from self._generate(list(prompt_tokens), sampling, cancel, stats)

    def _generate(
        self,
        tokens: list[int],
        sampling: SamplingSettings,
        cancel: threading.Event,
        stats: GenerationStats,
    ) -> Iterator[str]:
        llama = self.llama
        n_ctx = llama.n_ctx()
        stats.prompt_tokens = len(tokens)
        if len(tokens) >= n_ctx:
            raise GenerationError(
                f"The conversation is too long for the model's memory ({len(tokens)} tokens, "
                f"the limit is {n_ctx}). Start a new conversation."
            )
        started = time.perf_counter()
        if not self._evaluate_prompt(tokens, cancel, stats):
            stats.prompt_seconds = time.perf_counter() - started
            stats.stop_reason = "cancelled"
            return
        stats.prompt_seconds = time.perf_counter() - started

        sampler = self._sampler(sampling)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        piece = _token_piece_function(llama)
        is_end = _end_of_generation_check(llama)
        started = time.perf_counter()
        try:
            while True:
                if cancel.is_set():
                    stats.stop_reason = "cancelled"
                    break
                if stats.generated_tokens >= sampling.max_tokens:
                    stats.stop_reason = "max_tokens"
                    break
                if llama.n_tokens >= n_ctx:
                    stats.stop_reason = "context_full"
                    break
                token = sampler.sample(llama._ctx, -1)
                if is_end(token):
                    stats.stop_reason = "end"
                    break
                stats.generated_tokens += 1
                text = decoder.decode(piece(token))
                llama.eval([token])
                if text:
                    yield text
            tail = decoder.decode(b"", final=True)
            if tail:
                yield tail
        finally:
            stats.generate_seconds = time.perf_counter() - started

    def _evaluate_prompt(
        self, tokens: list[int], cancel: threading.Event, stats: GenerationStats
    ) -> bool:
        """Bring the context to `tokens`, re-using what is cached when it is a prefix.

        Returns False if cancelled part-way (the context then holds a valid shorter prefix).
        """
        llama = self.llama
        cached = list(llama.input_ids[: llama.n_tokens])
        common = _common_prefix(cached, tokens)
        if common == len(tokens):
            common -= 1  # re-evaluate the last token so that fresh logits exist for sampling
        if common < len(cached) and not self._truncate(common):
            common = 0
        todo = tokens[common:]
        stats.evaluated_prompt_tokens = len(todo)
        chunk = 32
        index = 0
        while index < len(todo):
            if cancel.is_set():
                return False
            piece = todo[index : index + chunk]
            began = time.perf_counter()
            llama.eval(piece)
            index += len(piece)
            # Grow chunks while they stay well under the 200 ms cancel promise.
            if time.perf_counter() - began < 0.05:
                chunk = min(chunk * 2, self.settings.n_batch)
        return True

    def _truncate(self, keep: int) -> bool:
        """Drop cached tokens after `keep`. Recurrent/hybrid models cannot: then start over."""
        llama = self.llama
        if keep > 0 and llama._ctx.kv_cache_seq_rm(-1, keep, -1):
            llama.n_tokens = keep
            return True
        llama.reset()
        return False

    def _sampler(self, sampling: SamplingSettings, grammar: Any = None) -> Any:
        return self.llama._init_sampler(
            top_k=sampling.top_k,
            top_p=sampling.top_p,
            min_p=sampling.min_p,
            temp=sampling.temperature,
            repeat_penalty=sampling.repeat_penalty,
            grammar=grammar,
        )


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def _end_of_generation_check(llama: Any) -> Callable[[int], bool]:
    import llama_cpp

    vocab = llama_cpp.llama_model_get_vocab(llama.model)
    return lambda token: bool(llama_cpp.llama_vocab_is_eog(vocab, token))


def _token_piece_function(llama: Any) -> Callable[[int], bytes]:
    """The bytes of one token as text (control tokens give b"")."""
    import ctypes

    import llama_cpp

    vocab = llama_cpp.llama_model_get_vocab(llama.model)
    buffer = ctypes.create_string_buffer(64)

    def piece(token: int) -> bytes:
        nonlocal buffer
        n = llama_cpp.llama_token_to_piece(vocab, token, buffer, len(buffer), 0, False)
        if n < 0:  # the buffer was too small: -n is the size needed
            buffer = ctypes.create_string_buffer(-n)
            n = llama_cpp.llama_token_to_piece(vocab, token, buffer, len(buffer), 0, False)
        return buffer.raw[:n]

    return piece


def _token_text(vocab: Any, token: int) -> str:
    if token < 0:
        return ""
    return vocab.token_get_text(token)


def _random_seed() -> int:
    return int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
