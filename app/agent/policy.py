"""The policy gate: ALLOW, CONFIRM or DENY for each tool call the model proposes.

The model is never the security boundary. Once an email, a web page or a file has been in
its context, every call it proposes may be the attacker's, so the decision here comes only
from things the model cannot change:

- the app's fixed label for the tool (read / write / outbound / destructive), raised, never
  lowered, by the arguments (an event with attendees sends invitations);
- the conversation's labels (`app.agent.labels`): whether untrusted content is in the
  context (taint) and where it came from, including what saved text carried back from the
  store, and which private stores (memories, reminders, mail, calendar, files) it has read;
- content detectors over the arguments (`app.agent.detectors`), and, for outbound calls, any
  distinctive token of what the private stores said in this conversation;
- which recipients and URLs the user typed; new file names that look like existing ones;
- hard limits: allowed folders, no loopback/private/metadata URLs, known tools only.

Every rule can only raise the decision (ALLOW < CONFIRM < DENY). The one exception is a
standing "always allow" the *user* granted, and it is fenced in: narrow scope (one exact
host without query strings, one recipient), a conversation that has read nothing untrusted
and nothing private, no detector finding, no new recipient, never destructive, never below
DENY.

An approval is bound to the exact arguments shown: `ApprovalBook` issues a single-use,
expiring token over a hash of the canonical arguments, and the executor redeems it with the
arguments it is about to run; any difference refuses.

Pure Python, standard library only: the GUI, the `ask` command and the tests share it.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import math
import os
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

from app.agent.detectors import (
    PRIVATE_DATA,
    Finding,
    private_tokens,
    scan,
    shared_private_token,
)
from app.agent.labels import PRIVATE_KINDS, Labels, pasted_message_start

__all__ = [
    "APPROVAL_FLAG_NAMES",
    "DEFAULT_RULES",
    "ApprovalBook",
    "ContextState",
    "Decision",
    "Label",
    "StandingPermission",
    "ToolRule",
    "Verdict",
    "argument_hash",
    "canonical_arguments",
    "check_path",
    "check_url",
    "decide",
    "offer_standing",
]


class Label(StrEnum):
    """What a tool does to the world, as the app (not the model) knows it."""

    READ = "read"
    WRITE = "write"
    OUTBOUND = "outbound"
    DESTRUCTIVE = "destructive"


_LABEL_RANK = {Label.READ: 0, Label.WRITE: 1, Label.OUTBOUND: 2, Label.DESTRUCTIVE: 3}


class Decision(IntEnum):
    """Ordered so that `max()` combines rules: a rule can only push a call up."""

    ALLOW = 0
    CONFIRM = 1
    DENY = 2


StandingScope = Literal["never", "tool", "host", "recipient"]

ArgumentHook = Callable[[Mapping[str, Any]], Label | None]

# Argument names that hold a file-system path. Mail tools use "folder" for a mailbox name,
# so their rules leave it out.
PATH_ARGUMENT_NAMES = frozenset(
    {"path", "paths", "folder", "file_path", "filepath", "directory", "dir", "attachments"}
)
URL_ARGUMENT_NAMES = frozenset({"url", "urls", "uri", "link", "links", "href", "endpoint"})
_PLURAL_ARGUMENT_NAMES = frozenset({"paths", "attachments", "urls", "links"})
RECIPIENT_ARGUMENT_NAMES = frozenset({"to", "cc", "bcc", "attendees", "recipients", "recipient"})

# Names a fooled model might use to claim the user already agreed. They are ignored as
# arguments (their values are still scanned like any other text).
APPROVAL_FLAG_NAMES = frozenset(
    {
        "approved", "approve", "approval", "preapproved", "confirmed", "confirm",
        "confirmation", "userapproved", "userconfirmed", "userconsent", "consent",
        "skipconfirmation", "skipconfirm", "noconfirm", "noconfirmation", "autoapprove",
        "autoconfirm", "force", "bypass", "bypassconfirmation", "authorized", "authorised",
        "allow", "allowed", "trusted", "safe", "dontask", "noprompt",
    }
)  # fmt: skip

# Writing these file types is how a fooled assistant would plant something that runs later.
EXECUTABLE_SUFFIXES = frozenset(
    {
        ".exe", ".com", ".bat", ".cmd", ".ps1", ".psm1", ".vbs", ".vbe", ".js", ".jse", ".wsf",
        ".wsh", ".msi", ".msp", ".scr", ".pif", ".lnk", ".reg", ".hta", ".cpl", ".jar", ".sh",
        ".bash", ".zsh", ".fish", ".command", ".desktop", ".app", ".appimage", ".run", ".py",
        ".pyw", ".pl", ".rb", ".scpt", ".workflow", ".service", ".plist",
    }
)  # fmt: skip

_MAX_DEPTH = 20
_MAX_PRIVATE_TOKENS = 50_000
PASTED_SOURCE = "text pasted into your message that looks like a forwarded message"


def _quote(value: Any, limit: int = 80) -> str:
    """A value for a reason text: quoted, shortened, long digit runs masked (reasons go to
    the audit log, which must not collect the card number a path or name was built from)."""

    def mask(match: re.Match[str]) -> str:
        digits = re.sub(r"\D", "", match.group())
        return match.group() if len(digits) < 8 else "•" * (len(digits) - 4) + digits[-4:]

    text = re.sub(r"\d(?:(?:[^\w%]|_){0,3}\d)+", mask, str(value))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return repr(text)


def _flag_name(name: str) -> str:
    return re.sub(r"[\W_]+", "", name).casefold()


def _present(value: Any) -> bool:
    return value not in (None, "", [], (), {})


def _outbound_if_attendees(arguments: Mapping[str, Any]) -> Label | None:
    """An event with attendees sends invitations: data leaves the machine."""
    return Label.OUTBOUND if _present(arguments.get("attendees")) else None


def _destructive_if_overwrite(arguments: Mapping[str, Any]) -> Label | None:
    """Overwriting loses the old file. Anything but an explicit false/absent counts ("no" too)."""
    value = arguments.get("overwrite")
    return None if value is None or value is False else Label.DESTRUCTIVE


@dataclass(frozen=True)
class ToolRule:
    """The app's fixed facts about one tool. The model cannot change any of them.

    `raise_label` may only raise `label` (the higher of the two is used). `parameters` are
    the declared argument names (None: do not check); an undeclared one forces CONFIRM.
    `standing` says which kind of "always allow" may cover the tool: none, the whole tool,
    one web host, or one recipient. `private_result` names the private store (a key of
    `labels.PRIVATE_KINDS`) its result reveals: reading it labels the conversation private.
    """

    name: str
    label: Label
    untrusted_result: bool = False
    raise_label: ArgumentHook | None = None
    parameters: frozenset[str] | None = None
    required: frozenset[str] = frozenset()
    path_arguments: frozenset[str] = PATH_ARGUMENT_NAMES
    standing: StandingScope = "never"
    private_result: str | None = None  # the private store its result comes from (labels)

    def effective_label(self, arguments: Mapping[str, Any]) -> Label:
        """The base label, raised by the hook if the arguments call for it."""
        raised = self.raise_label(arguments) if self.raise_label else None
        if raised is not None and _LABEL_RANK[raised] > _LABEL_RANK[self.label]:
            return raised
        return self.label


def _rule(
    name: str,
    label: Label,
    parameters: str,
    required: str = "",
    *,
    untrusted: bool = False,
    hook: ArgumentHook | None = None,
    mailbox_folder: bool = False,
    standing: StandingScope = "never",
    private: str | None = None,
) -> ToolRule:
    return ToolRule(
        name=name,
        label=label,
        untrusted_result=untrusted,
        raise_label=hook,
        parameters=frozenset(parameters.split()),
        required=frozenset(required.split()),
        path_arguments=PATH_ARGUMENT_NAMES - {"folder"} if mailbox_folder else PATH_ARGUMENT_NAMES,
        standing=standing,
        private_result=private,
    )


_R, _W, _OUT, _DEL = Label.READ, Label.WRITE, Label.OUTBOUND, Label.DESTRUCTIVE

# The tool table of DESIGN.md. Results marked untrusted taint the context. Beyond the table,
# listings whose text other people write (event invitations, email subjects and senders,
# file names and search snippets) are untrusted too: an injection fits in a subject line.
# Results that come from the user's private stores label the conversation private (issue
# #16): after one, no standing grant lets anything leave without a dialog. Removing anything
# (an event, a memory, a reminder) is destructive and always asks.
_CAL, _MAIL, _FILES, _MEM, _REM = "calendar", "mail", "files", "memories", "reminders"
DEFAULT_RULES: dict[str, ToolRule] = {
    rule.name: rule
    for rule in (
        _rule("list_events", _R, "start end calendar", "start end", untrusted=True, private=_CAL),
        _rule(
            "find_free_time", _R, "start end duration_minutes", "start end duration_minutes",
            private=_CAL,
        ),
        _rule(
            "create_event", _W, "title start end location description attendees",
            "title start end", hook=_outbound_if_attendees, standing="recipient",
        ),
        _rule(
            "update_event", _W, "event_id title start end location description", "event_id",
            private=_CAL,
        ),
        _rule("delete_event", _DEL, "event_id", "event_id", private=_CAL),
        _rule(
            "list_emails", _R, "folder unread_only limit", untrusted=True, mailbox_folder=True,
            private=_MAIL,
        ),
        _rule(
            "search_emails", _R, "query folder since", "query", untrusted=True,
            mailbox_folder=True, private=_MAIL,
        ),
        _rule("read_email", _R, "email_id", "email_id", untrusted=True, private=_MAIL),
        _rule("send_email", _OUT, "to subject body cc", "to subject body", standing="recipient"),
        _rule("reply_email", _OUT, "email_id body", "email_id body", private=_MAIL),
        _rule("search_files", _R, "query folder", "query", untrusted=True, private=_FILES),
        _rule("list_folder", _R, "path", "path", untrusted=True, private=_FILES),
        _rule("read_file", _R, "path", "path", untrusted=True, private=_FILES),
        _rule(
            "write_file", _W, "path content overwrite", "path content",
            hook=_destructive_if_overwrite,
        ),
        _rule("web_search", _OUT, "query max_results", "query", untrusted=True, standing="tool"),
        _rule("read_webpage", _OUT, "url", "url", untrusted=True, standing="host"),
        _rule("remember", _W, "fact", "fact"),
        _rule("recall", _R, "query", "query", private=_MEM),
        _rule("forget", _DEL, "memory_id", "memory_id", private=_MEM),
        _rule("set_reminder", _W, "text at", "text at"),
        # The user's own reminders: listing reads them; cancelling deletes one, so it asks.
        _rule("list_reminders", _R, "", private=_REM),
        _rule("cancel_reminder", _DEL, "reminder_id", "reminder_id", private=_REM),
    )
}  # fmt: skip


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
    `known_recipients` are addresses the user has written to before or saved as contacts.
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
            found.add(_address(value))
            found.update(m.casefold() for m in _EMAIL.findall(value))
        return found

    def typed_urls(self) -> set[str]:
        found = set()
        for value in self.trusted_values:
            found.add(value.strip())
            found.update(m.rstrip(".,;:!?)]}>'\"") for m in _URL_IN_TEXT.findall(value))
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
# Paths


def _within(path: str, root: str) -> bool:
    path, root = os.path.normcase(path), os.path.normcase(root)
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:
        return False


def check_path(value: Any, allowed_folders: Sequence[str]) -> str | None:
    """Why `value` may not be touched, or None if it lies inside one of the allowed folders.

    Lexical and resolved checks both: no NUL or control characters, no `..`, absolute
    paths (or relative ones, read against the first allowed folder as the connector does), and
    the path
    with every symlink resolved (`os.path.realpath`) must stay inside the folder's own
    resolved path. Files with more than one hard link are refused: the other name may be
    outside. The connector must still open files without following links (TOCTOU).
    """
    if not isinstance(value, str):
        return "a path must be text"
    if "\x00" in value:
        return "the path contains a NUL byte"
    if not value or any(ord(c) < 32 or c == "\x7f" for c in value):
        return "the path is empty or contains control characters"
    if ".." in re.split(r"[\\/]+", value):
        return f"the path {_quote(value)} contains '..'"
    if not os.path.isabs(value):
        # The files connector reads a relative path against the first allowed folder (the
        # user chose that folder); check the same path it will open.
        first = next((f for f in allowed_folders if isinstance(f, str) and os.path.isabs(f)), None)
        if first is None:
            return f"the path {_quote(value)} is not inside a folder Hearth may use"
        value = os.path.join(first, value.lstrip("~"))
    lexical = os.path.normpath(value)
    real = os.path.realpath(value)
    for folder in allowed_folders:
        if not isinstance(folder, str) or not folder or "\x00" in folder:
            continue
        if not os.path.isabs(folder):
            continue
        folder_real = os.path.realpath(folder)
        lexical_ok = _within(lexical, os.path.normpath(folder)) or _within(lexical, folder_real)
        if lexical_ok and _within(real, folder_real):
            try:
                status = os.lstat(real)
            except OSError:
                return None  # does not exist yet: a new file inside the folder
            if not os.path.isdir(real) and status.st_nlink > 1:
                return f"the file {_quote(value)} has other hard links"
            return None
    return f"the path {_quote(value)} is outside the allowed folders"


# Letters from other scripts that look like Latin ones, and Latin look-alike sequences. Enough
# for the file names a planted look-alike would use; NFKC already folds full-width forms.
_HOMOGLYPHS = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
        "ј": "j", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ь": "b", "п": "n",
        "г": "r", "ɡ": "g",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "μ": "u", "γ": "y",
        # Armenian and others
        "օ": "o", "ս": "u", "ց": "g", "ո": "n", "ı": "i", "ȷ": "j", "ℓ": "l",
        # digits and symbols that pass for letters
        "0": "o", "1": "l", "|": "l", "i": "l", "5": "s", "$": "s",
        "‐": "-", "‑": "-", "‒": "-", "–": "-", "−": "-", "_": "-",
    }
)  # fmt: skip
_MAX_NEIGHBOURS = 5_000


def name_skeleton(name: str) -> str:
    """What a file name looks like to a reader: NFKC, case-folded, invisible characters
    dropped, look-alike letters from other scripts mapped to Latin ("rn" reads as "m")."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Mn", "Me"))
    text = text.casefold().translate(_HOMOGLYPHS)
    return text.replace("rn", "m").replace("vv", "w").replace("cl", "d")


