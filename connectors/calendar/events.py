"""Calendar operations: list calendars and events, find free time, create, update, delete.

Event ids. ``list_events`` gives every event an id ``<calendar id>/<UID>`` and every occurrence
of a repeating event ``<calendar id>/<UID>/<RECURRENCE-ID>`` (UTC ``20261201T140000Z``, or
``20261201`` for all-day series). The UID never changes, so the id finds the event again after
other clients edit it; the UID is percent-encoded so it never contains a ``/``.

Repeating events: ``update_event`` and ``delete_event`` act on the whole series, whichever
occurrence's id they are given, and their result says so (``EventChange.whole_series``). Moving
the time of a series moves every occurrence to the new time of day (and duration) but keeps the
days: a series cannot be moved to another day here, because its rule (say "every Tuesday") would
no longer match. Exceptions to the series (moved or edited single occurrences) and skipped dates
follow the shift. With ``only_occurrence`` and an occurrence's id, only that occurrence changes
(RFC 5545): an update writes an exception for it (a VEVENT with its RECURRENCE-ID), which may
move it to another day; a delete skips its date (EXDATE). The rest of the series stays.

Cancelled events (STATUS:CANCELLED) are not listed and never count as busy. An event with
TRANSP:TRANSPARENT ("show as free") is listed with ``busy=False``; without TRANSP an event is
busy, as RFC 5545 says.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Collection, Iterable
from copy import deepcopy
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any, Literal
from urllib.parse import quote, unquote, urlsplit

import icalendar
from caldav.collection import Calendar as DavCalendar
from caldav.davclient import DAVClient
from caldav.lib import error as dav_error

from connectors.email_address import is_email_address
from connectors.others_text import one_line, visible_text

from .client import CalendarAccount, connect
from .errors import CalendarError, CalendarErrorReason
from .freetime import WORKDAYS, FreeSlot, free_slots
from .times import iana_name, local_zone, localize_lenient, localize_strict, to_zone

PRODID = "-//Hearth//Hearth calendar connector//EN"
MAX_RANGE = timedelta(days=366)  # a recurrence expanded over more would flood the model
MAX_TITLE = 500
MAX_TEXT = 10_000
MAX_ATTENDEES = 100
_UID_SAFE = "@.-_+=~!$&'()*,;:"
_RECID = re.compile(r"\d{8}(T\d{6}Z?)?")


@dataclass(frozen=True, slots=True)
class CalendarInfo:
    """One calendar of an account: ``id`` goes into event ids, ``name`` is what people see."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Event:
    """One event, or one occurrence of a repeating event, in the user's time zone.

    All-day events start and end at local midnight (``end`` is the midnight after the last
    day). ``recurring`` marks an occurrence of a series: updating or deleting it changes the
    whole series. ``busy`` is False for events marked "show as free".
    """

    event_id: str
    calendar: str  # the calendar's display name
    title: str
    start: datetime
    end: datetime
    all_day: bool
    location: str | None
    description: str | None
    attendees: tuple[str, ...]
    organizer: str | None
    recurring: bool
    busy: bool = True


@dataclass(frozen=True, slots=True)
class EventChange:
    """What update_event / delete_event did, in words the tool layer can pass on.

    ``event`` is the event after the update, or as it was before the delete. ``whole_series``
    is True when the change hit every occurrence of a repeating event.
    """

    action: Literal["updated", "deleted"]
    event: Event
    whole_series: bool
    message: str
    # As it was before the change: the event as the user saw it, and its stored iCalendar
    # text (what an undo puts back, `connectors.calendar.restore`).
    before: Event | None = None
    stored: str = ""


# --------------------------------------------------------------------------------------------
# Event ids
# --------------------------------------------------------------------------------------------


def make_event_id(calendar_id: str, uid: str, recurrence_id: date | datetime | None = None) -> str:
    """The id for an event or one occurrence (see the module docstring for the format)."""
    parts = [calendar_id, quote(uid, safe=_UID_SAFE)]
    if recurrence_id is not None:
        parts.append(_recid_text(recurrence_id))
    return "/".join(parts)


def _recid_text(value: date | datetime) -> str:
    """RECURRENCE-ID in the id: UTC for zoned times, as-is for floating times and dates."""
    if not isinstance(value, datetime):
        return value.strftime("%Y%m%d")
    if value.tzinfo is None:
        return value.strftime("%Y%m%dT%H%M%S")
    return value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _recid_value(text: str) -> date | datetime:
    """The occurrence start an id's third part stands for."""
    if len(text) == 8:
        return datetime.strptime(text, "%Y%m%d").date()
    if text.endswith("Z"):
        return datetime.strptime(text, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    return datetime.strptime(text, "%Y%m%dT%H%M%S")


@dataclass(frozen=True, slots=True)
class _EventRef:
    calendar_id: str
    uid: str
    occurrence: date | datetime | None


def parse_event_id(event_id: str) -> _EventRef:
    """Split an id from ``list_events``; a malformed one is an invalid_input error."""
    parts = event_id.strip().split("/") if isinstance(event_id, str) else []
    valid = 2 <= len(parts) <= 3 and all(parts)
    if valid and len(parts) == 3:
        valid = bool(_RECID.fullmatch(parts[2]))
    if valid:
        try:
            occurrence = _recid_value(parts[2]) if len(parts) == 3 else None
        except ValueError:
            valid = False
    if not valid:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"{str(event_id)[:80]!r} is not an event id. Use an event_id exactly as "
            "list_events returned it.",
        )
    return _EventRef(parts[0], unquote(parts[1]), occurrence)


