"""Decode and prompt-evaluation tokens/s through Hearth's runtime against llama-cpp-python
alone (same model, threads, prompt and sampling), plus constrained tool-call decoding against
free decoding. The prompt is the app's own: system prompt, every tool, one request.

    python bench/decode_speed.py [--model GGUF] [--runs 5] [--tokens 128] [--json out.json]
"""

from __future__ import annotations

import argparse
import threading
import time

import _common
from _common import interleave, median, report

from app.llm.backend import GenerationStats, SamplingSettings, StepRequest
from app.llm.formats import CallSpans
from app.llm.runtime import LocalModel, RuntimeSettings

PROMPT = "Write a long, detailed story about a lighthouse keeper and the sea."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json")
    args = parser.parse_args()
    path = args.model or _common.smollm2()
    settings = RuntimeSettings(n_ctx=4096, n_threads=args.threads, seed=1)
    model = LocalModel(path, settings)
    model.load()
    llama = model.llama
    messages = [
        {"role": "system", "content": "You are a storyteller."},
        {"role": "user", "content": PROMPT},
    ]
    tokens = model.tokenize_prompt(model.render(messages))
    # Sampling that never stops early, so both sides decode exactly `tokens` tokens.
    sampling = SamplingSettings(max_tokens=args.tokens, temperature=0.8, repeat_penalty=1.0)

    def ours() -> float:
        llama.reset()
        stats = GenerationStats()
        for _ in model.generate(tokens, sampling, threading.Event(), stats):
            pass
        return stats.generated_tokens / stats.generate_seconds

    def raw() -> float:
        llama.reset()
        started = 0.0
        stream = llama.generate(
            tokens, temp=0.8, top_k=40, top_p=0.9, min_p=0.05, repeat_penalty=1.0, reset=True
        )
        for count, _token in enumerate(stream):
            if count == 0:
                started = time.perf_counter()  # after the prompt, like ours
            if count >= args.tokens:
                break
        return args.tokens / (time.perf_counter() - started)

    # Constrained: a tool call under the grammar; free: the same number of tokens, no grammar.
    from tests.support.toolset import TOOLS

    tools = list(TOOLS.values())
    fmt = model.wire_format
    call_prompt, _ = model.build_prompt(
        StepRequest([messages[0], {"role": "user", "content": "Email bob@example.com"}], tools)
    )
    call_tokens = model.tokenize_prompt(call_prompt + fmt.call_open)
    names = [t.name for t in tools]
    measured: dict[str, int] = {}

    def constrained() -> float:
        llama.reset()
        stats = GenerationStats()
        for _ in model.stream(
            call_tokens,
            SamplingSettings(max_tokens=120),
            None,
            stats,
            CallSpans(names, forced_open=True),
            lambda start: model._grammar(tools, start),
        ):
            pass
        measured["length"] = stats.generated_tokens
        return stats.generated_tokens / stats.generate_seconds

    def free() -> float:
        llama.reset()
        stats = GenerationStats()
        length = measured.get("length", 60)
        for _ in model.generate(
            call_tokens, SamplingSettings(max_tokens=length, repeat_penalty=1.0), None, stats
        ):
            pass
        return stats.generated_tokens / stats.generate_seconds

    # Prompt evaluation: the app's whole prompt (every tool described), from an empty cache.
    from app.agent.tools.toolbox import SPECS
    from app.agent.turn.chat import SYSTEM_PROMPT

    app_request = StepRequest(
        [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": PROMPT}],
        list(SPECS.values()),
    )
    app_prompt, boundaries = model.build_prompt(app_request)
    app_tokens = model.tokenize_prompt(app_prompt)
    assert model.cache is not None
    cache = model.cache

    def prompt_ours() -> float:
        llama.reset()
        cache.checkpoints.clear()
        started = time.perf_counter()
        cache.evaluate(app_tokens, threading.Event(), boundaries)
        return len(app_tokens) / (time.perf_counter() - started)

    def prompt_raw() -> float:
        llama.reset()
        started = time.perf_counter()
        llama.eval(app_tokens)
        return len(app_tokens) / (time.perf_counter() - started)

    def prompt_small_chunks() -> float:
        """The runtime before: chunks of 32 tokens, doubled while one took under 50 ms."""
        llama.reset()
        started = time.perf_counter()
        position, chunk = 0, 32
        while position < len(app_tokens):
            began = time.perf_counter()
            llama.eval(app_tokens[position : position + chunk])
            position += chunk
            if time.perf_counter() - began < 0.05:
                chunk = min(chunk * 2, settings.n_batch)
        return len(app_tokens) / (time.perf_counter() - started)

    prompt = interleave(
        max(1, args.runs // 2), raw=prompt_raw, ours=prompt_ours, small=prompt_small_chunks
    )
    speed = interleave(args.runs, raw=raw, ours=ours)
    calls = interleave(args.runs, free=free, constrained=constrained)
    results = {
        "model": str(path),
        "threads": args.threads,
        "decode_tokens_per_second": {
            "llama_cpp_python": median(speed["raw"]),
            "hearth_runtime": median(speed["ours"]),
        },
        "decode_ratio_runtime_vs_raw": median(speed["ours"]) / median(speed["raw"]),
        "prompt_tokens": len(app_tokens),
        "prompt_tokens_per_second": {
            "llama_cpp_python": median(prompt["raw"]),
            "hearth_runtime": median(prompt["ours"]),
            "hearth_runtime_before_32_token_chunks": median(prompt["small"]),
        },
        "prompt_ratio_runtime_vs_raw": median(prompt["ours"]) / median(prompt["raw"]),
        "prompt_ratio_before_vs_raw": median(prompt["small"]) / median(prompt["raw"]),
        "tool_call_tokens_per_second": {
            "free": median(calls["free"]),
            "constrained": median(calls["constrained"]),
        },
        "constrained_vs_free_ratio": median(calls["constrained"]) / median(calls["free"]),
        "goals": {
            "decode_ratio": ">= 0.97",
            "prompt_ratio": ">= 0.97",
            "constrained_vs_free": ">= 0.8",
        },
        "samples": {**speed, **calls, **{f"prompt_{k}": v for k, v in prompt.items()}},
    }
    model.close()
    report("decode_speed", results, args.json)


if __name__ == "__main__":
    main()
