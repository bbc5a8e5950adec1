"""Every tool Hearth offers, declared once: what the model is told and what the gate knows.

A tool's facts used to live in four places (the model's spec, the handler, the gate's rule
with its parameter names typed again, a test table), and they drifted: an argument added to
the schema but not to the rule made every call ask. Now one `ToolDeclaration` row holds them
all, and the rest is derived from it:

- `declaration.spec`: the name, description and JSON schema the model is offered
  (`app.agent.toolbox.SPECS`);
- `policy.ToolRule.declared(declaration)`: the gate's fixed facts, with the parameter names
  taken from the schema (`policy.DEFAULT_RULES`).

A tool's handler stays with its connector wiring in `app.agent.toolbox`, which registers it
through `Registry.register(declaration, handler, preview)`; an outside tool (MCP, issue #22)
comes in through the same call with a declaration of its own. The labels here are fixed app
code: nothing a tool returns, and nothing the model says, can change them.

Standard library only (and the pure `app.llm.tools`), so the gate can import it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Literal

from app.llm.tools import ToolSpec

__all__ = [
    "BUILTIN_TOOLS",
    "TOOL_TOPICS",
    "ArgumentHook",
    "Label",
    "StandingScope",
    "ToolDeclaration",
    "Topic",
]


class Label(StrEnum):
    """What a tool does to the world, as the app (not the model) knows it."""

    READ = "read"
    WRITE = "write"
    OUTBOUND = "outbound"
    DESTRUCTIVE = "destructive"


# Which kind of "always allow" may cover a tool: none, the whole tool, one web host, or one
# recipient (the gate's standing rules fence each one in).
StandingScope = Literal["never", "tool", "host", "recipient"]

# Looks at the arguments and may name a higher label ("an event with attendees sends mail").
ArgumentHook = Callable[[Mapping[str, Any]], Label | None]

# Keys of `app.agent.labels.PRIVATE_KINDS`: the private store a tool's result comes from.
PrivateStore = Literal["calendar", "mail", "files", "memories", "reminders"]


@dataclass(frozen=True, eq=False)
class ToolDeclaration:
    """One tool: its public interface and the gate's fixed facts about it.

    `properties` and `required` make the argument schema; the gate accepts exactly these
    names. `untrusted_result`: what it returns may carry someone else's instructions (taints
    the conversation). `private_result`: the private store its result reveals. `raise_label`
    may only raise `label`. `mailbox_folder`: its "folder" argument is a mailbox, not a path.
    `written_path`: the argument naming a file it creates, so the gate refuses programs and
    asks about names that look like an existing one.
    """

    name: str
    description: str
    properties: Mapping[str, Mapping[str, Any]]
    required: tuple[str, ...]
    label: Label
    untrusted_result: bool = False
    private_result: PrivateStore | None = None
    standing: StandingScope = "never"
    raise_label: ArgumentHook | None = None
    mailbox_folder: bool = False
    written_path: str | None = None

    def __post_init__(self) -> None:
        unknown = [n for n in (*self.required, self.written_path or "") if n]
        unknown = [n for n in unknown if n not in self.properties]
        if unknown:  # a required name the schema lacks would make every call fail
            raise ValueError(f"{self.name}: {', '.join(unknown)} not among its properties")
        object.__setattr__(self, "properties", MappingProxyType(dict(self.properties)))

    @property
    def schema(self) -> dict[str, Any]:
        """The JSON schema of the arguments, as the model and the call grammar see it."""
        return {
            "type": "object",
            "properties": {name: dict(value) for name, value in self.properties.items()},
            "required": list(self.required),
        }

    @property
    def spec(self) -> ToolSpec:
        """What the model is offered: name, description, schema."""
        return ToolSpec(self.name, self.description, self.schema)


def _outbound_if_attendees(arguments: Mapping[str, Any]) -> Label | None:
    """An event with attendees sends invitations: data leaves the machine."""
    return Label.OUTBOUND if arguments.get("attendees") not in (None, "", [], (), {}) else None


def _destructive_if_overwrite(arguments: Mapping[str, Any]) -> Label | None:
    """Overwriting loses the old file. Anything but an explicit false/absent counts ("no" too)."""
    value = arguments.get("overwrite")
    return None if value is None or value is False else Label.DESTRUCTIVE


STRING = {"type": "string"}
# Shapes the call grammar enforces (app.llm.formats.grammar): a small model cannot wander
# inside a one-line value or write "next Tuesday" where a date-time belongs.
LINE = {"type": "string", "maxLength": 200}
PATH = {"type": "string", "maxLength": 500, "description": "a path inside an allowed folder"}
WHEN = {
    "type": "string",
    "format": "date-time",
    "description": "local date and time, ISO 8601 (2026-12-01T09:30)",
}
ADDRESS = {"type": "string", "format": "email"}
_R, _W, _OUT, _DEL = Label.READ, Label.WRITE, Label.OUTBOUND, Label.DESTRUCTIVE

# The tool table of DESIGN.md (the names are a public interface). Results marked untrusted
# taint the context. Beyond the table, listings whose text other people write (event
# invitations, email subjects and senders, file names and search snippets) are untrusted
# too: an injection fits in a subject line. Results that come from the user's private
# stores label the conversation private (issue #16): after one, no standing grant lets
# anything leave without a dialog. Removing anything (an event, a memory, a reminder) is
# destructive and always asks.
_FILES = (
    ToolDeclaration(
        "search_files",
        "Find files by name or content in the user's allowed folders.",
        {
            "query": {**LINE, "description": "words to look for"},
            "folder": {**LINE, "description": "a sub-folder to search in"},
        },
        ("query",),
        _R,
        untrusted_result=True,
        private_result="files",
    ),
    ToolDeclaration(
        "list_folder",
        "List the files and folders in a folder.",
        {
            "path": {
                **PATH,
                "minLength": 0,
                "description": "folder path; empty for the first folder",
            }
        },
        ("path",),
        _R,
        untrusted_result=True,
        private_result="files",
    ),
    ToolDeclaration(
        "read_file",
        "Read the text of a file (txt, md, csv, pdf, docx).",
        {"path": PATH},
        ("path",),
        _R,
        untrusted_result=True,
        private_result="files",
    ),
    # The document index (issue #23): passages, with file and page, from every allowed folder.
    ToolDeclaration(
        "search_documents",
        "Search the text of the user's documents (pdf, docx, txt, md, csv) for what they say "
        "about something. Returns the best passages with their file and page or heading.",
        {"query": {**LINE, "description": "what to look for, in a few words"}},
        ("query",),
        _R,
        untrusted_result=True,
        private_result="files",
    ),
    ToolDeclaration(
        "write_file",
        "Write text to a file. Set overwrite to replace an existing file.",
        {"path": PATH, "content": STRING, "overwrite": {"type": "boolean"}},
        ("path", "content"),
        _W,
        raise_label=_destructive_if_overwrite,
        written_path="path",
    ),
)
_WEB = (
    ToolDeclaration(
        "web_search",
        "Search the web. Returns titles, links and snippets.",
        {"query": LINE, "max_results": {"type": "integer", "minimum": 1, "maximum": 10}},
        ("query",),
        _OUT,
        untrusted_result=True,
        standing="tool",
    ),
    ToolDeclaration(
        "read_webpage",
        "Read the text of a web page.",
        {"url": {"type": "string", "format": "uri", "description": "an http or https address"}},
        ("url",),
        _OUT,
        untrusted_result=True,
        standing="host",
    ),
)
_CALENDAR = (
    ToolDeclaration(
        "list_events",
        "List calendar events between two times (ISO 8601).",
        {"start": WHEN, "end": WHEN, "calendar": {**LINE, "description": "a calendar's name"}},
        ("start", "end"),
        _R,
        untrusted_result=True,
        private_result="calendar",
    ),
    ToolDeclaration(
        "find_free_time",
        "Find free slots of a given length between two times.",
        {
            "start": WHEN,
            "end": WHEN,
            "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 1440},
        },
        ("start", "end", "duration_minutes"),
        _R,
        private_result="calendar",
    ),
    ToolDeclaration(
        "create_event",
        "Add an event to the calendar. Attendees get an invitation.",
        {
            "title": LINE,
            "start": WHEN,
            "end": WHEN,
            "location": LINE,
            "description": STRING,
            "attendees": {"type": "array", "items": ADDRESS},
        },
        ("title", "start", "end"),
        _W,
        raise_label=_outbound_if_attendees,
        standing="recipient",
    ),
    ToolDeclaration(
        "update_event",
        "Change an event (by its event_id from list_events).",
        {
            "event_id": LINE,
            "title": LINE,
            "start": WHEN,
            "end": WHEN,
            "location": LINE,
            "description": STRING,
        },
        ("event_id",),
        _W,
        private_result="calendar",
    ),
    ToolDeclaration(
        "delete_event",
        "Delete an event (by its event_id from list_events).",
        {"event_id": LINE},
        ("event_id",),
        _DEL,
        private_result="calendar",
    ),
)
_MAIL = (
    ToolDeclaration(
        "list_emails",
        "List emails in a mailbox folder, newest first.",
        {
            "folder": LINE,
            "unread_only": {"type": "boolean"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        },
        (),
        _R,
        untrusted_result=True,
        private_result="mail",
        mailbox_folder=True,
    ),
    ToolDeclaration(
        "search_emails",
        "Search emails by sender, subject or text.",
        {
            "query": LINE,
            "folder": LINE,
            "since": {"type": "string", "format": "date", "description": "YYYY-MM-DD"},
        },
        ("query",),
        _R,
        untrusted_result=True,
        private_result="mail",
        mailbox_folder=True,
    ),
    ToolDeclaration(
        "read_email",
        "Read one email (by its email_id from list or search).",
        {"email_id": LINE},
        ("email_id",),
        _R,
        untrusted_result=True,
        private_result="mail",
    ),
    ToolDeclaration(
        "send_email",
        "Send an email.",
        {
            "to": {"type": "array", "items": ADDRESS, "minItems": 1},
            "subject": LINE,
            "body": STRING,
            "cc": {"type": "array", "items": ADDRESS},
        },
        ("to", "subject", "body"),
        _OUT,
        standing="recipient",
    ),
    ToolDeclaration(
        "reply_email",
        "Reply to an email (by its email_id).",
        {"email_id": LINE, "body": STRING},
        ("email_id", "body"),
        _OUT,
        private_result="mail",
    ),
)
_MEMORY = (
    ToolDeclaration(
        "remember",
        "Remember a fact the user wants kept.",
        {"fact": {"type": "string", "maxLength": 1000}},
        ("fact",),
        _W,
    ),
    ToolDeclaration(
        "recall",
        "Look up remembered facts.",
        {"query": LINE},
        ("query",),
        _R,
        private_result="memories",
    ),
    ToolDeclaration(
        "forget",
        "Forget a remembered fact by its id.",
        {"memory_id": {"type": "integer"}},
        ("memory_id",),
        _DEL,
        private_result="memories",
    ),
)
_REMINDERS = (
    ToolDeclaration(
        "set_reminder",
        "Remind the user at a time: the app shows a notification then.",
        {
            "text": {
                "type": "string",
                "maxLength": 500,
                "description": "what to remind the user of",
            },
            "at": WHEN,
        },
        ("text", "at"),
        _W,
    ),
    # The user's own reminders: listing reads them; cancelling deletes one, so it asks.
    ToolDeclaration(
        "list_reminders",
        "List the reminders that have not been shown yet.",
        {},
        (),
        _R,
        private_result="reminders",
    ),
    ToolDeclaration(
        "cancel_reminder",
        "Cancel a reminder by its id.",
        {"reminder_id": {"type": "integer"}},
        ("reminder_id",),
        _DEL,
        private_result="reminders",
    ),
)

BUILTIN_TOOLS: Mapping[str, ToolDeclaration] = MappingProxyType(
    {d.name: d for d in (*_FILES, *_WEB, *_CALENDAR, *_MAIL, *_MEMORY, *_REMINDERS)}
)

# What each built-in tool is about, for offering a request only the tools that fit it
# (`app.agent.tool_selection`). An outside tool has no topic and is always offered.
Topic = Literal["files", "web", "calendar", "mail", "memory", "reminders"]
_GROUPS: tuple[tuple[Topic, tuple[ToolDeclaration, ...]], ...] = (
    ("files", _FILES),
    ("web", _WEB),
    ("calendar", _CALENDAR),
    ("mail", _MAIL),
    ("memory", _MEMORY),
    ("reminders", _REMINDERS),
)
TOOL_TOPICS: Mapping[str, Topic] = MappingProxyType(
    {d.name: topic for topic, group in _GROUPS for d in group}
)