# --------------------------------------------------------------------------------------------
# Calendars
# --------------------------------------------------------------------------------------------


def _calendar_id(cal: DavCalendar) -> str:
    """The last path segment of the calendar's URL, still percent-encoded (so never a '/')."""
    return urlsplit(str(cal.url)).path.rstrip("/").rsplit("/", 1)[-1]


def _calendar_name(cal: DavCalendar) -> str:
    """The display name (cached from the calendar listing), else the decoded id."""
    name = cal.get_display_name()
    return str(name) if name else unquote(_calendar_id(cal))


def _calendars(client: DAVClient, account: CalendarAccount) -> list[DavCalendar]:
    """The account's calendars; none at all almost always means a wrong address.

    (caldav accepts some non-CalDAV answers, such as a login page, as "no calendars", so an
    empty list would otherwise read as an empty calendar.)
    """
    found = list(client.principal().get_calendars())
    if not found:
        raise CalendarError(
            CalendarErrorReason.NOT_FOUND,
            f"Hearth found no calendars in the account “{account.name}” ({account.host}). Check "
            "the server address in Hearth's settings; if it is right, create a calendar in your "
            "calendar app first.",
            account=account.name,
        )
    return found


def _pick(account: CalendarAccount, calendars: list[DavCalendar], wanted: str) -> DavCalendar:
    """A calendar by id, else by display name (ignoring case); not_found lists the choices."""
    for cal in calendars:
        if _calendar_id(cal) == wanted:
            return cal
    folded = wanted.strip().casefold()
    for cal in calendars:
        if _calendar_name(cal).casefold() == folded:
            return cal
    names = ", ".join(f"“{_calendar_name(c)}”" for c in calendars) or "none"
    raise CalendarError(
        CalendarErrorReason.NOT_FOUND,
        f"There is no calendar “{wanted[:80]}” in the account “{account.name}”. Its calendars "
        f"are: {names}.",
        account=account.name,
    )


def _default_calendar(account: CalendarAccount, calendars: list[DavCalendar]) -> DavCalendar:
    """Where new events go: the account's default, else the first calendar that takes events."""
    if account.default_calendar:
        return _pick(account, calendars, account.default_calendar)
    for cal in calendars:
        try:
            components: object = cal.get_supported_components()
        except dav_error.DAVError:
            components = ["VEVENT"]
        if not isinstance(components, list):  # only the async client returns a coroutine
            components = ["VEVENT"]
        if "VEVENT" in components:
            return cal
    raise CalendarError(
        CalendarErrorReason.NOT_FOUND,
        f"The account “{account.name}” has no calendar that can hold events. Create one in "
        "your calendar app first.",
        account=account.name,
    )


def list_calendars(account: CalendarAccount) -> list[CalendarInfo]:
    """The account's calendars (id and display name), in the server's order."""
    with connect(account) as client:
        return [
            CalendarInfo(_calendar_id(c), _calendar_name(c)) for c in _calendars(client, account)
        ]


# --------------------------------------------------------------------------------------------
# Reading events
# --------------------------------------------------------------------------------------------


def _text(component: icalendar.Component, key: str) -> str | None:
    """A text field as a reader sees it: an invitation is someone else's text."""
    value = component.get(key)
    text = visible_text(str(value)) if value is not None else ""
    return text or None


def _addresses(value: Any) -> tuple[str, ...]:
    """ATTENDEE values (one or a list) as plain addresses without ``mailto:``."""
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        text = str(item)
        out.append(text[7:] if text.lower().startswith("mailto:") else text)
    return tuple(out)


def _moment_of(value: object, what: str) -> date | datetime:
    """A date-time property's value (DTSTART, DTEND, RECURRENCE-ID, one EXDATE): a server's
    malformed one is refused in words, not met later as an AttributeError."""
    moment = getattr(value, "dt", None)
    if not isinstance(moment, date):  # a datetime is a date too
        raise CalendarError(
            CalendarErrorReason.SERVER_ERROR,
            f"The calendar sent an entry whose {what} is not a date or a time.",
        )
    return moment


def _moment(component: icalendar.Component, key: str) -> date | datetime:
    return _moment_of(component[key], key)


