"""An event named in other words than its title ("le ramoneur" for "Chimney sweep"): the
model picks among the nearest events, a narrow choice read from its probabilities over the
numbers; a backend that cannot be asked that way (or a pick of "none") makes it the user's
numbered choice. The gate still decides the call on the event picked (real Radicale)."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from app.agent.intents.glossary import in_english
from app.agent.intents.router import IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.backend import StepRequest
from app.llm.scripted import ScriptedBackend
from app.store.database import Database
from app.store.models import MemoryRecord
from connectors.calendar import (
    CalendarAccount,
    add_task,
    complete_task,
    create_event,
    list_tasks,
)
from tests.agent.test_intents import TZ, Answers, _agent, _all, account, at, server
from tests.agent.test_intents_personal import database
from tests.scripting import call

__all__ = ["account", "database", "server"]  # the intents tests' Radicale, shared


class Picking(ScriptedBackend):
    """A scripted model that chooses the intent `intent`, writes the scripted slots,
    and answers a numbered pick by scoring the line holding `means` highest (None: "0",
    none of them; "": always "1", whatever the list says)."""

    def __init__(self, turns: list[str], means: str | None, intent: str = "cancel_event") -> None:
        base = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
        super().__init__(base.turns, base.format)
        self.intents = True
        self.means = means
        self.intent = intent
        self.asked: list[str] = []

    def score_replies(
        self, request: StepRequest, replies: Sequence[str], cancel: threading.Event
    ) -> dict[str, float] | None:
        text = str(request.messages[-1]["content"])
        scores = dict.fromkeys(replies, -5.0)
        if list(replies) == ["yes", "no"]:  # one item judged alone
            fact = re.search(r"^This fact: (.*)$", text, re.M)
            said = bool(self.means and fact and self.means in fact.group(1))
            self.asked.append(text)
            return {"yes": -0.1 if said else -3.0, "no": -3.0 if said else -0.1}
        if not re.search(r"^1\. ", text, re.M):  # the intent's choice
            scores[self.intent] = -0.1
            return scores
        self.asked.append(text)
        lines = re.findall(r"^(\d+)\. (.*)$", text, re.M)
        chosen = next((n for n, line in lines if self.means and self.means in line), "0")
        if self.means == "":
            chosen = "1"  # a model that follows the place in the list
        scores[chosen] = -0.1
        return scores


def _picking(
    account: CalendarAccount, turns: list[str], means: str | None, intent: str = "cancel_event"
) -> Agent:
    agent = Agent(
        Picking(turns, means, intent), build_registry(calendar=account), confirmer=Answers()
    )
    agent.front = IntentRouter()
    return agent


def test_an_event_named_in_another_language_is_picked_by_the_model(
    account: CalendarAccount,
) -> None:
    create_event(account, "Chimney sweep", at(18, 8), at(18, 9), tz=TZ)
    create_event(account, "Dentist", at(18, 14), at(18, 15), tz=TZ)
    agent = _picking(account, [call("cancel_event", event="ramoneur")], means="Chimney")
    agent.run_turn(Conversation(), "Annule le ramoneur vendredi")
    assert [e.title for e in _all(account)] == ["Dentist"]
    # Asked twice, the nearest events numbered in both orders (a place in a list is no pick).
    first, second = agent.backend.asked  # type: ignore[attr-defined]
    assert "“ramoneur”" in first and "1. Dentist" in second and "2. Dentist" in first
    answers = agent.confirmer
    assert [r.tool for r in answers.seen] == ["delete_event"]  # type: ignore[attr-defined]


def test_a_pick_of_none_is_the_users_numbered_choice(account: CalendarAccount) -> None:
    create_event(account, "Chimney sweep", at(18, 8), at(18, 9), tz=TZ)
    create_event(account, "Dentist", at(18, 14), at(18, 15), tz=TZ)
    agent = _picking(account, [call("cancel_event", event="Schornsteinfeger")], means=None)
    conversation = Conversation()
    first = agent.run_turn(conversation, "Sag den Schornsteinfeger am Freitag ab")
    assert first.stop_reason == "asked"
    assert "„Schornsteinfeger“" in first.answer and "1." in first.answer and "2." in first.answer
    assert len(_all(account)) == 2
    number = next(line[0] for line in first.answer.splitlines() if "Chimney" in line)
    agent.run_turn(conversation, number)
    assert [e.title for e in _all(account)] == ["Dentist"]


def test_a_pick_that_follows_the_place_in_the_list_is_the_users_choice(
    account: CalendarAccount,
) -> None:
    """A model that answers "1" whatever the list says picks different events in the two
    orders: no pick, the user chooses."""
    create_event(account, "Chimney sweep", at(18, 8), at(18, 9), tz=TZ)
    create_event(account, "Dentist", at(18, 14), at(18, 15), tz=TZ)
    agent = _picking(account, [call("cancel_event", event="Schornsteinfeger")], means="")
    first = agent.run_turn(Conversation(), "Sag den Schornsteinfeger am Freitag ab")
    assert first.stop_reason == "asked" and "2." in first.answer and len(_all(account)) == 2


def test_one_event_alone_is_no_pick_but_the_users_choice(account: CalendarAccount) -> None:
    """A model that answers "1" whatever the list says "picks" the one event of the day the
    request names, whatever it is ("… came over on Sunday …" and Sunday's birthday): one
    event is no choice, the user is asked."""
    create_event(account, "Mum's birthday", at(20, 10), at(20, 12), tz=TZ)
    agent = _picking(account, [call("cancel_event", event="drippy kitchen tap")], means="")
    first = agent.run_turn(
        Conversation(), "Sam's dad fixed the drippy kitchen tap on Sunday. Cancel it please."
    )
    assert first.stop_reason == "asked" and len(_all(account)) == 1, first.answer
    assert agent.backend.asked == []  # type: ignore[attr-defined]


def test_an_event_the_request_names_whole_is_it_whatever_day_it_names(
    account: CalendarAccount,
) -> None:
    """ "… came over on Sunday and sorted out the tap, so we don't need the plumber coming
    round": the plumber's visit, not Sunday's event, the model's words naming neither."""
    create_event(account, "Mum's birthday", at(20, 10), at(20, 12), tz=TZ)
    create_event(account, "Plumber visit", at(25, 15), at(25, 16), tz=TZ)
    turns = [call("move_event", event="drippy kitchen tap"),
             call("cancel_event", event="drippy kitchen tap")]  # fmt: skip
    agent = _picking(account, turns, means="", intent="move_event")
    report = agent.run_turn(
        Conversation(),
        "Good news for once - Sam's dad came over on Sunday and sorted out the drippy kitchen "
        "tap, so we don't need the plumber coming round after all. Can you take that off my "
        "calendar?",
    )
    assert [e.title for e in _all(account)] == ["Mum's birthday"], report.answer


def test_a_backend_that_cannot_score_makes_it_the_users_choice(
    account: CalendarAccount,
) -> None:
    create_event(account, "Chimney sweep", at(18, 8), at(18, 9), tz=TZ)
    agent = _agent(account, [call("cancel_event", event="deshollinador")])
    first = agent.run_turn(Conversation(), "Cancela el deshollinador del viernes")
    assert first.stop_reason == "asked" and "1. " in first.answer and "Chimney" in first.answer
    assert len(_all(account)) == 1


def _the_days_events(account: CalendarAccount) -> None:
    """Tuesday 15 to Monday 21 May, the car service among them on Thursday."""
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ)
    create_event(account, "Book club", at(16, 19), at(16, 20), tz=TZ)
    create_event(account, "Car service", at(17, 8), at(17, 10), tz=TZ)
    create_event(account, "Yoga", at(17, 18, 30), at(17, 19, 30), tz=TZ)
    create_event(account, "Haircut", at(18, 16), at(18, 17), tz=TZ)
    create_event(account, "Budget meeting", at(21, 9, 30), at(21, 10, 30), tz=TZ)


