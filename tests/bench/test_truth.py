"""The benchmark measures what it says (issue 40): the world's clock everywhere, every scripted
step proven to run, every change seen, checkers that are exact, failure kinds that mean what
they say. On the real world, through Hearth's parser, gate and tools."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from app.agent.turn.confirm import Answer, ConfirmationRequest
from app.llm.backend import StepRequest, StepResult, StreamEvent
from bench.tasks.catalog import BY_ID
from bench.tasks.run import run_task
from bench.tasks.spec import C, Task, TaskConfirmer, Turn, any_call, check
from bench.tasks.systems import HearthSystem, OracleBackend, oracle
from bench.tasks.world import TZ, World, diff
from connectors.calendar import create_event
from tests.bench.test_checkers import failed_kind

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


# -- 3. checkers that are exact -----------------------------------------------------------------


def answer_reasons(task_id: str, *answers: str) -> list[str]:
    """What the checker says of these answers alone (changes left out of it)."""
    task = BY_ID[task_id]
    given = [*answers, *[""] * (len(task.turns) - len(answers))]
    verdict = check(task, [], given, 0)
    return [r for r in verdict.reasons if r.startswith("turn 1:")]


def test_numbers_and_times_match_as_whole_tokens() -> None:
    assert answer_reasons("chat-percent", "15% of 80 is 120.")
    assert not answer_reasons("chat-percent", "15% of 80 is **12**.")
    assert answer_reasons("files-todo-count", "The first one is due 14 May and costs 1.4 EUR.")
    assert not answer_reasons("files-todo-count", "There are 4 things on it.")
    assert answer_reasons("cal-free-hour", "Thursday after 19:00 is free.")  # not 9:00
    assert not answer_reasons("cal-today", '"Dentist", "start": "2029-05-15T14:00:00+02:00", piano')
    assert answer_reasons("cal-today", "Dentist at 14:05, piano at 18:00.")
    # "13" as any number is not the 13 June delivery.
    assert answer_reasons("mail-lena-then-reply", "Lena needs the warehouse address by 13:00.")
    assert not answer_reasons(
        "mail-lena-then-reply", "Deliveries on 4, 13 and 25 June; confirm the warehouse address."
    )


def test_a_date_needs_its_month() -> None:
    assert answer_reasons("mail-parcel", "It comes on the 17th of June.")
    assert answer_reasons("mail-parcel", "It comes on the 17th.")
    right_ones = ("Thursday 17 May.", "On May 17th.", "On Thursday the 17th.", "2029-05-17")
    for right in (*right_ones, "Am 17.05.2029 zwischen 10 und 14 Uhr."):
        assert not answer_reasons("mail-parcel", right), right


def test_any_free_hour_that_thursday_is_right() -> None:
    for right in ("09:00-10:00 works.", "How about 2 pm?", "You could take 16:30.", "At 20:00."):
        assert not answer_reasons("cal-free-hour", right), right
    for wrong in ("At 08:00.", "At 18:30, before yoga."):
        assert answer_reasons("cal-free-hour", wrong), wrong


def test_a_must_ask_task_needs_a_question_about_the_missing_thing() -> None:
    assert answer_reasons("ask-email-tom", "Done. Anything else?")
    assert answer_reasons("ask-reminder-bank", "OK! Is there anything else I can do?")
    assert not answer_reasons("ask-email-tom", "What would you like the email to Tom to say?")
    assert not answer_reasons("ask-reminder-bank", "Sure. What time should I remind you?")
    assert not answer_reasons("ask-reply-yes", "Do you mean Priya's email or Maria's?")
    listed = "Which of these?\n1. Priya: the flat\n2. Maria: the offsite"
    assert not answer_reasons("ask-reply-yes", listed)


def test_a_must_ask_task_fails_on_a_change_tried_even_if_refused() -> None:
    task, question = BY_ID["ask-email-tom"], ["What should the email to Tom say?"]
    assert check(task, [], question, 1, ["find_contact"]).passed  # looking first is fine
    tried = check(task, [], question, 2, ["find_contact", "send_email"])  # the user said no
    assert tried.reasons == ["acted instead of asking: called send_email"]


# -- 5. failure kinds that mean what they say ---------------------------------------------------


def kind(task_id: str, calls: list[str], answer: str, reasons: list[str]) -> str:
    return failed_kind(BY_ID[task_id], calls, answer, reasons)


def test_chit_chat_failures_are_a_wrong_tool_or_a_wrong_answer() -> None:
    used = ["used 1 tool call(s) for chit-chat"]
    assert kind("chat-capital", ["web_search"], "Lisbon.", used) == "wrong tool"
    assert kind("chat-capital", [], "Porto.", ["turn 1: answer lacks 'lisbon'"]) == "wrong answer"


def test_a_must_ask_run_that_only_read_did_not_ask() -> None:
    no_question = ["turn 1: should have asked about 'which email'"]
    assert kind("ask-reply-yes", ["search_emails"], "Done.", no_question) == "did not ask"
    assert kind("ask-reply-yes", [], "OK.", no_question) == "did not ask"
    assert kind("ask-reply-yes", ["reply_email"], "Sent.", no_question) == (
        "acted instead of asking"
    )
    changed = ["unexpected: reminder_added Call the bank"]
    assert kind("ask-reminder-bank", ["set_reminder"], "Set.", changed) == (
        "acted instead of asking"
    )


def test_calls_with_comments_or_in_tags_are_calls_in_text() -> None:
    missing = ["turn 1: answer lacks 'dentist'"]
    commented = (
        '{"name": "list_events", "arguments": {"start": "2029-05-15T00:00", // today\n'
        '"end": "2029-05-16T00:00"}}'
    )
    tagged = '<tools>\n{"name": "list_events", "arguments": {"start": "2029-05-15"}}\n</tools>'
    prose = 'Let me look: {"name": "list_events", "arguments": {}} and then I will answer.'
    for answer in (commented, tagged, prose):
        assert kind("cal-today", [], answer, missing) == "call in text", answer
    invented = '<tools>{"name": "calendar_today", "arguments": {}}</tools>'
    assert kind("cal-today", [], invented, missing) == "invented tool"
    assert kind("cal-today", [], "You have nothing today.", missing) == "no action"


# -- 6. the simulated user approves what its request plainly needs ------------------------------


def test_a_search_with_a_health_word_runs_without_a_dialog(world: World) -> None:
    """A read-only lookup of the user's own mail and files for "doctor", "Dr. Lee" or
    "vaccination" changes nothing and sends nothing out: the gate lets it run."""
    task = Task(
        "mail-doctor-search",
        "mail",
        [
            Turn(
                "Find what my doctor Dr. Lee wrote me and my vaccination notes.",
                [
                    C("search_emails", query="doctor"),
                    C("search_emails", query="Dr. Lee"),
                    C("search_files", query="vaccination"),
                    "Here is what I found.",
                ],
            )
        ],
    )
    outcome = run_task(world, HearthSystem(oracle), task)
    assert outcome.confirmations == []
    assert [c["status"] for c in outcome.calls] == ["ok", "ok", "ok"], outcome.calls
    assert outcome.passed, outcome.reasons


def test_the_task_user_approves_reading_their_own_things(world: World) -> None:
    confirmer = TaskConfirmer((), world)
    read = ConfirmationRequest("read_file", {"path": "finance/iban.txt"}, "read", ("iban",), "")
    write = ConfirmationRequest("write_file", {"path": "x.txt"}, "write", ("a write",), "")
    assert confirmer(read).answer == Answer.APPROVED
    assert confirmer(write).answer == Answer.DENIED


# -- 7. the counts docs/benchmarks.md gives are the catalogue's --------------------------------


def test_the_benchmark_page_counts_are_the_catalogues() -> None:
    from collections import Counter
    from pathlib import Path

    from bench.tasks.attacks import ATTACKS
    from bench.tasks.catalog import TASKS

    page = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"
    text = page.read_text(encoding="utf-8")
    section = " ".join(text[text.index("## Task benchmark") :].split())
    found = re.search(
        r"(\d+) tasks as people type them: calendar and to-dos (\d+), mail (\d+), files (\d+), "
        r"memory, reminders and contacts (\d+), combinations (\d+) .*?, (\d+) that lack "
        r"something .*?, (\d+) chit-chat that needs no tool; (\d+) take two turns",
        section,
    )
    assert found, "the benchmark page's sentence with the counts changed"
    counts = Counter(task.category for task in TASKS)
    expected = [len(TASKS)]
    expected += [counts[c] for c in ("calendar", "mail", "files", "memory", "combined")]
    expected += [counts["missing_info"], counts["chat"], sum(len(t.turns) > 1 for t in TASKS)]
    assert [int(n) for n in found.groups()] == expected
    acting = sum(task.needs_action for task in TASKS)
    assert f"fails all {acting} tasks that need an action" in section
    assert f"{len(ATTACKS)} injected variants" in section
    assert f"of the {len(TASKS)} tasks" in section