def _length(start: date | datetime, end: date | datetime) -> timedelta:
    """How long from `start` to `end`; both dates or both times (RFC 5545 says so)."""
    if isinstance(start, datetime) and isinstance(end, datetime):
        return end - start
    if not isinstance(start, datetime) and not isinstance(end, datetime):
        return end - start
    raise CalendarError(
        CalendarErrorReason.SERVER_ERROR,
        "The calendar sent an event that starts on a date and ends at a time (or the reverse).",
    )


def _bounds(component: icalendar.Component) -> tuple[date | datetime, date | datetime]:
    """DTSTART and the end (DTEND, or DTSTART + DURATION, or RFC 5545's defaults)."""
    start = _moment(component, "DTSTART")
    if "DTEND" in component:
        return start, _moment(component, "DTEND")
    length = getattr(component.get("DURATION"), "dt", None)
    if isinstance(length, timedelta):
        return start, start + length
    if isinstance(start, datetime):
        return start, start
    return start, start + timedelta(days=1)


def _is_cancelled(component: icalendar.Component) -> bool:
    return str(component.get("STATUS", "")).upper() == "CANCELLED"


def _to_event(
    component: icalendar.Component,
    calendar_id: str,
    calendar_name: str,
    tz: tzinfo,
    *,
    recurring: bool | None = None,
    event_id: str | None = None,
) -> Event:
    """An Event from one VEVENT (an expanded occurrence or a plain event)."""
    start, end = _bounds(component)
    recid = component.get("RECURRENCE-ID")
    uid = str(component.get("UID", ""))
    if recurring is None:
        recurring = recid is not None or "RRULE" in component or "RDATE" in component
    organizer = _addresses(component.get("ORGANIZER"))
    return Event(
        event_id=event_id or make_event_id(calendar_id, uid, recid.dt if recid else None),
        calendar=calendar_name,
        title=one_line(component.get("SUMMARY", "")),
        start=to_zone(start, tz),
        end=to_zone(end, tz),
        all_day=not isinstance(start, datetime),
        location=_text(component, "LOCATION"),
        description=_text(component, "DESCRIPTION"),
        attendees=_addresses(component.get("ATTENDEE")),
        organizer=organizer[0] if organizer else None,
        recurring=recurring,
        busy=str(component.get("TRANSP", "OPAQUE")).upper() != "TRANSPARENT",
    )


def _aware(value: datetime, tz: tzinfo, what: str) -> datetime:
    """A caller's datetime with a zone: a naive one is a wall clock time in ``tz``."""
    if not isinstance(value, datetime):
        raise TypeError(f"{what} must be a datetime")
    return value if value.tzinfo is not None else localize_strict(value, tz)


def _check_range(start: datetime, end: datetime) -> None:
    if end <= start:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "The end of the time range must be after its start.",
        )
    if end - start > MAX_RANGE:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"The time range is longer than {MAX_RANGE.days} days; ask for a shorter one.",
        )


def list_events(
    account: CalendarAccount,
    start: datetime,
    end: datetime,
    calendar: str | None = None,
    *,
    tz: tzinfo | None = None,
) -> list[Event]:
    """Events overlapping ``[start, end)``, repeating ones expanded, sorted by start.

    All calendars of the account unless ``calendar`` (an id or a display name) is given.
    Times come back in ``tz`` (default: the system zone). Naive ``start``/``end`` are wall
    clock times in ``tz``.
    """
    zone = tz or local_zone()
    start, end = _aware(start, zone, "start"), _aware(end, zone, "end")
    _check_range(start, end)
    events: list[Event] = []
    with connect(account) as client:
        calendars = _calendars(client, account)
        if calendar is not None:
            calendars = [_pick(account, calendars, calendar)]
        for cal in calendars:
            cal_id, cal_name = _calendar_id(cal), _calendar_name(cal)
            found: object = cal.search(start=start, end=end, event=True, expand=True)
            if not isinstance(found, list):  # only the async client returns a coroutine
                found = []
            for obj in found:
                component = obj.icalendar_component
                if component is None or component.name != "VEVENT" or _is_cancelled(component):
                    continue
                event = _to_event(component, cal_id, cal_name, zone)
                if (event.end > start and event.start < end) or event.start == event.end == start:
                    events.append(event)
    events.sort(key=lambda e: (e.start, e.end, e.title, e.event_id))
    return events


