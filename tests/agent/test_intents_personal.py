"""The personal intents end to end on real servers: to-dos as VTODOs and contacts as vCards in
a real Radicale on 127.0.0.1, web searches against a saved results page served on 127.0.0.1
(ddgs's real parser), reminders and memories in a real data folder. A scripted model picks
the intent and copies the slots; code does the steps through the same gate as the free loop.

Each test proves the end state on the server (the to-do is marked COMPLETED in Radicale, the
reminder is stored for the right minute), the dialog where the tool asks, and, where the
intent has them, the "missing slot is asked" and "two match: numbered choice" paths.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from app import clock
from app.agent.intents.language import (
    asks_to_put_on_the_todo_list,
    asks_to_tick_off,
    language_of,
    remembers_a_fact,
)
from app.agent.intents.router import Doing, IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent, TurnReport
from app.llm.scripted import ScriptedBackend
from app.store.database import Database
from app.store.models import MemoryRecord
from app.store.reminders import ReminderStore
from connectors.calendar import (
    CalendarAccount,
    add_task,
    complete_task,
    create_event,
    list_tasks,
)
from connectors.contacts import add_contact
from connectors.web import DuckDuckGoEngine
from tests.agent.test_intents import TZ, Answers, _all, at
from tests.agent.test_web_agent import _Handler
from tests.agent.test_web_agent import server as results_server
from tests.connectors.test_contacts import MAKE_BOOK, PASSWORD, SOPHIE, dav, put_card
from tests.scripting import call, through_english
from tests.support.radicale_server import RadicaleServer, running_radicale

__all__ = ["results_server"]  # the web tests' local results page, shared

# Tuesday 15 May 2029, 09:30, in this machine's zone.
NOW = datetime(2029, 5, 15, 9, 30).astimezone()
SOPHIE_LAURENT = (
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:sophie-laurent\r\nFN:Sophie Laurent\r\n"
    "N:Laurent;Sophie;;;\r\nEMAIL:sophie.laurent@example.fr\r\nTEL:+33 1 98 76 54 32\r\n"
    "END:VCARD\r\n"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RadicaleServer]:
    """Radicale with a task list (a calendar) and an address book for alice."""
    with running_radicale(tmp_path_factory.mktemp("radicale"), {"alice": PASSWORD}) as running:
        with dav(running) as client:
            client.principal()  # Radicale makes the user's home on first sign-in
            client.mkcol(f"{running.url}alice/people/", MAKE_BOOK.format(name="People"))
            client.principal().make_calendar(name="Chores", cal_id="chores")
        yield running


@pytest.fixture
def account(server: RadicaleServer) -> Iterator[CalendarAccount]:
    account = CalendarAccount(server.url, "alice", PASSWORD, name="Home calendar")
    with clock.frozen_at(NOW):
        yield account
    with dav(server) as client:
        for todo in _chores(client).search(todo=True, include_completed=True):
            todo.delete()
        for event in _chores(client).search(event=True):
            event.delete()
        listing = client.propfind(f"{server.url}alice/people/", "", 1)
        assert listing.tree is not None
        for href in listing.tree.iter("{DAV:}href"):
            if href.text.endswith(".vcf"):
                client.delete(f"{server.url.rstrip('/')}{href.text}")


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    database = Database.open(tmp_path)
    try:
        yield database
    finally:
        database.close()


def _chores(client: object) -> Any:
    return client.principal().calendar(cal_id="chores")  # type: ignore[attr-defined]


def _statuses(server: RadicaleServer) -> dict[str, str]:
    """Every to-do on the server, done or not, by title: its STATUS as stored."""
    with dav(server) as client:
        found = _chores(client).search(todo=True, include_completed=True)
        return {
            str(todo.icalendar_component["SUMMARY"]): str(
                todo.icalendar_component.get("STATUS", "NEEDS-ACTION")
            )
            for todo in found
        }


def _agent(turns: list[str], answers: Answers | None = None, **tools: object) -> Agent:
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
    registry = build_registry(**tools)  # type: ignore[arg-type]
    agent = Agent(backend, registry, confirmer=answers or Answers())
    agent.front = IntentRouter()
    return agent


# -- to-dos: VTODOs in Radicale ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_", "title"),
    [("Leg mir ne Aufgabe an: Fahrradlicht reparieren bis Donnerstag",
      "Fahrradlicht reparieren bis Donnerstag"),
     ("add a todo: fix the bike light by thursday", "fix the bike light by thursday"),
     # nor where it is put
     ("could you add fix the bike light to my to-do list for thursday",
      "fix the bike light to my to-dos for Thursday"),
     ("Setz Fahrradlicht reparieren auf meine Liste für Donnerstag",
      "Fahrradlicht reparieren auf meine Liste für Donnerstag")],
)  # fmt: skip
def test_a_todos_title_keeps_no_word_of_its_day(
    account: CalendarAccount, request_: str, title: str
) -> None:
    """ "Fahrradlicht reparieren bis Sonntag": the day is the due day, and its "bis" goes
    with it ("Fahrradlicht reparieren bis" had been the title)."""
    agent = _agent([call("add_todo", title=title, due="")], calendar=account)
    report = agent.run_turn(Conversation(), request_)
    [task] = list_tasks(account)
    assert task.title.lower() in ("fahrradlicht reparieren", "fix the bike light"), report.answer
    assert task.due is not None and task.due.date() == date(2029, 5, 17)


@pytest.mark.parametrize(
    ("request_", "taken_for", "title"),
    [
        ("Ich muss Jonas noch die Fotos von der Hochzeit schicken. Setz das bitte auf meine "
         "Aufgabenliste für Donnerstag.",
         call("add_todo", title="send Jonas the wedding photos", due="Donnerstag"),
         "Jonas noch die Fotos von der Hochzeit schicken"),
        ("Je dois renvoyer le formulaire à la mairie. Ajoute-le à mes tâches pour jeudi.",
         call("add_todo", title="return the form to the town hall", due="jeudi"),
         "Renvoyer le formulaire à la mairie"),
        ("Tengo que mandarle a Pablo las fotos de la boda. Ponlo en mis tareas para el jueves.",
         call("add_todo", title="Send Pablo the wedding photos", due="Thursday"),
         "Mandarle a Pablo las fotos de la boda"),
        # a clause of its own, pointed back at ("añádelo"), and "I want to" left out
        ("quiero mandarle a Pablo las fotos de la boda, añádelo a mis tareas para el jueves",
         call("add_todo", title="", due="el jueves"), "Mandarle a Pablo las fotos de la boda"),
        ("I need to return the form to the town hall - put it on my to-do list for thursday",
         call("add_todo", title="", due="thursday"), "Return the form to the town hall"),
    ],
)  # fmt: skip
def test_a_todo_said_in_a_sentence_of_its_own_is_added_in_the_users_words(
    account: CalendarAccount, request_: str, taken_for: str, title: str
) -> None:
    """The model's title is its English (not the user's words, so dropped): the sentence
    saying the to-do, apart from the one asking to add it, is the title, without "I have
    to"; the due day is read as before."""
    agent = _agent([taken_for], calendar=account)
    report = agent.run_turn(Conversation(), request_)
    [task] = list_tasks(account)
    assert task.title == title, report.answer
    assert task.due is not None and task.due.date() == date(2029, 5, 17)


@pytest.mark.parametrize(
    ("request_", "taken_for", "title"),
    [
        ("Lena wartet noch auf die Adresse vom Lager. Setz auf meine Aufgaben, ihr zu "
         "antworten, bis Donnerstag.", call("add_todo", title="ihr zu antworten", due="Donnerstag"),
         "Ihr zu antworten: Lena wartet noch auf die Adresse vom Lager"),
        ("Pablo needs the wedding photos. Add a to-do to send them to him by Thursday.",
         call("add_todo", title="send them to him", due="Thursday"),
         "Send them to him: Pablo needs the wedding photos"),
        ("Paul attend le devis pour la cuisine. Ajoute une tâche pour que je pense à lui "
         "répondre, à faire d'ici jeudi", call("add_todo", title="répondre à lui", due="jeudi"),
         "Répondre à lui: Paul attend le devis pour la cuisine"),
        # named in the title: nothing added
        ("Pablo needs the wedding photos. Add a to-do to send Pablo the photos by Thursday.",
         call("add_todo", title="send Pablo the photos", due="Thursday"),
         "send Pablo the photos"),
    ],
)  # fmt: skip
def test_a_todo_speaking_of_someone_by_a_pronoun_keeps_the_sentence_naming_them(
    account: CalendarAccount, request_: str, taken_for: str, title: str
) -> None:
    """ "ihr zu antworten": to whom, the sentence before the asking one says; the to-do
    keeps it, so the list says what it is about."""
    agent = _agent([taken_for], calendar=account)
    report = agent.run_turn(Conversation(), request_)
    [task] = list_tasks(account)
    assert task.title == title, report.answer


def test_a_todo_is_added_to_the_real_task_list_with_its_due_day(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    answers = Answers()
    agent = _agent([call("add_todo", title="call the plumber", due="Friday")], answers,
                   calendar=account)  # fmt: skip
    report = agent.run_turn(Conversation(), "add call the plumber to my to-dos for Friday")
    [task] = list_tasks(account)
    assert (task.title, task.due_is_day) == ("call the plumber", True)
    assert task.due is not None and task.due.date() == date(2029, 5, 18)
    assert _statuses(server) == {"call the plumber": "NEEDS-ACTION"}
    assert [c.name for c in report.calls] == ["add_task"]
    assert answers.seen == []  # adding to one's own list is an ordinary write
    assert "call the plumber" in report.answer and "2029-05-18" in report.answer


@pytest.mark.parametrize(
    ("request_text", "due_slot", "english"),
    [("Apúntame en las tareas comprar carbón, para el día antes de la barbacoa.",
      "el día antes de la barbacoa", ["the barbecue"]),
     ("add buy charcoal to my to-dos, due the day before the barbecue", "", []),
     ("Setz 'Kohle kaufen' auf meine Aufgaben, zwei Tage vor dem Grillfest", "", ["barbecue"])],
)  # fmt: skip
def test_a_todo_due_a_day_before_an_event_is_due_that_day(
    account: CalendarAccount, request_text: str, due_slot: str, english: list[str]
) -> None:
    """The due day is counted back from the event the calendar dates."""
    create_event(account, "Barbecue at Tom's", at(26, 16), at(26, 20), tz=TZ)
    title = next(t for t in ("comprar carbón", "Kohle kaufen", "charcoal") if t in request_text)
    agent = _agent([call("add_todo", title=title, due=due_slot), *english], calendar=account)
    agent.run_turn(Conversation(), request_text)
    [task] = list_tasks(account)
    days = 2 if "zwei" in request_text else 1
    assert task.due is not None and task.due.date() == date(2029, 5, 26 - days)


@pytest.mark.parametrize(
    ("request_text", "title", "due"),
    [("add buy charcoal to my to-dos, before the barbecue", "buy charcoal", date(2029, 5, 26)),
     ("Setz 'Kohle kaufen' auf meine Aufgaben, vor dem Grillfest", "Kohle kaufen",
      date(2029, 5, 26)),
     ("Ajoute « acheter du charbon » à mes tâches, à faire avant le barbecue",
      "acheter du charbon", date(2029, 5, 26)),
     ("Apúntame en las tareas comprar carbón antes de la barbacoa", "comprar carbón",
      date(2029, 5, 26)),
     # the sender of an email, not a thing it is due by; a thing nothing dates
     ("add reply to the email by Anna to my to-dos", "reply to the email by Anna", None),
     ("add buy a gift to my to-dos, before the wedding", "buy a gift", None)],
)  # fmt: skip
def test_a_todo_due_before_an_event_is_due_on_its_day(
    account: CalendarAccount, request_text: str, title: str, due: date | None
) -> None:
    """ "before the barbecue", "vor dem Grillfest", "avant le barbecue", "antes de la
    barbacoa": due by the day the calendar gives the event (its English found by the
    glossary, no model step)."""
    create_event(account, "Barbecue at Tom's", at(26, 16), at(26, 20), tz=TZ)
    create_event(account, "Dinner at Anna's", at(18, 19), at(18, 22), tz=TZ)
    agent = _agent([call("add_todo", title=title), "none", "none"], calendar=account)
    report = agent.run_turn(Conversation(), request_text)
    [task] = list_tasks(account)
    assert (task.due.date() if task.due else None) == due, report.answer


@pytest.mark.parametrize(
    ("request_text", "taken_for", "title", "due"),
    [
        pytest.param("Pop 'renew the parking permit' on my to-do list for Friday",
                     call("add_event", title="renew the parking permit", when="Friday"),
                     "renew the parking permit", date(2029, 5, 18), id="en-an-event"),
        pytest.param("Nimm bitte 'Reifen wechseln' in meine Aufgaben auf",
                     call("add_to_list", item="Reifen wechseln", list="Aufgaben"),
                     "Reifen wechseln", None, id="de-a-list-file"),
        pytest.param("Tu peux ajouter « payer la cantine » à ma liste de tâches ?",
                     call("remember_fact", fact="payer la cantine"),
                     "payer la cantine", None, id="fr-a-memory"),
        pytest.param("Apúntame en las tareas comprar carbón para el sábado",
                     call("set_reminder", what="comprar carbón", when="el sábado"),
                     "comprar carbón", date(2029, 5, 19), id="es-a-reminder"),
        # "cancelling …" taken for ticking a to-do off: nothing is done yet
        pytest.param("Put cancelling the gym membership on my to-do list for Friday",
                     call("complete_todo", which="cancelling the gym membership"),
                     "cancelling the gym membership", date(2029, 5, 18), id="en-ticked-off"),
        # the list named as the things to do
        pytest.param("ajoute « rappeler l'assurance » à ma liste de choses à faire pour jeudi",
                     call("complete_todo", which="rappeler l'assurance"),
                     "rappeler l'assurance", date(2029, 5, 17), id="fr-choses-a-faire"),
        pytest.param("añade llamar al banco a mi lista de cosas por hacer",
                     call("add_to_list", item="llamar al banco", list="cosas por hacer"),
                     "llamar al banco", None, id="es-cosas-por-hacer"),
        # "as a task"
        pytest.param("notier mir als aufgabe: geschenkpapier besorgen, spätestens samstag",
                     call("send_email", to="", message="geschenkpapier besorgen"),
                     "geschenkpapier besorgen", date(2029, 5, 19), id="de-als-aufgabe"),
    ],
)  # fmt: skip
def test_a_request_to_put_something_on_the_todo_list_adds_a_todo_whatever_it_was_taken_for(
    account: CalendarAccount,
    server: RadicaleServer,
    request_text: str,
    taken_for: str,
    title: str,
    due: date | None,
) -> None:
    due_said = request_text if due is not None else ""  # the model copies the whole request
    agent = _agent([taken_for, call("add_todo", title=title, due=due_said)], Answers(),
                   calendar=account)  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_text)
    assert [c.name for c in report.calls] == ["add_task"], report.answer
    [task] = list_tasks(account)
    assert title in task.title
    assert (task.due.date() if task.due is not None else None) == due


