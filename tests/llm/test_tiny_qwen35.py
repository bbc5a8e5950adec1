"""The tiny qwen35 fixture is a real hybrid model for llama.cpp, made without any download.

These tests also pin the llama.cpp behaviour the runtime relies on for hybrid (recurrent +
attention) models: a prefix can be re-used only through a `save_state()` / `load_state()`
checkpoint, never by cutting the memory back, because recurrent state cannot be partly removed.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gguf
import jinja2.ext
import llama_cpp
import numpy as np
import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment
from llama_cpp.llama_chat_format import Jinja2ChatFormatter

from tests.support.tiny_qwen35 import (
    QWEN35_TEMPLATE_SHA256,
    TINY_QWEN35_CONFIG,
    TINY_QWEN35_CONTROL_TOKENS,
    TINY_QWEN35_EOS,
    TINY_QWEN35_LAYER_TYPES,
    TINY_QWEN35_USER_DEFINED_TOKENS,
    tiny_qwen35_path,
    tiny_qwen35_vocab,
    write_tiny_qwen35,
)

pytestmark = pytest.mark.real_model  # a tiny model, but llama.cpp's threads all the same

N_CTX = 2048

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the weather for a city. Städte wie München gehen auch.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "The city"}},
                "required": ["city"],
            },
        },
    }
]
SYSTEM = {"role": "system", "content": "You are a helpful assistant."}


@pytest.fixture(scope="module")
def tiny_qwen35(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_qwen35_path(tmp_path_factory)


def _load(path: Path) -> llama_cpp.Llama:
    return llama_cpp.Llama(model_path=str(path), n_ctx=N_CTX, n_threads=2, seed=1234, verbose=False)


@pytest.fixture
def llm(tiny_qwen35: Path) -> Iterator[llama_cpp.Llama]:
    """A fresh context per test: loading takes a few hundredths of a second."""
    model = _load(tiny_qwen35)
    yield model
    model.close()


def _template_env() -> ImmutableSandboxedEnvironment:
    """The Jinja set-up of llama-cpp-python's Jinja2ChatFormatter (and of Transformers)."""
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = Jinja2ChatFormatter.tojson
    return env


def _raise_exception(message: str) -> None:
    raise ValueError(message)


def _render(llm: llama_cpp.Llama, messages: list[dict[str, Any]], **extra: Any) -> str:
    template = llm.metadata["tokenizer.chat_template"]
    return (
        _template_env()
        .from_string(template)
        .render(
            messages=messages,
            tools=TOOLS,
            add_generation_prompt=True,
            raise_exception=_raise_exception,
            **extra,
        )
    )


def _tokens(llm: llama_cpp.Llama, text: str) -> list[int]:
    return llm.tokenize(text.encode("utf-8"), add_bos=False, special=True)


def _last_logits(llm: llama_cpp.Llama) -> np.ndarray:
    """A copy: the buffer behind get_logits() is overwritten by the next decode."""
    return np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),)).copy()


def _prompt_tokens_evaluated(llm: llama_cpp.Llama) -> int:
    """Prompt tokens decoded since the last reset (llama.cpp adds them up on synchronisation)."""
    llama_cpp.llama_synchronize(llm.ctx)
    return llama_cpp.llama_perf_context(llm.ctx).n_p_eval


def _evaluate(llm: llama_cpp.Llama, tokens: list[int]) -> None:
    """Evaluate a prompt the way the runtime does, through generate() and its prefix re-use."""
    llama_cpp.llama_perf_context_reset(llm.ctx)
    generator = llm.generate(tokens, temp=0.0)
    next(generator)  # decodes what is not cached, then samples one token (not yet evaluated)
    generator.close()
    assert llm.n_tokens == len(tokens)


def _generate(llm: llama_cpp.Llama, tokens: list[int], n: int, **kwargs: Any) -> list[int]:
    out: list[int] = []
    for token in llm.generate(tokens, **kwargs):
        if llama_cpp.llama_vocab_is_eog(llm._model.vocab, token):
            break
        out.append(token)
        if len(out) == n:
            break
    return out


def _two_prompts(llm: llama_cpp.Llama) -> tuple[list[int], list[int], int]:
    """Two tool-enabled prompts that share system + tools and differ in the user's question."""
    first = _tokens(llm, _render(llm, [SYSTEM, {"role": "user", "content": "Weather in Paris?"}]))
    second = _tokens(
        llm, _render(llm, [SYSTEM, {"role": "user", "content": "Is it sunny in Rome today?"}])
    )
    shared = 0
    while first[shared] == second[shared]:
        shared += 1
    assert len(first) - shared > 1 and len(second) - shared > 1  # suffixes are prompt batches
    return first, second, shared