def find_free_time(
    account: CalendarAccount,
    start: datetime,
    end: datetime,
    duration_minutes: int,
    *,
    day_start: time = time(8),
    day_end: time = time(18),
    tz: tzinfo | None = None,
    workdays: Collection[int] | None = WORKDAYS,
    calendar: str | None = None,
) -> list[FreeSlot]:
    """Free stretches of at least ``duration_minutes`` within working hours, across calendars.

    Busy time is every listed event with ``busy`` (overlaps merged); working hours are wall
    clock times in ``tz`` on ``workdays`` (Monday to Friday unless the range has none of those:
    see ``freetime.free_slots``).
    """
    zone = tz or local_zone()
    if not isinstance(duration_minutes, int) or not 1 <= duration_minutes <= 24 * 60:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "The duration must be a whole number of minutes between 1 and 1440.",
        )
    if day_end <= day_start:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "The working day must end after it starts.",
        )
    start, end = _aware(start, zone, "start"), _aware(end, zone, "end")
    events = list_events(account, start, end, calendar, tz=zone)
    busy = [(e.start, e.end) for e in events if e.busy]
    return free_slots(
        busy,
        start,
        end,
        timedelta(minutes=duration_minutes),
        tz=zone,
        day_start=day_start,
        day_end=day_end,
        workdays=workdays,
    )


# --------------------------------------------------------------------------------------------
# Writing events
# --------------------------------------------------------------------------------------------


def _clean_title(title: str) -> str:
    cleaned = " ".join(str(title).split())
    if not cleaned:
        raise CalendarError(CalendarErrorReason.INVALID_INPUT, "An event needs a title.")
    if len(cleaned) > MAX_TITLE:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"The title is longer than {MAX_TITLE} characters; shorten it.",
        )
    return cleaned


def _clean_text(value: str, what: str) -> str:
    text = str(value).strip()
    if len(text) > MAX_TEXT:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"The {what} is longer than {MAX_TEXT} characters; shorten it.",
        )
    return text


def _clean_attendees(attendees: Iterable[str] | None) -> list[str]:
    """Valid, de-duplicated e-mail addresses (a ``mailto:`` prefix is allowed)."""
    if attendees is None:
        return []
    if isinstance(attendees, str):
        attendees = [attendees]
    out: list[str] = []
    for raw in attendees:
        address = str(raw).strip()
        if address.lower().startswith("mailto:"):
            address = address[7:]
        if not is_email_address(address):
            raise CalendarError(
                CalendarErrorReason.INVALID_INPUT,
                f"{address[:80]!r} is not an e-mail address; attendees must be e-mail addresses.",
            )
        if address.lower() not in (a.lower() for a in out):
            out.append(address)
    if len(out) > MAX_ATTENDEES:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            f"An event can have at most {MAX_ATTENDEES} attendees here.",
        )
    return out


def _stored(value: datetime) -> datetime:
    """How a time is written: with its IANA zone (TZID) if it has one, else in UTC (a zone
    read from a copied /etc/localtime has no name a calendar server would know)."""
    if iana_name(value.tzinfo) is not None:
        return value
    return value.astimezone(UTC)


def _normalize_span(
    start: date | datetime, end: date | datetime, tz: tzinfo
) -> tuple[date | datetime, date | datetime]:
    """Check a new event's start and end; dates mean all-day with ``end`` the last day."""
    if isinstance(start, datetime) != isinstance(end, datetime):
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "Give both start and end as dates (an all-day event) or both as times.",
        )
    if not isinstance(start, datetime):
        assert not isinstance(end, datetime)
        if end < start:
            raise CalendarError(
                CalendarErrorReason.INVALID_INPUT,
                "The last day of the event is before its first day.",
            )
        return start, end + timedelta(days=1)
    assert isinstance(end, datetime)
    start, end = _stored(_aware(start, tz, "start")), _stored(_aware(end, tz, "end"))
    if end <= start:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "The event must end after it starts.",
        )
    return start, end


def _set(component: icalendar.Component, key: str, value: Any, **params: str) -> None:
    """Replace a property (icalendar's ``add`` would append a second one)."""
    component.pop(key, None)
    if value is not None:
        component.add(key, value, parameters=params or {})


def wrapped(component: icalendar.Component) -> icalendar.Calendar:
    """A new event or task as a calendar object, with the zones its times name."""
    vcal = icalendar.Calendar()
    vcal.add("PRODID", PRODID)
    vcal.add("VERSION", "2.0")
    vcal.add_component(component)
    vcal.add_missing_timezones()
    return vcal


