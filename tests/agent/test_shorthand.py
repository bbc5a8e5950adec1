"""Texting shorthand is written out before the rules and the model read a request."""

from __future__ import annotations

import pytest

from app.agent.intents.shorthand import written_out


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("can u email jonas", "can you email jonas"),
        ("U free tmrw?", "You free tomorrow?"),
        ("move my appt b4 lunch", "move my appointment before lunch"),
        ("rdv dem1 avc Sam", "rendez-vous demain avec Sam"),
        ("q tengo mñn?", "que tengo mañana?"),
        (
            "Hab nem Kumpel geschrieben, vllt kommt er",
            "Hab einem Kumpel geschrieben, vielleicht kommt er",
        ),
        ("yo tb voy xfa", "yo también voy por favor"),
        # a name typed in lower case after a title
        ("un mail du cabinet du dr lee", "un mail du cabinet du Dr Lee"),
        ("call mrs. okafor", "call Mrs. Okafor"),
        ("la cita con la dra garcía", "la cita con la Dra García"),
        ("mr and mrs smith", "mr and Mrs Smith"),
    ],
)
def test_shorthand_is_written_out(typed: str, meant: str) -> None:
    assert written_out(typed) == meant


@pytest.mark.parametrize(
    "typed",
    [
        "siete u ocho",  # Spanish "or"
        "2 tb disk",  # terabytes
        "Q&A at 3",
        "file q.txt",
        "the u.s. trip",
        "mail me@u.com",
        "20 Grad im Schatten",
        "a TB test",
        "Die U-Bahn",
        "stp svp porfa",  # politeness the rules already read
        "Dr. Lee",
        "the address is 12 dr. ave",
    ],
)
def test_words_that_only_look_like_shorthand_stay(typed: str) -> None:
    assert written_out(typed) == typed
