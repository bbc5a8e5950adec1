"""What the confirmation dialog shows for each kind of action, rendered by code from the exact
arguments that will run (never from the model's description of them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable):
        return [str(item) for item in value]
    return [str(value)]


def email_preview(arguments: dict[str, Any], untyped: Iterable[str] = ()) -> str:
    """The email as it will be sent: every recipient (marked when the user never typed it),
    the subject and the whole body."""
    flagged = {value.casefold() for value in untyped}

    def line(label: str, values: list[str]) -> str:
        marked = [f"{v}  ⚠ not typed by you" if v.casefold() in flagged else v for v in values]
        return f"{label}: " + ", ".join(marked) if values else ""

    header = [
        line("To", _as_list(arguments.get("to"))),
        line("Cc", _as_list(arguments.get("cc"))),
        f"Subject: {arguments.get('subject', '')}",
    ]
    return "\n".join(h for h in header if h) + "\n\n" + str(arguments.get("body", ""))


def reply_preview(arguments: dict[str, Any]) -> str:
    return f"Reply to message {arguments.get('email_id')}:\n\n{arguments.get('body', '')}"


def event_preview(arguments: dict[str, Any], action: str = "Create event") -> str:
    """An event card: title, time, place, description, and who will get an invitation."""
    lines = [f"{action}: {arguments.get('title', arguments.get('event_id', ''))}"]
    if arguments.get("start") or arguments.get("end"):
        lines.append(f"When: {arguments.get('start', '?')} → {arguments.get('end', '?')}")
    if arguments.get("location"):
        lines.append(f"Where: {arguments['location']}")
    attendees = _as_list(arguments.get("attendees"))
    if attendees:
        lines.append("Invitations will be sent to: " + ", ".join(attendees))
    if arguments.get("description"):
        lines.append("")
        lines.append(str(arguments["description"]))
    return "\n".join(lines)
