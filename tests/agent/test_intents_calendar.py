"""The calendar intents that test_intents.py leaves out, end to end on a real Radicale on
127.0.0.1 with a scripted model: a free slot found around real events, an event moved or
cancelled after the user named it or chose it from a numbered list, each change through the
gate (deleting asks first), and the calendar on the server as the user meant it afterwards."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import icalendar
import pytest
from caldav.davclient import DAVClient

from app.agent.gate.policy import ContextState
from app.agent.intents.router import IntentRouter
from app.agent.intents.when import read_when
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.backend import StepRequest
from app.llm.scripted import ScriptedBackend
from connectors.calendar import CalendarAccount, add_task, create_event, events
from tests.agent.test_intents import (
    NOW,
    PASSWORD,
    TZ,
    Answers,
    _agent,
    _all,
    account,
    at,
    server,
)
from tests.scripting import call, through_english
from tests.support.radicale_server import RadicaleServer

__all__ = ["account", "server"]  # the Radicale server and calendar of test_intents.py


def _events(account: CalendarAccount) -> dict[str, tuple[object, object]]:
    return {e.title: (e.start, e.end) for e in _all(account)}


# -- add_event ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_", "when", "title", "start"),
    [("Trag mir für Samstag um 11 Uhr Schwimmen ein", "Samstag um 11 Uhr", "Schwimmen",
      at(19, 11)),
     ("book dinner with Priya friday 8pm", "friday 8pm", "Dinner with Priya", at(18, 20)),
     ("Mets-moi un déjeuner avec Priya jeudi à midi", "jeudi à midi", "Déjeuner avec Priya",
      at(17, 12)),
     ("Pon una cita con el dentista el viernes a las 10", "el viernes a las 10",
      "Cita con el dentista", at(18, 10))],
)  # fmt: skip
def test_a_title_that_is_the_whole_request_keeps_only_what_is_added(
    account: CalendarAccount, request_: str, when: str, title: str, start: datetime
) -> None:
    """The model copied the whole request as the title ("„Trag mir für Samstag um 11 Uhr
    Schwimmen ein“ eingetragen"): the words that ask, and the day and time, are not the
    event's name."""
    agent = _agent(account, [call("add_event", title=request_, when=when)])
    agent.run_turn(Conversation(), request_)
    assert {t: s for t, (s, _) in _events(account).items()} == {title: start}


def test_a_length_and_addresses_in_the_request_make_the_event_and_its_invitations(
    account: CalendarAccount,
) -> None:
    answers = Answers()
    # The model filled neither the length nor the people: code reads both from the request.
    agent = _agent(
        account, [call("add_event", title="Budget check", when="Thursday at 9")], answers
    )
    agent.run_turn(
        Conversation(),
        "Book a 45-minute slot named Budget check with Mia (mia@home.example) and "
        "leo@work.example on Thursday at 9",
    )
    [shown] = answers.seen
    assert shown.arguments["attendees"] == ["mia@home.example", "leo@work.example"]
    assert "Invitations will be sent to: mia@home.example, leo@work.example" in shown.preview
    [event] = _all(account)
    assert (event.title, event.start, event.end) == ("Budget check", at(17, 9), at(17, 9, 45))
    assert sorted(event.attendees) == ["leo@work.example", "mia@home.example"]


@pytest.mark.parametrize(
    ("request_", "copied", "start"),
    [
        (
            "sam and i are doing dinner at cafe rosa on the first monday of next month, 8pm. pop "
            "that in my calendar would you",
            "Monday 8pm",
            datetime(2029, 6, 4, 20, tzinfo=TZ),
        ),
        (
            "Trag mir Friseur am Freitag in einer Woche um 16 Uhr ein",
            "Freitag um 16 Uhr",
            at(25, 16),
        ),
    ],
)
def test_a_day_counted_from_a_month_or_a_day_is_the_events_day(
    account: CalendarAccount, request_: str, copied: str, start: datetime
) -> None:
    title = "dinner" if "dinner" in request_ else "Friseur"
    agent = _agent(account, [call("add_event", title=title, when=copied)])
    agent.run_turn(Conversation(), request_)
    [event] = _all(account)
    assert event.start == start


def test_a_time_in_so_many_hours_is_not_the_events_length(account: CalendarAccount) -> None:
    agent = _agent(account, [call("add_event", title="call the bank", when="in two hours")])
    agent.run_turn(Conversation(), "add call the bank in two hours")
    [event] = _all(account)
    assert event.end - event.start == timedelta(hours=1) and not event.attendees


@pytest.mark.parametrize(
    ("request_", "title", "expected"),
    [
        ("Mets-moi un déjeuner avec Priya jeudi à midi", "dejeuner", "Déjeuner avec Priya"),
        ("Add lunch with Tom and Ana on Thursday at 12", "lunch", "Lunch with Tom and Ana"),
        ("Trag Mittagessen mit Jonas Weber am Donnerstag um 12 ein", "Mittagessen",
         "Mittagessen mit Jonas Weber"),
        ("Pon una comida con Lena el jueves a las 12", "comida", "Comida con Lena"),
        # named already, or nobody named after it: the title as the model wrote it
        ("Add lunch with Tom on Thursday at 12", "Lunch with Tom", "Lunch with Tom"),
        ("Add lunch on Thursday at 12 with the team", "lunch", "Lunch"),
        ("Add lunch with Tom Thursday at 12", "lunch", "Lunch with Tom"),
        ("Add lunch with Tom, Anna joins too, Thursday at 12", "lunch", "Lunch with Tom"),
        ("Add lunch with Tom. Anna joins too. Thursday at 12", "lunch", "Lunch with Tom"),
    ],
)  # fmt: skip
def test_the_people_the_request_names_after_a_title_are_part_of_it(
    account: CalendarAccount, request_: str, title: str, expected: str
) -> None:
    """ "un déjeuner avec Priya" taken as "dejeuner": the event a person finds in the
    calendar says with whom, in the user's spelling."""
    agent = _agent(account, [call("add_event", title=title, when="Thursday at 12")])
    agent.run_turn(Conversation(), request_)
    assert _events(account) == {expected: (at(17, 12), at(17, 13))}


@pytest.mark.parametrize(
    ("request_", "translated", "expected", "start"),
    [("Apúntame en el calendario una cena con Tom el viernes 25 a las 20:30, porfa",
      "Tom's dinner on Friday", "Cena con Tom", at(25, 20, 30)),
     ("He quedado con Priya para ir al cine el miércoles de la semana que viene a las ocho "
      "de la tarde. ¿Me lo apuntas en el calendario?", "Movie night",
      "Quedado con Priya para ir al cine", at(23, 20)),
     ("Peux-tu noter dans mon agenda un dîner chez mes parents dimanche à 19h ?",
      "Dinner at my parents' house", "Dîner chez mes parents", at(20, 19)),
     ("Kannst du mir bitte für Donnerstag um 18 Uhr Yoga mit Lisa eintragen?",
      "Workout", "Yoga mit Lisa", at(17, 18))],
)  # fmt: skip
def test_a_title_the_model_translated_is_taken_from_the_users_own_words(
    account: CalendarAccount, request_: str, translated: str, expected: str, start: datetime
) -> None:
    """The model wrote the event's title in English ("Tom's dinner on Friday" for "una cena
    con Tom"): not the user's words, so dropped; the title is cut from the request (without
    the asking, the day and time), not asked for."""
    agent = _agent(account, [call("add_event", title=translated, when="Friday")])
    report = agent.run_turn(Conversation(), request_)
    assert report.stop_reason == "answered", report.answer
    assert {t: s for t, (s, _) in _events(account).items()} == {expected: start}


@pytest.mark.parametrize(
    ("answer", "end"),
    [("oh right - it starts at quarter past nine in the evening and runs for two hours",
      at(19, 23, 15)),
     ("um 21:15, dauert zwei Stunden", at(19, 23, 15)),
     ("à 21h15", at(19, 22, 15))],
)  # fmt: skip
def test_a_time_asked_for_and_told_with_a_length_makes_the_events_end(
    account: CalendarAccount, answer: str, end: datetime
) -> None:
    """Asked the time, the answer says how long too ("… and runs for two hours"): the event
    lasts that long; a time alone ("à 21h15") is no length of 21 hours."""
    agent = _agent(
        account,
        [call("add_event", title="Open-air cinema", when="Saturday"),
         call("add_event", title="Open-air cinema", when="Saturday")],
    )  # fmt: skip
    conversation = Conversation()
    first = agent.run_turn(conversation, "Put the open-air cinema in my calendar on Saturday")
    assert first.stop_reason == "asked"
    agent.run_turn(conversation, answer)
    assert _events(account) == {"Open-air cinema": (at(19, 21, 15), end)}


def test_asked_what_it_is_and_told_when_the_time_is_kept_and_what_it_is_asked_again(
    account: CalendarAccount,
) -> None:
    """ "Put something in for Friday" asks what it is; "ah sorry, at 8:30 in the evening"
    says when, not what: the time is kept (not added as the title), what it is is asked
    again, and the answer to that adds the event at the time said."""
    agent = _agent(
        account,
        [
            call("add_event", title="Meeting", when="Friday"),
            call("add_event", title="Meeting", when="Friday"),
        ],
    )
    conversation = Conversation()
    first = agent.run_turn(conversation, "Put something in my calendar for Friday")
    assert first.stop_reason == "asked" and _all(account) == []
    second = agent.run_turn(conversation, "ah sorry, at half past eight in the evening")
    assert second.stop_reason == "asked" and _all(account) == [], second.answer
    agent.run_turn(conversation, "Dinner with Tom")
    assert {t: s for t, (s, _) in _events(account).items()} == {"Dinner with Tom": at(18, 20, 30)}


class _CloseCall(ScriptedBackend):
    """A model that scores its choice as a close call between adding and changing an event
    (adding a little ahead, also when asked again among the few best), or between the two
    intents `close` names (the first ahead); slots as scripted."""

    def __init__(self, turns: list[str], close: tuple[str, str] = ("add_event", "move_event")):
        base = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
        super().__init__(base.turns, base.format)
        self.intents = True
        self.close = dict(zip(close, (-0.4, -1.1), strict=True))

    def score_replies(
        self, request: StepRequest, replies: Sequence[str], cancel: threading.Event
    ) -> dict[str, float] | None:
        return {reply: self.close.get(reply, -6.0) for reply in replies}


def _close_call(
    account: CalendarAccount,
    turns: list[str],
    answers: Answers,
    close: tuple[str, str] = ("add_event", "move_event"),
) -> Agent:
    agent = Agent(_CloseCall(turns, close), build_registry(calendar=account), confirmer=answers)
    agent.front = IntentRouter()
    return agent


def test_an_add_close_to_a_change_that_names_an_event_changes_its_length(
    account: CalendarAccount,
) -> None:
    """Taken for a new event, close to changing one: the request names the plumber's visit
    and no new time, so the visit is changed; the length comes from the request when the
    model left it out."""
    create_event(account, "Plumber visit", at(25, 15), at(25, 16), tz=TZ)
    answers = Answers()
    agent = _close_call(
        account, [call("add_event", title="plumber's call"), call("move_event", event="plumber")],
        answers,
    )  # fmt: skip
    report = agent.run_turn(
        Conversation(), "The plumber needs two hours, not one. Fix it in my calendar please."
    )
    assert [d.tool for d in answers.seen] == ["update_event"]
    assert _events(account) == {"Plumber visit": (at(25, 15), at(25, 17))}
    assert report.answer == "“Plumber visit” is now on Friday 25 May, 15:00–17:00."


def test_an_add_close_to_a_change_on_the_events_day_changes_its_place(
    account: CalendarAccount,
) -> None:
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ, location="AutoHaus Mitte")
    answers = Answers()
    # "now" is no new time: the place is read from the request.
    agent = _close_call(
        account, [call("add_event", title="Update my calendar"),
                  call("move_event", event="car service", to="now")], answers,
    )  # fmt: skip
    agent.run_turn(
        Conversation(),
        "The car service on Thursday is at AutoHaus Schmidt Kreuzberg now, please update my "
        "calendar.",
    )
    [car] = _all(account)
    assert (car.start, car.end, car.location) == (
        at(17, 8),
        at(17, 9),
        "AutoHaus Schmidt Kreuzberg",
    )
    assert [d.tool for d in answers.seen] == ["update_event"]


@pytest.mark.parametrize(
    "request_",
    [
        "Add lunch with Tom on Friday at 1pm",  # a clock time: a new event
        "Add a car service for the van on Monday",  # not on the car service's day
    ],
)
def test_an_add_close_to_a_change_with_a_new_time_or_another_day_adds(
    account: CalendarAccount, request_: str
) -> None:
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ)
    title = "lunch with Tom" if "Tom" in request_ else "car service for the van"
    when = "on Friday at 1pm" if "Tom" in request_ else "on Monday at 10"
    agent = _close_call(account, [call("add_event", title=title, when=when)], Answers())
    agent.run_turn(Conversation(), request_ + (" at 10" if "van" in request_ else ""))
    assert len(_all(account)) == 3
    assert _events(account)["Team lunch"] == (at(18, 12), at(18, 13))


@pytest.mark.parametrize("taken_for", ["show_calendar", "find_free_time"])
def test_how_many_of_an_event_is_counted_by_code(account: CalendarAccount, taken_for: str) -> None:
    for day in (21, 23, 25):
        create_event(account, "Stand-up", at(day, 9), at(day, 9, 15), tz=TZ)
    create_event(account, "Dentist", at(22, 10), at(22, 11), tz=TZ)
    # The stand-ups are what is counted, in the week's listing (not the next one found).
    turns = [call(taken_for, when="next week", event="stand-ups")]
    if taken_for == "find_free_time":  # taken for free time: the listing's question
        turns.append(call("show_calendar", when="next week", event="stand-ups"))
    agent = _agent(account, turns)
    report = agent.run_turn(Conversation(), "How many stand-ups do I have next week?")
    assert report.answer.startswith("Three (Stand-up).\n\n")
    assert "Dentist" in report.answer  # the week is listed after the count


def test_a_question_that_counts_nothing_named_is_listed_alone(account: CalendarAccount) -> None:
    create_event(account, "Dentist", at(22, 10), at(22, 11), tz=TZ)
    agent = _agent(account, [call("show_calendar", when="nächste Woche")])
    report = agent.run_turn(Conversation(), "Wie viele Termine mit Jonas habe ich nächste Woche?")
    assert report.answer.startswith("Für ") and "Dentist" in report.answer


