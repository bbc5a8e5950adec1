"""Times for the calendar: the user's zone, strict ISO 8601 parsing, and DST-safe wall clocks.

The model hands us ISO strings; we keep parsing strict (no "tomorrow at 3") so that what the
confirmation dialog shows is exactly what the string said. A time without an offset is a wall
clock time in the user's zone, and a wall clock time that does not exist (clocks jump forward)
or happens twice (clocks go back) is refused with a message that says how to fix it, instead of
silently picking one hour.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import tzlocal

from .errors import CalendarError, CalendarErrorReason

# Date, optionally followed by "T" or one space, hours and minutes, optional seconds and
# fraction, optional "Z" or ±HH:MM offset. Nothing else: no week dates, no ordinal days, no
# compact "20261201T1500" forms a model might half-produce.
_ISO = re.compile(
    r"(?P<date>\d{4}-\d{2}-\d{2})"
    r"(?:[T ](?P<time>\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)"
    r"(?P<offset>Z|[+-]\d{2}:?\d{2})?)?"
)
# Keys tzlocal gives a zone read from a file (Debian's zoneinfo has a "localtime" link too).
_NOT_ZONE_NAMES = frozenset({"local", "localtime"})
# Dates further than this from "now" are almost certainly a slip (a model writing 0026 or 20260).
MAX_YEARS_AWAY = 100


def local_zone() -> tzinfo:
    """The system's time zone, from tzlocal: a zone that follows DST on every platform.

    Why tzlocal: the own lookup knew only ``TZ``, a symlinked ``/etc/localtime`` and
    ``/etc/timezone``, and otherwise fell back to the current fixed UTC offset, an hour off
    across daylight saving. That was every Windows computer and every Linux system with a
    copied ``/etc/localtime``; tzlocal maps Windows zone names to IANA ones and reads a copied
    file as a zone. Read anew on each call (tzlocal caches): a laptop may change zones.
    The fixed offset stays only as the last resort (a POSIX rule string in ``TZ``).
    """
    try:
        return tzlocal.reload_localzone()
    except (ZoneInfoNotFoundError, ValueError, OSError):
        local = datetime.now().astimezone().tzinfo
        return local if local is not None else UTC


def iana_name(tz: tzinfo | None) -> str | None:
    """The zone's IANA name ("Europe/Berlin") if it has one that calendars know, else None
    (a fixed offset, or a zone read from a copied file, which tzlocal names after the file)."""
    key = getattr(tz, "key", None)
    if not isinstance(key, str) or key in _NOT_ZONE_NAMES:
        return None
    try:
        ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return key


def zone_name(tz: tzinfo) -> str:
    """A short human name for a zone, for messages ("Europe/Berlin", "UTC+01:00")."""
    return iana_name(tz) or tz.tzname(datetime.now(UTC)) or str(tz)


def _offsets(naive: datetime, tz: tzinfo) -> tuple[timedelta | None, timedelta | None]:
    """The UTC offsets of a wall clock time read with fold=0 and fold=1."""
    return (
        naive.replace(tzinfo=tz, fold=0).utcoffset(),
        naive.replace(tzinfo=tz, fold=1).utcoffset(),
    )


def _exists(naive: datetime, tz: tzinfo) -> bool:
    """Whether a wall clock time really happens in ``tz`` (not skipped by a DST jump)."""
    aware = naive.replace(tzinfo=tz)
    return aware.astimezone(UTC).astimezone(tz).replace(tzinfo=None) == naive


def localize_strict(naive: datetime, tz: tzinfo, *, shown: str | None = None) -> datetime:
    """Attach ``tz`` to a wall clock time, refusing times that are skipped or happen twice."""
    shown = shown or naive.strftime("%Y-%m-%d %H:%M")
    if not _exists(naive, tz):
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"{shown} does not exist in {zone_name(tz)}: the clocks jump forward at that time "
            "(daylight saving). Give a time before or after the change.",
        )
    first, second = _offsets(naive, tz)
    if first != second:
        options = " or ".join(
            naive.replace(tzinfo=tz, fold=fold).isoformat(timespec="minutes") for fold in (0, 1)
        )
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"{shown} happens twice in {zone_name(tz)}: the clocks go back at that time "
            f"(daylight saving). Say which one with its UTC offset: {options}.",
        )
    return naive.replace(tzinfo=tz)


def localize_lenient(naive: datetime, tz: tzinfo) -> datetime:
    """Attach ``tz`` to a wall clock time computed by us (midnight, 08:00, a series shift).

    A skipped time moves forward by the jump (as calendar apps do); a repeated one takes the
    first. Only for times no person typed: those go through ``localize_strict``.
    """
    aware = naive.replace(tzinfo=tz, fold=0)
    if _exists(naive, tz):
        return aware
    return aware.astimezone(UTC).astimezone(tz)


def parse_when(text: str, tz: tzinfo | None = None, now: datetime | None = None) -> datetime:
    """Parse a strict ISO 8601 date or date-time into an aware datetime in the user's zone.

    Accepts "2026-12-01T15:00", "2026-12-01 15:00:30", "2026-12-01T15:00+01:00",
    "2026-12-01T14:00Z" and a plain date "2026-12-01" (midnight). Without an offset the time is
    a wall clock time in ``tz``; with one it is that instant, shown in ``tz``. ``now`` only
    bounds the year (a century either way) to catch typos; it defaults to the current time.
    Raises CalendarError(reason="invalid_input") with a message saying what to write instead.
    """
    zone = tz or local_zone()
    raw = text.strip() if isinstance(text, str) else ""
    match = _ISO.fullmatch(raw)
    if not match:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"{_quote(text)} is not a date or time Hearth can read. Use ISO 8601, for example "
            "2026-12-01T15:00 (your time zone), 2026-12-01T15:00+01:00 or 2026-12-01.",
        )
    candidate = match["date"] + ("T" + match["time"] if match["time"] else "")
    offset = match["offset"]
    if offset and offset != "Z" and ":" not in offset:
        offset = offset[:3] + ":" + offset[3:]
    try:
        parsed = datetime.fromisoformat(candidate + (offset or "").replace("Z", "+00:00"))
    except ValueError as exc:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"{_quote(text)} is not a real date or time ({exc}).",
        ) from exc
    reference = now or datetime.now(UTC)
    if abs(parsed.year - reference.year) > MAX_YEARS_AWAY:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"{_quote(text)} is more than {MAX_YEARS_AWAY} years away; check the year.",
        )
    if parsed.tzinfo is not None:
        return parsed.astimezone(zone)
    if not match["time"]:
        return localize_lenient(parsed, zone)
    return localize_strict(parsed, zone, shown=raw)


def parse_day(text: str) -> date | None:
    """The date when ``text`` is a plain ISO date ("2026-12-01"), else None.

    The tool layer uses it to tell an all-day request (a date) from a timed one before calling
    ``parse_when``; ``create_event`` and ``update_event`` take a ``date`` for all-day events.
    """
    raw = text.strip() if isinstance(text, str) else ""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        return None


def day_start(day: date, tz: tzinfo) -> datetime:
    """The first moment of a local day (midnight, or later where midnight is skipped)."""
    return localize_lenient(datetime.combine(day, time()), tz)


def to_zone(value: date | datetime, tz: tzinfo) -> datetime:
    """An iCalendar DATE or DATE-TIME as an aware datetime in ``tz``.

    A DATE is the start of that local day; a floating (zone-less) time is a wall clock time in
    ``tz``, which is what RFC 5545 says floating times mean.
    """
    if not isinstance(value, datetime):
        return day_start(value, tz)
    if value.tzinfo is None:
        return localize_lenient(value, tz)
    return value.astimezone(tz)


def _quote(text: object) -> str:
    """Show a model-supplied value in a message without letting it run on."""
    shown = str(text)
    return repr(shown if len(shown) <= 60 else shown[:59] + "…")
