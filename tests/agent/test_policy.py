"""The policy gate: every rule of decide(), monotonicity, SSRF, path confinement.

The model is assumed fooled throughout: every argument here could have been written by an
attacker, and the gate must still only ever move a decision up.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.agent.gate.arguments import APPROVAL_FLAG_NAMES
from app.agent.gate.paths import check_path
from app.agent.gate.policy import (
    ContextState,
    Decision,
    Label,
    Rule,
    StandingPermission,
    Verdict,
    decide,
)
from app.agent.gate.urls import check_url
from app.agent.tools.declarations import BUILTIN_TOOLS

ALLOW, CONFIRM, DENY = Decision.ALLOW, Decision.CONFIRM, Decision.DENY
CARD = "4111 1111 1111 1111"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An allowed folder, an outside folder, and links from one to the other."""
    root = tmp_path_factory.mktemp("gate")
    allowed, outside = root / "allowed", root / "outside"
    (allowed / "sub").mkdir(parents=True)
    outside.mkdir()
    (allowed / "notes.txt").write_text("mine")
    (outside / "secret.txt").write_text("not yours")
    (allowed / "file_link").symlink_to(outside / "secret.txt")
    (allowed / "dir_link").symlink_to(outside, target_is_directory=True)
    (allowed / "dangling_link").symlink_to(outside / "new.txt")
    (allowed / "inside_link").symlink_to(allowed / "notes.txt")
    os.link(outside / "secret.txt", allowed / "hard_link.txt")
    (root / "allowed_alias").symlink_to(allowed, target_is_directory=True)
    return {"root": root, "allowed": allowed, "outside": outside}


def ctx(sandbox: dict[str, Path], **fields: Any) -> ContextState:
    return ContextState(allowed_folders=[str(sandbox["allowed"])], **fields)


def tainted(sandbox: dict[str, Path], **fields: Any) -> ContextState:
    return ctx(sandbox, untrusted_sources=["an email from eve@attacker.example"], **fields)


def verdict_of(
    tool: str,
    arguments: Any,
    context: ContextState,
    standing: list[StandingPermission] | None = None,
) -> Decision:
    """Just the decision, for the many one-line checks below."""
    return decide(tool, arguments, context, standing=standing, rules=BUILTIN_TOOLS).decision


# ---------------------------------------------------------------------------------------------
# The rule table


DESIGN_TOOLS = {
    "list_events": Label.READ,
    "find_free_time": Label.READ,
    "create_event": Label.WRITE,
    "update_event": Label.WRITE,
    "delete_event": Label.DESTRUCTIVE,
    "list_emails": Label.READ,
    "search_emails": Label.READ,
    "read_email": Label.READ,
    "send_email": Label.OUTBOUND,
    "reply_email": Label.OUTBOUND,
    "search_files": Label.READ,
    "list_folder": Label.READ,
    "read_file": Label.READ,
    "write_file": Label.WRITE,
    # Beyond the DESIGN.md table (issue #23): passages of the indexed documents.
    "search_documents": Label.READ,
    "web_search": Label.OUTBOUND,
    "read_webpage": Label.OUTBOUND,
    "remember": Label.WRITE,
    "recall": Label.READ,
    "forget": Label.DESTRUCTIVE,
    "set_reminder": Label.WRITE,
    # Beyond the DESIGN.md table (issue #6): the user's own reminders, listed and cancelled.
    # Cancelling deletes one, and deleting anything always asks (issue #16).
    "list_reminders": Label.READ,
    "cancel_reminder": Label.DESTRUCTIVE,
    # Issue #24: to-do lists on the calendar account. Adding, completing and changing a task
    # change only the user's own list (asked once the context is tainted, as events are).
    "list_tasks": Label.READ,
    "add_task": Label.WRITE,
    "complete_task": Label.WRITE,
    "update_task": Label.WRITE,
    # Handing a file or an address to another program: outbound, so it asks every time.
    "open_item": Label.OUTBOUND,
    "show_folder": Label.OUTBOUND,
    # Sums over the user's bank statements: it only reads, and money never moves.
    "summarise_spending": Label.READ,
    # Contacts on the calendar account: the user's own address book.
    "find_contact": Label.READ,
    "add_contact": Label.WRITE,
    "update_contact": Label.WRITE,
}


def test_every_design_tool_has_a_rule_with_its_label() -> None:
    assert set(BUILTIN_TOOLS) == set(DESIGN_TOOLS)
    for name, label in DESIGN_TOOLS.items():
        assert BUILTIN_TOOLS[name].name == name
        assert BUILTIN_TOOLS[name].label == label


def test_untrusted_results() -> None:
    for name in ("read_email", "read_file", "web_search", "read_webpage"):
        assert BUILTIN_TOOLS[name].untrusted_result
    for name in ("find_free_time", "recall", "send_email", "write_file", "remember"):
        assert not BUILTIN_TOOLS[name].untrusted_result


def test_label_hooks_only_raise() -> None:
    create, write = BUILTIN_TOOLS["create_event"], BUILTIN_TOOLS["write_file"]
    assert create.effective_label({"attendees": ["a@b.example"]}) == Label.OUTBOUND
    assert create.effective_label({"attendees": []}) == Label.WRITE
    assert write.effective_label({"overwrite": True}) == Label.DESTRUCTIVE
    assert write.effective_label({"overwrite": "false"}) == Label.DESTRUCTIVE  # not False
    assert write.effective_label({"overwrite": False}) == Label.WRITE
    lowering = Rule("x", Label.OUTBOUND, raise_label=lambda args: Label.READ)
    assert lowering.effective_label({}) == Label.OUTBOUND


def test_decision_order() -> None:
    assert ALLOW < CONFIRM < DENY
    assert [str(label) for label in Label] == ["read", "write", "outbound", "destructive"]


# ---------------------------------------------------------------------------------------------
# decide(): a table of cases


