"""Free time between busy intervals, within working hours: pure arithmetic, no server.

Kept apart from the CalDAV code so the rules (working hours per local day, merged overlaps,
weekends) can be read and tested on their own.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta, tzinfo

from .times import localize_lenient

WORKDAYS = frozenset(range(5))  # Monday to Friday, as datetime.weekday() numbers them


@dataclass(frozen=True, slots=True)
class FreeSlot:
    """A stretch of free time at least as long as the duration asked for."""

    start: datetime
    end: datetime

    @property
    def minutes(self) -> int:
        """Length in whole minutes (what a person reads first)."""
        return int((self.end - self.start).total_seconds() // 60)


def merge_busy(intervals: Iterable[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    """Sort and merge overlapping or touching busy intervals; empty ones are dropped."""
    merged: list[tuple[datetime, datetime]] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def free_slots(
    busy: Iterable[tuple[datetime, datetime]],
    start: datetime,
    end: datetime,
    duration: timedelta,
    *,
    tz: tzinfo,
    day_start: time = time(8),
    day_end: time = time(18),
    workdays: Collection[int] | None = WORKDAYS,
) -> list[FreeSlot]:
    """Gaps of at least ``duration`` in ``[start, end)`` inside working hours, in ``tz``
    (unless the range is hours of one day, not starting at midnight: those hours).

    Working hours are wall clock times in ``tz`` on each local day. ``workdays`` (Monday = 0)
    limits the days, unless the range holds none of them: someone asking about a Saturday
    means that Saturday. ``None`` means every day. Each slot is a whole gap (the caller picks
    a start inside it), in order.
    """
    local_start, local_end = start.astimezone(tz), end.astimezone(tz)
    days = []
    day = local_start.date()
    while day <= local_end.date():
        days.append(day)
        day += timedelta(days=1)
    if workdays is not None and any(d.weekday() in workdays for d in days):
        days = [d for d in days if d.weekday() in workdays]
    merged = merge_busy(busy)
    # Hours asked for within a day ("Thursday after work", 17:00–21:00) are the window, the
    # evening too; working hours bound whole days.
    asked_hours = local_end - local_start < timedelta(days=1) and local_start.time() != time(0)
    slots: list[FreeSlot] = []
    for day in days:
        window_start = max(localize_lenient(datetime.combine(day, day_start), tz), local_start)
        window_end = min(localize_lenient(datetime.combine(day, day_end), tz), local_end)
        if asked_hours:
            window_start, window_end = local_start, local_end
        cursor = window_start
        for busy_start, busy_end in merged:
            if busy_end <= cursor:
                continue
            if busy_start >= window_end:
                break
            if busy_start - cursor >= duration:
                slots.append(FreeSlot(cursor, busy_start.astimezone(tz)))
            cursor = max(cursor, busy_end.astimezone(tz))
        if window_end - cursor >= duration:
            slots.append(FreeSlot(cursor, window_end))
    return slots
