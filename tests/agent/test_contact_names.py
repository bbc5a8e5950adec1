"""Whose addresses a call's recipients are (app.agent.tools.contact_names), looked up by the agent
in the user's address books on a real Radicale, as the confirmation dialog gets them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.agent.tools.contact_names import contact_names, recipient_addresses
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest
from app.agent.turn.loop import Agent
from connectors.calendar import CalendarAccount
from tests.connectors.test_contacts import PASSWORD, SOPHIE, clean, put_card
from tests.connectors.test_contacts import server as radicale
from tests.scripting import call, script
from tests.support.radicale_server import RadicaleServer

__all__ = ["clean", "radicale"]

# A card another app (or another person, in a shared book) wrote: a right-to-left override
# and a line break in the name must not reach the dialog.
TRICKY = (
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:tricky\r\nFN:Jonas \u202eWeber\\nSecond line\r\n"
    "EMAIL:jonas@example.de\r\nEND:VCARD\r\n"
)


@pytest.fixture
def server(radicale: RadicaleServer) -> Iterator[RadicaleServer]:
    yield radicale


@pytest.fixture
def account(server: RadicaleServer) -> CalendarAccount:
    put_card(server, SOPHIE)
    put_card(server, TRICKY, "tricky.vcf")
    return CalendarAccount(server.url, "alice", PASSWORD, name="Home calendar")


def test_attendees_and_named_addresses_are_looked_up(account: CalendarAccount) -> None:
    lookup = build_registry(calendar=account).contact_lookup
    arguments = {
        "title": "Lunch",
        "attendees": ["Sophie <SOPHIE.MARTIN@example.org>", "jonas@example.de", "x@nowhere.test"],
    }
    named = recipient_addresses(arguments)
    assert contact_names(lookup, named) == (
        (
            ("Sophie <SOPHIE.MARTIN@example.org>", "Sophie Martin"),
            ("jonas@example.de", "Jonas Weber Second line"),
        ),
        True,
    )


def test_an_invitation_to_a_contact_names_her_in_the_question(account: CalendarAccount) -> None:
    shown: list[ConfirmationRequest] = []

    def deny(request: ConfirmationRequest) -> ConfirmationAnswer:
        shown.append(request)
        return ConfirmationAnswer.deny()

    turns = [
        call(
            "create_event", title="Lunch", start="2030-05-02T12:00", end="2030-05-02T13:00",
            attendees=["sophie.martin@example.org"],
        ),
        "Not sent.",
    ]  # fmt: skip
    agent = Agent(script(*turns), build_registry(calendar=account), confirmer=deny)
    conversation = Conversation()
    agent.run_turn(conversation, "Invite Sophie to lunch on 2 May 2030 at noon")
    [request] = shown
    assert request.contacts == (("sophie.martin@example.org", "Sophie Martin"),)
    assert request.contacts_checked
    assert request.untyped_values == ("sophie.martin@example.org",)  # still not typed
    # The names are for the user: the model never sees them.
    assert "Martin" not in str(conversation.for_template())


def test_no_lookup_without_an_address_book_or_when_it_fails() -> None:
    def broken(addresses: object) -> dict[str, str]:
        raise ConnectionError("down")

    assert contact_names(None, ["a@b.example"]) == ((), False)
    assert contact_names(broken, ["a@b.example"]) == ((), False)
    assert contact_names(broken, []) == ((), False)