@pytest.mark.parametrize(
    ("request_", "copied", "shown"),
    [
        ("What did I do last Friday evening?", "Friday evening", "Dinner at Anna's"),
        ("Qu'est-ce que j'ai vendredi en huit ?", "vendredi", "Piano recital"),
        ("Was steht Freitag in einer Woche an?", "Freitag", "Piano recital"),
        ("anything on the last friday of the month?", "friday", "Piano recital"),
        ("¿Qué tengo el viernes de la semana que viene?", "el viernes", "Piano recital"),
    ],
)
def test_a_weekday_copied_without_the_word_that_placed_it_is_the_requests_day(
    account: CalendarAccount, request_: str, copied: str, shown: str
) -> None:
    create_event(account, "Dinner at Anna's", at(11, 19), at(11, 22), tz=TZ)  # last Friday
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)  # this Friday
    create_event(account, "Piano recital", at(25, 18), at(25, 19), tz=TZ)  # a week later
    agent = _agent(account, [call("show_calendar", when=copied)])
    report = agent.run_turn(Conversation(), request_)
    assert shown in report.answer and "Team lunch" not in report.answer


# -- find_free_time -------------------------------------------------------------------------------


def test_a_free_slot_is_found_between_the_real_events(account: CalendarAccount) -> None:
    create_event(account, "Stand-up", at(21, 8), at(21, 9), tz=TZ)
    create_event(account, "Review", at(21, 11, 30), at(21, 12), tz=TZ)
    create_event(account, "Lunch", at(21, 12), at(21, 13), tz=TZ)
    answers = Answers()
    agent = _agent(
        account,
        [call("find_free_time", when="Monday morning", duration="two hours")],
        answers,
    )
    report = agent.run_turn(Conversation(), "find me two free hours on Monday morning")
    looked, listed = report.calls
    assert looked.name == "find_free_time" and looked.decision == "allow"
    assert listed.name == "list_events" and listed.decision == "allow"
    assert looked.arguments == {
        "start": "2029-05-21T08:00",
        "end": "2029-05-21T12:00",
        "duration_minutes": 120,
    }
    assert report.answer.startswith("The first free 120 minutes: Monday 21 May, 09:00–11:00.")
    # ... and what fills the rest of the morning, so "am I free?" is answered either way.
    busy = report.answer.split("Already in your calendar then:\n")[1]
    assert busy.splitlines() == ["- 08:00–09:00 Stand-up", "- 11:30–12:00 Review"]
    assert answers.seen == [] and len(_all(account)) == 3  # a read: nothing asked, nothing changed


@pytest.mark.parametrize(
    "request_",
    ["ich brauch am donnerstag nachmittag zwei stunden am stück, wann geht das?",
     "j'ai besoin de deux heures jeudi après-midi, c'est possible quand ?"],
)  # fmt: skip
def test_a_length_needed_on_a_day_asked_when_is_free_time(
    account: CalendarAccount, request_: str
) -> None:
    """ "ich brauch … zwei stunden am stück, wann geht das?": "when does that work" asks for
    room for the two hours needed, not when a thing of the mail or files is."""
    create_event(account, "Workshop", at(17, 12), at(17, 15), tz=TZ)
    agent = _agent(account, [call("find_free_time"), "", ""])
    report = agent.run_turn(Conversation(), request_)
    [looked] = [c.arguments for c in report.calls if c.name == "find_free_time"]
    assert looked["duration_minutes"] == 120 and looked["start"].startswith("2029-05-17")
    assert "15:00" in report.answer, report.answer


def test_a_day_without_such_a_gap_says_so(account: CalendarAccount) -> None:
    create_event(account, "Workshop", at(17, 8), at(17, 17), tz=TZ)
    agent = _agent(account, [call("find_free_time", when="Thursday", duration="2 hours")])
    report = agent.run_turn(Conversation(), "do I have 2 hours free on Thursday?")
    assert report.answer.startswith("There is no free stretch of 120 minutes")


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [
        ("Rappelle-moi, l'appel avec Lena de chez Nordwind, c'est prévu quand exactement ?",
         call("find_free_time", when="nordwind", duration="exact")),
        ("the call with lena from nordwind is when again?", call("show_calendar")),
        ("Le call avec Lena de Nordwind, c'est quand ?", call("find_free_time")),
        ("¿La llamada con Lena de Nordwind es cuándo?",
         call("find_free_time", when="cuándo", duration="llamada")),
    ],
)  # fmt: skip
def test_a_when_question_naming_no_day_shows_the_event_holding_most_of_its_words(
    account: CalendarAccount, request_: str, taken_for: str
) -> None:
    """The words are spread over the title ("Nordwind") and a guest ("lena@…"); another
    event holds only one of them."""
    create_event(account, "Project kickoff Nordwind", at(14, 10), at(14, 11), tz=TZ)
    create_event(account, "Client call: Nordwind", at(23, 10), at(23, 11, 30),
                 attendees=["lena@nordwind.example"], tz=TZ)  # fmt: skip
    agent = _agent(account, [taken_for])
    report = agent.run_turn(Conversation(), request_)
    assert report.answer.startswith("Client call: Nordwind") and "10:00" in report.answer
    assert "kickoff" not in report.answer


@pytest.mark.parametrize(
    "request_",
    ["When is the water turned off in the building?",  # "water" only in the hike's notes
     "When is the hiking trip, and what should I bring?"],  # more than when: looked up
)  # fmt: skip
def test_a_when_question_an_event_holds_one_word_of_in_its_notes_is_not_that_event(
    account: CalendarAccount, request_: str
) -> None:
    create_event(account, "Hiking trip", at(19, 9), at(19, 17), tz=TZ,
                 description="Meet at the station. Bring water and lunch.")  # fmt: skip
    agent = _agent(account, [call("find_free_time", when="", duration="")])
    report = agent.run_turn(Conversation(), request_)
    assert not report.answer.startswith("Hiking trip:")


def test_a_when_question_two_events_hold_alike_picks_neither(account: CalendarAccount) -> None:
    create_event(account, "Call with Lena", at(14, 10), at(14, 11), tz=TZ)
    create_event(account, "Lunch with Lena", at(23, 12), at(23, 13), tz=TZ)
    agent = _agent(account, [call("find_free_time", when="lena", duration="")])
    report = agent.run_turn(Conversation(), "the thing with lena, when is it?")
    assert "Call with Lena:" not in report.answer and "Lunch with Lena:" not in report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for", "title"),
    [("Jamie is in Berlin next week. Find me a free hour on Thursday 24 after work and book it "
      "for coffee with Jamie.", call("find_free_time", when="24", duration="an hour"),
      "coffee with Jamie"),
     ("Jamie est de passage la semaine prochaine. Trouve-moi une heure où je suis libre le "
      "jeudi 24 après le boulot et bloque-la dans l'agenda pour un café avec Jamie.",
      call("find_free_time", when="jeudi 24", duration="une heure"), "café avec Jamie"),
     ("Such mir am Donnerstag, den 24., nach der Arbeit eine freie Stunde und trag sie als "
      "Kaffee mit Jamie ein.", call("find_free_time", when="Donnerstag, den 24.",
                                    duration="eine Stunde"), "Kaffee mit Jamie"),
     # taken for a new event with no time: the free time is found first
     ("Such mir am Donnerstag, den 24., nach der Arbeit eine freie Stunde und trag sie als "
      "Kaffee mit Jamie ein.", call("add_event", title="Kaffee mit Jamie",
                                    when="Donnerstag, den 24."), "Kaffee mit Jamie")],
)  # fmt: skip
def test_a_free_time_asked_to_be_booked_is_the_new_events_time(
    account: CalendarAccount, request_: str, taken_for: str, title: str
) -> None:
    """ "Find me a free hour … and book it": the first free hour in the window is found,
    then added as the event the request names, through the dialog."""
    create_event(account, "Late meeting", at(24, 17), at(24, 18), tz=TZ)
    answers = Answers()
    booked = call("add_event", title=title, when="Thursday", location="Berlin, Berlin, Berlin, Ber")
    found = [call("find_free_time", when="Donnerstag, den 24.")] if "add_event" in taken_for else []
    agent = _agent(account, [taken_for, *found, booked], answers)
    report = agent.run_turn(Conversation(), request_)
    assert answers.seen, (report.calls, report.answer)
    [shown] = answers.seen
    assert shown.tool == "create_event"
    assert (shown.arguments["start"], shown.arguments["end"]) == (
        "2029-05-24T18:00",
        "2029-05-24T19:00",
    )
    assert title.lower() in str(shown.arguments["title"]).lower()
    # a place the model wrote again and again is said once
    if "Berlin" in request_:
        assert shown.arguments.get("location") == "Berlin"


@pytest.mark.parametrize(
    ("request_", "title"),
    [("Il me faut deux bonnes heures tranquilles pour mettre à jour le tableau du budget avant "
      "la réunion de lundi. Tu peux me bloquer ça demain ou jeudi, là où ça rentre ?",
      "tableau du budget"),
     ("I need two quiet hours to update the budget sheet before Monday's meeting. Can you "
      "block that tomorrow or Thursday, wherever it fits?", "budget sheet"),
     ("Ich brauche zwei ruhige Stunden für die Budgettabelle vor dem Meeting am Montag. Kannst "
      "du mir das morgen oder Donnerstag blocken, wo es reinpasst?", "Budgettabelle")],
)  # fmt: skip
def test_a_free_time_to_book_on_one_of_two_days_is_found_in_the_first_with_room(
    account: CalendarAccount, request_: str, title: str
) -> None:
    """Taken for free time with no slots: the days are the asking sentence's ("demain ou
    jeudi"), the length the request's ("deux bonnes heures"); tomorrow has no two free hours,
    so Thursday's first are booked, through the dialog."""
    create_event(account, "Workshop", at(16, 8), at(16, 17), tz=TZ)
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ)
    # the meeting the request names is no answer: "là où ça rentre" asks for room, not a place
    create_event(account, "Budget meeting", at(21, 9, 30), at(21, 10, 30), tz=TZ)
    answers = Answers()
    booked = call("add_event", title=title, when="tomorrow")
    agent = _agent(account, [call("find_free_time"), booked], answers)
    report = agent.run_turn(Conversation(), request_)
    assert [shown.tool for shown in answers.seen] == ["create_event"], report.answer
    [shown] = answers.seen
    assert (shown.arguments["start"], shown.arguments["end"]) == (
        "2029-05-17T09:00",
        "2029-05-17T11:00",
    )


@pytest.mark.parametrize(
    ("request_", "busy_heading"),
    [
        ("Bin ich am Donnerstag frei?", "An dem Tag steht in deinem Kalender:"),
        ("Am I free on Thursday?", "That day your calendar has:"),
    ],
)
def test_a_whole_days_free_time_says_all_that_day_holds_evening_too(
    account: CalendarAccount, request_: str, busy_heading: str
) -> None:
    """A day asked about with no hours: the free stretch is looked for in the working day,
    but the answer lists every event of that day, so "what's on Thursday?" taken for free
    time still names the evening's yoga."""
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ)
    create_event(account, "Yoga", at(17, 18, 30), at(17, 19, 30), tz=TZ)
    agent = _agent(account, [call("find_free_time", when="Thursday")])
    report = agent.run_turn(Conversation(), request_)
    looked = report.calls[0]
    assert (looked.arguments["start"], looked.arguments["end"]) == (
        "2029-05-17T08:00", "2029-05-17T18:00",
    )  # fmt: skip
    busy = report.answer.split(busy_heading)[1]
    assert "Car service" in busy and "18:30" in busy and "Yoga" in busy


@pytest.mark.parametrize(
    ("request_", "taken_for", "start"),
    [
        # no day said: the soonest free time, from now on
        ("La farmacia ya tiene listo mi pedido. Búscame media hora libre para pasar a "
         "recogerlo y apúntamela en el calendario.",
         call("find_free_time", when="", duration="media hora"), "2029-05-15T11:00"),
        ("Find me an hour for the tax papers and put it in my calendar",
         call("find_free_time", when="", duration="an hour"), "2029-05-15T11:00"),
        # a day it is to be done before: the days up to it, in turn
        ("Ich brauche vor Freitag noch eine Stunde für die Steuer. Such mir eine und trag sie "
         "ein", call("find_free_time", when="vor Freitag", duration="eine Stunde"),
         "2029-05-15T11:00"),
        ("J'ai besoin de deux heures pour le rapport d'ici jeudi, tu peux me les bloquer ?",
         call("find_free_time", when="d'ici jeudi", duration="deux heures"),
         "2029-05-16T08:00"),
    ],
)  # fmt: skip
def test_a_free_time_to_book_with_no_day_or_only_a_deadline_is_the_soonest(
    account: CalendarAccount, request_: str, taken_for: str, start: str
) -> None:
    """ "Búscame media hora libre … y apúntamela": no day said, the soonest free time from
    now on is booked (not a time already past this morning), through the dialog; "vor
    Freitag", "d'ici jeudi": the first day up to it with room."""
    create_event(account, "Stand-up", at(15, 9, 30), at(15, 11), tz=TZ)
    if "deux heures" in request_:
        create_event(account, "Workshop", at(15, 11), at(15, 18), tz=TZ)
    answers = Answers()
    agent = _agent(account, [taken_for, call("add_event", title="Slot", when="")], answers)
    report = agent.run_turn(Conversation(), request_)
    assert [shown.tool for shown in answers.seen] == ["create_event"], report.answer
    assert answers.seen[0].arguments["start"] == start


@pytest.mark.parametrize(
    ("request_", "when"),
    [("Jamie's in Berlin next week and wants to grab a coffee one afternoon. Could you find me "
      "an hour when I've got nothing on and block it in my calendar?", "next week"),
     ("Jamie ist nächste Woche in Berlin und will an einem Nachmittag Kaffee trinken. Such mir "
      "eine freie Stunde und trag sie mir ein.", "nächste Woche"),
     ("Jamie passe à Berlin la semaine prochaine, un café un après-midi ? Trouve-moi une heure "
      "libre et bloque-la dans mon agenda.", "la semaine prochaine"),
     ("Jamie viene a Berlín la semana que viene y quiere tomar un café por la tarde. Búscame "
      "una hora libre y apúntamela en el calendario.", "la semana que viene")],
)  # fmt: skip
def test_a_free_time_to_book_in_a_part_of_the_day_over_a_week_is_in_that_part(
    account: CalendarAccount, request_: str, when: str
) -> None:
    """ "… next week … one afternoon … find me an hour": the model's days without the part
    of the day the request says; the first free hour of an afternoon is booked (Monday's is
    taken), not Monday morning's."""
    create_event(account, "Workshop", at(21, 12), at(21, 18), tz=TZ)
    answers = Answers()
    taken_for = call("find_free_time", when=when, duration="an hour")
    agent = _agent(account, [taken_for, call("add_event", title="Coffee with Jamie", when="")],
                   answers)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert [shown.tool for shown in answers.seen] == ["create_event"], report.answer
    assert answers.seen[0].arguments["start"] == "2029-05-22T12:00"