def cases(sandbox: dict[str, Path]) -> list[tuple[str, str, dict[str, Any], bool, Decision]]:
    allowed, outside = str(sandbox["allowed"]), str(sandbox["outside"])
    event = {"title": "Lunch with Sam at 12:30", "start": "2024-05-01T12:30", "end": "13:30"}
    mail = {"to": ["sam@example.com"], "subject": "Friday", "body": "See you at noon"}
    return [
        # (case id, tool, arguments, tainted context?, expected decision)
        ("read", "list_events", {"start": "2024-05-01", "end": "2024-05-02"}, False, ALLOW),
        ("read", "find_free_time", {"start": "a", "end": "b", "duration_minutes": 9}, False, ALLOW),
        ("read", "list_emails", {"folder": "INBOX", "limit": 10}, False, ALLOW),
        ("mailbox folder is no path", "list_emails", {"folder": "../../etc"}, False, ALLOW),
        ("read", "search_emails", {"query": "lunch"}, False, ALLOW),
        ("read", "read_email", {"email_id": "42"}, False, ALLOW),
        ("read", "search_files", {"query": "notes", "folder": allowed}, False, ALLOW),
        ("read", "list_folder", {"path": allowed}, False, ALLOW),
        ("read", "read_file", {"path": f"{allowed}/notes.txt"}, False, ALLOW),
        ("read", "recall", {"query": "wifi"}, False, ALLOW),
        ("reads stay allowed when tainted", "read_email", {"email_id": "7"}, True, ALLOW),
        ("reads stay allowed when tainted", "list_events", {"start": "a", "end": "b"}, True, ALLOW),
        ("local write", "create_event", event, False, ALLOW),
        ("local write", "create_event", {**event, "attendees": []}, False, ALLOW),
        ("changes data", "update_event", {"event_id": "e1", "title": "Lunch"}, False, CONFIRM),
        ("changes data", "update_contact", {"contact_id": "b/c", "phones": ["1"]}, False, CONFIRM),
        ("changes data", "update_task", {"task_id": "l/t", "due": "2027-01-02"}, False, CONFIRM),
        ("changes data", "complete_task", {"task_id": "l/t"}, False, CONFIRM),
        ("new contact, typed", "add_contact", {"name": "Ann", "phones": ["1"]}, False, ALLOW),
        ("new task", "add_task", {"title": "Pay rent", "due": "2027-01-02"}, False, ALLOW),
        ("local write", "remember", {"fact": "Sam likes tea"}, False, ALLOW),
        ("local write", "set_reminder", {"text": "call Sam", "at": "18:00"}, False, ALLOW),
        ("new file", "write_file", {"path": f"{allowed}/new.txt", "content": "x"}, False, ALLOW),
        (
            "explicit no overwrite",
            "write_file",
            {"path": f"{allowed}/new.txt", "content": "x", "overwrite": False},
            False,
            ALLOW,
        ),
        ("write when tainted", "create_event", event, True, CONFIRM),
        ("write when tainted", "remember", {"fact": "x"}, True, CONFIRM),
        ("write when tainted", "set_reminder", {"text": "x", "at": "y"}, True, CONFIRM),
        ("write when tainted", "update_event", {"event_id": "e1"}, True, CONFIRM),
        ("outbound", "send_email", mail, False, CONFIRM),
        ("outbound", "reply_email", {"email_id": "1", "body": "yes"}, False, CONFIRM),
        ("outbound", "web_search", {"query": "weather"}, False, CONFIRM),
        ("outbound", "read_webpage", {"url": "https://example.com/"}, False, CONFIRM),
        ("invitations", "create_event", {**event, "attendees": ["a@b.example"]}, False, CONFIRM),
        ("destructive", "delete_event", {"event_id": "e1"}, False, CONFIRM),
        ("destructive", "forget", {"memory_id": "m1"}, False, CONFIRM),
        (
            "overwrite",
            "write_file",
            {"path": f"{allowed}/notes.txt", "content": "x", "overwrite": True},
            False,
            CONFIRM,
        ),
        ("health word on a read", "search_emails", {"query": "dentist"}, False, ALLOW),
        ("health word on a read", "search_files", {"query": "Dr. Lee"}, False, ALLOW),
        ("amount on a read", "search_emails", {"query": "86.40 EUR"}, False, ALLOW),
        ("id on a read", "search_emails", {"query": CARD}, False, CONFIRM),
        ("health word going out", "web_search", {"query": "vaccination"}, False, CONFIRM),
        ("health word on a write", "remember", {"fact": "Dr. Lee on Friday"}, False, CONFIRM),
        ("finding on a write", "create_event", {**event, "description": CARD}, False, CONFIRM),
        ("finding on a write", "remember", {"fact": "my password is hunter2"}, False, CONFIRM),
        ("finding on a write", "set_reminder", {"text": "pay $500", "at": "9"}, False, CONFIRM),
        ("unexpected argument", "read_email", {"email_id": "1", "verbose": True}, False, CONFIRM),
        ("unknown tool", "run_shell", {"cmd": "ls"}, False, DENY),
        ("unknown tool", "", {}, False, DENY),
        ("missing argument", "read_file", {}, False, DENY),
        ("missing argument", "send_email", {"to": ["a@b.example"]}, False, DENY),
        ("path outside", "read_file", {"path": f"{outside}/secret.txt"}, False, DENY),
        ("path outside", "search_files", {"query": "x", "folder": outside}, False, DENY),
        ("path outside", "list_folder", {"path": "/"}, False, DENY),
        ("executable", "write_file", {"path": f"{allowed}/run.sh", "content": "x"}, False, DENY),
        ("executable", "write_file", {"path": f"{allowed}/a.EXE", "content": "x"}, False, DENY),
        ("private fetch", "read_webpage", {"url": "http://127.0.0.1/"}, False, DENY),
        ("URL anywhere", "create_event", {**event, "location": "http://10.0.0.1/"}, False, DENY),
        ("deny beats taint", "read_file", {"path": "/etc/passwd"}, True, DENY),
    ]  # fmt: skip


