"""Contacts in the confirmation of an email (issue #24), end to end: a scripted model, the
agent in a worker thread as in the app, the user's address book on a real Radicale, mail
through real Dovecot + aiosmtpd, and the real confirmation dialog (offscreen).

"Email Bob" resolves through find_contact; the dialog says whose address it is, and an
address in no address book is still flagged. The address book being down never stops the
email: it only loses the name.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.agent.tools.toolbox import build_registry
from app.agent.turn.loop import Agent
from app.ui.confirm_dialog import ConfirmDialog
from connectors.calendar import CalendarAccount
from connectors.mail import list_emails
from tests.agent.test_mail_agent import (
    ALICE,
    BOB,
    _account,
    _deliver,
    _inbox_subjects,
    servers,
)
from tests.connectors.test_contacts import PASSWORD, clean, put_card
from tests.connectors.test_contacts import server as radicale
from tests.scripting import call, script
from tests.support.qt import ask_through_dialog
from tests.support.radicale_server import RadicaleServer, free_port

__all__ = ["clean", "radicale", "servers"]  # fixtures: a Radicale address book, mail servers

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")

BOB_CARD = (
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bob-phone\r\nFN:Bob Weber\r\nN:Weber;Bob;;;\r\n"
    f"EMAIL;TYPE=home:{BOB.upper()}\r\nEND:VCARD\r\n"  # another app wrote it in capitals
)
STRANGER = "mallory@evil.example"


@pytest.fixture
def server(radicale: RadicaleServer) -> Iterator[RadicaleServer]:
    yield radicale


@pytest.fixture
def book(server: RadicaleServer) -> CalendarAccount:
    put_card(server, BOB_CARD, "bob.vcf")
    return CalendarAccount(server.url, "alice", PASSWORD, name="Home calendar")


def allow(dialog: ConfirmDialog) -> None:
    dialog.allow_button.click()


def deny(dialog: ConfirmDialog) -> None:
    dialog.deny_button.click()


def texts(labels: list) -> list[str]:
    return [label.text() for label in labels]


def test_email_bob_shows_his_name_from_the_contacts_and_the_mail_arrives(
    qtbot,
    book: CalendarAccount,
    servers,
) -> None:
    turns = [
        call("find_contact", query="Bob"),
        call("send_email", to=[BOB], subject="Dinner", body="Dinner is at 8."),
        "Sent.",
    ]
    agent = Agent(script(*turns), build_registry(calendar=book, mail=_account(servers, ALICE)))
    report, dialog = ask_through_dialog(qtbot, agent, "Email Bob that dinner is at 8", allow)

    assert texts(dialog.contact_lines) == [f"{BOB}: Bob Weber (from your contacts)"]
    # Still an address the user never typed (the gate decides that, unchanged), but the
    # dialog says whose it is instead of leaving the user to guess.
    assert texts(dialog.flags) == [
        f"⚠ You never typed this: {BOB}, the address of Bob Weber in your contacts"
    ]
    assert any("did not type the recipient" in r for r in dialog.request.reasons)
    assert dialog.request.standing_offer is None
    found, sent = report.calls
    assert "Bob Weber" in str(found.result)
    assert (sent.answer, sent.status) == ("approved", "ok"), sent.result
    assert _inbox_subjects(servers, BOB).count("Dinner") == 1


def test_an_address_in_no_address_book_is_still_flagged(
    qtbot,
    book: CalendarAccount,
    servers,
) -> None:
    turns = [
        call("send_email", to=[BOB], cc=[STRANGER], subject="Plans", body="See you."),
        "Sent.",
    ]
    agent = Agent(script(*turns), build_registry(calendar=book, mail=_account(servers, ALICE)))
    report, dialog = ask_through_dialog(qtbot, agent, f"Email {BOB} our plans", deny)

    # Bob's address was typed: his name is shown and nothing about him is flagged.
    assert texts(dialog.contact_lines) == [f"{BOB}: Bob Weber (from your contacts)"]
    assert texts(dialog.flags) == [
        f"⚠ You never typed this, and it is not in your contacts: {STRANGER}"
    ]
    assert any(STRANGER in r and "did not type" in r for r in dialog.request.reasons)
    [sent] = report.calls
    assert (sent.answer, sent.status) == ("denied", "refused")
    assert "Plans" not in _inbox_subjects(servers, BOB)


def test_an_address_book_that_is_down_never_stops_the_mail_it_only_loses_the_name(
    qtbot,
    servers,
) -> None:
    down = CalendarAccount(f"http://127.0.0.1:{free_port()}/", "alice", PASSWORD, name="Home")
    turns = [call("send_email", to=[BOB], subject="Still goes", body="Hello."), "Sent."]
    agent = Agent(script(*turns), build_registry(calendar=down, mail=_account(servers, ALICE)))
    report, dialog = ask_through_dialog(qtbot, agent, "Email Bob hello", allow)

    assert dialog.contact_lines == []
    # Nobody knows whether the address is in the contacts, so the dialog does not say.
    assert texts(dialog.flags) == [f"⚠ You never typed this: {BOB}"]
    [sent] = report.calls
    assert (sent.answer, sent.status) == ("approved", "ok"), sent.result
    assert _inbox_subjects(servers, BOB).count("Still goes") == 1


def test_a_reply_names_the_sender_it_goes_to_from_the_contacts(
    qtbot,
    book: CalendarAccount,
    servers,
) -> None:
    dovecot, _ = servers
    _deliver(dovecot, ALICE, f"Bob <{BOB}>", "Saturday", "Are you free on Saturday?")
    alice = _account(servers, ALICE)
    [email] = [m for m in list_emails(alice, "INBOX") if m.subject == "Saturday"]
    turns = [call("reply_email", email_id=email.email_id, body="Yes, I am."), "Replied."]
    agent = Agent(script(*turns), build_registry(calendar=book, mail=alice))
    report, dialog = ask_through_dialog(qtbot, agent, "Tell him yes", allow)

    # The reply's recipient is not in its arguments: Hearth reads it from the email.
    assert texts(dialog.contact_lines) == [f"Bob <{BOB}>: Bob Weber (from your contacts)"]
    assert dialog.flags == []  # replying to the sender is what a reply does
    [sent] = report.calls
    assert (sent.answer, sent.status) == ("approved", "ok"), sent.result
    assert _inbox_subjects(servers, BOB).count("Re: Saturday") == 1
