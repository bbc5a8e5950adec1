"""German, French and Spanish requests for add_event, move_event and set_reminder, end to end:
the scripted model copies the slots in the user's own language (as the recognition prompt asks),
`when.py` resolves them against the world clock (frozen at Tuesday 15 May 2029, 09:30), and
the event lands in the real Radicale on 127.0.0.1, or the reminder in the real data folder, at
the minute the request means."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from app import clock
from app.agent.intents.language import asked_again, asks_for_a_reminder, without_remind_me
from app.agent.intents.router import IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.store.database import Database
from app.store.reminders import ReminderStore
from connectors.calendar import CalendarAccount, create_event
from tests.agent.test_intent_scoring import ScoringScript
from tests.agent.test_intents import NOW, TZ, _agent, _all, account, at, server
from tests.agent.test_intents_personal import _agent as _personal_agent
from tests.scripting import call

__all__ = ["account", "server"]  # the Radicale server and calendar of test_intents.py


@pytest.mark.parametrize(
    ("request_text", "slots", "title", "start", "end"),
    [
        pytest.param(
            "Trag Zahnarzt übermorgen um 15 Uhr ein",
            {"title": "Zahnarzt", "when": "übermorgen um 15 Uhr"},
            "Zahnarzt", at(17, 15), at(17, 16), id="de-day-after-tomorrow",
        ),
        pytest.param(
            "Termin: Elternabend am 12. Juni von 19 bis 21 Uhr",
            {"title": "Elternabend", "when": "am 12. Juni von 19 bis 21 Uhr"},
            "Elternabend", datetime(2029, 6, 12, 19).astimezone(),
            datetime(2029, 6, 12, 21).astimezone(), id="de-date-and-range",
        ),
        pytest.param(
            "Ajoute un dîner avec Claire mardi prochain à 20h",
            {"title": "dîner avec Claire", "when": "mardi prochain à 20h"},
            "Dîner avec Claire", at(22, 20), at(22, 21), id="fr-next-tuesday",
        ),
        pytest.param(
            "Mets une réunion avec Claire demain à 14h30 pendant deux heures",
            {"title": "réunion avec Claire", "when": "demain à 14h30", "duration": "deux heures"},
            "Réunion avec Claire", at(16, 14, 30), at(16, 16, 30), id="fr-tomorrow-duration",
        ),
        pytest.param(
            "Pon una cena con Pablo el viernes a las 9 de la noche",
            {"title": "cena con Pablo", "when": "el viernes a las 9 de la noche"},
            "Cena con Pablo", at(18, 21), at(18, 22), id="es-friday-night",
        ),
        # "am" of a range holds for its start too, also where the model left it out.
        pytest.param(
            "Put Gym in my calendar tomorrow from 7 to 8 am",
            {"title": "Gym", "when": "tomorrow from 7 to 8"},
            "Gym", at(16, 7), at(16, 8), id="en-am-left-in-the-request",
        ),
        # The model copied the time and left the day in the request: it is read from there.
        pytest.param(
            "Mets le coiffeur à vendredi 16h",
            {"title": "coiffeur", "when": "16h"},
            "Coiffeur", at(18, 16), at(18, 17), id="fr-day-left-in-the-request",
        ),
        # The model translated the title's first words: the user's own words take their place.
        pytest.param(
            "Ajoute un déjeuner avec Priya jeudi à midi",
            {"title": "Dinner with Priya jeudi", "when": "jeudi à midi"},
            "Déjeuner avec Priya", at(17, 12), at(17, 13), id="fr-translated-title",
        ),
        pytest.param(
            "Trag für Freitag um 12 ein Mittagessen mit Jonas ein",
            {"title": "Lunch with Jonas on Friday", "when": "Freitag um 12"},
            "Mittagessen mit Jonas", at(18, 12), at(18, 13), id="de-translated-title",
        ),
        pytest.param(
            "Añade dentista pasado mañana a las 11",
            {"title": "dentista", "when": "pasado mañana a las 11"},
            "Dentista", at(17, 11), at(17, 12), id="es-day-after-tomorrow",
        ),
    ],
)  # fmt: skip
def test_a_new_event_in_another_language_lands_at_the_time_meant(
    account: CalendarAccount,
    request_text: str,
    slots: dict[str, str],
    title: str,
    start: datetime,
    end: datetime,
) -> None:
    agent = _agent(account, [call("add_event", **slots)])
    report = agent.run_turn(Conversation(), request_text)
    assert report.stop_reason == "answered", report.answer
    [event] = _all(account)
    assert (event.title, event.start, event.end) == (title, start, end)


@pytest.mark.parametrize(
    ("existing", "request_text", "slots", "start", "end"),
    [
        pytest.param(
            "Zahnarzt", "Verschieb den Zahnarzt auf Donnerstag um 14 Uhr",
            {"event": "Zahnarzt", "to": "Donnerstag um 14 Uhr"},
            at(17, 14), at(17, 15), id="de-to-thursday",
        ),
        pytest.param(
            "Meeting mit Jonas", "Leg das Meeting mit Jonas eine Stunde später",
            {"event": "Meeting mit Jonas", "shift": "eine Stunde später"},
            at(16, 11), at(16, 12), id="de-an-hour-later",
        ),
        pytest.param(
            "Dentiste", "Déplace le dentiste à jeudi 10h",
            {"event": "dentiste", "to": "jeudi 10h"},
            at(17, 10), at(17, 11), id="fr-to-thursday",
        ),
        pytest.param(
            "Réunion budget", "Avance la réunion budget de 15 minutes",
            {"event": "réunion budget", "shift": "de 15 minutes"},
            at(16, 9, 45), at(16, 10, 45), id="fr-15-minutes-earlier",
        ),
        pytest.param(
            "Cena con Ana", "Mueve la cena con Ana al jueves a las 10",
            {"event": "cena con Ana", "to": "jueves a las 10"},
            at(17, 10), at(17, 11), id="es-to-thursday",
        ),
        pytest.param(
            "Reunión con Ana", "Retrasa la reunión con Ana media hora",
            {"event": "reunión con Ana", "shift": "media hora"},
            at(16, 10, 30), at(16, 11, 30), id="es-half-an-hour-later",
        ),
    ],
)  # fmt: skip
def test_a_move_in_another_language_lands_at_the_time_meant(
    account: CalendarAccount,
    existing: str,
    request_text: str,
    slots: dict[str, str],
    start: datetime,
    end: datetime,
) -> None:
    create_event(account, existing, at(16, 10), at(16, 11), tz=TZ)  # tomorrow 10:00-11:00
    agent = _agent(account, [call("move_event", **slots)])
    report = agent.run_turn(Conversation(), request_text)
    assert report.stop_reason == "answered", report.answer
    [event] = _all(account)
    assert (event.title, event.start, event.end) == (existing, start, end)


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    database = Database.open(tmp_path)
    try:
        with clock.frozen_at(NOW):
            yield database
    finally:
        database.close()


@pytest.mark.parametrize(
    ("request_text", "slots", "due"),
    [
        pytest.param(
            "Erinnere mich morgen um 8, den Müll rauszubringen",
            {"what": "den Müll rauszubringen", "when": "morgen um 8"},
            datetime(2029, 5, 16, 8), id="de-tomorrow-at-8",
        ),
        pytest.param(
            "Erinnere mich in einer Stunde an den Kuchen",
            {"what": "an den Kuchen", "when": "in einer Stunde"},
            datetime(2029, 5, 15, 10, 30), id="de-in-an-hour",
        ),
        pytest.param(
            "Rappelle-moi vendredi à 18h de payer le loyer",
            {"what": "payer le loyer", "when": "vendredi à 18h"},
            datetime(2029, 5, 18, 18), id="fr-friday-at-6pm",
        ),
        pytest.param(
            "Rappelle-moi demain matin d'arroser les plantes",
            {"what": "arroser les plantes", "when": "demain matin"},
            datetime(2029, 5, 16, 8), id="fr-tomorrow-morning",
        ),
        pytest.param(
            "Recuérdame el lunes por la mañana llamar al médico",
            {"what": "llamar al médico", "when": "el lunes por la mañana"},
            datetime(2029, 5, 21, 8), id="es-monday-morning",
        ),
        pytest.param(
            "Recuérdame a las 6 de la tarde comprar pan",
            {"what": "comprar pan", "when": "a las 6 de la tarde"},
            datetime(2029, 5, 15, 18), id="es-at-6-in-the-evening",
        ),
    ],
)  # fmt: skip
def test_a_reminder_in_another_language_is_set_for_the_minute_meant(
    database: Database, request_text: str, slots: dict[str, str], due: datetime
) -> None:
    agent = _personal_agent([call("set_reminder", **slots)], data=database)
    report = agent.run_turn(Conversation(), request_text)
    assert report.stop_reason == "answered", report.answer
    [reminder] = ReminderStore(database).pending()
    assert reminder.text == slots["what"]
    assert reminder.local_due().replace(tzinfo=None) == due


def test_a_translated_reminder_is_the_users_whole_message_not_a_span_of_it(
    database: Database,
) -> None:
    # The model put the translated topic first: no span of the request is the reminder.
    slots = {"what": "Remind me of the tax return, Erinnere mich", "when": "morgen um 8"}
    agent = _personal_agent([call("set_reminder", **slots)], data=database)
    agent.run_turn(Conversation(), "Erinnere mich morgen um 8 an die Steuererklärung")
    [reminder] = ReminderStore(database).pending()
    assert "Steuererklärung" in reminder.text
    assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 16, 8)


def test_a_missing_time_answered_in_the_users_language_fills_the_slot(
    account: CalendarAccount,
) -> None:
    create_event(account, "Cena con Ana", at(16, 20), at(16, 21, 30), tz=TZ)
    agent = _agent(
        account,
        [call("add_event", title="Zahnarzt", when="am Freitag"), call("move_event", event="cena")],
    )
    german = Conversation()
    assert agent.run_turn(german, "Zahnarzt am Freitag eintragen").stop_reason == "asked"
    agent.run_turn(german, "um 10 Uhr")
    spanish = Conversation()
    asked = agent.run_turn(spanish, "Cambia la cena")
    assert asked.answer == "¿A cuándo muevo «Cena con Ana»?"  # asked in the request's language
    agent.run_turn(spanish, "el jueves a las 8 de la tarde")
    assert _events_by_title(account) == {
        "Zahnarzt": (at(18, 10), at(18, 11)),
        "Cena con Ana": (at(17, 20), at(17, 21, 30)),
    }


def test_a_missing_reminder_time_answered_in_french_fills_the_slot(database: Database) -> None:
    agent = _personal_agent(
        [call("set_reminder", what="payer le loyer", when="demain")], data=database
    )
    conversation = Conversation()
    first = agent.run_turn(conversation, "Rappelle-moi de payer le loyer")
    assert (first.stop_reason, first.answer) == ("asked", "Quand dois-je vous le rappeler ?")
    agent.run_turn(conversation, "vendredi à 9h30")
    [reminder] = ReminderStore(database).pending()
    assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 18, 9, 30)


def _events_by_title(account: CalendarAccount) -> dict[str, tuple[datetime, datetime]]:
    return {e.title: (e.start, e.end) for e in _all(account)}


# -- answered in the request's language -------------------------------------------------------


def test_a_german_request_is_asked_and_answered_in_german(account: CalendarAccount) -> None:
    agent = _agent(account, [call("add_event", title="Zahnarzt", when="am Freitag")])
    conversation = Conversation()
    asked = agent.run_turn(conversation, "Trag den Zahnarzt am Freitag ein")
    assert (asked.stop_reason, asked.answer) == ("asked", "Freitag, 18. Mai: um wie viel Uhr?")
    # "10:00" alone says no language: the question's (the request's) is kept.
    done = agent.run_turn(conversation, "10:00")
    assert done.answer == "„Zahnarzt“ eingetragen am Freitag, 18. Mai, 10:00–11:00."
    assert [(e.title, e.start) for e in _all(account)] == [("Zahnarzt", at(18, 10))]


def test_a_french_request_gets_its_numbered_choice_and_answer_in_french(
    account: CalendarAccount,
) -> None:
    create_event(account, "Réunion d'équipe", at(17, 10), at(17, 11), tz=TZ)
    create_event(account, "Réunion budget", at(18, 14), at(18, 15), tz=TZ)
    agent = _agent(account, [call("cancel_event", event="réunion")])
    conversation = Conversation()
    asked = agent.run_turn(conversation, "Annule la réunion")
    assert asked.answer == (
        "Lequel voulez-vous dire ?\n"
        "1. jeu. 17 mai, 10:00–11:00 Réunion d'équipe\n"
        "2. ven. 18 mai, 14:00–15:00 Réunion budget"
    )
    done = agent.run_turn(conversation, "2")
    assert done.answer == "« Réunion budget » annulé (ven. 18 mai, 14:00–15:00)."
    assert [e.title for e in _all(account)] == ["Réunion d'équipe"]


def test_an_event_named_in_french_is_found_by_its_english_title(
    account: CalendarAccount,
) -> None:
    create_event(account, "Plumber", at(18, 9), at(18, 10), tz=TZ)
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)
    # The model is asked the key words in English only when no event holds the French ones.
    agent = _agent(account, [call("cancel_event", event="plombier", when="vendredi"), "plumber"])
    done = agent.run_turn(Conversation(), "Supprime la visite du plombier de vendredi")
    assert done.answer == "« Plumber » annulé (ven. 18 mai, 09:00–10:00)."
    assert [e.title for e in _all(account)] == ["Team lunch"]


def test_a_spanish_request_is_asked_for_its_day_and_answered_in_spanish(
    account: CalendarAccount,
) -> None:
    create_event(account, "Dentista", at(18, 14), at(18, 15), tz=TZ)
    agent = _agent(
        account,
        [
            call("add_event", title="cena con Pablo", when=""),
            call("show_calendar", when="el viernes"),
        ],
    )
    conversation = Conversation()
    asked = agent.run_turn(conversation, "Pon una cena con Pablo")
    assert (asked.stop_reason, asked.answer) == ("asked", "¿Cuándo debe ser? (un día y una hora)")
    done = agent.run_turn(conversation, "el viernes a las 9 de la noche")
    assert done.answer == "Añadido «Cena con Pablo» el viernes 18 de mayo, 21:00–22:00."
    shown = agent.run_turn(Conversation(), "¿Qué tengo el viernes?")
    assert shown.answer == (
        "Para el viernes 18 de mayo tu calendario tiene:\n"
        "- 14:00–15:00 Dentista\n- 21:00–22:00 Cena con Pablo"
    )


@pytest.mark.parametrize(
    ("request_text", "taken_for", "what", "due"),
    [
        pytest.param("Erinnere mich am Freitag um 8 daran, die Pflanzen zu gießen",
                     call("find_free_time", when="am Freitag um 8"),
                     "die Pflanzen zu gießen", datetime(2029, 5, 18, 8), id="de-free-time"),
        pytest.param("Remind me to email Tom at 5pm", call("send_email", to="Tom"),
                     "email Tom", datetime(2029, 5, 15, 17), id="en-an-email"),
        pytest.param("ping me at 4 this afternoon to call the garage",
                     call("add_event", title="call the garage", when="at 4 this afternoon"),
                     "call the garage", datetime(2029, 5, 15, 16), id="en-ping-me"),
        pytest.param("Préviens-moi demain à 9h de rappeler Jonas",
                     call("add_event", title="rappeler Jonas", when="demain à 9h"),
                     "rappeler Jonas", datetime(2029, 5, 16, 9), id="fr-previens-moi"),
        # Asked as a question: "can you remind me", "¿puedes recordarme?", "kannst du mich
        # … erinnern?", "tu peux me rappeler"
        pytest.param("Can you remind me at 6 to call Mum?",
                     call("find_contact", who="Mum"),
                     "call Mum", datetime(2029, 5, 15, 18), id="en-can-you"),
        pytest.param("¿Puedes recordarme mañana a las 8 sacar la basura?",
                     call("find_free_time", when="mañana a las 8", duration=""),
                     "sacar la basura", datetime(2029, 5, 16, 8), id="es-puedes"),
        pytest.param("Kannst du mich morgen um 9 an den Arzttermin erinnern?",
                     call("show_calendar", when="morgen um 9"),
                     "den Arzttermin", datetime(2029, 5, 16, 9), id="de-kannst-du"),
        pytest.param("Tu peux me rappeler demain à 10h d'appeler le garage ?",
                     call("add_event", title="appeler le garage", when="demain à 10h"),
                     "appeler le garage", datetime(2029, 5, 16, 10), id="fr-tu-peux"),
        # "make me think of": "fais-moi penser à …", "hazme acordar de …"
        pytest.param("Fais-moi penser demain à 18h de passer à la pharmacie",
                     call("send_email", to="pharmacie", message="passer"),
                     "passer à la pharmacie", datetime(2029, 5, 16, 18), id="fr-faire-penser"),
        pytest.param("Hazme acordar el jueves a las 12 de llamar a Tom",
                     call("find_contact", who="Tom"),
                     "llamar a Tom", datetime(2029, 5, 17, 12), id="es-hazme-acordar"),
        # Asked in the present, after a word to get attention: "Oye, ¿me avisas …?"
        pytest.param("Oye, ¿me avisas el jueves a las 12 para llamar a Tom?",
                     call("find_contact", who="Tom"),
                     "para llamar a Tom", datetime(2029, 5, 17, 12), id="es-me-avisas"),
        pytest.param("Hey, ¿me recuerdas mañana a las 8 comprar pan?",
                     call("show_calendar", when="mañana a las 8"),
                     "comprar pan", datetime(2029, 5, 16, 8), id="es-me-recuerdas"),
        # After what says why: "…, erinner mich bitte in zwei Stunden …", "…, so remind me …"
        pytest.param("die waschmaschine läuft, erinner mich in zwei stunden die wäsche "
                     "aufzuhängen",
                     call("find_free_time", when="in zwei stunden", duration="zwei stunden"),
                     "die wäsche aufzuhängen", datetime(2029, 5, 15, 11, 30), id="de-mid"),
        pytest.param("The cake is in the oven, so remind me in 40 minutes to take it out",
                     call("show_calendar", when="in 40 minutes"),
                     "take it out", datetime(2029, 5, 15, 10, 10), id="en-mid"),
        pytest.param("Le linge tourne encore. Rappelle-moi dans une heure de l'étendre",
                     call("add_event", title="linge", when="dans une heure"),
                     "de l'étendre", datetime(2029, 5, 15, 10, 30), id="fr-mid"),
        pytest.param("Tengo la ropa en la lavadora, recuérdame en una hora tenderla",
                     call("find_free_time", when="en una hora", duration="una hora"),
                     "tenderla", datetime(2029, 5, 15, 10, 30), id="es-mid"),
    ],
)  # fmt: skip
def test_a_request_to_be_reminded_is_a_reminder_whatever_it_was_taken_for(
    database: Database, request_text: str, taken_for: str, what: str, due: datetime
) -> None:
    agent = _personal_agent(
        [taken_for, call("set_reminder", what=what, when=request_text)], data=database
    )
    report = agent.run_turn(Conversation(), request_text)
    assert [c.name for c in report.calls] == ["set_reminder"], report.answer
    [reminder] = ReminderStore(database).pending()
    assert reminder.text == what
    assert reminder.local_due().replace(tzinfo=None) == due


def test_a_reminder_in_the_users_words_leaves_out_the_please_and_the_joining_words(
    database: Database,
) -> None:
    """The model translated the reminder: its text is the user's words after "erinner mich",
    without the time, "bitte" and "dran"."""
    request_text = (
        "die waschmaschine läuft, erinner mich bitte in zwei stunden dran die wäsche aufzuhängen"
    )
    agent = _personal_agent(
        [call("set_reminder", what="hang up the laundry", when="in zwei stunden")], data=database
    )
    agent.run_turn(Conversation(), request_text)
    [reminder] = ReminderStore(database).pending()
    assert reminder.text == "die wäsche aufzuhängen"


@pytest.mark.parametrize(
    "request_text",
    ["Can you remind me what Tom said?", "¿Me puedes recordar cuándo es la cena?",
     "Kannst du mich daran erinnern, was ich Anna versprochen habe?",
     "Tu peux me rappeler ce que Sophie a écrit ?",
     # the question in the last clause: "remind me" means "tell me again"
     "Rappelle-moi, l'appel avec Lena de chez Nordwind, c'est prévu quand exactement ?",
     "Remind me, the dentist on Friday, what time was it?",
     "Erinnere mich mal, der Termin mit Lena, wann war der nochmal?",
     "Recuérdame, la cena con Tom, ¿a qué hora era?"],
)  # fmt: skip
def test_asking_to_be_reminded_of_something_said_is_no_reminder(request_text: str) -> None:
    assert not asks_for_a_reminder(request_text)


@pytest.mark.parametrize(
    "request_text",
    ["Can you remind me at 5 to check how the build went?",
     "Tu peux me rappeler demain que je dois appeler le garage ?",
     "Remind me tomorrow at 9, the bins, they go out on Wednesday",
     "Recuérdame que llame a Sam mañana"],
)  # fmt: skip
def test_a_reminder_holding_a_question_word_is_still_a_reminder(request_text: str) -> None:
    assert asks_for_a_reminder(request_text) and asked_again(request_text) is None


@pytest.mark.parametrize(
    ("request_text", "question"),
    [("Remind me, where did I park?", "where did I park?"),
     ("I'm doing my lasagne tonight. Remind me, what temperature does it go in at?",
      "I'm doing my lasagne tonight. what temperature does it go in at?"),
     ("Erinnere mich mal, der Termin mit Lena, wann war der nochmal?",
      "der Termin mit Lena, wann war der nochmal?"),
     ("¿Recuérdame cuándo es la cena?", "cuándo es la cena?"),
     # "qué" with its accent asks; "que" without it says what to be reminded of
     ("¿Me recuerdas qué le gusta a Sam?", "qué le gusta a Sam?")],
)  # fmt: skip
def test_the_question_behind_remind_me_keeps_what_comes_before(
    request_text: str, question: str
) -> None:
    assert asked_again(request_text) == question


def test_a_question_behind_remind_me_is_shown_to_the_model_without_it() -> None:
    question = "l'appel avec Lena de chez Nordwind, c'est prévu quand exactement ?"
    backend = ScoringScript(["Le 23 mai."], {question: "just_answer"})
    agent = Agent(backend, build_registry())
    agent.front = IntentRouter()
    agent.run_turn(Conversation(), f"Rappelle-moi, {question}")
    assert backend.scored and str(backend.scored[0].messages[-1]["content"]) == question


@pytest.mark.parametrize(
    ("request_text", "rest"),
    [("¿Me puedes avisar mañana a las 8 para regar?", "mañana a las 8 para regar?"),
     ("¡Recuérdame el lunes llamar a Inés!", "el lunes llamar a Inés!"),
     ("Erinnere mich, die Straße zu fegen", ", die Straße zu fegen")],
)  # fmt: skip
def test_the_words_after_remind_me_are_cut_where_the_user_wrote_them(
    request_text: str, rest: str
) -> None:
    # Folding drops "¿" and "¡" and writes "ß" as "ss": the cut is still in the user's text.
    assert without_remind_me(request_text) == rest


def test_remind_me_asking_something_again_is_not_a_new_reminder(database: Database) -> None:
    agent = _personal_agent([call("recall_fact", about="where I parked")], data=database)
    report = agent.run_turn(Conversation(), "Remind me, where did I park?")
    assert [c.name for c in report.calls] == ["recall"]
    assert ReminderStore(database).pending() == []