def test_a_free_time_to_look_at_with_no_day_asks_which_day(account: CalendarAccount) -> None:
    """Not booked and no day said: the day is asked, nothing is changed."""
    agent = _agent(account, [call("find_free_time", when="", duration="an hour")])
    report = agent.run_turn(Conversation(), "When am I free for an hour?")
    assert (report.stop_reason, report.answer) == ("asked", "Which day?")
    assert {c.name for c in report.calls} <= {"list_events", "search_emails", "search_files"}


@pytest.mark.parametrize(
    ("request_", "taken_for", "on_the_day"),
    [
        ("the dry cleaning has to be picked up by saturday and I always forget.. what have I "
         "got on this friday? want to see when I could fit it in",
         call("find_free_time", when="Saturday at 10", duration="an hour"), "Team lunch"),
        ("Je dois passer au pressing avant samedi. J'ai quoi ce jeudi ?",
         call("show_calendar", when=""), "Yoga"),
        ("Bis Samstag muss ich die Reinigung abholen. Was steht diesen Freitag an?",
         call("find_free_time", when=""), "Team lunch"),
    ],
)  # fmt: skip
def test_a_question_about_a_day_after_another_day_said_looks_at_the_questions_day(
    account: CalendarAccount, request_: str, taken_for: str, on_the_day: str
) -> None:
    """The day said around the question is not the day asked about: the model's slot left
    empty or dropped, the question's own day is read, not the request's first or likeliest."""
    create_event(account, "Yoga", at(17, 18, 30), at(17, 19, 30), tz=TZ)
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)
    create_event(account, "Hiking trip", at(19, 9), at(19, 17), tz=TZ)
    agent = _agent(account, [taken_for])
    report = agent.run_turn(Conversation(), request_)
    assert on_the_day in report.answer and "Hiking" not in report.answer, report.answer


@pytest.mark.parametrize(
    ("request_", "fill", "title", "start"),
    [
        ("Ich gehe am Donnerstag um 19 Uhr mit Jonas ins Kino. Trag das bitte in meinen "
         "Kalender ein.", call("add_event", title="Kino mit Jonas", when="Donnerstag um 19 Uhr"),
         "Kino mit Jonas", at(17, 19)),
        ("J'ai rendez-vous chez le coiffeur vendredi à 10h, tu peux le mettre dans mon agenda ?",
         call("add_event", title="coiffeur", when="vendredi à 10h"), "Coiffeur", at(18, 10)),
    ],
)  # fmt: skip
def test_a_request_to_put_a_plan_in_the_calendar_taken_for_free_time_adds_it(
    account: CalendarAccount, request_: str, fill: str, title: str, start: datetime
) -> None:
    """A day and time said, and the calendar asked to hold it: a new event, not the free
    time that day (a request asking for free time keeps its intent)."""
    agent = _agent(account, [call("find_free_time", when="", duration="2 hours"), fill])
    report = agent.run_turn(Conversation(), request_)
    assert [(e.title, e.start) for e in _all(account)] == [(title, start)], report.answer
    assert [c.name for c in report.calls] == ["create_event"]


def test_a_free_slot_search_without_a_day_asks_which_day(account: CalendarAccount) -> None:
    create_event(account, "Dentist", at(17, 8), at(17, 10), tz=TZ)
    # The model had to write a day and made one up: dropped, and the day is asked for.
    agent = _agent(account, [call("find_free_time", when="tomorrow", duration="an hour")])
    conversation = Conversation()
    first = agent.run_turn(conversation, "find me a free hour")
    assert (first.stop_reason, first.answer, first.calls) == ("asked", "Which day?", [])
    second = agent.run_turn(conversation, "Thursday")
    assert second.answer.startswith("The first free 60 minutes: Thursday 17 May, 10:00–11:00.")


# -- cancel_event ---------------------------------------------------------------------------------


def test_cancelling_an_event_the_model_could_not_name_asks_which_then_deletes_it(
    account: CalendarAccount,
) -> None:
    create_event(account, "Dentist", at(18, 10), at(18, 11), tz=TZ)
    create_event(account, "Dentist", at(25, 10), at(25, 11), tz=TZ)
    create_event(account, "Piano", at(18, 17), at(18, 18), tz=TZ)
    answers = Answers()
    # "it" names nothing the model could copy: its guess is dropped and the event asked for.
    agent = _agent(account, [call("cancel_event", event="the yoga class")], answers)
    conversation = Conversation()
    first = agent.run_turn(conversation, "please cancel it")
    assert (first.stop_reason, first.answer) == ("asked", "Which event should I cancel?")
    assert len(_all(account)) == 3
    second = agent.run_turn(conversation, "the dentist on Friday")
    [shown] = answers.seen
    assert shown.tool == "delete_event"
    left = sorted((e.title, e.start) for e in _all(account))
    assert left == [("Dentist", at(25, 10)), ("Piano", at(18, 17))]
    assert second.answer == "Cancelled “Dentist” (Fri 18 May, 10:00–11:00)."


@pytest.mark.parametrize(
    ("request_", "taken_for", "translated"),
    [
        ("Mi profesora de piano está enferma, así que hoy no hay clase. ¿Me la quitas del "
         "calendario?", call("cancel_event", event="dentist", when="tomorrow at 3pm"),
         ["My piano teacher is ill, so there is no lesson today. Can you remove it?"]),
        ("the piano teacher is ill so no class tonight, can you move it to next week?",
         call("move_event", to="next week"), []),
        # the verb, or "the appointment", taken for the event: no event's name
        ("Die Klavierlehrerin ist krank, kannst du den Termin heute Abend löschen?",
         call("cancel_event", event="löschen"), ["Piano teacher is ill, delete the appointment"]),
        ("La prof de piano est malade, tu peux supprimer le rendez-vous de ce soir ?",
         call("cancel_event", event="le rendez-vous"), ["piano teacher ill, delete tonight"]),
    ],
)  # fmt: skip
def test_an_event_the_model_left_out_or_made_up_is_the_one_the_request_names(
    account: CalendarAccount, request_: str, taken_for: str, translated: list[str]
) -> None:
    create_event(account, "Dentist", at(16, 15), at(16, 16), tz=TZ)
    create_event(account, "Piano lesson", at(15, 18), at(15, 19), tz=TZ)
    answers = Answers(approve=False)
    agent = _agent(account, [taken_for, *translated], answers)
    agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool in ("delete_event", "update_event")
    assert "Piano lesson" in str(shown.preview) and "Dentist" not in str(shown.preview)


@pytest.mark.parametrize(
    ("request_", "translated"),
    [("Der Klempner muss nicht mehr kommen, kannst du den Termin löschen?",
      ["The Klempner should not come again, can you delete the term?"]),
     ("We don't need the plumber anymore, take it out of my calendar please.", [])],
)  # fmt: skip
def test_an_event_named_by_its_thing_alone_is_the_visit_the_calendar_holds(
    account: CalendarAccount, request_: str, translated: list[str]
) -> None:
    """ "Der Klempner" names "Plumber visit": its thing in English (the glossary's, where the
    model left "Klempner"), without the word saying it is a visit; the verb the model took
    for the event ("löschen") names nothing."""
    create_event(account, "Plumber visit", at(25, 15), at(25, 16), tz=TZ)
    create_event(account, "Dentist", at(16, 15), at(16, 16), tz=TZ)
    answers = Answers(approve=False)
    agent = _agent(account, [call("cancel_event", event="löschen"), *translated], answers)
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "delete_event" and "Plumber visit" in str(shown.preview), report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [
        ("Scrap my dentist appointment today",
         call("send_email", message="I have a dentist appointment today")),
        ("Could you call off the piano lesson tonight?", call("add_event", title="piano lesson")),
        ("Sag den Zahnarzt heute ab", call("add_event", title="Zahnarzt")),
        ("Streich bitte die Klavierstunde heute Abend", call("recall_fact", about="Klavierstunde")),
        ("Annule le dentiste d'aujourd'hui", call("read_email", which="dentiste")),
        ("Cancela el dentista de hoy", call("send_email", message="el dentista de hoy")),
        # asked, the thing a pronoun
        ("Mi profesora de piano está enferma, así que hoy no hay clase. ¿Me la quitas del "
         "calendario? Solo la de hoy.", call("add_event", title="piano")),
        ("Le dentiste a appelé, c'est reporté. Tu peux l'enlever pour aujourd'hui ?",
         call("show_calendar", when="aujourd'hui")),
        ("Kannst du den Zahnarzt heute aus dem Kalender löschen?",
         call("show_calendar", when="heute")),
        ("the piano teacher is ill, please take tonight's lesson off my calendar",
         call("add_event", title="piano lesson")),
        ("Quítame lo del dentista de esta tarde del calendario, lo he anulado por teléfono.",
         call("find_contact", who="dentista")),
        ("Sácame la clase de piano de hoy de la agenda, la profe está enferma.",
         call("add_event", title="piano")),
    ],
)  # fmt: skip
def test_a_request_to_cancel_an_event_it_names_cancels_it_whatever_the_model_took_it_for(
    account: CalendarAccount, request_: str, taken_for: str
) -> None:
    """ "Scrap my dentist appointment today" was taken for a new email, "Sag … ab" for a new
    event: a verb of cancelling in the four languages before an event the calendar holds under
    its own words (or their English, translated by the model) is that event cancelled,
    through the dialog, and nothing else is done."""
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ)
    create_event(account, "Piano lesson", at(15, 18), at(15, 19), tz=TZ)
    translations = {
        "Zahnarzt": "Cancel the dentist today",
        "Klavier": "Cancel piano lesson",
        "profesora": "Cancel piano lesson today",
        "dentiste": "Cancel the dentist",
        "dentista": "Remove the dentist this afternoon",
        "la profe": "Remove the piano lesson today",
    }
    said = [t for word, t in translations.items() if word in request_]
    answers = Answers()
    agent = _agent(account, [taken_for, *said], answers)
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "delete_event"
    assert {c.name for c in report.calls} <= {"list_events", "delete_event"}
    gone = "Piano lesson" if "piano" in request_ or "Klavier" in request_ else "Dentist"
    gone = "Dentist" if "dentiste" in request_ else gone
    assert gone not in [e.title for e in _all(account)] and len(_all(account)) == 1


@pytest.mark.parametrize(
    ("request_", "taken_for", "start"),
    [
        ("Sophie meinte eben, das Budgetmeeting am Montag fängt ne halbe Stunde später an als "
         "geplant. Kannst du das im Kalender bitte entsprechend ändern?",
         call("add_event", title="Budgetmeeting", when="Montag um 12:00"), at(21, 10)),
        ("The budget meeting on Monday is an hour earlier now, can you fix my calendar?",
         call("show_calendar", when="Monday"), at(21, 8, 30)),
        ("La réunion budget de lundi commence une demi-heure plus tard, tu peux corriger ?",
         call("find_free_time", when="lundi", duration="une demi-heure"), at(21, 10)),
        ("La reunión de presupuesto del lunes empieza media hora más tarde, ¿lo cambias?",
         call("add_event", title="reunión", when="lunes"), at(21, 10)),
    ],
)  # fmt: skip
def test_an_event_named_with_an_amount_later_or_earlier_is_moved_by_it(
    account: CalendarAccount, request_: str, taken_for: str, start: datetime
) -> None:
    """A request naming a calendar event and an amount later or earlier, taken for a new
    event or a listing: the event is moved by that amount (the dialog asks first)."""
    create_event(account, "Budget meeting", at(21, 9, 30), at(21, 10, 30), tz=TZ)
    create_event(account, "Stand-up", at(21, 9), at(21, 9, 15), tz=TZ)
    english = {"Budgetmeeting": "The budget meeting on Monday", "réunion": "The budget meeting",
               "reunión": "The budget meeting"}  # fmt: skip
    said = [t for word, t in english.items() if word in request_]
    answers = Answers()
    agent = _agent(account, [taken_for, *said], answers)
    agent.run_turn(Conversation(), request_)
    assert [shown.tool for shown in answers.seen] == ["update_event"]
    assert _events(account)["Budget meeting"][0] == start
    assert _events(account)["Stand-up"][0] == at(21, 9)
    # "im Kalender", "my calendar": where it is kept, not its new place
    assert "location" not in answers.seen[0].arguments


def test_an_event_moved_by_an_amount_with_its_own_time_said_beside_is_moved(
    account: CalendarAccount,
) -> None:
    """ "kannst du den friseur am freitag ne stunde später legen? um 4 schaff ichs nicht"
    taken for free time: "um 4" is where the haircut is, not where it goes; it moves by the
    hour said."""
    create_event(account, "Haircut", at(18, 16), at(18, 16, 45), tz=TZ)
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("find_free_time", when="am freitag", duration="ne stunde")],
                   answers)  # fmt: skip
    agent.run_turn(
        Conversation(),
        "kannst du den friseur am freitag ne stunde später legen? um 4 schaff ichs nicht",
    )
    assert [shown.tool for shown in answers.seen] == ["update_event"]
    assert _events(account)["Haircut"][0] == at(18, 17)


