"""To-do lists (CalDAV VTODO) on the calendar account: list, add, complete and change tasks.

Tasks live in the same CalDAV account as the events, in the calendars ("lists") that accept
VTODO. Task ids follow event ids: ``<list id>/<UID>``, so an id finds the task again after
another app edited it. A due date is either a day (an iCalendar DATE: "by Friday") or a time
in the user's zone; times the model writes go through the same strict parsing as events
(``times.parse_when``), so the dialog and the server agree on what "17:00" means.

Open tasks are listed (NEEDS-ACTION or IN-PROCESS, no COMPLETED time): a to-do list is
what is still to do; the done ones only when asked ("have I sent the tax papers yet?").
Completing a repeating task completes this occurrence and moves the series on to its next
occurrence, as task apps do.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, tzinfo
from typing import Any
from urllib.parse import quote, unquote

import icalendar
from caldav.davclient import DAVClient
from caldav.lib import error as dav_error

from connectors.others_text import one_line, visible_text

from .client import CalendarAccount, connect
from .errors import CalendarError, CalendarErrorReason
from .events import _calendar_id, _calendar_name, _calendars, _clean_text, _pick, _stored, wrapped
from .repeats import CannotMoveOn, move_on
from .times import local_zone, parse_day, parse_when, to_zone

# A caldav Calendar: its type hints mix the sync and the async API (every result is "a list
# or a coroutine"), so this module treats it as what it is here, the sync one.
DavCalendar = Any
MAX_TITLE = 500
_UID_SAFE = "@.-_+=~!$&'()*,;:"
_OPEN = frozenset({"NEEDS-ACTION", "IN-PROCESS"})


@dataclass(frozen=True, slots=True)
class Task:
    """One task as the user's task app shows it. ``due`` is in the user's zone; for a due
    day (``due_is_day``) it is that day's local midnight."""

    task_id: str
    list: str  # the list's display name
    title: str
    due: datetime | None
    due_is_day: bool
    notes: str | None
    done: bool
    recurring: bool


def _fail(text: str, reason: CalendarErrorReason = CalendarErrorReason.INVALID_INPUT) -> Exception:
    return CalendarError(reason, text)


# --------------------------------------------------------------------------------------------
# Ids and due dates
# --------------------------------------------------------------------------------------------


def make_task_id(list_id: str, uid: str) -> str:
    return f"{list_id}/{quote(uid, safe=_UID_SAFE)}"


def parse_task_id(task_id: str) -> tuple[str, str]:
    """The list id and UID inside an id from ``list_tasks``; anything else is invalid_input."""
    parts = task_id.strip().split("/") if isinstance(task_id, str) else []
    if len(parts) != 2 or not all(parts):
        raise _fail(
            f"{str(task_id)[:80]!r} is not a task id. Use a task_id exactly as list_tasks or "
            "add_task returned it."
        )
    return parts[0], unquote(parts[1])


def parse_due(text: str, tz: tzinfo | None = None, now: datetime | None = None) -> date | datetime:
    """A due day ("2026-12-05") or a due time ("2026-12-05T17:00", the user's zone); `now`
    bounds the year as in `parse_when` (the caller's clock, default the machine's)."""
    day = parse_day(text)
    return day if day is not None else parse_when(text, tz, now)


def _due_value(due: date | datetime, tz: tzinfo) -> date | datetime:
    """How a due date is written: a DATE stays a date; a time gets its zone (TZID) or UTC."""
    if isinstance(due, datetime):
        return _stored(due if due.tzinfo is not None else due.replace(tzinfo=tz))
    return due


# --------------------------------------------------------------------------------------------
# Lists
# --------------------------------------------------------------------------------------------


def _takes_tasks(cal: DavCalendar) -> bool:
    try:
        return "VTODO" in cal.get_supported_components()
    except dav_error.DAVError:
        return True  # a server that does not say accepts every component (RFC 4791 5.2.3)


def _task_lists(client: DAVClient, account: CalendarAccount) -> list[DavCalendar]:
    lists = [cal for cal in _calendars(client, account) if _takes_tasks(cal)]
    if not lists:
        raise CalendarError(
            CalendarErrorReason.NOT_FOUND,
            f"The account “{account.name}” has no list that can hold tasks (its calendars take "
            "only events). Create a task list in your calendar or task app first.",
            account=account.name,
        )
    return lists


