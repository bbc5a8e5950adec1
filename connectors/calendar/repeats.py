"""Moving a repeating to-do on to its next occurrence, as task apps do.

The next occurrence comes from the whole recurrence set (RRULE, RDATE, EXDATE and
RECURRENCE-ID overrides, each in its own zone) as ``recurring-ical-events`` computes it: the
library caldav's ``expand=True`` already uses for events. The RRULE alone is not enough: a
weekly task whose 8 December is excluded must move to the 15th, and an extra RDATE in between
must not be skipped.

Moving on re-anchors the series (DTSTART and DUE) at that next occurrence. That rewrite must not
move any later occurrence, so it is checked: the rewritten series is expanded again and compared
with what was left of the old one. A rule whose pattern came from its first date (weekly with no
BYDAY, ...) is pinned to that pattern when the new anchor is an extra date off the rule; a COUNT
becomes the UNTIL of the last counted date, which means the same whatever the anchor. A series
no rewrite can keep is refused with a message rather than changed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import icalendar
import recurring_ical_events

_CHECKED = 400  # later occurrences that must stay where they were
_WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


class CannotMoveOn(ValueError):
    """The series cannot be re-anchored without changing its later dates."""


def _occurrences(vcal: icalendar.Component) -> Iterator[icalendar.Component]:
    """Every occurrence of the to-do in ``vcal``, in time order (lazy: series may be endless)."""
    query: Any = recurring_ical_events.of(vcal, components=["VTODO"])
    return iter(query.all())


def _value(component: icalendar.Component, key: str) -> date | datetime | None:
    prop = component.get(key)
    return None if prop is None else prop.dt


def _instant(value: date | datetime) -> datetime:
    """A comparable point in time: days at midnight, floating times as UTC."""
    if not isinstance(value, datetime):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _key(occurrence: icalendar.Component) -> tuple[datetime | None, ...]:
    values = (_value(occurrence, k) for k in ("RECURRENCE-ID", "DTSTART", "DUE"))
    return tuple(None if v is None else _instant(v) for v in values)


def _anchor(todo: icalendar.Component) -> date | datetime:
    value = _value(todo, "DTSTART") or _value(todo, "DUE")
    if value is None:
        raise CannotMoveOn("the repeating task has neither a start nor a due date")
    return value


def _wall_step(start: date | datetime, end: date | datetime) -> timedelta:
    """How far ``end`` is from ``start`` on the wall clock of ``start``'s zone, so that a
    08:00 task stays at 08:00 across a change to or from summer time."""
    if isinstance(start, datetime) and isinstance(end, datetime):
        if start.tzinfo is not None and end.tzinfo is not None:
            end = end.astimezone(start.tzinfo)
        return end.replace(tzinfo=None) - start.replace(tzinfo=None)
    return _day(end) - _day(start)


def _day(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


def _pin(rule: Any, anchor: date | datetime) -> None:
    """Write down the parts of the pattern a rule took from its first date."""
    freq = str(rule["FREQ"][0]).upper()
    has = {str(k).upper() for k in rule}
    if freq == "WEEKLY" and "BYDAY" not in has:
        rule["BYDAY"] = [_WEEKDAYS[anchor.weekday()]]
    elif freq == "MONTHLY" and not has & {"BYDAY", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO"}:
        rule["BYMONTHDAY"] = [anchor.day]
    elif freq == "YEARLY" and not has & {"BYMONTH", "BYWEEKNO", "BYYEARDAY", "BYMONTHDAY"}:
        rule["BYMONTH"] = [anchor.month]
        if "BYDAY" not in has:
            rule["BYMONTHDAY"] = [anchor.day]


def _last_counted(todo: icalendar.Component) -> date | datetime | None:
    """The last date a COUNT rule generates (EXDATEs count too, as RFC 5545 says)."""
    bare = icalendar.Todo.from_ical(todo.to_ical())
    for key in ("EXDATE", "RDATE"):
        bare.pop(key, None)
    alone = icalendar.Calendar()
    alone.add_component(bare)
    last = None
    for occurrence in _occurrences(alone):
        last = _value(occurrence, "RECURRENCE-ID")
    return last


def _until(last: date | datetime) -> date | datetime:
    """UNTIL in the form RFC 5545 asks for: a day for day series, UTC for zoned times."""
    if isinstance(last, datetime) and last.tzinfo is not None:
        return last.astimezone(UTC)
    return last


def _rewrite(
    vcal: icalendar.Component, next_id: date | datetime, *, pin: bool
) -> icalendar.Component:
    """Re-anchor the series in ``vcal`` (changed in place) at ``next_id``; return its VTODO."""
    todos = [c for c in vcal.subcomponents if getattr(c, "name", None) == "VTODO"]
    master = next(c for c in todos if "RECURRENCE-ID" not in c)
    anchor = _anchor(master)
    rule: Any = master["RRULE"]
    if "COUNT" in rule:
        last = _last_counted(master)
        del rule["COUNT"]
        if last is not None:
            rule["UNTIL"] = [_until(last)]
    if pin:
        _pin(rule, anchor)
    step = _wall_step(anchor, next_id)
    for key in ("DTSTART", "DUE"):
        moved = _value(master, key)
        if moved is not None:
            master.pop(key)
            master.add(key, moved + step)
    for override in todos:  # overrides of occurrences now before the series: done with
        rid = _value(override, "RECURRENCE-ID")
        if rid is not None and _instant(rid) < _instant(next_id):
            vcal.subcomponents.remove(override)
    return master


def _rest(vcal: icalendar.Component, after: date | datetime) -> list[tuple[datetime | None, ...]]:
    start = _instant(after)
    keys = (_key(o) for o in _occurrences(vcal))
    return list(itertools.islice((k for k in keys if k[0] is not None and k[0] >= start), _CHECKED))


def next_occurrence(vcal: icalendar.Component, todo: icalendar.Component) -> date | datetime | None:
    """The original date (RECURRENCE-ID) of the occurrence after the current one, or None."""
    current = _instant(_anchor(todo))
    for occurrence in _occurrences(vcal):
        rid = _value(occurrence, "RECURRENCE-ID")
        if rid is not None and _instant(rid) > current:
            return rid
    return None


def move_on(vcal: icalendar.Component, todo: icalendar.Component) -> bool:
    """Complete the current occurrence of the series in ``vcal`` by re-anchoring it at the next
    one (``vcal`` is changed in place). False when there is no next occurrence: the caller then
    marks the task done. Raises CannotMoveOn when no rewrite keeps the later dates."""
    try:
        following = next_occurrence(vcal, todo)
    except (ValueError, TypeError, KeyError) as exc:
        raise CannotMoveOn(str(exc)) from exc
    if following is None:
        return False
    wanted = _rest(vcal, following)
    snapshot = vcal.to_ical()
    attempts: tuple[Callable[[icalendar.Component], Any], ...] = (
        lambda cal: _rewrite(cal, following, pin=False),
        lambda cal: _rewrite(cal, following, pin=True),
    )
    for attempt in attempts:
        trial = icalendar.Calendar.from_ical(snapshot)
        try:
            attempt(trial)
            kept = _rest(trial, following) == wanted
        except (ValueError, TypeError, KeyError):
            kept = False
        if kept:
            attempt(vcal)
            return True
    raise CannotMoveOn("moving the series on would change its later dates")
