"""The in-process llama.cpp runtime: load a GGUF, render prompts, stream tokens, cancel, and
produce tool calls in the model's own wire format.

We drive llama-cpp-python's low-level pieces (eval, sampler) ourselves rather than its
`create_completion`: a prompt is evaluated in small chunks that can be cancelled, the sampler
switches to a grammar for the span of a tool call and back, reasoning gets a token budget,
and we count exactly which tokens were evaluated. Nothing here knows about Qt.
"""

from __future__ import annotations

import codecs
import ctypes
import dataclasses
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.llm.backend import (
    GenerationStats,
    SamplingSettings,
    StepRequest,
    StepResult,
    StreamEvent,
    without_earlier_results,
)
from app.llm.chat_template import ChatTemplate
from app.llm.constrained_sampler import ConstrainedSampler
from app.llm.formats import (
    CallSpans,
    CallStart,
    WireFormat,
    detect_format,
    grammar_compiles,
    runaway_problem,
)
from app.llm.gguf_file import GGUFInfo, ModelFileError, read_gguf
from app.llm.guards import RepetitionGuard
from app.llm.kv_cache import PromptCache, common_prefix
from app.llm.prefix_store import PrefixStore
from app.llm.special_tokens import neutralise_messages, special_token_pattern
from app.llm.tools import ToolSpec

log = logging.getLogger(__name__)

DEFAULT_CONTEXT = 8192
THINK_OPEN = "<think>"
RUNAWAY = ("repetition", "max_tokens")
MAX_STRING_CHARS = 4000  # strings without a maxLength: small models wander inside them


def default_threads() -> int:
    """All cores up to 8: llama.cpp decode speed stops growing with more on a laptop."""
    return max(1, min(8, os.cpu_count() or 2))


@dataclass
class RuntimeSettings:
    n_ctx: int = DEFAULT_CONTEXT
    n_threads: int = field(default_factory=default_threads)
    n_batch: int = 512
    seed: int = -1  # -1: a new random seed each load


class GenerationError(Exception):
    """Generation failed in a way the user should hear about (not a bug in our code)."""


