"""Every tool Hearth offers, declared once: what the model is told and what the gate knows.

A tool's facts used to live in four places (the model's spec, the handler, the gate's rule
with its parameter names typed again, a test table), and they drifted: an argument added to
the schema but not to the rule made every call ask. Now one `ToolDeclaration` row holds them
all, and the rest is derived from it:

- `declaration.spec`: the name, description and JSON schema the model is offered
  (`app.agent.tools.toolbox.SPECS`);
- the gate's rule: the declaration itself is the view the gate reads
  (`app.agent.gate.rules.ToolRule`), with the parameter names taken from the schema; the
  built-in table (`BUILTIN_TOOLS`) is the rules the agent hands the gate.

A tool's handler stays with its connector wiring in `app.agent.tools.toolbox`, which registers it
through `Registry.register(declaration, handler, preview)`; an outside tool (MCP, issue #22)
comes in through the same call with a declaration of its own. The labels here are fixed app
code: nothing a tool returns, and nothing the model says, can change them.

Standard library only, with the gate's rule types and the pure `app.llm.tools`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from app.agent.gate import ArgumentHook, Label, StandingScope, effective_label
from app.agent.gate.arguments import PATH_ARGUMENT_NAMES, RECIPIENT_ARGUMENT_NAMES
from app.agent.tools.phrases import file_name, host, people, quoted, shown, when
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


# Keys of `app.agent.gate.labels.PRIVATE_KINDS`: the private store a tool's result comes from.
PrivateStore = Literal["calendar", "mail", "files", "memories", "reminders", "tasks", "contacts"]

# The private stores other people write into: an invitation's title, a shared task list's
# notes, a shared or auto-collected address book, an email, a file someone sent. Whatever a
# tool returns from one of them repeats someone else's text, so its result is untrusted,
# whichever tool returns it (a write that echoes the task it completed, too). Memories and
# reminders are not here: they carry the labels they were saved with (`app.agent.gate.labels`).
SHARED_STORES: frozenset[str] = frozenset({"calendar", "mail", "files", "tasks", "contacts"})


# What a tool is about, for offering a request only the tools that fit it
# (`app.agent.tools.tool_selection`). An outside tool has no topic and is always offered.
Topic = Literal[
    "files",
    "web",
    "calendar",
    "mail",
    "memory",
    "reminders",
    "tasks",
    "opening",
    "money",
    "contacts",
]
# A call's plain title, from the arguments that will run: "Send an email to ana@example.org".
Title = Callable[[Mapping[str, Any]], str]


@dataclass(frozen=True, eq=False)
class ToolDeclaration:
    """One tool: its public interface and the gate's fixed facts about it.

    `properties` and `required` make the argument schema; the gate accepts exactly these
    names. `untrusted_result`: what it returns may carry someone else's instructions (taints
    the conversation). `private_result`: the private store its result reveals. `raise_label`
    may only raise `label`. `mailbox_folder`: its "folder" argument is a mailbox, not a path.
    `written_path`: the argument naming a file it creates, so the gate refuses programs and
    asks about names that look like an existing one. `asks_because`: the dialog's reason for
    a tool that always asks where its label's own words would mislead ("{tool}" is its name).
    `changes_existing`: it changes or replaces a record the user already has (a contact's
    address, a task's due date, an event's time), so it always asks, with a before/after
    preview. `stored_text`: its result repeats text from its `private_result` store; from a
    store others write (`SHARED_STORES`) that makes the result untrusted, declared or not.
    Only a result that holds no stored text at all (free time slots) says False.
    `grant_key`: what a standing "always allow" for it is stored under, when the name alone
    does not say which tool it is (an outside tool: its server's identity and the tool's own
    name, so a grant never slides to another server whose tools get the same names).

    Its words (`app.agent.tools.wording`): `title` makes the call's plain title from its
    arguments, `action` says what it does to fit "Always allow …", `field_labels` name the
    arguments it calls differently from the others, `values_in_words` say in words the
    arguments whose value is for the tool, not for reading (a saved iCalendar copy); `topic`
    is what it is about, for offering a request only the tools that fit it. An outside tool
    has none of them: it gets generic words and is always offered.
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
    asks_because: str | None = None
    changes_existing: bool = False
    stored_text: bool = True
    grant_key: str | None = None
    topic: Topic | None = None
    title: Title | None = None
    action: str | None = None
    field_labels: Mapping[str, str] = field(default_factory=dict)
    values_in_words: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = [n for n in (*self.required, self.written_path or "") if n]
        unknown = [n for n in unknown if n not in self.properties]
        if unknown:  # a required name the schema lacks would make every call fail
            raise ValueError(f"{self.name}: {', '.join(unknown)} not among its properties")
        object.__setattr__(self, "properties", MappingProxyType(dict(self.properties)))
        if self.stored_text and self.private_result in SHARED_STORES:
            object.__setattr__(self, "untrusted_result", True)

    # -- the gate's view (`app.agent.gate.rules.ToolRule`) -----------------------------------

    @property
    def parameters(self) -> frozenset[str]:
        """The argument names the gate accepts: the schema's, exactly."""
        return frozenset(self.properties)

    @property
    def path_arguments(self) -> frozenset[str]:
        """The arguments the gate checks as paths (a mailbox's "folder" is none)."""
        return PATH_ARGUMENT_NAMES - {"folder"} if self.mailbox_folder else PATH_ARGUMENT_NAMES

    @property
    def address_arguments(self) -> frozenset[str]:
        """The arguments holding e-mail addresses: the usual recipients' and those declared."""
        return RECIPIENT_ARGUMENT_NAMES | self.email_arguments

    @property
    def granted_as(self) -> str:
        """The tool name a standing permission for this tool carries."""
        return self.grant_key or self.name

    def effective_label(self, arguments: Mapping[str, Any]) -> Label:
        """The base label, raised by the hook if the arguments call for it."""
        return effective_label(self.label, self.raise_label, arguments)

    # -- what the model sees -------------------------------------------------------------------

    @property
    def email_arguments(self) -> frozenset[str]:
        """The arguments declared as e-mail addresses (a recipient, a contact's emails): an
        address the user did not type asks, whatever the argument is called."""
        return frozenset(
            name
            for name, schema in self.properties.items()
            if schema.get("format") == "email"
            or (
                isinstance(schema.get("items"), Mapping)
                and schema["items"].get("format") == "email"
            )
        )

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


