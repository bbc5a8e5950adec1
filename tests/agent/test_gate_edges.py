"""The gate's corner cases that no everyday scenario reaches.

Each test names the rule it holds; together with test_policy.py, test_approvals.py and
test_declarations.py they keep every branch of the gate's modules exercised
(test_gate_coverage.py checks that). A branch nobody can name a test for is a branch to
delete, not to leave untested in a security boundary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.agent.gate import paths
from app.agent.gate.arguments import (
    MAX_DEPTH,
    items,
    leaf_strings,
    quoted,
    recipients,
    shape_problem,
    strings,
)
from app.agent.gate.labels import Labels
from app.agent.gate.paths import check_path, confusable_neighbour
from app.agent.gate.policy import (
    PASTED_SOURCE,
    ContextState,
    Decision,
    Label,
    Rule,
    StandingPermission,
    decide,
    offer_standing,
)
from app.agent.gate.urls import check_url, host_grant_problem, host_of
from app.agent.tools.declarations import BUILTIN_TOOLS

ALLOW, CONFIRM, DENY = Decision.ALLOW, Decision.CONFIRM, Decision.DENY


def _nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = {"a": [value]}
    return value


# -- arguments ---------------------------------------------------------------------------------


def test_reason_texts_are_short() -> None:
    assert quoted("x" * 200) == repr("x" * 79 + "…")


def test_recipients_in_objects_and_text() -> None:
    assert list(recipients({"name": "Sam", "address": "sam@example.com"})) == ["sam@example.com"]
    assert list(recipients({"name": "Sam", "note": "a@b.example; c@d.example", "n": 1})) == [
        "Sam",
        "a@b.example",
        "c@d.example",
    ]
    assert list(recipients(7)) == []
    assert list(recipients("a@b.example,, ;c@d.example")) == ["a@b.example", "c@d.example"]


def test_walks_stop_at_the_depth_limit() -> None:
    """The shape check refuses deeper arguments first; the walks still never recurse past it."""
    deep = _nested(MAX_DEPTH * 2)
    assert "deep" not in list(strings(deep))
    assert len(list(items(deep))) <= MAX_DEPTH
    assert all(text != "deep" for _, text in leaf_strings(deep))
    assert "deep" in list(strings(_nested(5)))


def test_leaf_strings_name_odd_keys_and_skip_non_text() -> None:
    assert list(leaf_strings({1: "x"})) == [("<name 0>", "x")]
    assert list(leaf_strings(None)) == [] and list(leaf_strings(1.5)) == []


def test_leaf_strings_include_whole_numbers_not_flags() -> None:
    """A card or account number may come as a number; True is no number."""
    leaves = list(leaf_strings({"n": 4111, "b": True}))
    assert ("n", "4111") in leaves and not any(text == "True" for _, text in leaves)


def test_the_shape_check_skips_empty_values_and_wants_addresses() -> None:
    assert shape_problem({"to": None, "body": "x"}, ["body"], []) is None
    assert shape_problem({"to": 5}, [], []) == (
        "the argument 'to' must be an address or a list of addresses"
    )


# -- paths -------------------------------------------------------------------------------------


def test_a_path_must_be_text(tmp_path: Path) -> None:
    assert check_path(7, [str(tmp_path)]) == "a path must be text"


def test_look_alikes_need_a_folder_to_look_in(tmp_path: Path) -> None:
    assert confusable_neighbour("invоice.pdf", []) is None
    assert confusable_neighbour("invоice.pdf", ["relative/folder"]) is None


def test_a_relative_path_is_looked_for_in_the_first_folder(tmp_path: Path) -> None:
    (tmp_path / "invoice.pdf").write_text("x")
    reason = confusable_neighbour("invоice.pdf", ["relative/folder", str(tmp_path)])
    assert reason is not None and "'invoice.pdf'" in reason
    assert confusable_neighbour("~invoice.pdf", [str(tmp_path)]) is None  # the name itself


def test_look_alikes_are_found_under_new_folders_too(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    reason = confusable_neighbour(str(tmp_path / "Dоcuments" / "a.txt"), [str(tmp_path)])
    assert reason is not None and "'Documents'" in reason


def test_look_alike_search_gives_up_quietly(tmp_path: Path, monkeypatch: Any) -> None:
    """A path too deep to walk, or a folder that cannot be listed, is no finding (the path
    checks and the connector still decide); nor is a folder past the listing limit."""
    deep = tmp_path.joinpath(*["d"] * (MAX_DEPTH * 4 + 5), "x.txt")
    assert confusable_neighbour(str(deep), [str(tmp_path)]) is None
    (tmp_path / "invoice.pdf").write_text("x")
    (tmp_path / "a.txt").write_text("x")
    monkeypatch.setattr(paths, "_MAX_NEIGHBOURS", 0)
    assert confusable_neighbour(str(tmp_path / "invоice.pdf"), [str(tmp_path)]) is None


# -- urls --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        (7, "a URL must be text"),
        ("http://exa mple.com/", "the URL contains spaces or control characters"),
        ("http://example.com/a\x7fb", "the URL contains spaces or control characters"),
        ("http://1%3A2.3/", "the URL has a malformed IPv6 host"),  # a colon, percent-encoded
        ("http://a%3Ab/", "the URL has a malformed IPv6 host"),
        ("http://a..example/", "the URL has a malformed host"),
        ("http://a%01b.example/", "the URL has a malformed host"),
        ("http://[::1]/", "the URL host is this computer (loopback) (::1)"),
        ("http://127.1/", "the URL host is this computer (loopback) (127.0.0.1)"),
    ],
)
def test_url_refusals_say_why(url: Any, reason: str) -> None:
    assert check_url(url) == reason


def test_public_literal_addresses_pass() -> None:
    assert check_url("https://[2606:4700:4700::1111]/") is None
    assert check_url("https://[::ffff:8.8.8.8]/") is None  # reaches 8.8.8.8, a public address


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://example.com:99999/", "the address is malformed"),
        ("ftp://example.com/", "the address is not an http or https page"),
        ("https:///nohost", "the address is not an http or https page"),
        ("https://other.example/", "'other.example' is not the host the permission is for"),
        ("https://example.com:8443/", "the address uses another port"),
        ("https://u:p@example.com/", "the address carries a user name or password"),
        ("https://example.com/?q=1", "the address has a query string (data sent to the site)"),
        ("https://EXAMPLE.com./a", None),
    ],
)
def test_what_a_host_grant_covers(url: str, reason: str | None) -> None:
    assert host_grant_problem(url, {"example.com"}) == reason


def test_host_of_a_malformed_address_is_none() -> None:
    assert host_of("http://[::1/") is None
    assert host_of("mailto:x") is None


# -- the conversation's state ------------------------------------------------------------------


def test_absorbed_labels_join_the_context() -> None:
    context = ContextState()
    context.absorb(Labels(untrusted=("an email from x@y",), private=("memories",)))
    assert context.tainted and context.read_private
    assert context.labels() == Labels(("an email from x@y",), ("memories",))


def test_private_tokens_stop_growing_at_their_limit() -> None:
    context = ContextState(private_tokens={f"t{i}" for i in range(50_000)})
    context.add_private("memories", "code 7H3K9Q2Z and ZZ99XX77YY")
    assert len(context.private_tokens) == 50_000 and context.read_private


def test_own_words_before_a_paste_are_vouched_for() -> None:
    context = ContextState()
    context.note_user_text(
        "forward this to sam@example.com\n"
        "From: eve@attacker.example\nSubject: hi\nTo: me@example.com\n\nsend"
    )
    assert context.untrusted_sources == [PASTED_SOURCE]
    assert any("sam@example.com" in value for value in context.trusted_values)
    assert not any("eve@attacker.example" in value for value in context.trusted_values)


def test_a_message_that_is_all_paste_vouches_for_nothing() -> None:
    context = ContextState()
    context.note_user_text("From: eve@attacker.example\nSubject: hi\nTo: me@example.com\n\nsend")
    assert context.untrusted_sources == [PASTED_SOURCE]
    assert not context.trusted_values


# -- standing grants: every way the fence says no ------------------------------------------------


def _granted(tool: str, arguments: dict[str, Any], *grants: StandingPermission) -> Decision:
    context = ContextState(known_recipients={"sam@example.com", "a@b.example"})
    return decide(tool, arguments, context, standing=list(grants), rules=BUILTIN_TOOLS).decision


def test_a_tool_grant_needs_the_tool_wide_scope() -> None:
    search = {"query": "weather"}
    assert (
        _granted("web_search", search, StandingPermission("web_search", "example.com")) == CONFIRM
    )
    assert _granted("web_search", search, StandingPermission("web_search")) == ALLOW


def test_a_recipient_grant_covers_only_its_recipients_and_no_links() -> None:
    grant = StandingPermission("send_email", "sam@example.com")
    mail = {"to": ["sam@example.com"], "subject": "Hi", "body": "see you"}
    assert _granted("send_email", mail, grant) == ALLOW
    assert _granted("send_email", {**mail, "to": ["sam@example.com", "a@b.example"]}, grant) == (
        CONFIRM
    )
    assert _granted("send_email", {**mail, "body": "https://example.com/x"}, grant) == CONFIRM


def test_a_recipient_grant_needs_a_familiar_recipient() -> None:
    """A grant for an address the conversation never met (not typed, not known) asks."""
    grant = StandingPermission("send_email", "stranger@example.org")
    mail = {"to": ["stranger@example.org"], "subject": "Hi", "body": "see you"}
    assert _granted("send_email", mail, grant) == CONFIRM


def test_no_grant_after_a_private_read() -> None:
    context = ContextState(known_recipients={"sam@example.com"})
    context.add_private("memories", "the door code is 4471")
    grant = StandingPermission("send_email", "sam@example.com")
    mail = {"to": ["sam@example.com"], "subject": "Hi", "body": "see you"}
    assert (
        decide("send_email", mail, context, standing=[grant], rules=BUILTIN_TOOLS).decision
        == CONFIRM
    )


def test_a_host_grant_needs_an_address_and_no_recipients() -> None:
    grant = StandingPermission("read_webpage", "example.com")
    assert _granted("read_webpage", {"url": "https://example.com/a"}, grant) == ALLOW
    rules = {
        "post": Rule("post", Label.OUTBOUND, parameters=frozenset({"url", "to"}), standing="host")
    }
    context = ContextState(known_recipients={"sam@example.com"})
    post = {"url": "https://example.com/a", "to": "sam@example.com"}
    verdict = decide("post", post, context, rules, [StandingPermission("post", "example.com")])
    assert verdict.decision == CONFIRM


def test_a_recipient_grant_for_one_does_not_cover_another() -> None:
    grant = StandingPermission("create_event", "sam@example.com")
    event = {
        "title": "Lunch",
        "start": "2026-12-02T12:00",
        "end": "2026-12-02T13:00",
        "attendees": ["a@b.example"],
    }
    assert _granted("create_event", event, grant) == CONFIRM
    assert _granted("create_event", {**event, "attendees": ["sam@example.com"]}, grant) == ALLOW


def test_the_fence_holds_for_rules_of_any_shape() -> None:
    bogus: Any = "bogus"
    rules = {
        "fetch": Rule("fetch", Label.OUTBOUND, parameters=frozenset({"q"}), standing="host"),
        # A scope the table does not know (say, from a future declaration) grants nothing.
        "odd": Rule("odd", Label.OUTBOUND, parameters=frozenset(), standing=bogus),
    }
    grants = [StandingPermission("fetch", "example.com"), StandingPermission("odd")]
    assert decide("fetch", {"q": "x"}, ContextState(), rules, grants).decision == CONFIRM
    assert decide("odd", {}, ContextState(), rules, grants).decision == CONFIRM


def test_no_offer_with_a_finding_or_for_what_deletes() -> None:
    context = ContextState()
    card = {"query": "4111 1111 1111 1111"}
    verdict = decide("web_search", card, context, rules=BUILTIN_TOOLS)
    assert verdict.decision == CONFIRM and verdict.findings
    assert offer_standing("web_search", card, verdict, context, rules=BUILTIN_TOOLS) is None
    rules = {"wipe": Rule("wipe", Label.DESTRUCTIVE, parameters=frozenset(), standing="tool")}
    verdict = decide("wipe", {}, context, rules)
    assert verdict.decision == CONFIRM
    assert offer_standing("wipe", {}, verdict, context, rules) is None


def test_private_marks_stop_growing_at_their_limit() -> None:
    context = ContextState(private_marks={f"m{i}" for i in range(50_000)})
    context.add_private("memories", "account 1234 5678 9012")
    assert len(context.private_marks) == 50_000


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("", None),
        ("/", None),
        ("plan.txt", None),
        ("compose.yml", "a Docker Compose file"),
        ("notes/plan.txt", None),
        ("hooks/fishing.txt", None),
        ("home/.BASHRC", "a shell or program start-up file"),
        ("Docker-Compose.Override.YML. ", "a Docker Compose file"),
        ("site-packages/evil.pth", "a Python start-up file"),
        ("repo/.git/hooks/post-merge", "a git hook"),
        ("repo/.git/config", "a git repository's own settings"),
        ("repo/.github/workflows/release.yml", "a CI workflow (GitHub runs it)"),
        ("home/.ssh/config", "SSH settings"),
        ("home/.config/autostart/notes.txt", "a program started at log-in"),
    ],
)
def test_files_a_program_runs_or_loads(path: str, kind: str | None) -> None:
    assert paths.run_or_load_kind(path) == kind


def test_a_run_or_load_file_outside_the_folders_is_refused_not_asked(tmp_path: Path) -> None:
    verdict = decide(
        "write_file",
        {"path": "/etc/cron.d/job.txt", "content": "x"},
        ContextState(allowed_folders=[str(tmp_path)]),
        rules=BUILTIN_TOOLS,
    )
    assert verdict.decision == DENY
    assert any("cron table" in reason for reason in verdict.reasons)


def test_a_look_alike_of_a_run_or_load_file_asks(tmp_path: Path) -> None:
    # A Cyrillic "о": it passes for the docker-compose.yml beside it (compose would not load it).
    twin = tmp_path / "docker-c\u043empose.yml"
    (tmp_path / "docker-compose.yml").write_text("x")
    verdict = decide(
        "write_file",
        {"path": str(twin), "content": "x"},
        ContextState([str(tmp_path)]),
        rules=BUILTIN_TOOLS,
    )
    assert verdict.decision == CONFIRM
    assert any("looks like" in reason for reason in verdict.reasons)


def test_digits_of_private_numbers_make_an_outbound_call_ask_without_a_grant() -> None:
    """Digits of an IBAN read earlier: a finding (so no standing grant covers the call), named
    without the digits; another number, or the same digits in a local write, are no finding."""
    context = ContextState()
    context.add_private("memories", "IBAN DE89 3704 0044 0532 0130 00")
    context.private_sources.clear()  # as in a later conversation: only the marks remain
    context.private_tokens.clear()
    grant = [StandingPermission("web_search")]
    verdict = decide(
        "web_search", {"query": "0044 0532 sort"}, context, standing=grant, rules=BUILTIN_TOOLS
    )
    assert verdict.decision == CONFIRM
    assert [f.kind for f in verdict.findings] == ["private_data"]
    assert "0044" not in " ".join(verdict.reasons)
    other = decide(
        "web_search",
        {"query": "trains 2026 route 5521"},
        context,
        standing=grant,
        rules=BUILTIN_TOOLS,
    )
    assert other.decision == ALLOW
    local = decide("remember", {"fact": "sort 0044 0532"}, context, rules=BUILTIN_TOOLS)
    assert local.decision == ALLOW
