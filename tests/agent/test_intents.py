"""Intents end to end: a scripted model picks the intent and copies slots, code resolves the
times and the event against a real Radicale server, and every call passes the same gate.

The scripted backend stands in for a model that recognised the request (deterministic); the
real-model tests are in tests/llm/test_intents_real.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from app import clock
from app.agent.intents.router import Instead, IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest
from app.agent.turn.loop import Agent
from app.llm.scripted import ScriptedBackend
from connectors.calendar import (
    CalendarAccount,
    create_event,
    delete_event,
    list_events,
    parse_event_id,
)
from tests.scripting import call
from tests.support.radicale_server import (
    RadicaleServer,
    module_server,
)

PASSWORD = "alicepw"
# Tuesday 15 May 2029, 09:30, in this machine's zone (the calendar tools read local times).
NOW = datetime(2029, 5, 15, 9, 30).astimezone()
TZ = NOW.tzinfo


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2029, 5, day, hour, minute).astimezone()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RadicaleServer]:
    yield from module_server(tmp_path_factory, "alice", PASSWORD, "Personal")


@pytest.fixture
def account(server: RadicaleServer, tmp_path: Path) -> Iterator[CalendarAccount]:
    account = CalendarAccount(server.url, "alice", PASSWORD, name="Home calendar")
    with clock.frozen_at(NOW):
        yield account
    # One id of each event: deleting a repeating event's occurrence deletes its series.
    for event_id in {parse_event_id(e.event_id).uid: e.event_id for e in _all(account)}.values():
        delete_event(account, event_id, tz=TZ)


def _all(account: CalendarAccount) -> list:
    return list_events(account, at(1, 0), at(1, 0) + timedelta(days=90), tz=TZ)


class Answers:
    """A user who answers every dialog the same way, and remembers what they were shown."""

    def __init__(self, approve: bool = True) -> None:
        self.approve = approve
        self.seen: list[ConfirmationRequest] = []

    def __call__(self, request: ConfirmationRequest) -> ConfirmationAnswer:
        self.seen.append(request)
        return ConfirmationAnswer.approve() if self.approve else ConfirmationAnswer.deny()


def _agent(account: CalendarAccount, turns: list[str], answers: Answers | None = None) -> Agent:
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
    agent = Agent(backend, build_registry(calendar=account), confirmer=answers or Answers())
    agent.front = IntentRouter()
    return agent


@pytest.mark.parametrize(
    ("location", "kept"), [("my photos folder", None), ("Café Rosa", "Café Rosa")]
)
def test_a_new_events_place_the_request_does_not_say_is_left_out(
    account: CalendarAccount, location: str, kept: str | None
) -> None:
    """ "my photos folder" for "… the photo walk on the 27th …" is the model's: no place; one
    the request names is the event's."""
    agent = _agent(account, [call("add_event", title="photo walk", when="the 27th at 10",
                                  location=location)])  # fmt: skip
    request = "put the photo walk on the 27th at 10 in my calendar"
    agent.run_turn(Conversation(), f"{request}, at Café Rosa" if kept else request)
    [event] = _all(account)
    assert (event.location or None) == kept


def test_a_new_event_on_the_tuesday_after_next_is_computed_by_code(
    account: CalendarAccount,
) -> None:
    agent = _agent(
        account,
        [call("add_event", title="dinner with Sam", when="the Tuesday after next at 7pm")],
    )
    report = agent.run_turn(
        Conversation(), "Pencil in dinner with Sam the Tuesday after next at 7pm"
    )
    [event] = _all(account)
    assert (event.title, event.start, event.end) == ("Dinner with Sam", at(29, 19), at(29, 20))
    assert [c.name for c in report.calls] == ["create_event"]
    assert "29 May" in report.answer
    # The recognition step offered intents, not tools, and had to call one.
    first = agent.backend.requests[0]  # type: ignore[attr-defined]
    assert first.tool_choice == "required"
    assert "add_event" in {t.name for t in first.tools}
    assert "create_event" not in {t.name for t in first.tools}


def test_shifting_tomorrows_one_to_one_finds_the_event_and_keeps_its_length(
    account: CalendarAccount,
) -> None:
    create_event(account, "1:1 with Sophie", at(16, 11), at(16, 11, 45), tz=TZ)
    create_event(account, "Stand-up", at(16, 9), at(16, 9, 15), tz=TZ)
    answers = Answers()
    agent = _agent(
        account,
        [call("move_event", event="tomorrow's 1:1 with Sophie", shift="back by 30 minutes")],
        answers,
    )
    report = agent.run_turn(Conversation(), "push tomorrow's 1:1 with Sophie back by 30 minutes")
    moved = {e.title: (e.start, e.end) for e in _all(account)}
    assert moved["1:1 with Sophie"] == (at(16, 11, 30), at(16, 12, 15))
    assert moved["Stand-up"] == (at(16, 9), at(16, 9, 15))
    assert [c.name for c in report.calls] == ["list_events", "update_event"]
    assert report.stop_reason == "answered"


