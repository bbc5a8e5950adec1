"""The machine check on the real SmolLM2: it really loads and runs the model, and the numbers
it measures turn into plain words."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.llm.machine_check import MachineReport, describe, measure, resident_memory_bytes

pytestmark = pytest.mark.real_model


def test_measures_the_real_model(smollm2_path: Path) -> None:
    report = measure(smollm2_path, threads=2, max_tokens=32)

    assert report.model_name == smollm2_path.stem
    assert report.load_seconds > 0
    assert report.prompt_tokens > 100 and report.prompt_seconds > 0
    assert report.generated_tokens > 0 and report.generate_seconds > 0
    assert report.prompt_tokens_per_second > 0 and report.tokens_per_second > 0
    assert report.words_per_second > 0 and report.first_reply_seconds > 0
    assert report.memory_bytes is not None and report.memory_bytes > 0  # Linux: /proc
    words = describe(report)
    assert "words a second" in words or "less than one word a second" in words
    assert "replies" in words and "memory" in words


def _report(**changes: object) -> MachineReport:
    base = {
        "model_name": "m",
        "threads": 2,
        "load_seconds": 2.0,
        "prompt_tokens": 400,
        "prompt_seconds": 1.0,
        "generated_tokens": 100,
        "generate_seconds": 4.0,
        "generated_words": 80,
        "memory_bytes": 1_300_000_000,
    }
    return MachineReport(**{**base, **changes})  # type: ignore[arg-type]


def test_words_for_a_typical_and_a_slow_machine() -> None:
    typical = describe(_report())
    assert "about 20 words a second, faster than most people read" in typical
    assert "replies start within a second for short messages" in typical
    assert "about 1.3 GB of memory" in typical
    slow = describe(_report(prompt_seconds=40.0, generate_seconds=200.0))
    assert "less than one word a second" in slow
    assert "start after about 6 seconds" in slow  # 40 tokens at 10/s + 1 at 0.5/s
    # Too short a reply to count words: estimated from tokens.
    assert _report(generated_words=2).words_per_second == pytest.approx(100 / 4 * 0.75)


def test_resident_memory_is_read() -> None:
    memory = resident_memory_bytes()
    assert memory is not None and memory > 10_000_000
