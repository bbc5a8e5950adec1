"""Putting a calendar object back as it was: what undoing a change needs.

An undo of a deleted event, or of a task marked done, puts the object's stored iCalendar
text back under its own UID in its own calendar (an object of that UID that is there now is
replaced, so a task ticked by mistake is open again with its old due date and notes). An
undo of a task Hearth added removes it. The tool layer decides which undo a change gets
(`app.agent.tools.undo`); this module only talks CalDAV.
"""

from __future__ import annotations

from typing import Any, Literal

import icalendar
from caldav.lib import error as dav_error

from .client import CalendarAccount, connect
from .errors import CalendarError, CalendarErrorReason
from .events import _calendar_id, _calendar_name, _calendars

Kind = Literal["event", "task"]
_COMPONENTS: dict[Kind, str] = {"event": "VEVENT", "task": "VTODO"}


def stored_title(ical: str, kind: Kind) -> str:
    """The title inside stored iCalendar text (for a preview): its first component's."""
    component = _main(_parse(ical), kind)
    return str(component.get("SUMMARY") or "(no title)")


def restore_object(
    account: CalendarAccount, calendar_id: str, uid: str, ical: str, kind: Kind
) -> str:
    """Put `ical` back into the calendar `calendar_id` under `uid`; returns its title.

    The text must hold a component of `kind` with exactly that UID: an undo can only put
    back the object it was made from, never write another one."""
    vcal = _parse(ical)
    component = _main(vcal, kind)
    if str(component.get("UID", "")) != uid:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "The saved copy belongs to another item, so nothing was put back.",
        )
    text = vcal.to_ical().decode("utf-8")
    with connect(account) as client:
        cal = _calendar(client, account, calendar_id)
        existing = _find(cal, uid, kind)
        if existing is not None:
            existing.data = text
            existing.save()
        elif kind == "event":
            cal.add_event(ical=text)
        else:
            cal.add_todo(ical=text)
    return str(component.get("SUMMARY") or "(no title)")


def stored_object(account: CalendarAccount, calendar_id: str, uid: str, kind: Kind) -> str:
    """The stored iCalendar text of one object now (kept before a change, to undo it)."""
    with connect(account) as client:
        cal = _calendar(client, account, calendar_id)
        found = _find(cal, uid, kind)
        if found is None:
            raise _gone(cal, kind)
        return str(found.icalendar_instance.to_ical().decode("utf-8"))


def remove_object(account: CalendarAccount, calendar_id: str, uid: str, kind: Kind) -> str:
    """Delete one object (a task Hearth added); returns its title."""
    with connect(account) as client:
        cal = _calendar(client, account, calendar_id)
        found = _find(cal, uid, kind)
        if found is None:
            raise _gone(cal, kind)
        title = str(_main(found.icalendar_instance, kind).get("SUMMARY") or "(no title)")
        found.delete()
        return title


def _parse(ical: str) -> Any:
    try:
        return icalendar.Calendar.from_ical(ical)
    except (ValueError, IndexError) as exc:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"The saved copy cannot be read as iCalendar data ({exc}).",
        ) from exc


def _main(vcal: Any, kind: Kind) -> Any:
    wanted = _COMPONENTS[kind]
    parts = [c for c in vcal.subcomponents if getattr(c, "name", None) == wanted]
    if not parts:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"The saved copy holds no {kind}, so nothing was put back.",
        )
    return next((c for c in parts if "RECURRENCE-ID" not in c), parts[0])


def _calendar(client: Any, account: CalendarAccount, calendar_id: str) -> Any:
    for cal in _calendars(client, account):
        if _calendar_id(cal) == calendar_id:
            return cal
    raise CalendarError(
        CalendarErrorReason.NOT_FOUND,
        f"That calendar is no longer in the account “{account.name}”, so nothing was put back.",
        account=account.name,
    )


def _find(cal: Any, uid: str, kind: Kind) -> Any:
    try:
        return cal.get_event_by_uid(uid) if kind == "event" else cal.get_todo_by_uid(uid)
    except dav_error.NotFoundError:
        return None


def _gone(cal: Any, kind: Kind) -> CalendarError:
    return CalendarError(
        CalendarErrorReason.NOT_FOUND,
        f"That {kind} is no longer in “{_calendar_name(cal)}”: it may have been changed or "
        "deleted in another app.",
    )