def _pick_list(client: DAVClient, account: CalendarAccount, wanted: str | None) -> DavCalendar:
    """A named list that takes tasks, else the default calendar if it does, else the first."""
    lists = _task_lists(client, account)
    if wanted is None:
        if account.default_calendar:
            for cal in lists:
                if account.default_calendar in (_calendar_id(cal), _calendar_name(cal)):
                    return cal
        return lists[0]
    cal = _pick(account, _calendars(client, account), wanted)
    if not any(_calendar_id(c) == _calendar_id(cal) for c in lists):
        names = ", ".join(f"“{_calendar_name(c)}”" for c in lists)
        raise _fail(
            f"The calendar “{_calendar_name(cal)}” holds only events, not tasks. Lists that "
            f"hold tasks: {names}."
        )
    return cal


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


def _is_open(todo: icalendar.Component) -> bool:
    status = str(todo.get("STATUS", "NEEDS-ACTION")).upper()
    return todo.get("COMPLETED") is None and status in _OPEN


def _todo(vcal: icalendar.Calendar) -> icalendar.Component:
    """The task's own VTODO (the one without RECURRENCE-ID when a series has exceptions)."""
    todos = [c for c in vcal.subcomponents if getattr(c, "name", None) == "VTODO"]
    if not todos:
        raise _fail("That item is not a task.", CalendarErrorReason.NOT_FOUND)
    return next((c for c in todos if "RECURRENCE-ID" not in c), todos[0])


def _to_task(todo: icalendar.Component, cal: DavCalendar, tz: tzinfo) -> Task:
    due = todo.get("DUE")
    value = due.dt if due is not None else None
    notes = todo.get("DESCRIPTION")
    return Task(
        task_id=make_task_id(_calendar_id(cal), str(todo.get("UID", ""))),
        list=_calendar_name(cal),
        title=one_line(todo.get("SUMMARY", "")),  # a shared list: someone else's words
        due=to_zone(value, tz) if value is not None else None,
        due_is_day=value is not None and not isinstance(value, datetime),
        notes=(visible_text(str(notes)) or None) if notes else None,
        done=not _is_open(todo),
        recurring="RRULE" in todo,
    )


def _sort_key(task: Task) -> tuple[int, datetime, str]:
    return (task.due is None, task.due or datetime.max.replace(tzinfo=UTC), task.title.casefold())


def list_tasks(
    account: CalendarAccount,
    list_name: str | None = None,
    due_before: date | datetime | None = None,
    *,
    tz: tzinfo | None = None,
    include_done: bool = False,
) -> list[Task]:
    """Open tasks of every list that holds tasks (or of ``list_name``), soonest due first,
    those without a due date last; with ``include_done``, the done ones too. ``due_before``
    keeps tasks due before that time (a day means its start); tasks without a due date are
    then left out."""
    zone = tz or local_zone()
    limit = to_zone(due_before, zone) if due_before is not None else None
    tasks: list[Task] = []
    with connect(account) as client:
        lists = (
            [_pick_list(client, account, list_name)] if list_name else _task_lists(client, account)
        )
        for cal in lists:
            for obj in cal.search(todo=True, include_completed=include_done):
                component = obj.icalendar_component
                if component is None or component.name != "VTODO":
                    continue
                if not include_done and not _is_open(component):
                    continue
                task = _to_task(component, cal, zone)
                if limit is None or (task.due is not None and task.due < limit):
                    tasks.append(task)
    tasks.sort(key=_sort_key)
    return tasks


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def _clean_title(title: str) -> str:
    cleaned = " ".join(str(title).split())
    if not cleaned:
        raise _fail("A task needs a title.")
    if len(cleaned) > MAX_TITLE:
        raise _fail(f"The title is longer than {MAX_TITLE} characters; shorten it.")
    return cleaned


def _set(component: icalendar.Component, key: str, value: Any) -> None:
    component.pop(key, None)
    if value is not None:
        component.add(key, value)


def add_task(
    account: CalendarAccount,
    title: str,
    due: date | datetime | None = None,
    notes: str | None = None,
    list_name: str | None = None,
    *,
    tz: tzinfo | None = None,
) -> Task:
    """Add an open task to ``list_name`` (else the default list) and return it as listed."""
    zone = tz or local_zone()
    todo = icalendar.Todo()
    todo.add("UID", f"{uuid.uuid4()}@hearth")
    todo.add("DTSTAMP", datetime.now(UTC))
    todo.add("CREATED", datetime.now(UTC))
    todo.add("SUMMARY", _clean_title(title))
    todo.add("STATUS", "NEEDS-ACTION")
    if due is not None:
        todo.add("DUE", _due_value(due, zone))
    if notes:
        todo.add("DESCRIPTION", _clean_text(notes, "note"))
    vcal = wrapped(todo)
    with connect(account) as client:
        target = _pick_list(client, account, list_name)
        target.add_todo(ical=vcal.to_ical().decode("utf-8"))
        return _to_task(todo, target, zone)


