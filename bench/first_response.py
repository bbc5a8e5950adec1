"""How soon a user sees something after pressing Enter, on the real agent (issue #35's latency
goal): the first words of a chat reply, and the confirmation dialog of a one-call request (or,
for one that needs no dialog, such as an event the user typed, its whole answer).

    python -m bench.first_response --model PATH.gguf [--threads 2] [--intents on|off|both]

The agent is built as the task benchmark builds it (the world's servers, accounts, folder and
database; the gate and its dialogs) and warmed up as the app warms it after a model loads.
Each request runs in a new conversation. The dialog is refused, so nothing changes. The
baseline, measured in the same run on the same model: a bare prompt ("Hi", no system prompt,
no tools) evaluated from an empty cache up to its first token. Ratios, not seconds, compare
machines.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from typing import Any

from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest
from app.agent.turn.loop import AgentEvent
from app.llm.backend import SamplingSettings, StepRequest
from app.llm.runtime import LocalModel, RuntimeSettings
from bench.tasks.spec import TaskConfirmer
from bench.tasks.systems import HearthSystem
from bench.tasks.world import World, running_world

# Chat: answered with words and no tool. One call: a request whose single change asks first.
CHAT = ["Thanks, that's all!", "Danke dir!", "Bonjour !", "¿Qué es un eclipse?"]
ONE_CALL = [
    "Email Tom that I'm running ten minutes late",
    "Schick Sophie eine Mail, dass ich später komme",
    "Put a haircut in my calendar on Friday at 4pm",
    "Ajoute un déjeuner avec Priya jeudi à midi",
]


def bare_first_token(model: LocalModel) -> float:
    """Seconds from an empty cache to the first token of a prompt with nothing in it."""
    assert model.cache is not None
    model.llama.reset()
    model.cache.checkpoints.clear()
    request = StepRequest(
        messages=[{"role": "user", "content": "Hi"}],
        sampling=SamplingSettings(temperature=0.0, top_k=1, max_tokens=1),
    )
    started = time.perf_counter()
    model.step(request, lambda _event: None, threading.Event())
    return time.perf_counter() - started


# The systems build an agent for a task; these requests belong to none.
_NO_TASK: Any = None


def one_request(system: HearthSystem, world: World, kind: str, text: str) -> tuple[str, float]:
    """What the user saw first and when: the first words ("chat"), the dialog ("dialog"), or
    for a one-call request done without a dialog its whole answer ("answer", or "asked" when
    it was a question back)."""
    started = time.perf_counter()
    first: list[float] = []

    def refuse(request: ConfirmationRequest) -> ConfirmationAnswer:
        first.append(time.perf_counter() - started)
        return ConfirmationAnswer.deny()

    def on_event(event: AgentEvent) -> None:
        if kind == "chat" and event.kind == "text" and event.text.strip():
            first.append(time.perf_counter() - started)

    confirmer: Any = refuse if kind == "dialog" else TaskConfirmer((), world)
    agent = system._agent(world, _NO_TASK, confirmer)
    report = agent.run_turn(
        system._conversation(), text, on_event=on_event, cancel=threading.Event()
    )
    seen, took = kind, first[0] if first else float("nan")
    if kind == "dialog" and not first:
        seen = "asked" if report.stop_reason == "asked" else "answer"
        took = time.perf_counter() - started
    print(
        f"{seen:6} {took:6.2f} s  {text!r} → {[c.name for c in report.calls]} "
        f"{report.answer[:60]!r}",
        flush=True,
    )
    return seen, took


KINDS = ("chat", "dialog", "answer", "asked")


def measure(model: LocalModel, world: World, intents: bool) -> dict[str, list[float]]:
    """Seconds to what the user saw first, by what it was (`KINDS`), per request."""
    off = frozenset() if intents else frozenset({"intents"})
    system = HearthSystem(lambda _world, _task: model, off=off)
    seen: dict[str, list[float]] = {kind: [] for kind in KINDS}
    print("intents" if intents else "loop", flush=True)
    with world.clock():
        system.warm(world, _NO_TASK)
        for kind, requests in (("chat", CHAT), ("dialog", ONE_CALL)):
            for text in requests:
                what, took = one_request(system, world, kind, text)
                seen[what].append(took)
                world.reset()
    return seen


def cell(values: list[float], bare: float, asked: int) -> str:
    """A table cell: the median and worst seconds of what came, as a ratio to `bare`."""
    came = [v for v in values if v == v]  # NaN: never came
    if not came:
        return f"none of {asked}"
    median = statistics.median(came)
    return (
        f"{median:.2f} s median, {max(came):.2f} s worst ({median / bare:.1f}× bare; "
        f"{len(came)} of {asked})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--intents", choices=("on", "off", "both"), default="both")
    args = parser.parse_args(argv)
    model = LocalModel(args.model, RuntimeSettings(n_ctx=8192, n_threads=args.threads, seed=1))
    model.load()
    bare = statistics.median(bare_first_token(model) for _ in range(3))
    rows = [True, False] if args.intents == "both" else [args.intents == "on"]
    results = {}
    with running_world() as world:
        for intents in rows:
            results[intents] = measure(model, world, intents)
    print(f"\nbare prompt to its first token: {bare:.2f} s (median of 3, from an empty cache)")
    print(
        "| row | first words of a chat reply | the dialog of a one-call request |"
        " a one-call request done without a dialog: its answer | … asked a question |"
    )
    print("|---|---|---|---|---|")
    for intents, seen in results.items():
        chats, calls = len(CHAT), len(ONE_CALL)
        cells = [cell(seen["chat"], bare, chats)]
        cells += [cell(seen[kind], bare, calls) for kind in ("dialog", "answer", "asked")]
        print(f"| {'intents' if intents else 'loop'} | {' | '.join(cells)} |")
    model.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
