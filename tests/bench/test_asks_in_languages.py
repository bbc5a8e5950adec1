"""The benchmark's must-ask checker (`asks_about` with `SLOT_WORDS`) knows a question for a
missing detail in German, French and Spanish as it knows one in English: the intents ask in
the request's language (app/agent/intents/phrases.py)."""

from __future__ import annotations

import string
from datetime import date

import pytest

from app.agent.intents import phrases
from app.agent.intents.language import LANGUAGES
from bench.tasks.spec import SLOT_WORDS, asks_about


def _filled(key: str, language: str) -> str:
    fields = {f for _, f, _, _ in string.Formatter().parse(phrases.PHRASES[key]["en"]) if f}
    values = {f: date(2029, 5, 18) if f == "day" else "Lisa" for f in fields}
    return phrases.say(language, key, **values)  # type: ignore[arg-type]


_QUESTIONS = sorted(phrases.QUESTIONS)
_ASKING = sorted(key for key, phrase in phrases.PHRASES.items() if "?" in phrase["en"])


@pytest.mark.parametrize("english", _QUESTIONS)
def test_a_translated_slot_question_counts_where_its_english_does(english: str) -> None:
    if not asks_about(english, SLOT_WORDS):
        pytest.skip(f"{english!r} names no detail the checker knows, in English either")
    for language in LANGUAGES[1:]:
        asked = phrases.question(language, english)
        assert asks_about(asked, SLOT_WORDS), asked


@pytest.mark.parametrize("key", _ASKING)
def test_a_translated_question_of_the_steps_counts_where_its_english_does(key: str) -> None:
    if not asks_about(_filled(key, "en"), SLOT_WORDS):
        pytest.skip(f"the {key} question names no detail the checker knows, in English either")
    for language in LANGUAGES[1:]:
        asked = _filled(key, language)
        assert asks_about(asked, SLOT_WORDS), asked


@pytest.mark.parametrize(
    "answer",
    [
        "Kann ich sonst noch etwas tun?",
        "Autre chose ?",
        "¿Algo más?",
        "Erledigt: Wann und wo steht im Kalender.",  # no question at all
        "Wenn du magst, sag Bescheid?",  # "wen" only inside "wenn"
        "Est-ce que c'est quelque chose d'important ?",  # "qu" words, no question word
    ],
)
def test_a_question_that_asks_for_nothing_still_does_not_count(answer: str) -> None:
    assert not asks_about(answer, SLOT_WORDS)