@pytest.mark.parametrize(
    "request_text",
    ["What's on my to-do list?", "Put milk on my shopping list", "Take the bike off my tasks",
     "¿Qué tareas tengo?"],
)  # fmt: skip
def test_other_words_of_lists_are_no_new_todo(request_text: str) -> None:
    assert not asks_to_put_on_the_todo_list(request_text)


def test_a_todo_holds_no_due_day_the_model_copied_into_it_too(
    account: CalendarAccount,
) -> None:
    agent = _agent([call("add_todo", title="call grandma on Sunday", due="Sunday")],
                   calendar=account)  # fmt: skip
    agent.run_turn(Conversation(), "Could you jot down 'call grandma' on my to-do list for Sunday?")
    [task] = list_tasks(account)
    assert task.title == "call grandma"
    assert task.due is not None and task.due.date() == date(2029, 5, 20)
    # The day in other words than the due slot's ("on" for "for"): still not the to-do's.
    other = _agent([call("add_todo", title="buy stamps on Monday", due="for Monday")],
                   calendar=account)  # fmt: skip
    other.run_turn(Conversation(), "put buy stamps on my to-do list for Monday")
    assert sorted(t.title for t in list_tasks(account)) == ["buy stamps", "call grandma"]


def test_a_todo_the_model_half_translated_keeps_the_users_words(
    account: CalendarAccount,
) -> None:
    agent = _agent([call("add_todo", title="Call the fontanero")], calendar=account)
    report = agent.run_turn(Conversation(), "Apunta llamar al fontanero en mis tareas")
    assert [t.title for t in list_tasks(account)] == ["llamar al fontanero"]
    assert "llamar al fontanero" in report.answer


def test_a_todo_the_model_made_up_is_asked_for_and_the_answer_is_added(
    account: CalendarAccount,
) -> None:
    # The grammar makes the model write a title; it invents one the user never wrote.
    agent = _agent([call("add_todo", title="buy milk")], calendar=account)
    conversation = Conversation()
    first = agent.run_turn(conversation, "put something on my to-do list")
    assert (first.stop_reason, first.answer, first.calls) == (
        "asked",
        "What should the to-do say?",
        [],
    )
    assert list_tasks(account) == []
    agent.run_turn(conversation, "water the plants")
    assert [t.title for t in list_tasks(account)] == ["water the plants"]


def test_moving_a_todo_changes_its_due_day_and_an_event_named_so_is_still_moved(
    account: CalendarAccount,
) -> None:
    add_task(account, "Call the car insurance", due=date(2029, 5, 21))
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ)
    answers = Answers()
    agent = _agent(
        [call("move_event", event="the car insurance to-do", to="the 28th"),
         call("move_event", event="car service", to="Friday at 10")],
        answers, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "Push the car insurance to-do back to the 28th")
    [task] = list_tasks(account)
    assert (task.title, str(task.due)[:10]) == ("Call the car insurance", "2029-05-28")
    assert report.answer == "“Call the car insurance” is now due 2029-05-28."
    assert [c.name for c in report.calls][-1] == "update_task"
    agent.run_turn(Conversation(), "move the car service to Friday at 10")
    assert [(e.title, e.start) for e in _all(account)] == [("Car service", at(18, 10))]
    assert [c.tool for c in answers.seen] == ["update_task", "update_event"]


@pytest.mark.parametrize(
    ("request_", "taken_for", "slots"),
    [
        ("I won't get round to calling the car insurance before next Wednesday. Can you push "
         "that task on my to-do list to Friday the 25th?",
         call("complete_todo", which="car insurance"),
         call("move_event", event="the car insurance task", to="Friday the 25th")),
        ("Die Autoversicherung schaffe ich bis Mittwoch nicht mehr. Kannst du die Aufgabe auf "
         "Freitag, den 25., verschieben?",
         call("list_todos"),
         call("move_event", event="Autoversicherung", to="Freitag, den 25.")),
        ("L'assurance auto, je n'aurai pas le temps avant mercredi. Décale cette tâche au "
         "vendredi 25 stp.",
         call("complete_todo", which="assurance auto"),
         call("move_event", event="l'assurance auto", to="vendredi 25")),
        ("No me da tiempo a llamar al seguro del coche antes del miércoles. ¿Puedes pasar esa "
         "tarea al viernes 25?",
         call("complete_todo", which="seguro del coche"),
         call("move_event", event="seguro del coche", to="viernes 25")),
        # the model named nothing: the request's words name the to-do, its asking sentence
        # the day (not "mardi prochain" before it)
        ("Pour l'assurance de la voiture, impossible d'appeler avant mardi prochain. Repousse "
         "cette tâche au vendredi 25, merci.",
         call("complete_todo"), call("move_event")),
    ],
)  # fmt: skip
def test_a_todo_put_off_is_moved_though_taken_for_ticking_it_off_or_a_look_at_the_list(
    account: CalendarAccount, request_: str, taken_for: str, slots: str
) -> None:
    """Putting a to-do off ("push that task … to Friday the 25th", "die Aufgabe …
    verschieben", "décale cette tâche", "pasar esa tarea") is moving its due day, whatever
    the model took it for: nothing is ticked off, the car service stays."""
    add_task(account, "Call the car insurance about the new policy", due=date(2029, 5, 23))
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ)
    answers = Answers()
    agent = _agent([taken_for, slots, "car insurance"], answers, calendar=account)
    report = agent.run_turn(Conversation(), request_)
    [task] = list_tasks(account)
    assert str(task.due)[:10] == "2029-05-25", report.answer
    assert [c.tool for c in answers.seen] == ["update_task"]
    assert [(e.title, e.start) for e in _all(account)] == [("Car service", at(17, 8))]


def test_a_todo_holding_all_the_words_an_event_holds_some_of_is_the_one_moved(
    account: CalendarAccount,
) -> None:
    add_task(account, "Call the car insurance", due=date(2029, 5, 21))
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ)
    agent = _agent(
        [call("move_event", event="the car insurance", to="28 May"),
         call("move_event", event="car checkup", to="Friday at 10")],
        Answers(), calendar=account,
    )  # fmt: skip
    agent.run_turn(Conversation(), "Push the car insurance back to 28 May")
    [task] = list_tasks(account)
    assert str(task.due)[:10] == "2029-05-28"
    assert [(e.title, e.start) for e in _all(account)] == [("Car service", at(17, 8))]
    # No to-do holds "checkup": the event holding some of the words is moved.
    agent.run_turn(Conversation(), "move the car checkup to Friday at 10")
    assert [(e.title, e.start) for e in _all(account)] == [("Car service", at(18, 10))]


def test_listing_todos_shows_the_open_ones_and_a_due_day_narrows_them(
    account: CalendarAccount,
) -> None:
    # Written by another client (a phone's task app), one of them already done.
    add_task(account, "Pay rent", due=date(2029, 5, 16))
    add_task(account, "Renew passport", due=date(2029, 5, 30))
    add_task(account, "Fix the bike")
    agent = _agent([call("list_todos"), call("list_todos", due="by Friday")], calendar=account)
    everything = agent.run_turn(Conversation(), "what's on my to-do list?")
    assert all(t in everything.answer for t in ("Pay rent", "Renew passport", "Fix the bike"))
    soon = agent.run_turn(Conversation(), "what do I have to do by Friday?")
    assert "Pay rent" in soon.answer
    assert "Renew passport" not in soon.answer and "Fix the bike" not in soon.answer
    # A day asked about: what the calendar holds that day too (nothing on Friday here).
    assert [c.name for c in soon.calls] == ["list_tasks", "list_events"]
    assert "In your calendar then" not in soon.answer


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("¿tengo que devolver algo a la biblioteca?", call("cancel_event", event="biblioteca")),
     ("Muss ich noch Bücher in die Bibliothek zurückbringen?",
      call("complete_todo", which="Bücher Bibliothek")),
     ("do i still need to return the library books?", call("list_todos"))],
)  # fmt: skip
def test_a_question_of_what_the_user_has_to_do_is_the_todos_it_names(
    account: CalendarAccount, request_: str, taken_for: str
) -> None:
    """ "¿tengo que devolver algo a la biblioteca?" taken for cancelling an event or ticking
    off a to-do: a question, which changes nothing; the to-dos it names (by the glossary's
    English) are the answer."""
    add_task(account, "Return the library books", due=date(2029, 5, 17))
    add_task(account, "Renew passport", due=date(2029, 5, 30))
    create_event(account, "Yoga", at(17, 18), at(17, 19), tz=TZ)
    answers = Answers()
    agent = _agent([taken_for, call("list_todos")], answers, calendar=account)
    report = agent.run_turn(Conversation(), request_)
    assert "Return the library books" in report.answer
    assert "passport" not in report.answer
    assert answers.seen == [] and len(list_tasks(account)) == 2 and len(_all(account)) == 1


@pytest.mark.parametrize(
    ("request_", "taken_for", "said"),
    [("hab ich die steuerunterlagen schon erledigt?",
      call("remember_fact", fact="Steuerunterlagen erledigt"),
      "Ja, erledigt: „Send the tax papers to the accountant“ ist abgehakt."),
     ("did I already pay the rent?", call("complete_todo", which="rent"),
      "Not yet: “Pay the rent for June” is still open (due 2029-05-30)."),
     ("¿ya pagué el alquiler?", call("list_todos"),
      "Todavía no: «Pay the rent for June» sigue pendiente (vence 2029-05-30).")],
)  # fmt: skip
def test_a_question_whether_a_todo_is_done_is_answered_from_done_and_open_ones(
    account: CalendarAccount, request_: str, taken_for: str, said: str
) -> None:
    """ "hab ich die steuerunterlagen schon erledigt?" taken for a fact to keep or for ticking
    off: the to-do it names (by the glossary's English), done or still open; nothing
    changes and no dialog is shown."""
    add_task(account, "Pay the rent for June", due=date(2029, 5, 30))
    taxes = add_task(account, "Send the tax papers to the accountant", due=date(2029, 5, 10))
    complete_task(account, taxes.task_id)
    answers = Answers()
    agent = _agent([taken_for, call("list_todos")], answers, calendar=account)
    report = agent.run_turn(Conversation(), request_)
    assert report.answer == said
    assert answers.seen == [] and [t.title for t in list_tasks(account)] == [
        "Pay the rent for June"
    ]