# --- the file ----------------------------------------------------------------------------------


def test_written_fast_deterministic_and_shaped_for_qwen35(tmp_path: Path) -> None:
    tiny_qwen35_vocab()  # built once per process; the write itself is what must stay fast
    started = time.perf_counter()
    first = write_tiny_qwen35(tmp_path / "a.gguf", seed=3)
    elapsed = time.perf_counter() - started
    assert elapsed < 1.0
    again = write_tiny_qwen35(tmp_path / "b.gguf", seed=3)
    other = write_tiny_qwen35(tmp_path / "c.gguf", seed=4)
    assert first.read_bytes() == again.read_bytes()
    assert first.read_bytes() != other.read_bytes()
    assert first.stat().st_size < 3_000_000

    reader = gguf.GGUFReader(first)
    fields = reader.fields

    def value(key: str) -> Any:
        return fields[key].contents()

    assert value("general.architecture") == "qwen35"
    assert value("qwen35.block_count") == 4
    assert value("qwen35.embedding_length") == 128
    assert value("qwen35.full_attention_interval") == 2
    assert value("qwen35.rope.dimension_sections") == [3, 3, 2, 0]
    assert value("tokenizer.ggml.model") == "gpt2"
    assert value("tokenizer.ggml.pre") == "qwen35"
    assert value("tokenizer.ggml.add_bos_token") is False
    template = value("tokenizer.chat_template")
    assert hashlib.sha256(template.encode("utf-8")).hexdigest() == QWEN35_TEMPLATE_SHA256

    # Byte-level BPE: the 256 byte tokens come first, in GPT-2's byte-to-unicode form.
    tokens = value("tokenizer.ggml.tokens")
    assert tokens[:3] == ["!", '"', "#"] and "Ġ" in tokens[:256] and "Ċ" in tokens[:256]
    assert tokens[value("tokenizer.ggml.eos_token_id")] == TINY_QWEN35_EOS

    shapes = {t.name: [int(n) for n in t.shape] for t in reader.tensors}  # ggml order
    for block, kind in enumerate(TINY_QWEN35_LAYER_TYPES):
        assert (f"blk.{block}.ssm_a" in shapes) == (kind == "recurrent")
        assert (f"blk.{block}.attn_q.weight" in shapes) == (kind == "attention")
    c = TINY_QWEN35_CONFIG
    assert shapes["blk.0.attn_qkv.weight"] == [128, 2 * c.key_dim + c.value_dim]
    assert shapes["blk.0.ssm_conv1d.weight"] == [c.ssm_conv_kernel, c.conv_dim]
    assert shapes["blk.0.ssm_a"] == [c.ssm_time_step_rank]
    assert shapes["blk.1.attn_q.weight"] == [128, c.head_dim * c.n_head * 2]
    ssm_a = next(t for t in reader.tensors if t.name == "blk.0.ssm_a")
    assert (np.asarray(ssm_a.data) < 0).all()


# --- (1) loading -------------------------------------------------------------------------------


def test_loads_in_llama_cpp_as_a_hybrid_model(tiny_qwen35: Path) -> None:
    llm = llama_cpp.Llama(model_path=str(tiny_qwen35), n_ctx=N_CTX, verbose=False)
    try:
        assert llm._is_hybrid is True
        assert llm._is_recurrent is False
        assert llm.n_vocab() == len(tiny_qwen35_vocab().tokens)
        assert llm.n_embd() == 128
        assert llm.n_ctx() == N_CTX
        assert llm.metadata["general.architecture"] == "qwen35"
        assert llm.metadata["qwen35.ssm.group_count"] == "2"
    finally:
        llm.close()


# --- (2) special tokens ------------------------------------------------------------------------


