"""Undo: the tool call that reverses a change Hearth made, worked out by code.

From what a call did (its name, its arguments, its result and what its handler kept for
this, `ToolResult.kept`) comes one reverse call, or None when the change cannot be undone
(an email that went out, an invitation sent). The reverse call then runs like any call,
through the gate, the dialog and the audit log (`Agent.undo`): nothing here decides whether
it may run.

    created event   -> delete_event(its id)
    moved event     -> update_event(its id, the old values of what changed)
                       (a repeating or all-day event: restore_event with its saved copy)
    deleted event   -> restore_event(its id, its saved iCalendar text)
    new file        -> remove_file(path, what Hearth wrote): only while it still holds that
    replaced file   -> write_file(path, its previous text, overwrite)
    added task      -> delete_task(its id)
    ticked task     -> restore_task(its id, its saved iCalendar text)
    memory          -> forget(its id)
    reminder        -> cancel_reminder(its id)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.llm.tools import ToolCall

__all__ = ["UNDOABLE", "reverse_call", "undo_in_words"]

Reverser = Callable[[Mapping[str, Any], Any, Mapping[str, Any]], ToolCall | None]

# Fields of update_event an undo puts back, in the order the dialog shows them.
_EVENT_FIELDS = ("title", "start", "end", "location", "description")


def _created_event(arguments: Mapping[str, Any], result: Any, kept: Mapping[str, Any]) -> Any:
    if arguments.get("attendees"):  # the invitations went out: deleting cannot unsend them
        return None
    event_id = _field(result, "event_id")
    return ToolCall("delete_event", {"event_id": event_id}) if event_id else None


def _updated_event(arguments: Mapping[str, Any], result: Any, kept: Mapping[str, Any]) -> Any:
    before = kept.get("before")
    event = _field(result, "event")
    event_id = _field(event, "event_id") or arguments.get("event_id")
    if not isinstance(before, Mapping) or not event_id:
        return None
    if before.get("recurring") or before.get("all_day"):  # only the saved copy is exact
        saved = kept.get("saved")
        return ToolCall("restore_event", {"event_id": event_id, "saved": saved}) if saved else None
    back: dict[str, Any] = {"event_id": event_id}
    for key in _EVENT_FIELDS:
        if key in arguments:
            old = before.get(key)
            back[key] = _local_time(old) if key in ("start", "end") else (old or "")
    return ToolCall("update_event", back) if len(back) > 1 else None


def _deleted_event(arguments: Mapping[str, Any], result: Any, kept: Mapping[str, Any]) -> Any:
    saved, event_id = kept.get("saved"), arguments.get("event_id")
    if not saved or not event_id:
        return None
    return ToolCall("restore_event", {"event_id": str(event_id), "saved": saved})


def _written_file(arguments: Mapping[str, Any], result: Any, kept: Mapping[str, Any]) -> Any:
    path = _field(result, "path") or arguments.get("path")
    if not path or "existed" not in kept:
        return None
    if not kept["existed"]:
        return ToolCall("remove_file", {"path": path, "content": str(arguments.get("content"))})
    previous = kept.get("previous")
    if previous is None:  # the old file was not text, or too large to keep
        return None
    return ToolCall("write_file", {"path": path, "content": previous, "overwrite": True})


def _added_task(arguments: Mapping[str, Any], result: Any, kept: Mapping[str, Any]) -> Any:
    task_id = _field(result, "task_id")
    return ToolCall("delete_task", {"task_id": task_id}) if task_id else None


def _ticked_task(arguments: Mapping[str, Any], result: Any, kept: Mapping[str, Any]) -> Any:
    saved, task_id = kept.get("saved"), arguments.get("task_id")
    if not saved or not task_id:
        return None
    return ToolCall("restore_task", {"task_id": str(task_id), "saved": saved})


def _remembered(arguments: Mapping[str, Any], result: Any, kept: Mapping[str, Any]) -> Any:
    memory_id = _field(result, "memory_id")
    return ToolCall("forget", {"memory_id": int(memory_id)}) if memory_id is not None else None


def _reminder(arguments: Mapping[str, Any], result: Any, kept: Mapping[str, Any]) -> Any:
    reminder_id = _field(result, "reminder_id")
    if reminder_id is None:
        return None
    return ToolCall("cancel_reminder", {"reminder_id": int(reminder_id)})


UNDOABLE: Mapping[str, Reverser] = {
    "create_event": _created_event,
    "update_event": _updated_event,
    "delete_event": _deleted_event,
    "write_file": _written_file,
    "add_task": _added_task,
    "complete_task": _ticked_task,
    "remember": _remembered,
    "set_reminder": _reminder,
}


def reverse_call(
    name: str, arguments: Mapping[str, Any], result: Any, kept: Mapping[str, Any] | None
) -> ToolCall | None:
    """The call that undoes this successful call, or None when it cannot be undone."""
    reverser = UNDOABLE.get(name)
    if reverser is None:
        return None
    try:
        return reverser(arguments, result, kept or {})
    except (TypeError, ValueError):  # a result not shaped as expected: no Undo, never a guess
        return None


_UNDONE = {
    "create_event": "Undone: the event was deleted again.",
    "update_event": "Undone: the event is back as it was.",
    "delete_event": "Undone: the event is back.",
    "write_file": "Undone: the file is back as it was.",
    "add_task": "Undone: the task was removed again.",
    "complete_task": "Undone: the task is open again.",
    "remember": "Undone: Hearth forgot it again.",
    "set_reminder": "Undone: the reminder was cancelled.",
}


def undo_in_words(name: str, reverse: str, status: str, answer: str | None, result: Any) -> str:
    """What the card of the call `name` says after its Undo (the call `reverse`) ran or did
    not, in words: done, declined, or why it failed."""
    if status == "ok":
        if reverse == "remove_file":
            return "Undone: the file Hearth created was removed."
        return _UNDONE.get(name, "Undone.")
    if answer == "denied":
        return "Not undone: you said no."
    why = " ".join(str(result or "").split())
    for prefix in ("Refused: ", "Not done: ", "Error: "):
        why = why.removeprefix(prefix)
    return f"Undo failed: {why}" if why else "Undo failed."


def _field(value: Any, key: str) -> Any:
    return value.get(key) if isinstance(value, Mapping) else None


def _local_time(value: Any) -> str:
    """An event time as kept (ISO with its offset) as the tools take it: local wall time."""
    text = str(value or "")
    return text[:16] if len(text) >= 16 else text
