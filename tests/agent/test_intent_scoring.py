"""Choosing the intent by calibrated likelihood (a backend that can score calls): the model's
favourite for a message that says nothing is divided out, an intent without slots needs no
generation, and one with slots is filled in a step held to that intent alone."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from app.agent.intents.catalog import INTENTS
from app.agent.intents.recognise import recognise
from app.llm.backend import ScoresCalls, StepRequest
from app.llm.scripted import ScriptedBackend
from tests.scripting import call


class ScoringScript(ScriptedBackend):
    """A scripted backend that also scores calls: every intent gets a low log-likelihood,
    the calendar a high one everywhere (a small model's favourite), and the message's own
    favourite a little less than the calendar."""

    def __init__(self, turns: list[str], favourite: dict[str, str]) -> None:
        base = ScriptedBackend.from_data({"intents": True, "turns": turns})
        super().__init__(base.turns, base.format)
        self.intents = True
        self.favourite = favourite
        self.scored: list[str] = []

    def score_calls(
        self, request: StepRequest, names: Sequence[str], cancel: threading.Event
    ) -> dict[str, float] | None:
        text = str(request.messages[-1]["content"])
        self.scored.append(text)
        scores = dict.fromkeys(names, -6.0)
        scores["show_calendar"] = -0.5
        if text in self.favourite:
            scores[self.favourite[text]] = -1.0
        return scores


def test_the_models_favourite_is_divided_out() -> None:
    backend = ScoringScript([], {"thanks, bye": "just_answer"})
    assert isinstance(backend, ScoresCalls)
    got = recognise(backend, "thanks, bye", threading.Event())
    # Raw, the calendar wins (-0.5 against -1.0); against what the model says for an empty
    # message (the calendar at -0.5, the rest at -6), thanks gained 5 and the calendar 0.
    assert got is not None and got.intent.name == "just_answer"
    assert backend.requests == []  # no slots: no generation at all


def test_an_intent_with_slots_is_filled_in_a_step_held_to_it() -> None:
    text = "Put dinner with Sam on Friday at 7"
    backend = ScoringScript([call("add_event", title="dinner with Sam", when="Friday at 7")],
                            {text: "add_event"})  # fmt: skip
    got = recognise(backend, text, threading.Event())
    assert got is not None and got.intent.name == "add_event"
    assert got.slots == {"title": "dinner with Sam", "when": "Friday at 7"}
    (step,) = backend.requests
    assert step.only_call == "add_event" and step.tool_choice == "required"
    # Every intent stays in the prompt: the step shares the scored prompt's evaluated prefix.
    assert [t.name for t in step.tools] == [intent.name for intent in INTENTS]


def test_the_prior_is_computed_once_per_backend() -> None:
    backend = ScoringScript([], {"hi": "just_answer", "danke": "just_answer"})
    for text in ("hi", "danke"):
        recognise(backend, text, threading.Event())
    assert backend.scored.count("hi") == 1 and backend.scored.count("danke") == 1
    assert len(backend.scored) == 2 + 3  # the two messages and three content-free ones once


def test_writing_the_call_is_still_there_to_compare() -> None:
    backend = ScoringScript([call("just_answer")], {"hi": "just_answer"})
    got = recognise(backend, "hi", threading.Event(), scored=False)
    assert got is not None and got.intent.name == "just_answer"
    assert backend.scored == [] and len(backend.requests) == 1