def _fetch(client: DAVClient, account: CalendarAccount, task_id: str) -> tuple[Any, DavCalendar]:
    list_id, uid = parse_task_id(task_id)
    matches: list[DavCalendar] = [
        c for c in _calendars(client, account) if _calendar_id(c) == list_id
    ]
    if not matches:
        raise _fail(
            f"The list of that task is no longer in the account “{account.name}”. List the "
            "tasks again.",
            CalendarErrorReason.NOT_FOUND,
        )
    try:
        return matches[0].get_todo_by_uid(uid), matches[0]
    except dav_error.NotFoundError:
        raise _fail(
            f"That task is no longer in the list “{_calendar_name(matches[0])}”: it may have "
            "been deleted or done in another app. List the tasks again.",
            CalendarErrorReason.NOT_FOUND,
        ) from None


def _mark_done(todo: icalendar.Component) -> None:
    now = datetime.now(UTC)
    _set(todo, "STATUS", "COMPLETED")
    _set(todo, "COMPLETED", now)
    _set(todo, "PERCENT-COMPLETE", 100)


def _moved_on(vcal: icalendar.Component, todo: icalendar.Component) -> bool:
    """Move a repeating task on to its next occurrence; False after its last one."""
    try:
        return move_on(vcal, todo)
    except CannotMoveOn as exc:
        raise _fail(
            "Hearth cannot work out when this repeating task is due next "
            f"({exc}); complete it in your task app."
        ) from exc


def get_task(account: CalendarAccount, task_id: str, *, tz: tzinfo | None = None) -> Task:
    """One task as it is stored now (read only): what a change would replace, for its
    before/after preview."""
    zone = tz or local_zone()
    with connect(account) as client:
        obj, cal = _fetch(client, account, task_id)
        return _to_task(_todo(obj.icalendar_instance), cal, zone)


def complete_task(account: CalendarAccount, task_id: str, *, tz: tzinfo | None = None) -> Task:
    """Mark a task done (STATUS:COMPLETED with the time). A repeating task moves on to its
    next occurrence instead, as task apps do; after its last one it is done. Returns the
    task as it was, marked done."""
    zone = tz or local_zone()
    with connect(account) as client:
        obj, cal = _fetch(client, account, task_id)
        with obj.edit_icalendar_instance() as vcal:
            todo = _todo(vcal)
            before = _to_task(todo, cal, zone)
            if before.done:
                raise _fail(f"The task “{before.title}” is already done.")
            if not (before.recurring and _moved_on(vcal, todo)):
                _mark_done(todo)
            _set(todo, "LAST-MODIFIED", datetime.now(UTC))
            _set(todo, "DTSTAMP", datetime.now(UTC))
        obj.save()
    return replace(before, done=True)


def update_task(
    account: CalendarAccount,
    task_id: str,
    *,
    title: str | None = None,
    due: date | datetime | None = None,
    notes: str | None = None,
    remove_due: bool = False,
    tz: tzinfo | None = None,
) -> Task:
    """Change a task's title, due date or notes; ``None`` leaves a field as it is, an empty
    note removes it, ``remove_due`` removes the due date."""
    zone = tz or local_zone()
    if title is None and due is None and notes is None and not remove_due:
        raise _fail("Nothing to change: give a new title, due date or notes.")
    new_title = _clean_title(title) if title is not None else None
    new_notes = _clean_text(notes, "note") if notes is not None else None
    with connect(account) as client:
        obj, cal = _fetch(client, account, task_id)
        with obj.edit_icalendar_instance() as vcal:
            todo = _todo(vcal)
            if new_title is not None:
                _set(todo, "SUMMARY", new_title)
            if new_notes is not None:
                _set(todo, "DESCRIPTION", new_notes or None)
            if remove_due:
                _set(todo, "DUE", None)
            elif due is not None:
                _set(todo, "DUE", _due_value(due, zone))
                vcal.add_missing_timezones()
            _set(todo, "LAST-MODIFIED", datetime.now(UTC))
            _set(todo, "DTSTAMP", datetime.now(UTC))
            task = _to_task(todo, cal, zone)
        obj.save()
    return task