def test_a_missing_time_is_asked_for_and_the_answer_fills_it_next_turn(
    account: CalendarAccount,
) -> None:
    agent = _agent(account, [call("add_event", title="dentist", when="Friday")])
    conversation = Conversation()
    first = agent.run_turn(conversation, "put the dentist in my calendar on Friday")
    assert first.stop_reason == "asked"
    assert "time" in first.answer and first.calls == []
    assert _all(account) == []
    second = agent.run_turn(conversation, "at 10")
    [event] = _all(account)
    assert (event.title, event.start) == ("Dentist", at(18, 10))
    assert second.stop_reason == "answered"


@pytest.mark.parametrize(
    ("answer", "new_request"),
    [
        ("oh right - let's say the thursday, 3 in the afternoon. an hour should do it", False),
        ("ok dann am Donnerstag, so gegen drei Uhr nachmittags, eine Stunde reicht", False),
        # a request of its own, with a time in it: recognised afresh
        ("actually can you remind me on thursday at 3 in the afternoon to buy beans?", True),
    ],
)
def test_a_time_asked_for_and_answered_at_length_fills_it(
    account: CalendarAccount, answer: str, new_request: bool
) -> None:
    """ "next week" asked the time; the long answer says the day of that week, the time and
    the length: the event is made of both turns (Thursday of next week, 15:00 for an hour)."""
    turns = [call("add_event", title="coffee with Jamie", when="next week"),
             call("set_reminder", what="buy beans", when="thursday at 3")]  # fmt: skip
    agent = _agent(account, turns)
    conversation = Conversation()
    first = agent.run_turn(
        conversation,
        "my old school friend jamie is over in berlin for a conference next week and wants to "
        "grab a coffee. can u put that in my calendar",
    )
    assert first.stop_reason == "asked" and _all(account) == []
    second = agent.run_turn(conversation, answer)
    if new_request:
        last = agent.front.last  # type: ignore[union-attr]
        assert _all(account) == [] and last is not None and last.intent.name == "set_reminder"
        assert second.answer  # (no reminders kept in this agent: it says so)
        return
    [event] = _all(account)
    assert (event.start, event.end) == (at(24, 15), at(24, 16))


def test_two_different_matches_are_a_numbered_choice_and_the_gate_still_asks(
    account: CalendarAccount,
) -> None:
    create_event(account, "Team meeting", at(17, 10), at(17, 11), tz=TZ)
    create_event(account, "Budget meeting", at(18, 14), at(18, 15), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("cancel_event", event="meeting")], answers)
    conversation = Conversation()
    first = agent.run_turn(conversation, "cancel the meeting")
    assert first.stop_reason == "asked"
    assert "1." in first.answer and "2." in first.answer
    assert len(_all(account)) == 2 and answers.seen == []
    listed = first.answer.splitlines()
    second_choice = next(line for line in listed if line.startswith("2."))
    agent.run_turn(conversation, "the second one")
    left = [e.title for e in _all(account)]
    assert len(left) == 1 and left[0] not in second_choice
    # Deleting is destructive: the dialog showed exactly the call that ran.
    assert [r.tool for r in answers.seen] == ["delete_event"]


def test_a_refused_dialog_changes_nothing_and_says_so(account: CalendarAccount) -> None:
    create_event(account, "Piano", at(15, 18), at(15, 19), tz=TZ)
    agent = _agent(account, [call("cancel_event", event="piano")], Answers(approve=False))
    report = agent.run_turn(Conversation(), "cancel piano tonight")
    assert [e.title for e in _all(account)] == ["Piano"]
    assert report.calls[-1].answer == "denied"
    assert "didn't" in report.answer


def test_slot_values_the_user_never_wrote_are_dropped_and_asked_for(
    account: CalendarAccount,
) -> None:
    # The model invented the day: the request names none, so the time is asked for.
    agent = _agent(account, [call("add_event", title="lunch with Tom", when="2029-05-18 13:00")])
    report = agent.run_turn(Conversation(), "add lunch with Tom")
    assert report.stop_reason == "asked" and report.calls == []
    assert agent.front is not None
    assert agent.front.last.dropped == {"when": "2029-05-18 13:00"}  # type: ignore[attr-defined]


