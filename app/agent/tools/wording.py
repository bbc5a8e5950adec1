"""Tool calls in people's words: one plain title per call, field labels and gate reasons.

The confirmation dialog (and later the chat's tool cards) must say "Replace the text of
notes.txt", not `write_file(path=…)`. The wording lives here, once, pure and rendered by code
from the arguments that will run; nothing here comes from the model's prose. Argument values
are shortened and stripped of control and formatting characters, so a value cannot break a
line or hide text in a title. A tool without wording (a tool server's, or a new built-in one)
gets a generic title naming it; `tests/agent/test_wording.py` notices a built-in one.
"""

from __future__ import annotations

import contextlib
import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from datetime import datetime
from email.utils import getaddresses
from typing import Any
from urllib.parse import urlsplit

from app.agent.tools.previews import host_forms
from connectors.hostnames import is_international

__all__ = [
    "action_phrase",
    "describe_call",
    "field_label",
    "has_field_label",
    "has_wording",
    "offer_in_words",
    "reason_in_words",
    "shown",
    "when",
]

_HIDDEN = ("Cc", "Cf", "Zl", "Zp")  # controls, invisible formatting, line breaks
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def shown(value: Any, limit: int = 60) -> str:
    """A value as one short, safe line: control and invisible formatting characters (line
    breaks, right-to-left marks) become spaces, runs of spaces one, long values end in "…"."""
    text = value if isinstance(value, str) else str(value)
    text = "".join(" " if unicodedata.category(ch) in _HIDDEN else ch for ch in text)
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _quoted(value: Any, limit: int = 60) -> str:
    return f"“{shown(value, limit)}”"


def _file_name(path: Any) -> str:
    """The last part of a path: the title names the file, the preview its full folder."""
    text = shown(path, 500).rstrip("/")
    return shown(text.rsplit("/", 1)[-1] or text)


def when(value: Any) -> str:
    """An ISO 8601 time as people write it ("Tue 1 Dec 2026, 09:30"); anything else as given."""
    text = str(value).strip()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return shown(value, 40)
    day = f"{_DAYS[moment.weekday()]} {moment.day} {_MONTHS[moment.month - 1]} {moment.year}"
    return day if len(text) == len("2026-12-01") else f"{day}, {moment:%H:%M}"


def _person(value: Any) -> str:
    """One recipient; an international domain in the form that cannot pass for another
    (its ASCII name when it mixes alphabets, escaped when no server can have it)."""
    text = str(value)
    parsed = getaddresses([text])
    if len(parsed) != 1 or parsed[0][1].count("@") != 1:
        return shown(text)
    local, domain = parsed[0][1].split("@")
    if not is_international(domain):
        return shown(text)
    readable, used, problem = host_forms(domain)
    if problem is not None:
        return shown(ascii(parsed[0][1]))
    return shown(f"{local}@{used if readable == used else readable}")


def _people(value: Any) -> str:
    """Recipients as a phrase: one named, or the first and how many others."""
    if isinstance(value, str):
        value = [value]
    names = [_person(v) for v in value or () if str(v).strip()]
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    others = len(names) - 1
    return f"{names[0]} and {others} other{'s' if others > 1 else ''}"


def _host(url: Any) -> str:
    """The host a fetch goes to; an international name in the form that cannot deceive."""
    try:
        host = urlsplit(str(url).strip()).hostname or ""
    except ValueError:
        host = ""
    if not host:
        return _quoted(url)
    if is_international(host):
        readable, used, problem = host_forms(host)
        return shown(used if problem is None and readable == used else readable)
    return shown(host)


def _write(a: Mapping[str, Any]) -> str:
    overwrite = a.get("overwrite")
    name = _file_name(a.get("path", ""))
    if overwrite is None or overwrite is False:
        return f"Create the file {name}"
    return f"Replace the text of {name}"


