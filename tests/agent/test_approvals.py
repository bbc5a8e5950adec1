"""Approval binding: what runs after a confirmation is exactly what the user saw."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.agent.gate.approvals import ApprovalBook, argument_hash, canonical_arguments


def test_canonical_arguments_are_stable() -> None:
    a = {"b": [1, 2, {"y": "é", "x": None}], "a": True}
    b = {"a": True, "b": (1, 2, {"x": None, "y": "e\u0301"})}
    assert canonical_arguments(a) == canonical_arguments(b)
    assert canonical_arguments(a) == '{"a":true,"b":[1,2,{"x":null,"y":"é"}]}'
    assert canonical_arguments({"a": 1}) != canonical_arguments({"a": 1.0})
    assert canonical_arguments({"a": 1}) != canonical_arguments({"a": True})
    assert canonical_arguments({"a": "x"}) != canonical_arguments({"a": "x "})


@pytest.mark.parametrize(
    "arguments",
    [{"a": float("nan")}, {"a": float("inf")}, {1: "x"}, {"a": b"x"}, {"é": 1, "e\u0301": 2}],
)
def test_canonical_arguments_refuse_what_is_not_json(arguments: dict[Any, Any]) -> None:
    with pytest.raises((TypeError, ValueError)):
        canonical_arguments(arguments)


def test_argument_hash() -> None:
    mail = {"to": ["a@b.example"], "subject": "s", "body": "b"}
    digest = argument_hash("send_email", mail)
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    assert digest == argument_hash("send_email", dict(reversed(list(mail.items()))))
    assert digest != argument_hash("reply_email", mail)
    assert digest != argument_hash("send_email", {**mail, "to": ["a@b.example", "e@x.example"]})
    with pytest.raises(ValueError):
        argument_hash("send\x00email", mail)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def book() -> Iterator[tuple[ApprovalBook, FakeClock]]:
    clock = FakeClock()
    yield ApprovalBook(ttl_seconds=60, clock=clock), clock


MAIL = {"to": ["sam@example.com"], "subject": "Friday", "body": "See you at noon"}


def test_approval_redeems_once_for_the_same_arguments(
    book: tuple[ApprovalBook, FakeClock],
) -> None:
    approvals, _ = book
    token = approvals.issue("send_email", MAIL)
    assert len(approvals) == 1
    assert approvals.redeem(token, "send_email", dict(reversed(list(MAIL.items()))))
    assert not approvals.redeem(token, "send_email", MAIL)  # single use
    assert len(approvals) == 0


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("send_email", {**MAIL, "to": ["eve@attacker.example"]}),
        ("send_email", {**MAIL, "cc": ["eve@attacker.example"]}),
        ("send_email", {**MAIL, "body": "See you at noon "}),
        ("send_email", {**MAIL, "approved": True}),
        ("reply_email", MAIL),
        ("send_email", {"a": float("nan")}),
    ],
)
def test_changed_arguments_are_refused(
    book: tuple[ApprovalBook, FakeClock], tool: str, arguments: dict[str, Any]
) -> None:
    approvals, _ = book
    token = approvals.issue("send_email", MAIL)
    assert not approvals.redeem(token, tool, arguments)
    assert not approvals.redeem(token, "send_email", MAIL)  # a failed attempt spends it


def test_arguments_mutated_after_approval_are_refused(
    book: tuple[ApprovalBook, FakeClock],
) -> None:
    approvals, _ = book
    arguments: dict[str, Any] = {"to": ["sam@example.com"], "subject": "s", "body": "b"}
    token = approvals.issue("send_email", arguments)
    arguments["to"].append("eve@attacker.example")
    assert not approvals.redeem(token, "send_email", arguments)


def test_expired_approval_is_refused(book: tuple[ApprovalBook, FakeClock]) -> None:
    approvals, clock = book
    early = approvals.issue("send_email", MAIL)
    late = approvals.issue("send_email", MAIL)
    clock.now += 59.9
    assert approvals.redeem(early, "send_email", MAIL)
    clock.now += 0.1
    assert not approvals.redeem(late, "send_email", MAIL)


def test_unknown_and_revoked_tokens_are_refused(book: tuple[ApprovalBook, FakeClock]) -> None:
    approvals, clock = book
    assert not approvals.redeem("made-up", "send_email", MAIL)
    assert not approvals.redeem(None, "send_email", MAIL)  # type: ignore[arg-type]
    token = approvals.issue("send_email", MAIL)
    approvals.revoke(token)
    assert not approvals.redeem(token, "send_email", MAIL)
    first, second = approvals.issue("send_email", MAIL), approvals.issue("send_email", MAIL)
    assert first != second
    clock.now += 3600
    approvals.issue("send_email", MAIL)  # expired tokens are purged on issue
    assert len(approvals) == 1