@pytest.mark.parametrize(
    ("request_", "taken_for", "english"),
    [
        ("ugh, Dr Weber's office just rang - they're running behind and have pushed me back by "
         "an hour this afternoon. can you fix that in my calendar?",
         call("add_event", title="Dr Weber's office just rang", duration="an hour"), []),
        ("Die Praxis von Dr. Weber hat angerufen: mein Termin heute Nachmittag ist eine Stunde "
         "später. Kannst du das eintragen?", call("add_event", title="Termin"),
         ["The practice of Dr. Weber called"]),
        ("Le cabinet du Dr Weber a appelé : ils ont une heure de retard cet après-midi, tu peux "
         "décaler le rendez-vous ?", call("show_calendar", when="cet après-midi"),
         ["The office of Dr Weber called"]),
    ],
)  # fmt: skip
def test_an_event_named_by_where_it_is_held_is_moved_by_the_amount_said(
    account: CalendarAccount, request_: str, taken_for: str, english: list[str]
) -> None:
    """ "Dr Weber's office … pushed me back by an hour this afternoon": the calendar's
    "Dentist" today is held at "Dr. Weber, Hauptstraße 5"; the one event of the day whose place
    the request names is the one moved (the dialog asks first)."""
    create_event(
        account, "Dentist", at(15, 14), at(15, 15), tz=TZ, location="Dr. Weber, Hauptstraße 5"
    )
    create_event(account, "Team call", at(15, 16), at(15, 17), tz=TZ)
    answers = Answers()
    agent = _agent(account, [taken_for, *english, *english], answers)
    agent.run_turn(Conversation(), request_)
    assert [shown.tool for shown in answers.seen] == ["update_event"]
    assert _events(account)["Dentist"] == (at(15, 15), at(15, 16))
    assert _events(account)["Team call"][0] == at(15, 16)


@pytest.mark.parametrize(
    ("request_", "taken_for", "start"),
    [
        ("Sophie hat gefragt, ob wir unser 1:1 morgen auf 14 Uhr verlegen können, bei ihr ist "
         "vormittags was dazwischengekommen. Kannst du den Termin bitte verschieben?",
         call("add_event", title="1:1", when="morgen um 14 Uhr"), at(16, 14)),
        ("Can we move my 1:1 with Sophie tomorrow to 3pm?",
         call("add_event", title="Meeting with Sophie", when="tomorrow at 3pm"), at(16, 15)),
        ("¿Puedes pasar el 1:1 con Sophie de mañana a las 16:00?",
         call("add_event", title="1:1 con Sophie", when="mañana a las 16:00"), at(16, 16)),
        # taken for an answer to the one who asked, which the request does not ask for
        ("Sophie hat eben gefragt, ob wir unser Einzelgespräch morgen auf halb drei "
         "nachmittags schieben können. Passt mir gut, trag das bitte so um.",
         call("reply_to_email", which="Sophie", message="Passt gut, trag das bitte so um."),
         at(16, 14, 30)),
        # moved by a verb of everyday talk, or said to be at a time instead
        ("can u shove my 1:1 with sophie tomorrow to 3pm",
         call("add_event", title="1:1 with Sophie", when="tomorrow 3pm"), at(16, 15)),
        ("Could we do my 1:1 with Sophie tomorrow at 2pm instead?",
         call("add_event", title="1:1 with Sophie", when="tomorrow at 2pm"), at(16, 14)),
    ],
)  # fmt: skip
def test_an_event_named_to_be_moved_to_a_time_taken_for_a_new_one_is_moved(
    account: CalendarAccount, request_: str, taken_for: str, start: datetime
) -> None:
    """A request to move an event the calendar holds to a time it names, taken for a new
    event: the event is moved, keeping its length (the dialog asks first); nothing is added."""
    create_event(account, "1:1 with Sophie", at(16, 11), at(16, 11, 30), tz=TZ)
    create_event(account, "Stand-up", at(16, 9), at(16, 9, 15), tz=TZ)
    answers = Answers()
    agent = _agent(account, [taken_for], answers)
    report = agent.run_turn(Conversation(), request_)
    assert [shown.tool for shown in answers.seen] == ["update_event"], report
    assert _events(account)["1:1 with Sophie"] == (start, start + timedelta(minutes=30))
    assert sorted(_events(account)) == ["1:1 with Sophie", "Stand-up"]


@pytest.mark.parametrize(
    ("request_", "taken_for", "translated"),
    [
        ("Ya no voy al concierto del jueves 24, quítalo del calendario", call("move_event"),
         ["I'm not going to the concert on Thursday 24, remove it from the calendar"]),
        ("I can't make the concert on Thursday the 24th, please remove it",
         call("add_event", title="concert"), []),
        ("Streich das Konzert am Donnerstag, den 24.", call("recall_fact", about="Konzert"),
         ["Cancel the concert on Thursday the 24th."]),
    ],
)  # fmt: skip
def test_cancelling_an_event_on_the_day_named_takes_the_one_that_day_the_words_name(
    account: CalendarAccount, request_: str, taken_for: str, translated: list[str]
) -> None:
    """ "Ya no voy al concierto del jueves 24, quítalo" names part of "Concert: Jazz Quartet"
    (in its English) and its day: that day's one event holding the words is cancelled, through
    the dialog; the concert of another Thursday is kept."""
    create_event(account, "Yoga", at(24, 18, 30), at(24, 19, 30), tz=TZ)
    create_event(account, "Concert: Jazz Quartet", at(24, 20), at(24, 22), tz=TZ)
    create_event(account, "Concert: Piano Trio", at(31, 20), at(31, 22), tz=TZ)
    answers = Answers()
    agent = _agent(account, [taken_for, *translated], answers)
    agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "delete_event"
    left = sorted(e.title for e in _all(account))
    assert left == ["Concert: Piano Trio", "Yoga"]


@pytest.mark.parametrize(
    ("request_", "named"),
    [("Mon voisin est passé hier soir et il a tout nettoyé. Plus besoin du ramoneur la "
      "semaine prochaine, tu peux annuler le rendez-vous ?", "ramoneur"),
     ("Gestern Abend hat mein Nachbar den Kamin gekehrt. Kannst du den Schornsteinfeger "
      "nächste Woche absagen?", "Schornsteinfeger")],
)  # fmt: skip
def test_a_cancellation_reads_the_day_of_its_own_sentence_before_one_said_before_it(
    account: CalendarAccount, request_: str, named: str
) -> None:
    """ "… hier soir … plus besoin du ramoneur la semaine prochaine, tu peux annuler ?": the
    event is next week's, not yesterday's (the model left the day out). Its title in no
    word of the request, nor of the model's English, the user chooses among next week's
    events, not yesterday's."""
    create_event(account, "Team stand-up", at(14, 9), at(14, 9, 15), tz=TZ)
    create_event(account, "Chimney sweep", at(24, 15), at(24, 16), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("cancel_event", event=named), named], answers)
    report = agent.run_turn(Conversation(), request_)
    assert report.stop_reason == "asked" and answers.seen == []
    assert "Chimney sweep" in report.answer and "Team stand-up" not in report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [
        ("Delete the email from Tom about lunch", call("read_email", which="Tom")),
        ("Email Tom that the dentist is cancelled", call("send_email", to="Tom", message="x")),
        ("Cancel my gym membership", call("send_email", message="cancel my gym membership")),
    ],
)  # fmt: skip
def test_cancelling_what_is_no_event_of_the_calendar_is_left_to_the_chosen_intent(
    account: CalendarAccount, request_: str, taken_for: str
) -> None:
    """A verb of cancelling before something no event is called whole ("the email from Tom"
    beside "Lunch with Tom"), or after another verb: no event is deleted or offered."""
    create_event(account, "Lunch with Tom", at(15, 12), at(15, 13), tz=TZ)
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ)
    answers = Answers(approve=False)
    agent = _agent(account, [taken_for, "", "", ""], answers)
    report = agent.run_turn(Conversation(), request_)
    assert "delete_event" not in [c.name for c in report.calls]
    assert all(s.tool != "delete_event" for s in answers.seen) and len(_all(account)) == 2


def test_a_general_question_with_a_verb_of_cancelling_looks_nothing_up(
    account: CalendarAccount,
) -> None:
    """ "Can you remove the background from a photo?" is a plain question: the calendar is
    not looked at for an event to cancel (no tool is called for a general question)."""
    create_event(account, "Photo walk", at(15, 10), at(15, 12), tz=TZ)
    agent = _agent(account, [call("just_answer"), "Use an image editor's background tool."])
    report = agent.run_turn(Conversation(), "Can you remove the background from a photo?")
    assert report.calls == [] and report.answer.startswith("Use an image editor")


def test_an_event_not_in_the_calendar_is_asked_about_and_nothing_is_deleted(
    account: CalendarAccount,
) -> None:
    create_event(account, "Piano", at(18, 17), at(18, 18), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("cancel_event", event="tennis", when="Friday")], answers)
    report = agent.run_turn(Conversation(), "cancel tennis on Friday")
    assert report.stop_reason == "asked"
    assert report.answer.startswith("I couldn't find “tennis” in your calendar on Friday 18 May")
    assert answers.seen == [] and [e.title for e in _all(account)] == ["Piano"]


@pytest.mark.parametrize(
    ("request_text", "slots"),
    [
        ("Cancel the plumber next Friday", {"event": "plumber", "when": "next Friday"}),
        ("Supprime la visite du plombier de vendredi prochain",
         {"event": "visite du plombier", "when": "vendredi prochain"}),
    ],
)  # fmt: skip
def test_next_weekday_with_nothing_of_the_name_that_day_is_the_week_after(
    account: CalendarAccount, request_text: str, slots: dict[str, str]
) -> None:
    # Said on Tuesday 15 May: Friday 18 holds a piano lesson, the plumber comes on the 25th.
    create_event(account, "Piano", at(18, 17), at(18, 18), tz=TZ)
    create_event(account, "Plumber visit", at(25, 15), at(25, 16), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("cancel_event", **slots), "plumber visit"], answers)
    report = agent.run_turn(Conversation(), request_text)
    [shown] = answers.seen
    assert shown.tool == "delete_event"
    assert [e.title for e in _all(account)] == ["Piano"]
    assert report.stop_reason == "answered"


@pytest.mark.parametrize("english", ["cut of hair", "Friday's hair cut"])
def test_an_event_named_in_another_language_is_found_by_its_translation_written_apart(
    account: CalendarAccount, english: str
) -> None:
    """ "el corte de pelo del viernes" of the event "Haircut": the translation writes the
    compound apart, in either order."""
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)
    create_event(account, "Haircut", at(18, 16), at(18, 16, 45), tz=TZ)
    answers = Answers()
    agent = _agent(
        account, [call("cancel_event", event="corte de pelo del viernes"), english], answers
    )
    agent.run_turn(Conversation(), "Cancela el corte de pelo del viernes")
    [shown] = answers.seen
    assert shown.tool == "delete_event"
    assert [e.title for e in _all(account)] == ["Team lunch"]
    # What was translated: the event's words, without the day or a word left hanging ("del").
    [translating] = [
        r
        for r in agent.backend.requests  # type: ignore[attr-defined]
        if "Translate" in str(r.messages[-1]["content"])
    ]
    assert translating.messages[-1]["content"] == "Translate into English: corte de pelo"


# -- move_event -----------------------------------------------------------------------------------


def test_moving_the_meeting_two_match_is_a_numbered_choice_and_the_answer_moves_that_one(
    account: CalendarAccount,
) -> None:
    create_event(account, "Team meeting", at(16, 10), at(16, 11), tz=TZ)
    create_event(account, "Budget meeting", at(18, 14), at(18, 15), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("move_event", event="meeting", to="Thursday at 10")], answers)
    conversation = Conversation()
    first = agent.run_turn(conversation, "move the meeting to Thursday at 10")
    assert answers.seen == []
    assert first.stop_reason == "asked" and first.answer.startswith("Which one do you mean?")
    assert _events(account)["Team meeting"] == (at(16, 10), at(16, 11))
    first_line = next(line for line in first.answer.splitlines() if line.startswith("1."))
    chosen = "Budget meeting" if "Budget" in first_line else "Team meeting"
    second = agent.run_turn(conversation, "the first one")
    [shown] = answers.seen
    assert shown.tool == "update_event" and shown.preview.startswith(f"Change event: {chosen}\n")
    moved = _events(account)
    assert moved[chosen] == (at(17, 10), at(17, 11))
    other = ({"Team meeting", "Budget meeting"} - {chosen}).pop()
    assert moved[other] != (at(17, 10), at(17, 11))  # left where it was
    assert second.answer == f"Moved “{chosen}” to Thursday 17 May, 10:00–11:00."


@pytest.mark.parametrize(
    ("talk", "chosen"),
    [("Puh, in gut zwei Wochen ist mein Klaviervorspiel und die Nocturne sitzt immer noch "
      "nicht. Ich übe jeden Abend, aber die linke Hand macht, was sie will.",
      call("move_event", event="linke Hand", place="rechts")),
     ("What a week. The team meeting went on forever again and I still have not finished "
      "the slides for Thursday, honestly I just want the weekend to start.",
      call("move_event", event="team meeting")),
     ("Ce week-end on fête l'anniversaire de ma sœur, j'ai hâte, ça fait des mois qu'on ne "
      "s'est pas vues.", call("move_event", event="anniversaire", place="chez ma sœur"))],
)  # fmt: skip
def test_talk_taken_for_moving_an_event_changes_nothing(
    account: CalendarAccount, talk: str, chosen: str
) -> None:
    """Someone talking, asking nothing, with no verb of moving and no new time: the event
    the model named is not moved, nothing is looked up, the model answers in words."""
    create_event(account, "Team meeting", at(16, 10), at(16, 11), tz=TZ)
    answers = Answers()
    agent = _agent(account, [chosen, "Plain answer."], answers)
    report = agent.run_turn(Conversation(), talk)
    assert (report.calls, report.answer, answers.seen) == ([], "Plain answer.", [])
    assert _events(account)["Team meeting"] == (at(16, 10), at(16, 11))


@pytest.mark.parametrize(
    "question",
    ["Sag mal, woher kam Chopin eigentlich? Ich dachte immer, der war Franzose.",
     "Oh never mind that. How long does it take to boil an egg, by the way?"],
)  # fmt: skip
def test_a_new_question_instead_of_a_choice_is_not_taken_for_the_choice(
    account: CalendarAccount, question: str
) -> None:
    """Asked which event, the user asks something else, naming none of the choices: the
    new message is recognised afresh and nothing is moved."""
    create_event(account, "Team meeting", at(16, 10), at(16, 11), tz=TZ)
    create_event(account, "Budget meeting", at(18, 14), at(18, 15), tz=TZ)
    answers = Answers()
    # (three plain answers: one asked as written, or through English in three writes)
    agent = _agent(account, [call("move_event", event="meeting", to="Thursday at 10"),
                             call("just_answer"), *["Plain answer."] * 3], answers)  # fmt: skip
    conversation = Conversation()
    first = agent.run_turn(conversation, "move the meeting to Thursday at 10")
    assert first.stop_reason == "asked"
    second = agent.run_turn(conversation, question)
    assert (second.calls, second.answer, answers.seen) == ([], "Plain answer.", [])
    # the numbered choice is still answered by its number
    agent = _agent(account, [call("move_event", event="meeting", to="Thursday at 10")], answers)
    conversation = Conversation()
    agent.run_turn(conversation, "move the meeting to Thursday at 10")
    agent.run_turn(conversation, "2, the one on Friday please, if that is all right with you")
    assert [shown.tool for shown in answers.seen] == ["update_event"]


