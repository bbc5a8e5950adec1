"""Labels that travel with data: where a value the model sees came from.

The CaMeL / FIDES idea in a small form. Every tool result, and everything the app stores for
later (memories, reminders, conversations), carries two sets of labels:

- `untrusted`: other people's text was involved (an email, a web page, a file, an invitation,
  a forwarded message pasted into the chat). Each entry says where from, for the dialog.
- `private`: the user's private stores were read (memories, reminders, mail, calendar,
  files). Each entry names the store.

Text the user typed themselves carries neither. Labels only ever join (a union): a memory
written in a conversation that had read an email is untrusted forever after, whoever recalls
it, and nothing the model does can remove a label.

`writing_labels()` is how a tool that stores something learns the labels of the conversation
that asked for it: the agent loop sets them around each tool call (`running_call`). A tool
run outside a loop gets `UNKNOWN`, the safe default (untrusted).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

__all__ = [
    "LEGACY_SOURCE",
    "PRIVATE_KINDS",
    "UNKNOWN",
    "Labels",
    "covering_hosts",
    "pasted_message_start",
    "running_call",
    "writing_labels",
]

# The private stores, as the dialog names them.
PRIVATE_KINDS = {
    "memories": "your memories",
    "reminders": "your reminders",
    "mail": "your mail",
    "calendar": "your calendar",
    "files": "your files",
    "tasks": "your tasks",
    "contacts": "your contacts",
}

# Rows stored before labels existed: nobody knows what conversation wrote them, so they count
# as untrusted (the safe default; recalling one makes later changes in that conversation ask).
LEGACY_SOURCE = "something saved before Hearth kept track of where saved text came from"
_MAX_ENTRIES = 32  # a label set stays small enough to store with every row
_MAX_ENTRY_CHARS = 300


def _merge(first: Iterable[str], second: Iterable[str]) -> tuple[str, ...]:
    merged = list(dict.fromkeys([*first, *second]))
    if len(merged) > _MAX_ENTRIES:  # keep the first ones, and say that there were more
        merged = [*merged[: _MAX_ENTRIES - 1], "more sources (list shortened)"]
    return tuple(merged)


@dataclass(frozen=True)
class Labels:
    """The labels of one value: where untrusted text came from, which private stores."""

    untrusted: tuple[str, ...] = ()
    private: tuple[str, ...] = ()

    @property
    def tainted(self) -> bool:
        return bool(self.untrusted)

    @property
    def clean(self) -> bool:
        return not self.untrusted and not self.private

    def join(self, other: Labels) -> Labels:
        """Both sets of labels: the only way labels combine (they never go away)."""
        return Labels(_merge(self.untrusted, other.untrusted), _merge(self.private, other.private))

    def covers(self, other: Labels) -> bool:
        """True when every label of `other` is here too."""
        return set(other.untrusted) <= set(self.untrusted) and set(other.private) <= set(
            self.private
        )

    def to_json(self) -> str:
        return json.dumps(
            {"untrusted": list(self.untrusted), "private": list(self.private)},
            ensure_ascii=False,
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str | None) -> Labels:
        """Read stored labels. Missing (NULL) or unreadable labels are `UNKNOWN`: a row we
        cannot vouch for is treated as untrusted, never as clean."""
        if text is None:
            return UNKNOWN
        try:
            data: Any = json.loads(text)
        except (TypeError, ValueError):
            return UNKNOWN
        if not isinstance(data, dict):
            return UNKNOWN
        untrusted, private = data.get("untrusted", []), data.get("private", [])
        if not isinstance(untrusted, list) or not isinstance(private, list):
            return UNKNOWN
        return cls(
            _merge((str(s)[:_MAX_ENTRY_CHARS] for s in untrusted if s), ()),
            _merge((str(s)[:_MAX_ENTRY_CHARS] for s in private if s), ()),
        )


UNKNOWN = Labels(untrusted=(LEGACY_SOURCE,))


# -- what the loop tells the tool it is running -------------------------------------------------

_writing: ContextVar[Labels | None] = ContextVar("hearth_writing_labels", default=None)
_covering: ContextVar[tuple[str, ...]] = ContextVar("hearth_covering_hosts", default=())


@contextmanager
def running_call(labels: Labels, covering: tuple[str, ...] = ()) -> Iterator[None]:
    """Run a tool with the labels of the conversation that asked for it, and (for a call a
    standing host grant let through without a dialog) the hosts that grant covers."""
    labels_token = _writing.set(labels)
    host_token = _covering.set(tuple(covering))
    try:
        yield
    finally:
        _covering.reset(host_token)
        _writing.reset(labels_token)


def writing_labels() -> Labels:
    """The labels to store with whatever the running tool saves (UNKNOWN outside a loop)."""
    labels = _writing.get()
    return UNKNOWN if labels is None else labels


def covering_hosts() -> tuple[str, ...]:
    """The hosts a standing grant let this call reach without asking, or () (the user saw
    the call, or no host grant was involved). A redirect elsewhere is not covered."""
    return _covering.get()


# -- text the user pasted -------------------------------------------------------------------------

_HEADER_NAMES = (
    "from|to|cc|bcc|sent|date|subject|reply-to|"  # English (and what most clients write)
    "de|à|a|para|objet|envoyé|asunto|enviado|fecha|"  # French, Spanish, Portuguese
    "von|an|betreff|gesendet|datum|"  # German
    "da|oggetto|inviato|van|aan|onderwerp|verzonden"  # Italian, Dutch
)
_HEADER_LINE = re.compile(rf"\s{{0,8}}(?:\*\*)?(?i:{_HEADER_NAMES})(?:\*\*)?\s{{0,3}}:\s*\S")
_SENDER_LINE = re.compile(r"\s{0,8}(?:\*\*)?(?i:from|de|von|da|van)(?:\*\*)?\s{0,3}:\s*\S")
_SEPARATOR_LINE = re.compile(
    r"\s{0,8}[-_=*]{2,}\s{0,4}(?i:forwarded message|original message|message transféré|"
    r"message d'origine|nachricht|weitergeleitete nachricht|ursprüngliche nachricht|"
    r"mensaje reenviado|mensaje original|messaggio inoltrato|messaggio originale|"
    r"doorgestuurd bericht|oorspronkelijk bericht)\s{0,4}[-_=*]{2,}\s*"
    r"|\s{0,8}(?i:begin forwarded message|début du message réexpédié)\s{0,3}:\s*"
)
_WROTE_LINE = re.compile(
    r"\s{0,8}(?i:on|le|am|el|il|op)\s.{3,200}\s(?i:wrote|a écrit|schrieb|escribió|ha scritto|"
    r"schreef)\s{0,3}:\s*"
)
_QUOTED_LINE = re.compile(r"\s{0,8}>")


def pasted_message_start(text: str) -> int | None:
    """Where a pasted message (a forwarded or quoted email) starts in what the user sent, or
    None. Signs: a "Forwarded message" / "Original Message" line, an "On ... wrote:" line,
    two or more header lines together one of which names a sender, two or more quoted lines
    ("> ...") together. Looks at each line once (linear time)."""
    offset = 0
    headers: list[tuple[int, bool]] = []  # (offset, names a sender) of the current run
    quoted: list[int] = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if _SEPARATOR_LINE.fullmatch(body) or _WROTE_LINE.fullmatch(body[:400]):
            return offset
        if _HEADER_LINE.match(body):
            headers.append((offset, bool(_SENDER_LINE.match(body))))
            if len(headers) >= 2 and any(sender for _, sender in headers):
                return headers[0][0]
        else:
            headers = []
        if _QUOTED_LINE.match(body):
            quoted.append(offset)
            if len(quoted) >= 2:
                return quoted[0]
        elif body.strip():
            quoted = []
        offset += len(line)
    return None
