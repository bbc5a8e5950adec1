"""The policy gate: ALLOW, CONFIRM or DENY for each tool call the model proposes.

The model is never the security boundary. Once an email, a web page or a file has been in
its context, every call it proposes may be the attacker's, so the decision here comes only
from things the model cannot change:

- the app's fixed label for the tool (read / write / outbound / destructive, declared once
  in `app.agent.tools.declarations`), raised, never lowered, by the arguments (an event with
  attendees sends invitations);
- the conversation's labels (`app.agent.gate.labels`): whether untrusted content is in the
  context (taint) and where it came from, including what saved text carried back from the
  store, and which private stores (memories, reminders, mail, calendar, files) it has read;
- content detectors over the arguments (`app.agent.gate.detectors`), and, for outbound calls, any
  distinctive token of what the private stores said in this conversation;
- which recipients and URLs the user typed; new file names that look like existing ones;
- hard limits: allowed folders (`app.agent.gate.paths`), no loopback/private/metadata URLs
  (`app.agent.gate.urls`), no programs written, known tools only.

`decide` runs a list of small named checks and folds their outcomes with `max()`: every
check can only raise the decision (ALLOW < CONFIRM < DENY). The one exception is a standing
"always allow" the *user* granted, and it is fenced in: narrow scope (one exact host without
query strings, one recipient), a conversation that has read nothing untrusted and nothing
private, no detector finding, no new recipient, never destructive, never below DENY.

What runs after a CONFIRM is bound to what the user saw by `app.agent.gate.approvals`.
Pure Python, standard library only: the GUI, the `ask` command and the tests share it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any

from app.agent.gate.arguments import (
    EMAIL_IN_TEXT,
    RECIPIENT_ARGUMENT_NAMES,
    URL_ARGUMENT_NAMES,
    URL_IN_TEXT,
    address,
    is_approval_flag,
    items,
    leaf_strings,
    looks_like_url,
    quoted,
    recipients,
    shape_problem,
    strings,
)
from app.agent.gate.detectors import (
    HEALTH,
    MONEY,
    PRIVATE_DATA,
    Finding,
    private_digit_marks,
    private_tokens,
    scan,
    shared_private_digits,
    shared_private_token,
)
from app.agent.gate.labels import PRIVATE_KINDS, Labels, pasted_message_start
from app.agent.gate.paths import (
    check_path,
    confusable_neighbour,
    program_suffix,
    run_or_load_kind,
)
from app.agent.gate.rules import Label, Rule, ToolRule
from app.agent.gate.urls import check_url, host_grant_problem, host_of

__all__ = [
    "ContextState",
    "Decision",
    "Label",
    "Rule",
    "StandingPermission",
    "ToolRule",
    "Verdict",
    "decide",
    "offer_standing",
]


class Decision(IntEnum):
    """Ordered so that `max()` combines rules: a rule can only push a call up."""

    ALLOW = 0
    CONFIRM = 1
    DENY = 2


_MAX_PRIVATE_TOKENS = 50_000
PASTED_SOURCE = "text pasted into your message that looks like a forwarded message"


@dataclass(frozen=True)
class StandingPermission:
    """A user's "always allow": a tool, narrowed to one web host or one recipient where the
    tool's rule asks for it (`scope`); `None` covers the whole tool where that is allowed."""

    tool: str
    scope: str | None = None