def test_with_no_day_in_the_models_words_the_days_the_request_names_are_the_choices(
    account: CalendarAccount,
) -> None:
    """ "Kundendienst" is no word of "Car service", and the model's words hold no day: the pick is
    among Thursday's and Monday's events, the days the request names, not the nearest."""
    _the_days_events(account)
    request = (
        "Das Autohaus hat angerufen, am Donnerstag klappt das mit dem Kundendienst nicht. "
        "Sie nehmen den Wagen erst am Montag drauf, gleiche Uhrzeit."
    )
    agent = _picking(account, [call("move_event", event="take the wagen now", to="montag")],
                     means="Car service", intent="move_event")  # fmt: skip
    agent.run_turn(Conversation(), request)
    first, _ = agent.backend.asked  # type: ignore[attr-defined]
    offered = re.findall(r"^[1-9]\. (.*)$", first, re.M)
    assert len(offered) == 3 and all(
        any(title in line for line in offered) for title in ("Car service", "Yoga", "Budget")
    )
    moved = {e.title: e.start for e in _all(account)}
    assert moved["Car service"] == at(21, 8) and moved["Yoga"] == at(17, 18, 30)
    # Not picked, the same few are the user's numbered choice.
    agent = _picking(account, [call("cancel_event", event="Kundendienst")], means=None)
    asked = agent.run_turn(Conversation(), "Der Kundendienst am Donnerstag fällt aus")
    assert asked.stop_reason == "asked" and "Yoga" in asked.answer
    assert "Dentist" not in asked.answer and "Haircut" not in asked.answer