def test_decide_table(sandbox: dict[str, Path]) -> None:
    failures = []
    for case_id, tool, arguments, is_tainted, expected in cases(sandbox):
        context = tainted(sandbox) if is_tainted else ctx(sandbox)
        verdict = decide(tool, arguments, context, rules=BUILTIN_TOOLS)
        if verdict.decision != expected:
            failures.append((case_id, tool, arguments, expected.name, verdict))
        assert verdict.reasons, (tool, arguments)
    assert not failures, "\n".join(map(str, failures))


@pytest.mark.parametrize(
    "arguments",
    [
        None,
        "path=/tmp",
        ["path", "/tmp"],
        42,
        {1: "x"},
        {"path": float("nan")},
        {"path": float("inf")},
        {"path": b"/tmp"},
        {"path": object()},
        {"path": 12},
        {"path": {"nested": {"deep": 1}}, "extra": set()},
        {"path": "/x", "n": [[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]},
        {"caf\u00e9": 1, "cafe\u0301": 2},  # two names for the same thing
    ],
)
def test_malformed_arguments_are_denied(sandbox: dict[str, Path], arguments: Any) -> None:
    verdict = decide("read_file", arguments, ctx(sandbox), rules=BUILTIN_TOOLS)
    assert verdict.decision == DENY


def test_non_string_tool_name_is_denied(sandbox: dict[str, Path]) -> None:
    assert decide(None, {}, ctx(sandbox), rules=BUILTIN_TOOLS).decision == DENY  # type: ignore[arg-type]
    assert decide(["read_file"], {}, ctx(sandbox), rules=BUILTIN_TOOLS).decision == DENY  # type: ignore[arg-type]


def test_gate_fails_closed_on_internal_errors(sandbox: dict[str, Path]) -> None:
    def broken(arguments: Any) -> Label:
        raise RuntimeError("boom")

    rules = {"x": Rule("x", Label.READ, raise_label=broken)}
    verdict = decide("x", {}, ctx(sandbox), rules=rules)
    assert verdict.decision == DENY
    assert "RuntimeError" in verdict.reasons[0]


def test_verdict_carries_findings_provenance_and_label(sandbox: dict[str, Path]) -> None:
    verdict = decide("remember", {"fact": f"card {CARD}"}, tainted(sandbox), rules=BUILTIN_TOOLS)
    assert isinstance(verdict, Verdict)
    assert verdict.decision == CONFIRM
    assert [f.kind for f in verdict.findings] == ["payment_card"]
    assert verdict.provenance == "an email from eve@attacker.example"
    assert verdict.label == Label.WRITE
    assert any("untrusted content" in r for r in verdict.reasons)
    assert all("4111 1111 1111 1111" not in r for r in verdict.reasons)


def test_reasons_never_repeat_long_numbers(sandbox: dict[str, Path]) -> None:
    """Reasons go to the audit log: a card number hidden in a path, a recipient or an
    argument name must not arrive there whole."""
    number = "4111111111111111"
    calls = [
        ("read_file", {"path": f"/srv/{number}.txt"}),
        ("read_file", {"path": f"{sandbox['allowed']}/x", number: 1}),
        ("send_email", {"to": [f"{number}@x.example"], "subject": "s", "body": "b"}),
        ("read_webpage", {"url": f"http://{number}.local/"}),
        (number, {}),
    ]
    for tool, arguments in calls:
        verdict = decide(tool, arguments, ctx(sandbox), rules=BUILTIN_TOOLS)
        text = " ".join(verdict.reasons) + " ".join(f.path + f.excerpt for f in verdict.findings)
        assert number not in re.sub(r"[\s\-•]", "", text), (tool, verdict.reasons)
        assert verdict.decision >= CONFIRM


def test_clean_context_has_no_provenance(sandbox: dict[str, Path]) -> None:
    assert decide("recall", {"query": "x"}, ctx(sandbox), rules=BUILTIN_TOOLS).provenance is None


def test_context_records_untrusted_results() -> None:
    context = ContextState()
    context.record_result(BUILTIN_TOOLS["recall"], "memory")
    assert not context.tainted
    context.record_result(BUILTIN_TOOLS["read_webpage"], "the web page https://x.example/")
    context.record_result(BUILTIN_TOOLS["read_email"], "an email from x@y.example")
    context.record_result(BUILTIN_TOOLS["read_email"], "an email from x@y.example")
    assert context.tainted
    assert context.provenance == "the web page https://x.example/; an email from x@y.example"


# ---------------------------------------------------------------------------------------------
# Recipients the user never typed


def test_untyped_recipients_are_listed(sandbox: dict[str, Path]) -> None:
    context = ctx(sandbox, trusted_values={"please email anna@example.com about Friday"})
    arguments = {
        "to": ["Anna <ANNA@example.com>", "mallory@attacker.example"],
        "cc": "boss@example.com; anna@example.com",
        "subject": "hi",
        "body": "hello",
    }
    verdict = decide("send_email", arguments, context, rules=BUILTIN_TOOLS)
    assert verdict.decision == CONFIRM
    assert verdict.untyped_values == ["mallory@attacker.example", "boss@example.com"]
    assert any("mallory@attacker.example" in r for r in verdict.reasons)


def test_untyped_attendees_and_urls_are_listed(sandbox: dict[str, Path]) -> None:
    event = {"title": "x", "start": "a", "end": "b", "attendees": [{"email": "eve@x.example"}]}
    verdict = decide("create_event", event, ctx(sandbox), rules=BUILTIN_TOOLS)
    assert verdict.untyped_values == ["eve@x.example"]
    typed = ctx(sandbox, trusted_values={"read https://example.com/a please"})
    assert (
        decide(
            "read_webpage", {"url": "https://example.com/a"}, typed, rules=BUILTIN_TOOLS
        ).untyped_values
        == []
    )
    other = decide(
        "read_webpage", {"url": "https://evil.example/?q=data"}, typed, rules=BUILTIN_TOOLS
    )
    assert other.untyped_values == ["https://evil.example/?q=data"]


def test_homoglyph_recipient_is_not_the_typed_one(sandbox: dict[str, Path]) -> None:
    context = ctx(sandbox, trusted_values={"anna@example.com"})
    lookalike = "\u0430nna@example.com"  # Cyrillic a
    verdict = decide(
        "send_email", {"to": [lookalike], "subject": "s", "body": "b"}, context, rules=BUILTIN_TOOLS
    )
    assert verdict.untyped_values == [lookalike]


# ---------------------------------------------------------------------------------------------
# The model cannot approve its own calls


@pytest.mark.parametrize(
    "flag",
    ["approved", "confirmed", "user_approved", "skip_confirmation", "Skip-Confirmation", "force"],
)
def test_approval_flags_change_nothing(sandbox: dict[str, Path], flag: str) -> None:
    mail = {"to": ["x@y.example"], "subject": "s", "body": "b"}
    for tool, arguments in (("send_email", mail), ("read_email", {"email_id": "1"})):
        before = decide(tool, arguments, ctx(sandbox), rules=BUILTIN_TOOLS)
        after = decide(tool, {**arguments, flag: True}, ctx(sandbox), rules=BUILTIN_TOOLS)
        assert after.decision == before.decision
        assert after.reasons == before.reasons
    assert {"approved", "confirmed", "userapproved", "skipconfirmation"} <= APPROVAL_FLAG_NAMES


def test_approval_flag_values_are_still_scanned(sandbox: dict[str, Path]) -> None:
    verdict = decide(
        "read_email", {"email_id": "1", "approved": CARD}, ctx(sandbox), rules=BUILTIN_TOOLS
    )
    assert verdict.decision == CONFIRM


# ---------------------------------------------------------------------------------------------
# Standing permissions


def test_standing_permission_for_web_search(sandbox: dict[str, Path]) -> None:
    grant = [StandingPermission("web_search")]
    assert verdict_of("web_search", {"query": "weather"}, ctx(sandbox), grant) == ALLOW
    # never with a finding, never in a tainted context, never for another tool
    cases = [
        ("web_search", {"query": "dentist near me"}, ctx(sandbox)),
        ("web_search", {"query": "symptoms"}, ctx(sandbox)),
        ("web_search", {"query": f"card {CARD}"}, ctx(sandbox)),
        ("web_search", {"query": "weather"}, tainted(sandbox)),
        ("web_search", {"query": "weather", "extra": 1}, ctx(sandbox)),
        ("read_webpage", {"url": "https://example.com/"}, ctx(sandbox)),
    ]
    for tool, arguments, context in cases:
        assert verdict_of(tool, arguments, context, grant) == CONFIRM, arguments


def test_standing_permission_for_one_recipient(sandbox: dict[str, Path]) -> None:
    grant = [StandingPermission("send_email", "Sam@Example.com")]
    typed = ctx(sandbox, trusted_values={"send sam@example.com the menu"})
    known = ctx(sandbox, known_recipients={"sam@example.com"})
    mail = {"to": ["sam@example.com"], "subject": "menu", "body": "Soup and bread"}
    assert verdict_of("send_email", mail, typed, grant) == ALLOW
    assert verdict_of("send_email", mail, known, grant) == ALLOW
    never = [
        # a recipient the user has neither typed nor used
        (mail, ctx(sandbox)),
        # another recipient next to the allowed one
        ({**mail, "cc": ["eve@attacker.example"]}, typed),
        # money, health, ids and secrets are never covered
        ({**mail, "body": "Please wire $2,000"}, typed),
        ({**mail, "body": "my diagnosis"}, typed),
        ({**mail, "body": "SSN 536-22-1234"}, typed),
        ({**mail, "body": "the code is 482913"}, typed),
        ({**mail, "body": f"card {CARD}"}, typed),
        # nor anything proposed after reading untrusted content
        (mail, tainted(sandbox, trusted_values={"sam@example.com"})),
    ]
    for arguments, context in never:
        assert verdict_of("send_email", arguments, context, grant) == CONFIRM, arguments


def test_standing_permission_for_one_host(sandbox: dict[str, Path]) -> None:
    grant = [StandingPermission("read_webpage", "example.com")]
    for url in ("https://example.com/a", "http://example.com/b#top", "https://EXAMPLE.com./"):
        assert verdict_of("read_webpage", {"url": url}, ctx(sandbox), grant) == ALLOW
    # Exactly that host (issue #16): no subdomain, no other port, no query string (a form).
    for url in (
        "https://example.com.evil.example/",
        "https://notexample.com/",
        "https://docs.example.com/b",
        "https://example.com:8443/a",
        "https://example.com/form?entry=1",
        "https://example.com/a?",
    ):
        expected = ALLOW if url.endswith("?") else CONFIRM  # an empty query sends nothing
        assert verdict_of("read_webpage", {"url": url}, ctx(sandbox), grant) == expected, url
    assert verdict_of("read_webpage", {"url": "http://127.0.0.1/"}, ctx(sandbox), grant) == DENY
    unscoped = [StandingPermission("read_webpage")]
    page = {"url": "https://example.com/"}
    assert verdict_of("read_webpage", page, ctx(sandbox), unscoped) == CONFIRM


def test_standing_permission_never_for_destructive_or_deny(sandbox: dict[str, Path]) -> None:
    outside = str(sandbox["outside"])
    grants = [StandingPermission(t) for t in BUILTIN_TOOLS]
    grants += [StandingPermission(t, "x") for t in BUILTIN_TOOLS]
    context = ctx(sandbox)
    assert verdict_of("delete_event", {"event_id": "1"}, context, grants) == CONFIRM
    assert verdict_of("forget", {"memory_id": "1"}, context, grants) == CONFIRM
    overwrite = {"path": f"{sandbox['allowed']}/notes.txt", "content": "x", "overwrite": True}
    assert verdict_of("write_file", overwrite, context, grants) == CONFIRM
    assert verdict_of("read_file", {"path": outside}, context, grants) == DENY
    # a reply's recipient is not in its arguments, so no grant can vouch for it
    assert verdict_of("reply_email", {"email_id": "1", "body": "ok"}, context, grants) == CONFIRM


def test_standing_fence_holds_for_custom_rules(sandbox: dict[str, Path]) -> None:
    """The fence is not just the default table's choices: a destructive tool whose rule
    would accept a tool-wide grant still asks."""
    rules = {
        "wipe": Rule("wipe", Label.DESTRUCTIVE, parameters=frozenset(), standing="tool"),
        "ping": Rule("ping", Label.OUTBOUND, parameters=frozenset(), standing="tool"),
    }
    grants = [StandingPermission("wipe"), StandingPermission("ping")]
    assert decide("wipe", {}, ctx(sandbox), rules=rules, standing=grants).decision == CONFIRM
    assert decide("ping", {}, ctx(sandbox), rules=rules, standing=grants).decision == ALLOW
    assert decide("ping", {}, tainted(sandbox), rules=rules, standing=grants).decision == CONFIRM


# ---------------------------------------------------------------------------------------------
# SSRF


DENIED_URLS = [
    "http://127.0.0.1/",
    "http://127.0.0.1:8080/admin",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/",
    "http://100.100.100.200/",
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    "http://172.16.0.1/",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://0/",
    "http://[::]/",
    "http://[fe80::1%25eth0]/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://017700000001/",
    "http://127.1/",
    "http://127.0.0.1./",
    "http://%31%32%37.0.0.1/",
    "http://１２７.０.０.１/",
    "http://localhost/",
    "http://localhost./",
    "http://LOCALHOST/",
    "http://app.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/",
    "http://router/",
    "http://1.2.3.4.5/",
    "http://08/",
    "http://user:pw@example.com/",
    "http://evil.example@127.0.0.1/",
    "http://example.com\\@127.0.0.1/",
    "http://127.0.0.1:99999/",
    "http://127.0.\n0.1/",
    "https://",
    "file:///etc/passwd",
    "FILE:///etc/passwd",
    "data:text/html,<script>alert(1)</script>",
    "ftp://example.com/",
    "gopher://127.0.0.1:6379/",
    "javascript:alert(1)",
    "//example.com/",
    "example.com",
    "http:example.com",
]


@pytest.mark.parametrize("url", DENIED_URLS)
def test_ssrf_urls_are_denied(sandbox: dict[str, Path], url: str) -> None:
    assert check_url(url) is not None
    assert decide("read_webpage", {"url": url}, ctx(sandbox), rules=BUILTIN_TOOLS).decision == DENY


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/page",
        "http://example.com",
        "https://docs.python.org/3/library/ipaddress.html?x=1#y",
        "https://93.184.216.34/",
        "https://[2606:4700:4700::1111]/",
        "https://müller.example/",
        "https://1e100.net/",
        "https://example.com:8443/",
    ],
)
def test_public_urls_are_not_denied(sandbox: dict[str, Path], url: str) -> None:
    assert check_url(url) is None
    assert (
        decide("read_webpage", {"url": url}, ctx(sandbox), rules=BUILTIN_TOOLS).decision == CONFIRM
    )