def test_what_is_on_a_day_is_listed_by_code(account: CalendarAccount) -> None:
    create_event(account, "Dentist", at(15, 14), at(15, 15), location="Dr. Weber", tz=TZ)
    create_event(account, "Piano", at(15, 18), at(15, 19), tz=TZ)
    agent = _agent(account, [call("show_calendar", when="heute")])
    report = agent.run_turn(Conversation(), "Was habe ich heute?")
    assert "14:00–15:00 Dentist (Dr. Weber)" in report.answer
    assert "18:00–19:00 Piano" in report.answer


def test_chit_chat_is_answered_with_no_tool_offered(account: CalendarAccount) -> None:
    agent = _agent(account, [call("just_answer"), "Hello! How can I help?"])
    report = agent.run_turn(Conversation(), "hi there, how are you?")
    assert report.answer == "Hello! How can I help?" and report.calls == []
    assert agent.backend.requests[1].tool_choice == "none"  # type: ignore[attr-defined]


def test_something_else_goes_to_the_free_loop(account: CalendarAccount) -> None:
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ)
    agent = _agent(
        account,
        [
            call("something_else"),
            call("list_events", start="2029-05-15T00:00", end="2029-05-16T00:00"),
            "You have the dentist at 14:00.",
        ],
    )
    report = agent.run_turn(Conversation(), "Plan my week around the dentist")
    assert [c.name for c in report.calls] == ["list_events"]
    assert report.answer == "You have the dentist at 14:00."


def test_an_intent_passed_on_is_passed_on_once_then_the_loop_takes_the_turn(
    account: CalendarAccount,
) -> None:
    """Steps that find the request is another intent's run that intent with its slots
    filled anew; if that one passes it on again, the free loop takes the turn (no ping-pong)."""
    agent = _agent(
        account,
        [call("cancel_event", event="gym"), call("add_event", title="gym", when="at 7"),
         "I could not tell what to do."],
    )  # fmt: skip
    router = agent.front
    assert isinstance(router, IntentRouter)
    ran: list[str] = []

    def passes_on(to: str) -> Any:
        def steps(doing: object, slots: dict[str, str]) -> str:
            ran.append(slots.get("event") or slots.get("title", ""))
            raise Instead(to)

        return steps

    router.steps = {**router.steps, "cancel_event": passes_on("add_event"),
                    "add_event": passes_on("cancel_event")}  # fmt: skip
    report = agent.run_turn(Conversation(), "gym at 7")
    assert ran == ["gym", "gym"]  # each intent's steps once, with its own slots
    assert agent.backend.requests[1].only_call == "add_event"  # type: ignore[attr-defined]
    assert report.answer == "I could not tell what to do." and report.calls == []


def test_a_script_without_the_intents_flag_runs_the_loop_as_before(
    account: CalendarAccount,
) -> None:
    from app.agent.services.assembly import build_agent

    plain = ScriptedBackend.from_data({"format": "qwen3.5", "turns": ["Hello."]})
    assert build_agent(plain, database=None).front is None
    flagged = ScriptedBackend.from_data({"intents": True, "turns": ["Hello."]})
    assert isinstance(build_agent(flagged, database=None).front, IntentRouter)


def test_warming_up_prepares_the_intents_prompt_and_the_loops(account: CalendarAccount) -> None:
    """After a model loads, both prompts a turn may start with are evaluated ahead."""

    class Warming(ScriptedBackend):
        def __init__(self) -> None:
            super().__init__([], ScriptedBackend.from_data({"turns": []}).format)
            self.warmed: list[set[str]] = []

        def warm(self, request: Any, cancel: Any) -> int:
            self.warmed.append({tool.name for tool in request.tools})
            return 1

    backend = Warming()
    agent = Agent(backend, build_registry(calendar=account))
    agent.front = IntentRouter()
    assert agent.warm(Conversation(), threading.Event()) == 3
    # The intent's choice (worked examples, no tools), its slots (the intents as functions),
    # and the loop's prompt.
    choice, intents, loop = backend.warmed
    assert choice == set()
    assert {"add_event", "just_answer"} <= intents and "create_event" not in intents
    assert "list_events" in loop


def test_a_move_whose_new_time_the_model_left_out_reads_it_from_the_request(
    account: CalendarAccount,
) -> None:
    create_event(account, "Meeting mit Jonas", at(16, 10), at(16, 11), tz=TZ)
    agent = _agent(account, [call("move_event", event="Meeting mit Jonas")])
    agent.run_turn(Conversation(), "Verschieb das Meeting mit Jonas auf Donnerstag 14 Uhr")
    [event] = _all(account)
    assert (event.start, event.end) == (at(17, 14), at(17, 15))