def test_the_one_event_holding_a_word_of_the_request_is_the_one_meant(
    account: CalendarAccount,
) -> None:
    """ "Das Autohaus hat angerufen …": no title holds the model's words, the model picks
    none, but of Thursday's and Monday's events only the car service holds a word of the
    request, at "AutoHaus Schmidt": that one moves, nothing is asked."""
    _the_days_events(account)
    create_event(account, "Car check", at(17, 12), at(17, 13), tz=TZ, location="AutoHaus Schmidt")
    request = (
        "Das Autohaus hat angerufen, am Donnerstag klappt es mittags doch nicht. Sie nehmen "
        "den Wagen erst am Montag drauf, gleiche Uhrzeit."
    )
    agent = _picking(account, [call("move_event", event="take the wagen now", to="montag")],
                     means=None, intent="move_event")  # fmt: skip
    report = agent.run_turn(Conversation(), request)
    moved = {e.title: e.start for e in _all(account)}
    assert moved["Car check"] == at(21, 12) and moved["Car service"] == at(17, 8)
    assert report.stop_reason == "answered"


# -- to-dos, memories, reminders: an item named in no word of its title ------------------------


@pytest.mark.parametrize(
    ("means", "ticked"),
    [("bike light", ["Fix the bike light"]), ("", [])],
    ids=["picked", "place-in-the-list"],
)
def test_a_todo_named_in_no_word_of_its_title_is_the_one_the_model_picks_in_both_orders(
    account: CalendarAccount, means: str, ticked: list[str]
) -> None:
    """ "Hab am Wochenende endlich den Dynamo repariert": no word, German or its English, is
    in "Fix the bike light"; the model's pick is ticked off only when it is the same in both
    orders of the list, else the user is asked."""
    for title in ("Return the library books", "Call the car insurance", "Fix the bike light"):
        add_task(account, title)
    before = Counter(t.title for t in list_tasks(account))
    agent = _picking(
        account,
        [call("complete_todo", which="Dynamo repariert"), "I repaired the dynamo"],
        means=means,
        intent="complete_todo",
    )
    report = agent.run_turn(
        Conversation(), "Hab am Wochenende endlich den Dynamo repariert, hak das ab"
    )
    done = before - Counter(t.title for t in list_tasks(account))
    assert list(done.elements()) == ticked, report.answer
    assert report.stop_reason == ("answered" if ticked else "asked")