# Each tool's title: what its call does, in words, from the arguments that will run.


def _write(a: Mapping[str, Any]) -> str:
    overwrite = a.get("overwrite")
    name = file_name(a.get("path", ""))
    if overwrite is None or overwrite is False:
        return f"Create the file {name}"
    return f"Replace the text of {name}"


def _search_files(a: Mapping[str, Any]) -> str:
    where = f" in the folder {quoted(a['folder'])}" if a.get("folder") else ""
    return f"Search your files for {quoted(a.get('query', ''))}{where}"


def _list_folder(a: Mapping[str, Any]) -> str:
    path = str(a.get("path") or "").strip()
    return f"List the folder {quoted(path)}" if path else "List your first allowed folder"


def _new_event(a: Mapping[str, Any]) -> str:
    title = f"Add the event {quoted(a.get('title', ''))} on {when(a.get('start', ''))}"
    attendees = a.get("attendees")
    return f"{title} and invite {people(attendees)}" if attendees else title


def _list_emails(a: Mapping[str, Any]) -> str:
    kind = "unread emails" if a.get("unread_only") is True else "emails"
    return f"List the {kind} in {quoted(a.get('folder') or 'INBOX')}"


def _free_time(a: Mapping[str, Any]) -> str:
    span = f"between {when(a.get('start', ''))} and {when(a.get('end', ''))}"
    return f"Find {shown(a.get('duration_minutes', '?'), 8)} free minutes {span}"


def _list_tasks(a: Mapping[str, Any]) -> str:
    where = f" in {quoted(a['list'])}" if a.get("list") else ""
    due = f" due before {when(a['due_before'])}" if a.get("due_before") else ""
    return f"List your {'tasks, done or not,' if a.get('done') else 'open tasks'}{where}{due}"


def _add_task(a: Mapping[str, Any]) -> str:
    due = f", due {when(a['due'])}" if a.get("due") else ""
    return f"Add the task {quoted(a.get('title', ''))}{due}"


def _open_item(a: Mapping[str, Any]) -> str:
    if a.get("url"):
        return f"Open a web page from {host(a['url'])} in your browser"
    if a.get("path"):
        return f"Open {file_name(a['path'])} in its usual app"
    return "Open something in another app"


