"""One definition of an e-mail address for the whole app (issue #18): the senders, the
calendar's attendees and the tool-argument check agree, and the gate's in-text match finds
at least every address they would send to."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.agent.gate.arguments import EMAIL_IN_TEXT
from app.llm.tools import _format_problem
from connectors.email_address import IN_TEXT, is_email_address
from connectors.mail.account import MailAccount
from connectors.mail.errors import MailError

GOOD = ["ana@example.org", "first.last+tag@mail.example.co.uk", "x@y.io"]
BAD = [
    "ana@example",
    "ana example@org.com",
    "<ana@example.org>",
    "ana@example.org.",
    "ana@@example.org",
    '"Ana" ana@example.org',
    "ana@example.org, bo@example.org",
    "",
]


@pytest.mark.parametrize("text", GOOD)
def test_addresses_to_send_to(text: str) -> None:
    assert is_email_address(text)
    assert _format_problem(text, "email") == ""


@pytest.mark.parametrize("text", BAD)
def test_not_addresses(text: str) -> None:
    assert not is_email_address(text)
    assert _format_problem(text, "email") != ""


def test_the_gate_uses_the_shared_in_text_match() -> None:
    assert EMAIL_IN_TEXT is IN_TEXT
    assert IN_TEXT.findall("write to ana@example.org and (bo@example.net).") == [
        "ana@example.org",
        "bo@example.net",
    ]


def test_the_mail_account_refuses_what_is_not_an_address() -> None:
    with pytest.raises(MailError, match="not an email address"):
        MailAccount("ana@example", "imap.example.org", 993, "smtp.example.org", 465, "ana", "pw")


@given(st.from_regex(r"[a-z0-9.+_-]{1,12}@[a-z0-9-]{1,12}\.[a-z]{2,6}", fullmatch=True))
def test_every_sendable_address_is_found_in_text(address: str) -> None:
    assert is_email_address(address)
    assert address in IN_TEXT.findall(f"please mail {address} today")