def _search_files(a: Mapping[str, Any]) -> str:
    where = f" in the folder {_quoted(a['folder'])}" if a.get("folder") else ""
    return f"Search your files for {_quoted(a.get('query', ''))}{where}"


def _list_folder(a: Mapping[str, Any]) -> str:
    path = str(a.get("path") or "").strip()
    return f"List the folder {_quoted(path)}" if path else "List your first allowed folder"


def _new_event(a: Mapping[str, Any]) -> str:
    title = f"Add the event {_quoted(a.get('title', ''))} on {when(a.get('start', ''))}"
    attendees = a.get("attendees")
    return f"{title} and invite {_people(attendees)}" if attendees else title


def _list_emails(a: Mapping[str, Any]) -> str:
    kind = "unread emails" if a.get("unread_only") is True else "emails"
    return f"List the {kind} in {_quoted(a.get('folder') or 'INBOX')}"


def _free_time(a: Mapping[str, Any]) -> str:
    span = f"between {when(a.get('start', ''))} and {when(a.get('end', ''))}"
    return f"Find {shown(a.get('duration_minutes', '?'), 8)} free minutes {span}"


def _list_tasks(a: Mapping[str, Any]) -> str:
    where = f" in {_quoted(a['list'])}" if a.get("list") else ""
    due = f" due before {when(a['due_before'])}" if a.get("due_before") else ""
    return f"List your open tasks{where}{due}"


def _add_task(a: Mapping[str, Any]) -> str:
    due = f", due {when(a['due'])}" if a.get("due") else ""
    return f"Add the task {_quoted(a.get('title', ''))}{due}"


def _open_item(a: Mapping[str, Any]) -> str:
    if a.get("url"):
        return f"Open a web page from {_host(a['url'])} in your browser"
    if a.get("path"):
        return f"Open {_file_name(a['path'])} in its usual app"
    return "Open something in another app"


def _show_folder(a: Mapping[str, Any]) -> str:
    path = str(a.get("path") or ".").strip()
    shown_path = "your first allowed folder" if path == "." else _quoted(_file_name(path))
    return f"Show {shown_path} in the file manager"


def _spending(a: Mapping[str, Any]) -> str:
    month = f" for {shown(a['month'], 10)}" if a.get("month") else ""
    return f"Add up the bank statements in {_quoted(a.get('path', '.'))}{month}"


# One title per built-in tool, from the arguments that will run.
_TITLES: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    "search_files": _search_files,
    "list_folder": _list_folder,
    "read_file": lambda a: f"Read the file {_file_name(a.get('path', ''))}",
    "write_file": _write,
    "web_search": lambda a: f"Search the web for {_quoted(a.get('query', ''))}",
    "read_webpage": lambda a: f"Fetch a web page from {_host(a.get('url', ''))}",
    "list_events": lambda a: (
        f"Look at your calendar from {when(a.get('start', ''))} to {when(a.get('end', ''))}"
    ),
    "find_free_time": _free_time,
    "create_event": _new_event,
    "update_event": lambda a: f"Change the calendar event {_quoted(a.get('event_id', ''), 40)}",
    "delete_event": lambda a: f"Delete the calendar event {_quoted(a.get('event_id', ''), 40)}",
    "list_emails": _list_emails,
    "search_emails": lambda a: f"Search your email for {_quoted(a.get('query', ''))}",
    "read_email": lambda a: f"Read the email {_quoted(a.get('email_id', ''), 40)}",
    "send_email": lambda a: f"Send an email to {_people(a.get('to'))}",
    "reply_email": lambda a: f"Reply to the email {_quoted(a.get('email_id', ''), 40)}",
    "remember": lambda a: f"Remember {_quoted(a.get('fact', ''))}",
    "recall": lambda a: f"Look up what Hearth remembers about {_quoted(a.get('query', ''))}",
    "forget": lambda a: f"Forget memory number {shown(a.get('memory_id', '?'), 12)}",
    "set_reminder": lambda a: (
        f"Remind you on {when(a.get('at', ''))}: {_quoted(a.get('text', ''))}"
    ),
    "list_reminders": lambda a: "List your reminders",
    "cancel_reminder": lambda a: f"Cancel reminder number {shown(a.get('reminder_id', '?'), 12)}",
    # The tools of issue #24 (tasks, opening, spending), merged from their own branch.
    "list_tasks": _list_tasks,
    "add_task": _add_task,
    "complete_task": lambda a: f"Mark the task {_quoted(a.get('task_id', ''), 40)} as done",
    "update_task": lambda a: f"Change the task {_quoted(a.get('task_id', ''), 40)}",
    "open_item": _open_item,
    "show_folder": _show_folder,
    "summarise_spending": _spending,
    "find_contact": lambda a: f"Look up {_quoted(a.get('query', ''))} in your contacts",
    "search_documents": lambda a: f"Search your documents for {_quoted(a.get('query', ''))}",
    "add_contact": lambda a: f"Add {_quoted(a.get('name', ''))} to your contacts",
    "update_contact": lambda a: f"Change the contact {_quoted(a.get('contact_id', ''), 40)}",
    # The tools only Undo calls (`app.agent.tools.undo_declarations`).
    "restore_event": lambda a: "Put the calendar event back as it was",
    "restore_task": lambda a: "Put the task back as it was, not done",
    "delete_task": lambda a: f"Remove the task {_quoted(a.get('task_id', ''), 40)}",
    "remove_file": lambda a: f"Remove the file {_file_name(a.get('path', ''))} Hearth created",
}

