"""Time to first token at turn 1 and turn 10 of one conversation with the full tool block in
the prompt, with Hearth's prompt cache (prefix reuse + checkpoints) and without it (every turn
re-evaluates the whole prompt), on SmolLM2 (transformer) and the tiny Qwen3.5 (hybrid).

    python bench/ttft_turns.py [--turns 10] [--json out.json]
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

import _common
from _common import report

from app.agent.tools.toolbox import SPECS
from app.llm.backend import SamplingSettings, StepRequest
from app.llm.runtime import LocalModel, RuntimeSettings

USER_TURNS = [
    "What's on my calendar tomorrow?",
    "Find my notes about the budget.",
    "Search the web for train times to Lyon.",
    "Remember that my dentist is Dr Weiss.",
    "What did I ask you to remember?",
    "Read the file plan.md.",
    "Summarise that in one line.",
    "Thanks. Anything else today?",
    "Write that summary to summary.txt.",
    "Good night!",
]


def conversation_ttft(
    model: LocalModel, turns: int, use_cache: bool, evaluated: list[int]
) -> list[float]:
    """First-token latency per turn (and, into `evaluated`, the prompt tokens computed);
    without the cache the context is cleared each turn."""
    tools = list(SPECS.values())
    messages = [{"role": "system", "content": "You are Hearth, a helpful assistant."}]
    latencies = []
    assert model.cache is not None  # loaded
    cache = model.cache
    for index in range(turns):
        messages.append({"role": "user", "content": USER_TURNS[index % len(USER_TURNS)]})
        if not use_cache:
            model.llama.reset()
            cache.checkpoints.clear()
            cache._clear_memory()
        request = StepRequest(messages, tools, SamplingSettings(max_tokens=24))
        started = time.perf_counter()
        first: list[float] = []

        def on_event(_event: object, first: list[float] = first, started: float = started) -> None:
            if not first:
                first.append(time.perf_counter() - started)

        result = model.step(request, on_event, threading.Event())
        latencies.append(first[0] if first else result.stats.prompt_seconds)
        evaluated.append(result.stats.evaluated_prompt_tokens)
        messages.append({"role": "assistant", "content": result.text or "OK."})
    return latencies


def measure(path: Path, turns: int, threads: int) -> dict[str, object]:
    out: dict[str, object] = {"model": str(path)}
    for use_cache in (False, True):
        model = LocalModel(path, RuntimeSettings(n_ctx=8192, n_threads=threads, seed=3))
        model.load()
        if not use_cache and model.cache is not None:
            model.cache.needs_checkpoints = False
        evaluated: list[int] = []
        latencies = conversation_ttft(model, turns, use_cache, evaluated)
        model.close()
        key = "with_cache" if use_cache else "without_cache"
        out[key] = {
            "turn_1_s": latencies[0],
            f"turn_{turns}_s": latencies[-1],
            "ratio_last_vs_first": latencies[-1] / latencies[0],
            "all": latencies,
            "evaluated_prompt_tokens": evaluated,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json")
    args = parser.parse_args()
    from tests.support.tiny_qwen35 import write_tiny_qwen35

    with tempfile.TemporaryDirectory() as folder:
        tiny = write_tiny_qwen35(Path(folder) / "tiny-qwen35.gguf")
        results = {
            "smollm2": measure(_common.smollm2(), args.turns, args.threads),
            "tiny_qwen35_hybrid": measure(tiny, args.turns, args.threads),
            "goal": f"turn {args.turns} within 1.3x of turn 1 (with cache)",
        }
    report("ttft_turns", results, args.json)


if __name__ == "__main__":
    main()