@pytest.mark.parametrize(
    "request_",
    ["je dois rendre les livres à la bibliothèque quand déjà ?",
     "Bis wann muss ich die Bücher in die Bibliothek zurückbringen?"],
)  # fmt: skip
def test_a_question_a_todo_answers_taken_for_a_memory_is_the_todo(
    account: CalendarAccount, database: Database, request_: str
) -> None:
    """Taken for a memory, and nothing remembered holds it: the open to-do holding its
    words (by the glossary's English) answers, with its due day."""
    add_task(account, "Return the library books", due=date(2029, 5, 17))
    add_task(account, "Renew passport", due=date(2029, 5, 30))
    agent = _agent([call("recall_fact", about="livres bibliothèque"), "", ""], calendar=account,
                   data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "Return the library books" in report.answer and "2029-05-17" in report.answer
    assert "passport" not in report.answer


def test_todos_for_a_period_are_those_due_by_its_end_with_the_calendar_then(
    account: CalendarAccount,
) -> None:
    add_task(account, "Pay rent", due=date(2029, 5, 16))
    add_task(account, "Return library books", due=date(2029, 5, 19))  # Saturday
    add_task(account, "Renew passport", due=date(2029, 5, 30))
    create_event(
        account, "Dentist", datetime(2029, 5, 17, 8), datetime(2029, 5, 17, 9), tz=NOW.tzinfo
    )
    agent = _agent([call("list_todos", due="this week")], calendar=account)
    week = agent.run_turn(Conversation(), "what do I have this week?")
    todos, calendar = week.answer.split("In your calendar then:\n")
    assert "Pay rent" in todos and "Return library books" in todos
    assert "Renew passport" not in todos
    assert calendar.splitlines() == ["- Thu 17 May, 08:00–09:00 Dentist"]


def test_completing_a_todo_two_match_is_a_numbered_choice_then_the_dialog(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    add_task(account, "Buy milk")
    add_task(account, "Buy stamps")
    add_task(account, "Call mum")
    answers = Answers()
    agent = _agent([call("complete_todo", which="buy")], answers, calendar=account)
    conversation = Conversation()
    first = agent.run_turn(conversation, "tick off the buy task")
    assert first.stop_reason == "asked" and answers.seen == []
    assert "Call mum" not in first.answer
    second_line = next(line for line in first.answer.splitlines() if line.startswith("2."))
    chosen = "Buy stamps" if "stamps" in second_line else "Buy milk"
    other = ({"Buy milk", "Buy stamps"} - {chosen}).pop()
    second = agent.run_turn(conversation, "2")
    # The list is other people's words (a shared list): a change after reading it asks.
    [shown] = answers.seen
    assert shown.tool == "complete_task" and "Mark as done" in shown.preview
    assert chosen in shown.preview
    assert _statuses(server) == {chosen: "COMPLETED", other: "NEEDS-ACTION",
                                 "Call mum": "NEEDS-ACTION"}  # fmt: skip
    assert second.answer == f"Done: {chosen}."


@pytest.mark.parametrize(
    "request_",
    ["J'ai fini de réparer la lumière du vélo, tu peux cocher la tâche ?",
     "Ya arreglé la luz de la bici, márcala como hecha"],
)  # fmt: skip
def test_a_todo_the_models_words_miss_is_found_by_the_everyday_things_the_request_names(
    account: CalendarAccount, server: RadicaleServer, request_: str
) -> None:
    """The model's words name nothing ("the tâche"); the request names the bike light in
    French or Spanish: "Fix the bike light", found without asking the model to pick."""
    add_task(account, "Call mum")
    add_task(account, "Fix the bike light")
    answers = Answers()
    agent = _agent([call("complete_todo", which="the tâche")], answers, calendar=account)
    report = agent.run_turn(Conversation(), request_)
    assert _statuses(server) == {"Fix the bike light": "COMPLETED", "Call mum": "NEEDS-ACTION"}, (
        report.answer
    )


def test_a_todo_named_in_german_is_found_by_its_english_title(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    add_task(account, "Return library books", due=date(2029, 5, 18))
    add_task(account, "Pay rent", due=date(2029, 5, 31))
    # The model's "books" is dropped (not the user's word): the whole message names the
    # to-do, and its key words in English find it.
    agent = _agent([call("complete_todo", which="books"), "library books"], Answers(),
                   calendar=account)  # fmt: skip
    request = "Ich habe die Bücher in die Bibliothek zurückgebracht, hak das bitte ab"
    report = agent.run_turn(Conversation(), request)
    assert report.calls[-1].name == "complete_task"
    assert _statuses(server) == {"Return library books": "COMPLETED", "Pay rent": "NEEDS-ACTION"}


@pytest.mark.parametrize(
    ("request_text", "taken_for", "which", "english", "ticked"),
    [
        pytest.param("die bücher hab ich gestern schon in die bibliothek zurückgebracht, "
                     "kannst du abhaken", call("cancel_event", event="bibcher"), "die bücher",
                     "library books", "Return library books", id="de-abhaken"),
        pytest.param("Finished the rent transfer, can you cross it off?",
                     call("find_emails", about="rent transfer"), "rent", "",
                     "Pay rent", id="en-cross-off"),
        pytest.param("J'ai payé le loyer, tu peux le cocher ?",
                     call("forget_fact", which="loyer"), "le loyer", "rent", "Pay rent",
                     id="fr-cocher"),
        pytest.param("Ya devolví los libros a la biblioteca, táchalo de la lista",
                     call("just_answer"), "los libros", "library books",
                     "Return library books", id="es-tachar"),
        pytest.param("Esta mañana pagué el alquiler, ¿me lo tachas de la lista?",
                     call("show_calendar", when="esta mañana"), "el alquiler", "rent",
                     "Pay rent", id="es-me-lo-tachas"),
        # the model right, but a day named ("esta mañana") and no word of the title in
        # Spanish: asked to mark it done, it is a to-do all the same
        pytest.param("¡Por fin! Esta mañana hice la transferencia del alquiler a la "
                     "administración. ¿Me lo marcas como hecho en mis pendientes?",
                     call("complete_todo", which="paid it"), "", "", "Pay rent", id="es-marcas"),
        # taken off "my list", no list of a file named: the to-do list
        pytest.param("Die Miete ist überwiesen, kannst du das von meiner Liste streichen?",
                     call("list_todos"), "die Miete", "rent", "Pay rent", id="de-streichen"),
        pytest.param("Paid the rent this morning, take it off my list please",
                     call("list_todos"), "rent", "", "Pay rent", id="en-take-off-my-list"),
        pytest.param("J'ai rendu les livres à la bibliothèque, enlève ça de ma liste de tâches",
                     call("list_todos"), "les livres", "library books", "Return library books",
                     id="fr-enleve-de-ma-liste"),
        pytest.param("Ya pagué el alquiler, quítalo de mi lista de pendientes",
                     call("list_todos"), "el alquiler", "rent", "Pay rent", id="es-quitalo"),
    ],
)  # fmt: skip
def test_a_request_to_tick_off_is_completing_a_todo_whatever_it_was_taken_for(
    account: CalendarAccount,
    server: RadicaleServer,
    request_text: str,
    taken_for: str,
    which: str,
    english: str,
    ticked: str,
) -> None:
    add_task(account, "Return library books", due=date(2029, 5, 17))
    add_task(account, "Pay rent", due=date(2029, 5, 31))
    answers = Answers()
    turns = [taken_for, call("complete_todo", which=which), *([english] if english else [])]
    agent = _agent(turns, answers, calendar=account)
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_text)
    assert [r.tool for r in answers.seen] == ["complete_task"], report.answer
    other = next(t for t in ("Return library books", "Pay rent") if t != ticked)
    assert _statuses(server) == {ticked: "COMPLETED", other: "NEEDS-ACTION"}


@pytest.mark.parametrize(
    ("request_text", "ticked"),
    [("Finally finished The Remains of the Day last night, just in time for book club. I "
      "teared up at the end - poor Stevens on that pier.", None),
     ("Enfin fini Les Misérables hier soir, juste à temps pour le club de lecture.", None),
     # a to-do named by two of its words, or asked to be ticked off: done
     ("Returned the library books to the Stadtbibliothek this morning.",
      "Return library books"),
     ("Finished The Remains of the Day, so the books can go back - tick it off please.",
      "Return library books")],
)  # fmt: skip
def test_chatter_naming_something_no_todo_holds_is_no_todo_done(
    account: CalendarAccount, server: RadicaleServer, request_text: str, ticked: str | None
) -> None:
    """ "Finally finished The Remains of the Day …" taken for a to-do done ("Return library
    books" holds "book" of "book club"): it names by name what no to-do holds, asks nothing
    and no to-do holds two of its words, so it is a plain answer, and nothing is ticked."""
    add_task(account, "Return library books", due=date(2029, 5, 17))
    answers = Answers()
    turns = [call("complete_todo", which="books"), "What a book!", "library books"]
    agent = _agent(turns, answers, calendar=account)
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_text)
    status = _statuses(server)["Return library books"]
    if ticked is None:
        assert (report.calls, report.answer, status) == ([], "What a book!", "NEEDS-ACTION")
    else:
        assert status == "COMPLETED", report.answer


@pytest.mark.parametrize(
    "request_text",
    ["Can you check the opening hours of the library?", "Hak bei Tom nach, ob er kommt",
     "¿Cuánto cuesta un coche eléctrico?", "Check out this article about rent"],
)  # fmt: skip
def test_other_checking_is_no_ticking_off(request_text: str) -> None:
    assert not asks_to_tick_off(request_text)


def test_a_days_question_taken_for_completing_a_todo_shows_that_day(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """No to-do named and none due that day: the calendar's question, answered from it;
    nothing is ticked off."""
    add_task(account, "Buy stamps")
    create_event(account, "Dinner with Anna", datetime(2029, 5, 11, 19, 0),
                 datetime(2029, 5, 11, 21, 0), tz=NOW.tzinfo)  # fmt: skip
    answers = Answers()
    agent = _agent(
        [call("complete_todo", which="What did I do last Friday evening?"),
         call("show_calendar", when="last Friday evening")],
        answers, calendar=account,
    )  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "What did I do last Friday evening?")
    assert "complete_task" not in [c.name for c in report.calls] and answers.seen == []
    assert "Dinner with Anna" in report.answer
    assert _statuses(server) == {"Buy stamps": "NEEDS-ACTION"}


def test_a_past_days_question_taken_for_the_todo_list_shows_that_days_calendar(
    account: CalendarAccount,
) -> None:
    """ "What did I do last Friday evening?" taken for the to-do list (the model's "Friday
    evening" is next Friday's): a day gone by has no to-dos to list, its calendar answers."""
    add_task(account, "Buy stamps")
    create_event(account, "Dinner with Anna", datetime(2029, 5, 11, 19, 0),
                 datetime(2029, 5, 11, 21, 0), tz=NOW.tzinfo)  # fmt: skip
    turns = [call("list_todos", due="Friday evening"),
             call("show_calendar", when="last Friday evening")]  # fmt: skip
    agent = _agent(turns, calendar=account)
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "What did I do last Friday evening?")
    assert "Dinner with Anna" in report.answer and "Buy stamps" not in report.answer


def test_a_todo_due_on_the_day_named_is_still_the_one_to_tick_off(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    add_task(account, "Post the parcel", due=date(2029, 5, 18))
    answers = Answers()
    agent = _agent([call("complete_todo", which="Friday's errand")], answers, calendar=account)
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "Done with Friday's errand, tick it off")
    assert "list_events" not in [c.name for c in report.calls]