# What a tool does, as a phrase that fits "Always allow …" and the gate's reasons.
_ACTIONS: Mapping[str, str] = {
    "search_files": "searching your files",
    "list_folder": "listing a folder",
    "read_file": "reading a file",
    "write_file": "writing a file",
    "web_search": "searching the web",
    "read_webpage": "fetching web pages",
    "list_events": "looking at your calendar",
    "find_free_time": "finding free time",
    "create_event": "adding events with invitations",
    "update_event": "changing an event",
    "delete_event": "deleting an event",
    "list_emails": "listing emails",
    "search_emails": "searching your email",
    "read_email": "reading an email",
    "send_email": "sending email",
    "reply_email": "replying to an email",
    "remember": "remembering a fact",
    "recall": "looking up what Hearth remembers",
    "forget": "forgetting a memory",
    "set_reminder": "setting a reminder",
    "list_reminders": "listing your reminders",
    "cancel_reminder": "cancelling a reminder",
    "list_tasks": "listing your tasks",
    "add_task": "adding a task",
    "complete_task": "marking a task as done",
    "update_task": "changing a task",
    "open_item": "opening files and web pages in other apps",
    "show_folder": "showing folders in the file manager",
    "summarise_spending": "adding up your bank statements",
    "find_contact": "looking up your contacts",
    "search_documents": "searching your documents",
    "add_contact": "adding a contact",
    "update_contact": "changing a contact",
    "restore_event": "putting back an event",
    "restore_task": "putting back a task",
    "delete_task": "removing a task",
    "remove_file": "removing a file Hearth created",
}

