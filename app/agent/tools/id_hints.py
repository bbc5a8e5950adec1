"""A targeted repair hint when the model puts a name where an id belongs.

Small models skip the lookup: "reply to Priya" becomes `reply_email(email_id="Priya")`, "move
the dentist" `update_event(event_id="dentist")`. The plain error ("not an email id; search
first") costs a step the model often gets wrong; the hint instead names the emails or events
that match those words, each with its id, so the next step only has to copy one. Nothing is
chosen for the model: the call still fails and the next one passes the gate like any other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from connectors.folding import fold

# Words that say what kind of thing is meant, not which one.
_GENERIC = frozenset(
    re.findall(
        r"\w+",
        "the her his their our your from about with and for this that email mail message "
        "reply event appointment meeting calendar latest last newest new one",
    )
)
MAX_CANDIDATES = 5


def search_words(text: str) -> list[str]:
    """The words of a would-be id that can pick an item out ("the email from Priya": Priya),
    as written but for case: the mail server searches with them, and a server that does not
    fold accents finds "Zoë" only when asked for "zoë"."""
    words = re.findall(r"[^\W_]{3,}", text.casefold())
    return list(dict.fromkeys(w for w in words if w not in _GENERIC))


def matching_emails(text: str, search: Callable[[str], Iterable[Any]]) -> list[dict[str, Any]]:
    """Emails found by each word of `text` (sender, subject or body), newest first per word."""
    found: dict[str, dict[str, Any]] = {}
    for word in search_words(text)[:3]:
        for item in search(word):
            found.setdefault(
                item.email_id,
                {"email_id": item.email_id, "from": item.sender, "subject": item.subject},
            )
    return list(found.values())[:MAX_CANDIDATES]


def matching_events(text: str, events: Iterable[Any]) -> list[dict[str, Any]]:
    """The events whose titles share the most words with `text` (none when none shares any)."""
    return matching_titles(text, events, "event_id", "start")


def matching_titles(
    text: str, items: Iterable[Any], id_name: str, when_name: str
) -> list[dict[str, Any]]:
    """The items (events, tasks) whose titles share the most words with `text`, each as its
    id, title and time (none when no title shares a word). Words and titles are compared
    without case or accents ("lunch with Zoe" finds "Lunch with Zoë")."""
    words = [fold(w) for w in search_words(text)]
    scored = []
    for item in items:
        title = fold(str(item.title))
        score = sum(1 for w in words if w in title)
        if score:
            scored.append((score, item))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    found = []
    for score, item in scored:
        if score == best:
            when = getattr(item, when_name)  # a task may have no due date
            shown = {} if when is None else {when_name: _iso(when)}
            found.append({id_name: getattr(item, id_name), "title": item.title, **shown})
    return found[:MAX_CANDIDATES]


def not_an_id_hint(
    tool: str, argument: str, wrong: str, candidates: Sequence[Mapping[str, Any]]
) -> str:
    """The error text: what was wrong and the ids that match, each id first and alone (a
    small model copies a whole line), and with one match the exact value to use."""
    ids = [str(candidate[argument]) for candidate in candidates]
    lines = [f"{wrong[:80]!r} is not an {argument}. These match it:"]
    for candidate in candidates:
        about = ", ".join(f"{k} {v}" for k, v in candidate.items() if k != argument)
        lines.append(f"- {candidate[argument]} ({about})")
    if len(ids) == 1:
        lines.append(f"Call {tool} again with {argument} {ids[0]}")
    else:
        lines.append(f"Call {tool} again with the {argument} of the one meant.")
    return "\n".join(lines)


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat(timespec="minutes")
    return value.isoformat() if isinstance(value, date) else str(value)