def test_a_todo_named_in_made_up_words_is_asked_for_and_a_refusal_keeps_it_open(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    add_task(account, "Pay the car tax")
    answers = Answers(approve=False)
    agent = _agent([call("complete_todo", which="tax return")], answers, calendar=account)
    conversation = Conversation()
    first = agent.run_turn(conversation, "I've done it, tick it off")
    assert (first.stop_reason, first.answer) == ("asked", "Which to-do?")
    second = agent.run_turn(conversation, "the car tax")
    assert [r.tool for r in answers.seen] == ["complete_task"]
    assert _statuses(server) == {"Pay the car tax": "NEEDS-ACTION"}
    assert "didn't" in second.answer


def test_a_todo_the_model_misnamed_is_found_by_the_words_of_the_message(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    add_task(account, "Pay rent for June")
    add_task(account, "Renew passport")
    answers = Answers()
    # The model's words hold half the message but are no to-do's title: the to-do holding
    # most of the message's words is the one meant, and the dialog shows it.
    agent = _agent([call("complete_todo", which="rent the rent, tick it off")], answers,
                   calendar=account)  # fmt: skip
    report = agent.run_turn(Conversation(), "I've paid the rent, tick it off my list")
    assert [r.tool for r in answers.seen] == ["complete_task"]
    assert _statuses(server) == {"Pay rent for June": "COMPLETED", "Renew passport": "NEEDS-ACTION"}
    assert "Pay rent for June" in report.answer


@pytest.mark.parametrize(
    ("request_", "which"),
    [("bon, hier j'ai enfin trouvé des gants de jardinage pour l'anniversaire de maman, tu "
      "peux marquer la tâche comme faite ?", "the tâche courses as faite"),
     ("Endlich ein Geschenk für Mama gefunden, hak das bitte ab", "Geschenk abhaken"),
     ("got mum's present sorted, cross it off", "the gift thing")],
)  # fmt: skip
def test_a_todo_the_model_misnamed_is_found_by_the_family_the_message_names(
    account: CalendarAccount, server: RadicaleServer, request_: str, which: str
) -> None:
    """The model's words name no to-do; the message names Mum as the user calls her."""
    add_task(account, "Buy a birthday present for Mum")
    add_task(account, "Fix the bike light")
    answers = Answers()
    turns = [call("complete_todo", which=which), "the task"]  # (its words put into English)
    agent = _agent(turns, answers, calendar=account)
    report = agent.run_turn(Conversation(), request_)
    assert [r.tool for r in answers.seen] == ["complete_task"], report.answer
    assert _statuses(server)["Buy a birthday present for Mum"] == "COMPLETED"


# -- contacts: vCards in Radicale's address book ------------------------------------------------


def test_a_contact_is_looked_up_in_the_real_address_book(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    put_card(server, SOPHIE)
    put_card(server, SOPHIE_LAURENT, "laurent.vcf")
    answers = Answers()
    agent = _agent(
        [call("find_contact", who="Sophie Martin"), call("find_contact", who="Sophie")],
        answers,
        calendar=account,
    )
    one = agent.run_turn(Conversation(), "What's Sophie Martin's number?")
    assert "Sophie Martin" in one.answer and "+33 6 12 34 56 78" in one.answer
    assert "Laurent" not in one.answer
    # Two people match a lookup: both are shown (nothing to choose for a read).
    both = agent.run_turn(Conversation(), "how do I reach Sophie?")
    assert "sophie.martin@example.org" in both.answer
    assert "sophie.laurent@example.fr" in both.answer
    assert [c.name for c in both.calls] == ["find_contact"] and answers.seen == []


@pytest.mark.parametrize(
    "request_",
    [
        "Was weißt du über Sophie?",
        "what do you know about Sophie",
    ],
)
def test_what_is_known_of_someone_no_memory_holds_is_their_card(
    account: CalendarAccount, server: RadicaleServer, database: Database, request_: str
) -> None:
    """ "Was weißt du über Sophie?" taken for a memory, and none holds her: she is in the
    address book, so her card answers (the model said "Sophie ist eine bekannte Figur")."""
    put_card(server, SOPHIE)
    agent = _agent([call("recall_fact", about="Sophie's email address?"),
                    *["Sophie ist eine bekannte Figur."] * 3], calendar=account,
                   data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert report.answer.startswith("- Sophie Martin: sophie.martin@example.org"), report.answer


@pytest.mark.parametrize(
    "request_",
    ["whats sophies mobile number again? need to text her", "What's Sophie's mobile number?"],
)
def test_a_number_asked_for_taken_for_a_plain_answer_is_looked_up_on_the_card(
    account: CalendarAccount, server: RadicaleServer, database: Database, request_: str
) -> None:
    """ "whats priyas mobile number again?" taken for the model's own answer (it made up
    "967-5028"): her card, found by the name though typed in lower case with its "s"."""
    put_card(server, SOPHIE)
    agent = _agent([call("just_answer"), *["Sophie's number is 967-5028."] * 3],
                   calendar=account, data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "+33 6 12 34 56 78" in report.answer and "967" not in report.answer, report.answer


@pytest.mark.parametrize(
    "request_", ["whats priyas mobile number again? need to text her", "What's Priya's number?"]
)
def test_a_number_of_someone_in_the_address_book_is_no_question_of_general_knowledge(
    account: CalendarAccount, server: RadicaleServer, request_: str
) -> None:
    """ "What's Priya's number?", chosen right: her card holds no word of "number", but its
    name is the one the question names, so it is hers, looked up (the model had answered
    "0789-123456" itself)."""
    priya = SOPHIE.replace("Sophie Martin", "Priya Nair").replace("sophie-phone", "priya")
    put_card(server, priya.replace("N:Martin;Sophie", "N:Nair;Priya"), "priya.vcf")
    agent = _agent([call("find_contact", who="Priya"), *["It is 0789-123456."] * 3],
                   calendar=account)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "+33 6 12 34 56 78" in report.answer and "0789" not in report.answer, report.answer


@pytest.mark.parametrize(
    ("request_", "who"),
    [("gotta text Tom about the bbq.. whats his mobile again?", "Tom's"),
     ("Wie ist die Handynummer von meiner Mama?", "Mama"),
     ("C'est quoi le numéro de ma mère ?", "ma mère"),
     # the German genitive and the detail copied with the name
     ("Ich hab Toms Nummer nicht mehr im Handy. Unter welcher Nummer erreiche ich ihn?",
      "Toms Nummer"),
     ("Tu as le portable de Tom ?", "le portable de Tom")],
)  # fmt: skip
def test_a_contact_named_in_the_possessive_or_as_family_is_found(
    account: CalendarAccount, server: RadicaleServer, request_: str, who: str
) -> None:
    """ "Tom's" is Tom; "Mama", "ma mère": the card whose note says "Mum"."""
    tom = SOPHIE.replace("Sophie Martin", "Tom Becker").replace("sophie-phone", "tom")
    put_card(server, tom.replace("N:Martin;Sophie", "N:Becker;Tom"), "tom.vcf")
    helen = SOPHIE.replace("Sophie Martin", "Helen Morgan").replace("sophie-phone", "helen")
    helen = helen.replace("N:Martin;Sophie", "N:Morgan;Helen").replace("+33 6", "+44 20")
    put_card(server, helen.replace("END:VCARD", "NOTE:Mum\r\nEND:VCARD"), "helen.vcf")
    agent = _agent([call("find_contact", who=who)], calendar=account)
    report = agent.run_turn(Conversation(), request_)
    expected = "Tom Becker" if "Tom" in who else "Helen Morgan"
    assert expected in report.answer and len(report.answer.splitlines()) == 1


@pytest.mark.parametrize(
    ("request_", "who", "card"),
    [("faut que j'appelle le cabinet dentaire avant midi, t'as leur numéro ?", "dentaire",
      "Zahnarztpraxis Dr. Weber"),
     ("¿Tienes el teléfono del fontanero?", "fontanero", "Klempner Schulz"),
     ("What's the number of the plumber?", "plumber", "Klempner Schulz")],
)  # fmt: skip
def test_a_contact_named_by_what_they_do_in_another_language_is_found(
    account: CalendarAccount, server: RadicaleServer, request_: str, who: str, card: str
) -> None:
    """ "le cabinet dentaire" of the card "Zahnarztpraxis Dr. Weber": the everyday thing in
    its other languages finds the card by part of its name."""
    for name, uid in (("Zahnarztpraxis Dr. Weber", "praxis"), ("Klempner Schulz", "klempner")):
        vcard = SOPHIE.replace("Sophie Martin", name).replace("sophie-phone", uid)
        put_card(server, vcard.replace("N:Martin;Sophie", f"N:{name};"), f"{uid}.vcf")
    agent = _agent([call("find_contact", who=who)], calendar=account)
    report = agent.run_turn(Conversation(), request_)
    assert card in report.answer and len(report.answer.splitlines()) == 1, report.answer


@pytest.mark.parametrize(
    ("request_", "who"),
    [("¿cuál es la dirección de la consulta del dentista?", "dentista"),
     ("where is the dentist's practice?", "dentist")],
)  # fmt: skip
def test_where_someone_is_is_the_place_of_their_event_in_the_calendar(
    account: CalendarAccount, server: RadicaleServer, request_: str, who: str
) -> None:
    """Cards keep no street address: "la dirección de la consulta del dentista" is the
    place of the calendar's "Dentist" (beside the card, where one was found)."""
    vcard = SOPHIE.replace("Sophie Martin", "Zahnarztpraxis Dr. Weber").replace(
        "sophie-phone", "praxis"
    )
    put_card(server, vcard.replace("N:Martin;Sophie", "N:Zahnarztpraxis Dr. Weber;"), "p.vcf")
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ,
                 location="Dr. Weber, Hauptstraße 5")  # fmt: skip
    agent = _agent([call("find_contact", who=who)], calendar=account)
    report = agent.run_turn(Conversation(), request_)
    assert "Hauptstraße 5" in report.answer, report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("Ich will heute Abend Mutti anrufen, hab aber ihre Nummer nicht im neuen Handy.",
      call("find_emails", about="Mutti Nummer")),
     ("what's my mum's mobile again?", call("recall_fact", about="mum's mobile")),
     ("¿Me das el teléfono de mi madre?", call("show_calendar"))],
)  # fmt: skip
def test_a_family_members_number_is_their_card_whatever_it_was_taken_for(
    account: CalendarAccount, server: RadicaleServer, request_: str, taken_for: str
) -> None:
    helen = SOPHIE.replace("Sophie Martin", "Helen Morgan").replace("sophie-phone", "helen")
    helen = helen.replace("N:Martin;Sophie", "N:Morgan;Helen").replace("+33 6", "+44 20")
    put_card(server, helen.replace("END:VCARD", "NOTE:Mum\r\nEND:VCARD"), "helen.vcf")
    agent = _agent([taken_for], calendar=account)
    report = agent.run_turn(Conversation(), request_)
    assert "Helen Morgan" in report.answer and "+44 20" in report.answer


@pytest.mark.parametrize(
    "request_",
    ["¿me pasas el móvil de Sophie? le quiero escribir por whatsapp",
     "What's Sophie's number? I want to text her about Saturday",
     "Donne-moi le portable de Sophie, je veux lui écrire",
     # "die Nummer von …" beside a call to make ("anrufen"), taken for a reply
     "hey wie war nochmal die nummer von sophie? muss sie gleich wegen den folien anrufen"],
)  # fmt: skip
def test_someones_phone_number_asked_for_is_their_card_though_taken_for_an_email(
    account: CalendarAccount, server: RadicaleServer, request_: str
) -> None:
    """Writing to them is said, but what is asked for is the number: her card is shown,
    no email is written."""
    put_card(server, SOPHIE)
    answers = Answers(approve=False)
    agent = _agent([call("send_email", to="Sophie", message="whatsapp")], answers,
                   calendar=account)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "+33 6 12 34 56 78" in report.answer and not answers.seen, report.answer


@pytest.mark.parametrize(
    "fact", ["Sophies Handynummer ist 41", "Sophie hat eine Handynummer"]
)  # fmt: skip
def test_someones_number_asked_for_is_their_card_though_taken_for_a_fact_to_keep(
    account: CalendarAccount, server: RadicaleServer, database: Database, fact: str
) -> None:
    """ "Hast du mal Sophies Handynummer für mich?" taken for a fact to remember (with the
    41 of a worked example, "mi talla de zapato es 41"): her card is shown, nothing is
    kept."""
    put_card(server, SOPHIE)
    agent = _agent([call("remember_fact", fact=fact), call("find_contact", who="Sophie")],
                   calendar=account, data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), "Hast du mal Sophies Handynummer für mich?")
    assert "+33 6 12 34 56 78" in report.answer
    with database.session() as session:
        assert session.query(MemoryRecord).count() == 0


def test_a_number_of_a_worked_example_the_request_does_not_say_is_kept_nowhere(
    database: Database,
) -> None:
    """The model wrote an example's number into the fact ("es 41"): the fact is not kept,
    the user is asked what to remember; a number the user said stays."""
    agent = _agent([call("remember_fact", fact="my shoe size is 41")], data=database)
    report = agent.run_turn(Conversation(), "Please remember my shoe size")
    assert report.stop_reason == "asked" and not report.calls
    agent = _agent([call("remember_fact", fact="my shoe size is 42")], data=database)
    agent.run_turn(Conversation(), "Please remember that my shoe size is 42")
    with database.session() as session:
        assert [m.text for m in session.query(MemoryRecord)] == ["my shoe size is 42"]


def test_a_number_no_contact_has_but_a_memory_holds_is_answered_from_it(
    account: CalendarAccount, database: Database
) -> None:
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=NOW, text="My gym locker number is 112"))
    agent = _agent([call("find_contact", who="locker")], calendar=account, data=database)
    report = agent.run_turn(Conversation(), "And the locker?")  # one word: no memory first
    assert [c.name for c in report.calls] == ["find_contact", "recall"]
    assert "My gym locker number is 112" in report.answer