@pytest.mark.parametrize(
    ("request_", "junk", "to"),
    [("Die haben grad angerufen, Freitag um vier klappt nicht. Kannst du meinen Haarschnitt "
      "auf halb sechs schieben?", "grad angerufen", "halb sechs"),
     ("Ils ont appelé ce matin : tu peux décaler mon rendez-vous chez le coiffeur à 17h30 "
      "vendredi ?", "ce matin", "17h30 vendredi"),
     ("Los del taller llamaron esta mañana, ¿me cambias la cita del taller del viernes a las "
      "17:30?", "me llamaron", "viernes a las 17:30")],
)  # fmt: skip
def test_an_event_named_in_the_users_language_by_an_everyday_word_is_moved(
    account: CalendarAccount, request_: str, junk: str, to: str
) -> None:
    """The model copied words that name nothing ("grad angerufen"); the request names the
    event in its language ("Haarschnitt", "coiffeur"): the everyday word's English is the
    event's title ("Haircut", "Car service"), which is moved, its length kept; the
    stand-up stays."""
    title = "Car service" if "taller" in request_ else "Haircut"
    create_event(account, "Team stand-up", at(18, 9), at(18, 9, 15), tz=TZ)
    create_event(account, title, at(18, 16), at(18, 16, 45), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("move_event", event=junk, to=to), "they called"], answers)
    report = agent.run_turn(Conversation(), request_)
    assert [a.tool for a in answers.seen] == ["update_event"], report.answer
    assert _events(account) == {
        "Team stand-up": (at(18, 9), at(18, 9, 15)),
        title: (at(18, 17, 30), at(18, 18, 15)),
    }


@pytest.mark.parametrize(
    ("request_", "event", "title", "start", "moved"),
    [("Die Werkstatt kann am Donnerstag nicht um acht, sondern erst um zehn. Verschieb das "
      "bitte.", "Werkstatt", "Car service", at(17, 8), at(17, 10)),
     ("Le coiffeur ne peut pas vendredi à 16h, seulement à 17h30, tu peux décaler ?",
      "coiffeur", "Haircut", at(18, 16), at(18, 17, 30)),
     ("El taller no puede el jueves a las ocho, pero sí a las diez. ¿Lo cambias?", "taller",
      "Car service", at(17, 8), at(17, 10))],
)  # fmt: skip
def test_of_two_clock_times_said_the_one_the_event_has_not_is_the_new_one(
    account: CalendarAccount,
    request_: str,
    event: str,
    title: str,
    start: datetime,
    moved: datetime,
) -> None:
    """ "nicht um acht, sondern erst um zehn": the model left the new time out; of the two
    times said, the event's own is where it is, the other where it goes (its length kept)."""
    create_event(account, title, start, start + timedelta(minutes=45), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("move_event", event=event)], answers)
    report = agent.run_turn(Conversation(), request_)
    assert [a.tool for a in answers.seen] == ["update_event"], report.answer
    assert _events(account) == {title: (moved, moved + timedelta(minutes=45))}


def test_a_move_without_a_new_time_asks_for_it_and_keeps_the_length(
    account: CalendarAccount,
) -> None:
    create_event(account, "Dentist", at(18, 10), at(18, 10, 45), tz=TZ)
    agent = _agent(account, [call("move_event", event="dentist")])
    conversation = Conversation()
    first = agent.run_turn(conversation, "move the dentist")
    assert (first.stop_reason, first.answer) == ("asked", "When should “Dentist” move to?")
    assert _events(account)["Dentist"] == (at(18, 10), at(18, 10, 45))
    agent.run_turn(conversation, "Thursday at 4pm")
    assert _events(account)["Dentist"] == (at(17, 16), at(17, 16, 45))


@pytest.mark.parametrize(
    "request_",
    ["Could my haircut on Friday be at half five instead?",
     "Kann der Friseur am Freitag um halb sechs sein?",
     "Mon coiffeur de vendredi, plutôt à cinq heures et demie"],
)  # fmt: skip
def test_a_time_the_event_does_not_have_is_where_it_moves(
    account: CalendarAccount, request_: str
) -> None:
    """No "to" in the model's words, but the request says a time the event is not at ("be
    at half five instead"): the new time, the day and length kept."""
    create_event(account, "Haircut", at(18, 16), at(18, 16, 45), tz=TZ)
    event = next(w for w in ("haircut", "Friseur", "coiffeur") if w in request_)
    agent = _agent(account, [call("move_event", event=event), "haircut"])
    agent.run_turn(Conversation(), request_)
    assert _events(account)["Haircut"] == (at(18, 17, 30), at(18, 18, 15))


@pytest.mark.parametrize(
    ("request_", "event"),
    [
        ("Freitag wird das nix mit dem Friseur, da muss ich länger arbeiten. Kannst du den "
         "Termin auf Dienstag in einer Woche verschieben? Gleiche Uhrzeit passt.", "dienstag"),
        ("Vendredi ça ne va pas pour le coiffeur, tu peux le décaler à mardi prochain, même "
         "heure ?", "mardi prochain"),
        ("El viernes no puedo ir a la peluquería. ¿Me la cambias al martes de la semana que "
         "viene a la misma hora?", ""),
    ],
)  # fmt: skip
def test_a_move_the_model_named_only_a_day_for_moves_the_event_on_the_other_day_named(
    account: CalendarAccount, request_: str, event: str
) -> None:
    """The model's event is a day, or none: the request names the event (in its English) on
    the day it is, Friday, not on the new day read first; the time and length kept."""
    create_event(account, "Haircut", at(18, 16), at(18, 16, 45), tz=TZ)
    create_event(account, "Piano lesson", at(15, 18), at(15, 19), tz=TZ)
    english = ["haircut on Friday"] * 3  # the request's English, asked for each day looked at
    agent = _agent(account, [call("move_event", event=event, to="monday at 10"), *english])
    agent.run_turn(Conversation(), request_)
    assert _events(account)["Haircut"] == (at(22, 16), at(22, 16, 45))
    assert _events(account)["Piano lesson"] == (at(15, 18), at(15, 19))


def test_a_cancel_taken_for_a_move_to_no_time_cancels_the_event(
    account: CalendarAccount,
) -> None:
    """ "tu peux enlever le rendez-vous de mon agenda ?" taken for a move "to" "mon agenda":
    no time, so no move; the event the request names is cancelled (after the dialog)."""
    create_event(account, "Plumber visit", at(25, 15), at(25, 16), tz=TZ)
    create_event(account, "Piano lesson", at(22, 18), at(22, 19), tz=TZ)
    # "ce week-end" is read first: its weekend's event is not the one, though "weekend" is
    # in its title and in the request's English
    create_event(account, "Lake weekend", at(26, 10), at(27, 18), tz=TZ)
    english = "Sam fixed the tap this weekend, so the plumber does not need to come next week"
    answers = Answers()
    agent = _agent(account, [call("move_event", event="plombier", to="mon agenda"), english],
                   answers)  # fmt: skip
    agent.run_turn(
        Conversation(),
        "bonne nouvelle, Sam a réparé le robinet de la cuisine ce week-end ! du coup le plombier "
        "n'a plus besoin de venir la semaine prochaine, tu peux enlever le rendez-vous de mon "
        "agenda ?",
    )
    assert [seen.tool for seen in answers.seen] == ["delete_event"]
    assert sorted(_events(account)) == ["Lake weekend", "Piano lesson"]


def test_an_event_named_in_another_language_in_a_later_period_than_an_empty_day_is_found(
    account: CalendarAccount,
) -> None:
    """ "hier soir" is read first and holds no event: the stretch the request names after it
    ("la semaine prochaine") is looked at with the words in English ("plombier": "Plumber")."""
    create_event(account, "Plumber visit", at(25, 15), at(25, 16), tz=TZ)
    create_event(account, "Piano lesson", at(22, 18), at(22, 19), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("cancel_event", event="plombier"), "plumber"], answers)
    agent.run_turn(
        Conversation(),
        "Mon voisin est passé hier soir et il a réparé le robinet ! Plus besoin du plombier la "
        "semaine prochaine, tu peux annuler ce rendez-vous ?",
    )
    assert [seen.tool for seen in answers.seen] == ["delete_event"]
    assert sorted(_events(account)) == ["Piano lesson"]


@pytest.mark.parametrize(
    ("request_", "event"),
    [("Der Klempner schafft es am Freitag doch nicht, er kommt lieber am Montag. Kannst du "
      "das ändern?", "klempner to Monday at 10"),
     ("The plumber can't do Friday after all, he'd rather come on Monday. Can you change "
      "it?", "plumber"),
     ("Le plombier ne peut pas vendredi finalement, il préfère venir lundi. Tu peux changer "
      "ça ?", "plombier à lundi")],
)  # fmt: skip
def test_a_move_saying_the_events_day_and_another_goes_to_the_other(
    account: CalendarAccount, request_: str, event: str
) -> None:
    """No "to" anywhere: of the days said, the one the event is not on (its Friday said, and
    Monday) is the new one, at the event's time; the day in the model's words after "to"
    ("klempner to Monday at 10") is where it goes, not where to look for it."""
    create_event(account, "Plumber visit", at(25, 15), at(25, 16), tz=TZ)
    create_event(account, "Piano lesson", at(22, 18), at(22, 19), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("move_event", event=event), "plumber", "plumber"], answers)
    report = agent.run_turn(Conversation(), request_)
    assert [seen.tool for seen in answers.seen] == ["update_event"], report.answer
    assert _events(account)["Plumber visit"] == (at(21, 15), at(21, 16))


def test_a_move_naming_only_the_time_the_event_has_asks_where_to(
    account: CalendarAccount,
) -> None:
    create_event(account, "Dentist", at(18, 10), at(18, 11), tz=TZ)
    agent = _agent(account, [call("move_event", event="dentist")])
    report = agent.run_turn(Conversation(), "move the 10:00 dentist on Friday")
    assert report.stop_reason == "asked"
    assert _events(account)["Dentist"] == (at(18, 10), at(18, 11))


@pytest.mark.parametrize(
    ("request_", "to", "moved"),
    [
        ("Mueve la reunión de presupuesto al miércoles a las 11", "miércoles a las 11", (23, 11)),
        ("move the budget meeting to tomorrow at 11", "tomorrow at 11", (16, 11)),
        ("move the budget meeting to the 17th at 9", "the 17th at 9", (17, 9)),
    ],
)
def test_a_weekday_named_for_an_event_in_a_later_week_is_that_weeks(
    account: CalendarAccount, request_: str, to: str, moved: tuple[int, int]
) -> None:
    create_event(account, "Budget meeting", at(21, 9, 30), at(21, 10, 30), tz=TZ)  # Monday
    # The Spanish words are not the title's: the model gives them in English.
    event = "reunión de presupuesto" if "presupuesto" in request_ else "budget meeting"
    agent = _agent(account, [call("move_event", event=event, to=to), "budget meeting"])
    agent.run_turn(Conversation(), request_)
    day, hour = moved
    assert _events(account)["Budget meeting"] == (at(day, hour), at(day, hour + 1))


def test_a_move_of_an_event_the_model_could_not_name_asks_which(account: CalendarAccount) -> None:
    create_event(account, "Dentist", at(18, 10), at(18, 11), tz=TZ)
    create_event(account, "Piano", at(18, 17), at(18, 18), tz=TZ)
    agent = _agent(account, [call("move_event", event="the yoga class", to="Friday at 9")])
    conversation = Conversation()
    first = agent.run_turn(conversation, "move it to Friday at 9")
    assert (first.stop_reason, first.answer) == ("asked", "Which event should I move?")
    agent.run_turn(conversation, "the dentist")
    assert _events(account) == {
        "Dentist": (at(18, 9), at(18, 10)),
        "Piano": (at(18, 17), at(18, 18)),
    }


def test_a_move_shows_before_and_after_and_a_refusal_leaves_the_event(
    account: CalendarAccount,
) -> None:
    """Changing a record the user already has asks, with before and after (DESIGN.md)."""
    create_event(account, "Piano", at(15, 18), at(15, 19), tz=TZ)
    answers = Answers(approve=False)
    agent = _agent(account, [call("move_event", event="piano", shift="an hour later")], answers)
    report = agent.run_turn(Conversation(), "piano an hour later tonight")
    assert [(c.name, c.decision) for c in report.calls] == [
        ("list_events", "allow"),
        ("update_event", "confirm"),
    ]
    [shown] = answers.seen
    assert shown.preview.startswith("Change event: Piano")
    assert "→ 2029-05-15T19:00" in shown.preview and "→ 2029-05-15T20:00" in shown.preview
    assert _events(account)["Piano"] == (at(15, 18), at(15, 19))
    assert report.answer == "All right, I didn't do it."


def test_a_new_length_keeps_the_start_and_changes_the_end(account: CalendarAccount) -> None:
    create_event(account, "Plumber", at(25, 15), at(25, 16), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("move_event", event="plumber", length="two hours")], answers)
    report = agent.run_turn(Conversation(), "the plumber will need two hours, not one")
    [shown] = answers.seen
    assert shown.tool == "update_event" and "location" not in shown.arguments
    assert _events(account)["Plumber"] == (at(25, 15), at(25, 17))
    assert report.answer == "“Plumber” is now on Friday 25 May, 15:00–17:00."


def test_a_new_place_changes_only_the_location(account: CalendarAccount) -> None:
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ, location="Autohaus Mitte")
    answers = Answers()
    agent = _agent(
        account, [call("move_event", event="car service", place="Werkstatt Neukölln")], answers
    )
    report = agent.run_turn(
        Conversation(), "Der Autoservice ist jetzt in der Werkstatt Neukölln, trag das ein"
    )
    [shown] = answers.seen
    assert shown.arguments == {
        "event_id": shown.arguments["event_id"],
        "location": "Werkstatt Neukölln",
    }
    [car] = _all(account)
    assert (car.start, car.end, car.location) == (at(17, 8), at(17, 9), "Werkstatt Neukölln")
    assert report.answer == "Ort von „Car service“: Werkstatt Neukölln."


