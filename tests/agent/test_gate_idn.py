"""The gate compares international names the way they are used (IDNA 2008).

Case-folding turned ``faß.de`` into ``fass.de``, another domain: an address the user typed
vouched for a different mailbox, and a standing grant for one host or recipient covered the
other. These tests fail on that comparison.
"""

from __future__ import annotations

from app.agent.gate.arguments import address
from app.agent.gate.policy import ContextState, Decision, StandingPermission, decide, offer_standing
from app.agent.gate.urls import host_grant_problem, host_of
from app.agent.tools.declarations import BUILTIN_TOOLS


def test_addresses_compare_by_the_domain_the_mail_goes_to() -> None:
    assert address("x@faß.de") != address("x@fass.de")
    assert address("Fa <X@FAß.DE>") == address("x@xn--fa-hia.de") == "x@xn--fa-hia.de"
    assert address("a@a\u200db.de") == "a@a\u200db.de"  # no server has it: compared as text
    # UTS #46 drops a zero-width space, but a name hiding one is still not the one typed.
    assert address("alice@exa\u200bmple.com") != address("alice@example.com")
    assert address("no address") == "no address"


def test_a_typed_address_does_not_vouch_for_its_idna2003_twin() -> None:
    context = ContextState()
    context.note_user_text("please email x@fass.de about the flat")
    arguments = {"to": ["x@faß.de"], "subject": "Flat", "body": "Hello"}
    assert decide("send_email", arguments, context, rules=BUILTIN_TOOLS).untyped_values == [
        "x@faß.de"
    ]
    same = {"to": ["x@xn--fa-hia.de"], "subject": "Flat", "body": "Hello"}
    context.note_user_text("and x@faß.de too")
    assert decide("send_email", same, context, rules=BUILTIN_TOOLS).untyped_values == []


def test_a_recipient_grant_covers_only_its_own_domain() -> None:
    context = ContextState()
    context.note_user_text("email x@faß.de and x@fass.de")
    granted = [StandingPermission("send_email", "x@fass.de")]
    to_eszett = {"to": ["x@faß.de"], "subject": "s", "body": "b"}
    assert (
        decide("send_email", to_eszett, context, standing=granted, rules=BUILTIN_TOOLS).decision
        == Decision.CONFIRM
    )
    to_same = {"to": ["X@FASS.de"], "subject": "s", "body": "b"}
    assert (
        decide("send_email", to_same, context, standing=granted, rules=BUILTIN_TOOLS).decision
        == Decision.ALLOW
    )


def test_a_host_grant_covers_only_its_own_domain() -> None:
    assert host_of("https://FAß.de./a") == "xn--fa-hia.de"
    assert host_grant_problem("https://faß.de/a", {"fass.de"}) is not None
    assert host_grant_problem("https://xn--fa-hia.de/a", {"faß.de"}) is None
    assert host_grant_problem("https://faß.de/a", {"xn--fa-hia.de"}) is None
    context = ContextState()
    context.note_user_text("read https://faß.de/a")
    offered = offer_standing(
        "read_webpage",
        {"url": "https://faß.de/a"},
        decide("read_webpage", {"url": "https://faß.de/a"}, context, rules=BUILTIN_TOOLS),
        context,
        rules=BUILTIN_TOOLS,
    )
    assert offered is not None and offered[0] == StandingPermission("read_webpage", "xn--fa-hia.de")
    granted = [offered[0]]
    other = {"url": "https://fass.de/a"}
    context.note_user_text("read https://fass.de/a")
    assert (
        decide("read_webpage", other, context, standing=granted, rules=BUILTIN_TOOLS).decision
        == Decision.CONFIRM
    )
