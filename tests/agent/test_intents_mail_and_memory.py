"""Intents for mail, reminders and memories, end to end: real Dovecot + aiosmtpd on 127.0.0.1
and a real data folder; a scripted model picks the intent, code finds the message, asks the
model only for an email's body, and every outgoing message passes the dialog."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from app import clock
from app.agent.intents.router import IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.scripted import ScriptedBackend
from app.store.database import Database
from app.store.models import MemoryRecord
from app.store.reminders import ReminderStore
from connectors.mail import MailAccount, list_emails
from tests.agent.test_intents import Answers
from tests.agent.test_mail_agent import USERS, _account, _deliver, _inbox_subjects, servers
from tests.scripting import call
from tests.support.mail_servers import Dovecot, SmtpServer

__all__ = ["servers"]  # the module-scoped mail servers fixture, shared

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")
ALICE, BOB = USERS
NOW = datetime(2029, 5, 15, 9, 30).astimezone()


def _agent(turns: list[str], answers: Answers, **tools: object) -> Agent:
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
    agent = Agent(backend, build_registry(**tools), confirmer=answers)  # type: ignore[arg-type]
    agent.front = IntentRouter()
    return agent


@pytest.fixture
def frozen() -> Iterator[None]:
    with clock.frozen_at(NOW):
        yield


def test_a_reply_goes_to_the_message_found_with_a_body_the_model_wrote(
    servers: tuple[Dovecot, SmtpServer], frozen: None
) -> None:
    dovecot, _ = servers
    _deliver(dovecot, ALICE, BOB, "Picnic on Saturday", "Shall we have a picnic on Saturday?")
    answers = Answers()
    body = "Hi Bob,\n\nSaturday works for me!\n\nAlice"
    agent = _agent(
        [call("reply_to_email", which="Bob's picnic", message="Saturday works for me"), body],
        answers,
        mail=_account(servers, ALICE),
    )
    report = agent.run_turn(Conversation(), "answer Bob's picnic mail saying Saturday works for me")
    assert [c.name for c in report.calls][-1] == "reply_email"
    [shown] = answers.seen
    assert shown.tool == "reply_email" and shown.arguments["body"] == body
    assert "Re: Picnic on Saturday" in _inbox_subjects(servers, BOB)
    # The model was asked only for the body: no tools, no history.
    writing = agent.backend.requests[1]  # type: ignore[attr-defined]
    assert writing.tool_choice == "none" and len(writing.messages) == 2


def test_a_refused_email_is_not_sent_and_the_answer_says_so(
    servers: tuple[Dovecot, SmtpServer], frozen: None
) -> None:
    before = _inbox_subjects(servers, BOB).count("Running late")
    agent = _agent(
        [call("send_email", to=BOB, message="running late", subject="Running late"), ""],
        Answers(approve=False),
        mail=_account(servers, ALICE),
    )
    report = agent.run_turn(Conversation(), f"email {BOB} that I'm running late")
    assert report.calls[-1].answer == "denied"
    assert "didn't" in report.answer
    assert _inbox_subjects(servers, BOB).count("Running late") == before


def test_a_missing_message_is_asked_for_and_nothing_is_sent(
    servers: tuple[Dovecot, SmtpServer], frozen: None
) -> None:
    answers = Answers()
    # The grammar makes the model write a message; it invents one, which is not the user's.
    turns = [call("send_email", to=BOB, message="Hello Bob"), "Hello Bob, see you at 5. Alice"]
    agent = _agent(turns, answers, mail=_account(servers, ALICE))
    conversation = Conversation()
    first = agent.run_turn(conversation, f"send an email to {BOB}")
    assert first.stop_reason == "asked" and "say" in first.answer and answers.seen == []
    agent.run_turn(conversation, "see you at 5")
    [shown] = answers.seen
    assert shown.arguments["to"] == [BOB] and "5" in shown.arguments["body"]


def test_finding_mail_lists_what_the_search_found(
    servers: tuple[Dovecot, SmtpServer], frozen: None
) -> None:
    dovecot, _ = servers
    _deliver(dovecot, ALICE, "lena@nordwind.example", "Invoice 118", "Please find the invoice.")
    agent = _agent([call("find_emails", about="invoice")], Answers(), mail=_account(servers, ALICE))
    report = agent.run_turn(Conversation(), "Anything about the invoice?")
    assert "Invoice 118" in report.answer and "lena@nordwind.example" in report.answer
    account: MailAccount = _account(servers, ALICE)
    assert any(m.subject == "Invoice 118" for m in list_emails(account, "INBOX", limit=50))


def test_a_reminder_in_two_hours_and_a_memory_are_stored(tmp_path: Path, frozen: None) -> None:
    database = Database.open(tmp_path)
    try:
        agent = _agent(
            [
                call("set_reminder", what="appeler la banque", when="dans deux heures"),
                call("remember_fact", fact="my locker is 112"),
                call("recall_fact", about="locker"),
            ],
            Answers(),
            data=database,
        )
        conversation = Conversation()
        agent.run_turn(conversation, "Rappelle-moi dans deux heures d'appeler la banque")
        [reminder] = ReminderStore(database).pending()
        assert reminder.text == "appeler la banque"
        assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 15, 11, 30)
        agent.run_turn(conversation, "remember that my locker is 112")
        recalled = agent.run_turn(conversation, "what's my locker number?")
        assert "112" in recalled.answer
    finally:
        database.close()


@pytest.mark.parametrize(
    ("request_", "when", "text"),
    [
        ("Rappelle-moi dans deux heures d'appeler la banque", "dans deux heures",
         "appeler la banque"),
        ("Avísame mañana a las 9 de llamar al seguro", "mañana a las 9", "llamar al seguro"),
        ("Erinnere mich am Freitag um 8 daran, die Pflanzen zu gießen", "am Freitag um 8",
         "die Pflanzen zu gießen"),
        # the part of the day and a time said roughly are when, not what
        ("¿Me recuerdas el sábado por la mañana que tengo que llevar agua para la excursión? "
         "A eso de las 7", "", "tengo que llevar agua para la excursión"),
    ],
)  # fmt: skip
def test_a_text_the_model_translated_is_taken_from_the_users_words(
    tmp_path: Path, frozen: None, request_: str, when: str, text: str
) -> None:
    """The model wrote the reminder in English for a request in another language: that is
    not what the user said, so it is not stored; the user's own words are, less the "remind
    me" and the time (not asked for again)."""
    database = Database.open(tmp_path)
    try:
        agent = _agent(
            [call("set_reminder", what="call the bank", when=when)],
            Answers(),
            data=database,
        )
        report = agent.run_turn(Conversation(), request_)
        assert report.stop_reason == "answered"
        [reminder] = ReminderStore(database).pending()
        assert reminder.text == text and "call the bank" not in report.answer
        if "excursión" in request_:  # seven in the morning said, not in the evening
            assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 19, 7)
    finally:
        database.close()


