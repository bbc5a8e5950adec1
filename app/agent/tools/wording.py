"""Tool calls in people's words: one plain title per call, field labels and gate reasons.

The confirmation dialog (and later the chat's tool cards) must say "Replace the text of
notes.txt", not `write_file(path=…)`. The wording lives here, once, pure and rendered by code
from the arguments that will run; nothing here comes from the model's prose. A tool's own
title and action phrase are in its declaration row (`app.agent.tools.declarations`), made of
the phrases in `app.agent.tools.phrases`; here they are put together with the field labels
and the gate's reasons. Argument values are shortened and stripped of control and formatting
characters, so a value cannot break a line or hide text in a title. A tool without wording
(a tool server's, or a new built-in one) gets a generic title naming it;
`tests/agent/test_wording.py` notices a built-in one.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from typing import Any

from app.agent.tools.declarations import BUILTIN_TOOLS, ToolDeclaration
from app.agent.tools.phrases import shown, when
from app.agent.tools.undo_declarations import UNDO_TOOLS

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
    "only_this_occurrence": "Only this occurrence",
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
    "done": "Done ones too",
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


def _declaration(tool: str) -> ToolDeclaration | None:
    """A built-in tool's row (the model's tools and the ones only Undo calls)."""
    return BUILTIN_TOOLS.get(tool) or UNDO_TOOLS.get(tool)


def _own_labels(tool: str) -> Mapping[str, str]:
    """The labels a built-in tool's row gives its arguments where it names them differently."""
    declaration = _declaration(tool)
    return declaration.field_labels if declaration is not None else {}


def _server_tool(name: str) -> tuple[str, str] | None:
    """(server, tool) for a tool server's tool (`server__tool`), in words."""
    server, sep, tool = name.partition("__")
    if not sep or not server or not tool:
        return None
    return shown(server.replace("_", " "), 40), shown(tool.replace("_", " "), 40)


def has_wording(name: str) -> bool:
    """True when the tool has its own title (a built-in one), not the generic fallback."""
    declaration = _declaration(name)
    return declaration is not None and declaration.title is not None


def describe_call(name: str, arguments: Mapping[str, Any]) -> str:
    """The call's plain title: "Send an email to ana@example.org". Never raises: a tool
    without wording, or arguments of a shape nobody expected, get a generic title."""
    declaration = _declaration(name)
    title = declaration.title if declaration is not None else None
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
    declaration = _declaration(name)
    phrase = declaration.action if declaration is not None else None
    if phrase is not None:
        return phrase
    server = _server_tool(name)
    if server is not None:
        return f"the tool “{server[1]}” of the tool server “{server[0]}”"
    return f"the tool “{shown(name.replace('_', ' '), 40)}”"


def has_field_label(tool: str, argument: str) -> bool:
    """True when the argument has its own label in words, not the readable fallback."""
    return argument in _own_labels(tool) or argument in _FIELDS


def field_label(tool: str, argument: str) -> str:
    """An argument's label in words ("File", "New text"); an unknown one readable."""
    label = _own_labels(tool).get(argument) or _FIELDS.get(argument)
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
    declaration = _declaration(tool)
    said = declaration.values_in_words if declaration is not None else {}
    return "\n".join(
        f"{field_label(tool, key)}: {said.get(key) or value_in_words(value)}"
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
