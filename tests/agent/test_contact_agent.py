"""The contact tools through the agent and the gate, end to end against Radicale's address
books on 127.0.0.1, with a scripted model."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest, deny_everything
from app.agent.turn.loop import Agent
from connectors.calendar import CalendarAccount
from connectors.contacts import find_contacts
from tests.connectors.test_contacts import PASSWORD, SOPHIE, clean, put_card
from tests.connectors.test_contacts import server as radicale
from tests.scripting import call, script
from tests.support.radicale_server import RadicaleServer

__all__ = ["clean", "radicale"]  # the connector tests' fixtures: a server with a book


@pytest.fixture
def server(radicale: RadicaleServer) -> Iterator[RadicaleServer]:
    yield radicale


@pytest.fixture
def account(server: RadicaleServer) -> CalendarAccount:
    return CalendarAccount(server.url, "alice", PASSWORD, name="Home calendar")


def _agent(account: CalendarAccount, turns: list[str], confirmer=deny_everything) -> Agent:
    return Agent(script(*turns), build_registry(calendar=account), confirmer=confirmer)


def test_finding_runs_and_a_change_after_it_asks(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    put_card(server, SOPHIE)
    [sophie] = find_contacts(account, "sophie")
    turns = [
        call("find_contact", query="Sophie"),
        call("update_contact", contact_id=sophie.contact_id, phones=["+1 555 0100"]),
        "I looked her up.",
    ]
    report = _agent(account, turns).run_turn(Conversation(), "What's Sophie's phone number?")
    found, changed = report.calls
    assert (found.decision, found.status) == ("allow", "ok")
    assert "+33 6 12 34 56 78" in str(found.result)
    assert (changed.decision, changed.answer, changed.status) == ("confirm", "denied", "refused")
    assert find_contacts(account, "sophie")[0].phones == ("+33 6 12 34 56 78",)


def test_an_added_contact_shows_its_card_and_is_saved(account: CalendarAccount) -> None:
    shown: list[ConfirmationRequest] = []

    def approve(request: ConfirmationRequest) -> ConfirmationAnswer:
        shown.append(request)
        return ConfirmationAnswer.approve()

    turns = [
        call("find_contact", query="Jonas"),
        call("add_contact", name="Jonas Weber", emails=["jonas@example.de"]),
        "Saved.",
    ]
    report = _agent(account, turns, approve).run_turn(
        Conversation(), "Add Jonas Weber, jonas@example.de, to my contacts"
    )
    assert [c.status for c in report.calls] == ["ok", "ok"], report.calls
    assert "Add contact: Jonas Weber" in shown[0].preview
    assert "Email: jonas@example.de" in shown[0].preview
    assert [c.emails for c in find_contacts(account, "jonas")] == [("jonas@example.de",)]


def test_a_name_where_the_contact_id_belongs_gets_the_id_back(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    put_card(server, SOPHIE)
    [sophie] = find_contacts(account, "sophie")
    turns = [call("update_contact", contact_id="Sophie Martin", name="Sophie M."), "Sorry."]
    report = _agent(account, turns).run_turn(Conversation(), "Rename the contact Sophie")
    [record] = report.calls
    assert record.status == "error" and sophie.contact_id in str(record.result)


def test_updating_a_phone_asks_once_with_before_and_after_then_changes_it(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """Issue #37, class 4 and its control: a change to a contact the user has asks even in a
    clean conversation, shows what it replaces, and one approval changes it."""
    put_card(server, SOPHIE)
    [sophie] = find_contacts(account, "sophie")
    shown: list[ConfirmationRequest] = []

    def approve(request: ConfirmationRequest) -> ConfirmationAnswer:
        shown.append(request)
        return ConfirmationAnswer.approve()

    turns = [
        call("update_contact", contact_id=sophie.contact_id, phones=["+33 6 98 76 54 32"]),
        "Changed.",
    ]
    report = _agent(account, turns, approve).run_turn(
        Conversation(), f"Sophie's ({sophie.contact_id}) new number is +33 6 98 76 54 32"
    )
    [changed] = report.calls
    assert (changed.decision, changed.status) == ("confirm", "ok"), changed.result
    [request] = shown
    assert "Change contact: Sophie Martin" in request.preview
    assert "Phone: +33 6 12 34 56 78 → +33 6 98 76 54 32" in request.preview
    assert find_contacts(account, "sophie")[0].phones == ("+33 6 98 76 54 32",)


def test_replacing_an_address_asks_and_a_denial_keeps_the_old_one(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """The red team's case: a clean conversation, a new address the user never typed."""
    put_card(server, SOPHIE)
    [sophie] = find_contacts(account, "sophie")
    turns = [
        call("update_contact", contact_id=sophie.contact_id, emails=["sophie@elsewhere.example"]),
        "Updated.",
    ]
    report = _agent(account, turns).run_turn(Conversation(), "Tidy up Sophie's contact card")
    [changed] = report.calls
    assert (changed.decision, changed.answer, changed.status) == ("confirm", "denied", "refused")
    assert find_contacts(account, "sophie")[0].emails == sophie.emails