def create_event(
    account: CalendarAccount,
    title: str,
    start: date | datetime,
    end: date | datetime,
    location: str | None = None,
    description: str | None = None,
    attendees: Iterable[str] | None = None,
    calendar: str | None = None,
    *,
    tz: tzinfo | None = None,
) -> Event:
    """Create an event and return it as ``list_events`` would show it.

    ``start``/``end`` as datetimes make a timed event (naive ones are wall clock times in
    ``tz``, and a time skipped or repeated by DST is refused); as dates they make an all-day
    event from ``start`` to ``end`` inclusive. Attendees become ATTENDEE lines (mailto:): on
    servers that do scheduling that sends them invitations. The event goes into ``calendar``
    (id or name), else the account's default, else the first calendar that takes events.
    """
    zone = tz or local_zone()
    clean_title = _clean_title(title)
    dtstart, dtend = _normalize_span(start, end, zone)
    people = _clean_attendees(attendees)
    vevent = icalendar.Event()
    vevent.add("UID", f"{uuid.uuid4()}@hearth")
    vevent.add("DTSTAMP", datetime.now(UTC))
    vevent.add("DTSTART", dtstart)
    vevent.add("DTEND", dtend)
    vevent.add("SUMMARY", clean_title)
    vevent.add("SEQUENCE", 0)
    if location:
        vevent.add("LOCATION", _clean_text(location, "location"))
    if description:
        vevent.add("DESCRIPTION", _clean_text(description, "description"))
    if people and account.email:
        vevent.add("ORGANIZER", f"mailto:{account.email}")
    for person in people:
        vevent.add(
            "ATTENDEE",
            f"mailto:{person}",
            parameters={
                "ROLE": "REQ-PARTICIPANT",
                "PARTSTAT": "NEEDS-ACTION",
                "RSVP": "TRUE",
                "CUTYPE": "INDIVIDUAL",
            },
        )
    vcal = wrapped(vevent)
    with connect(account) as client:
        calendars = _calendars(client, account)
        if calendar is not None:
            target = _pick(account, calendars, calendar)
        else:
            target = _default_calendar(account, calendars)
        target.add_event(ical=vcal.to_ical().decode("utf-8"))
        return _to_event(vevent, _calendar_id(target), _calendar_name(target), zone)


@dataclass(slots=True)
class _Found:
    """An event object fetched for editing, with where it lives."""

    obj: Any  # caldav.Event
    calendar_id: str
    calendar_name: str


def _fetch(client: DAVClient, account: CalendarAccount, ref: _EventRef) -> _Found:
    """The stored object for an id; a vanished calendar or event is a not_found error."""
    calendars = _calendars(client, account)
    matches = [c for c in calendars if _calendar_id(c) == ref.calendar_id]
    if not matches:
        raise CalendarError(
            CalendarErrorReason.NOT_FOUND,
            f"The calendar of that event is no longer in the account “{account.name}”. List the "
            "events again.",
            account=account.name,
        )
    cal = matches[0]
    try:
        obj = cal.get_event_by_uid(ref.uid)
    except dav_error.NotFoundError:
        raise CalendarError(
            CalendarErrorReason.NOT_FOUND,
            f"That event is no longer in the calendar “{_calendar_name(cal)}” of "
            f"“{account.name}”: it may have been deleted or moved in another app. List the "
            "events again.",
            account=account.name,
            status=404,
        ) from None
    return _Found(obj, _calendar_id(cal), _calendar_name(cal))


def _parts(vcal: icalendar.Calendar) -> tuple[icalendar.Component, list[icalendar.Component]]:
    """The master VEVENT and the overridden occurrences (components with RECURRENCE-ID)."""
    events = [c for c in vcal.subcomponents if getattr(c, "name", None) == "VEVENT"]
    if not events:
        raise CalendarError(
            CalendarErrorReason.SERVER_ERROR,
            "The calendar server returned that event without any event data.",
        )
    masters = [c for c in events if "RECURRENCE-ID" not in c]
    overrides = [c for c in events if "RECURRENCE-ID" in c]
    return (masters[0] if masters else events[0]), overrides


def _is_series(master: icalendar.Component, overrides: list[icalendar.Component]) -> bool:
    return "RRULE" in master or "RDATE" in master or bool(overrides)


def _same_instant(a: date | datetime, b: date | datetime) -> bool:
    """Compare two DATE / DATE-TIME values (aware with aware, naive with naive, date with date)."""
    if isinstance(a, datetime) != isinstance(b, datetime):
        return False
    if (
        isinstance(a, datetime)
        and isinstance(b, datetime)
        and (a.tzinfo is None) != (b.tzinfo is None)
    ):
        return a.replace(tzinfo=None) == b.replace(tzinfo=None)
    return a == b


def _as_seen(
    found: _Found,
    master: Any,
    overrides: Any,
    occurrence: Any,
    series: bool,
    zone: tzinfo,
    uid: str,
) -> Event:
    """The event (or the occurrence the id named) as the user sees it, for a change result."""
    view = _occurrence_view(master, overrides, occurrence) if occurrence else master
    return _to_event(
        view,
        found.calendar_id,
        found.calendar_name,
        zone,
        recurring=series,
        event_id=make_event_id(found.calendar_id, uid, occurrence),
    )