@dataclass
class ContextState:
    """What the gate knows about the conversation, kept by the agent loop.

    `untrusted_sources` say where untrusted content came from ("an email from x@y", "the web
    page https://..."); any entry taints the context. `trusted_values` are strings the user
    typed (whole messages are fine: addresses and URLs are picked out of them).
    `known_recipients` are addresses the user has written to before (never merely found in
    an address book, which others and the model can write: `app.agent.tools.contact_names`).
    `allowed_folders` are the only places file tools may touch. `private_sources` name the
    private stores read in this conversation (labels.PRIVATE_KINDS keys), and
    `private_tokens` are the distinctive pieces of what was read there (folded; never shown):
    an outbound argument that carries one is a finding whatever the detectors say.
    """

    allowed_folders: list[str] = field(default_factory=list)
    untrusted_sources: list[str] = field(default_factory=list)
    trusted_values: set[str] = field(default_factory=set)
    known_recipients: set[str] = field(default_factory=set)
    private_sources: list[str] = field(default_factory=list)
    private_tokens: set[str] = field(default_factory=set)
    # Hashed digit pieces of private numbers, from this conversation's private reads and (seeded
    # by the agent from its permissions store) earlier conversations': an outbound call that
    # carries one asks, and no standing grant covers it.
    private_marks: set[str] = field(default_factory=set)

    @property
    def tainted(self) -> bool:
        return bool(self.untrusted_sources)

    @property
    def read_private(self) -> bool:
        """True once anything from the user's private stores has been in the conversation."""
        return bool(self.private_sources)

    def labels(self) -> Labels:
        """The conversation's labels: what anything it stores must carry."""
        return Labels(tuple(self.untrusted_sources), tuple(self.private_sources))

    def absorb(self, labels: Labels) -> None:
        """Join labels that came with a value (a recalled memory, a listed reminder)."""
        for source in labels.untrusted:
            self.add_untrusted(source)
        for kind in labels.private:
            self.add_private(kind)

    def add_private(self, kind: str, text: str = "") -> None:
        """Record a read from a private store, and the distinctive tokens of what it said."""
        if kind not in self.private_sources:
            self.private_sources.append(kind)
        if text:
            room = _MAX_PRIVATE_TOKENS - len(self.private_tokens)
            if room > 0:
                self.private_tokens.update(private_tokens(text, room))
            room = _MAX_PRIVATE_TOKENS - len(self.private_marks)
            if room > 0:
                self.private_marks.update(private_digit_marks(text, room))

    @property
    def provenance(self) -> str | None:
        """Where the untrusted content came from, for the dialog; None for a clean context."""
        return "; ".join(self.untrusted_sources) if self.untrusted_sources else None

    def add_untrusted(self, source: str) -> None:
        if source not in self.untrusted_sources:
            self.untrusted_sources.append(source)

    def record_result(self, rule: ToolRule, source: str, text: str = "") -> None:
        """Call after a tool ran: its result taints the context if the rule says so, and
        labels it private if it came from a private store."""
        if rule.untrusted_result:
            self.add_untrusted(source)
        if rule.private_result:
            self.add_private(rule.private_result, text)

    def note_user_text(self, text: str, vouched: bool = False) -> None:
        """Remember what the user typed, so recipients and URLs in it count as theirs.

        A pasted message (a forwarded email: header lines, an "On ... wrote:" line, a quoted
        block) is someone else's text: only the user's own lines above it count as typed,
        and the paste taints the context, unless the user vouched for it (`vouched`).
        """
        start = None if vouched else pasted_message_start(text)
        if start is None:
            self.trusted_values.add(text)
            return
        own = text[:start]
        if own.strip():
            self.trusted_values.add(own)
        self.add_untrusted(PASTED_SOURCE)

    def typed_addresses(self) -> set[str]:
        found = set()
        for value in self.trusted_values:
            found.add(address(value))
            found.update(address(m) for m in EMAIL_IN_TEXT.findall(value))
        return found

    def typed_urls(self) -> set[str]:
        found = set()
        for value in self.trusted_values:
            found.add(value.strip())
            found.update(m.rstrip(".,;:!?)]}>'\"") for m in URL_IN_TEXT.findall(value))
        return found


@dataclass(frozen=True)
class Verdict:
    """The gate's answer, with everything the confirmation dialog and audit log need."""

    decision: Decision
    reasons: list[str]
    findings: list[Finding] = field(default_factory=list)
    provenance: str | None = None
    untyped_values: list[str] = field(default_factory=list)
    label: Label | None = None
    # Set when a standing host grant let the call through without a dialog: the hosts it
    # covers. The web tool re-checks every redirect against them (host_grant_problem).
    granted_hosts: tuple[str, ...] = ()


