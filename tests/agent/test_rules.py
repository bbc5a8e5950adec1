"""The rules over the model's choice, as a table: each decides from the request and the
choice alone (no step runs here), and their order is what the module says it is. The
requests' ends to end runs are in the intents' own tests; these pin what decides."""

from __future__ import annotations

import inspect
import threading

import pytest

from app.agent.intents import rules
from app.agent.intents.catalog import BY_NAME, JUST_ANSWER, SOMETHING_ELSE
from app.agent.intents.recognise import Recognised
from app.agent.intents.router import Doing
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent, TurnReport
from app.llm.scripted import ScriptedBackend
from tests.agent.test_intents import Answers


def _doing(request: str) -> Doing:
    """A turn with no calendar, mail or files: a rule that would look finds nothing."""
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": []})
    agent = Agent(backend, build_registry(), confirmer=Answers())
    return Doing(
        agent, Conversation(), request, lambda event: None, threading.Event(), TurnReport()
    )


def _taken(name: str, **slots: str) -> Recognised:
    return Recognised(BY_NAME[name], dict(slots))


@pytest.mark.parametrize(
    ("request_", "taken", "verdict"),
    [
        # an act the request plainly asks for, over what the model took it for
        ("Erinnere mich am Freitag um 8 daran, die Pflanzen zu gießen",
         _taken("find_free_time"), rules.Take("set_reminder")),
        ("Nimm den Parmesan von der Einkaufsliste runter", _taken("complete_todo"),
         rules.Take("add_to_list")),
        ("Tell Maria my dietary requirement: vegetarian", _taken("remember_fact"),
         rules.Take("send_email", read={"to": "Maria"})),
        ("Jamie wants coffee. Reply that Wednesday at 15:00 works", _taken("add_event"),
         rules.Take("reply_to_email")),
        ("ábreme la web de la BVG porfa", _taken("search_web", query="BVG"),
         rules.Take("open_website", read={"site": "BVG"})),
        # a fact told, kept as said
        ("Merk dir, Jonas trinkt keinen Kaffee", _taken(JUST_ANSWER),
         rules.Take("remember_fact", read={"fact": "Jonas trinkt keinen Kaffee"})),
        # a sum code works out
        ("dinner came to 87 euros and there were 3 of us. how much does everyone owe?",
         _taken("spending"), rules.Say("€87 ÷ 3 = €29 each.")),
        # talk
        ("uf qué semana llevo, y eso que es martes jaja", _taken("show_calendar", when="martes"),
         rules.Talk()),
        # no intent, and no act asked for: the free loop
        ("hmm, what do you think about all this", None, rules.HandBack()),
    ],
)  # fmt: skip
def test_the_first_rule_that_fits_decides_over_the_models_choice(
    request_: str, taken: Recognised | None, verdict: rules.Verdict
) -> None:
    chosen = taken.intent.name if taken is not None else SOMETHING_ELSE
    decided, _ = rules.decide(_doing(request_), taken, chosen)
    assert decided == verdict


def test_a_choice_no_rule_decides_runs_as_the_model_made_it() -> None:
    taken = _taken("set_reminder", what="call mum", when="at 5")
    decided, left = rules.decide(_doing("remind me to call mum at 5"), taken, "set_reminder")
    assert decided is None and left is taken


def test_a_rule_may_mend_the_choice_and_let_the_next_rules_look() -> None:
    """ "How many things are in my todo.txt?" taken for the to-dos: the file is asked about
    (the choice is mended, nothing decided yet)."""
    taken = _taken("list_todos")
    decided, left = rules.decide(_doing("How many things are in my todo.txt?"), taken, "list_todos")
    assert decided is None and left is not None and left.intent.name == "ask_files"


def test_no_rule_before_the_one_for_no_intent_reads_the_intent_taken() -> None:
    """Before `_no_intent`, the model may have made no usable call: those rules read only
    `chosen`, never the intent taken (which is None there)."""
    order = [rule.__name__ for rule in rules.RULES]
    before = rules.RULES[: order.index("_no_intent")]
    for rule in before:
        source = inspect.getsource(rule)
        assert "choice.taken" not in source and "choice.name" not in source, rule.__name__


def test_acts_asked_for_come_before_a_question_taken_for_a_change() -> None:
    """A verb the request says comes before what a question asks: a rule further down only
    ever takes back a change the request did not ask for."""
    order = [rule.__name__ for rule in rules.RULES]
    acts = ["_a_reminder", "_onto_a_list", "_a_new_todo", "_into_the_calendar", "_a_reply",
            "_a_message_to_someone", "_an_event_to_cancel", "_an_event_moved"]  # fmt: skip
    taken_back = ["_a_question_taken_for_a_fact", "_a_question_of_what_to_do",
                  "_talk_taken_for_a_move", "_the_models_own_answer"]  # fmt: skip
    assert max(order.index(a) for a in acts) < min(order.index(t) for t in taken_back)