def test_private_urls_in_other_arguments_are_denied(sandbox: dict[str, Path]) -> None:
    event = {"title": "x", "start": "a", "end": "b", "description": "http://169.254.169.254/"}
    assert decide("create_event", event, ctx(sandbox), rules=BUILTIN_TOOLS).decision == DENY
    nested = {"query": "x", "links": ["https://example.com/", "http://10.1.2.3/"]}
    assert decide("web_search", nested, ctx(sandbox), rules=BUILTIN_TOOLS).decision == DENY
    # prose that merely mentions localhost is not a fetch
    prose = {"query": "why does http://localhost:8080 not load"}
    assert decide("web_search", prose, ctx(sandbox), rules=BUILTIN_TOOLS).decision == CONFIRM


def test_non_text_url_is_denied(sandbox: dict[str, Path]) -> None:
    assert (
        decide(
            "read_webpage", {"url": ["https://example.com/"]}, ctx(sandbox), rules=BUILTIN_TOOLS
        ).decision
        == DENY
    )
    assert decide("read_webpage", {"url": 7}, ctx(sandbox), rules=BUILTIN_TOOLS).decision == DENY


# ---------------------------------------------------------------------------------------------
# Path confinement


def test_paths_inside_are_allowed(sandbox: dict[str, Path]) -> None:
    allowed = sandbox["allowed"]
    folders = [str(allowed)]
    for path in (allowed, allowed / "notes.txt", allowed / "sub", allowed / "sub" / "new.txt"):
        assert check_path(str(path), folders) is None, path
    assert check_path(str(allowed / "inside_link"), folders) is None
    assert check_path(str(allowed) + "//sub/./x.txt", folders) is None
    # an allowed folder configured through a symlink covers the real folder's paths ...
    alias = sandbox["root"] / "allowed_alias"
    assert check_path(str(allowed / "notes.txt"), [str(alias)]) is None
    assert check_path(str(alias / "notes.txt"), [str(alias)]) is None
    # ... but a path that only gets in through an outside link is not inside as written
    assert check_path(str(alias / "notes.txt"), folders) is not None