# --------------------------------------------------------------------------------------------
# The decision


def decide(
    tool_name: str,
    arguments: Any,
    context: ContextState,
    rules: Mapping[str, ToolRule],
    standing: Sequence[StandingPermission] | None = None,
) -> Verdict:
    """ALLOW, CONFIRM or DENY for one proposed call. Never raises: any error denies."""
    provenance = context.provenance
    try:
        return _decide(tool_name, arguments, context, rules, standing or ())
    except Exception as error:  # fail closed: a bug in the gate must not let a call through
        return _refused(f"the policy check failed ({type(error).__name__})", provenance)


def _decide(
    tool_name: Any,
    arguments: Any,
    context: ContextState,
    rules: Mapping[str, ToolRule],
    standing: Sequence[StandingPermission],
) -> Verdict:
    rule = rules.get(tool_name) if isinstance(tool_name, str) else None
    if rule is None:
        return _refused(f"unknown tool {quoted(tool_name)}", context.provenance)
    problem = shape_problem(arguments, rule.required, rule.path_arguments)
    if problem:
        return _refused(problem, context.provenance)

    call = _Call.read(rule, arguments, context)
    outcomes = [outcome for check in _CHECKS for outcome in check(call)]
    decision = max((d for d, _ in outcomes), default=Decision.ALLOW)
    reasons = list(dict.fromkeys(reason for _, reason in outcomes))
    if decision == Decision.ALLOW:
        only = (
            "only reads"
            if call.label == Label.READ
            else "changes only local data in a clean context"
        )
        reasons.append(f"{rule.name} {only}")
    verdict = Verdict(
        decision, reasons, call.findings, context.provenance, call.untyped, call.label
    )
    if decision == Decision.CONFIRM and standing:
        # A standing permission can turn CONFIRM into ALLOW, within its fence.
        grant = _standing_grant(call, standing)
        if grant:
            reason, hosts = grant
            return replace(
                verdict, decision=Decision.ALLOW, reasons=[*reasons, reason], granted_hosts=hosts
            )
    return verdict


def _refused(reason: str, provenance: str | None) -> Verdict:
    return Verdict(Decision.DENY, [reason], [], provenance, [], None)


@dataclass(frozen=True)
class _Call:
    """One proposed call as the checks see it: read once, judged by each check."""

    rule: ToolRule
    arguments: Mapping[str, Any]
    context: ContextState
    label: Label
    path_problems: list[str]  # why a path it names may not be touched
    findings: list[Finding]
    urls: list[str]  # every address it names, in argument order
    recipients: list[str]
    untyped_recipients: list[str]
    untyped: list[str]  # recipients, then URLs, that the user did not type
    stored_addresses: frozenset[str]  # addresses kept for later (a contact's), not sent to
    unexpected: list[str]  # argument names the tool does not declare
    familiar: set[str]  # addresses the user typed or has written to before

    @classmethod
    def read(cls, rule: ToolRule, arguments: Mapping[str, Any], context: ContextState) -> _Call:
        label = rule.effective_label(arguments)
        # Approval-flag values are scanned on their own: joined with the real arguments they
        # could only ever add noise, and a flag must change nothing.
        flags = {k: v for k, v in arguments.items() if is_approval_flag(str(k))}
        rest = {k: v for k, v in arguments.items() if k not in flags}
        findings = scan(rest) + (scan(flags) if flags else [])
        if label == Label.OUTBOUND and context.private_tokens:
            # Whatever the detectors say: a distinctive piece of what the private stores said
            # (folded for case, separators and encodings) is about to leave.
            findings += _private_findings(arguments, context)
        if label == Label.OUTBOUND and context.private_marks and not findings:
            # Four or more digits of a private number, read here or in an earlier conversation:
            # a number sent out in pieces, one request at a time (issue #41).
            findings += _private_digit_findings(arguments, context)

        urls: list[str] = []
        for name, value in items(arguments):
            if name in URL_ARGUMENT_NAMES and value is not None:
                urls.extend((value,) if isinstance(value, str) else strings(value))
        urls += dict.fromkeys(t for t in strings(arguments) if looks_like_url(t) and t not in urls)

        typed = context.typed_addresses()
        named = [
            recipient
            for name, value in items(arguments)
            if name in rule.address_arguments
            for recipient in recipients(value)
        ]
        stored = frozenset(
            recipient
            for name, value in items(arguments)
            if name in rule.address_arguments - RECIPIENT_ARGUMENT_NAMES
            for recipient in recipients(value)
        )
        untyped = list(dict.fromkeys(r for r in named if address(r) not in typed))
        untyped_recipients = list(untyped)
        typed_urls = context.typed_urls()
        untyped += dict.fromkeys(
            url for url in urls if url.strip() not in typed_urls and url not in untyped
        )
        unexpected = [
            name
            for name in arguments
            if rule.parameters is not None
            and name not in rule.parameters
            and not is_approval_flag(name)
        ]
        known = {address(r) for r in context.known_recipients}
        return cls(
            rule, arguments, context, label, _path_problems(rule, arguments, context), findings,
            urls, named, untyped_recipients, untyped, stored, unexpected, typed | known,
        )  # fmt: skip