@pytest.mark.parametrize("text", TINY_QWEN35_USER_DEFINED_TOKENS)
def test_user_defined_tokens_are_one_token_and_decode_as_text(
    llm: llama_cpp.Llama, text: str
) -> None:
    token = llm.tokenize(text.encode(), add_bos=False, special=True)
    assert token == [tiny_qwen35_vocab().token_id(text)]
    assert llm.detokenize(token, special=False) == text.encode()
    assert llm.detokenize(token, special=True) == text.encode()
    attr = llama_cpp.llama_vocab_get_attr(llm._model.vocab, token[0])
    assert attr & llama_cpp.LLAMA_TOKEN_ATTR_USER_DEFINED
    assert not llama_cpp.llama_vocab_is_eog(llm._model.vocab, token[0])
    # llama.cpp matches USER_DEFINED tokens even with special=False: a user typing "<tool_call>"
    # produces the real tool-call token, as with real Qwen files.
    assert llm.tokenize(text.encode(), add_bos=False, special=False) == token


@pytest.mark.parametrize("text", TINY_QWEN35_CONTROL_TOKENS)
def test_control_tokens_are_special_only(llm: llama_cpp.Llama, text: str) -> None:
    token = llm.tokenize(text.encode(), add_bos=False, special=True)
    assert token == [tiny_qwen35_vocab().token_id(text)]
    assert llm.detokenize(token, special=False) == b""
    assert llm.detokenize(token, special=True) == text.encode()
    as_text = llm.tokenize(text.encode(), add_bos=False, special=False)
    assert len(as_text) > 1 and llm.detokenize(as_text) == text.encode()
    # <|im_end|> is EOS; llama.cpp also makes <|endoftext|> end-of-generation by its text.
    is_eog = llama_cpp.llama_vocab_is_eog(llm._model.vocab, token[0])
    assert is_eog == (text != "<|im_start|>")


def test_eos_and_no_bos(llm: llama_cpp.Llama) -> None:
    assert llm.token_eos() == tiny_qwen35_vocab().token_id(TINY_QWEN35_EOS)
    assert llm.tokenize(b"Hello", add_bos=True) == llm.tokenize(b"Hello", add_bos=False)


# --- (3) the template --------------------------------------------------------------------------


def test_template_renders_a_tool_conversation_that_fits_and_evaluates(
    llm: llama_cpp.Llama,
) -> None:
    messages: list[dict[str, Any]] = [
        SYSTEM,
        {"role": "user", "content": "What is the weather like today in Paris?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": {"city": "Paris"}},
                }
            ],
        },
        {"role": "tool", "content": '{"sky": "sunny", "celsius": 21}'},
    ]
    prompt = _render(llm, messages, enable_thinking=False)
    # Same text as llama-cpp-python's own formatter, and the provenance comment rendered nothing.
    formatter: Any = Jinja2ChatFormatter(
        llm.metadata["tokenizer.chat_template"], eos_token=TINY_QWEN35_EOS, bos_token=""
    )
    assert formatter(messages=messages, tools=TOOLS, enable_thinking=False).prompt == prompt
    assert prompt.startswith("<|im_start|>system\n# Tools\n\nYou have access to")
    assert '"name": "get_weather"' in prompt and "München" in prompt
    assert (
        "<|im_start|>assistant\n<think>\n\n</think>\n\n<tool_call>\n<function=get_weather>\n"
        "<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call><|im_end|>\n"
    ) in prompt
    assert (
        '<|im_start|>user\n<tool_response>\n{"sky": "sunny", "celsius": 21}\n</tool_response>'
        "<|im_end|>\n"
    ) in prompt
    assert prompt.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert _render(llm, messages[:2]).endswith("<|im_start|>assistant\n<think>\n")

    tokens = _tokens(llm, prompt)
    vocab = tiny_qwen35_vocab()
    for special in ("<tool_call>", "</tool_call>", "<tool_response>", "<think>", "<|im_end|>"):
        assert vocab.token_id(special) in tokens
    assert len(tokens) < N_CTX // 2  # the merges keep the tools block short
    llama_cpp.llama_perf_context_reset(llm.ctx)
    llm.eval(tokens)
    assert np.isfinite(_last_logits(llm)).all()
    assert _prompt_tokens_evaluated(llm) == len(tokens)


# --- (4) generation and grammars ---------------------------------------------------------------


def test_generates_greedy_and_sampled(llm: llama_cpp.Llama) -> None:
    prompt = _tokens(llm, _render(llm, [SYSTEM, {"role": "user", "content": "Hello!"}]))
    greedy = _generate(llm, prompt, 24, temp=0.0)
    assert len(greedy) == 24 and len(set(greedy)) > 4
    assert np.isfinite(_last_logits(llm)).all()
    assert _generate(llm, prompt, 24, temp=0.0) == greedy

    llm.set_seed(7)
    sampled = _generate(llm, prompt, 24, temp=0.8, top_k=40, top_p=0.95)
    assert len(sampled) == 24 and len(set(sampled)) > 4
    llm.set_seed(7)
    assert _generate(llm, prompt, 24, temp=0.8, top_k=40, top_p=0.95) == sampled