def test_a_title_loses_the_day_the_model_copied_into_it(account: CalendarAccount) -> None:
    agent = _agent(
        account,
        [call("add_event", title="Zahnarzt am Freitag um 10 Uhr", when="am Freitag um 10 Uhr")],
    )
    agent.run_turn(Conversation(), "Trag Zahnarzt am Freitag um 10 Uhr ein")
    [event] = _all(account)
    assert (event.title, event.start) == ("Zahnarzt", at(18, 10))


def test_a_new_request_instead_of_the_answer_is_recognised_afresh(
    account: CalendarAccount,
) -> None:
    create_event(account, "Piano", at(15, 18), at(15, 19), tz=TZ)
    agent = _agent(
        account,
        [call("add_event", title="dentist", when="Friday"), call("show_calendar", when="today")],
    )
    conversation = Conversation()
    assert agent.run_turn(conversation, "dentist on Friday").stop_reason == "asked"
    report = agent.run_turn(conversation, "actually never mind that, what is on my calendar today?")
    assert "Piano" in report.answer
    assert [e.title for e in _all(account)] == ["Piano"]


def test_asking_when_one_event_is_answers_with_that_event(account: CalendarAccount) -> None:
    create_event(account, "Dentist", at(22, 14), at(22, 15), tz=TZ)
    create_event(account, "Piano", at(15, 18), at(15, 19), tz=TZ)
    agent = _agent(account, [call("show_calendar", when="", event="my dentist appointment")])
    report = agent.run_turn(Conversation(), "when is my dentist appointment?")
    assert "Dentist" in report.answer and "22 May" in report.answer
    assert "Piano" not in report.answer


def test_two_stage_recognition_offers_an_areas_intents_alone() -> None:
    from app.agent.intents.recognise import recognise

    backend = ScriptedBackend.from_data(
        {"intents": True, "turns": [call("calendar"), call("add_event", title="yoga", when="")]}
    )
    got = recognise(backend, "yoga on Sunday at 10", threading.Event(), staged=True)
    assert got is not None and got.intent.name == "add_event"
    first, second = backend.requests
    areas = {"chat", "calendar", "mail", "personal", "web", "files", "other"}
    assert {t.name for t in first.tools} == areas
    assert {t.name for t in second.tools} == {
        "show_calendar", "add_event", "move_event", "cancel_event", "find_free_time"
    }  # fmt: skip
    chat = ScriptedBackend.from_data({"intents": True, "turns": [call("chat")]})
    answered = recognise(chat, "thanks!", threading.Event(), staged=True)
    assert answered is not None and answered.intent.name == "just_answer"
    assert len(chat.requests) == 1  # an area of one intent without slots needs no second step


def test_a_thing_that_repeats_an_example_is_dropped_and_a_half_translated_one_kept() -> None:
    from app.agent.intents.recognise import recognise

    backend = ScriptedBackend.from_data(
        {
            "intents": True,
            "turns": [
                call("show_calendar", when="", event="lunch with Tom on Friday at 1pm"),
                call("move_event", event="the meeting with Jonas", to="Donnerstag 14 Uhr"),
            ],
        }
    )
    thanks = recognise(backend, "Thanks, that's all!", threading.Event())
    assert thanks is not None and "event" in thanks.dropped
    moved = recognise(backend, "Verschieb das Meeting mit Jonas auf Donnerstag 14 Uhr",
                      threading.Event())  # fmt: skip
    assert moved is not None and moved.slots["event"] == "the meeting with Jonas"


def test_a_shift_in_the_wrong_slot_and_a_time_left_out_of_the_slot_are_still_read(
    account: CalendarAccount,
) -> None:
    create_event(account, "1:1 with Sophie", at(16, 11), at(16, 11, 30), tz=TZ)
    agent = _agent(
        account,
        [
            call("move_event", event="1:1", to="back by half an hour"),
            call("add_event", title="Elternabend", when="am Donnerstag"),
        ],
    )
    agent.run_turn(Conversation(), "Can you push tomorrow's 1:1 back by half an hour?")
    agent.run_turn(Conversation(), "Trag mir den Elternabend am Donnerstag um 19 Uhr ein")
    found = {e.title: e.start for e in _all(account)}
    assert found == {"1:1 with Sophie": at(16, 11, 30), "Elternabend": at(17, 19)}
