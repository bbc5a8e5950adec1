"""Choosing the intent by likelihood (a backend that can score replies): the best-scored
intent wins, an intent without slots needs no generation, and one with slots is filled in a
step held to that intent alone with every intent in the prompt."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from app.agent.intents.catalog import INTENTS
from app.agent.intents.recognise import recognise
from app.llm.backend import ScoresReplies, StepRequest
from app.llm.scripted import ScriptedBackend
from tests.scripting import call


class ScoringScript(ScriptedBackend):
    """A scripted backend that also scores replies: every intent low, the message's own
    favourite (from `favourite`) high, the calendar lower but not far (a small model's
    favourite everywhere); `close`: intents scored just below the favourite when asked among
    all of them, and the one that wins when asked again among the few best."""

    def __init__(
        self, turns: list[str], favourite: dict[str, str], close: dict[str, str] | None = None
    ) -> None:
        base = ScriptedBackend.from_data({"intents": True, "turns": turns})
        super().__init__(base.turns, base.format)
        self.intents = True
        self.favourite = favourite
        self.close = close or {}
        self.close_again: dict[str, float] = {}  # other scores when asked again
        self.scored: list[StepRequest] = []

    def score_replies(
        self, request: StepRequest, replies: Sequence[str], cancel: threading.Event
    ) -> dict[str, float] | None:
        self.scored.append(request)
        scores = dict.fromkeys(replies, -6.0)
        scores["show_calendar"] = -2.0
        text = str(request.messages[-1]["content"])
        if text in self.favourite:
            scores[self.favourite[text]] = -0.5
        if text in self.close:
            if len(replies) < len(INTENTS):  # asked again among the few best
                scores[self.close[text]] = 0.0
                scores.update((k, v) for k, v in self.close_again.items() if k in scores)
            else:
                scores[self.close[text]] = -0.8
        return scores


def test_the_best_scored_intent_without_slots_needs_no_generation() -> None:
    backend = ScoringScript([], {"thanks, bye": "just_answer"})
    assert isinstance(backend, ScoresReplies)
    got = recognise(backend, "thanks, bye", threading.Event())
    assert got is not None and got.intent.name == "just_answer"
    assert backend.requests == []  # no slots: no generation at all
    (asked,) = backend.scored
    # Asked as a conversation of worked examples ending in the message, no tools offered.
    assert asked.tools == [] and asked.messages[-1] == {"role": "user", "content": "thanks, bye"}
    examples = asked.messages[1:-1]
    assert examples and {m["role"] for m in examples[1::2]} == {"assistant"}
    assert {m["content"] for m in examples[1::2]} == {intent.name for intent in INTENTS}
    # Every request shares the examples: they end the prefix kept in the prompt cache.
    assert asked.shared_messages == len(asked.messages) - 1


def test_an_intent_with_slots_is_filled_in_a_step_held_to_it() -> None:
    text = "Put dinner with Sam on Friday at 7"
    backend = ScoringScript([call("add_event", title="dinner with Sam", when="Friday at 7")],
                            {text: "add_event"})  # fmt: skip
    got = recognise(backend, text, threading.Event())
    assert got is not None and got.intent.name == "add_event"
    assert got.slots == {"title": "dinner with Sam", "when": "Friday at 7"}
    (step,) = backend.requests
    assert step.only_call == "add_event" and step.tool_choice == "required"
    # Every intent stays in the prompt: the slot step's prefix is the same for every intent.
    assert [t.name for t in step.tools] == [intent.name for intent in INTENTS]


def test_slot_values_from_the_held_step_are_still_grounded() -> None:
    text = "Put dinner with Sam on Friday at 7"
    backend = ScoringScript([call("add_event", title="dinner with Sam", when="Monday at 9")],
                            {text: "add_event"})  # fmt: skip
    got = recognise(backend, text, threading.Event())
    assert got is not None and got.slots == {"title": "dinner with Sam"}
    assert got.dropped == {"when": "Monday at 9"}


def test_a_close_choice_is_asked_again_among_the_few_best_alone() -> None:
    text = "Rappelle-moi d'appeler maman ce soir"
    backend = ScoringScript([call("set_reminder", what="appeler maman", when="ce soir")],
                            {text: "cancel_reminder"}, close={text: "set_reminder"})  # fmt: skip
    got = recognise(backend, text, threading.Event())
    assert got is not None and got.intent.name == "set_reminder"
    first, again = backend.scored
    offered = {m["content"] for m in again.messages[1:-1][1::2]}
    # The five best of the first asking (the two close ones, the calendar, two of the rest),
    # each with its own worked examples and nothing else; nothing of it is kept.
    assert len(offered) == 5 and {"cancel_reminder", "set_reminder", "show_calendar"} <= offered
    kinds = str(again.messages[0]["content"])
    assert all(f"- {name}:" in kinds for name in offered) and kinds.count("\n- ") == 5
    assert again.shared_messages == 0 and first.shared_messages > 0
    assert again.messages[-1] == {"role": "user", "content": text}


def test_a_clear_choice_is_asked_once() -> None:
    text = "Remind me to call mum at 6"
    backend = ScoringScript([call("set_reminder", what="call mum", when="at 6")],
                            {text: "set_reminder"})  # fmt: skip
    got = recognise(backend, text, threading.Event())
    assert got is not None and got.intent.name == "set_reminder"
    assert len(backend.scored) == 1


def test_a_plain_answer_chosen_first_is_not_asked_again() -> None:
    # Asked among the close few, a knowledge question loses to any intent's examples.
    text = "What's the capital of Portugal?"
    backend = ScoringScript([], {text: "just_answer"}, close={text: "recall_fact"})
    got = recognise(backend, text, threading.Event())
    assert got is not None and got.intent.name == "just_answer"
    assert len(backend.scored) == 1 and set(got.close) == {"just_answer", "recall_fact"}


def test_asking_again_does_not_make_a_plain_answer_of_what_was_not_one_first() -> None:
    # Asked among the few best, the model liked a plain answer best, the calendar next.
    text = "Is anything happening on the 24th?"
    backend = ScoringScript([call("show_calendar", when="on the 24th")],
                            {text: "find_free_time"}, close={text: "just_answer"})  # fmt: skip
    backend.close_again = {"show_calendar": -0.5}
    got = recognise(backend, text, threading.Event())
    assert got is not None and got.intent.name == "show_calendar"
    assert len(backend.scored) == 2


def test_writing_the_call_is_still_there_to_compare() -> None:
    backend = ScoringScript([call("just_answer")], {"hi": "just_answer"})
    got = recognise(backend, "hi", threading.Event(), scored=False)
    assert got is not None and got.intent.name == "just_answer"
    assert backend.scored == [] and len(backend.requests) == 1


def test_a_text_is_not_dropped_because_an_item_slot_holds_its_words_too() -> None:
    """The model put the message's words into the email's reference as well: they are still
    the user's words. Only a person's name beside a text is no evidence ("Hi Tom")."""
    text = "Answer Anna's last email saying I'll bring the wine"
    backend = ScoringScript(
        [call("reply_to_email", which="Anna's last email saying I'll bring the wine",
              message="I'll bring the wine to Anna's house.")],
        {text: "reply_to_email"},
    )  # fmt: skip
    got = recognise(backend, text, threading.Event())
    assert got is not None and got.slots.get("message") == "I'll bring the wine to Anna's house."
    named = ScoringScript([call("send_email", to="Tom", message="Hi Tom")], {"x": "send_email"})
    sent = recognise(named, "x: write to Tom", threading.Event(), scored=False)
    assert sent is not None and "message" in sent.dropped