def test_a_number_a_memory_holds_is_recalled_before_a_name_is_asked(
    account: CalendarAccount, database: Database
) -> None:
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=NOW, text="My gym locker number is 112"))
        session.add(MemoryRecord(created=NOW, text="Lisa cannot eat peanuts"))
    # The model filled no name (none was said), then the memory's question is filled.
    agent = _agent([call("find_contact"), call("recall_fact", about="locker number")],
                   calendar=account, data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), "What's my locker number?")
    assert "My gym locker number is 112" in report.answer and "Lisa" not in report.answer
    assert report.stop_reason == "answered"


@pytest.mark.parametrize(
    ("request_", "translated"),
    [("Quiero quedar con una amiga en mi cafetería favorita pero no me sale el nombre, "
      "¿cuál era?", ["I want to meet a friend at my favourite café but I forgot the name?"]),
     ("what was my favourite café called again?", [])],
)  # fmt: skip
def test_a_question_of_the_users_own_a_memory_holds_is_answered_before_a_name_is_asked(
    account: CalendarAccount, database: Database, request_: str, translated: list[str]
) -> None:
    """Taken for a contact with no name filled: the memory holding two of its words (in its
    English) answers, not the question "whom?"."""
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=NOW, text="Alex's favourite café is Café Rosa."))
        session.add(MemoryRecord(created=NOW, text="The café on the corner opens at 7."))
    agent = _agent([call("find_contact"), *translated], calendar=account, data=database)
    report = agent.run_turn(Conversation(), request_)
    assert "Café Rosa" in report.answer and "corner" not in report.answer
    assert report.stop_reason == "answered"


def test_a_contacts_number_no_memory_wholly_holds_is_looked_up(
    account: CalendarAccount, server: RadicaleServer, database: Database
) -> None:
    put_card(server, SOPHIE)
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=NOW, text="My gym locker number is 112"))
    agent = _agent([call("find_contact", who="Sophie")], calendar=account, data=database)
    report = agent.run_turn(Conversation(), "What's Sophie's number?")
    assert [c.name for c in report.calls] == ["recall", "find_contact"]
    assert "Sophie Martin" in report.answer and "112" not in report.answer


def test_a_contact_name_the_model_made_up_is_asked_for(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    put_card(server, SOPHIE)
    agent = _agent([call("find_contact", who="Sophie")], calendar=account)
    conversation = Conversation()
    first = agent.run_turn(conversation, "what's her phone number?")
    assert (first.stop_reason, first.answer, first.calls) == (
        "asked",
        "Whom should I look up?",
        [],
    )
    second = agent.run_turn(conversation, "Sophie Martin")
    assert "+33 6 12 34 56 78" in second.answer
    # A name the model completed from an example keeps the part the user wrote.
    completed = _agent([call("find_contact", who="Sophie Ruiz")], calendar=account)
    report = completed.run_turn(Conversation(), "What's Sophie's phone number?")
    assert report.calls[0].arguments == {"query": "Sophie"}
    assert "+33 6 12 34 56 78" in report.answer
    nobody = _agent([call("find_contact", who="Nadia")], calendar=account)
    assert "no contact" in nobody.run_turn(Conversation(), "Nadia's email?").answer


# -- web search: a saved results page on 127.0.0.1 ----------------------------------------------


def test_a_web_search_shows_the_query_first_then_lists_the_results(
    results_server: object,
) -> None:
    port = results_server.server_address[1]  # type: ignore[attr-defined]
    engine = DuckDuckGoEngine(search_url=f"http://127.0.0.1:{port}/html/", timeout=5)
    answers = Answers()
    agent = _agent([call("search_web", query="sourdough starter")], answers, search_engine=engine)
    report = agent.run_turn(Conversation(), "search the web for sourdough starter")
    [shown] = answers.seen
    assert shown.preview == "Search the web (DuckDuckGo) for: sourdough starter"
    assert _Handler.requests == ["/html/"]  # the search reached the server once
    assert report.answer.startswith("Web results for “sourdough starter”:")
    assert "https://bread.example/guides/starter" in report.answer
    assert "Sourdough - Wiki Example" in report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("what's the weather like in berlin today?", call("show_calendar", when="today")),
     ("Wie wird das Wetter morgen in Hamburg?", call("just_answer"))],
)  # fmt: skip
def test_the_weather_asked_is_searched_on_the_web(
    results_server: object, account: CalendarAccount, request_: str, taken_for: str
) -> None:
    """ "what's the weather like in berlin today?" taken for the day's calendar, or for the
    model's own answer: only the web knows; the search is shown first."""
    port = results_server.server_address[1]  # type: ignore[attr-defined]
    engine = DuckDuckGoEngine(search_url=f"http://127.0.0.1:{port}/html/", timeout=5)
    answers = Answers()
    agent = _agent([taken_for], answers, search_engine=engine, calendar=account)
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.preview == f"Search the web (DuckDuckGo) for: {request_.strip(' ?')}"
    assert [c.name for c in report.calls] == ["web_search"], report.answer


def test_a_web_search_the_user_refuses_never_reaches_the_server(results_server: object) -> None:
    port = results_server.server_address[1]  # type: ignore[attr-defined]
    engine = DuckDuckGoEngine(search_url=f"http://127.0.0.1:{port}/html/", timeout=5)
    answers = Answers(approve=False)
    # The query the model wrote is not the user's: asked for, then the user refuses.
    agent = _agent([call("search_web", query="weather in Lisbon")], answers,
                   search_engine=engine)  # fmt: skip
    conversation = Conversation()
    first = agent.run_turn(conversation, "look something up online for me")
    assert (first.stop_reason, first.answer) == ("asked", "What should I search for?")
    second = agent.run_turn(conversation, "rye starter recipes")
    assert [r.preview for r in answers.seen] == [
        "Search the web (DuckDuckGo) for: rye starter recipes"
    ]
    assert _Handler.requests == [] and "didn't" in second.answer


# -- reminders and memories: the real data folder -------------------------------------------------


def test_a_reminder_without_a_time_is_asked_for_and_set_for_that_minute(
    database: Database,
) -> None:
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what="water the plants", when="tonight")],
                       data=database)  # fmt: skip
        conversation = Conversation()
        first = agent.run_turn(conversation, "remind me to water the plants")
        assert (first.stop_reason, first.answer) == ("asked", "When should I remind you?")
        assert ReminderStore(database).pending() == []
        second = agent.run_turn(conversation, "tomorrow at 8")
    [reminder] = ReminderStore(database).pending()
    assert reminder.text == "water the plants"
    assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 16, 8, 0)
    assert second.answer == "Reminder set for Wednesday 16 May at 08:00: water the plants"


@pytest.mark.parametrize(
    ("first_", "then", "text"),
    [("remind me", "tomorrow at 9 to call the insurance", "call the insurance"),
     ("Erinner mich", "morgen um 9, dass ich die Versicherung anrufe",
      "die Versicherung anrufe")],
)  # fmt: skip
def test_a_reminder_asked_for_alone_is_told_what_with_its_time(
    database: Database, first_: str, then: str, text: str
) -> None:
    """Only "remind me", asked when, and told "tomorrow at 9 to call the insurance": what to
    do is what the answer says after its time."""
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what=first_, when="")], data=database)
        conversation = Conversation()
        first = agent.run_turn(conversation, first_)
        assert first.stop_reason == "asked", first.answer
        agent.run_turn(conversation, then)
    [reminder] = ReminderStore(database).pending()
    assert reminder.text == text
    assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 16, 9, 0)


def test_a_reminder_for_a_clock_time_already_past_today_goes_off_tomorrow(
    database: Database,
) -> None:
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what="call mum", when="at 6am")], data=database)
        agent.run_turn(Conversation(), "remind me at 6am to call mum")
    [reminder] = ReminderStore(database).pending()
    assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 16, 6, 0)


def _reminder_due(database: Database, request_text: str, when: str) -> datetime:
    """When the one reminder set for `request_text` goes off, the model's time slot `when`."""
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what="pick it up", when=when)], data=database)
        agent.run_turn(Conversation(), request_text)
    [reminder] = ReminderStore(database).pending()
    return reminder.local_due().replace(tzinfo=None)


@pytest.mark.parametrize(
    ("request_text", "when", "due"),
    [
        ("die apotheke hat geschrieben dass meine bestellung da ist. erinner mich bitte "
         "übermorgen um sechs abends dran, sie abzuholen", "sechs abends dran",
         datetime(2029, 5, 17, 18, 0)),
        ("Remind me on Friday to call the garage at 4pm", "4pm", datetime(2029, 5, 18, 16, 0)),
        ("Rappelle-moi demain de sortir les poubelles, vers 20h", "le soir",
         datetime(2029, 5, 16, 20, 0)),
    ],
)  # fmt: skip
def test_a_reminder_is_set_on_the_day_the_request_names_when_the_models_time_has_none(
    database: Database, request_text: str, when: str, due: datetime
) -> None:
    assert _reminder_due(database, request_text, when) == due


@pytest.mark.parametrize(
    ("request_text", "when", "due"),
    [
        ("The library emailed yesterday that my book is in. Nudge me on Thursday at 5pm to "
         "fetch it.", "yesterday at 5pm", datetime(2029, 5, 17, 17, 0)),
        ("Die Werkstatt hat gestern angerufen, der Wagen ist fertig. Erinner mich am Freitag "
         "um 8 Uhr, ihn abzuholen.", "gestern um 8 Uhr", datetime(2029, 5, 18, 8, 0)),
        ("Hier, le pressing m'a dit que ma veste était prête. Rappelle-moi samedi à 10h "
         "d'aller la chercher.", "hier à 10h", datetime(2029, 5, 19, 10, 0)),
        ("Ayer me avisaron de que las gafas ya están listas. Avísame el jueves a las 18:00 "
         "para recogerlas.", "ayer a las 18:00", datetime(2029, 5, 17, 18, 0)),
    ],
)  # fmt: skip
def test_a_reminder_is_set_on_the_day_to_come_its_time_is_said_beside_not_a_day_gone_by(
    database: Database, request_text: str, when: str, due: datetime
) -> None:
    assert _reminder_due(database, request_text, when) == due


@pytest.mark.parametrize(
    ("request_text", "what", "when", "due", "text"),
    [("ponme un recordatorio para mañana a las 9 y media: llenar unas botellas de agua antes "
      "de que corten el agua", "media: llenar unas botellas de agua", "mañana a las 9",
      datetime(2029, 5, 16, 9, 30), "llenar unas botellas de agua"),
     ("stell mir eine Erinnerung für morgen um 8: Müll rausbringen", "take out the trash",
      "morgen", datetime(2029, 5, 16, 8, 0), "Müll rausbringen"),
     ("remind me tomorrow at 9:30: call the bank", "call the bank", "tomorrow",
      datetime(2029, 5, 16, 9, 30), "call the bank"),
     # the model's own time, its minutes left out
     ("ponme un recordatorio para mañana a las 9 y media: llenar unas botellas de agua",
      "llenar unas botellas de agua", "9 AM", datetime(2029, 5, 16, 9, 30),
      "llenar unas botellas de agua")],
)  # fmt: skip
def test_a_reminder_whose_time_a_colon_follows_is_set_at_that_time_for_what_follows(
    database: Database, request_text: str, what: str, when: str, due: datetime, text: str
) -> None:
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what=what, when=when)], data=database)
        agent.run_turn(Conversation(), request_text)
    [reminder] = ReminderStore(database).pending()
    assert (reminder.due.replace(tzinfo=None), reminder.text) == (due, text)


