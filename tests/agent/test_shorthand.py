"""Texting shorthand is written out before the rules and the model read a request."""

from __future__ import annotations

import pytest

from app.agent.intents.shorthand import as_corrected, written_out


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


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("Kannst du nachschauen wann der Elektriker... ach nein, wann kommt der Klempner?",
         "wann kommt der Klempner?"),
        ("email Tom - no wait, email Jonas about the slides", "email Jonas about the slides"),
        ("c'est quand le dentiste… enfin non, quand est-ce que j'ai le coiffeur ?",
         "quand est-ce que j'ai le coiffeur ?"),
        ("¿Qué tengo el lunes?, bueno no, ¿qué tengo el martes?", "¿qué tengo el martes?"),
        # a part of the request corrected, not a whole one: kept whole
        ("Mets un rdv mardi… enfin non, mercredi à 10h avec Priya",
         "Mets un rdv mardi… enfin non, mercredi à 10h avec Priya"),
        # no correction: "no" and "wait" as words of the request
        ("I said no, wait till Friday to send it", "I said no, wait till Friday to send it"),
        ("No, wait for me at the station", "No, wait for me at the station"),
    ],
)  # fmt: skip
def test_a_request_corrected_midway_is_what_follows_the_correction(typed: str, meant: str) -> None:
    assert as_corrected(typed) == meant
