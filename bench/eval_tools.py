"""Tool-calling accuracy of a GGUF model through Hearth's runtime, scored BFCL-style (AST).

    python bench/eval_tools.py --model GGUF --cases bench/cases/hearth_tools.jsonl \
        [--grammar on|off] [--thinking on|off] [--baseline] [--limit N] [--json out.json]
        [--tool-choice auto|required] [--threads N] [--max-tokens N]

Each case (JSON lines) gives messages, OpenAI-style tools and the expected calls, each
argument as a list of accepted values ("" in the list: the argument may be left out; an
empty `expected` means no call should be made). Scoring follows BFCL's AST checker: right
names, required arguments present, no unexpected ones, right types, strings compared after
dropping case, whitespace and punctuation, numbers by value, lists element by element,
parallel calls matched in any order. We add one rule of our own: two strings that both
read as ISO dates/times are compared as times, so "2026-05-14T15:00" matches
"2026-05-14T15:00:00". `--baseline` runs llama-cpp-python's own
`create_chat_completion(tools=..., tool_choice="auto")` on the same model, case by case
alternately with ours, so both see the same machine load.
"""

from __future__ import annotations

import argparse
import json
import math
import string
import sys
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (str(ROOT), str(ROOT / "bench")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import _common  # noqa: E402

from app.agent.turn.chat import SYSTEM_PROMPT  # noqa: E402
from app.llm.tools import ToolCall, ToolSpec, schema_types, validate_call  # noqa: E402

OPTIONAL = ""  # in an accepted-values list: the argument may be omitted
RUNAWAY = ("repetition", "max_tokens")
DEFAULT_SYSTEM = SYSTEM_PROMPT  # the app's own

# -- scoring -----------------------------------------------------------------------------------

_PUNCTUATION = set(string.punctuation) | {"\u2019", "\u2018", "\u201c", "\u201d"}


def normalise(text: str) -> str:
    """BFCL's standardize_string, a little broader: lower case, no whitespace, no ASCII
    punctuation (so "Dr. Martin" == "dr martin" and "Documents/" == "Documents")."""
    return "".join(ch for ch in text.lower() if not ch.isspace() and ch not in _PUNCTUATION)


def _as_time(text: str) -> datetime | date | None:
    """A string read as an ISO date or date-time; timezone offsets are ignored because the
    cases fix the local time zone and models write local wall-clock times."""
    cleaned = text.strip()
    if len(cleaned) < 10 or not cleaned[:4].isdigit():
        return None
    try:
        moment = datetime.fromisoformat(cleaned)
    except ValueError:
        return None
    if len(cleaned) == 10:
        return moment.date()
    return moment.replace(tzinfo=None)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def value_equals(value: Any, option: Any) -> bool:
    """One produced value against one accepted value (lists element-wise, dicts by key
    with each key's accepted-values list, as in BFCL's possible answers)."""
    if isinstance(option, bool) or isinstance(value, bool):
        return isinstance(option, bool) and isinstance(value, bool) and option == value
    if _is_number(option):
        return _is_number(value) and math.isclose(value, option, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(option, str):
        if not isinstance(value, str):
            return False
        if normalise(value) == normalise(option):
            return True
        left, right = _as_time(value), _as_time(option)
        return left is not None and type(left) is type(right) and left == right
    if isinstance(option, list):
        return (
            isinstance(value, list)
            and len(value) == len(option)
            and all(value_equals(v, o) for v, o in zip(value, option, strict=True))
        )
    if isinstance(option, dict):
        if not isinstance(value, dict) or set(value) - set(option):
            return False
        for key, accepted in option.items():
            accepted = accepted if isinstance(accepted, list) else [accepted]
            if key not in value:
                if OPTIONAL not in accepted:
                    return False
            elif not value_accepted(value[key], accepted):
                return False
        return True
    return bool(value == option)


def value_accepted(value: Any, accepted: Sequence[Any]) -> bool:
    return any(value_equals(value, option) for option in accepted if option != OPTIONAL) or (
        value == OPTIONAL and OPTIONAL in accepted
    )


def _type_ok(value: Any, schema: Any) -> bool:
    """BFCL's type check: the value's JSON type is one the schema admits (ints pass for
    numbers); one level into arrays."""
    types = schema_types(schema)
    if not types:
        return True
    checks = {
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": _is_number,
        "boolean": lambda v: isinstance(v, bool),
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "null": lambda v: v is None,
    }
    if not any(checks[t](value) for t in types if t in checks):
        return False
    items = schema.get("items") if isinstance(schema, Mapping) else None
    if isinstance(value, list) and isinstance(items, Mapping):
        item_types = schema_types(items)
        return all(any(checks[t](v) for t in item_types if t in checks) for v in value) or (
            not item_types
        )
    return True


def check_call(
    name: str,
    arguments: Mapping[str, Any],
    expected: Mapping[str, Any],
    tool: ToolSpec | None,
) -> str | None:
    """Why this call does not match the expected one, or None when it does."""
    if name != expected["name"]:
        return f"called {name}, expected {expected['name']}"
    accepted_args: Mapping[str, list[Any]] = expected.get("arguments", {})
    props = tool.properties if tool else {}
    for required in tool.required if tool else []:
        if required not in arguments:
            return f"{name}: missing required argument {required}"
    for arg, value in arguments.items():
        if arg not in accepted_args:
            return f"{name}: unexpected argument {arg}"
        if arg in props and not _type_ok(value, props[arg]):
            return f"{name}: {arg} has the wrong type ({type(value).__name__})"
        if not value_accepted(value, accepted_args[arg]):
            return f"{name}: {arg}={value!r} is not one of {accepted_args[arg]!r}"
    for arg, accepted in accepted_args.items():
        if arg not in arguments and OPTIONAL not in accepted:
            return f"{name}: argument {arg} is missing"
    return None


@dataclass
class Verdict:
    passed: bool
    reason: str = ""


def score(
    calls: Sequence[tuple[str, Mapping[str, Any]]],
    failed: int,
    expected: Sequence[Mapping[str, Any]],
    tools: Mapping[str, ToolSpec],
) -> Verdict:
    """The case's verdict: calls (name, arguments) that parsed, `failed` call attempts that
    did not parse or validate, against the expected calls (matched in any order)."""
    if not expected:
        if calls or failed:
            return Verdict(False, f"made {len(calls) + failed} call(s), expected none")
        return Verdict(True)
    if failed:
        return Verdict(False, f"{failed} call(s) did not parse or validate")
    if len(calls) != len(expected):
        return Verdict(False, f"made {len(calls)} call(s), expected {len(expected)}")
    reasons: list[str] = []

    def match(index: int, used: frozenset[int]) -> bool:
        # Backtracking: greedy matching (BFCL's) can fail when two calls both fit one answer.
        if index == len(calls):
            return True
        name, arguments = calls[index]
        for slot, want in enumerate(expected):
            if slot in used:
                continue
            problem = check_call(name, arguments, want, tools.get(name))
            if problem is None:
                if match(index + 1, used | {slot}):
                    return True
            elif len(expected) == 1 or not reasons:
                reasons.append(problem)
        return False

    if match(0, frozenset()):
        return Verdict(True)
    return Verdict(False, reasons[0] if reasons else "calls do not match")


# -- cases -------------------------------------------------------------------------------------


def load_cases(path: Path, limit: int | None = None) -> list[dict[str, Any]]:
    cases = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return cases[:limit] if limit else cases


def case_messages(case: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The conversation as the model sees it: our system prompt, told the date and time
    when the case fixes one, so "tomorrow at 3" has one right answer."""
    messages = [dict(m) for m in case["messages"]]
    system = DEFAULT_SYSTEM
    if messages and messages[0].get("role") == "system":
        system = str(messages.pop(0).get("content", ""))
    if case.get("now"):
        moment = datetime.fromisoformat(case["now"])
        zone = case.get("timezone", "local time")
        system += (
            f"\n\nThe current date and time is {moment:%A %d %B %Y, %H:%M} ({zone}). "
            "Write times as ISO 8601 local times, e.g. " + f"{moment:%Y-%m-%dT%H:%M:%S}."
        )
    return [{"role": "system", "content": system}, *messages]


def case_tools(case: Mapping[str, Any]) -> dict[str, ToolSpec]:
    return {spec.name: spec for spec in map(ToolSpec.from_openai, case["tools"])}


# -- running -----------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one system produced for one case."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # call attempts that did not parse/validate
    text: str = ""
    prompt_tokens: int = 0
    evaluated_prompt_tokens: int = -1  # prompt tokens not served from the KV cache; -1: unknown
    tokens: int = 0
    seconds: float = 0.0
    stop_reason: str = ""


@dataclass
class Record:
    id: str
    category: str
    system: str
    passed: bool
    reason: str
    produced: int
    valid: int
    expected_calls: int
    runaway: bool
    stop_reason: str
    prompt_tokens: int
    evaluated_prompt_tokens: int
    tokens: int
    seconds: float
    calls: list[Any]
    text: str


def record(case: Mapping[str, Any], system: str, outcome: Outcome) -> Record:
    tools = case_tools(case)
    valid = sum(
        1 for name, args in outcome.calls if not validate_call(ToolCall(name, dict(args)), tools)
    )
    verdict = score(outcome.calls, len(outcome.failed), case["expected"], tools)
    return Record(
        id=case["id"],
        category=case["category"],
        system=system,
        passed=verdict.passed,
        reason=verdict.reason,
        produced=len(outcome.calls) + len(outcome.failed),
        valid=valid,
        expected_calls=len(case["expected"]),
        runaway=outcome.stop_reason in RUNAWAY,
        stop_reason=outcome.stop_reason,
        prompt_tokens=outcome.prompt_tokens,
        evaluated_prompt_tokens=outcome.evaluated_prompt_tokens,
        tokens=outcome.tokens,
        seconds=round(outcome.seconds, 4),
        calls=[{"name": n, "arguments": a} for n, a in outcome.calls] + outcome.failed,
        text=outcome.text[:500],
    )


@dataclass
class Options:
    grammar: bool
    thinking: bool
    max_tokens: int
    thinking_budget: int
    temperature: float
    repeat_penalty: float
    tool_choice: str = "auto"  # "required": open a call for the model (ours only)


def run_hearth(model: Any, case: Mapping[str, Any], options: Options) -> Outcome:
    """One step through our runtime: native wire format, call grammar on or off."""
    from app.llm.backend import SamplingSettings, StepRequest

    budget = options.thinking_budget if options.thinking else 0
    request = StepRequest(
        messages=case_messages(case),
        tools=list(case_tools(case).values()),
        sampling=SamplingSettings(
            temperature=options.temperature,
            repeat_penalty=options.repeat_penalty,
            max_tokens=options.max_tokens + budget,
            thinking_budget=options.thinking_budget,
        ),
        enable_thinking=options.thinking,
        constrain_calls=options.grammar,
        tool_choice="required" if options.tool_choice == "required" else "auto",
    )
    started = time.perf_counter()
    result = model.step(request, lambda _event: None, threading.Event())
    return Outcome(
        calls=[(c.name, dict(c.arguments)) for c in result.calls],
        failed=[p.message for p in result.problems],
        text=result.text,
        prompt_tokens=result.stats.prompt_tokens,
        evaluated_prompt_tokens=result.stats.evaluated_prompt_tokens,
        tokens=result.stats.generated_tokens,
        seconds=time.perf_counter() - started,
        stop_reason=result.stats.stop_reason,
    )


def run_baseline(
    llama: Any, wire_format: Any, case: Mapping[str, Any], options: Options
) -> tuple[Outcome, Outcome]:
    """llama-cpp-python's own chat completion with tools. Returns two readings of the same
    generation: its `tool_calls` (what a plain integration gets), and its text parsed with
    our wire-format parser (does the model write calls that llama-cpp-python misses?)."""
    from app.llm.formats import CallFailed, CallParsed

    tools = case_tools(case)
    budget = options.thinking_budget if options.thinking else 0
    started = time.perf_counter()
    response = llama.create_chat_completion(
        messages=case_messages(case),
        tools=case["tools"],
        tool_choice="auto",
        temperature=options.temperature,
        repeat_penalty=options.repeat_penalty,
        max_tokens=options.max_tokens + budget,
    )
    seconds = time.perf_counter() - started
    choice = response["choices"][0]
    message = choice.get("message") or {}
    usage = response.get("usage") or {}
    stop = {"length": "max_tokens", "stop": "end", "tool_calls": "end"}.get(
        choice.get("finish_reason") or "", choice.get("finish_reason") or ""
    )
    text = message.get("content") or ""

    def outcome() -> Outcome:
        return Outcome(
            text=text,
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            tokens=int(usage.get("completion_tokens", 0)),
            seconds=seconds,
            stop_reason=stop,
        )

    native = outcome()
    for entry in message.get("tool_calls") or []:
        function = entry.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except json.JSONDecodeError as exc:
            native.failed.append(f"arguments are not JSON: {exc}")
            continue
        call = ToolCall(
            str(function.get("name", "")), arguments if isinstance(arguments, dict) else {}
        )
        problems = validate_call(call, tools)
        if problems or not isinstance(arguments, dict):
            native.failed.append("; ".join(problems) or "arguments are not an object")
        else:
            native.calls.append((call.name, call.arguments))
    parsed = outcome()
    for event in wire_format.parse(text, tools):
        if isinstance(event, CallParsed):
            parsed.calls.append((event.call.name, dict(event.call.arguments)))
        elif isinstance(event, CallFailed):
            parsed.failed.append(event.problem.message)
    return native, parsed


def _baseline_llama(path: Path, model: Any, thinking: bool) -> Any:
    """A second llama-cpp-python instance (same file, context, threads and seed), so the
    two systems never share KV-cache state; its chat handler gets enable_thinking."""
    from llama_cpp import Llama

    from app.llm.cpu_backend import load_cpu_backend

    load_cpu_backend()

    llama = Llama(
        model_path=str(path),
        n_ctx=model.llama.n_ctx(),
        n_batch=model.settings.n_batch,
        n_threads=model.settings.n_threads,
        n_threads_batch=model.settings.n_threads,
        seed=max(model.settings.seed, 0),
        verbose=False,
    )
    handler = llama.chat_handler or llama._chat_handlers.get(llama.chat_format or "")
    if handler is not None:
        llama.chat_handler = lambda **kw: handler(**{"enable_thinking": thinking, **kw})
    return llama


# -- summary -----------------------------------------------------------------------------------


def _rate(part: float, whole: float) -> float | None:
    return round(part / whole, 4) if whole else None


def summarise(records: Iterable[Record]) -> dict[str, Any]:
    """Per-category and overall figures for one system."""
    groups: dict[str, list[Record]] = {}
    for item in records:
        groups.setdefault(item.category, []).append(item)
        groups.setdefault("overall", []).append(item)
    summary = {}
    for category, items in sorted(groups.items(), key=lambda kv: kv[0] == "overall"):
        n = len(items)
        produced = sum(i.produced for i in items)
        no_call = [i for i in items if i.expected_calls == 0]
        summary[category] = {
            "cases": n,
            "accuracy": _rate(sum(i.passed for i in items), n),
            "calls_produced": produced,
            "call_validity": _rate(sum(i.valid for i in items), produced),
            "no_call_cases": len(no_call),
            "false_call_rate": _rate(sum(i.produced > 0 for i in no_call), len(no_call)),
            "runaway_rate": _rate(sum(i.runaway for i in items), n),
            "tokens_per_case": round(sum(i.tokens for i in items) / n, 1),
            "prompt_tokens_per_case": round(sum(i.prompt_tokens for i in items) / n, 1),
            "evaluated_prompt_tokens_per_case": (
                round(sum(i.evaluated_prompt_tokens for i in items) / n, 1)
                if all(i.evaluated_prompt_tokens >= 0 for i in items)
                else None
            ),
            "seconds_per_case": round(sum(i.seconds for i in items) / n, 3),
        }
    return summary


def compare(ours: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any]:
    """Ours against the baseline measured in the same run: accuracy difference (points),
    time and token ratios (ours / baseline)."""
    a, b = ours["overall"], base["overall"]
    return {
        "accuracy_delta": round((a["accuracy"] or 0) - (b["accuracy"] or 0), 4),
        "seconds_ratio": _rate(a["seconds_per_case"], b["seconds_per_case"]),
        "tokens_ratio": _rate(a["tokens_per_case"], b["tokens_per_case"]),
    }


def print_table(systems: Mapping[str, Mapping[str, Any]]) -> None:
    columns = (
        ("accuracy", "acc"),
        ("call_validity", "valid"),
        ("false_call_rate", "falsecall"),
        ("runaway_rate", "runaway"),
        ("tokens_per_case", "tok/case"),
        ("seconds_per_case", "s/case"),
    )
    for system, summary in systems.items():
        print(f"\n{system}")
        print(f"  {'category':<18}{'n':>4}" + "".join(f"{label:>11}" for _, label in columns))
        for category, row in summary.items():
            cells = "".join(
                f"{'-' if row[key] is None else row[key]:>11}" for key, _label in columns
            )
            print(f"  {category:<18}{row['cases']:>4}{cells}")


# -- main --------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", help="GGUF file (default: the embedded SmolLM2)")
    parser.add_argument("--cases", type=Path, required=True)
    parser.add_argument("--grammar", choices=("on", "off"), default="on")
    parser.add_argument("--thinking", choices=("on", "off"), default="off")
    parser.add_argument("--baseline", action="store_true")
    parser.add_argument(
        "--tool-choice",
        choices=("auto", "required"),
        default="auto",
        help="required: our runtime opens a call itself (the baseline stays auto)",
    )
    parser.add_argument("--limit", type=int)
    parser.add_argument("--max-tokens", type=int, default=384)
    parser.add_argument("--thinking-budget", type=int, default=512)
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument("--repeat-penalty", type=float, default=1.1)
    parser.add_argument("--ctx", type=int, default=4096)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json")
    args = parser.parse_args(argv)

    from app.llm.runtime import LocalModel, RuntimeSettings

    path = Path(args.model) if args.model else _common.smollm2()
    cases = load_cases(args.cases, args.limit)
    options = Options(
        grammar=args.grammar == "on",
        thinking=args.thinking == "on",
        max_tokens=args.max_tokens,
        thinking_budget=args.thinking_budget,
        temperature=args.temperature,
        repeat_penalty=args.repeat_penalty,
        tool_choice=args.tool_choice,
    )
    model = LocalModel(
        path, RuntimeSettings(n_ctx=args.ctx, n_threads=args.threads, seed=args.seed)
    )
    model.load()
    baseline = _baseline_llama(path, model, options.thinking) if args.baseline else None

    records: list[Record] = []
    for index, case in enumerate(cases):
        runs = [("hearth", lambda c=case: [("hearth", run_hearth(model, c, options))])]
        if baseline is not None:
            runs.append(
                (
                    "baseline",
                    lambda c=case: list(
                        zip(
                            ("llama_cpp_python", "llama_cpp_python_parsed"),
                            run_baseline(baseline, model.wire_format, c, options),
                            strict=True,
                        )
                    ),
                )
            )
        if index % 2:
            runs.reverse()  # alternate who goes first, as the other benchmarks do
        for _label, run in runs:
            for system, outcome in run():
                records.append(record(case, system, outcome))
        done = [r for r in records if r.id == case["id"]]
        marks = " ".join(f"{r.system}={'ok' if r.passed else 'FAIL'}" for r in done)
        print(f"[{index + 1}/{len(cases)}] {case['id']}: {marks}", file=sys.stderr)

    systems: dict[str, Any] = {}
    for system in dict.fromkeys(r.system for r in records):
        systems[system] = summarise(r for r in records if r.system == system)
    results: dict[str, Any] = {
        "benchmark": "eval_tools",
        "machine": _common.machine(),
        "model": str(path),
        "wire_format": model.wire_format.name,
        "cases_file": str(args.cases),
        "settings": {
            "grammar": args.grammar,
            "thinking": args.thinking,
            "tool_choice": args.tool_choice,
            "baseline": args.baseline,
            "limit": args.limit,
            "max_tokens": args.max_tokens,
            "temperature": args.temperature,
            "repeat_penalty": args.repeat_penalty,
            "threads": args.threads,
            "ctx": args.ctx,
        },
        "systems": systems,
    }
    if baseline is not None:
        results["comparison"] = {
            name: compare(systems["hearth"], systems[name])
            for name in ("llama_cpp_python", "llama_cpp_python_parsed")
        }
    results["cases"] = [asdict(r) for r in records]
    print_table(systems)
    if "comparison" in results:
        print("\ncomparison (hearth vs baseline):", json.dumps(results["comparison"]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, ensure_ascii=False, default=str))
    model.close()
    if baseline is not None:
        baseline.close()
    return results


if __name__ == "__main__":
    main()