def _show_folder(a: Mapping[str, Any]) -> str:
    path = str(a.get("path") or ".").strip()
    shown_path = "your first allowed folder" if path == "." else quoted(file_name(path))
    return f"Show {shown_path} in the file manager"


def _spending(a: Mapping[str, Any]) -> str:
    month = f" for {shown(a['month'], 10)}" if a.get("month") else ""
    return f"Add up the bank statements in {quoted(a.get('path', '.'))}{month}"


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
ONE_OCCURRENCE = {
    "type": "boolean",
    "description": "for a repeating event: change only the occurrence event_id names",
}
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
        topic="files",
        title=_search_files,
        action="searching your files",
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
        topic="files",
        title=_list_folder,
        action="listing a folder",
        field_labels={"path": "Folder"},
    ),
    ToolDeclaration(
        "read_file",
        "Read the text of a file (txt, md, csv, pdf, docx).",
        {"path": PATH},
        ("path",),
        _R,
        untrusted_result=True,
        private_result="files",
        topic="files",
        title=lambda a: f"Read the file {file_name(a.get('path', ''))}",
        action="reading a file",
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
        topic="files",
        title=lambda a: f"Search your documents for {quoted(a.get('query', ''))}",
        action="searching your documents",
    ),
    ToolDeclaration(
        "write_file",
        "Write text to a file. Set overwrite to replace an existing file.",
        {"path": PATH, "content": STRING, "overwrite": {"type": "boolean"}},
        ("path", "content"),
        _W,
        raise_label=_destructive_if_overwrite,
        written_path="path",
        topic="files",
        title=_write,
        action="writing a file",
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
        topic="web",
        title=lambda a: f"Search the web for {quoted(a.get('query', ''))}",
        action="searching the web",
    ),
    ToolDeclaration(
        "read_webpage",
        "Read the text of a web page.",
        {"url": {"type": "string", "format": "uri", "description": "an http or https address"}},
        ("url",),
        _OUT,
        untrusted_result=True,
        standing="host",
        topic="web",
        title=lambda a: f"Fetch a web page from {host(a.get('url', ''))}",
        action="fetching web pages",
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
        topic="calendar",
        title=lambda a: (
            f"Look at your calendar from {when(a.get('start', ''))} to {when(a.get('end', ''))}"
        ),
        action="looking at your calendar",
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
        stored_text=False,  # free slots: times only, no one's words
        topic="calendar",
        title=_free_time,
        action="finding free time",
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
        topic="calendar",
        title=_new_event,
        action="adding events with invitations",
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
            "only_this_occurrence": ONE_OCCURRENCE,
        },
        ("event_id",),
        _W,
        private_result="calendar",
        changes_existing=True,
        topic="calendar",
        title=lambda a: f"Change the calendar event {quoted(a.get('event_id', ''), 40)}",
        action="changing an event",
    ),
    ToolDeclaration(
        "delete_event",
        "Delete an event (by its event_id from list_events).",
        {"event_id": LINE, "only_this_occurrence": ONE_OCCURRENCE},
        ("event_id",),
        _DEL,
        private_result="calendar",
        topic="calendar",
        title=lambda a: f"Delete the calendar event {quoted(a.get('event_id', ''), 40)}",
        action="deleting an event",
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
        topic="mail",
        title=_list_emails,
        action="listing emails",
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
        topic="mail",
        title=lambda a: f"Search your email for {quoted(a.get('query', ''))}",
        action="searching your email",
    ),
    ToolDeclaration(
        "read_email",
        "Read one email (by its email_id from list or search).",
        {"email_id": LINE},
        ("email_id",),
        _R,
        untrusted_result=True,
        private_result="mail",
        topic="mail",
        title=lambda a: f"Read the email {quoted(a.get('email_id', ''), 40)}",
        action="reading an email",
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
        topic="mail",
        title=lambda a: f"Send an email to {people(a.get('to'))}",
        action="sending email",
    ),
    ToolDeclaration(
        "reply_email",
        "Reply to an email (by its email_id).",
        {"email_id": LINE, "body": STRING},
        ("email_id", "body"),
        _OUT,
        private_result="mail",
        topic="mail",
        title=lambda a: f"Reply to the email {quoted(a.get('email_id', ''), 40)}",
        action="replying to an email",
    ),
)
_MEMORY = (
    ToolDeclaration(
        "remember",
        "Remember a fact the user wants kept.",
        {"fact": {"type": "string", "maxLength": 1000}},
        ("fact",),
        _W,
        topic="memory",
        title=lambda a: f"Remember {quoted(a.get('fact', ''))}",
        action="remembering a fact",
    ),
    ToolDeclaration(
        "recall",
        "Look up remembered facts.",
        {"query": LINE},
        ("query",),
        _R,
        private_result="memories",
        topic="memory",
        title=lambda a: f"Look up what Hearth remembers about {quoted(a.get('query', ''))}",
        action="looking up what Hearth remembers",
    ),
    ToolDeclaration(
        "forget",
        "Forget a remembered fact by its id.",
        {"memory_id": {"type": "integer"}},
        ("memory_id",),
        _DEL,
        private_result="memories",
        topic="memory",
        title=lambda a: f"Forget memory number {shown(a.get('memory_id', '?'), 12)}",
        action="forgetting a memory",
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
        topic="reminders",
        title=lambda a: f"Remind you on {when(a.get('at', ''))}: {quoted(a.get('text', ''))}",
        action="setting a reminder",
    ),
    # The user's own reminders: listing reads them; cancelling deletes one, so it asks.
    ToolDeclaration(
        "list_reminders",
        "List the reminders that have not been shown yet.",
        {},
        (),
        _R,
        private_result="reminders",
        topic="reminders",
        title=lambda a: "List your reminders",
        action="listing your reminders",
    ),
    ToolDeclaration(
        "cancel_reminder",
        "Cancel a reminder by its id.",
        {"reminder_id": {"type": "integer"}},
        ("reminder_id",),
        _DEL,
        private_result="reminders",
        topic="reminders",
        title=lambda a: f"Cancel reminder number {shown(a.get('reminder_id', '?'), 12)}",
        action="cancelling a reminder",
    ),
)