# -- everyday things named in the user's language: the glossary, before any model step -----------


@pytest.mark.parametrize(
    ("word", "english"),
    [("plombier", "plumber"), ("Klempner", "plumber"), ("fontanero", "plumber"),
     ("Zahnarzttermin", "dentist"), ("dentaire", "dentist"), ("Fahrradlicht", "bike light"),
     ("fürs", None), ("Essengehen", "eating out"), ("restos", "eating out"),
     ("seguro", "insurance"), ("Stadtbibliothek", "library"), ("radio", None), ("Tom", None),
     ("barbacoa", "barbecue"), ("Grillfest", "barbecue"), ("rendez-vous", "appointment"),
     ("Termin", "appointment"), ("terminado", None), ("Chorprobe", "rehearsal")],
)  # fmt: skip
def test_an_everyday_thing_is_found_in_english(word: str, english: str | None) -> None:
    assert in_english(word) == english


@pytest.mark.parametrize(
    ("request_", "named", "kept"),
    [("Annule le plombier vendredi", "plombier", "Dentist"),
     ("Sag den Zahnarzttermin am Freitag ab", "Zahnarzttermin", "Plumber visit")],
)  # fmt: skip
def test_an_everyday_thing_in_the_users_language_names_the_event_with_no_model_step(
    account: CalendarAccount, request_: str, named: str, kept: str
) -> None:
    """A small model translates single words poorly ("plombier" stays "Plombier") and its
    pick follows the place in the list: the glossary's English names the event, and the
    model is asked neither to translate nor to pick."""
    create_event(account, "Plumber visit", at(18, 8), at(18, 9), tz=TZ)
    create_event(account, "Dentist", at(18, 14), at(18, 15), tz=TZ)
    agent = _picking(account, [call("cancel_event", event=named)], means="")
    report = agent.run_turn(Conversation(), request_)
    assert [e.title for e in _all(account)] == [kept], report.answer
    assert agent.backend.asked == []  # type: ignore[attr-defined]


def test_a_todo_named_by_a_compound_of_everyday_things_is_ticked_off(
    account: CalendarAccount,
) -> None:
    """ "Fahrradlicht" is "bike light": "Get the bike light fixed" is ticked off, whatever
    the model's translation ("Rainy Day") and its pick."""
    for task in list_tasks(account):  # the to-dos earlier tests left open
        if not task.done:
            complete_task(account, task.task_id)
    for title in ("Take the library books back", "Phone the car insurance",
                  "Get the bike light fixed"):  # fmt: skip
        add_task(account, title)
    agent = _picking(
        account,
        [call("complete_todo", which="Fahrradlicht repariert"), "Rainy Day repaired"],
        means="",
        intent="complete_todo",
    )
    report = agent.run_turn(
        Conversation(), "Hab am Wochenende endlich das Fahrradlicht repariert, hak das ab"
    )
    open_ = {t.title for t in list_tasks(account) if not t.done}
    assert open_ == {"Take the library books back", "Phone the car insurance"}, report.answer


# -- a fact told as changed replaces the memory it contradicts -----------------------------------


