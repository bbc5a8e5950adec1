"""The benchmark measures what it says (issue 40): the world's clock everywhere, every scripted
step proven to run, every change seen, checkers that are exact, failure kinds that mean what
they say. On the real world, through Hearth's parser, gate and tools."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from app.llm.backend import StepRequest, StepResult, StreamEvent
from bench.tasks.run import run_task
from bench.tasks.spec import C, Task, Turn, any_call
from bench.tasks.systems import HearthSystem, OracleBackend, oracle
from bench.tasks.world import World

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")


class Listening(OracleBackend):
    """The oracle, keeping every request (what the model would have read)."""

    def __init__(self, world: World, steps: list[Any]) -> None:
        super().__init__(world, steps)
        self.requests: list[StepRequest] = []

    def step(
        self,
        request: StepRequest,
        on_event: Callable[[StreamEvent], None],
        cancel: threading.Event,
    ) -> StepResult:
        self.requests.append(request)
        return super().step(request, on_event, cancel)


def scripted(task: Task) -> tuple[HearthSystem, list[Listening]]:
    made: list[Listening] = []

    def backend(world: World, _task: Task) -> Listening:
        made.append(Listening(world, [s for turn in task.turns for s in turn.oracle]))
        return made[-1]

    return HearthSystem(backend), made


# -- 1. the world's clock ---------------------------------------------------------------------


def test_a_reminder_before_the_worlds_now_is_refused(world: World) -> None:
    """14 May 2029 is in the past in the world (15 May, 09:30), though not on the machine."""
    task = Task(
        "rem-yesterday",
        "memory",
        [
            Turn(
                "Remind me to call Mum yesterday at 18:00.",
                [
                    C("set_reminder", text="Call Mum", at="2029-05-14T18:00"),
                    "That time has passed.",
                ],
            )
        ],
        allow=[any_call("set_reminder")],
    )
    start = world.reset()
    outcome = run_task(world, HearthSystem(oracle), task)
    assert [c["status"] for c in outcome.calls] == ["error"], outcome.calls
    assert world.snapshot().reminders == start.reminders
    assert outcome.passed, outcome.reasons


def test_event_id_hints_look_around_the_worlds_day(world: World) -> None:
    """ "Dentist" where an event id belongs gets the dentist's id (an event of May 2029, far
    from the machine's date) before any dialog."""
    task = Task(
        "cal-dentist-by-name",
        "calendar",
        [
            Turn(
                "Move my dentist appointment to Friday at 15:00.",
                [
                    C(
                        "update_event",
                        event_id="Dentist",
                        start="2029-05-18T15:00",
                        end="2029-05-18T16:00",
                    ),
                    "OK.",
                ],
            )
        ],
    )
    system, made = scripted(task)
    outcome = run_task(world, system, task)
    assert [c["status"] for c in outcome.calls] == ["error"], outcome.calls
    assert outcome.confirmations == []  # the hint came before any dialog
    hint = str(made[0].requests[1].messages[-1].get("content"))
    assert world.event_id("dentist") in hint, hint