@pytest.mark.parametrize("temp", [0.0, 0.8])
def test_grammar_with_the_tool_call_token_literal(llm: llama_cpp.Llama, temp: float) -> None:
    # Unquoted <tool_call> is a token literal: only the special token itself can match it.
    grammar = llama_cpp.LlamaGrammar.from_string('root ::= <tool_call> "\\n" [a-z]+', verbose=False)
    prompt = _tokens(llm, _render(llm, [SYSTEM, {"role": "user", "content": "Weather in Paris?"}]))
    out = _generate(llm, prompt, 12, temp=temp, grammar=grammar)
    assert out[0] == tiny_qwen35_vocab().token_id("<tool_call>")
    assert re.fullmatch(r"<tool_call>\n[a-z]+", llm.detokenize(out).decode())


def test_quoted_tool_call_in_a_grammar_is_only_text(llm: llama_cpp.Llama) -> None:
    # A quoted "<tool_call>" matches the characters, which the model may spell in pieces.
    grammar = llama_cpp.LlamaGrammar.from_string(
        'root ::= "<tool_call>" "\\n" [a-z]+', verbose=False
    )
    prompt = _tokens(llm, _render(llm, [SYSTEM, {"role": "user", "content": "Weather in Paris?"}]))
    out = _generate(llm, prompt, 12, temp=0.0, grammar=grammar)
    assert re.fullmatch(r"<tool_call>\n[a-z]+", llm.detokenize(out).decode())


# --- (5) checkpoints on a hybrid model ---------------------------------------------------------


def test_checkpoint_lets_a_second_prompt_evaluate_only_its_suffix(
    llm: llama_cpp.Llama, tiny_qwen35: Path
) -> None:
    first, second, shared = _two_prompts(llm)

    fresh = _load(tiny_qwen35)
    try:
        _evaluate(fresh, second)
        assert _prompt_tokens_evaluated(fresh) == len(second)
        expected = _last_logits(fresh)
    finally:
        fresh.close()

    _evaluate(llm, first[:shared])
    checkpoint = llm.save_state()
    assert checkpoint.n_tokens == shared

    _evaluate(llm, first)  # continues from the checkpoint's position: only the suffix
    assert _prompt_tokens_evaluated(llm) == len(first) - shared

    llm.load_state(checkpoint)
    _evaluate(llm, second)
    assert _prompt_tokens_evaluated(llm) == len(second) - shared
    assert np.allclose(_last_logits(llm), expected, rtol=1e-5, atol=1e-5)


def test_without_a_checkpoint_a_diverging_prompt_is_evaluated_in_full(
    llm: llama_cpp.Llama, tiny_qwen35: Path
) -> None:
    first, second, shared = _two_prompts(llm)
    _evaluate(llm, first)

    # Recurrent state cannot be cut back to the shared prefix; removing nothing is fine.
    assert llm._ctx.kv_cache_seq_rm(0, shared, -1) is False
    assert llm._ctx.kv_cache_seq_rm(0, len(first), -1) is True

    _evaluate(llm, second)  # generate() finds the prefix, cannot re-use it, resets
    assert _prompt_tokens_evaluated(llm) == len(second)

    fresh = _load(tiny_qwen35)
    try:
        _evaluate(fresh, second)
        assert np.allclose(_last_logits(llm), _last_logits(fresh), rtol=1e-5, atol=1e-5)
    finally:
        fresh.close()


def test_a_checkpoint_of_the_whole_prompt_does_not_save_its_evaluation(
    llm: llama_cpp.Llama,
) -> None:
    first, _, _ = _two_prompts(llm)
    _evaluate(llm, first)
    whole = llm.save_state()
    llm.reset()
    _evaluate(llm, first[:-2])
    shorter = llm.save_state()

    # generate() must replay the last prompt token to get fresh logits, a partial removal.
    llm.load_state(whole)
    _evaluate(llm, first)
    assert _prompt_tokens_evaluated(llm) == len(first)

    # A checkpoint that stops short of the prompt's end leaves only the rest to decode.
    llm.load_state(shorter)
    _evaluate(llm, first)
    assert _prompt_tokens_evaluated(llm) == 2