@pytest.mark.parametrize(
    ("request_", "turns", "means", "gone"),
    [
        # the same thing said of ("favourite café"): no model step
        ("Remember that my favourite café is now Café Luna",
         [call("remember_fact", fact="my favourite café is now Café Luna")], None,
         "Alex's favourite café is Café Rosa."),
        # no word in common in its own language: the English, then the model's pick
        ("Retiens que je ne suis plus végétarien, je mange du poisson maintenant.",
         [call("remember_fact", fact="je mange du poisson"),
          "I am no longer vegetarian, I eat fish now"], "vegetarian", "Alex is vegetarian."),
        ("Merk dir bitte: Ich esse inzwischen wieder Fisch, vegetarisch bin ich nicht mehr.",
         [call("remember_fact", fact="Ich esse Fisch"),
          "I eat fish again, I am no longer vegetarian"], "vegetarian", "Alex is vegetarian."),
        # told as no change: nothing goes, and the model is not asked
        ("Remember that Sam likes jazz", [call("remember_fact", fact="Sam likes jazz")],
         "partner", None),
        # a change the model picks none for: nothing goes
        ("Recuerda que ahora voy al gimnasio los martes",
         [call("remember_fact", fact="voy al gimnasio los martes"),
          "I go to the gym on Tuesdays now"], None, None),
    ],
)  # fmt: skip
def test_a_fact_told_as_changed_replaces_the_memory_it_contradicts(
    database: Database, request_: str, turns: list[str], means: str | None, gone: str | None
) -> None:
    """ "My favourite café is now Café Luna": the new fact is kept and the old one forgotten
    (each through the dialog); a fact told as no change forgets nothing."""
    kept = ["Alex's partner is Sam.", "Alex is vegetarian.", "Alex's favourite café is Café Rosa."]
    with database.session() as session, session.begin():
        session.add_all(
            MemoryRecord(created=datetime(2029, 5, 1, tzinfo=UTC), text=t) for t in kept
        )
    backend = Picking(turns, means, intent="remember_fact")
    answers = Answers()
    agent = Agent(backend, build_registry(data=database), confirmer=answers)
    agent.front = IntentRouter()
    report = agent.run_turn(Conversation(), request_)
    with database.session() as session:
        now = {m.text for m in session.query(MemoryRecord)}
    assert len(now) == 4 - (gone is not None), (now, report.answer)
    assert gone is None or gone not in now
    assert "forget" not in [c.name for c in report.calls] or gone is not None
    if "Sam likes" in request_:
        assert backend.asked == []


def test_a_fact_asked_to_be_corrected_in_what_hearth_knows_replaces_it(
    database: Database,
) -> None:
    """ "… Tu peux corriger ça dans ce que tu sais de moi ?" taken for a look at memories: the
    new fact is kept, and the one fact sharing two of the request's words ("Café Rosa") goes;
    "Sam" alone in a fact is no reason to offer it."""
    kept = ["Alex's partner is Sam.", "Alex is vegetarian.", "Alex's favourite café is Café Rosa."]
    with database.session() as session, session.begin():
        session.add_all(
            MemoryRecord(created=datetime(2029, 5, 1, tzinfo=UTC), text=t) for t in kept
        )
    turns = [
        call("remember_fact", fact="Mon nouveau QG, c'est le Café Liebling"),
        "Café Rosa closed. My new HQ is Café Liebling. Correct that in what you know of me",
    ]
    backend = Picking(turns, None, intent="recall_fact")  # a model that says "no" of all
    agent = Agent(backend, build_registry(data=database), confirmer=Answers())
    agent.front = IntentRouter()
    report = agent.run_turn(
        Conversation(),
        "Petite mise à jour : le Café Rosa a fermé, snif. Mon nouveau QG, c'est le Café Liebling "
        "à côté de chez Sam. Tu peux corriger ça dans ce que tu sais de moi ?",
    )
    with database.session() as session:
        now = {m.text for m in session.query(MemoryRecord)}
    # kept in the user's words, not the model's
    told = (
        "Petite mise à jour : le Café Rosa a fermé, snif. Mon nouveau QG, c'est le Café "
        "Liebling à côté de chez Sam."
    )
    assert now == {*kept[:2], told}, report.answer
    # the one fact holding two things of the request goes, no model asked
    assert backend.asked == []