def test_a_move_whose_place_and_length_only_repeat_the_event_and_the_shift_moves_it(
    account: CalendarAccount,
) -> None:
    # The model copied the event's words as its place and the shift's amount as its length:
    # neither is a change the user asked for.
    create_event(account, "Dentist", at(18, 10), at(18, 11), tz=TZ, location="Dr. Lee")
    agent = _agent(
        account,
        [call("move_event", event="dentist", shift="back by 30 minutes", length="30 minutes",
              place="dentist")],
    )  # fmt: skip
    agent.run_turn(Conversation(), "push the dentist back by 30 minutes")
    [dentist] = _all(account)
    assert (dentist.start, dentist.end, dentist.location) == (
        at(18, 10, 30),
        at(18, 11, 30),
        "Dr. Lee",
    )


def test_a_place_the_model_made_up_for_a_move_leaves_the_events_place(
    account: CalendarAccount,
) -> None:
    """ "Mi cita en la peluquería, ¿la puedes retrasar media hora?" with the model's place "el
    centro de la peluquería": words the user never wrote are no new place; the move is."""
    create_event(account, "Haircut", at(18, 16), at(18, 16, 45), tz=TZ, location="Salon Lux")
    agent = _agent(
        account,
        [call("move_event", event="cita en la peluquería", shift="media hora",
              place="el centro de la peluquería")],
    )  # fmt: skip
    agent.run_turn(Conversation(), "Mi cita en la peluquería, ¿la puedes retrasar media hora?")
    [haircut] = _all(account)
    assert (haircut.start, haircut.location) == (at(18, 16, 30), "Salon Lux")


@pytest.mark.parametrize(
    ("request_", "event"),
    [
        ("Can you push my haircut on Friday back an hour?", "push my haircut to Friday at 10"),
        ("Push Friday's hair cut back an hour", "Friday's hair cut"),
    ],
)
def test_an_event_whose_title_the_words_hold_is_the_one_moved(
    account: CalendarAccount, request_: str, event: str
) -> None:
    """The model's words hold more than the title ("push my haircut to Friday at 10", a
    made-up time in them): the event whose whole title they hold is meant, and the shift is
    read from the request, the model's being left out."""
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)
    create_event(account, "Haircut", at(18, 16), at(18, 16, 45), tz=TZ)
    agent = _agent(account, [call("move_event", event=event)])
    agent.run_turn(Conversation(), request_)
    moved = {e.title: (e.start, e.end) for e in _all(account)}
    assert moved == {
        "Team lunch": (at(18, 12), at(18, 13)),
        "Haircut": (at(18, 17), at(18, 17, 45)),
    }


# -- show_calendar --------------------------------------------------------------------------------


def test_asking_when_the_meeting_is_two_match_is_a_numbered_choice(
    account: CalendarAccount, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ids whose digits read as a clock time ("…-1d89-4492…" as 13:00): most random ids do,
    # and the chosen id was then taken for a time and today listed instead of the event.
    uids = iter(["20a29bbf-1d89-4492-956d-9623c9e408ac", "7c1e0f52-3b14-4d21-9e07-15a0c2d3b4f1"])
    monkeypatch.setattr(events, "uuid", SimpleNamespace(uuid4=lambda: next(uids)))
    team = create_event(account, "Team meeting", at(16, 10), at(16, 11), tz=TZ)
    budget = create_event(account, "Budget meeting", at(18, 14), at(18, 15), tz=TZ)
    assert read_when(team.event_id, NOW) is not None and read_when(budget.event_id, NOW)
    agent = _agent(account, [call("show_calendar", when="", event="the meeting")])
    conversation = Conversation()
    first = agent.run_turn(conversation, "when is the meeting?")
    assert first.stop_reason == "asked" and first.answer.startswith("Which one do you mean?")
    assert "1." in first.answer and "2." in first.answer
    second = agent.run_turn(conversation, "the budget one")
    assert second.answer == "Budget meeting: Fri 18 May, 14:00–15:00"


def test_a_day_that_cannot_be_read_is_asked_for_and_the_answer_lists_it(
    account: CalendarAccount,
) -> None:
    create_event(account, "Piano", at(18, 17), at(18, 18), tz=TZ)
    # "someday" is the user's word, so it is kept, but it names no day.
    agent = _agent(account, [call("show_calendar", when="someday")])
    conversation = Conversation()
    first = agent.run_turn(conversation, "what's on someday?")
    assert (first.stop_reason, first.answer, first.calls) == ("asked", "Which day do you mean?", [])
    second = agent.run_turn(conversation, "Friday")
    assert second.answer == "For Friday 18 May your calendar has:\n- 17:00–18:00 Piano"


# -- add_event ------------------------------------------------------------------------------------


def test_a_new_event_whose_title_the_model_made_up_asks_what_it_is(
    account: CalendarAccount,
) -> None:
    agent = _agent(account, [call("add_event", title="team lunch", when="on Friday at 10")])
    conversation = Conversation()
    first = agent.run_turn(conversation, "put something in my calendar on Friday at 10")
    assert (first.stop_reason, first.answer, first.calls) == ("asked", "What is it?", [])
    assert _all(account) == []
    agent.run_turn(conversation, "haircut")
    assert _events(account) == {"Haircut": (at(18, 10), at(18, 11))}


@pytest.mark.parametrize(
    ("request_", "title", "when", "answer", "added"),
    [("add a 2 hour block to write the report tomorrow morning",
      "2 hour block to write the report", "tomorrow morning", "9", ("Write the report", 9)),
     ("ajoute un créneau de 2h pour écrire le rapport demain matin",
      "un créneau de 2h pour écrire le rapport", "demain matin", "10h",
      ("Écrire le rapport", 10)),
     ("Pon un bloque de 2 horas para el informe mañana", "bloque de 2 horas para el informe",
      "mañana", "14h", ("El informe", 14))],
)  # fmt: skip
def test_a_block_of_hours_on_a_day_asks_the_time_and_a_bare_hour_answers_it(
    account: CalendarAccount,
    request_: str,
    title: str,
    when: str,
    answer: str,
    added: tuple[str, int],
) -> None:
    """ "a 2 hour block … tomorrow morning": a length, not two o'clock ("un créneau de 2h"
    too), so the time is asked; the hour answered alone ("9", "14h") is the time, not a
    length; the title is what the block is for."""
    agent = _agent(account, [call("add_event", title=title, when=when, duration="")])
    conversation = Conversation()
    first = agent.run_turn(conversation, request_)
    assert (first.stop_reason, first.calls) == ("asked", [])
    agent.run_turn(conversation, answer)
    name, hour = added
    assert _events(account) == {name: (at(16, hour), at(16, hour + 2))}


def test_a_days_question_whose_words_name_no_event_lists_that_day(
    account: CalendarAccount,
) -> None:
    """ "What does my Saturday look like?": the model put its own words in the event slot
    and a made-up hour in the day's; no event holds them, the request names a day: that day
    is listed."""
    create_event(account, "Hiking trip", at(19, 9), at(19, 17), tz=TZ)
    create_event(account, "Piano", at(18, 17), at(18, 18), tz=TZ)
    agent = _agent(
        account,
        [call("show_calendar", event="What's my day look like?", when="Saturday at 1pm")],
    )
    report = agent.run_turn(Conversation(), "What does my Saturday look like?")
    assert report.answer.startswith("For Saturday 19 May your calendar has:\n- 09:00–17:00 Hiking")
    assert "Piano" not in report.answer


@pytest.mark.parametrize(
    "taken_for",
    [call("show_calendar", when="samedi"),
     call("find_free_time", when="samedi", duration="1 heure")],
)  # fmt: skip
def test_a_question_of_time_or_place_lists_the_days_events_with_their_descriptions(
    account: CalendarAccount, taken_for: str
) -> None:
    """ "On a rendez-vous à quelle heure à la gare samedi pour la rando ?": "rando" is no
    word of "Hiking trip", so Saturday is listed (or its free time, when the model took it
    for that); the hike's description, which answers it, is shown with it."""
    create_event(account, "Hiking trip", at(19, 9), at(19, 17), tz=TZ,
                 description="Meet at the station at 8:30. Bring water and lunch.")  # fmt: skip
    create_event(account, "Dinner", at(19, 19), at(19, 21), tz=TZ)
    agent = _agent(account, [taken_for])
    request = "On a rendez-vous à quelle heure à la gare samedi pour la rando, déjà ?"
    report = agent.run_turn(Conversation(), request)
    assert "09:00–17:00 Hiking trip\n  Meet at the station at 8:30." in report.answer
    # Asked what is on, not when or where: the titles alone.
    agent = _agent(account, [call("show_calendar", when="Saturday")])
    report = agent.run_turn(Conversation(), "What's on Saturday?")
    assert "Hiking trip" in report.answer and "station" not in report.answer


def test_a_general_question_close_to_a_plain_answer_with_none_of_its_words_kept_is_answered(
    account: CalendarAccount,
) -> None:
    """ "¿Cuántos lados tiene un hexágono?": the model was close to a plain answer, chose the
    calendar when asked again, and kept none of the request's words in its slots; nothing
    of the user's is named, nor a day: the model answers, nothing is looked up."""
    from tests.agent.test_intent_scoring import ScoringScript

    create_event(account, "Concert: Jazz Quartet", at(24, 20), at(24, 22), tz=TZ)

    def scoring(text: str, slots: str) -> Agent:
        backend = ScoringScript(
            [slots, *through_english("Seis.")], {text: "recall_fact"}, {text: "just_answer"}
        )
        backend.close_again = {"show_calendar": 0.5}  # asked again: the calendar
        agent = Agent(backend, build_registry(calendar=account), confirmer=Answers())
        agent.front = IntentRouter()
        return agent

    text = "¿Cuántos lados tiene un hexágono?"
    agent = scoring(text, call("show_calendar", when="tomorrow at 3pm", event="show_calendar"))
    report = agent.run_turn(Conversation(), text)
    assert (report.calls, report.answer) == ([], "Seis.")
    # The model kept the request's words ("jazz concert"): the calendar answers.
    text = "When is the jazz concert?"
    agent = scoring(text, call("show_calendar", event="jazz concert", when=""))
    report = agent.run_turn(Conversation(), text)
    assert report.answer.startswith("Concert: Jazz Quartet: Thu 24 May")


def test_a_days_calendar_also_holds_the_todos_due_that_day(account: CalendarAccount) -> None:
    create_event(account, "Piano", at(18, 18), at(18, 19), tz=TZ)
    add_task(account, "Pay rent", due=date(2029, 5, 18))  # Friday
    add_task(account, "Renew passport", due=date(2029, 5, 30))
    add_task(account, "Call the bank", due=date(2029, 5, 14))  # overdue: not Friday's
    agent = _agent(account, [call("show_calendar", when="Friday")])
    report = agent.run_turn(Conversation(), "what do I have on Friday?")
    events, todos = report.answer.split("To-dos due then:\n")
    assert "18:00–19:00 Piano" in events
    assert todos.splitlines() == ["- Pay rent (due 2029-05-18)"]
    assert [c.name for c in report.calls] == ["list_events", "list_tasks"]


@pytest.mark.parametrize(
    ("request_", "when", "duration"),
    [
        ("Ajoute un rendez-vous chez l'opticien lundi prochain à 10h", "lundi prochain à 10h",
         "10h"),
        ("Ajoute un rendez-vous chez l'opticien lundi prochain à 10h", "lundi prochain", ""),
    ],
)  # fmt: skip
def test_the_events_clock_time_is_not_read_as_its_length(
    account: CalendarAccount, request_: str, when: str, duration: str
) -> None:
    """ "à 10h" is ten o'clock: the model copied it as the length too, or code read the
    request for a length: the event still lasts the usual hour, not ten."""
    agent = _agent(account, [call("add_event", title="opticien", when=when, duration=duration)])
    agent.run_turn(Conversation(), request_)
    [event] = _all(account)
    assert (event.start, event.end) == (at(21, 10), at(21, 11))


_KINO = (
    "Kannst du mir bitte für Mittwoch, den 23., abends um 20 Uhr Kino eintragen? Perfect Days "
    "im Paradiso, geht ungefähr zwei Stunden."
)


@pytest.mark.parametrize(
    ("when", "duration"),
    [("Mittwoch, den 23., abends um 20 Uhr", "1 hour"), ("abends um 20 Uhr", ""), ("", "20")],
)  # fmt: skip
def test_a_length_the_request_says_beats_one_the_model_made_up(
    account: CalendarAccount, when: str, duration: str
) -> None:
    """ "geht ungefähr zwei Stunden": the model's "1 hour" is none of the request's words;
    the request's two hours are the event's length, also when the model left "when" out and
    the whole request is read for it."""
    agent = _agent(account, [call("add_event", title="Kino", when=when, duration=duration)])
    agent.run_turn(Conversation(), _KINO)
    [event] = _all(account)
    assert (event.start, event.end) == (at(23, 20), at(23, 22))


def test_in_two_hours_is_when_not_how_long(account: CalendarAccount) -> None:
    """The model left "when" out: "in two hours" is read from the request as the start, and
    the call lasts the usual hour, not two."""
    agent = _agent(account, [call("add_event", title="Call with Tom", when="", duration="")])
    agent.run_turn(Conversation(), "Put a call with Tom in my calendar in two hours")
    [event] = _all(account)
    assert (event.start, event.end) == (at(15, 11, 30), at(15, 12, 30))


def test_a_second_time_said_before_the_first_is_no_end(account: CalendarAccount) -> None:
    """ "me lo puedes pasar a las 17:30? a las 4 no llego": 4 is the old time, not where the
    new one ends; the haircut keeps its 45 minutes."""
    create_event(account, "Haircut", at(18, 16), at(18, 16, 45), tz=TZ)
    agent = _agent(account, [call("move_event", event="peluquería", to="17:30? a las 4")])
    agent.run_turn(Conversation(), "oye, lo de la peluquería del viernes, me lo puedes pasar a "
                   "las 17:30? a las 4 no llego")  # fmt: skip
    assert _events(account)["Haircut"] == (at(18, 17, 30), at(18, 18, 15))


def test_a_moves_new_clock_time_is_not_read_as_its_length(account: CalendarAccount) -> None:
    create_event(account, "Piano", at(18, 17), at(18, 18), tz=TZ)
    agent = _agent(account, [call("move_event", event="piano", to="19h", length="19h")])
    agent.run_turn(Conversation(), "Décale le piano de vendredi à 19h")
    assert _events(account)["Piano"] == (at(18, 19), at(18, 20))


def test_an_event_the_request_names_whole_is_found_when_the_models_words_name_none(
    account: CalendarAccount,
) -> None:
    """The model copied the request's last words as the event: the event whose whole title
    the request holds is the one meant; with no new time said and a close call with
    cancelling, it is cancelled (after the dialog), not asked a time to move to."""
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)
    create_event(account, "Haircut", at(18, 16), at(18, 16, 45), tz=TZ)
    answers = Answers()
    agent = _close_call(
        account,
        [call("move_event", event="take it off my calendar"),
         call("cancel_event", event="take it off my calendar")],
        answers, ("move_event", "cancel_event"),
    )  # fmt: skip
    report = agent.run_turn(
        Conversation(), "I can't make the team lunch on Friday, take it off my calendar"
    )
    assert [(c.name, c.decision) for c in report.calls][-1] == ("delete_event", "confirm")
    assert [shown.tool for shown in answers.seen] == ["delete_event"]
    assert list(_events(account)) == ["Haircut"]