Outcome = tuple[Decision, str]
Check = Callable[[_Call], Iterable[Outcome]]


# Hard limits: DENY.


def _path_problems(
    rule: ToolRule, arguments: Mapping[str, Any], context: ContextState
) -> list[str]:
    problems = []
    for name, value in items(arguments):
        if name in rule.path_arguments and value is not None:
            paths = [value] if isinstance(value, str) else []
            if isinstance(value, (list, tuple)):
                paths = [v for v in value if isinstance(v, str)]
            for path in paths:
                problem = check_path(path, context.allowed_folders)
                if problem:
                    problems.append(problem)
    return problems


def _inside_allowed_folders(call: _Call) -> Iterable[Outcome]:
    """Every path argument, at any depth, lies inside a folder the user allowed."""
    return [(Decision.DENY, problem) for problem in call.path_problems]


def _no_programs_or_lookalikes(call: _Call) -> Iterable[Outcome]:
    """A created file is never a program or script (it could run later); a new name that
    reads like an existing one's asks. The look-alike check only looks inside allowed
    folders, so it runs only when every path passed."""
    name = call.rule.written_path
    path = call.arguments.get(name) if name else None
    if not isinstance(path, str):
        return []
    suffix = program_suffix(path)
    if suffix:
        return [(Decision.DENY, f"writing {suffix} files (programs and scripts) is not allowed")]
    # A file a program runs or loads as its settings (a compose file, a shell rc file) asks
    # in any context: that is how planted text becomes code that runs later.
    loaded = run_or_load_kind(path)
    outcomes = (
        [(Decision.CONFIRM, f"{quoted(path)} is {loaded}, which a program runs or loads by itself")]
        if loaded
        else []
    )
    if call.path_problems:
        return outcomes
    twin = confusable_neighbour(path, call.context.allowed_folders)
    return [*outcomes, (Decision.CONFIRM, twin)] if twin else outcomes


def _fetchable_urls(call: _Call) -> Iterable[Outcome]:
    """No address it names reaches this machine, the local network or a metadata service."""
    return [(Decision.DENY, problem) for url in call.urls if (problem := check_url(url))]


# Escalations: CONFIRM.

_LABEL_REASON = {
    Label.OUTBOUND: "{tool} sends data off this computer",
    Label.DESTRUCTIVE: "{tool} deletes or overwrites something",
}


def _label_asks(call: _Call) -> Iterable[Outcome]:
    """Outbound and destructive calls always ask."""
    if call.label in _LABEL_REASON:
        reason = call.rule.asks_because or _LABEL_REASON[call.label]
        return [(Decision.CONFIRM, reason.format(tool=call.rule.name))]
    return []