@pytest.mark.parametrize(
    ("request_text", "what", "when"),
    [("Recuérdame pagar el alquiler el día 30 a las 9",
      "recuérdame pagar el alquiler el día 30 a las 9",
      "recuérdame pagar el alquiler el día 30 a las 9"),
     ("Recuérdame pagar el alquiler el día 30 a las 9", "pagar el alquiler", "")],
)  # fmt: skip
def test_a_reminder_on_a_day_of_the_month_said_el_dia_is_set_that_day(
    database: Database, request_text: str, what: str, when: str
) -> None:
    """ "el día 30": the 30th of this month, not today; the text without the day."""
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what=what, when=when)], data=database)
        agent.run_turn(Conversation(), request_text)
    [reminder] = ReminderStore(database).pending()
    assert (reminder.due.replace(tzinfo=None), reminder.text) == (
        datetime(2029, 5, 30, 9, 0),
        "pagar el alquiler",
    )


@pytest.mark.parametrize(
    ("request_text", "what", "text"),
    [("rappelle-moi demain à 8h de sortir les poubelles", "sort out the poubelles",
      "sortir les poubelles"),
     ("Erinner mich morgen um 8, dass ich Mama anrufen muss", "call mum", "Mama anrufen muss"),
     ("Erinnere mich morgen um 8 daran, Mama anzurufen", "mama's birthday", "Mama anzurufen")],
)  # fmt: skip
def test_a_reminders_text_the_model_translated_is_in_the_users_words(
    database: Database, request_text: str, what: str, text: str
) -> None:
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what=what, when="demain à 8h")], data=database)
        agent.run_turn(Conversation(), request_text)
    [reminder] = ReminderStore(database).pending()
    assert reminder.text == text


@pytest.mark.parametrize(
    ("request_text", "taken_for", "kept"),
    [("Good news, my new passport turned up already! So you can scrap that reminder about "
      "renewing it.", call("send_email", to="passport", message="scrap the reminder"),
      "renew the passport"),
     ("Der neue Pass ist schon da. Lösch bitte die Erinnerung zum Pass.",
      call("recall_fact", about="Pass"), "Pass verlängern"),
     ("Mon passeport est arrivé, tu peux supprimer le rappel pour le passeport ?",
      call("add_todo", what="passeport"), "renouveler le passeport"),
     ("Mi pasaporte ya llegó, borra el recordatorio del pasaporte.",
      call("set_reminder", what="pasaporte", when="mañana"), "renovar el pasaporte"),
     ("tu peux virer le rappel pour le passeport stp, il est arrivé",
      call("recall_fact", about="passeport"), "renouveler le passeport")],
)  # fmt: skip
def test_a_reminder_asked_to_be_scrapped_is_cancelled_whatever_it_was_taken_for(
    database: Database, request_text: str, taken_for: str, kept: str
) -> None:
    store = ReminderStore(database)
    store.add(kept, datetime(2029, 5, 20, 9, 0).astimezone())
    store.add("water the plants", datetime(2029, 5, 16, 19, 0).astimezone())
    answers = Answers()
    with clock.frozen_at(NOW):
        agent = _agent([taken_for, call("cancel_reminder", which=kept)], answers, data=database)
        agent.run_turn(Conversation(), request_text)
    assert [shown.tool for shown in answers.seen] == ["cancel_reminder"]
    assert [r.text for r in store.pending()] == ["water the plants"]


def test_a_reminder_named_only_in_another_language_is_found_by_the_requests_english(
    database: Database,
) -> None:
    """ "supprime le rappel pour le passeport, c'est fait", the model naming nothing: the
    reminder "Renew passport" is the one the request names in English (it had asked
    which)."""
    store = ReminderStore(database)
    store.add("Renew passport", datetime(2029, 5, 20, 9, 0).astimezone())
    store.add("Call Mum for her birthday", datetime(2029, 5, 16, 19, 0).astimezone())
    answers = Answers()
    turns = [call("cancel_reminder", which="le rappel"), "the reminder",
             "delete the reminder for the passport"]  # fmt: skip
    with clock.frozen_at(NOW):
        agent = _agent(turns, answers, data=database)
        report = agent.run_turn(Conversation(), "supprime le rappel pour le passeport, c'est fait")
    assert [shown.tool for shown in answers.seen] == ["cancel_reminder"], report.answer
    assert [r.text for r in store.pending()] == ["Call Mum for her birthday"]


def test_moving_a_reminder_sets_it_at_the_new_time_before_the_old_one_goes(
    database: Database,
) -> None:
    store = ReminderStore(database)
    store.add("renew the passport", datetime(2029, 5, 20, 9, 0).astimezone())
    store.add("die Pflanzen gießen", datetime(2029, 5, 16, 19, 0).astimezone())
    with clock.frozen_at(NOW):
        agent = _agent(
            [call("move_event", event="passport reminder", to="1 June at 10"),
             call("move_event", event="die Erinnerung für die Pflanzen", to="Freitag")],
            data=database,
        )  # fmt: skip
        report = agent.run_turn(Conversation(), "Move my passport reminder to 1 June at 10")
        agent.run_turn(Conversation(), "verschieb die Erinnerung für die Pflanzen auf Freitag")
    assert [c.name for c in report.calls] == ["list_reminders", "set_reminder", "cancel_reminder"]
    due = {r.text: r.local_due().replace(tzinfo=None) for r in store.pending()}
    # A day alone keeps the time of day it had.
    assert due == {
        "renew the passport": datetime(2029, 6, 1, 10, 0),
        "die Pflanzen gießen": datetime(2029, 5, 18, 19, 0),
    }
    assert report.answer == "Reminder set for Friday 01 June at 10:00: renew the passport"


def _kept(database: Database, *facts: str) -> None:
    with database.session() as session, session.begin():
        session.add_all(MemoryRecord(created=NOW, text=fact) for fact in facts)


@pytest.mark.parametrize(
    ("request_", "turns", "answer"),
    [("Erinnerst du dich, wo Sam allergisch drauf ist?",
      [call("recall_fact", about="Sam allergisch"), "Do you remember what Sam is allergic to?"],
      "Zu „Sam allergisch“ habe ich mir nichts gemerkt."),
     ("When is Sam's birthday?", [call("recall_fact", about="Sam's birthday")],
      "I have nothing remembered about “Sam's birthday”.")],
)  # fmt: skip
def test_a_memory_holding_only_the_name_asked_about_is_no_answer(
    database: Database, request_: str, turns: list[str], answer: str
) -> None:
    """ "Alex's partner is Sam" holds the name the question says, not what it asks of Sam
    (in its words or in English): nothing is remembered of it."""
    _kept(database, "Alex's partner is Sam.")
    with clock.frozen_at(NOW):
        report = _agent(turns, data=database).run_turn(Conversation(), request_)
    assert report.answer == answer


def test_what_is_remembered_of_someone_named_is_listed(database: Database) -> None:
    _kept(database, "Alex's partner is Sam.")
    with clock.frozen_at(NOW):
        agent = _agent([call("recall_fact", about="Sam")], data=database)
        report = agent.run_turn(Conversation(), "Was weißt du über Sam?")
    assert "Alex's partner is Sam" in report.answer


def test_a_fact_remembered_in_one_conversation_is_recalled_in_another(
    database: Database,
) -> None:
    with clock.frozen_at(NOW):
        agent = _agent(
            [
                call("remember_fact", fact="Lisa is allergic to peanuts"),
                call("recall_fact", about="Lisa"),
                call("recall_fact", about="my car"),
                call("recall_fact"),
            ],
            data=database,
        )
        agent.run_turn(Conversation(), "remember that Lisa is allergic to peanuts")
        recalled = agent.run_turn(Conversation(), "what did I tell you about Lisa?")
        nothing = agent.run_turn(Conversation(), "what do you know about my car?")
        # No words given: the whole request is what is looked for.
        bare = agent.run_turn(Conversation(), "peanuts?")
    assert "Lisa is allergic to peanuts" in recalled.answer
    assert [c.name for c in recalled.calls] == ["recall"]
    assert nothing.answer == "I have nothing remembered about “my car”."
    assert "Lisa is allergic to peanuts" in bare.answer


@pytest.mark.parametrize(
    ("request_text", "taken_for", "fact"),
    [
        pytest.param("Merk dir, Jonas trinkt keinen Kaffee", call("just_answer"),
                     "Jonas trinkt keinen Kaffee", id="de-answered"),
        pytest.param("Remember that my gym locker is number 112",
                     call("recall_fact", about="gym locker"),
                     "my gym locker is number 112", id="en-recalled"),
        # The model wrote no usable call at all: the free loop would have answered.
        pytest.param("Merk dir bitte: Paul mag keine Pilze", "Okay.",
                     "Paul mag keine Pilze", id="de-no-call"),
        pytest.param("Retiens que Claire est allergique aux chats",
                     call("add_todo", title="Claire est allergique aux chats"),
                     "Claire est allergique aux chats", id="fr-a-to-do"),
        pytest.param("Retiens stp que Sam est allergique aux noix, c'est important.",
                     call("remember_fact", fact=""),
                     "Sam est allergique aux noix, c'est important.", id="fr-stp"),
        pytest.param("write down that sam doesn't like coriander", call("remember_fact"),
                     "sam doesn't like coriander", id="en-write-down"),
        pytest.param("Ten en cuenta que mi vuelo sale de la terminal 2",
                     call("reply_to_email", which="vuelo", message="terminal 2"),
                     "mi vuelo sale de la terminal 2", id="es-a-reply"),
        # The model chose right but wrote the fact in English: the user's words are kept.
        pytest.param("Notier dir bitte: Oma hat am 4. März Geburtstag",
                     call("remember_fact", fact="Grandma's birthday is March 4th"),
                     "Oma hat am 4. März Geburtstag", id="de-translated"),
        # Asked to keep it after telling it; the model's paraphrase dropped, or a question
        # taken: the sentence told is the fact.
        pytest.param("Au fait, Sam est allergique aux noix de cajou. Garde-le en tête pour "
                     "quand tu m'aides à choisir des recettes ou un resto, d'accord ?",
                     call("remember_fact", fact="allergic to cashews when choosing recipes"),
                     "Sam est allergique aux noix de cajou.", id="fr-kept-after"),
        pytest.param("Lena ist seit Kurzem Veganerin. Kannst du dir das merken?",
                     call("recall_fact", about="Lena"),
                     "Lena ist seit Kurzem Veganerin.", id="de-kept-after"),
        pytest.param("My landlord's name is Mr Okafor, keep that in mind.",
                     call("find_contact", who="Okafor"),
                     "My landlord's name is Mr Okafor.", id="en-kept-after-comma"),
        # asked alone after it, a lead-in ending at a colon left out
        pytest.param("Ach, was du wissen solltest, falls du mal Rezepte suchst: Jonas verträgt "
                     "keine Erdnüsse. Bitte merken!",
                     call("remember_fact", fact="Jonas can't eat peanuts"),
                     "Jonas verträgt keine Erdnüsse.", id="de-bitte-merken"),
        pytest.param("Petit truc pour toi : le code du portail est 4512. À retenir !",
                     call("recall_fact", about="code portail"),
                     "Le code du portail est 4512.", id="fr-a-retenir"),
        pytest.param("Mi hermana es alérgica a la lactosa. Guárdalo.",
                     call("add_todo", title="hermana lactosa"),
                     "Mi hermana es alérgica a la lactosa.", id="es-guardalo"),
        pytest.param("Grande nouvelle : on a adopté un chiot ! Il s'appelle Filou. Garde ça en "
                     "tête, ça peut servir.", "Plain words.",
                     "On a adopté un chiot ! Il s'appelle Filou.", id="fr-garde-ca"),
        # asked kindly ("tu veux bien", "magst du", "¿quieres?"), what leads to a colon left
        pytest.param("Petite chose à garder en tête pour la cuisine : Sam ne supporte pas les "
                     "noix de cajou, il y est allergique. Tu veux bien t'en souvenir ?",
                     call("recall_fact", about="Sam cashew allergy"),
                     "Sam ne supporte pas les noix de cajou, il y est allergique.",
                     id="fr-tu-veux-bien"),
        pytest.param("Jonas trinkt keinen Kaffee mehr. Magst du dir das merken?",
                     call("just_answer"), "Jonas trinkt keinen Kaffee mehr.",
                     id="de-magst-du"),
        pytest.param("Una cosa para cuando cocine: Sam no puede comer cacahuetes. ¿Te lo "
                     "puedes apuntar?", call("recall_fact", about="Sam cacahuetes"),
                     "Sam no puede comer cacahuetes.", id="es-te-lo-puedes-apuntar"),
        # "I keep forgetting it": keep it for them
        pytest.param("Mi taquilla del gimnasio es la 37. Siempre se me olvida.",
                     call("recall_fact", about="taquilla gimnasio"),
                     "Mi taquilla del gimnasio es la 37.", id="es-se-me-olvida"),
        pytest.param("The gate code at Mum's is 4512. I keep forgetting it!",
                     call("find_contact", who="Mum"), "The gate code at Mum's is 4512.",
                     id="en-keep-forgetting"),
        # "save this: …" taken for a new note named by the whole sentence
        pytest.param("save this: my passport number is in the blue folder",
                     call("write_note", name="my passport number is in the blue folder",
                          content="I have a passport number in the blue folder."),
                     "my passport number is in the blue folder", id="en-save-this"),
    ],
)  # fmt: skip
def test_a_request_opening_with_remember_that_keeps_the_fact_in_the_users_words(
    database: Database, request_text: str, taken_for: Any, fact: str
) -> None:
    agent = _agent([taken_for, call("remember_fact", fact=fact)], data=database)
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_text)
    assert [c.name for c in report.calls] == ["remember"], report.answer
    assert report.calls[0].arguments == {"fact": fact}