def test_a_move_without_a_new_time_close_to_nothing_else_still_asks_when(
    account: CalendarAccount,
) -> None:
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)
    agent = _close_call(
        account, [call("move_event", event="team lunch")], Answers(), ("move_event", "add_event")
    )
    report = agent.run_turn(Conversation(), "Move the team lunch")
    assert report.stop_reason == "asked" and "Team lunch" in report.answer
    assert _events(account)["Team lunch"] == (at(18, 12), at(18, 13))


# -- repeating events: one occurrence, or all of them ---------------------------------------------


def _weekly_piano(server: RadicaleServer) -> None:
    """A piano lesson every Tuesday 18:00-19:00 from 8 May, six times, as another client
    (a phone) would store it."""
    vevent = icalendar.Event()
    vevent.add("UID", "piano-weekly@phone")
    vevent.add("DTSTAMP", datetime(2029, 1, 1, tzinfo=UTC))
    vevent.add("SUMMARY", "Piano lesson")
    vevent.add("DTSTART", at(8, 18))
    vevent.add("DTEND", at(8, 19))
    vevent.add("RRULE", {"FREQ": "WEEKLY", "COUNT": 6})
    vcal = icalendar.Calendar()
    vcal.add("PRODID", "-//Phone//EN")
    vcal.add("VERSION", "2.0")
    vcal.add_component(vevent)
    client = DAVClient(url=server.url, username="alice", password=PASSWORD, timeout=5)
    with client:
        client.principal().calendars()[0].add_event(ical=vcal.to_ical().decode())


def _piano_days(account: CalendarAccount) -> list[tuple[int, int]]:
    return [(e.start.day, e.start.hour) for e in _all(account) if e.title == "Piano lesson"]


def test_tonights_occurrence_of_a_weekly_event_moves_alone(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    _weekly_piano(server)
    answers = Answers()
    agent = _agent(account, [call("move_event", event="cours de piano de ce soir", to="19h")],
                   answers)  # fmt: skip
    agent.run_turn(Conversation(), "Décale le cours de piano de ce soir à 19h")
    [shown] = answers.seen
    assert shown.arguments["only_this_occurrence"] is True
    assert "only the occurrence on Tue 15 May 2029 changes" in shown.preview
    assert _piano_days(account) == [(8, 18), (15, 19), (22, 18), (29, 18), (5, 18), (12, 18)]


def test_every_occurrence_moves_when_the_request_says_so(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    _weekly_piano(server)
    answers = Answers()
    agent = _agent(account, [call("move_event", event="piano lessons", to="7pm")], answers)
    agent.run_turn(Conversation(), "Move all my piano lessons to 7pm")
    [shown] = answers.seen
    assert "only_this_occurrence" not in shown.arguments
    assert "applies to every occurrence" in shown.preview
    assert _piano_days(account) == [(8, 19), (15, 19), (22, 19), (29, 19), (5, 19), (12, 19)]


def test_cancelling_tonights_occurrence_keeps_the_other_weeks_and_undo_puts_it_back(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    _weekly_piano(server)
    answers = Answers()
    agent = _agent(account, [call("cancel_event", event="piano", when="tonight")], answers)
    report = agent.run_turn(Conversation(), "cancel piano tonight")
    [shown] = answers.seen
    assert shown.preview.startswith("Delete event: Piano lesson\nWhen: Tue 15 May 2029, 18:00")
    assert "only the occurrence on Tue 15 May 2029" in shown.preview
    assert _piano_days(account) == [(8, 18), (22, 18), (29, 18), (5, 18), (12, 18)]
    [deleted] = [c for c in report.calls if c.name == "delete_event"]
    assert deleted.undo is not None and deleted.undo.name == "restore_event"


@pytest.mark.parametrize(
    "request_", ["cancel yoga tonight pls, not feeling it", "Sag Yoga heute Abend ab"]
)
def test_cancelling_an_event_on_a_day_it_is_not_on_asks_which_of_its_days(
    account: CalendarAccount, request_: str
) -> None:
    """Yoga is on Thursdays; "cancel yoga tonight" on a Tuesday: Thursday's is not taken
    unasked; the user is told and shown the days it is on, and the one picked goes."""
    create_event(account, "Yoga", at(17, 18, 30), at(17, 19, 30), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("cancel_event", event="yoga")], answers)
    conversation = Conversation()
    first = agent.run_turn(conversation, request_)
    assert first.stop_reason == "asked" and not answers.seen, first.answer
    assert "Thu 17 May" in first.answer or "Do 17. Mai" in first.answer, first.answer
    second = agent.run_turn(conversation, "1")
    assert [c.tool for c in answers.seen] == ["delete_event"], second.answer
    assert _all(account) == []


def test_a_move_to_when_the_event_already_is_changes_nothing_and_says_when_it_is(
    account: CalendarAccount,
) -> None:
    """ "Where and when do we meet for the hike on Saturday?" taken for a move: no change is
    asked for (nothing to confirm), the event is shown with its notes."""
    create_event(account, "Hiking trip", at(19, 9), at(19, 17), tz=TZ,
                 description="Meet at the station at 8:30.")  # fmt: skip
    answers = Answers()
    agent = _agent(account, [call("move_event", event="hiking trip", to="Saturday")], answers)
    report = agent.run_turn(
        Conversation(), "Where and when do we meet for the hiking trip Saturday?"
    )
    assert answers.seen == [] and "update_event" not in [c.name for c in report.calls]
    assert report.answer.startswith("Hiking trip: Sat")
    assert report.answer.endswith("Meet at the station at 8:30.")
    assert _events(account)["Hiking trip"] == (at(19, 9), at(19, 17))


def test_a_shift_that_names_no_amount_leaves_the_new_day_to_the_request(
    account: CalendarAccount,
) -> None:
    """The model copied "same time" as a shift: no amount, no direction; the request's "to
    Thursday" is the new day, and the event keeps its time and length."""
    create_event(account, "Book club", at(16, 19), at(16, 21), tz=TZ)
    agent = _agent(account, [call("move_event", event="book club", shift="same time")])
    agent.run_turn(Conversation(), "Shift the book club to Thursday, same time")
    assert _events(account)["Book club"] == (at(17, 19), at(17, 21))


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [
        ("Sam's come down with something nasty, so we've decided to give the jazz thing at the "
         "Philharmonie a miss. Can you get it out of my calendar?",
         call("move_event", event="Sam's come down with something nasty, so we've decided to "
              "give the jazz thing at the Philharmonie a", to="Philharmonie")),
        ("Sam ist krank, den Jazz-Abend in der Philharmonie lassen wir sausen. Nimm ihn bitte "
         "aus meinem Kalender.", call("cancel_event", event="Sam ist krank, den Jazz-Abend")),
    ],
)  # fmt: skip
def test_an_event_named_by_its_words_around_a_copied_sentence_is_the_one_cancelled(
    account: CalendarAccount, request_: str, taken_for: str
) -> None:
    """The model copied a sentence naming no event's title; "get it out of my calendar"
    asks to cancel. The one event holding two of the request's telling words in its title
    and place ("Concert: Jazz Quartet" at the Philharmonie) is the one; the dialog asks."""
    create_event(account, "Concert: Jazz Quartet", at(24, 20), at(24, 22), tz=TZ,
                 location="Philharmonie")  # fmt: skip
    create_event(account, "Jazz brunch", at(20, 11), at(20, 13), tz=TZ)
    create_event(account, "Piano lesson", at(22, 18), at(22, 19), tz=TZ)
    answers = Answers()
    english = ["Sam is sick, we skip the jazz evening at the Philharmonie"] * 2
    copied = call("cancel_event", event=request_[:90])  # asked again, it copies again
    agent = _agent(account, [taken_for, copied, *english], answers)
    report = agent.run_turn(Conversation(), request_)
    assert [seen.tool for seen in answers.seen] == ["delete_event"], report.answer
    assert sorted(_events(account)) == ["Jazz brunch", "Piano lesson"]


def test_an_event_named_by_a_compound_is_found_by_the_requests_english(
    account: CalendarAccount,
) -> None:
    """ "Das Jazzkonzert nächste Woche …": the model's words name nothing ("my Karte hat jetzt
    eine Kollegin"), nor does the German compound name the title; its English ("the jazz
    concert") holds two words of "Concert: Jazz Quartet": that one is cancelled, the dialog
    asks first."""
    create_event(account, "Concert: Jazz Quartet", at(24, 20), at(24, 22), tz=TZ)
    create_event(account, "Piano lesson", at(22, 18), at(22, 19), tz=TZ)
    request_ = ("Das Jazzkonzert nächste Woche wird bei mir leider nix, meine Karte hat jetzt "
                "eine Kollegin. Kannst du den Termin rausnehmen?")  # fmt: skip
    english = ["my ticket has a colleague now", "The jazz concert next week is off for me, my "
               "ticket now has a colleague. Can you take the appointment out?"]  # fmt: skip
    answers = Answers()
    agent = _agent(account, [call("cancel_event", event="my Karte hat jetzt eine Kollegin"),
                             *english], answers)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert [seen.tool for seen in answers.seen] == ["delete_event"], report.answer
    assert sorted(_events(account)) == ["Piano lesson"]


@pytest.mark.parametrize(
    "request_",
    ["Prepare me for the Nordwind client call: when is it?",
     "Für den Kundentermin mit Nordwind: wann ist der Client call eigentlich?"],
)  # fmt: skip
def test_a_question_about_an_event_taken_for_a_move_to_no_time_is_answered(
    account: CalendarAccount, request_: str
) -> None:
    """Taken for a move, and the event found, but the request names no new time and asks
    when: it is answered from the calendar, nothing is moved and nothing asked."""
    create_event(account, "Client call: Nordwind", at(23, 10), at(23, 11, 30), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("move_event", event="Nordwind client call"),
                             call("show_calendar", event="Nordwind")], answers)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert report.stop_reason == "answered" and answers.seen == [], report.answer
    assert "23" in report.answer and "10:00" in report.answer
    assert _events(account)["Client call: Nordwind"] == (at(23, 10), at(23, 11, 30))


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("My cousin wants help moving flat this weekend. Before I say yes - what have I actually "
      "got on, Saturday and Sunday?", call("ask_files", about="moving flat")),
     ("Sag mal, was hab ich am Samstag eigentlich alles vor? Ich überleg, ob ich da noch was "
      "reinquetschen kann.", call("find_emails", about="Samstag")),
     ("Ma cousine déménage ce week-end. Qu'est-ce que j'ai samedi et dimanche ?",
      call("recall_fact", about="déménagement")),
     # asked by the voice alone, taken for a new event
     ("dis, j'ai un truc samedi ? sam voudrait aller au ciné", call("add_event", title="truc")),
     ("do I have something on Saturday? anna wants to come over",
      call("add_event", title="anna", when="Saturday")),
     # asked whether, taken for free time (none asked for)
     ("can you check if i have anything on saturday", call("find_free_time", when="saturday")),
     ("mira si tengo algo el sábado", call("find_free_time", when="sábado")),
     ("Hab ich am Samstag was vor?", call("find_free_time", when="Samstag"))],
)  # fmt: skip
def test_a_question_of_what_is_on_a_day_taken_for_another_lookup_shows_the_calendar(
    account: CalendarAccount, request_: str, taken_for: str
) -> None:
    """ "… what have I actually got on, Saturday and Sunday?" taken for the files, the mail or
    a memory: what the calendar holds those days, each event named."""
    create_event(account, "Hike in Grunewald", at(19, 9), at(19, 17), tz=TZ)
    create_event(account, "Budget meeting", at(21, 9, 30), at(21, 10, 30), tz=TZ)
    agent = _agent(account, [taken_for, call("show_calendar", when="")])
    report = agent.run_turn(Conversation(), request_)
    assert {c.name for c in report.calls} <= {"list_events", "list_tasks"}, report.answer
    assert "Hike in Grunewald" in report.answer and "Budget meeting" not in report.answer


@pytest.mark.parametrize(
    "request_",
    ["c'est quand déjà mon rendez-vous chez le dentiste ?", "so when's the dentist again?",
     "oye, ¿cuándo es el dentista?", "Sag mal, wann ist nochmal der Zahnarzt?"],
)  # fmt: skip
def test_when_an_event_is_after_a_word_of_talk_taken_for_free_time_shows_the_event(
    account: CalendarAccount, request_: str
) -> None:
    """ "c'est quand déjà mon rendez-vous chez le dentiste ?" taken for free time: a question
    of when ("c'est quand", after "so", "oye", "sag mal") is answered by the event holding
    its words, not asked which day."""
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ)
    create_event(account, "Piano lesson", at(15, 18), at(15, 19), tz=TZ)
    agent = _agent(account, [call("find_free_time"), *["dentist"] * 4])
    report = agent.run_turn(Conversation(), request_)
    assert report.stop_reason == "answered", report.answer
    assert report.answer.startswith("Dentist: ") and "14:00" in report.answer, report.answer


