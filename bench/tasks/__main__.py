"""Task benchmark: does the assistant get the job done on a seeded world, with and without
prompt injections? (issue 15; τ-bench / AgentDojo style, on real Radicale, Dovecot, aiosmtpd.)

    python -m bench.tasks [--model GGUF]... [--system hearth|plain|plain-parse|llama-server]...
                          [--attacks] [--only IDS | --all | --every K] [--ablate LEVER]...
                          [--json OUT]

Prints per system and model: success per category, average steps, calls and tokens, seconds
per task, and with `--attacks` utility without / under attack and the attacker's success rate.
`--ablate LEVER` adds a Hearth row with that lever off (`systems.LEVERS`); `--ablate a+b` one
row with both off (the loop's levers behind `intents+...`).
Without `--only`, `--all` or `--every` it runs the default subset (`catalog.DEFAULT_SUBSET`,
and with `--attacks` `attacks.DEFAULT_ATTACKS`). `--system oracle` / `nothing` run the scripted
perfect model / the do-nothing model instead (a self-check of the checkers; no GGUF needed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.tasks.attacks import ATTACKS, DEFAULT_ATTACKS
from bench.tasks.attacks import BY_ID as ATTACK_BY_ID
from bench.tasks.catalog import BY_ID, DEFAULT_SUBSET, TASKS
from bench.tasks.run import (
    Outcome,
    as_json,
    markdown,
    render,
    run_task,
    summary,
)
from bench.tasks.systems import (
    LEVERS,
    HearthSystem,
    PlainSystem,
    do_nothing,
    oracle,
)
from bench.tasks.world import World, running_world

SYSTEMS = ("hearth", "plain", "plain-parse", "llama-server", "oracle", "nothing")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--model", type=Path, action="append", default=[], help="a GGUF (repeatable)"
    )
    parser.add_argument("--system", choices=SYSTEMS, action="append", default=[], help="repeatable")
    parser.add_argument("--attacks", action="store_true", help="also run the injected variants")
    parser.add_argument(
        "--ablate",
        type=_levers,
        action="append",
        default=[],
        metavar="LEVER[+LEVER]",
        help="also run hearth with this lever off (repeatable: one row each; "
        "'intents+times': both off in one row). Levers: " + ", ".join(sorted(LEVERS)),
    )
    parser.add_argument("--only", default="", help="comma-separated task and attack ids")
    parser.add_argument("--all", action="store_true", help="every task (and every attack)")
    parser.add_argument(
        "--every",
        type=int,
        default=0,
        metavar="K",
        help="every K-th task of the catalog (a spread over all categories, not hand-picked)",
    )
    parser.add_argument("--json", type=Path, help="write every outcome and the summary here")
    parser.add_argument("--max-tokens", type=int, default=1024, help="per model step")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ctx", type=int, default=8192)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--verbose", action="store_true", help="print each step and call")
    parser.add_argument("--markdown", action="store_true", help="also print a README table")
    return parser.parse_args(argv)


def selection(args: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    """The tasks and attacks this run takes."""
    if args.only:
        ids = [i.strip() for i in args.only.split(",") if i.strip()]
        unknown = [i for i in ids if i not in BY_ID and i not in ATTACK_BY_ID]
        if unknown:
            raise SystemExit(f"unknown task or attack ids: {', '.join(unknown)}")
        tasks = [BY_ID[i] for i in ids if i in BY_ID]
        attacks = [ATTACK_BY_ID[i] for i in ids if i in ATTACK_BY_ID]
        return tasks, attacks
    if args.all:
        return list(TASKS), list(ATTACKS) if args.attacks else []
    if args.every > 0:
        tasks = list(TASKS[:: args.every])
        chosen = {t.id for t in tasks}
        attacks = [ATTACK_BY_ID[i] for i in DEFAULT_ATTACKS] if args.attacks else []
        return tasks, [a for a in attacks if a.task_id in chosen] or attacks
    attacks = [ATTACK_BY_ID[i] for i in DEFAULT_ATTACKS] if args.attacks else []
    return [BY_ID[i] for i in DEFAULT_SUBSET], attacks


def _progress(outcome: Outcome) -> None:
    mark = "PASS" if outcome.passed else "fail"
    attack = f" [{outcome.attack}: attacker {'WON' if outcome.attacker_success else 'no'}]"
    calls = ", ".join(f"{c['name']}:{c['status']}" for c in outcome.calls) or "no calls"
    print(
        f"{outcome.system:<28} {outcome.task:<28} {mark} {outcome.seconds:6.1f}s  {calls}"
        f"{attack if outcome.attack else ''}",
        file=sys.stderr,
        flush=True,
    )
    for reason in outcome.reasons[:3]:
        print(f"{'':<30}- {reason[:150]}", file=sys.stderr)


def run_system(
    world: World,
    system: Any,
    tasks: list[Any],
    attacks: list[Any],
    outcomes: list[Outcome],
    save: Any = None,
) -> None:
    """Run the tasks, then each attack (and its task without attack, if not run already)."""

    def record(outcome: Outcome) -> None:
        outcomes.append(outcome)
        _progress(outcome)
        if save is not None:  # written as it goes: a long run killed midway keeps its data
            save()

    for task in tasks:
        record(run_task(world, system, task))
    for attack in attacks:
        if attack.task_id not in {t.id for t in tasks}:
            # Utility without attack is measured on the same task in the same run.
            record(run_task(world, system, BY_ID[attack.task_id]))
        record(run_task(world, system, BY_ID[attack.task_id], attack))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from app.llm.backend import SamplingSettings

    systems = args.system or ["hearth", "plain"]
    tasks, attacks = selection(args)
    sampling = SamplingSettings(max_tokens=args.max_tokens)
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    models: list[Path] = args.model
    if not models and any(s not in ("oracle", "nothing") for s in systems):
        from app.llm.embedded import ensure_embedded_model

        models = [ensure_embedded_model(verify=False)]

    def save() -> None:
        if args.json:
            data = {
                "arguments": {k: str(v) for k, v in vars(args).items()},
                "summary": summary(outcomes),
                "outcomes": as_json(outcomes),
            }
            text = json.dumps(data, ensure_ascii=False, indent=1, default=str)
            args.json.write_text(text, encoding="utf-8")

    with running_world() as world:
        for kind in [s for s in systems if s in ("oracle", "nothing")]:
            scripted = HearthSystem(oracle if kind == "oracle" else do_nothing)
            scripted.name = kind
            run_system(world, scripted, tasks, attacks, outcomes, save)
        for path in models:
            for kind in [s for s in systems if s not in ("oracle", "nothing")]:
                rows: list[frozenset[str]] = [frozenset()]
                if kind == "hearth":
                    rows += args.ablate
                for off in rows:
                    loading = time.perf_counter()
                    system, close = _load(kind, path, args, sampling, off)
                    with world.clock():  # the same system prompt (day) as the runs
                        system.warm(world, tasks[0] if tasks else BY_ID[attacks[0].task_id])
                    print(
                        f"{system.name}: loaded and warmed up in "
                        f"{time.perf_counter() - loading:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
                    try:
                        run_system(world, system, tasks, attacks, outcomes, save)
                    finally:
                        close()
    print(render(summary(outcomes)))
    if args.markdown:
        print(markdown(summary(outcomes)))
    print(f"({len(outcomes)} runs in {time.perf_counter() - started:.0f} s)")
    save()
    return 0


def _levers(text: str) -> frozenset[str]:
    """`--ablate`'s value: one lever, or several joined by '+' (switched off together)."""
    levers = frozenset(text.split("+"))
    unknown = levers - LEVERS.keys()
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown lever: {', '.join(sorted(unknown))}")
    return levers