@pytest.mark.parametrize(
    "relative",
    [
        "../outside/secret.txt",
        "sub/../../outside/secret.txt",
        "file_link",
        "dir_link/secret.txt",
        "dir_link",
        "dangling_link",
        "hard_link.txt",
    ],
)
def test_paths_escaping_the_folder_are_denied(sandbox: dict[str, Path], relative: str) -> None:
    path = f"{sandbox['allowed']}/{relative}"
    folders = [str(sandbox["allowed"])]
    assert check_path(path, folders) is not None
    verdict = decide("read_file", {"path": path}, ctx(sandbox), rules=BUILTIN_TOOLS)
    assert verdict.decision == DENY
    write = decide("write_file", {"path": path, "content": "x"}, ctx(sandbox), rules=BUILTIN_TOOLS)
    assert write.decision == DENY


@pytest.mark.parametrize(
    "path",
    [
        "/etc/passwd",
        "/",
        "",
        "../notes.txt",
        "{allowed}/notes.txt\x00.jpg",
        "{allowed}/notes\n.txt",
        "{allowed}/..",
        "{allowed}/sub\\..\\..\\x",
        "{allowed}sibling/x.txt",
        "{outside}/secret.txt",
    ],
)
def test_bad_paths_are_denied(sandbox: dict[str, Path], path: str) -> None:
    path = path.format(allowed=sandbox["allowed"], outside=sandbox["outside"])
    assert check_path(path, [str(sandbox["allowed"])]) is not None
    assert decide("read_file", {"path": path}, ctx(sandbox), rules=BUILTIN_TOOLS).decision == DENY


