"""What the confirmation dialog shows for each kind of action, rendered by code from the exact
arguments that will run (never from the model's description of them)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from email.utils import getaddresses
from typing import Any
from urllib.parse import urlsplit

from connectors.hostnames import HostNameError, ascii_host, display_host, is_international


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable):
        return [str(item) for item in value]
    return [str(value)]


def email_preview(arguments: dict[str, Any], untyped: Iterable[str] = (), sender: str = "") -> str:
    """The email as it will be sent: the account it goes out from, every recipient (marked
    when the user never typed it), the subject and the whole body."""
    flagged = {value.casefold() for value in untyped}

    def line(label: str, values: list[str]) -> str:
        marked = [
            recipient_shown(v) + ("  ⚠ not typed by you" if v.casefold() in flagged else "")
            for v in values
        ]
        return f"{label}: " + ", ".join(marked) if values else ""

    header = [
        f"From: {sender}" if sender else "",
        line("To", _as_list(arguments.get("to"))),
        line("Cc", _as_list(arguments.get("cc"))),
        f"Subject: {arguments.get('subject', '')}",
    ]
    return "\n".join(h for h in header if h) + "\n\n" + str(arguments.get("body", ""))


def host_forms(host: str) -> tuple[str, str, str | None]:
    """(shown, used, problem) for an international host: ``shown == used`` when the name
    mixes alphabets; ``problem`` says why no server can have the name."""
    try:
        return display_host(host), ascii_host(host), None
    except HostNameError as exc:
        return host, host, str(exc)


def recipient_shown(value: str) -> str:
    """A recipient with an international domain as it will be used: the readable name and,
    beside it, the ASCII form the mail server gets (``x@faß.de (sent to x@xn--fa-hia.de)``);
    a name that mixes alphabets shows only the ASCII form, so it cannot pass for another."""
    parsed = getaddresses([value])
    if len(parsed) != 1 or parsed[0][1].count("@") != 1:
        return value
    name, bare = parsed[0]
    local, domain = bare.split("@")
    if not is_international(domain):
        return value
    shown, used, problem = host_forms(domain)
    if problem is not None:
        return f"{value!a}  ⚠ not a valid address, it will not be sent: {problem}"
    named = f"{name} <{local}@{shown}>" if name else f"{local}@{shown}"
    if shown == used:
        return f"{named}  ⚠ the name mixes alphabets; it was written {bare!a}"
    return f"{named} (sent to {local}@{used})"


def webpage_preview(arguments: dict[str, Any]) -> str:
    """The address as it will be fetched: an international host name is shown readable with
    the ASCII name the request uses beside it, or only that when it mixes alphabets."""
    url = str(arguments.get("url"))
    text = f"Fetch this address from the internet:\n{url}"
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return text
    if not is_international(host):
        return text
    shown, used, problem = host_forms(host)
    if problem is not None:
        return f"{text}\n⚠ The host name is not valid, nothing will be fetched: {problem}"
    if shown == used:
        return f"{text}\n⚠ The host name mixes alphabets; the site that is asked is {used}"
    return f"{text}\nThe site that is asked: {shown} ({used})"


def reply_preview(arguments: dict[str, Any], sender: str = "") -> str:
    source = f"From: {sender}\n" if sender else ""
    return f"{source}Reply to message {arguments.get('email_id')}:\n\n{arguments.get('body', '')}"


def sender_shown(email: str, display_name: str = "") -> str:
    """The account a mail goes out from, as its From: line reads: "Sam <sam@example.org>"."""
    return f"{display_name} <{email}>" if display_name else email


def is_plain_date(text: str) -> bool:
    """Whether an event's start or end is a date without a time ("2026-12-10"): with both so,
    the event is whole days."""
    return bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()))


def event_preview(arguments: dict[str, Any], action: str = "Create event") -> str:
    """An event card: title, time, place, description, and who will get an invitation."""
    lines = [f"{action}: {arguments.get('title', arguments.get('event_id', ''))}"]
    if arguments.get("start") or arguments.get("end"):
        start, end = str(arguments.get("start", "?")), str(arguments.get("end", "?"))
        whole = is_plain_date(start) and is_plain_date(end)
        lines.append(f"When: {start} → {end}" + (" (all day)" if whole else ""))
    if arguments.get("location"):
        lines.append(f"Where: {arguments['location']}")
    attendees = _as_list(arguments.get("attendees"))
    if attendees:
        lines.append("Invitations will be sent to: " + ", ".join(attendees))
    if arguments.get("description"):
        lines.append("")
        lines.append(str(arguments["description"]))
    return "\n".join(lines)


def task_preview(arguments: dict[str, Any], action: str = "Add task") -> str:
    """A task card: title (or id), due date, list and notes, as they will be written."""
    lines = [f"{action}: {arguments.get('title', arguments.get('task_id', ''))}"]
    if "task_id" in arguments and "title" in arguments:
        lines.append(f"Task: {arguments['task_id']}")
    if "due" in arguments:
        lines.append(f"Due: {arguments['due'] or '(no due date)'}")
    if arguments.get("list"):
        lines.append(f"List: {arguments['list']}")
    if arguments.get("notes"):
        lines += ["", str(arguments["notes"])]
    return "\n".join(lines)


def contact_preview(arguments: dict[str, Any], action: str = "Add contact") -> str:
    """A contact card: name (or id), e-mail addresses, phone numbers, organisation."""
    lines = [f"{action}: {arguments.get('name', arguments.get('contact_id', ''))}"]
    if "contact_id" in arguments and "name" in arguments:
        lines.append(f"Contact: {arguments['contact_id']}")
    for key, label in (("emails", "Email"), ("phones", "Phone")):
        if key in arguments:
            lines.append(f"{label}: " + (", ".join(_as_list(arguments[key])) or "(none)"))
    if "organisation" in arguments:
        lines.append(f"Organisation: {arguments['organisation'] or '(none)'}")
    return "\n".join(lines)


def _shown(value: Any) -> str:
    if value is None or value == "" or value == [] or value == ():
        return "(none)"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def change_preview(
    action: str,
    record: str,
    rows: Iterable[tuple[str, Any, Any]],
    problem: str | None = None,
) -> str:
    """A change to something the user already has, as before → after for each field the
    call replaces (rows of label, current value, new value), so the dialog shows what is
    lost. `problem` says why the current values could not be read (the change still shows)."""
    lines = [f"{action}: {record}"]
    if problem:
        lines.append(f"⚠ The current values could not be read: {problem}")
    for label, before, after in rows:
        if problem:
            lines.append(f"{label}: → {_shown(after)}")
        elif _shown(before) == _shown(after):
            lines.append(f"{label}: {_shown(after)} (unchanged)")
        else:
            lines.append(f"{label}: {_shown(before)} → {_shown(after)}")
    return "\n".join(lines)