def confusable_neighbour(path: str, allowed_folders: Sequence[str]) -> str | None:
    """A reason to ask when `path` is a new file (or goes through a new folder) whose name
    looks like an existing one's in the same folder ("invoice.pdf" beside "invоice.pdf" with a
    Cyrillic o, a new "Dоcuments" beside "Documents"), else None."""
    if not os.path.isabs(path):
        first = next((f for f in allowed_folders if isinstance(f, str) and os.path.isabs(f)), None)
        if first is None:
            return None
        path = os.path.join(first, path.lstrip("~"))
    if os.path.lexists(path):
        return None
    # The first part of the path that does not exist yet ("Dоcuments" in "Dоcuments/a.txt"),
    # compared with what is already in the folder it would be created in.
    missing, folder = path, os.path.dirname(path)
    for _ in range(_MAX_DEPTH * 4):
        if folder == missing or os.path.lexists(folder):
            break
        missing, folder = folder, os.path.dirname(folder)
    name = os.path.basename(missing)
    skeleton = name_skeleton(name)
    try:
        with os.scandir(folder) as entries:
            for index, entry in enumerate(entries):
                if index >= _MAX_NEIGHBOURS:
                    break
                if entry.name != name and name_skeleton(entry.name) == skeleton:
                    return (
                        f"the new file name {_quote(name)} looks like the existing "
                        f"{_quote(entry.name)}"
                    )
    except OSError:
        return None
    return None