def _changes_ask(call: _Call) -> Iterable[Outcome]:
    """Changing or replacing a record the user already has (a contact's address, a task's
    due date, an event's time) is a change to personal data: it asks, in any conversation."""
    if call.rule.changes_existing:
        return [(Decision.CONFIRM, f"{call.rule.name} changes something you already have")]
    return []


# Words about a topic, not the data itself: in a lookup they are the user's own question.
_TOPIC_KINDS = frozenset({HEALTH, MONEY})


def _findings_ask(call: _Call) -> Iterable[Outcome]:
    """Money, health, ids, secrets (and private text on its way out) ask. A read-only call
    (searching your own files, mail or calendar for "doctor" or "86.40") changes nothing
    and sends nothing to anyone new, so health words and amounts do not make it ask; card
    numbers, IBANs, id numbers and secrets still do, on any call."""
    topical = call.label == Label.READ
    return [
        (Decision.CONFIRM, f"{f.kind.replace('_', ' ')} detected in {f.path}: {f.excerpt}")
        for f in call.findings
        if not (topical and f.kind in _TOPIC_KINDS)
    ]


def _taint_asks(call: _Call) -> Iterable[Outcome]:
    """After untrusted content, anything but a read may be the attacker's."""
    if call.context.tainted and call.label != Label.READ:
        reason = f"untrusted content is in the conversation ({call.context.provenance})"
        return [(Decision.CONFIRM, reason)]
    return []


def _private_read_asks(call: _Call) -> Iterable[Outcome]:
    """After a private read, anything that leaves may carry it."""
    if call.context.read_private and call.label == Label.OUTBOUND:
        read = ", ".join(PRIVATE_KINDS.get(k, k) for k in call.context.private_sources)
        return [(Decision.CONFIRM, f"this conversation has read {read}")]
    return []


def _typed_recipients(call: _Call) -> Iterable[Outcome]:
    """A recipient, or any address the call stores (a contact's emails), that the user did
    not type asks (the model may have been told it)."""
    return [
        (Decision.CONFIRM, f"you did not type the {what} {quoted(recipient)}")
        for recipient in call.untyped_recipients
        for what in ("address" if recipient in call.stored_addresses else "recipient",)
    ]


def _declared_arguments(call: _Call) -> Iterable[Outcome]:
    """An argument the tool does not declare asks: nobody knows what it would do."""
    return [
        (Decision.CONFIRM, f"{call.rule.name} has no argument {quoted(name)}")
        for name in call.unexpected
    ]


# In this order: the reasons keep it, hard limits first.
_CHECKS: tuple[Check, ...] = (
    _inside_allowed_folders,
    _no_programs_or_lookalikes,
    _fetchable_urls,
    _label_asks,
    _changes_ask,
    _findings_ask,
    _taint_asks,
    _private_read_asks,
    _typed_recipients,
    _declared_arguments,
)


def _private_findings(arguments: Mapping[str, Any], context: ContextState) -> list[Finding]:
    """A finding for each argument that carries a distinctive token read from a private
    store in this conversation. The excerpt names the stores, never the token."""
    found: list[Finding] = []
    stores = ", ".join(PRIVATE_KINDS.get(k, k) for k in context.private_sources) or "a store"
    for path, text in leaf_strings(arguments):
        how = shared_private_token(text, context.private_tokens)
        if how is not None:
            excerpt = f"text read from {stores}{how}"
            found.append(Finding(PRIVATE_DATA, path, excerpt))
    return found


def _private_digit_findings(arguments: Mapping[str, Any], context: ContextState) -> list[Finding]:
    """A finding for each argument that carries four or more digits in a row of a private
    number (one read in this conversation or an earlier one). Never shows the digits."""
    return [
        Finding(PRIVATE_DATA, path, "digits of a number read from your private things")
        for path, text in leaf_strings(arguments)
        if shared_private_digits(text, context.private_marks)
    ]


# --------------------------------------------------------------------------------------------
# Standing permissions