def test_an_event_named_in_the_users_language_is_not_looked_for_elsewhere(
    account: CalendarAccount, tmp_path: Path
) -> None:
    """ "wann ist nochmal mein zahnarzttermin": the event "Dentist" holds it (its English from
    the glossary, no model asked); no file is searched for it first."""
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ)
    (tmp_path / "notes.md").write_text("Zahnarzttermin: Sophie muss noch warten.\n")
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": [
        call("show_calendar", event="zahnarzttermin", when="")]})  # fmt: skip
    agent = Agent(backend, build_registry([tmp_path], calendar=account), confirmer=Answers())
    agent.front = IntentRouter()
    report = agent.run_turn(Conversation(), "wann ist nochmal mein zahnarzttermin")
    assert {c.name for c in report.calls} == {"list_events"}, report.calls
    assert report.answer.startswith("Dentist: ") and "14:00" in report.answer, report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for", "translated"),
    [("¿a qué hora tengo piano hoy?", call("find_contact", who="Piano"), ["piano"]),
     ("Where's my piano lesson today again?", call("recall_fact", about="piano lesson"), []),
     ("Um wie viel Uhr ist heute Klavier?", call("list_todos"), ["piano"]),
     # "oublié" (the user forgot) taken for forgetting a memory
     ("c'est quand déjà mon cours de piano aujourd'hui ? j'ai complètement oublié l'heure",
      call("forget_fact", fact=""), ["piano"])],
)  # fmt: skip
def test_when_or_where_an_event_is_taken_for_a_store_without_events_shows_the_event(
    account: CalendarAccount, request_: str, taken_for: str, translated: list[str]
) -> None:
    """ "¿a qué hora tengo piano hoy?" taken for a contact called Piano ("No contact named
    Piano"): the calendar's event holding the words answers it."""
    create_event(account, "Piano lesson", at(15, 18), at(15, 19), tz=TZ,
                 location="Music school Allegro")  # fmt: skip
    agent = _agent(account, [taken_for, *translated * 3])
    report = agent.run_turn(Conversation(), request_)
    assert {c.name for c in report.calls} <= {"list_events", "list_tasks"}, report.answer
    assert "18:00" in report.answer and "Piano lesson" in report.answer, report.answer


@pytest.mark.parametrize(
    ("request_", "title", "said"),
    [("whens my car being serviced again", "Car service", "17 May"),
     ("¿cuántos días faltan para el cumpleaños de mamá?", "Mum's birthday", "13"),
     ("is my dentist appointment today or tomorrow?", "Dentist", "16 May")],
)  # fmt: skip
def test_when_an_event_is_or_how_long_until_it_taken_for_free_time_shows_the_event(
    account: CalendarAccount, request_: str, title: str, said: str
) -> None:
    """ "whens my car being serviced again" taken for free time ("Which day?"): the event the
    request names is when; how many days until it, counted."""
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ)
    create_event(account, "Mum's birthday", at(28, 0), at(29, 0), tz=TZ)
    create_event(account, "Dentist", at(16, 14), at(16, 15), tz=TZ)
    agent = _agent(account, [call("find_free_time"), *["birthday of mum"] * 3])
    report = agent.run_turn(Conversation(), request_)
    assert report.answer.startswith(title) or said in report.answer, report.answer
    assert title in report.answer and said in report.answer, report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("I need two hours for the tax stuff, somewhere between 9 and 6 on Monday. Tell me the "
      "options?", call("ask_files", about="tax stuff")),
     ("Für die Steuer brauch ich am Montag zwei Stunden am Stück. Wann hätte ich Zeit?",
      call("find_emails", about="Steuer")),
     ("Il me faut deux heures lundi pour les impôts, tu vois quand ça passe ?",
      call("recall_fact", about="impôts")),
     ("Necesito dos horas el lunes para los impuestos, ¿cuándo tengo un hueco?",
      call("ask_files", about="impuestos"))],
)  # fmt: skip
def test_a_length_of_time_on_a_day_taken_for_a_lookup_is_free_time_found(
    account: CalendarAccount, request_: str, taken_for: str
) -> None:
    """A length of time asked for on a day said, taken for the files, the mail or a memory:
    the free time of that length on that day, what is there already shown."""
    create_event(account, "Budget meeting", at(21, 9), at(21, 12), tz=TZ)
    agent = _agent(account, [taken_for, call("find_free_time", when="Monday", duration="2h")])
    report = agent.run_turn(Conversation(), request_)
    assert [c.name for c in report.calls][:1] == ["find_free_time"], report.answer
    assert "12:00" in report.answer and "Budget meeting" in report.answer


@pytest.mark.parametrize(
    ("request_", "place"),
    [("Meine Schwester kommt am Donnerstagvormittag um 10 zu Besuch, trag das bitte ein",
      "Vormittag"),
     ("My sister's visiting Thursday morning at 10, put it in the calendar", "Thursday morning"),
     ("Ma sœur vient jeudi matin à 10h, mets-le dans l'agenda", "le matin"),
     ("Mi hermana viene el jueves a las 10 de la mañana, apúntalo", "de la mañana"),
     # the title again
     ("Trag mir für Donnerstag um 10 Uhr Besuch ein", "Besuch")],
)  # fmt: skip
def test_a_place_that_names_only_when_is_no_place_of_the_new_event(
    account: CalendarAccount, request_: str, place: str
) -> None:
    turns = [call("add_event", title="Besuch", when="Donnerstag 10 Uhr", location=place)]
    agent = _agent(account, turns)
    report = agent.run_turn(Conversation(), request_)
    [event] = _all(account)
    assert event.start == at(17, 10), report.answer
    assert not event.location, event


@pytest.mark.parametrize(
    ("request_", "taken_for", "title"),
    [("ugh I totally forgot I'm at the optician thursday 4pm, can u pop that in?",
      call("ask_files", about="optician"), "optician"),
     ("Optiker am Donnerstag um 16 Uhr, hab ich fast vergessen. Trag das bitte ein.",
      call("remember_fact", fact="Optiker am Donnerstag um 16 Uhr"), "Optiker"),
     ("J'ai l'opticien jeudi à 16h, note-le stp", call("recall_fact", about="opticien"),
      "opticien"),
     ("Tengo el óptico el jueves a las 16, apúntalo", call("remember_fact", fact="óptico"),
      "óptico"),
     # an appointment by name, taken for a new note
     ("j'ai rdv chez l'opticien jeudi à 16h, tu peux le noter ?",
      call("write_note", name="opticien rendez-vous", content=""), "opticien")],
)  # fmt: skip
def test_a_day_and_time_told_and_asked_to_be_noted_is_an_appointment(
    account: CalendarAccount, request_: str, taken_for: str, title: str
) -> None:
    """Told a day and a time to come and asked to "pop that in" (no calendar named), taken
    for a look in the files or a memory: the appointment is added."""
    agent = _agent(account, [taken_for, call("add_event", title=title, when="Thursday 4pm")])
    report = agent.run_turn(Conversation(), request_)
    [event] = _all(account)
    assert event.start == at(17, 16), report.answer
    assert title.lower() in event.title.lower()


@pytest.mark.parametrize(
    ("request_", "said", "event"),
    [("how many days until the hiking trip?", "In 4 days.", "hiking trip"),
     ("Wie viele Tage noch bis zur Wanderung?", "In 4 Tagen.", "Wanderung"),
     ("Dans combien de jours c'est la randonnée ?", "Dans 4 jours.", "randonnée"),
     ("¿Cuántos días faltan para la excursión?", "Dentro de 4 días.", "excursión")],
)  # fmt: skip
def test_how_many_days_until_an_event_is_counted_beside_it(
    account: CalendarAccount, request_: str, said: str, event: str
) -> None:
    create_event(account, "Hiking trip", at(19, 9), at(19, 17), tz=TZ)
    agent = _agent(account, [call("show_calendar", when="", event=event), "hike"])
    report = agent.run_turn(Conversation(), request_)
    assert report.answer.startswith(f"{said}\nHiking trip:"), report.answer


def test_an_event_holding_only_a_word_of_something_a_file_holds_is_not_the_one_asked(
    account: CalendarAccount, tmp_path: Path
) -> None:
    """ "how many days until my lisbon trip?": the "Hiking trip" holds "trip" only, the
    itinerary holds "Lisbon" too; it answers, not the hike."""
    create_event(account, "Hiking trip", at(19, 9), at(19, 17), tz=TZ)
    (tmp_path / "travel").mkdir()
    (tmp_path / "travel" / "lisbon-itinerary.md").write_text(
        "# Lisbon trip, 8-17 June\n- 8 June: arrive 09:40, hotel Casa do Rio\n"
    )
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": [
        call("show_calendar", event="lisbon trip", when=""), "On 8 June."]})  # fmt: skip
    registry = build_registry([tmp_path], calendar=account)
    agent = Agent(backend, registry, ContextState(allowed_folders=[str(tmp_path)]),
                  confirmer=Answers())  # fmt: skip
    agent.front = IntentRouter()
    report = agent.run_turn(Conversation(), "how many days until my lisbon trip?")
    assert "Hiking" not in report.answer and "lisbon-itinerary.md" in report.answer, report.answer


@pytest.mark.parametrize(
    "request_",
    ["Mein Yoga am Donnerstag fällt diese Woche aus, die Lehrerin ist krank. Nimmst du das "
     "bitte für diese Woche raus?",
     "Das Yoga am Donnerstag fällt aus."],
)  # fmt: skip
def test_a_german_cancel_said_with_raus_or_fallt_aus_taken_for_a_move_cancels(
    account: CalendarAccount, request_: str
) -> None:
    """ "fällt … aus", "nimmst du das … raus?" taken for a move to a place the model made up
    ("Lehrerin's office"): nothing is moved, the event is cancelled (after the dialog)."""
    create_event(account, "Yoga", at(17, 18, 30), at(17, 19, 30), tz=TZ)
    answers = Answers()
    agent = _agent(account, [call("move_event", event="Yoga", to="Lehrerin's office"),
                             "yoga", "yoga"], answers)  # fmt: skip
    agent.run_turn(Conversation(), request_)
    assert [seen.tool for seen in answers.seen] == ["delete_event"]
    assert _events(account) == {}


@pytest.mark.parametrize(
    "request_",
    ["ugh something came up at work this afternoon 😩 can u push my dentist thing to friday "
     "instead? same time is fine",
     "Kannst du den Zahnarzt auf Freitag verschieben? Zur gleichen Zeit."],
)  # fmt: skip
def test_a_move_to_a_day_at_the_same_time_taken_for_a_new_event_moves_it(
    account: CalendarAccount, request_: str
) -> None:
    """ "push my dentist thing to friday instead? same time is fine" taken for a new event on
    Friday with no time: the dentist is moved to Friday at its own time (no time asked)."""
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ)
    agent = _agent(account, [call("add_event", title="dentist", when="friday"), "dentist"])
    report = agent.run_turn(Conversation(), request_)
    assert _events(account) == {"Dentist": (at(18, 14), at(18, 15))}, report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("uf qué semana llevo, y eso que es martes jaja", call("show_calendar", when="martes")),
     ("pfff, schon wieder Montag 😅", call("show_calendar", when="Montag")),
     ("haha my week has been wild, and it's only tuesday", call("find_emails", about="week")),
     ("Coucou ! Je rentre tout juste d'une balade le long du canal, il faisait un temps "
      "magnifique, j'en avais bien besoin après cette semaine 😊",
      call("show_calendar", when="cette semaine")),
     # taken for a reply no verb of writing asks for
     ("coucou ! j'ai couru mon premier semi dimanche, je suis complètement cassée 😅",
      call("reply_to_email", which="", message=""))],
)  # fmt: skip
def test_someone_laughing_or_sighing_who_asks_nothing_is_talking(
    account: CalendarAccount, request_: str, taken_for: str
) -> None:
    """ "uf qué semana llevo, y eso que es martes jaja" taken for Tuesday's calendar: nothing
    is asked, the user is talking; the model answers, nothing is looked up."""
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ)
    agent = _agent(account, [taken_for, "¡Ánimo!"])
    report = agent.run_turn(Conversation(), request_)
    assert (report.calls, report.answer) == ([], "¡Ánimo!")
    # asked, it is looked up
    agent = _agent(account, [call("show_calendar", when="today")])
    report = agent.run_turn(Conversation(), "haha ok, what's on today?")
    assert "Dentist" in report.answer


@pytest.mark.parametrize(
    ("request_", "said"),
    [("Schieb bitte das Mittagessen mit Tom um eine Stunde nach hinten", "war am"),
     ("push lunch with Tom back by an hour", "was on")],
)  # fmt: skip
def test_an_event_gone_by_is_not_moved_unless_the_request_names_its_day(
    account: CalendarAccount, request_: str, said: str
) -> None:
    """The only "Lunch with Tom" was last week: it is not moved, the user is told when it
    was."""
    create_event(account, "Lunch with Tom", at(8, 12, 30), at(8, 13, 30), tz=TZ)
    agent = _agent(account, [call("move_event", event="Lunch with Tom", shift="1 hour")])
    report = agent.run_turn(Conversation(), request_)
    assert said in report.answer and ("8 May" in report.answer or "8. Mai" in report.answer)
    assert _events(account) == {"Lunch with Tom": (at(8, 12, 30), at(8, 13, 30))}


@pytest.mark.parametrize(
    "request_",
    ["wann kommt der Klempner?", "c'est quand le plombier ?", "¿cuándo viene el fontanero?"],
)
def test_when_an_event_named_in_another_language_is_asked_its_day_is_the_answer(
    account: CalendarAccount, tmp_path: Path, request_: str
) -> None:
    """ "wann kommt der Klempner?": the glossary's "plumber" is held by "Plumber visit", so
    the calendar answers, not a file that holds the word."""
    create_event(account, "Plumber visit", at(25, 15), at(25, 16), tz=TZ)
    word = request_.split()[-1].strip("?")
    (tmp_path / f"{word.lower()}.txt").write_text(f"{request_.strip('?¿ ')}: im März 2029\n")
    backend = ScriptedBackend.from_data(
        {"format": "qwen3.5", "intents": True,
         "turns": [call("show_calendar", event=word), *["Der Klempner kommt im März."] * 3]}
    )  # fmt: skip
    agent = Agent(backend, build_registry(calendar=account, folders=[tmp_path]),
                  ContextState(allowed_folders=[str(tmp_path)]), confirmer=Answers())  # fmt: skip
    agent.front = IntentRouter()
    report = agent.run_turn(Conversation(), request_)
    assert report.answer.startswith("Plumber visit"), report.answer