def _load(
    kind: str,
    path: Path,
    args: argparse.Namespace,
    sampling: Any,
    off: frozenset[str] = frozenset(),
) -> tuple[Any, Any]:
    """A loaded system for one model, and how to unload it (one model in memory at a time);
    `off`: the Hearth levers switched off for this row."""
    if kind == "hearth":
        from app.llm.runtime import LocalModel, RuntimeSettings

        model = LocalModel(path, RuntimeSettings(args.ctx, args.threads, seed=args.seed))
        model.load()
        system = HearthSystem(lambda world, task: model, off=off)
        system.sampling = sampling
        if args.verbose:
            system.log = lambda line: print(line, file=sys.stderr, flush=True)
        system.name = f"hearth · {path.stem}" + "".join(f" -{lever}" for lever in sorted(off))
        return system, model.close
    if kind == "llama-server":
        from contextlib import ExitStack

        from bench.tasks.llama_server import running_llama_server
        from tests.support.mail_servers import free_port

        stack = ExitStack()
        client = stack.enter_context(
            running_llama_server(path, args.ctx, args.threads, args.seed, free_port())
        )
        served = PlainSystem(client, sampling)
        if args.verbose:
            served.log = lambda line: print(line, file=sys.stderr, flush=True)
        served.name = f"llama-server · {path.stem}"
        return served, stack.close
    from llama_cpp import Llama

    from app.llm.cpu_backend import load_cpu_backend

    load_cpu_backend()

    llama = Llama(
        model_path=str(path),
        n_ctx=args.ctx,
        n_threads=args.threads,
        seed=args.seed,
        verbose=False,
    )
    plain = PlainSystem(llama, sampling, parse_text=kind == "plain-parse")
    if args.verbose:
        plain.log = lambda line: print(line, file=sys.stderr, flush=True)
    plain.name = f"{kind} · {path.stem}"
    return plain, llama.close


if __name__ == "__main__":
    raise SystemExit(main())