# Edit fields labelled in words; an argument a tool names differently is listed by tool.
_FIELDS: Mapping[str, str] = {
    "path": "File",
    "content": "New text",
    "overwrite": "Replace if it exists",
    "query": "Search for",
    "folder": "Folder",
    "url": "Web address",
    "max_results": "At most this many results",
    "start": "Starts",
    "end": "Ends",
    "calendar": "Calendar",
    "duration_minutes": "Length in minutes",
    "title": "Title",
    "location": "Place",
    "description": "Notes",
    "attendees": "Invite",
    "event_id": "Event",
    "unread_only": "Unread only",
    "limit": "At most this many emails",
    "since": "Since",
    "email_id": "Email",
    "to": "To",
    "cc": "Copy to",
    "subject": "Subject",
    "body": "Message",
    "fact": "Fact to remember",
    "memory_id": "Memory number",
    "text": "Reminder",
    "at": "When",
    "reminder_id": "Reminder number",
    "list": "Task list",
    "due_before": "Due before",
    "due": "Due",
    "notes": "Notes",
    "task_id": "Task",
    "month": "Month",
    "name": "Name",
    "emails": "Email addresses",
    "phones": "Phone numbers",
    "organisation": "Organisation",
    "contact_id": "Contact",
}
_TOOL_FIELDS: Mapping[tuple[str, str], str] = {
    ("list_folder", "path"): "Folder",
    ("show_folder", "path"): "File or folder",
    ("summarise_spending", "path"): "Statement file or folder",
    ("restore_event", "saved"): "Put back",
    ("restore_task", "saved"): "Put back",
    ("remove_file", "content"): "Only if it still holds",
}
# Arguments whose value is for the tool, not for reading (a saved iCalendar copy): said in
# words instead.
_VALUES_IN_WORDS: Mapping[tuple[str, str], str] = {
    ("restore_event", "saved"): "the copy Hearth kept of the event before its change",
    ("restore_task", "saved"): "the copy Hearth kept of the task before it was marked done",
}


def _server_tool(name: str) -> tuple[str, str] | None:
    """(server, tool) for a tool server's tool (`server__tool`), in words."""
    server, sep, tool = name.partition("__")
    if not sep or not server or not tool:
        return None
    return shown(server.replace("_", " "), 40), shown(tool.replace("_", " "), 40)


def has_wording(name: str) -> bool:
    """True when the tool has its own title (a built-in one), not the generic fallback."""
    return name in _TITLES


def describe_call(name: str, arguments: Mapping[str, Any]) -> str:
    """The call's plain title: "Send an email to ana@example.org". Never raises: a tool
    without wording, or arguments of a shape nobody expected, get a generic title."""
    title = _TITLES.get(name)
    if title is not None:
        try:
            return title(arguments)
        except Exception:  # odd argument types: the generic title still names the tool
            pass
    server = _server_tool(name)
    if server is not None:
        return f"Use the tool “{server[1]}” of the tool server “{server[0]}”"
    return f"Use the tool “{shown(name.replace('_', ' '), 40)}”"


def action_phrase(name: str) -> str:
    """What the tool does, to fit "Always allow …": "fetching web pages"."""
    phrase = _ACTIONS.get(name)
    if phrase is not None:
        return phrase
    server = _server_tool(name)
    if server is not None:
        return f"the tool “{server[1]}” of the tool server “{server[0]}”"
    return f"the tool “{shown(name.replace('_', ' '), 40)}”"


def has_field_label(tool: str, argument: str) -> bool:
    """True when the argument has its own label in words, not the readable fallback."""
    return (tool, argument) in _TOOL_FIELDS or argument in _FIELDS


def field_label(tool: str, argument: str) -> str:
    """An argument's label in words ("File", "New text"); an unknown one readable."""
    label = _TOOL_FIELDS.get((tool, argument)) or _FIELDS.get(argument)
    if label is not None:
        return label
    words = shown(argument.replace("_", " "), 40)
    return words[:1].upper() + words[1:]


