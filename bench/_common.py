"""Shared helpers for the benchmarks: medians, interleaved runs, JSON results.

These machines are shared and noisy, so every figure is a ratio against a baseline measured
in the same run, with the two measured alternately.
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def interleave(runs: int, **measures: Callable[[], float]) -> dict[str, list[float]]:
    """Run each measure `runs` times, alternating, and collect the values."""
    values: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(runs):
        for name, measure in measures.items():
            values[name].append(measure())
    return values


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def machine() -> dict[str, Any]:
    import os

    return {
        "cpu_count": os.cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "processor": platform.processor(),
    }


def report(name: str, results: dict[str, Any], json_path: str | None) -> None:
    results = {"benchmark": name, "machine": machine(), **results}
    print(json.dumps(results, indent=2))
    if json_path:
        Path(json_path).write_text(json.dumps(results, indent=2))


def smollm2() -> Path:
    from app.llm.embedded import ensure_embedded_model

    return ensure_embedded_model(verify=False)