def _occurrence_view(
    master: icalendar.Component,
    overrides: list[icalendar.Component],
    occurrence: date | datetime,
) -> icalendar.Component:
    """One occurrence as a VEVENT: its override if it has one, else the master moved there."""
    for override in overrides:
        if _same_instant(_moment(override, "RECURRENCE-ID"), occurrence):
            return override
    view = deepcopy(master)
    start, end = _bounds(master)
    occ: date | datetime = occurrence
    if isinstance(start, datetime) and isinstance(occurrence, datetime):
        zone = start.tzinfo
        occ = occurrence.astimezone(zone) if zone and occurrence.tzinfo else occurrence
    for key in ("RRULE", "RDATE", "EXDATE", "DURATION"):
        view.pop(key, None)
    _set(view, "DTSTART", occ)
    _set(view, "DTEND", occ + _length(start, end))
    _set(view, "RECURRENCE-ID", occ)
    return view


def _exception_for(
    vcal: icalendar.Calendar,
    master: icalendar.Component,
    overrides: list[icalendar.Component],
    occurrence: date | datetime,
) -> icalendar.Component:
    """The exception (override VEVENT) of one occurrence, written into `vcal` if it had none:
    what changing that occurrence alone edits."""
    view = _occurrence_view(master, overrides, occurrence)
    if not any(view is override for override in overrides):
        vcal.add_component(view)
        overrides.append(view)
    return view


def _edit_exception(
    vcal: icalendar.Calendar,
    exception: icalendar.Component,
    texts: dict[str, str | None],
    start: date | datetime | None,
    end: date | datetime | None,
) -> None:
    """New texts and times for one occurrence's exception (`None` leaves a field as is)."""
    for key, value in texts.items():
        if value is not None:
            _set(exception, key, value or None)
    if start is not None or end is not None:
        _edit_single(exception, start, end)
        vcal.add_missing_timezones()
    _set(exception, "DTSTAMP", datetime.now(UTC))


def _occurrence_message(action: str, event: Event, occurrence: date | datetime) -> str:
    day = occurrence.date() if isinstance(occurrence, datetime) else occurrence
    return (
        f"{action.capitalize()} only the occurrence of the repeating event “{event.title}” on "
        f"{day.isoformat()}; the other occurrences are unchanged."
    )


def _as_new_time(value: date | datetime | None, tz: tzinfo, what: str) -> date | datetime | None:
    if value is None or not isinstance(value, datetime):
        return value
    return _stored(_aware(value, tz, what))


def _edit_single(
    component: icalendar.Component,
    start: date | datetime | None,
    end: date | datetime | None,
) -> None:
    """New start and/or end for a one-off event (a lone start keeps the duration)."""
    old_start, old_end = _bounds(component)
    new_start = start if start is not None else old_start
    if end is not None:
        new_end: date | datetime = end if isinstance(end, datetime) else end + timedelta(days=1)
    elif isinstance(new_start, datetime) == isinstance(old_start, datetime):
        new_end = new_start + _length(old_start, old_end)
    else:
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "Changing an event between all-day and timed needs both a new start and a new end.",
        )
    if isinstance(new_start, datetime) != isinstance(new_end, datetime):
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "Give both start and end as dates (an all-day event) or both as times.",
        )
    if _length(new_start, new_end) <= timedelta(0):
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "The event must end after it starts.",
        )
    _set(component, "DTSTART", new_start)
    component.pop("DURATION", None)
    _set(component, "DTEND", new_end)


def _wall(value: datetime, zone: tzinfo | None) -> datetime:
    """A datetime as naive wall clock time in ``zone`` (floating values stay as they are)."""
    if value.tzinfo is None or zone is None:
        return value.replace(tzinfo=None)
    return value.astimezone(zone).replace(tzinfo=None)


def _shift(value: date | datetime, delta: timedelta, zone: tzinfo | None) -> date | datetime:
    """Move a DATE / DATE-TIME by a wall clock delta in its own zone (DST-safe)."""
    if not isinstance(value, datetime):
        return value
    if value.tzinfo is None:
        return value + delta
    own = value.tzinfo if isinstance(getattr(value.tzinfo, "key", None), str) else zone
    own = own or UTC
    return localize_lenient(_wall(value, own) + delta, own)