# To-do lists on the calendar account (CalDAV VTODO, issue #24). A task is personal data, and
# a shared list holds other people's words, as an invitation does: listing is untrusted.
DUE = {
    "type": "string",
    "maxLength": 30,
    "description": "a day (2026-12-05) or a local date and time (2026-12-05T17:00)",
}
TASK_ID = {**LINE, "description": "a task_id from list_tasks"}
_TASKS = (
    ToolDeclaration(
        "list_tasks",
        "List the user's open tasks (to-dos), soonest due first.",
        {
            "list": {**LINE, "description": "a task list's name"},
            "due_before": {**DUE, "description": "only tasks due before this day or time"},
            "done": {"type": "boolean", "description": "also the tasks already done"},
        },
        (),
        _R,
        untrusted_result=True,
        private_result="tasks",
        topic="tasks",
        title=_list_tasks,
        action="listing your tasks",
    ),
    ToolDeclaration(
        "add_task",
        "Add a task (to-do) to the user's task list.",
        {
            "title": LINE,
            "due": DUE,
            "notes": STRING,
            "list": {**LINE, "description": "a task list's name"},
        },
        ("title",),
        _W,
        topic="tasks",
        title=_add_task,
        action="adding a task",
    ),
    ToolDeclaration(
        "complete_task",
        "Mark a task as done (by its task_id from list_tasks).",
        {"task_id": TASK_ID},
        ("task_id",),
        _W,
        private_result="tasks",
        changes_existing=True,
        topic="tasks",
        title=lambda a: f"Mark the task {quoted(a.get('task_id', ''), 40)} as done",
        action="marking a task as done",
    ),
    ToolDeclaration(
        "update_task",
        "Change a task's title, due date or notes (by its task_id). An empty due removes it.",
        {"task_id": TASK_ID, "title": LINE, "due": {**DUE, "minLength": 0}, "notes": STRING},
        ("task_id",),
        _W,
        private_result="tasks",
        changes_existing=True,
        topic="tasks",
        title=lambda a: f"Change the task {quoted(a.get('task_id', ''), 40)}",
        action="changing a task",
    ),
)