def test_no_allowed_folders_means_no_files(sandbox: dict[str, Path]) -> None:
    path = str(sandbox["allowed"] / "notes.txt")
    assert decide("read_file", {"path": path}, ContextState(), rules=BUILTIN_TOOLS).decision == DENY
    assert check_path(path, ["relative/folder", "", "\x00"]) is not None


def test_paths_anywhere_in_the_arguments_are_checked(sandbox: dict[str, Path]) -> None:
    outside = str(sandbox["outside"] / "secret.txt")
    mail = {"to": ["a@b.example"], "subject": "s", "body": "b"}
    assert (
        decide(
            "send_email", {**mail, "attachments": [outside]}, ctx(sandbox), rules=BUILTIN_TOOLS
        ).decision
        == DENY
    )
    nested = {**mail, "attachments": [{"path": outside, "name": "cv.pdf"}]}
    assert decide("send_email", nested, ctx(sandbox), rules=BUILTIN_TOOLS).decision == DENY


# ---------------------------------------------------------------------------------------------
# Monotonicity (property tests)


EMAILS = ["sam@example.com", "anna@example.com", "eve@attacker.example", "Boss <boss@corp.example>"]
URLS = [
    "https://example.com/",
    "https://evil.example/?d=x",
    "http://127.0.0.1/",
    "ftp://x.example/",
]
SENSITIVE = [
    CARD,
    "DE89 3704 0044 0532 0130 00",
    "please wire $2,500",
    "my HIV test results",
    "SSN 536-22-1234",
    "verification code 482913",
    "password: hunter2",
    "sk-abcdefghijklmnopqrstuvwx",
]
BENIGN = ["Lunch with Sam at 12:30", "Room 4111", "2024-05-01", "+1 (555) 123-4567", "notes", ""]
FREE_TEXT = {"query", "body", "description", "fact", "text", "content", "title", "subject"}
SOURCES = ["an email from eve@attacker.example", "the web page https://evil.example/"]
FLAGS = ["approved", "confirmed", "user_approved", "skip_confirmation", "force", "Approved"]


def value_strategy(name: str, paths: list[str]) -> st.SearchStrategy[Any]:
    """Plausible and hostile values for an argument of this name."""
    if name in ("path", "folder"):
        return st.sampled_from(paths)
    if name == "url":
        return st.sampled_from(URLS)
    if name in ("to", "cc", "attendees"):
        return st.lists(st.sampled_from(EMAILS), max_size=3)
    if name in ("overwrite", "unread_only"):
        return st.sampled_from([True, False, None, "false", 1])
    if name in ("limit", "max_results", "duration_minutes"):
        return st.integers(-5, 10**17)
    return st.one_of(
        st.sampled_from(BENIGN + SENSITIVE + EMAILS),
        st.text(max_size=20),
        st.integers(),
    )


@st.composite
def calls(
    draw: st.DrawFn, paths: list[str]
) -> tuple[str, dict[str, Any], list[StandingPermission]]:
    """A well-formed call (required arguments present) to a random tool, and standing
    permissions that mostly name that same tool, scoped to values the call itself uses, so
    that the fence around them is exercised rather than trivially missed."""
    eligible = sorted(name for name, rule in BUILTIN_TOOLS.items() if rule.standing != "never")
    tool = draw(st.sampled_from(sorted(BUILTIN_TOOLS) + eligible * 3))
    rule = BUILTIN_TOOLS[tool]
    assert rule.parameters is not None
    arguments: dict[str, Any] = {}
    for name in sorted(rule.parameters):
        if name in rule.required or draw(st.booleans()):
            value = draw(value_strategy(name, paths))
            if name in rule.required and value is None:
                value = "x"
            arguments[name] = value
    own_scopes: list[str | None] = [None]
    for name in ("to", "cc", "attendees"):
        own_scopes += arguments.get(name) or []
    if isinstance(arguments.get("url"), str):
        own_scopes.append(urlsplit(arguments["url"]).hostname)
    matching = st.builds(StandingPermission, tool=st.just(tool), scope=st.sampled_from(own_scopes))
    other = st.builds(
        StandingPermission,
        tool=st.sampled_from(sorted(BUILTIN_TOOLS)),
        scope=st.sampled_from([None, "example.com", "evil.example", *EMAILS]),
    )
    grants = draw(st.lists(other, max_size=2))
    if draw(st.integers(0, 3)):  # usually: one grant that fits this very call
        grants.insert(draw(st.integers(0, len(grants))), draw(matching))
    return tool, arguments, grants