def value_in_words(value: Any) -> str:
    """An argument's value as a person reads it: yes/no, a list as "a, b", never `True`."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(value_in_words(item) for item in value)
    if value is None:
        return "(none)"
    return str(value)


def arguments_in_words(tool: str, arguments: Mapping[str, Any]) -> str:
    """Each argument on a line under its label ("File: notes.txt", "Replace if it exists:
    yes"): the preview of a call whose own preview cannot be made."""
    return "\n".join(
        f"{field_label(tool, key)}: " + _VALUES_IN_WORDS.get((tool, key), value_in_words(value))
        for key, value in arguments.items()
    )


_OUTCOMES = {"ok": "done", "error": "failed", "refused": "not done"}
_DECISIONS = {"allow": "allowed", "confirm": "asked you", "deny": "refused by Hearth"}


def outcome_in_words(decision: str, answer: str | None, status: str) -> str:
    """How a call went, as its card says it: "asked you, you approved · done"."""
    said = f", you {answer}" if answer else ""
    return f"{_DECISIONS.get(decision, decision)}{said} · {_OUTCOMES.get(status, status)}"


RESULT_LIMIT = 2000  # characters of a result shown under an opened card


def result_in_words(tool: str, result: Any, limit: int = RESULT_LIMIT) -> str:
    """What a tool brought back, for a person: a text as it is, a record as labelled lines,
    a list one item a line. A reopened card's result is the text the model read (JSON for
    records), so JSON is read back first."""
    if isinstance(result, str) and result[:1] in ("{", "["):
        with contextlib.suppress(ValueError):  # a text that only looks like JSON
            result = json.loads(result)
    if isinstance(result, dict):
        text = "\n".join(
            f"{_key_in_words(str(key))}: {_nested_in_words(value).strip()}"
            for key, value in result.items()
        )
    elif isinstance(result, list):
        text = "\n".join(f"• {_nested_in_words(item)}" for item in result) or "(nothing found)"
    else:
        text = "" if result is None else str(result)
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def _key_in_words(key: str) -> str:
    """A result's field name as words ("bytes_written" reads "Bytes written")."""
    words = shown(key.replace("_", " "), 40)
    return words[:1].upper() + words[1:]


def _nested_in_words(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key}: {_nested_in_words(item)}" for key, item in value.items())
    if isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
        return "; ".join(_nested_in_words(item) for item in value)
    return value_in_words(value)


_FOUND_IN = re.compile(r"( detected in )([A-Za-z_]\w*)")
# The gate's finding "<kind> detected in <argument>…: <excerpt>" (`policy._findings_ask`).
_FINDING = re.compile(r"^([a-z_ ]+) detected in ([^:]*): (.*)$", re.DOTALL)
_FINDING_WORDS = {
    "payment card": "a payment card number",
    "iban": "a bank account number (IBAN)",
    "money": "an amount of money",
    "health": "something about health",
    "government id": "an identity number",
    "secret": "what looks like a password or a key",
    "private data": "something from your private mail, calendar or files",
}
_UNTRUSTED = re.compile(r"^untrusted content is in the conversation \((.*)\)$", re.DOTALL)


def reason_in_words(reason: str, tool: str) -> str:
    """A gate reason as a sentence for the user, without the tool's code name: "write_file
    deletes or overwrites something" reads "This action deletes or overwrites something", a
    finding names the field and what it holds ("The field “New text” holds what looks like a
    password or a key: …"), and taint says what it means."""
    if reason.startswith(f"{tool} "):
        reason = "This action " + reason[len(tool) + 1 :]
    reason = offer_in_words(reason, tool)
    found = _FINDING.match(reason)
    if found is not None:
        what = _FINDING_WORDS.get(found[1], found[1])
        argument = re.match(r"[A-Za-z_]\w*", found[2])
        where = f"the field “{field_label(tool, argument[0])}”" if argument else "this action"
        return f"{where[:1].upper()}{where[1:]} holds {what}: {found[3]}"
    untrusted = _UNTRUSTED.match(reason)
    if untrusted is not None:
        return (
            f"Hearth read {untrusted[1]} in this conversation, written by someone else; "
            "it may have asked for this, not you"
        )
    return _FOUND_IN.sub(lambda m: f"{m[1]}the field “{field_label(tool, m[2])}”", reason, 1)


def offer_in_words(offer: str, tool: str) -> str:
    """The "always allow" offer's first line in words: "Always allow fetching web pages on
    example.org" for the gate's "Always allow read_webpage on example.org"."""
    return re.sub(rf"(?<!\w){re.escape(tool)}(?!\w)", lambda _: action_phrase(tool), offer)