# --------------------------------------------------------------------------------------------
# URLs


_BLOCKED_SUFFIXES = (
    ".localhost", ".local", ".internal", ".intranet", ".lan", ".home", ".corp", ".localdomain",
    ".home.arpa", ".arpa",
)  # fmt: skip
_BLOCKED_HOSTS = frozenset(
    {"localhost", "metadata", "metadata.goog", "metadata.google.internal", "instance-data"}
)
_METADATA_IPS = frozenset(
    ipaddress.ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "100.100.100.200", "192.0.0.192", "fd00:ec2::254")
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_HOST_FORBIDDEN = re.compile(r"[\s%/\\?#@:\[\]<>^|\"'`{}*]")


def _ipv4_number(part: str) -> int | None:
    """One part of a WHATWG IPv4 host: decimal, 0x-hex or 0-octal ("0x7f", "0177", "1")."""
    base = 10
    if part[:2].lower() == "0x":
        base, part = 16, part[2:]
    elif len(part) > 1 and part[0] == "0":
        base, part = 8, part[1:]
    if part == "":
        return 0
    allowed = {10: "0123456789", 16: "0123456789abcdefABCDEF", 8: "01234567"}[base]
    if not all(c in allowed for c in part):
        return None
    return int(part, base)


def _ends_in_number(host: str) -> bool:
    last = host.split(".")[-1]
    if last and last.isascii() and last.isdigit():
        return True
    return last[:2].lower() == "0x" and all(c in "0123456789abcdefABCDEF" for c in last[2:])