contexts = st.builds(
    lambda sources, typed, known: (sources, typed, known),
    st.lists(st.sampled_from(SOURCES), max_size=2, unique=True),
    st.sets(st.sampled_from(EMAILS + URLS)),
    st.sets(st.sampled_from(EMAILS)),
)
extra_names = st.one_of(
    st.sampled_from(
        [
            "attendees", "cc", "bcc", "to", "overwrite", "path", "folder", "url", "links",
            "description", "verbose", "note", "attachments",
        ]
    ),
    st.text(min_size=1, max_size=12),
)  # fmt: skip
PROPERTY_SETTINGS = settings(
    max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def make_context(
    sandbox: dict[str, Path], parts: tuple[list[str], set[str], set[str]]
) -> ContextState:
    sources, typed, known = parts
    return ctx(
        sandbox,
        untrusted_sources=list(sources),
        trusted_values=set(typed),
        known_recipients=set(known),
    )


def sandbox_paths(sandbox: dict[str, Path]) -> list[str]:
    allowed, outside = sandbox["allowed"], sandbox["outside"]
    return [
        str(allowed), str(allowed / "notes.txt"), str(allowed / "new.txt"),
        str(allowed / "file_link"), str(outside / "secret.txt"), f"{allowed}/../x", "rel.txt",
    ]  # fmt: skip


@pytest.fixture(scope="module")
def paths(sandbox: dict[str, Path]) -> list[str]:
    return sandbox_paths(sandbox)


@pytest.mark.property_based
def test_monotone_adding_an_argument(sandbox: dict[str, Path], paths: list[str]) -> None:
    @PROPERTY_SETTINGS
    @given(
        call=calls(paths),
        parts=contexts,
        name=extra_names,
        value=st.one_of(value_strategy("any", paths), st.sampled_from(URLS + paths)),
    )
    def check(call, parts, name, value) -> None:
        tool, arguments, standing = call
        if name in arguments:
            return
        context = make_context(sandbox, parts)
        before = decide(tool, arguments, context, standing=standing, rules=BUILTIN_TOOLS)
        after = decide(
            tool, {**arguments, name: value}, context, standing=standing, rules=BUILTIN_TOOLS
        )
        assert after.decision >= before.decision, (tool, arguments, name, value, before, after)

    check()


@pytest.mark.property_based
def test_monotone_adding_taint(sandbox: dict[str, Path], paths: list[str]) -> None:
    @PROPERTY_SETTINGS
    @given(call=calls(paths), parts=contexts, source=st.sampled_from(SOURCES))
    def check(call, parts, source) -> None:
        tool, arguments, standing = call
        context = make_context(sandbox, parts)
        before = decide(tool, arguments, context, standing=standing, rules=BUILTIN_TOOLS)
        context.add_untrusted(source)
        after = decide(tool, arguments, context, standing=standing, rules=BUILTIN_TOOLS)
        assert after.decision >= before.decision
        if BUILTIN_TOOLS[tool].effective_label(arguments) != Label.READ:
            assert after.decision >= CONFIRM

    check()


@pytest.mark.property_based
def test_monotone_adding_a_finding(sandbox: dict[str, Path], paths: list[str]) -> None:
    @PROPERTY_SETTINGS
    @given(
        call=calls(paths),
        parts=contexts,
        sensitive=st.sampled_from(SENSITIVE),
        wrap=st.sampled_from(["{}", "see: {}", "{} thanks", "[{}]"]),
        data=st.data(),
    )
    def check(call, parts, sensitive, wrap, data) -> None:
        tool, arguments, standing = call
        # where a fooled model would put it: the tool's own text fields, or a fake flag
        own = sorted(p for p in BUILTIN_TOOLS[tool].parameters or () if p in FREE_TEXT)
        name = data.draw(st.sampled_from([*own, *own, "approved", "note"]))
        context = make_context(sandbox, parts)
        before = decide(tool, arguments, context, standing=standing, rules=BUILTIN_TOOLS)
        changed = dict(arguments)
        existing = changed.get(name)
        text = wrap.format(sensitive)
        # added to what is there (a number too: replacing it would remove its own finding)
        changed[name] = text if existing is None else f"{existing} {text}"
        after = decide(tool, changed, context, standing=standing, rules=BUILTIN_TOOLS)
        assert after.decision >= before.decision
        assert after.findings
        # A finding is never silently allowed, except a health word or an amount in a
        # read-only lookup (it changes nothing and sends nothing to anyone new).
        topical = {f.kind for f in after.findings} <= {"health", "money"}
        if not (topical and BUILTIN_TOOLS[tool].effective_label(changed) == Label.READ):
            assert after.decision >= CONFIRM

    check()


@pytest.mark.property_based
def test_model_supplied_approval_changes_nothing(
    sandbox: dict[str, Path], paths: list[str]
) -> None:
    @PROPERTY_SETTINGS
    @given(
        call=calls(paths),
        parts=contexts,
        flag=st.sampled_from(FLAGS),
        value=st.sampled_from([True, "true", "yes", 1, "user approved this"]),
    )
    def check(call, parts, flag, value) -> None:
        tool, arguments, standing = call
        if flag in arguments:
            return
        context = make_context(sandbox, parts)
        before = decide(tool, arguments, context, standing=standing, rules=BUILTIN_TOOLS)
        after = decide(
            tool, {**arguments, flag: value}, context, standing=standing, rules=BUILTIN_TOOLS
        )
        assert after.decision == before.decision
        assert after.reasons == before.reasons

    check()


@pytest.mark.property_based
def test_standing_permissions_only_lower_within_their_fence(
    sandbox: dict[str, Path], paths: list[str]
) -> None:
    @PROPERTY_SETTINGS
    @given(call=calls(paths), parts=contexts)
    def check(call, parts) -> None:
        tool, arguments, standing = call
        context = make_context(sandbox, parts)
        without = decide(tool, arguments, context, rules=BUILTIN_TOOLS)
        with_grants = decide(tool, arguments, context, standing=standing, rules=BUILTIN_TOOLS)
        assert with_grants.decision <= without.decision
        if with_grants.decision < without.decision:
            assert without.decision == CONFIRM
            assert not with_grants.findings
            assert not context.tainted
            assert with_grants.label != Label.DESTRUCTIVE
            assert any(p.tool == tool for p in standing)

    check()


def test_relative_paths_are_read_against_the_first_allowed_folder(
    sandbox: dict[str, Path],
) -> None:
    """The files connector opens a relative path inside the first allowed folder; the gate
    checks that same path."""
    assert check_path("notes.txt", [str(sandbox["allowed"])]) is None
    assert check_path("./sub/new.txt", [str(sandbox["allowed"])]) is None
    assert check_path("notes.txt", []) is not None
    assert check_path("sub/../../x", [str(sandbox["allowed"])]) is not None


# -- issue #16: labels only ever raise -----------------------------------------------------------


def _argument_text(arguments: dict[str, Any]) -> str:
    return " ".join(str(v) for v in arguments.values() if isinstance(v, (str, int)))


@pytest.mark.property_based
def test_monotone_adding_any_label(sandbox: dict[str, Path], paths: list[str]) -> None:
    """Whatever label joins the conversation (an untrusted source, a private read whose text
    may share tokens with the very arguments, a pasted message), no decision goes down."""

    @PROPERTY_SETTINGS
    @given(
        call=calls(paths),
        parts=contexts,
        kind=st.sampled_from(["memories", "reminders", "mail", "calendar", "files"]),
        how=st.sampled_from(["untrusted", "private", "private-own-words", "pasted"]),
        noise=st.text(max_size=40),
    )
    def check(call, parts, kind, how, noise) -> None:
        tool, arguments, standing = call
        context = make_context(sandbox, parts)
        before = decide(tool, arguments, context, standing=standing, rules=BUILTIN_TOOLS)
        if how == "untrusted":
            context.add_untrusted(f"the result of {kind}")
        elif how == "private":
            context.add_private(kind, noise)
        elif how == "private-own-words":  # the private store said what the call now says
            context.add_private(kind, f"{noise} {_argument_text(arguments)} password: {noise}")
        else:
            context.note_user_text(f"FYI\n> From: x@y.example\n> {noise}\n")
        after = decide(tool, arguments, context, standing=standing, rules=BUILTIN_TOOLS)
        assert after.decision >= before.decision, (tool, arguments, how, before, after)
        if how != "untrusted" and how != "pasted":
            return
        if BUILTIN_TOOLS[tool].effective_label(arguments) != Label.READ:
            assert after.decision >= CONFIRM

    check()


def test_no_grant_covers_an_outbound_call_after_a_private_read(sandbox: dict[str, Path]) -> None:
    grants = [
        StandingPermission("web_search"),
        StandingPermission("read_webpage", "example.com"),
        StandingPermission("send_email", "sam@example.com"),
    ]
    calls_ = [
        ("web_search", {"query": "weather in Lyon"}),
        ("read_webpage", {"url": "https://example.com/a"}),
        ("send_email", {"to": ["sam@example.com"], "subject": "Hi", "body": "Lunch?"}),
    ]
    for kind in ("memories", "reminders", "mail", "calendar", "files"):
        for tool, arguments in calls_:
            context = ctx(sandbox, trusted_values={"sam@example.com https://example.com/a"})
            assert verdict_of(tool, arguments, context, grants) == ALLOW, tool
            context.add_private(kind, "nothing in common")
            verdict = decide(tool, arguments, context, standing=grants, rules=BUILTIN_TOOLS)
            assert verdict.decision == CONFIRM, (kind, tool)
            assert any("this conversation has read your" in r for r in verdict.reasons)


@pytest.mark.parametrize(
    "spelled",
    [
        "DE89 3704 0044 0532 0130 00",
        "de89370400440532013000",
        "DE89.3704.0044.0532.0130.00",
        "DE89_3704_0044_0532/0130:00",
        "REVY 3704 0044 0532 0130 00".replace("REVY", "QR89"),  # ROT13 of the letters
        "44453839333730343030343430353332303133303030",  # hex of DE8937...
        "REU4OTM3MDQwMDQ0MDUzMjAxMzAwMA==",  # base64
        "DE89%203704%200044%200532%200130%2000",
        "my account 0532 0130 00 please",  # a part of it
    ],
)
def test_an_outbound_argument_carrying_private_data_is_a_finding(
    sandbox: dict[str, Path], spelled: str
) -> None:
    context = ctx(sandbox)
    context.add_private("mail", "Your new account: IBAN DE89 3704 0044 0532 0130 00, thanks")
    verdict = decide("web_search", {"query": f"bank {spelled}"}, context, rules=BUILTIN_TOOLS)
    assert verdict.decision == CONFIRM
    private = [f for f in verdict.findings if f.kind == "private_data"]
    assert private and private[0].path == "query"
    assert "0532" not in private[0].excerpt and "your mail" in private[0].excerpt


def test_a_bare_password_read_from_memory_is_found_when_it_leaves(
    sandbox: dict[str, Path],
) -> None:
    context = ctx(sandbox)
    context.add_private("memories", "wifi password: sunflower-kite")
    for query in ("SUNFLOWER KITE", "sunflower.kite review", "fhasybjre-xvgr"):
        verdict = decide("web_search", {"query": query}, context, rules=BUILTIN_TOOLS)
        assert any(f.kind == "private_data" for f in verdict.findings), query
    ordinary = decide("web_search", {"query": "sunflower seeds"}, context, rules=BUILTIN_TOOLS)
    assert not any(f.kind == "private_data" for f in ordinary.findings)


@pytest.mark.parametrize(
    ("existing", "new", "asks"),
    [
        ("invoice.txt", "invоice.txt", True),  # Cyrillic o
        ("invoice.txt", "Invoice.TXT", True),
        ("invoice.txt", "invoice\u200b.txt", True),  # zero-width space
        ("invoice.txt", "invoice2.txt", False),
        ("modern.txt", "modem.txt", True),  # "rn" reads as "m"
        ("report.txt", "reports.txt", False),
        ("Documents", "Dоcuments/a.txt", True),  # a look-alike new folder on the way
        ("Documents", "Documents2/a.txt", False),
    ],
)
def test_a_new_name_like_an_existing_one_asks(
    tmp_path: Path, existing: str, new: str, asks: bool
) -> None:
    target = tmp_path / existing
    if "." in existing:
        target.write_text("x")
    else:
        target.mkdir()
    context = ContextState(allowed_folders=[str(tmp_path)])
    verdict = decide(
        "write_file", {"path": str(tmp_path / new), "content": "x"}, context, rules=BUILTIN_TOOLS
    )
    assert verdict.decision == (CONFIRM if asks else ALLOW), verdict.reasons
    if asks:
        assert any(f"looks like the existing '{existing}'" in r for r in verdict.reasons)