@pytest.mark.parametrize(
    "request_text",
    ["Remember when we went to Lisbon?", "Remember to call Tom at 5", "save this file as notes.md",
     "Erinnerst du dich, dass ich Tom angerufen habe?",
     "Sam was in Lisbon last year. Remember?"],
)  # fmt: skip
def test_remembering_together_or_a_task_is_no_fact_to_keep(request_text: str) -> None:
    assert remembers_a_fact(request_text) is None


@pytest.mark.parametrize(
    ("request_text", "fact"),
    [
        ("Nur damit du's weißt: ich hab Schuhgröße 43.", "ich hab Schuhgröße 43."),
        ("Damit du Bescheid weißt, Lena ist Vegetarierin", "Lena ist Vegetarierin"),
        ("Zur Info: mein Zug kommt auf Gleis 7 an", "mein Zug kommt auf Gleis 7 an"),
        ("Pour info, mon badge porte le numéro 318", "mon badge porte le numéro 318"),
        ("Juste pour que tu saches : Hugo ne boit pas d'alcool", "Hugo ne boit pas d'alcool"),
        ("Para que lo sepas, mi talla de camisa es la M", "mi talla de camisa es la M"),
        ("Que sepas que Marta es alérgica al polen", "Marta es alérgica al polen"),
        ("For the record, my locker code is 4471", "my locker code is 4471"),
        (
            "Tenlo en cuenta a partir de ahora: Sam es alérgico a los frutos secos.",
            "Sam es alérgico a los frutos secos.",
        ),
        ("Hey, remember that Ana's flight lands at 6", "Ana's flight lands at 6"),
        ("Merk dir ab jetzt: Paul trinkt keinen Alkohol", "Paul trinkt keinen Alkohol"),
        ("write down that sam doesn't like coriander", "sam doesn't like coriander"),
        ("Schreib dir auf, dass Sam keinen Koriander mag", "Sam keinen Koriander mag"),
        ("save this: my passport number is in the blue folder",
         "my passport number is in the blue folder"),
        ("Speicher dir das: der WLAN-Code ist 4711", "der WLAN-Code ist 4711"),
        ("garde ça : le code du portail est 1234", "le code du portail est 1234"),
        ("guarda esto: mi talla de zapatos es 42", "mi talla de zapatos es 42"),
    ],
)  # fmt: skip
def test_just_so_you_know_in_four_languages_opens_a_fact(request_text: str, fact: str) -> None:
    assert remembers_a_fact(request_text) == fact


@pytest.mark.parametrize(
    ("request_text", "fact"),
    [
        ("Au fait, retiens bien que je suis allergique aux noix. Comme ça, pas de pesto 😉",
         "je suis allergique aux noix. Comme ça, pas de pesto 😉"),
        ("By the way, remember that I am allergic to nuts.", "I am allergic to nuts."),
        ("Übrigens, merk dir, dass Lea Hafermilch trinkt", "Lea Hafermilch trinkt"),
        ("Por cierto, recuerda que soy alérgico a las nueces", "soy alérgico a las nueces"),
        ("Oh and please remember that Sam is vegan", "Sam is vegan"),
        # asked for, the question mark the asking's and what follows it talk
        ("oh and can you keep in mind that my locker at fithaus is number 112? i forget it "
         "literally every single time", "my locker at fithaus is number 112"),
        ("kannst du dir merken, dass mein Spind die Nummer 112 hat?",
         "mein Spind die Nummer 112 hat"),
        ("peux-tu retenir que mon casier est le 112 ?", "mon casier est le 112"),
        ("¿puedes recordar que mi taquilla es la 112?", "mi taquilla es la 112"),
    ],
)  # fmt: skip
def test_a_fact_told_in_passing_opens_after_the_words_in_passing(
    request_text: str, fact: str
) -> None:
    """ "Au fait, retiens bien que …": the fact is what follows the verb, never "Au fait"."""
    assert remembers_a_fact(request_text) == fact


@pytest.mark.parametrize(
    ("request_text", "fact"),
    [
        ("Sam is allergic to cashews. Keep that in mind when you suggest recipes.",
         "Sam is allergic to cashews."),
        ("Übrigens, mein Bruder heißt Max. Merk dir das bitte.", "Mein Bruder heißt Max."),
        ("Mi vecina se llama Carmen y es muy maja. Tenlo en cuenta.",
         "Mi vecina se llama Carmen y es muy maja."),
        ("By the way, Tom doesn't eat pork. Can you remember that?", "Tom doesn't eat pork."),
    ],
)  # fmt: skip
def test_a_fact_asked_to_be_kept_after_it_is_told(request_text: str, fact: str) -> None:
    assert remembers_a_fact(request_text) == fact


@pytest.mark.parametrize(
    "request_text",
    ["Sam was in Lisbon last year. Remember that?", "What's my locker? Remember that.",
     "I have a meeting at 5. Can you remind me of it?"],
)  # fmt: skip
def test_a_question_or_a_reminder_is_no_fact_kept_after(request_text: str) -> None:
    assert remembers_a_fact(request_text) is None


@pytest.mark.parametrize(
    ("request_text", "fact"),
    [
        ("Cada vez que le compro zapatillas a Sam tengo que preguntarle el número. Quédate con "
         "el dato de una vez: calza un 43.",
         "Cada vez que le compro zapatillas a Sam tengo que preguntarle el número. Calza un 43."),
        ("Sam never knows his ring size. Keep this in mind: it's 62.",
         "Sam never knows his ring size. It's 62."),
        ("Lena hat bald Geburtstag. Merk dir das: sie mag keine Schnittblumen.",
         "Lena hat bald Geburtstag. Sie mag keine Schnittblumen."),
        ("Ma voisine arrose mes plantes en août. Retiens ça : elle s'appelle Odile.",
         "Ma voisine arrose mes plantes en août. Elle s'appelle Odile."),
    ],
)  # fmt: skip
def test_a_fact_asked_to_be_kept_after_a_colon_keeps_what_the_sentences_before_say(
    request_text: str, fact: str
) -> None:
    """ "… Quédate con el dato: calza un 43": what follows the colon, with whose it is."""
    assert remembers_a_fact(request_text) == fact


@pytest.mark.parametrize(
    "request_text",
    ["Book a table for Friday. Keep it short: two people, 8pm.",
     "Check my calendar. Note this: what time is the dentist?"],
)  # fmt: skip
def test_a_colon_after_other_words_or_a_question_is_no_fact(request_text: str) -> None:
    assert remembers_a_fact(request_text) is None


def test_a_fact_after_an_opening_mark_keeps_its_first_letter() -> None:
    # Folding drops "¡" (and may change lengths): the fact is still cut where the user wrote it.
    assert remembers_a_fact("¡¡Recuerda que Inés no come carne!!") == "Inés no come carne!!"


@pytest.mark.parametrize(
    "question",
    ["Mi hermana insiste en que vaya a verla este finde. ¿Tengo ya algo comprometido o lo "
     "tengo libre?", "My sister wants me to visit on Saturday. Have I got anything on?",
     # typed without its question mark
     "what do i owe stadtwerke"],
)  # fmt: skip
def test_a_question_taken_for_a_fact_to_keep_keeps_nothing(
    database: Database, question: str
) -> None:
    """The model took a question for a fact to keep (the whole request as the fact): a
    question asking nothing to be kept is looked up instead; nothing is kept."""
    agent = _agent([call("remember_fact", fact=question), "Plain answer."], data=database)
    report = agent.run_turn(Conversation(), question)
    assert "remember" not in [c.name for c in report.calls], report.answer
    with database.session() as session:
        assert session.query(MemoryRecord).count() == 0
    # asked to be kept, a question's fact is kept
    agent = _agent([call("remember_fact", fact="my locker is 42")], data=database)
    agent.run_turn(Conversation(), "Can you remember that my locker is 42?")
    with database.session() as session:
        assert [m.text for m in session.query(MemoryRecord)] == ["my locker is 42"]


@pytest.mark.parametrize(
    "question", ["Wie viele Beine hat eine Spinne?", "¿Cuál es la capital de Perú?"]
)
def test_a_general_question_taken_for_a_memory_is_answered_plainly(
    database: Database, question: str
) -> None:
    # Nothing remembered holds it, and nothing of the user's is asked about.
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=NOW, text="Alex's partner is Sam."))
    # The model named the user beside the question's words: only the user's words count.
    about = f"Alex's {question.strip('¿?').split()[-1]}"
    agent = _agent([call("recall_fact", about=about), *through_english("Acht.")], data=database)
    report = agent.run_turn(Conversation(), question)
    # Code looked at the memories without a call: none shown, and nothing private was read.
    assert report.calls == [] and not agent.context.read_private
    assert report.answer == "Acht." and report.stop_reason == "answered"
    # The model answers the question as asked (through English, `knowledge`): the empty
    # lookup is out of its view.
    asked, *_ = agent.backend.requests[-3:]  # type: ignore[attr-defined]
    assert asked.tool_choice == "none"
    assert asked.messages[-1] == {"role": "user", "content": f"Translate into English: {question}"}
    assert "Nothing remembered" not in str(agent.backend.requests[-3:])  # type: ignore[attr-defined]


_KEPT = ("Alex's partner is Sam.", "Alex's dentist is Dr. Weber.", "Alex's locker is 112.")


@pytest.mark.parametrize(
    ("question", "remembered"),
    [
        # The sentences before speak of the user ("partner" is in a memory); the question, a
        # sentence apart, names nothing remembered: no memory is its answer.
        ("Settle something for me - my partner insists Sydney is the capital of Australia. "
         "I'm pretty sure that's wrong. Which city is it?", None),
        ("Ma nièce fait ses devoirs et me demande la formule chimique de l'eau… j'ai un gros "
         "blanc, c'est quoi déjà ?", None),
        ("Mein Partner und ich streiten grad. Wie hoch ist die Zugspitze?", None),
        # one sentence: what someone asks the user, reported
        ("Mon fils me demande quelle est la capitale de l'Australie, tu sais ?", None),
        ("My partner asks me which planet is the largest, do you know?", None),
        ("Mi hijo me pregunta cuál es el océano más grande.", None),
        # A question asking back for what a sentence before named, or asking of the user's
        # own, is still looked up among the memories.
        ("I need to call the dentist later. What's his name again?", "Weber"),
        ("Going to the gym. What's my locker number?", "112"),
    ],
)  # fmt: skip
def test_a_question_apart_from_sentences_about_the_user_looks_in_memories_for_its_own_words(
    database: Database, question: str, remembered: str | None
) -> None:
    with database.session() as session, session.begin():
        session.add_all(MemoryRecord(created=NOW, text=text) for text in _KEPT)
    # A question in another language that nothing holds is looked for in English too (the
    # model translates it).
    english = ["In English."] if remembered is None and language_of(question) != "en" else []
    # (three plain answers: one asked as written, or through English in three writes)
    agent = _agent([call("recall_fact", about="partner dentist locker"), *english,
                    *["Plain."] * 3], data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), question)
    if remembered is None:
        assert report.calls == [] and report.answer == "Plain."
        assert not agent.context.read_private
    else:
        assert [c.name for c in report.calls] == ["recall"]
        assert remembered in report.answer and "Sam" not in report.answer