def _parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The WHATWG URL IPv4 parser: 1 to 4 parts, so 2130706433 and 0x7f.1 are 127.0.0.1."""
    parts = host.split(".")
    if len(parts) > 4 or any(p == "" for p in parts):
        return None
    numbers = [_ipv4_number(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    values = [n for n in numbers if n is not None]
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        return None
    address = values[-1]
    for index, number in enumerate(values[:-1]):
        address += number * 256 ** (3 - index)
    return ipaddress.IPv4Address(address)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64 or (int(address) >> 32 == 0 and int(address) > 1):
        # NAT64 64:ff9b::a.b.c.d and the deprecated IPv4-compatible ::a.b.c.d (not :: or ::1)
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _address_problem(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            address = ipaddress.IPv6Address(str(address).split("%")[0])
        inner = _embedded_ipv4(address)
        if inner is not None:
            problem = _address_problem(inner)
            if problem:
                return problem
    if address in _METADATA_IPS:
        return "a cloud metadata address"
    checks = (
        (address.is_loopback, "a loopback address"),
        (address.is_unspecified, "an unspecified address"),
        (address.is_link_local, "a link-local address"),
        (address.is_multicast, "a multicast address"),
        (address.is_private, "a private address"),
        (address.is_reserved, "a reserved address"),
        (isinstance(address, ipaddress.IPv6Address) and address.is_site_local, "site-local"),
        (not address.is_global, "not a public address"),
    )
    for failed, what in checks:
        if failed:
            return what
    return None


def _host_problem(host: str) -> str | None:
    """Literal addresses and names that reach this machine or the local network."""
    host = unquote(host)
    host = unicodedata.normalize("NFKC", host).casefold()
    host = host.translate({0x3002: ".", 0xFF0E: ".", 0xFF61: "."})
    if not host:
        return "the URL has no host"
    if ":" in host:  # only IPv6 literals get here with a colon (urlsplit took the port off)
        try:
            address: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(host)
        except ValueError:
            return "the URL has a malformed IPv6 host"
        what = _address_problem(address)
        return f"the URL host is {what}" if what else None
    if host.endswith("."):
        host = host[:-1]
    if not host or host.startswith(".") or ".." in host or _HOST_FORBIDDEN.search(host):
        return "the URL has a malformed host"
    if any(ord(c) < 32 for c in host):
        return "the URL has a malformed host"
    if _ends_in_number(host):
        ipv4 = _parse_ipv4(host)
        if ipv4 is None:
            return "the URL has a malformed numeric host"
        what = _address_problem(ipv4)
        return f"the URL host is {what} ({ipv4})" if what else None
    if host in _BLOCKED_HOSTS or host.endswith(_BLOCKED_SUFFIXES):
        return f"the URL host {_quote(host)} is a local network name"
    if "." not in host:
        return f"the URL host {_quote(host)} is a single-label name (it resolves locally)"
    return None


def check_url(url: Any) -> str | None:
    """Why `url` may not be fetched, or None. The first line only: the connector re-checks
    the addresses a name resolves to, and every redirect."""
    if not isinstance(url, str):
        return "a URL must be text"
    text = url.strip("".join(chr(c) for c in range(0x21)))
    text = re.sub(r"[\t\n\r]", "", text)  # browsers drop these anywhere in a URL
    if any(ord(c) < 0x20 or c == "\x7f" or c.isspace() for c in text):
        return "the URL contains spaces or control characters"
    if "\\" in text:
        return "the URL contains a backslash"
    scheme_match = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", text)
    if not scheme_match:
        return "the URL has no scheme (only http and https are fetched)"
    scheme = scheme_match.group(1).lower()
    if scheme not in ("http", "https"):
        return f"the URL scheme {_quote(scheme)} is not allowed (only http and https)"
    if not text[scheme_match.end() :].startswith("//"):
        return "the URL is malformed"
    try:
        parts = urlsplit(text)
        _ = parts.port  # raises ValueError for a bad port
        hostname = parts.hostname
    except ValueError:
        return "the URL is malformed"
    if "@" in parts.netloc:
        return "the URL carries a user name or password"
    return _host_problem(hostname or "")


def _looks_like_url(value: str) -> bool:
    stripped = value.strip()
    return bool(re.match(r"(?i)https?:", stripped)) and not any(c.isspace() for c in stripped)


# --------------------------------------------------------------------------------------------
# Recipients


_EMAIL = re.compile(r"[^\s<>()\[\],;:\"']+@[^\s<>()\[\],;:\"']+")
_URL_IN_TEXT = re.compile(r"(?i)https?://\S+")


def _address(value: str) -> str:
    """The address inside "Name <a@b>" (or the whole string), case-folded for comparison."""
    value = value.strip()
    match = re.search(r"<([^<>]*)>\s*$", value)
    if match:
        value = match.group(1).strip()
    return value.casefold()


def _recipients(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        for part in re.split(r"[,;]", value):
            if part.strip():
                yield part.strip()
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _recipients(item)
    elif isinstance(value, dict):
        for key in ("email", "address", "mail"):
            if isinstance(value.get(key), str):
                yield from _recipients(value[key])
                return
        for item in value.values():
            if isinstance(item, str):
                yield from _recipients(item)


# --------------------------------------------------------------------------------------------
# Walking and validating arguments


def _items(value: Any, depth: int = 0) -> Iterator[tuple[str, Any]]:
    """(name, value) for every dict entry at any depth."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from _items(item, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _items(item, depth + 1)


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item, depth + 1)


