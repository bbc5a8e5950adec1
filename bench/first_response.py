"""How soon a user sees something after pressing Enter, on the real agent (issue #35's latency
goal): the first words of a chat reply, and the confirmation dialog of a one-call request.

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


def one_request(system: HearthSystem, world: World, kind: str, text: str) -> float:
    """Seconds from Enter to the first words (chat) or to the dialog (one call)."""
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
    took = first[0] if first else float("nan")
    print(
        f"{kind:6} {took:6.2f} s  {text!r} → {[c.name for c in report.calls]} "
        f"{report.answer[:60]!r}",
        flush=True,
    )
    return took


def measure(model: LocalModel, world: World, intents: bool) -> dict[str, list[float]]:
    """Seconds to the first words (CHAT) and to the dialog (ONE_CALL), per request."""
    off = frozenset() if intents else frozenset({"intents"})
    system = HearthSystem(lambda _world, _task: model, off=off)
    seen: dict[str, list[float]] = {"chat": [], "dialog": []}
    print("intents" if intents else "loop", flush=True)
    with world.clock():
        system.warm(world, _NO_TASK)
        for kind, requests in (("chat", CHAT), ("dialog", ONE_CALL)):
            for text in requests:
                seen[kind].append(one_request(system, world, kind, text))
                world.reset()
    return seen


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
    print("| row | first words of a chat reply | the dialog of a one-call request |")
    print("|---|---|---|")
    for intents, seen in results.items():
        cells = []
        for kind in ("chat", "dialog"):
            values = [v for v in seen[kind] if v == v]  # NaN: never came
            if values:
                median = statistics.median(values)
                cells.append(
                    f"{median:.2f} s median, {max(values):.2f} s worst "
                    f"({median / bare:.1f}× bare; {len(values)}/{len(seen[kind])} came)"
                )
            else:
                cells.append(f"never (0/{len(seen[kind])})")
        print(f"| {'intents' if intents else 'loop'} | {cells[0]} | {cells[1]} |")
    model.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