def _standing_grant(
    call: _Call, standing: Sequence[StandingPermission]
) -> tuple[str, tuple[str, ...]] | None:
    """The reason text if a standing permission covers this call (with the hosts a host
    grant covers), else None.

    Never: destructive calls, any detector finding (money, health, ids and secrets above
    all), a tainted context (the arguments may be the attacker's), a conversation that has
    read private data (the arguments may carry it, in a spelling no detector knows),
    undeclared arguments, a recipient the user has neither typed nor written to before.
    A host grant covers that exact host only (no subdomains, default port), and only
    addresses without a query string: a query is how a form sends data, and a grant for
    reading pages on a host is not one for submitting data to whatever form it hosts.
    """
    rule, context, recipients, urls = call.rule, call.context, call.recipients, call.urls
    if call.label == Label.DESTRUCTIVE or call.findings or context.tainted or call.unexpected:
        return None
    if context.read_private:
        return None
    if any(address(r) not in call.familiar for r in recipients):
        return None
    grants = [p for p in standing if p.tool == rule.granted_as]
    if not grants or rule.standing == "never":
        return None
    if rule.standing == "tool":
        if any(p.scope is None for p in grants) and not recipients:
            return f"allowed by your standing permission for {rule.name}", ()
        return None
    if rule.standing == "host":
        hosts = {p.scope for p in grants if p.scope}  # compared by host_grant_problem
        if not urls or recipients:
            return None
        for url in urls:
            if host_grant_problem(url, hosts) is not None:
                return None
        covered = tuple(sorted({h for url in urls if (h := host_of(url))}))
        return f"allowed by your standing permission for {rule.name} on {', '.join(covered)}", (
            covered
        )
    if rule.standing == "recipient":
        scopes = {address(p.scope) for p in grants if p.scope}
        if not recipients or urls:
            return None
        if all(address(r) in scopes for r in recipients):
            return f"allowed by your standing permission for {rule.name} to these recipients", ()
    return None


_ALWAYS_SCOPE = (
    "Only in conversations that have read nothing from outside (mail, web pages, files) and "
    "nothing private (your memories, reminders, mail, calendar or files); anything with "
    "money, health, ids or passwords still asks. Revoke it under View → Permissions."
)


def offer_standing(
    tool_name: str,
    arguments: Mapping[str, Any],
    verdict: Verdict,
    context: ContextState,
    rules: Mapping[str, ToolRule],
) -> tuple[StandingPermission, str] | None:
    """The narrow "always allow" the dialog may offer for this call, with its wording, or
    None. Only where the tool's rule allows one, never with a finding (money, health, ids,
    secrets), never in a tainted context, never for destructive calls or new recipients."""
    rule = rules.get(tool_name)
    if rule is None or rule.standing == "never" or verdict.decision != Decision.CONFIRM:
        return None
    if verdict.findings or context.tainted or verdict.untyped_values:
        return None
    if rule.effective_label(arguments) == Label.DESTRUCTIVE:
        return None
    if rule.standing == "tool":
        text = f"Always allow {tool_name} (no other tool)\n{_ALWAYS_SCOPE}"
        return StandingPermission(rule.granted_as), text
    if rule.standing == "host":
        url = arguments.get("url")
        host = host_of(url) if isinstance(url, str) else None
        if not host or not isinstance(url, str) or host_grant_problem(url, {host}) is not None:
            return None  # a query string or another port would never be covered: no offer
        text = (
            f"Always allow {tool_name} on {host}\nCovers pages on exactly {host}: not its "
            "subdomains, not other ports, no addresses with a ?query part, and no redirect to "
            f"another address. {_ALWAYS_SCOPE}"
        )
        return StandingPermission(rule.granted_as, host), text
    named = [r for key in ("to", "cc", "attendees") for r in recipients(arguments.get(key))]
    if len(named) != 1:
        return None
    where = address(named[0])
    text = f"Always allow {tool_name} to {where}\nOnly to {where} alone. {_ALWAYS_SCOPE}"
    return StandingPermission(rule.granted_as, where), text