def _json_problem(value: Any, depth: int = 0) -> str | None:
    if depth > _MAX_DEPTH:
        return "the arguments are nested too deeply"
    if value is None or isinstance(value, (bool, int, str)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else "the arguments contain NaN or infinity"
    if isinstance(value, (list, tuple)):
        for item in value:
            problem = _json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        names = set()
        for key, item in value.items():
            if not isinstance(key, str):
                return "an argument name is not text"
            normal = unicodedata.normalize("NFC", key)
            if normal in names:
                return f"two arguments are both named {_quote(normal)}"
            names.add(normal)
            problem = _json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    return f"an argument has the unsupported type {type(value).__name__}"


def _shape_problem(arguments: Any, rule: ToolRule) -> str | None:
    """Fail closed on anything that is not a plain JSON object of the expected shape."""
    if not isinstance(arguments, dict):
        return "the arguments are not an object"
    problem = _json_problem(arguments)
    if problem:
        return problem
    for name in sorted(rule.required):
        if arguments.get(name) is None:
            return f"the required argument {_quote(name)} is missing"
    for name, value in _items(arguments):
        if value is None:
            continue
        if name in rule.path_arguments or name in URL_ARGUMENT_NAMES:
            if isinstance(value, str):
                continue
            plural = name in _PLURAL_ARGUMENT_NAMES
            if (
                plural
                and isinstance(value, (list, tuple))
                and all(isinstance(v, (str, dict)) for v in value)
            ):
                continue  # dicts (an attachment object) are walked on their own
            what = "text or a list" if plural else "text"
            return f"the argument {_quote(name)} must be {what}"
        if name in RECIPIENT_ARGUMENT_NAMES and not isinstance(value, (str, list, tuple, dict)):
            return f"the argument {_quote(name)} must be an address or a list of addresses"
    return None


# --------------------------------------------------------------------------------------------
# The decision


class _Tally:
    """Collects reasons; the decision is the maximum of everything added (it only goes up)."""

    def __init__(self) -> None:
        self.decision = Decision.ALLOW
        self.reasons: list[str] = []

    def add(self, decision: Decision, reason: str) -> None:
        self.decision = max(self.decision, decision)
        if reason not in self.reasons:
            self.reasons.append(reason)


_LABEL_REASON = {
    Label.OUTBOUND: "{tool} sends data off this computer",
    Label.DESTRUCTIVE: "{tool} deletes or overwrites something",
}


def decide(
    tool_name: str,
    arguments: Any,
    context: ContextState,
    rules: Mapping[str, ToolRule] = DEFAULT_RULES,
    standing: Sequence[StandingPermission] | None = None,
) -> Verdict:
    """ALLOW, CONFIRM or DENY for one proposed call. Never raises: any error denies."""
    provenance = context.provenance
    try:
        return _decide(tool_name, arguments, context, rules, standing or ())
    except Exception as error:  # fail closed: a bug in the gate must not let a call through
        reason = f"the policy check failed ({type(error).__name__})"
        return Verdict(Decision.DENY, [reason], [], provenance, [], None)


def _decide(
    tool_name: Any,
    arguments: Any,
    context: ContextState,
    rules: Mapping[str, ToolRule],
    standing: Sequence[StandingPermission],
) -> Verdict:
    provenance = context.provenance
    rule = rules.get(tool_name) if isinstance(tool_name, str) else None
    if rule is None:
        reason = f"unknown tool {_quote(tool_name)}"
        return Verdict(Decision.DENY, [reason], [], provenance, [], None)
    problem = _shape_problem(arguments, rule)
    if problem:
        return Verdict(Decision.DENY, [problem], [], provenance, [], None)

    tally = _Tally()
    label = rule.effective_label(arguments)
    # Approval-flag values are scanned on their own: joined with the real arguments they
    # could only ever add noise, and a flag must change nothing.
    flags = {k: v for k, v in arguments.items() if _flag_name(str(k)) in APPROVAL_FLAG_NAMES}
    rest = {k: v for k, v in arguments.items() if k not in flags}
    findings = scan(rest) + (scan(flags) if flags else [])
    if label == Label.OUTBOUND and context.private_tokens:
        # Whatever the detectors say: a distinctive piece of what the private stores said
        # (folded for case, separators and encodings) is about to leave.
        findings += _private_findings(arguments, context)

    # Hard limits: DENY.
    for name, value in _items(arguments):
        if name in rule.path_arguments and value is not None:
            paths = [value] if isinstance(value, str) else []
            if isinstance(value, (list, tuple)):
                paths = [v for v in value if isinstance(v, str)]
            for path in paths:
                path_problem = check_path(path, context.allowed_folders)
                if path_problem:
                    tally.add(Decision.DENY, path_problem)
    if rule.name == "write_file" and isinstance(arguments.get("path"), str):
        suffix = os.path.splitext(arguments["path"].rstrip(". "))[1].lower()
        if suffix in EXECUTABLE_SUFFIXES:
            reason = f"writing {suffix} files (programs and scripts) is not allowed"
            tally.add(Decision.DENY, reason)
        elif tally.decision < Decision.DENY:
            twin = confusable_neighbour(arguments["path"], context.allowed_folders)
            if twin:
                tally.add(Decision.CONFIRM, twin)
    urls: list[str] = []
    for name, value in _items(arguments):
        if name in URL_ARGUMENT_NAMES and value is not None:
            for url in (value,) if isinstance(value, str) else _strings(value):
                urls.append(url)
                url_problem = check_url(url)
                if url_problem:
                    tally.add(Decision.DENY, url_problem)
    for text in _strings(arguments):
        if _looks_like_url(text) and text not in urls:
            urls.append(text)
            url_problem = check_url(text)
            if url_problem:
                tally.add(Decision.DENY, url_problem)

    # Escalations: CONFIRM.
    if label in _LABEL_REASON:
        tally.add(Decision.CONFIRM, _LABEL_REASON[label].format(tool=rule.name))
    for finding in findings:
        what = finding.kind.replace("_", " ")
        tally.add(Decision.CONFIRM, f"{what} detected in {finding.path}: {finding.excerpt}")
    if context.tainted and label != Label.READ:
        tally.add(Decision.CONFIRM, f"untrusted content is in the conversation ({provenance})")
    if context.read_private and label == Label.OUTBOUND:
        read = ", ".join(PRIVATE_KINDS.get(k, k) for k in context.private_sources)
        tally.add(Decision.CONFIRM, f"this conversation has read {read}")
    typed = context.typed_addresses()
    known = {_address(r) for r in context.known_recipients}
    recipients: list[str] = []
    untyped: list[str] = []
    for name, value in _items(arguments):
        if name in RECIPIENT_ARGUMENT_NAMES:
            for recipient in _recipients(value):
                recipients.append(recipient)
                if _address(recipient) not in typed and recipient not in untyped:
                    untyped.append(recipient)
                    reason = f"you did not type the recipient {_quote(recipient)}"
                    tally.add(Decision.CONFIRM, reason)
    typed_urls = context.typed_urls()
    for url in urls:
        if url.strip() not in typed_urls and url not in untyped:
            untyped.append(url)
    unexpected = [
        name
        for name in arguments
        if rule.parameters is not None
        and name not in rule.parameters
        and _flag_name(name) not in APPROVAL_FLAG_NAMES
    ]
    for name in unexpected:
        tally.add(Decision.CONFIRM, f"{rule.name} has no argument {_quote(name)}")

    if tally.decision == Decision.ALLOW:
        if label == Label.READ:
            tally.add(Decision.ALLOW, f"{rule.name} only reads")
        else:
            tally.add(Decision.ALLOW, f"{rule.name} changes only local data in a clean context")

    # A standing permission can turn CONFIRM into ALLOW, within its fence.
    if tally.decision == Decision.CONFIRM and standing:
        familiar = typed | known
        grant = _standing_grant(
            rule, label, context, findings, unexpected, recipients, urls, standing, familiar
        )
        if grant:
            tally.decision = Decision.ALLOW
            tally.reasons.append(grant[0])
            return Verdict(
                tally.decision, tally.reasons, findings, provenance, untyped, label, grant[1]
            )

    return Verdict(tally.decision, tally.reasons, findings, provenance, untyped, label)


def _host_of(url: str) -> str | None:
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    return unicodedata.normalize("NFKC", host).casefold().rstrip(".") if host else None


def host_grant_problem(url: str, hosts: set[str] | frozenset[str]) -> str | None:
    """Why a host grant for `hosts` does not cover `url`, or None if it does: the exact host
    (no subdomain), http or https on the default port, no credentials, no query string.
    Used by the gate and again, by the web tool, for every redirect of a granted call."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return "the address is malformed"
    host = _host_of(url)
    if parts.scheme.lower() not in ("http", "https") or host is None:
        return "the address is not an http or https page"
    if host not in {h.casefold().rstrip(".") for h in hosts}:
        return f"{_quote(host)} is not the host the permission is for"
    if port is not None and port != {"http": 80, "https": 443}[parts.scheme.lower()]:
        return "the address uses another port"
    if parts.username is not None or parts.password is not None:
        return "the address carries a user name or password"
    if parts.query:
        return "the address has a query string (data sent to the site)"
    return None


def _private_findings(arguments: Mapping[str, Any], context: ContextState) -> list[Finding]:
    """A finding for each argument that carries a distinctive token read from a private
    store in this conversation. The excerpt names the stores, never the token."""
    found: list[Finding] = []
    stores = ", ".join(PRIVATE_KINDS.get(k, k) for k in context.private_sources) or "a store"
    for path, text in _leaf_strings(arguments):
        how = shared_private_token(text, context.private_tokens)
        if how is not None:
            excerpt = f"text read from {stores}{how}"
            found.append(Finding(PRIVATE_DATA, path, excerpt))
    return found


def _leaf_strings(value: Any, path: str = "", depth: int = 0) -> Iterator[tuple[str, str]]:
    """(path, text) for every string value and dict key in the arguments."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield path or "<value>", value
    elif isinstance(value, dict):
        for index, (key, item) in enumerate(value.items()):
            plain = isinstance(key, str) and re.fullmatch(r"[A-Za-z_]\w{0,39}", key)
            name = key if plain else f"<name {index}>"
            child = f"{path}.{name}" if path else name
            if isinstance(key, str):
                yield f"{child} (name)", key
            yield from _leaf_strings(item, child, depth + 1)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _leaf_strings(item, f"{path}[{index}]", depth + 1)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**40:
        yield path or "<value>", str(value)


def _standing_grant(
    rule: ToolRule,
    label: Label,
    context: ContextState,
    findings: Sequence[Finding],
    unexpected: Sequence[str],
    recipients: Sequence[str],
    urls: Sequence[str],
    standing: Sequence[StandingPermission],
    familiar: set[str],
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
    if label == Label.DESTRUCTIVE or findings or context.tainted or unexpected:
        return None
    if context.read_private:
        return None
    if any(_address(r) not in familiar for r in recipients):
        return None
    grants = [p for p in standing if p.tool == rule.name]
    if not grants or rule.standing == "never":
        return None
    if rule.standing == "tool":
        if any(p.scope is None for p in grants) and not recipients:
            return f"allowed by your standing permission for {rule.name}", ()
        return None
    if rule.standing == "host":
        hosts = {p.scope.casefold().rstrip(".") for p in grants if p.scope}
        if not urls or recipients:
            return None
        for url in urls:
            if host_grant_problem(url, hosts) is not None:
                return None
        covered = tuple(sorted({h for url in urls if (h := _host_of(url))}))
        return f"allowed by your standing permission for {rule.name} on {', '.join(covered)}", (
            covered
        )
    if rule.standing == "recipient":
        scopes = {_address(p.scope) for p in grants if p.scope}
        if not recipients or urls:
            return None
        if all(_address(r) in scopes for r in recipients):
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
    rules: Mapping[str, ToolRule] = DEFAULT_RULES,
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
        return StandingPermission(tool_name), text
    if rule.standing == "host":
        url = arguments.get("url")
        host = _host_of(url) if isinstance(url, str) else None
        if not host or not isinstance(url, str) or host_grant_problem(url, {host}) is not None:
            return None  # a query string or another port would never be covered: no offer
        text = (
            f"Always allow {tool_name} on {host}\nCovers pages on exactly {host}: not its "
            "subdomains, not other ports, no addresses with a ?query part, and no redirect to "
            f"another address. {_ALWAYS_SCOPE}"
        )
        return StandingPermission(tool_name, host), text
    recipients = [r for key in ("to", "cc", "attendees") for r in _recipients(arguments.get(key))]
    if len(recipients) != 1:
        return None
    address = _address(recipients[0])
    text = f"Always allow {tool_name} to {address}\nOnly to {address} alone. {_ALWAYS_SCOPE}"
    return StandingPermission(tool_name, address), text


# --------------------------------------------------------------------------------------------
# Approval binding


def _canonical(value: Any) -> Any:
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError("argument names must be text")
            name = unicodedata.normalize("NFC", key)
            if name in out:
                raise ValueError(f"two arguments are both named {_quote(name)}")
            out[name] = _canonical(item)
        return out
    if isinstance(value, (list, tuple)):
        return [_canonical(item) for item in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    raise TypeError(f"unsupported argument type {type(value).__name__}")


def canonical_arguments(arguments: Mapping[str, Any]) -> str:
    """Stable JSON for hashing and display: sorted keys, no spaces, NFC strings, no NaN.

    Raises TypeError or ValueError for anything that is not plain JSON.
    """
    return json.dumps(
        _canonical(dict(arguments)),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )


def argument_hash(tool: str, arguments: Mapping[str, Any]) -> str:
    """sha256 over the tool name and the canonical arguments: what the user saw, exactly."""
    if not isinstance(tool, str) or "\x00" in tool:
        raise ValueError("a tool name must be text without NUL")
    payload = unicodedata.normalize("NFC", tool) + "\x00" + canonical_arguments(arguments)
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class _Approval:
    digest: str
    expires_at: float


class ApprovalBook:
    """Single-use, expiring approval tokens bound to the hash of the approved arguments.

    Issue when the user presses Allow (for the arguments the dialog showed); the executor
    redeems with the arguments it is about to run. A token is spent by any redeem attempt,
    right or wrong, so a mismatch cannot be retried. `clock` is injectable for tests.
    """

    def __init__(
        self, ttl_seconds: float = 120.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl = ttl_seconds
        self._clock = clock
        self._pending: dict[str, _Approval] = {}
        self._lock = threading.Lock()

    def issue(self, tool: str, arguments: Mapping[str, Any]) -> str:
        digest = argument_hash(tool, arguments)
        token = secrets.token_urlsafe(32)
        with self._lock:
            now = self._clock()
            self._pending = {t: a for t, a in self._pending.items() if a.expires_at > now}
            self._pending[token] = _Approval(digest, now + self._ttl)
        return token

    def redeem(self, token: str, tool: str, arguments: Mapping[str, Any]) -> bool:
        with self._lock:
            approval = self._pending.pop(token, None) if isinstance(token, str) else None
            now = self._clock()
        if approval is None or now >= approval.expires_at:
            return False
        try:
            digest = argument_hash(tool, arguments)
        except (TypeError, ValueError):
            return False
        return hmac.compare_digest(digest, approval.digest)

    def revoke(self, token: str) -> None:
        with self._lock:
            self._pending.pop(token, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._pending)