def _edit_series(
    vcal: icalendar.Calendar,
    master: icalendar.Component,
    overrides: list[icalendar.Component],
    occurrence: date | datetime,
    start: date | datetime | None,
    end: date | datetime | None,
    tz: tzinfo,
) -> date | datetime:
    """Move every occurrence to a new time of day / duration; returns the new occurrence key.

    The shift is the wall clock difference between the occurrence and its new start, in the
    series' own zone, applied to DTSTART, to skipped dates (EXDATE) and to the ids of
    exceptions (RECURRENCE-ID), so nothing falls out of the series. Moving to another day is
    refused: the rule ("every Tuesday") would not follow.
    """
    old_start, old_end = _bounds(master)
    duration = _length(old_start, old_end)
    timed = isinstance(old_start, datetime)
    for value in (start, end):
        if value is not None and isinstance(value, datetime) != timed:
            kind = "timed" if timed else "all-day"
            raise CalendarError(
                CalendarErrorReason.INVALID_INPUT,
                f"This is a repeating {kind} event; give the new start and end as "
                f"{'times' if timed else 'dates'}.",
            )
    zone = (
        old_start.tzinfo if isinstance(old_start, datetime) and old_start.tzinfo is not None else tz
    )
    if not timed:
        assert isinstance(occurrence, date)
        if start is not None and start != occurrence:
            raise _other_day_error()
        if end is not None:
            assert isinstance(end, date)
            if end < occurrence:
                raise CalendarError(
                    CalendarErrorReason.INVALID_INPUT,
                    "The last day of the event is before its first day.",
                )
            _set(master, "DTEND", old_start + (end - occurrence) + timedelta(days=1))
            master.pop("DURATION", None)
        return occurrence
    assert isinstance(occurrence, datetime) and isinstance(old_start, datetime)
    occ_aware = occurrence if occurrence.tzinfo else localize_lenient(occurrence, zone)
    new_start = start if isinstance(start, datetime) else occ_aware
    if _wall(new_start, zone).date() != _wall(occ_aware, zone).date():
        raise _other_day_error()
    delta = _wall(new_start, zone) - _wall(occ_aware, zone)
    if isinstance(end, datetime):
        duration = end - new_start
    if duration <= timedelta(0):
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "The event must end after it starts.",
        )
    new_master_start = _shift(old_start, delta, zone)
    _set(master, "DTSTART", new_master_start)
    master.pop("DURATION", None)
    _set(master, "DTEND", new_master_start + duration)
    if delta:
        exdates = master.get("EXDATE")
        if exdates is not None:
            values = [
                _shift(_moment_of(d, "EXDATE"), delta, zone)
                for group in (exdates if isinstance(exdates, list) else [exdates])
                for d in group.dts
            ]
            master.pop("EXDATE", None)
            master.add("EXDATE", values)
        for override in overrides:
            old_recid = _moment(override, "RECURRENCE-ID")
            o_start, o_end = _bounds(override)
            _set(override, "RECURRENCE-ID", _shift(old_recid, delta, zone))
            if _same_instant(o_start, old_recid):  # not moved on its own: it follows the series
                moved = _shift(o_start, delta, zone)
                _set(override, "DTSTART", moved)
                override.pop("DURATION", None)
                _set(override, "DTEND", moved + (o_end - o_start))  # type: ignore[operator]
    vcal.add_missing_timezones()
    return _shift(occurrence, delta, zone)


def _other_day_error() -> CalendarError:
    return CalendarError(
        CalendarErrorReason.INVALID_INPUT,
        "This event repeats, and Hearth changes repeating events as a whole series: it can "
        "change their time of day and length, but not move them to another day. Move it in "
        "your calendar app, or delete the series and create a new one.",
    )


def _replace_text(
    master: icalendar.Component,
    overrides: list[icalendar.Component],
    key: str,
    value: str,
) -> None:
    """Set a text property on the series, and on exceptions that still had the old text."""
    old = master.get(key)
    _set(master, key, value or None)
    for override in overrides:
        if override.get(key) == old:
            _set(override, key, value or None)


def _series_message(action: str, title: str, whole_series: bool) -> str:
    if whole_series:
        return (
            f"{action.capitalize()} the repeating event “{title}”: the change applies to every "
            "occurrence of the series."
        )
    return f"{action.capitalize()} the event “{title}”."


def get_event(account: CalendarAccount, event_id: str, *, tz: tzinfo | None = None) -> Event:
    """One event (or the occurrence the id names) as it is stored now (read only): what a
    change would replace, for its before/after preview."""
    zone = tz or local_zone()
    ref = parse_event_id(event_id)
    with connect(account) as client:
        found = _fetch(client, account, ref)
        master, overrides = _parts(found.obj.icalendar_instance)
        series = _is_series(master, overrides)
        occurrence = ref.occurrence if series and ref.occurrence is not None else None
        return _as_seen(found, master, overrides, occurrence, series, zone, ref.uid)


