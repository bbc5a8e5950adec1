"""The tools only Undo calls: putting back what a change of Hearth's replaced or removed.

Undoing a change is an ordinary tool call (`app.agent.tools.undo` works out which), so it
passes the same gate, dialog and audit log as any call. Most undos are calls of the public
tools (a created event is undone by `delete_event`, a memory by `forget`); these four do
what no public tool does. They are never offered to the model (`Registry.register` with
`offered=False`): only the user's Undo asks for them. Their labels follow the same rule as
every tool's: removing something is destructive and always asks; putting back a record the
user already has replaces it, so it asks with the record named.
"""

from __future__ import annotations

from types import MappingProxyType

from app.agent.tools.declarations import Label, ToolDeclaration
from app.agent.tools.phrases import file_name, quoted

_ID = {"type": "string", "maxLength": 200}
_TEXT = {"type": "string"}

_DECLARED = (
    ToolDeclaration(
        "restore_event",
        "Put back an event as it was before Hearth changed or deleted it.",
        {"event_id": _ID, "saved": _TEXT},
        ("event_id", "saved"),
        Label.WRITE,
        private_result="calendar",
        changes_existing=True,
        title=lambda a: "Put the calendar event back as it was",
        action="putting back an event",
        field_labels={"saved": "Put back"},
        values_in_words={"saved": "the copy Hearth kept of the event before its change"},
    ),
    ToolDeclaration(
        "restore_task",
        "Put back a task as it was before Hearth marked it done.",
        {"task_id": _ID, "saved": _TEXT},
        ("task_id", "saved"),
        Label.WRITE,
        private_result="tasks",
        changes_existing=True,
        title=lambda a: "Put the task back as it was, not done",
        action="putting back a task",
        field_labels={"saved": "Put back"},
        values_in_words={"saved": "the copy Hearth kept of the task before it was marked done"},
    ),
    ToolDeclaration(
        "delete_task",
        "Remove a task Hearth added.",
        {"task_id": _ID},
        ("task_id",),
        Label.DESTRUCTIVE,
        private_result="tasks",
        title=lambda a: f"Remove the task {quoted(a.get('task_id', ''), 40)}",
        action="removing a task",
    ),
    ToolDeclaration(
        "remove_file",
        "Remove a file Hearth created, if it still holds what Hearth wrote.",
        {"path": {"type": "string", "maxLength": 500}, "content": _TEXT},
        ("path", "content"),
        Label.DESTRUCTIVE,
        title=lambda a: f"Remove the file {file_name(a.get('path', ''))} Hearth created",
        action="removing a file Hearth created",
        field_labels={"content": "Only if it still holds"},
    ),
)

UNDO_TOOLS: MappingProxyType[str, ToolDeclaration] = MappingProxyType(
    {tool.name: tool for tool in _DECLARED}
)