# Handing something to another program (issue #24): a viewer, the browser, the file manager.
# Outbound, because what leaves Hearth's hands is out of its control (a web address is
# fetched, a file may be uploaded or synced), so they ask every time and no "always allow"
# covers them. The path is fenced like any path; the connector refuses programs by content.
_OPEN_ASKS = "{tool} hands it to another program on this computer, outside Hearth's control"
_OPENING = (
    ToolDeclaration(
        "open_item",
        "Open a file (with its path) or a web page (with its url) in the user's own app.",
        {
            "path": PATH,
            "url": {"type": "string", "format": "uri", "description": "an http or https address"},
        },
        (),
        _OUT,
        asks_because=_OPEN_ASKS,
        topic="opening",
        title=_open_item,
        action="opening files and web pages in other apps",
    ),
    ToolDeclaration(
        "show_folder",
        "Show a folder, or the folder a file is in, in the file manager.",
        {"path": {**PATH, "description": "a file or folder; . for the first allowed folder"}},
        ("path",),
        _OUT,
        asks_because="{tool} opens the file manager, another program on this computer",
        topic="opening",
        title=_show_folder,
        action="showing folders in the file manager",
        field_labels={"path": "File or folder"},
    ),
)

# Money in the user's own files (issue #24): read-only sums over bank statements. What the
# bank wrote beside each amount (a transfer's reference) is someone else's text: untrusted.
_MONEY = (
    ToolDeclaration(
        "summarise_spending",
        "Sum the user's bank statements (CSV or PDF files): spent and received per month, "
        "currency and merchant.",
        {
            "path": {
                **PATH,
                "description": "a statement file or a folder of them; . for the first folder",
            },
            "month": {"type": "string", "maxLength": 7, "description": "YYYY-MM, only that month"},
        },
        ("path",),
        _R,
        untrusted_result=True,
        private_result="files",
        topic="money",
        title=_spending,
        action="adding up your bank statements",
        field_labels={"path": "Statement file or folder"},
    ),
)

# Address books over CardDAV on the calendar account (issue #24). Phone numbers, addresses
# and birthdays are personal data; a shared or auto-collected address book holds names other
# people wrote, so a lookup is untrusted, as an invitation is.
CONTACT_ID = {**LINE, "description": "a contact_id from find_contact"}
PHONES = {"type": "array", "items": {"type": "string", "maxLength": 40}}
_CONTACTS = (
    ToolDeclaration(
        "find_contact",
        "Find people in the user's contacts by name, email, phone number or organisation.",
        {"query": LINE},
        ("query",),
        _R,
        untrusted_result=True,
        private_result="contacts",
        topic="contacts",
        title=lambda a: f"Look up {quoted(a.get('query', ''))} in your contacts",
        action="looking up your contacts",
    ),
    ToolDeclaration(
        "add_contact",
        "Add a person to the user's contacts.",
        {
            "name": LINE,
            "emails": {"type": "array", "items": ADDRESS},
            "phones": PHONES,
            "organisation": LINE,
        },
        ("name",),
        _W,
        topic="contacts",
        title=lambda a: f"Add {quoted(a.get('name', ''))} to your contacts",
        action="adding a contact",
    ),
    ToolDeclaration(
        "update_contact",
        "Change a contact (by its contact_id): given fields replace the old ones.",
        {
            "contact_id": CONTACT_ID,
            "name": LINE,
            "emails": {"type": "array", "items": ADDRESS},
            "phones": PHONES,
            "organisation": LINE,
        },
        ("contact_id",),
        _W,
        private_result="contacts",
        changes_existing=True,
        topic="contacts",
        title=lambda a: f"Change the contact {quoted(a.get('contact_id', ''), 40)}",
        action="changing a contact",
    ),
)

BUILTIN_TOOLS: Mapping[str, ToolDeclaration] = MappingProxyType(
    {
        d.name: d
        for d in (
            *_FILES,
            *_WEB,
            *_CALENDAR,
            *_MAIL,
            *_MEMORY,
            *_REMINDERS,
            *_TASKS,
            *_OPENING,
            *_MONEY,
            *_CONTACTS,
        )
    }
)

# What each built-in tool is about, from its row (`app.agent.tools.tool_selection`).
TOOL_TOPICS: Mapping[str, Topic] = MappingProxyType(
    {d.name: d.topic for d in BUILTIN_TOOLS.values() if d.topic is not None}
)