def test_an_email_body_is_written_with_what_the_user_told_before_that_it_means(
    servers: tuple[Dovecot, SmtpServer], frozen: None, tmp_path: Path
) -> None:
    database = Database.open(tmp_path)
    with database.session() as session, session.begin():
        for fact in ("Alex's favourite café is Café Rosa.", "Alex is vegetarian."):
            session.add(MemoryRecord(created=NOW, text=fact))
    answers = Answers(approve=False)
    body = "Hi Bob, lunch at Café Rosa on Friday at 12:30? Alice"
    agent = _agent(
        [call("send_email", to=BOB, message="lunch at my favourite café on Friday at 12:30"),
         body, call("send_email", to=BOB, message="I'm running late"), "Running late, sorry!"],
        answers, mail=_account(servers, ALICE), data=database,
    )  # fmt: skip
    agent.run_turn(Conversation(), f"Invite {BOB} to lunch at my favourite café on Friday at 12:30")
    asked = str(agent.backend.requests[-1].messages)  # type: ignore[attr-defined]
    assert "Café Rosa" in asked and "vegetarian" not in asked
    assert answers.seen[-1].arguments["body"] == body
    # A message speaking of nothing of the user's looks nothing up.
    report = agent.run_turn(Conversation(), f"Tell {BOB} I'm running late")
    assert "recall" not in [c.name for c in report.calls]
    database.close()


