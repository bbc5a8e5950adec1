"""A question the user asks to pass on, found in the request and turned to its recipient, in
four languages (`app.agent.intents.asking`)."""

from __future__ import annotations

import pytest

from app.agent.intents.asking import (
    as_question,
    asked_directly,
    asked_of,
    asked_what,
    opened,
    said_before_asking,
    to_you,
)
from app.agent.intents.language import Language


@pytest.mark.parametrize(
    ("language", "request_", "turned"),
    [
        ("en", "Email Priya to ask if she is free on Saturday", "you are free on Saturday"),
        ("en", "Send Ben an email asking whether he wants to come with his kids",
         "you want to come with your kids"),
        ("en", "Email Tom and ask him if he has the keys", "you have the keys"),
        ("en", "Ask Maria by email whether her flight lands at 6", "your flight lands at 6"),
        ("en", "Mail Sam to ask if she goes to the party", "you go to the party"),
        ("de", "Frag Jonas per Mail, ob er am Freitag Zeit hat", "du am Freitag Zeit hast"),
        ("de", "Schreib Anna und frag sie, ob sie ihren Laptop mitbringen kann",
         "du deinen Laptop mitbringen kannst"),
        ("de", "Schick Tom eine Mail und frag, ob er mit seinem Auto kommt",
         "du mit deinem Auto kommst"),
        ("de", "Frag Lea per Mail, ob sie morgen arbeitet", "du morgen arbeitest"),
        ("fr", "Envoie un mail à Priya pour lui demander si elle est libre samedi",
         "tu es libre samedi"),
        ("fr", "Demande à Paul par mail s'il a reçu le colis", "tu as reçu le colis"),
        ("fr", "Écris à Julie pour lui demander si elle aime son nouveau travail",
         "tu aimes ton nouveau travail"),
        ("fr", "Écris à Marc pour lui demander s'il finit tôt", "tu finis tôt"),
        ("es", "Escríbele a Lena para preguntarle si viene el sábado", "vienes el sábado"),
        ("es", "Mándale un correo a Tom preguntando si está libre mañana", "estás libre mañana"),
        ("es", "Pregúntale a Ana por correo si llega a las 8 con su hermano",
         "llegas a las 8 con tu hermano"),
    ],
)  # fmt: skip
def test_the_question_is_turned_to_the_person_it_is_for(
    language: Language, request_: str, turned: str
) -> None:
    assert to_you(asked_of(request_), language) == turned


@pytest.mark.parametrize(
    "request_",
    ["Tell Tom I will be late", "Schreib Anna, dass ich später komme",
     "Dis à Paul que je suis là", "Email the landlord about the heating. Ask nothing."],
)  # fmt: skip
def test_a_request_asking_nothing_has_no_question(request_: str) -> None:
    assert asked_of(request_) == ""


@pytest.mark.parametrize(
    ("language", "clause", "question"),
    [
        ("de", "du am Freitag Zeit hast", "Hast du am Freitag Zeit?"),
        ("es", "vienes el sábado", "¿Vienes el sábado?"),
        ("fr", "tu es libre samedi", "Tu es libre samedi?"),
        ("en", "you have the keys", "You have the keys?"),
    ],
)
def test_a_subject_line_asks_directly(language: Language, clause: str, question: str) -> None:
    assert as_question(clause, language) == question


@pytest.mark.parametrize(
    ("language", "request_", "turned", "subject"),
    [
        ("en", "Email Tom and ask him what he wants for his birthday",
         "what you want for your birthday", "What you want for your birthday?"),
        ("en", "Ask Priya by mail where her hotel is", "where your hotel is",
         "Where your hotel is?"),
        ("de", "Schreib Jonas und frag ihn, wann er morgen kommt", "wann du morgen kommst",
         "Wann kommst du morgen?"),
        ("de", "Frag Lisa per Mail, wann ihr Zug ankommt", "wann dein Zug ankommt",
         "Wann kommt dein Zug an?"),
        ("fr", "Écris à Anna pour lui demander ce qui lui ferait plaisir",
         "ce qui te ferait plaisir", "Qu'est-ce qui te ferait plaisir?"),
        ("fr", "Demande à Paul par mail ce qu'il veut manger", "ce que tu veux manger",
         "Qu'est-ce que tu veux manger?"),
        ("es", "Pregúntale a Tom cuándo llega su tren", "cuándo llega tu tren",
         "¿Cuándo llega tu tren?"),
        ("es", "Escríbele a Lena y pregúntale qué quiere para su cumpleaños",
         "qué quieres para tu cumpleaños", "¿Qué quieres para tu cumpleaños?"),
        ("es", "Mándale un correo a Ana y pregúntale qué le apetece", "qué te apetece",
         "¿Qué te apetece?"),
    ],
)  # fmt: skip
def test_a_question_of_what_or_when_is_turned_to_the_person_it_is_for(
    language: Language, request_: str, turned: str, subject: str
) -> None:
    opening, rest = asked_what(request_)
    clause = to_you(rest, language, wh=True)
    assert opened(opening, clause) == turned
    assert asked_directly(opening, clause, language) == subject


@pytest.mark.parametrize(
    ("request_", "before"),
    [("Envoie un mot à Anna pour la remercier pour son risotto. Et demande-lui si elle est "
      "libre dimanche", "Envoie un mot à Anna pour la remercier pour son risotto"),
     ("Write to Sam, thank him for the book and ask him when he's back",
      "Write to Sam, thank him for the book"),
     ("Email Priya to ask if she is free", "Email Priya to"),
     ("Tell Tom I will be late", "")],
)  # fmt: skip
def test_what_a_request_says_before_it_asks_is_found(request_: str, before: str) -> None:
    assert said_before_asking(request_) == before