def update_event(
    account: CalendarAccount,
    event_id: str,
    *,
    title: str | None = None,
    start: date | datetime | None = None,
    end: date | datetime | None = None,
    location: str | None = None,
    description: str | None = None,
    tz: tzinfo | None = None,
    only_occurrence: bool = False,
) -> EventChange:
    """Change an event's title, time, location or description; ``None`` leaves a field as is.

    An empty location or description removes it. Dates instead of times make (or keep) an
    all-day event, ``end`` being its last day. For an occurrence of a repeating event the
    whole series changes (see the module docstring), or with ``only_occurrence`` that
    occurrence alone; ``EventChange.whole_series`` says which.
    """
    zone = tz or local_zone()
    ref = parse_event_id(event_id)
    if all(v is None for v in (title, start, end, location, description)):
        raise CalendarError(
            CalendarErrorReason.INVALID_INPUT,
            "Nothing to change: give a new title, start, end, location or description.",
        )
    new_title = _clean_title(title) if title is not None else None
    new_location = _clean_text(location, "location") if location is not None else None
    new_description = _clean_text(description, "description") if description is not None else None
    new_start = _as_new_time(start, zone, "start")
    new_end = _as_new_time(end, zone, "end")
    with connect(account) as client:
        found = _fetch(client, account, ref)
        with found.obj.edit_icalendar_instance() as vcal:
            stored = vcal.to_ical().decode("utf-8")
            master, overrides = _parts(vcal)
            series = _is_series(master, overrides)
            occurrence = ref.occurrence if series and ref.occurrence is not None else None
            before = _as_seen(found, master, overrides, occurrence, series, zone, ref.uid)
            alone = only_occurrence and occurrence is not None
            if alone:
                assert occurrence is not None
                texts = {"SUMMARY": new_title, "LOCATION": new_location,
                         "DESCRIPTION": new_description}  # fmt: skip
                exception = _exception_for(vcal, master, overrides, occurrence)
                _edit_exception(vcal, exception, texts, new_start, new_end)
            else:
                if new_title is not None:
                    _replace_text(master, overrides, "SUMMARY", new_title)
                if new_location is not None:
                    _replace_text(master, overrides, "LOCATION", new_location)
                if new_description is not None:
                    _replace_text(master, overrides, "DESCRIPTION", new_description)
                if new_start is not None or new_end is not None:
                    if series:
                        reference = occurrence if occurrence is not None else _bounds(master)[0]
                        moved = _edit_series(
                            vcal, master, overrides, reference, new_start, new_end, zone
                        )
                        occurrence = moved if occurrence is not None else None
                    else:
                        _edit_single(master, new_start, new_end)
                        vcal.add_missing_timezones()
            _set(master, "DTSTAMP", datetime.now(UTC))
            _set(master, "LAST-MODIFIED", datetime.now(UTC))
            if "SEQUENCE" not in master:
                master.add("SEQUENCE", 0)  # caldav bumps it on save: 1 = first revision
            event = _as_seen(found, master, overrides, occurrence, series, zone, ref.uid)
        found.obj.save()
    if alone:
        assert occurrence is not None
        message = _occurrence_message("updated", event, occurrence)
        return EventChange("updated", event, False, message, before, stored)
    message = _series_message("updated", event.title, series)
    return EventChange("updated", event, series, message, before, stored)


def delete_event(
    account: CalendarAccount,
    event_id: str,
    *,
    tz: tzinfo | None = None,
    only_occurrence: bool = False,
) -> EventChange:
    """Delete an event. For an occurrence of a repeating event the whole series is deleted,
    or with ``only_occurrence`` that occurrence alone (its date is skipped).

    Returns what was deleted (as it was), with ``whole_series`` and a message saying so.
    """
    zone = tz or local_zone()
    ref = parse_event_id(event_id)
    if only_occurrence and ref.occurrence is not None:
        return _skip_occurrence(account, ref, ref.occurrence, zone)
    with connect(account) as client:
        found = _fetch(client, account, ref)
        vcal = found.obj.get_icalendar_instance()
        master, overrides = _parts(vcal)
        series = _is_series(master, overrides)
        occurrence = ref.occurrence if series else None
        event = _as_seen(found, master, overrides, occurrence, series, zone, ref.uid)
        stored = vcal.to_ical().decode("utf-8")
        found.obj.delete()
    message = _series_message("deleted", event.title, series)
    return EventChange("deleted", event, series, message, event, stored)


def _skip_occurrence(
    account: CalendarAccount, ref: _EventRef, occurrence: date | datetime, zone: tzinfo
) -> EventChange:
    """Delete one occurrence of a series: its date is skipped (EXDATE) and its exception, if
    it had one, removed; the rest of the series stays."""
    with connect(account) as client:
        found = _fetch(client, account, ref)
        with found.obj.edit_icalendar_instance() as vcal:
            stored = vcal.to_ical().decode("utf-8")
            master, overrides = _parts(vcal)
            if not _is_series(master, overrides):
                raise CalendarError(
                    CalendarErrorReason.INVALID_INPUT,
                    "That event does not repeat: delete it without only_occurrence.",
                )
            event = _as_seen(found, master, overrides, occurrence, True, zone, ref.uid)
            skipped = _moment(_occurrence_view(master, overrides, occurrence), "RECURRENCE-ID")
            for override in overrides:
                if _same_instant(_moment(override, "RECURRENCE-ID"), occurrence):
                    vcal.subcomponents.remove(override)
            master.add("EXDATE", skipped)
            _set(master, "DTSTAMP", datetime.now(UTC))
            _set(master, "LAST-MODIFIED", datetime.now(UTC))
        found.obj.save()
    message = _occurrence_message("deleted", event, occurrence)
    return EventChange("deleted", event, False, message, event, stored)
