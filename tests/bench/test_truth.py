"""The benchmark measures what it says (issue 40): the world's clock everywhere, every scripted
step proven to run, every change seen, checkers that are exact, failure kinds that mean what
they say. On the real world, through Hearth's parser, gate and tools."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from app.llm.backend import StepRequest, StepResult, StreamEvent
from bench.tasks.run import run_task
from bench.tasks.catalog import BY_ID
from bench.tasks.spec import C, Task, Turn, any_call, check
from bench.tasks.systems import HearthSystem, OracleBackend, oracle
from bench.tasks.world import TZ, World, diff
from connectors.calendar import create_event

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


# -- 4. every scripted step runs as written -------------------------------------------------


def test_an_oracle_calling_a_tool_the_request_was_not_offered_fails(world: World) -> None:
    """A joke is offered no calendar tools: the scripted delete cannot run, and the run says
    so instead of dropping the call and passing on the next step."""
    task = Task(
        "chat-joke-delete",
        "chat",
        [Turn("Tell me a short joke.", [C("delete_event", event_id="personal/haircut"), "Ha."])],
    )
    outcome = run_task(world, HearthSystem(oracle), task)
    assert not outcome.passed and outcome.failure == "crashed"
    assert "OracleStepFailed" in outcome.error and "did not offer" in outcome.error


def test_an_oracle_step_left_unplayed_fails(world: World) -> None:
    """A turn that ends before its script does (an answer written too early) fails too."""
    task = Task(
        "mem-partner-early",
        "memory",
        [Turn("What's my partner's name?", ["Sam.", C("recall", query="partner")])],
    )
    outcome = run_task(world, HearthSystem(oracle), task)
    assert not outcome.passed and "never ran" in outcome.error, outcome.error


# -- 2. every change is seen and undone ---------------------------------------------------------


def test_an_event_far_from_the_world_is_seen_and_undone(world: World) -> None:
    """A stray event in December 2026 (outside the three seeded weeks' window) is a change
    the checker sees, and the reset between tasks removes it."""
    start = world.reset()
    create_event(
        world.calendar_account,
        "Stray",
        datetime(2026, 12, 3, 10, 0, tzinfo=TZ),
        datetime(2026, 12, 3, 11, 0, tzinfo=TZ),
        tz=TZ,
    )
    changes = diff(start, world.snapshot())
    assert [(c.kind, c.after.title) for c in changes] == [("event_added", "Stray")]
    verdict = check(BY_ID["chat-thanks"], changes, ["You're welcome!"], 0)
    assert not verdict.passed and verdict.reasons[0].startswith("unexpected: event_added")
    assert world.reset() == world.seed_state
    assert all(view.title != "Stray" for _, view in world.snapshot().event_objects.values())
