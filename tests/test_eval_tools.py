"""The tool-calling eval (bench/eval_tools.py): its BFCL-style scorer on hand-made cases,
and one short run of the whole harness on the real SmolLM2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import eval_tools  # noqa: E402
from eval_tools import normalise, score  # noqa: E402

from app.llm.formats import CallStart  # noqa: E402
from app.llm.tools import ToolSpec  # noqa: E402

WEATHER = ToolSpec(
    "get_weather",
    "Weather for a city.",
    {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer"},
            "unit": {"type": "string", "enum": ["c", "f"]},
        },
        "required": ["city"],
    },
)
AREA = ToolSpec(
    "area",
    "Area of a rectangle.",
    {
        "type": "object",
        "properties": {
            "width": {"type": "number"},
            "sides": {"type": "array", "items": {"type": "integer"}},
        },
        "required": ["width"],
    },
)
TOOLS = {t.name: t for t in (WEATHER, AREA)}
PARIS = {"name": "get_weather", "arguments": {"city": ["Paris"], "days": [2, ""], "unit": [""]}}
ROME = {"name": "get_weather", "arguments": {"city": ["Rome"], "days": [""], "unit": [""]}}


def verdict(calls: list[tuple[str, dict[str, Any]]], expected: list[Any], failed: int = 0) -> bool:
    return score(calls, failed, expected, TOOLS).passed


def test_right_call_passes() -> None:
    assert verdict([("get_weather", {"city": "Paris", "days": 2})], [PARIS])
    assert verdict([("get_weather", {"city": "Paris"})], [PARIS])  # days may be omitted


def test_wrong_name_fails() -> None:
    result = score([("area", {"width": 2})], 0, [PARIS], TOOLS)
    assert not result.passed and "expected get_weather" in result.reason


def test_missing_required_fails() -> None:
    result = score([("get_weather", {"days": 2})], 0, [PARIS], TOOLS)
    assert not result.passed and "city" in result.reason


def test_missing_expected_argument_fails_unless_optional() -> None:
    expected = {"name": "get_weather", "arguments": {"city": ["Paris"], "days": [2]}}
    assert not verdict([("get_weather", {"city": "Paris"})], [expected])


def test_extra_argument_fails() -> None:
    result = score([("get_weather", {"city": "Paris", "country": "FR"})], 0, [PARIS], TOOLS)
    assert not result.passed and "unexpected argument country" in result.reason


def test_wrong_type_fails() -> None:
    assert not verdict([("get_weather", {"city": "Paris", "days": "2"})], [PARIS])
    assert not verdict([("get_weather", {"city": "Paris", "days": True})], [PARIS])


def test_numbers_compare_by_value() -> None:
    expected = {"name": "area", "arguments": {"width": [2.0], "sides": [""]}}
    assert verdict([("area", {"width": 2})], [expected])  # int is fine for a number
    assert not verdict([("area", {"width": 2.5})], [expected])


def test_lists_compare_element_wise() -> None:
    expected = {"name": "area", "arguments": {"width": [1], "sides": [[3, 4]]}}
    assert verdict([("area", {"width": 1, "sides": [3, 4]})], [expected])
    assert not verdict([("area", {"width": 1, "sides": [4, 3]})], [expected])
    assert not verdict([("area", {"width": 1, "sides": [3]})], [expected])


def test_string_normalisation() -> None:
    assert normalise("  Dr. Martin ") == normalise("dr martin")
    assert verdict([("get_weather", {"city": "  paris."})], [PARIS])
    assert not verdict([("get_weather", {"city": "Lyon"})], [PARIS])


def test_iso_times_compare_as_times() -> None:
    expected = {"name": "get_weather", "arguments": {"city": ["2026-05-14T15:00:00"]}}
    assert verdict([("get_weather", {"city": "2026-05-14T15:00"})], [expected])
    assert verdict([("get_weather", {"city": "2026-05-14 15:00:00+02:00"})], [expected])
    assert not verdict([("get_weather", {"city": "2026-05-14T16:00"})], [expected])


def test_parallel_calls_match_in_any_order() -> None:
    rome = ("get_weather", {"city": "Rome"})
    paris = ("get_weather", {"city": "Paris", "days": 2})
    assert verdict([rome, paris], [PARIS, ROME])
    assert verdict([paris, rome], [PARIS, ROME])
    assert not verdict([paris, paris], [PARIS, ROME])
    assert not verdict([paris], [PARIS, ROME])


def test_parallel_matching_backtracks() -> None:
    # The first call fits both answers; greedy matching would take the wrong one.
    either = {"name": "get_weather", "arguments": {"city": ["Paris", "Rome"]}}
    assert verdict(
        [("get_weather", {"city": "Rome"}), ("get_weather", {"city": "Paris"})], [either, ROME]
    )


def test_irrelevance_passes_only_without_a_call() -> None:
    assert verdict([], [])
    assert not verdict([("get_weather", {"city": "Paris"})], [])
    assert not verdict([], [], failed=1)  # an attempted call that did not parse still counts


def test_failed_call_attempt_fails_a_call_case() -> None:
    assert not verdict([("get_weather", {"city": "Paris"})], [PARIS], failed=1)


def test_summary_rates() -> None:
    def rec(category: str, passed: bool, produced: int, expected: int, stop: str) -> Any:
        return eval_tools.Record(
            "x", category, "hearth", passed, "", produced, produced, expected,
            stop in eval_tools.RUNAWAY, stop, 10, 10, 5, 0.5, [], "",
        )  # fmt: skip

    summary = eval_tools.summarise(
        [
            rec("simple", True, 1, 1, "end"),
            rec("simple", False, 0, 1, "max_tokens"),
            rec("irrelevance", False, 1, 0, "end"),
            rec("irrelevance", True, 0, 0, "repetition"),
        ]
    )
    assert summary["simple"]["accuracy"] == 0.5
    assert summary["simple"]["runaway_rate"] == 0.5
    assert summary["irrelevance"]["false_call_rate"] == 0.5
    assert summary["overall"]["cases"] == 4
    assert summary["overall"]["call_validity"] == 1.0


def test_case_files_are_well_formed() -> None:
    for name in ("hearth_tools.jsonl", "bfcl_sample.jsonl"):
        cases = eval_tools.load_cases(ROOT / "bench" / "cases" / name)
        assert len(cases) >= 30
        for case in cases:
            tools = eval_tools.case_tools(case)
            for call in case["expected"]:
                assert call["name"] in tools, case["id"]
                assert set(call["arguments"]) <= set(tools[call["name"]].properties), case["id"]


def test_now_goes_into_the_system_prompt() -> None:
    case = {"messages": [{"role": "user", "content": "hi"}], "now": "2026-05-13T09:30:00"}
    system = eval_tools.case_messages(case)[0]
    assert system["role"] == "system" and "Wednesday 13 May 2026, 09:30" in system["content"]


@pytest.mark.real_model
def test_harness_runs_on_smollm2(smollm2_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "summary.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "eval_tools.py"),
            "--model",
            str(smollm2_path),
            "--cases",
            str(ROOT / "bench" / "cases" / "hearth_tools.jsonl"),
            "--limit",
            "3",
            "--baseline",
            "--max-tokens",
            "48",
            "--threads",
            "2",  # as the suite's own model: `make test` runs the model tests one at a time
            "--json",
            str(out),
        ],
        check=True,
        cwd=ROOT,
        timeout=280,
    )
    results = json.loads(out.read_text())
    assert set(results["systems"]) == {"hearth", "llama_cpp_python", "llama_cpp_python_parsed"}
    overall = results["systems"]["hearth"]["overall"]
    assert overall["cases"] == 3
    for key in (
        "accuracy",
        "call_validity",
        "false_call_rate",
        "runaway_rate",
        "tokens_per_case",
        "seconds_per_case",
    ):
        assert key in overall
    assert 0.0 <= overall["accuracy"] <= 1.0
    assert overall["seconds_per_case"] > 0
    assert len(results["cases"]) == 9
    assert "seconds_ratio" in results["comparison"]["llama_cpp_python"]


@pytest.mark.real_model
def test_constrain_calls_off_samples_calls_without_grammar(
    smollm2: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`StepRequest.constrain_calls=False` (the eval's --grammar off) drops only the grammar."""
    import threading

    from app.llm.backend import StepRequest

    seen: list[tuple[Any, Any]] = []

    def fake_stream(
        tokens: Any, sampling: Any, cancel: Any, stats: Any, spans: Any, grammar_for: Any, *_: Any
    ) -> Any:
        seen.append((spans, grammar_for(CallStart("tag"))))
        return iter(())

    monkeypatch.setattr(smollm2, "stream", fake_stream)
    messages = [{"role": "user", "content": "Weather in Paris?"}]
    for constrain in (True, False):
        request = StepRequest(messages, [WEATHER], constrain_calls=constrain)
        smollm2.step(request, lambda _event: None, threading.Event())
    (on_spans, on), (off_spans, off) = seen
    assert on and off is None  # only the grammar is dropped
    assert on_spans.names == off_spans.names == ("get_weather",)  # calls are still found