class LocalModel:
    """One GGUF model loaded in this process. Use it from one thread at a time."""

    def __init__(
        self,
        path: Path | str,
        settings: RuntimeSettings | None = None,
        prefix_store: PrefixStore | None = None,
    ) -> None:
        """`prefix_store` keeps the evaluated system prompt and tool block on disk for the
        next process (the app and `ask` pass one; a speed measurement must not)."""
        self.path = Path(path)
        self.settings = settings or RuntimeSettings()
        self.prefix_store = prefix_store
        self.info: GGUFInfo = read_gguf(self.path)  # raises ModelFileError with a clear message
        self._llama: Any = None
        self.template: ChatTemplate | None = None
        self.wire_format: WireFormat = detect_format(self.info.chat_template)
        self.cache: PromptCache | None = None
        self._lock = threading.Lock()
        self._grammars: dict[tuple[tuple[str, ...], CallStart], str | None] = {}
        self._stable_prefix: dict[str, int] = {}
        self._special = special_token_pattern(())

    @property
    def intents(self) -> bool:
        """Whether the agent should put intents before its loop: only for a model trained to
        call functions (its template has a tool branch); choosing an intent is a call."""
        return self.wire_format.name != "json_fallback"

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
        from app.llm.cpu_backend import load_cpu_backend

        load_cpu_backend()  # before the first model: llama.cpp's CPU backend is a module
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
        self._special = special_token_pattern(self._special_texts())
        identity = self._state_identity() if self.prefix_store is not None else ""
        self.cache = PromptCache(self._llama, self.prefix_store, identity)

    def _state_identity(self) -> str:
        """Everything that changes an evaluated prompt's numbers: a stored prefix is used only
        by a context that would have computed exactly the same."""
        import llama_cpp

        stat = self.path.stat()
        params = self.llama.context_params
        fields = "n_ctx n_batch n_ubatch n_threads_batch type_k type_v flash_attn_type swa_full"
        return repr(
            (
                str(self.path.resolve()),
                stat.st_size,
                stat.st_mtime_ns,
                llama_cpp.__version__,
                llama_cpp.llama_print_system_info().decode("utf-8", "replace"),
                [(name, repr(getattr(params, name, None))) for name in fields.split()],
            )
        )

    def close(self) -> None:
        if self._llama is not None:
            self._llama.close()
            self._llama = None
            self.cache = None

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

    def build_prompt(self, request: StepRequest) -> tuple[str, list[int]]:
        """The prompt text for a step in this model's format, and the stable points (token
        counts) worth a checkpoint: after the system + tool block, after the last user turn."""
        tools = request.tools if request.tool_choice != "none" else []
        fmt = self.wire_format
        safe = neutralise_messages(request.messages, self._special)
        messages = fmt.prepare_messages(safe, tools)
        options: dict[str, Any] = {
            "tools": fmt.template_tools(tools),
            "enable_thinking": request.enable_thinking,
        }
        prompt = self.render(messages, **options)
        if not request.shared_messages:
            return prompt, [0]  # nothing worth a checkpoint
        boundaries = [self._system_prefix_length(messages[: request.shared_messages], options)]
        history = self.render(messages, add_generation_prompt=False, **options)
        if prompt.startswith(history) and len(history) < len(prompt):
            boundaries.append(len(self.tokenize_prompt(history)))
        return prompt, boundaries

    def _too_long(self, prompt_tokens: int, sampling: SamplingSettings) -> bool:
        """Whether a prompt of `prompt_tokens` leaves the model too little room to answer (a
        quarter of its memory, or the step's most tokens if fewer)."""
        n_ctx = self.llama.n_ctx()
        room = min(sampling.max_tokens, n_ctx // 4)
        return prompt_tokens > n_ctx - room

    def _system_prefix_length(self, messages: list[dict[str, Any]], options: dict[str, Any]) -> int:
        """Tokens shared by every conversation that starts with `messages` (the system prompt,
        perhaps worked examples after it) and this tool block."""
        system = messages if len(messages) > 1 else [m for m in messages if m["role"] == "system"]
        key = repr((system, options))
        if key not in self._stable_prefix:
            probes = [
                self.tokenize_prompt(
                    self.render([*system, {"role": "user", "content": text}], **options)
                )
                for text in ("A", "Z")
            ]
            self._stable_prefix[key] = common_prefix(*probes)
        return self._stable_prefix[key]

    # -- one step for the agent --------------------------------------------------------------

    def step(
        self,
        request: StepRequest,
        on_event: Callable[[StreamEvent], None],
        cancel: threading.Event,
    ) -> StepResult:
        """The model's answer to the conversation: streamed text and reasoning, parsed and
        validated tool calls in the model's native wire format."""
        tools = request.tools if request.tool_choice != "none" else []
        forced_open = bool(tools) and request.tool_choice == "required"
        # Tokenized once: the call's opening, when forced, is part of what must fit.
        opening = self.wire_format.call_open if forced_open else ""
        prompt, boundaries = self.build_prompt(request)
        tokens = self.tokenize_prompt(prompt + opening)
        if (
            self._too_long(len(tokens), request.sampling)
            and (shorter := without_earlier_results(request.messages)) != request.messages
        ):
            # earlier turns' tool results left out rather than the turn refused
            request = replace(request, messages=shorter)
            prompt, boundaries = self.build_prompt(request)
            tokens = self.tokenize_prompt(prompt + opening)
        in_reasoning = _ends_inside_reasoning(prompt)
        # The grammar may allow fewer tools than the prompt lists (`only_call`).
        allowed = [t for t in tools if request.only_call in (None, t.name)]
        spans = CallSpans(
            # Watched even when none may be called: such a call is refused, never shown.
            [t.name for t in request.tools],
            in_reasoning=in_reasoning,
            forced_open=forced_open,
            thinking_budget=request.sampling.thinking_budget,
        )
        result = StepResult()
        parser = self.wire_format.new_parser({t.name: t for t in tools}, in_reasoning=in_reasoning)
        if forced_open:
            result.collect(parser.feed(self.wire_format.call_open), on_event)

        def grammar_for(start: CallStart) -> str | None:
            return self._grammar(allowed, start) if request.constrain_calls and allowed else None

        for raw, canonical in self.stream(
            tokens,
            request.sampling,
            cancel,
            result.stats,
            spans,
            grammar_for,
            boundaries,
        ):
            result.raw += raw
            result.collect(parser.feed(canonical), on_event)
        result.collect(parser.finish(), on_event)
        if spans.in_call and result.stats.stop_reason in RUNAWAY:
            result.problems[-1:] = [runaway_problem(p) for p in result.problems[-1:]]
        return result

    def score_replies(
        self, request: StepRequest, replies: Sequence[str], cancel: threading.Event
    ) -> dict[str, float] | None:
        """How likely the model is to answer `request` with exactly each of `replies` (its
        whole turn, up to the template's end of turn), when only those may be written."""
        prompt, boundaries = self.build_prompt(request)
        texts = []
        for reply in replies:
            answered = replace(
                request, messages=[*request.messages, {"role": "assistant", "content": reply}]
            )
            whole = self.render(
                self.wire_format.prepare_messages(
                    neutralise_messages(answered.messages, self._special), []
                ),
                tools=None,
                enable_thinking=request.enable_thinking,
                add_generation_prompt=False,
            )
            texts.append(whole if whole.startswith(prompt) else prompt + reply)
        return self._score_options(replies, texts, boundaries, cancel)

    def _score_options(
        self,
        names: Sequence[str],
        texts: Sequence[str],
        boundaries: Sequence[int],
        cancel: threading.Event,
    ) -> dict[str, float] | None:
        """The log-probability of each text's ending after the prefix all share."""
        options = [self.tokenize_prompt(text) for text in texts]
        shared = min(len(option) for option in options) - 1
        for option in options[1:]:
            shared = min(shared, common_prefix(options[0], option))
        assert self.cache is not None
        with self._lock:
            if self.cache.evaluate(options[0][:shared], cancel, boundaries) is None:
                return None
            scores = self.cache.choice_logprobs([o[shared:] for o in options], cancel)
        return None if scores is None else dict(zip(names, scores, strict=True))

    def warm(self, request: StepRequest, cancel: threading.Event) -> int | None:
        """Evaluate the part of `request`'s prompt that every turn shares (system prompt and
        tool block) while the user is still typing, so the first reply starts sooner.
        Returns the tokens computed (0: already cached), or None if cancelled."""
        if not any(m.get("role") == "user" for m in request.messages):
            # Some templates refuse a prompt without a user turn; the shared prefix ends
            # before it anyway.
            request = replace(
                request, messages=[*request.messages, {"role": "user", "content": "…"}]
            )
        prompt, boundaries = self.build_prompt(request)
        prefix = self.tokenize_prompt(prompt)[: boundaries[0]]
        if not prefix:
            return 0
        assert self.cache is not None
        with self._lock:
            return self.cache.warm(prefix, cancel)

    def reply(
        self,
        messages: list[dict[str, Any]],
        on_text: Callable[[str], None],
        cancel: threading.Event,
        sampling: SamplingSettings,
    ) -> GenerationStats:
        """Plain chat without tools: stream the answer's text."""
        request = StepRequest(messages=messages, sampling=sampling)
        result = self.step(request, lambda e: on_text(e.text) if e.kind == "text" else None, cancel)
        return result.stats

    # -- generation --------------------------------------------------------------------------

    def generate(
        self,
        prompt_tokens: Sequence[int],
        sampling: SamplingSettings | None = None,
        cancel: threading.Event | None = None,
        stats: GenerationStats | None = None,
    ) -> Iterator[str]:
        """Evaluate `prompt_tokens` and yield the output as text pieces until the model stops
        (no tool calls watched for). Fills `stats` as it goes (stop_reason at the end).
        Cancelling stops within one prompt chunk or one token."""
        for raw, _ in self.stream(prompt_tokens, sampling, cancel, stats):
            yield raw

    def stream(
        self,
        prompt_tokens: Sequence[int],
        sampling: SamplingSettings | None = None,
        cancel: threading.Event | None = None,
        stats: GenerationStats | None = None,
        spans: CallSpans | None = None,
        grammar_for: Callable[[CallStart], str | None] = lambda start: None,
        boundaries: Sequence[int] = (),
    ) -> Iterator[tuple[str, str]]:
        """Like `generate`, with tool calls: yields (raw text, canonical text for the parser)
        per token. `spans` finds the calls; `grammar_for` gives each call's grammar."""
        sampling = sampling or SamplingSettings()
        cancel = cancel or threading.Event()
        stats = stats if stats is not None else GenerationStats()
        with self._lock:
            yield from self._generate(
                list(prompt_tokens),
                sampling,
                cancel,
                stats,
                spans or CallSpans(()),
                grammar_for,
                boundaries,
            )

    def _generate(
        self,
        tokens: list[int],
        sampling: SamplingSettings,
        cancel: threading.Event,
        stats: GenerationStats,
        spans: CallSpans,
        grammar_for: Callable[[CallStart], str | None],
        boundaries: Sequence[int],
    ) -> Iterator[tuple[str, str]]:
        llama = self.llama
        cache = self.cache
        assert cache is not None
        n_ctx = llama.n_ctx()
        stats.prompt_tokens = len(tokens)
        if len(tokens) >= n_ctx:
            raise GenerationError(
                f"The conversation is too long for the model's memory ({len(tokens)} tokens, "
                f"the limit is {n_ctx}). Start a new conversation."
            )
        started = time.perf_counter()
        evaluated = cache.evaluate(tokens, cancel, boundaries)
        stats.prompt_seconds = time.perf_counter() - started
        if evaluated is None:
            stats.stop_reason = "cancelled"
            return
        stats.evaluated_prompt_tokens = evaluated

        piece_of = _token_piece_function(llama)
        is_end = _end_of_generation_check(llama)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        free_sampler = self._sampler(sampling)
        sampler = free_sampler
        if spans.in_call:
            sampler = self._constrained(sampling, grammar_for(CallStart("tag")))
        guard = RepetitionGuard()
        started = time.perf_counter()
        try:
            while True:
                if cancel.is_set():
                    stats.stop_reason = "cancelled"
                    break
                if stats.generated_tokens >= sampling.max_tokens:
                    stats.stop_reason = "max_tokens"
                    break
                if llama.n_tokens >= n_ctx - 1:
                    stats.stop_reason = "context_full"
                    break
                token = sampler.sample(llama._ctx, -1)
                if is_end(token):
                    stats.stop_reason = "end"
                    break
                stats.generated_tokens += 1
                raw = decoder.decode(piece_of(token))
                step = spans.feed(raw)
                if step.stop:
                    stats.stop_reason = "end"
                    break
                to_eval = [token]
                if step.cut is not None and step.cut < len(raw):
                    # A call's constrained part starts inside this token: keep only up to
                    # there, so the grammar sees the call from its first character.
                    raw = raw[: step.cut]
                    to_eval = self._tokens(raw)
                if to_eval:
                    cache.append(to_eval)
                if step.inject:
                    cache.append(self._tokens(step.inject, special=True))
                    raw += step.inject
                if step.ended:
                    sampler = free_sampler
                if step.start is not None:
                    sampler = self._constrained(sampling, grammar_for(step.start))
                yield raw, step.text
                guard.add(token, raw)
                if guard.tripped():
                    stats.stop_reason = "repetition"
                    break
            final = decoder.decode(b"", final=True) + spans.finish()
            if final:
                yield final, final
        finally:
            stats.generate_seconds = time.perf_counter() - started

    def _tokens(self, text: str, special: bool = False) -> list[int]:
        if not text:
            return []
        return self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=special)

    def _grammar(self, tools: list[ToolSpec], start: CallStart) -> str | None:
        """The GBNF text for this call (cached), or None if llama.cpp rejects it."""
        key = (tuple(sorted(repr(t.to_openai()) for t in tools)), start)
        if key not in self._grammars:
            text = self.wire_format.span_grammar(tools, start, max_string_length=MAX_STRING_CHARS)
            # llama-cpp-python does not parse the grammar itself, and a grammar llama.cpp
            # rejects becomes a NULL sampler: check it, and fall back to unconstrained calls
            # (which are still parsed and validated) rather than crash.
            if text is None or grammar_compiles(self.llama, text):
                self._grammars[key] = text
            else:
                log.error("the tool-call grammar did not compile; calls are not constrained")
                self._grammars[key] = None
        return self._grammars[key]

    def _constrained(self, sampling: SamplingSettings, grammar: str | None) -> Any:
        if grammar is None:
            return self._sampler(sampling)
        no_penalty = dataclasses.replace(sampling, repeat_penalty=1.0)
        return ConstrainedSampler(
            self.llama, grammar, self._sampler(sampling), self._sampler(no_penalty)
        )

    def _sampler(self, sampling: SamplingSettings, grammar: Any = None) -> Any:
        return self.llama._init_sampler(
            top_k=sampling.top_k,
            top_p=sampling.top_p,
            min_p=sampling.min_p,
            temp=sampling.temperature,
            repeat_penalty=sampling.repeat_penalty,
            grammar=grammar,
        )

    def _special_texts(self) -> list[str]:
        """Texts of this vocabulary's control and user-defined tokens (`<|im_end|>`, ...)."""
        types = self.info.metadata.get("tokenizer.ggml.token_type")
        if not isinstance(types, list):
            return []
        vocab = self.llama._model
        return [
            vocab.token_get_text(index)
            for index, kind in enumerate(types)
            if kind in (3, 4)  # CONTROL, USER_DEFINED
        ]


def _ends_inside_reasoning(prompt: str) -> bool:
    tail = prompt.rstrip()
    return tail.endswith(THINK_OPEN)


def _end_of_generation_check(llama: Any) -> Callable[[int], bool]:
    import llama_cpp

    vocab = llama_cpp.llama_model_get_vocab(llama.model)
    return lambda token: bool(llama_cpp.llama_vocab_is_eog(vocab, token))


def _token_piece_function(llama: Any) -> Callable[[int], bytes]:
    """The bytes of one token as text (control tokens give b"")."""
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