def test_code_peeks_only_at_reads_the_gate_allows_and_never_changes_anything(
    database: Database,
) -> None:
    """`Doing.peek` is for code's own choice of steps: a built-in read answers; a write
    (remember, forget) is never run that way, nor is anything the gate would ask about."""
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=NOW, text="Lisa is allergic to peanuts."))
    agent = _agent([], data=database)
    doing = Doing(agent, Conversation(), "peanuts?", lambda _: None, threading.Event(),
                  TurnReport())  # fmt: skip
    [found] = doing.peek("recall", query="peanuts")
    assert found["fact"] == "Lisa is allergic to peanuts."
    assert doing.peek("remember", fact="Lisa hates peanuts") is None
    assert doing.peek("forget", memory_id=found["memory_id"]) is None
    assert doing.peek("no_such_tool") is None
    # Nothing was written or forgotten, and nothing entered the conversation.
    with database.session() as session:
        kept = [m.text for m in session.query(MemoryRecord).all()]
    assert kept == ["Lisa is allergic to peanuts."]
    assert doing.conversation.messages == [] and doing.report.calls == []


def test_a_memory_the_models_words_find_answers_a_question_about_the_user(
    database: Database,
) -> None:
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=NOW, text="Alex is vegetarian."))
    # "vegetarian" is the model's word, not the user's: the question is about the user.
    agent = _agent([call("recall_fact", about="eat diet vegetarian")], data=database)
    report = agent.run_turn(Conversation(), "What do you remember about what I eat?")
    assert "Alex is vegetarian." in report.answer


@pytest.mark.parametrize(
    "question", ["What did I tell you about Lisa?", "C'était quoi mon code du portail ?"]
)
def test_a_question_about_the_user_nothing_remembered_holds_says_so(
    database: Database, question: str
) -> None:
    agent = _agent([call("recall_fact", about="Lisa")], data=database)
    report = agent.run_turn(Conversation(), question)
    assert "nothing" in report.answer or "rien" in report.answer


def test_a_days_question_taken_for_a_memory_shows_that_day(
    account: CalendarAccount, database: Database
) -> None:
    create_event(account, "Brunch chez Léa", datetime(2029, 5, 19, 11, 0),
                 datetime(2029, 5, 19, 13, 0), tz=NOW.tzinfo)  # fmt: skip
    agent = _agent(
        [call("recall_fact", about="samedi"), call("show_calendar", when="samedi")],
        calendar=account, data=database,
    )  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "Qu'est-ce que j'ai samedi ?")
    # the calendar at once, no memory looked through first
    called = [c.name for c in report.calls]
    assert called[0] == "list_events" and "recall" not in called
    assert "Brunch chez Léa" in report.answer


def test_a_fact_the_model_made_up_is_asked_for_not_stored(database: Database) -> None:
    with clock.frozen_at(NOW):
        agent = _agent(
            [call("remember_fact", fact="my locker is 42"), call("recall_fact", about="bike")],
            data=database,
        )
        conversation = Conversation()
        first = agent.run_turn(conversation, "remember this for me")
        assert (first.stop_reason, first.answer) == ("asked", "What should I remember?")
        agent.run_turn(conversation, "my bike lock code is at the back of the drawer")
        recalled = agent.run_turn(Conversation(), "where's my bike lock code?")
    assert "bike lock code is at the back of the drawer" in recalled.answer
    assert "42" not in recalled.answer


# -- answered in the request's language -------------------------------------------------------


@pytest.mark.parametrize(
    ("first_text", "what", "asked", "then"),
    [
        ("Erinner mich bitte dran, dass ich bei der Autoversicherung anrufen muss",
         "bei der Autoversicherung anrufen", "Wann soll ich dich erinnern?",
         "oh sorry, morgen nachmittag um drei"),
        ("remind me I have to call the car insurance people", "call the car insurance",
         "When should I remind you?", "tomorrow at 3pm"),
        ("Rappelle-moi d'appeler l'assurance auto", "appeler l'assurance auto",
         "Quand dois-je vous le rappeler ?", "demain à 15h"),
    ],
)  # fmt: skip
def test_a_reminder_the_model_wrote_no_call_for_is_asked_when_then_set(
    database: Database, first_text: str, what: str, asked: str, then: str
) -> None:
    # The model answered the request as talk ("Hallo! …"), no call: the request plainly asks
    # for a reminder, so it is one, and its time is asked for.
    with clock.frozen_at(NOW):
        agent = _agent(["Hallo! Wie kann ich helfen?", call("set_reminder", what=what, when="")],
                       data=database)  # fmt: skip
        conversation = Conversation()
        first = agent.run_turn(conversation, first_text)
        assert (first.stop_reason, first.answer) == ("asked", asked)
        agent.run_turn(conversation, then)
    [reminder] = ReminderStore(database).pending()
    assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 16, 15, 0)
    assert reminder.text == what  # (not "Erinner mich bitte dran, …")


@pytest.mark.parametrize(
    ("request_text", "what", "when", "word"),
    [
        ("Die Hausverwaltung dreht morgen ja das Wasser ab 🙄 erinner mich bitte morgen um "
         "halb neun, dass ich vorher noch ein paar Flaschen abfülle", "morgen um halb neun",
         "vorher noch ein paar Flaschen abfülle", "Flaschen"),
        ("The water is off tomorrow. Remind me tomorrow at 8:30 to fill some bottles first",
         "tomorrow at 8:30", "tomorrow at 8:30", "bottles"),
        ("Mañana cortan el agua. Recuérdame mañana a las ocho y media que llene unas botellas",
         "mañana a las ocho y media", "llene unas botellas", "botellas"),
    ],
)  # fmt: skip
def test_a_reminders_text_that_says_only_when_is_what_the_request_asks_to_do(
    database: Database, request_text: str, what: str, when: str, word: str
) -> None:
    # The model wrote the time as what to be reminded of (and what to do as the time).
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what=what, when=when)], data=database)
        agent.run_turn(Conversation(), request_text)
    [reminder] = ReminderStore(database).pending()
    assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 16, 8, 30)
    assert word in reminder.text, reminder.text
    assert not any(w in reminder.text for w in ("8:30", "halb", "ocho", "media")), reminder.text


def test_a_german_reminder_is_asked_for_and_confirmed_in_german(database: Database) -> None:
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what="die Steuer abgeben", when="")], data=database)
        conversation = Conversation()
        first = agent.run_turn(conversation, "Erinnere mich, die Steuer abzugeben")
        assert (first.stop_reason, first.answer) == ("asked", "Wann soll ich dich erinnern?")
        second = agent.run_turn(conversation, "morgen um 8")
    [reminder] = ReminderStore(database).pending()
    assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 16, 8, 0)
    assert second.answer == (f"Erinnerung gestellt für Mittwoch, 16. Mai um 08:00: {reminder.text}")


def test_a_french_todo_two_match_is_a_numbered_choice_in_french(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    add_task(account, "Acheter du lait")
    add_task(account, "Acheter des timbres")
    agent = _agent([call("complete_todo", which="acheter")], calendar=account)
    conversation = Conversation()
    first = agent.run_turn(conversation, "Coche la tâche acheter")
    assert first.answer.startswith("Lequel voulez-vous dire ?\n1. Acheter ")
    line = next(line for line in first.answer.splitlines() if "timbres" in line)
    second = agent.run_turn(conversation, line[0])
    assert second.answer == "Fait : Acheter des timbres."
    assert _statuses(server) == {"Acheter des timbres": "COMPLETED",
                                 "Acheter du lait": "NEEDS-ACTION"}  # fmt: skip


def test_a_spanish_lookup_and_refusal_are_answered_in_spanish(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    add_task(account, "Pagar el alquiler")
    agent = _agent(
        [call("find_contact", who="Nadia"), call("complete_todo", which="alquiler")],
        Answers(approve=False),
        calendar=account,
    )
    nobody = agent.run_turn(Conversation(), "¿Cuál es el correo de Nadia?")
    assert nobody.answer == "No he encontrado ningún contacto llamado «Nadia»."
    refused = agent.run_turn(Conversation(), "Marca como hecha la tarea del alquiler")
    assert refused.answer == "De acuerdo, no lo he hecho."
    assert _statuses(server) == {"Pagar el alquiler": "NEEDS-ACTION"}


def test_a_german_question_let_go_is_acknowledged_in_german(database: Database) -> None:
    with clock.frozen_at(NOW):
        agent = _agent([call("set_reminder", what="die Steuer abgeben", when="")], data=database)
        conversation = Conversation()
        agent.run_turn(conversation, "Erinnere mich, die Steuer abzugeben")
        dropped = agent.run_turn(conversation, "vergiss es")
    assert (dropped.answer, ReminderStore(database).pending()) == ("In Ordnung, ich lasse es.", [])


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [
        ("Le garage vient d'appeler, ils sont fermés jeudi. Tu peux supprimer le rendez-vous au "
         "garage de mon agenda ?", call("cancel_reminder", which="rendez-vous garage")),
        ("Die Werkstatt hat abgesagt, nimm die Garage am Donnerstag aus meinem Kalender",
         call("forget_fact", which="Garage Donnerstag")),
        # taken for a move, the verb a familiar one
        ("Bon, le garage de jeudi c'est mort, ils sont fermés. Tu peux le virer de mon agenda ?",
         call("move_event", event="garage", to="mon agenda")),
    ],
)  # fmt: skip
def test_a_cancel_off_the_calendar_taken_for_another_kinds_is_the_events(
    account: CalendarAccount, database: Database, request_: str, taken_for: str
) -> None:
    """Taken for a reminder or a memory to drop, what is taken off the calendar is the
    event (the dialog asks first); the reminder about the garage stays."""
    create_event(account, "Garage: tyre change", at(17, 8), at(17, 9), tz=TZ)
    create_event(account, "Yoga", at(17, 18, 30), at(17, 19, 30), tz=TZ)
    store = ReminderStore(database)
    store.add("call the garage about the tyres", datetime(2029, 5, 16, 9, 0).astimezone())
    answers = Answers()
    with clock.frozen_at(NOW):
        agent = _agent(
            [taken_for, call("cancel_event", event="garage")], answers,
            calendar=account, data=database,
        )  # fmt: skip
        agent.run_turn(Conversation(), request_)
    assert [seen.tool for seen in answers.seen] == ["delete_event"]
    assert [e.title for e in _all(account)] == ["Yoga"]
    assert [r.text for r in store.pending()] == ["call the garage about the tyres"]


def test_a_todo_ticked_off_is_named_by_the_words_the_user_wrote_not_the_models(
    account: CalendarAccount,
) -> None:
    """ "… those library books back … tick that one off": the model wrote "tick off the
    insurance task"; "insurance" is not the user's, so the to-do their own words name goes,
    through the dialog (the insurance call stays open)."""
    add_task(account, "Return the library books")
    add_task(account, "Call the car insurance about the new policy")
    answers = Answers()
    agent = _agent([call("complete_todo", which="tick off the insurance task")], answers,
                   calendar=account)  # fmt: skip
    report = agent.run_turn(
        Conversation(),
        "Finally took those library books back on my way in this morning - you can tick that "
        "one off 🎉",
    )
    assert [c.tool for c in answers.seen] == ["complete_task"], report.answer
    assert [t.title for t in list_tasks(account) if not t.done] == [
        "Call the car insurance about the new policy"
    ]


def test_cancelling_an_event_taken_for_a_reminder_cancels_the_event(
    account: CalendarAccount, database: Database
) -> None:
    """ "cancel my 1:1 with sophie tomorrow" taken for a reminder: no reminder is named, nor
    holds its words; the event is cancelled (after the dialog), the reminders kept."""
    create_event(account, "1:1 with Sophie", at(16, 11), at(16, 11, 30), tz=TZ)
    ReminderStore(database).add("Water the plants", datetime(2029, 5, 16, 8, 0).astimezone())
    answers = Answers()
    agent = _agent([call("cancel_reminder", which="1:1 with Sophie tomorrow")], answers,
                   calendar=account, data=database)  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "cancel my 1:1 with sophie tomorrow")
    assert [d.tool for d in answers.seen] == ["delete_event"], report.answer
    assert _all(account) == [] and len(ReminderStore(database).pending()) == 1


@pytest.mark.parametrize("request_", ["who is helen morgan?", "Wer ist Helen Morgan?"])
def test_who_someone_in_the_address_book_is_taken_for_general_knowledge_shows_their_card(
    account: CalendarAccount, request_: str
) -> None:
    """ "who is helen morgan?" taken for a question of general knowledge ("an American
    actress"): the address book's card of that name answers."""
    add_contact(account, "Helen Morgan", emails=["helen.morgan@example.test"],
                phones=["+44 20 5550107"])  # fmt: skip
    agent = _agent([call("just_answer"), "An American actress."], calendar=account)
    report = agent.run_turn(Conversation(), request_)
    assert "helen.morgan@example.test" in report.answer and "actress" not in report.answer