@pytest.mark.parametrize(
    ("request_", "message", "written"),
    [("Lade Bob zum Mittagessen in meinem Lieblingscafé am Freitag um 12:30 ein",
      "Mittagessen in meinem Lieblingscafé am Freitag um 12:30",
      "Hallo Bob, Mittagessen am Freitag um 12:30 im Café Rosa?"),
     ("Invita a Bob a comer en mi cafetería favorita el viernes a las 12:30",
      "comer en mi cafetería favorita el viernes a las 12:30",
      "Hola Bob, ¿comemos el viernes a las 12:30 en el Café Rosa?")],
)  # fmt: skip
def test_what_the_user_told_before_is_found_by_the_english_of_what_the_request_names(
    servers: tuple[Dovecot, SmtpServer], frozen: None, tmp_path: Path, request_: str,
    message: str, written: str,
) -> None:  # fmt: skip
    """ "Mein Lieblingscafé", "mi cafetería favorita": kept in English ("Alex's favourite
    café is Café Rosa"), found by the everyday words' English, with no model step."""
    database = Database.open(tmp_path)
    with database.session() as session, session.begin():
        for fact in ("Alex's favourite café is Café Rosa.", "Alex is vegetarian."):
            session.add(MemoryRecord(created=NOW, text=fact))
    answers = Answers(approve=False)
    agent = _agent([call("send_email", to=BOB, message=message), written], answers,
                   mail=_account(servers, ALICE), data=database)  # fmt: skip
    agent.run_turn(Conversation(), request_.replace("Bob", BOB))
    asked = str(agent.backend.requests[-1].messages)  # type: ignore[attr-defined]
    assert "Café Rosa" in asked and "vegetarian" not in asked
    database.close()


@pytest.mark.parametrize(
    ("request_", "message"),
    [("Schreib Bob, dass wir uns am Freitag um 12:30 in meinem Lieblingscafé treffen, und "
      "schreib den Namen dazu.", "wir treffen uns am Freitag um 12:30 in meinem Lieblingscafé"),
     ("Escríbele a Bob que nos vemos el viernes a las 12:30 en mi cafetería favorita. Pon el "
      "nombre del sitio, que él no lo conoce.",
      "nos vemos el viernes a las 12:30 en mi cafetería favorita")],
)  # fmt: skip
def test_the_name_of_a_thing_of_the_users_asked_for_is_what_a_memory_says_it_is(
    servers: tuple[Dovecot, SmtpServer], frozen: None, tmp_path: Path, request_: str,
    message: str,
) -> None:  # fmt: skip
    """ "… in meinem Lieblingscafé, und schreib den Namen dazu": the memory saying what the
    favourite café is gives its name to the email, as a line of its own, by code."""
    database = Database.open(tmp_path)
    with database.session() as session, session.begin():
        for fact in ("Alex's favourite café is Café Rosa.", "Alex's partner is Sam."):
            session.add(MemoryRecord(created=NOW, text=fact))
    answers = Answers(approve=False)
    agent = _agent([call("send_email", to=BOB, message=message), message.capitalize() + "."],
                   answers, mail=_account(servers, ALICE), data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_.replace("Bob", BOB))
    assert answers.seen, report.answer
    body = str(answers.seen[-1].arguments["body"])
    assert "Café Rosa." in body and "Sam" not in body, body
    assert "recall" in [c.name for c in report.calls]
    database.close()


@pytest.mark.parametrize(
    ("request_", "when"),
    [("Die Hausverwaltung dreht morgen ja das Wasser ab 🙄 erinner mich bitte morgen um halb "
      "neun, dass ich vorher noch ein paar Flaschen abfülle", "vorher"),
     ("They're cutting the water tomorrow, remind me tomorrow at 8:30 to fill some bottles "
      "before", "before")],
)  # fmt: skip
def test_a_reminders_time_the_model_wrote_as_a_word_is_the_requests_own(
    tmp_path: Path, frozen: None, request_: str, when: str
) -> None:
    """The model's time is a word that names none ("vorher"): the request's own "morgen um
    halb neun" is when, not asked again."""
    database = Database.open(tmp_path)
    try:
        agent = _agent([call("set_reminder", what="Flaschen abfüllen", when=when)], Answers(),
                       data=database)  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
        [reminder] = ReminderStore(database).pending()
        assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 16, 8, 30), (
            report.answer
        )
    finally:
        database.close()
