"""The calendar connector against a real Radicale CalDAV server on 127.0.0.1.

The module starts Radicale in-process (see ``radicale_server``) with a user ``alice`` and two
calendars, and wipes their events before each test. No test sends a packet anywhere but
127.0.0.1: the autouse ``network`` fixture makes every socket refuse other addresses and answers
name look-ups itself (``*.invalid`` names fail like an unknown host, without any DNS traffic).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pytest
from caldav.davclient import DAVClient

from connectors.calendar import (
    CalendarAccount,
    CalendarError,
    CalendarErrorReason,
    FreeSlot,
    create_event,
    delete_event,
    find_free_time,
    free_slots,
    list_calendars,
    list_events,
    parse_day,
    parse_event_id,
    parse_when,
    update_event,
)
from connectors.calendar.restore import restore_object
from tests.support.radicale_server import RadicaleServer, free_port, running_radicale

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")
PASSWORD = "alicepw"
CALENDARS = {"work": "Work", "personal": "Personal"}


# --------------------------------------------------------------------------------------------
# Network jail
# --------------------------------------------------------------------------------------------


class OutsideTrafficError(AssertionError):
    """Something tried to reach an address other than 127.0.0.1."""


class Network:
    """What the code under test tried to reach."""

    def __init__(self) -> None:
        self.connects: list[Any] = []
        self.lookups: list[str] = []


@pytest.fixture(autouse=True)
def network(monkeypatch: pytest.MonkeyPatch) -> Network:
    net = Network()
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            net.connects.append(address)
            if address[0] != "127.0.0.1":
                raise OutsideTrafficError(f"tried to connect to {address!r}")

    def connect(self: socket.socket, address: Any) -> None:
        check(self, address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(self, address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        net.lookups.append(name)
        if name != "127.0.0.1":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("all_proxy", raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    return net


# --------------------------------------------------------------------------------------------
# Server, calendars, accounts
# --------------------------------------------------------------------------------------------


def dav(server: RadicaleServer, password: str = PASSWORD) -> DAVClient:
    """ "Another client" (a phone, a web calendar): plain caldav, not the connector."""
    return DAVClient(
        url=server.url, username="alice", password=password, timeout=5, enable_rfc6764=False
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RadicaleServer]:
    with running_radicale(tmp_path_factory.mktemp("radicale"), {"alice": PASSWORD}) as running:
        with dav(running) as client:
            principal = client.principal()
            for cal_id, name in CALENDARS.items():
                principal.make_calendar(name=name, cal_id=cal_id)
        yield running


@pytest.fixture(autouse=True)
def clean(request: pytest.FixtureRequest) -> None:
    """Each test starts with empty calendars (only for tests that use the server)."""
    if "server" not in request.fixturenames:
        return
    server: RadicaleServer = request.getfixturevalue("server")
    with dav(server) as client:
        for cal in client.principal().get_calendars():
            for obj in cal.get_events():
                obj.delete()


@pytest.fixture
def account(server: RadicaleServer) -> CalendarAccount:
    return CalendarAccount(
        server.url,
        "alice",
        PASSWORD,
        name="Home calendar",
        email="alice@example.test",
        default_calendar="personal",
        timeout=5,
    )


def add_raw(server: RadicaleServer, cal_id: str, **props: Any) -> str:
    """Store a VEVENT the way another client would; returns its UID."""
    vevent = icalendar.Event()
    uid = props.pop("uid", f"raw-{time.monotonic_ns()}@other-client")
    vevent.add("UID", uid)
    vevent.add("DTSTAMP", datetime(2026, 1, 1, tzinfo=UTC))
    for key, value in props.items():
        vevent.add(key.replace("_", "-").upper(), value)
    vcal = icalendar.Calendar()
    vcal.add("PRODID", "-//Other client//EN")
    vcal.add("VERSION", "2.0")
    vcal.add_component(vevent)
    vcal.add_missing_timezones()
    with dav(server) as client:
        cal = client.principal().calendar(cal_id=cal_id)
        cal.add_event(ical=vcal.to_ical().decode())
    return uid


def at(day: date, hour: int, minute: int = 0, tz: ZoneInfo = BERLIN) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz)


# --------------------------------------------------------------------------------------------
# Calendars, create, list
# --------------------------------------------------------------------------------------------


def test_list_calendars(account: CalendarAccount) -> None:
    found = {c.id: c.name for c in list_calendars(account)}
    assert found == CALENDARS


def test_create_then_list(account: CalendarAccount, server: RadicaleServer) -> None:
    day = date(2026, 12, 1)
    created = create_event(
        account,
        "Dentist\n appointment",
        at(day, 15),
        at(day, 16),
        location="Main St 1",
        description="Bring the insurance card.\nSecond line.",
        attendees=["bob@example.test", "mailto:Carol@Example.test", "bob@example.test"],
        tz=BERLIN,
    )
    assert created.title == "Dentist appointment"
    assert created.calendar == "Personal"  # the account's default calendar
    assert created.event_id.startswith("personal/")
    assert created.attendees == ("bob@example.test", "Carol@Example.test")
    assert created.organizer == "alice@example.test"

    events = list_events(account, at(day, 0), at(day + timedelta(days=1), 0), tz=BERLIN)
    assert events == [created]
    event = events[0]
    assert (event.start, event.end) == (at(day, 15), at(day, 16))
    assert event.start.tzinfo == BERLIN
    assert event.location == "Main St 1"
    assert event.description == "Bring the insurance card.\nSecond line."
    assert not event.all_day and not event.recurring and event.busy

    # What went over the wire: ATTENDEE lines with mailto: (that is what invites people).
    with dav(server) as client:
        raw = client.principal().calendar(cal_id="personal").get_events()[0].data
    assert "ATTENDEE;" in raw and "mailto:bob@example.test" in raw.replace("\r\n ", "")
    assert "ORGANIZER:mailto:alice@example.test" in raw.replace("\r\n ", "")
    assert "TZID=Europe/Berlin" in raw and "BEGIN:VTIMEZONE" in raw

    # A range that misses the event finds nothing; so does the other calendar.
    assert list_events(account, at(day, 16), at(day, 20), tz=BERLIN) == []
    assert list_events(account, at(day, 0), at(day, 23), calendar="Work", tz=BERLIN) == []


def test_two_calendars(account: CalendarAccount) -> None:
    day = date(2026, 12, 2)
    work = create_event(account, "Review", at(day, 9), at(day, 10), calendar="work", tz=BERLIN)
    home = create_event(account, "Piano", at(day, 18), at(day, 19), calendar="Personal", tz=BERLIN)
    assert work.calendar == "Work" and home.calendar == "Personal"
    span = (at(day, 0), at(day, 23))
    assert [e.title for e in list_events(account, *span, tz=BERLIN)] == ["Review", "Piano"]
    assert list_events(account, *span, calendar="WORK", tz=BERLIN) == [work]
    assert list_events(account, *span, calendar="personal", tz=BERLIN) == [home]
    with pytest.raises(CalendarError) as caught:
        list_events(account, *span, calendar="Holidays", tz=BERLIN)
    assert caught.value.reason == CalendarErrorReason.NOT_FOUND
    assert "“Work”" in caught.value.message and "“Personal”" in caught.value.message


def test_all_day_events(account: CalendarAccount, server: RadicaleServer) -> None:
    # Dates make an all-day event; the end date is the last day, inclusive.
    holiday = create_event(account, "Holiday", date(2026, 12, 24), date(2026, 12, 26), tz=BERLIN)
    assert holiday.all_day
    assert (holiday.start, holiday.end) == (at(date(2026, 12, 24), 0), at(date(2026, 12, 27), 0))
    # Another client's one-day event without DTEND (RFC 5545: lasts the day).
    add_raw(server, "work", summary="Offsite", dtstart=date(2026, 12, 22))
    # All-day events are floating: midnight wherever the user is.
    events = list_events(
        account,
        datetime(2026, 12, 21, tzinfo=NEW_YORK),
        datetime(2026, 12, 31, tzinfo=NEW_YORK),
        tz=NEW_YORK,
    )
    assert [(e.title, e.all_day, e.start, e.end) for e in events] == [
        (
            "Offsite",
            True,
            datetime(2026, 12, 22, tzinfo=NEW_YORK),
            datetime(2026, 12, 23, tzinfo=NEW_YORK),
        ),
        (
            "Holiday",
            True,
            datetime(2026, 12, 24, tzinfo=NEW_YORK),
            datetime(2026, 12, 27, tzinfo=NEW_YORK),
        ),
    ]
    # A range inside the holiday still finds it.
    inside = list_events(account, at(date(2026, 12, 25), 12), at(date(2026, 12, 25), 13), tz=BERLIN)
    assert [e.title for e in inside] == ["Holiday"]
    # Updating with dates keeps it all-day; the new end is again the last day.
    change = update_event(account, holiday.event_id, end=date(2026, 12, 27), tz=BERLIN)
    assert change.event.all_day and change.event.end == at(date(2026, 12, 28), 0)
    with pytest.raises(CalendarError) as caught:
        create_event(account, "Mixed", date(2026, 12, 24), at(date(2026, 12, 24), 10))
    assert caught.value.reason == CalendarErrorReason.INVALID_INPUT


def test_other_clients_uids_and_floating_times(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """A UID with a slash and spaces still makes a usable id; a floating time is local time."""
    uid = add_raw(
        server,
        "work",
        uid="weird/uid with spaces@x",
        summary="Gym",
        dtstart=datetime(2026, 12, 8, 7),
        dtend=datetime(2026, 12, 8, 8),
    )
    (event,) = list_events(
        account,
        datetime(2026, 12, 8, tzinfo=NEW_YORK),
        datetime(2026, 12, 9, tzinfo=NEW_YORK),
        tz=NEW_YORK,
    )
    assert event.start == datetime(2026, 12, 8, 7, tzinfo=NEW_YORK)  # 07:00 wherever you are
    assert event.event_id.count("/") == 1 and parse_event_id(event.event_id).uid == uid
    change = update_event(account, event.event_id, title="Gym (legs)", tz=NEW_YORK)
    assert change.event.title == "Gym (legs)"
    delete_event(account, event.event_id, tz=NEW_YORK)
    assert list_events(account, *(event.start, event.end), tz=NEW_YORK) == []


# --------------------------------------------------------------------------------------------
# Time zones and repeating events
# --------------------------------------------------------------------------------------------


def test_event_created_in_berlin_listed_in_new_york(account: CalendarAccount) -> None:
    create_event(account, "Call", at(date(2026, 12, 1), 15), at(date(2026, 12, 1), 16), tz=BERLIN)
    (event,) = list_events(
        account,
        datetime(2026, 12, 1, tzinfo=NEW_YORK),
        datetime(2026, 12, 2, tzinfo=NEW_YORK),
        tz=NEW_YORK,
    )
    assert event.start == datetime(2026, 12, 1, 9, 0, tzinfo=NEW_YORK)
    assert event.start.tzinfo == NEW_YORK
    assert event.start.utcoffset() == timedelta(hours=-5)
    assert event.end.hour == 10


def test_weekly_recurrence_expanded_across_dst(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    uid = add_raw(
        server,
        "work",
        summary="Standup",
        dtstart=at(date(2026, 3, 2), 10),
        dtend=at(date(2026, 3, 2), 10, 30),
        rrule={"FREQ": "WEEKLY", "COUNT": 6},
    )
    span = (datetime(2026, 3, 1, tzinfo=BERLIN), datetime(2026, 4, 30, tzinfo=BERLIN))
    in_berlin = list_events(account, *span, tz=BERLIN)
    assert len(in_berlin) == 6
    assert all(e.recurring and e.title == "Standup" for e in in_berlin)
    # Wall clock time stays 10:00 in Berlin across the EU switch (29 March)...
    assert {(e.start.hour, e.start.minute) for e in in_berlin} == {(10, 0)}
    assert [e.start.utcoffset() for e in in_berlin] == [timedelta(hours=1)] * 4 + [
        timedelta(hours=2)
    ] * 2
    # ...and in New York it moves, because the US switches three weeks earlier (8 March).
    in_new_york = list_events(account, *span, tz=NEW_YORK)
    assert [e.start.hour for e in in_new_york] == [4, 5, 5, 5, 4, 4]
    # One id per occurrence, stable between listings, all naming the same series.
    ids = [e.event_id for e in in_berlin]
    assert len(set(ids)) == 6 and ids == [e.event_id for e in in_new_york]
    assert ids[0] == f"work/{uid}/20260302T090000Z"
    assert {parse_event_id(i).uid for i in ids} == {uid}
    # Only the occurrences inside a narrower range come back.
    march_9 = list_events(account, at(date(2026, 3, 9), 0), at(date(2026, 3, 10), 0), tz=BERLIN)
    assert [e.start for e in march_9] == [at(date(2026, 3, 9), 10)]


def test_update_changes_whole_series(account: CalendarAccount, server: RadicaleServer) -> None:
    add_raw(
        server,
        "work",
        summary="Standup",
        dtstart=at(date(2026, 3, 2), 10),
        dtend=at(date(2026, 3, 2), 10, 30),
        rrule={"FREQ": "WEEKLY", "COUNT": 4},
    )
    span = (datetime(2026, 3, 1, tzinfo=BERLIN), datetime(2026, 4, 1, tzinfo=BERLIN))
    third = list_events(account, *span, tz=BERLIN)[2]
    change = update_event(
        account,
        third.event_id,
        title="Daily sync",
        start=at(date(2026, 3, 16), 11, 30),
        end=at(date(2026, 3, 16), 12, 15),
        tz=BERLIN,
    )
    assert change.whole_series and change.action == "updated"
    assert "every occurrence" in change.message
    assert (change.event.start, change.event.end) == (
        at(date(2026, 3, 16), 11, 30),
        at(date(2026, 3, 16), 12, 15),
    )
    after = list_events(account, *span, tz=BERLIN)
    assert [(e.title, e.start.day, e.start.hour, e.start.minute) for e in after] == [
        ("Daily sync", day, 11, 30) for day in (2, 9, 16, 23)
    ]
    assert all(e.end - e.start == timedelta(minutes=45) for e in after)
    assert change.event.event_id == after[2].event_id  # the returned id finds it again
    # A series cannot be moved to another day: its rule would not follow.
    with pytest.raises(CalendarError) as caught:
        update_event(account, after[0].event_id, start=at(date(2026, 3, 3), 11, 30), tz=BERLIN)
    assert caught.value.reason == CalendarErrorReason.INVALID_INPUT
    assert "repeats" in caught.value.message


SERIES_WITH_EXCEPTIONS = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Other client//EN
BEGIN:VEVENT
UID:series-with-exceptions
DTSTAMP:20260101T000000Z
DTSTART;TZID=Europe/Berlin:20260302T100000
DTEND;TZID=Europe/Berlin:20260302T103000
RRULE:FREQ=WEEKLY;COUNT=4
EXDATE;TZID=Europe/Berlin:20260309T100000
SUMMARY:Standup
SEQUENCE:2
END:VEVENT
BEGIN:VEVENT
UID:series-with-exceptions
DTSTAMP:20260101T000000Z
RECURRENCE-ID;TZID=Europe/Berlin:20260316T100000
DTSTART;TZID=Europe/Berlin:20260316T100000
DTEND;TZID=Europe/Berlin:20260316T103000
SUMMARY:Standup (demo day)
END:VEVENT
END:VCALENDAR
"""


def test_series_time_change_keeps_its_exceptions(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """A skipped week stays skipped and an edited occurrence stays edited after a time change."""
    with dav(server) as client:
        stored = client.principal().calendar(cal_id="work").add_event(ical=SERIES_WITH_EXCEPTIONS)
        sequence = int(stored.icalendar_component["SEQUENCE"])
    span = (datetime(2026, 3, 1, tzinfo=BERLIN), datetime(2026, 4, 1, tzinfo=BERLIN))
    before = list_events(account, *span, tz=BERLIN)
    assert [(e.start.day, e.title) for e in before] == [
        (2, "Standup"),
        (16, "Standup (demo day)"),
        (23, "Standup"),
    ]
    change = update_event(
        account, before[1].event_id, start=at(date(2026, 3, 16), 9), title="Sync", tz=BERLIN
    )
    assert change.whole_series
    assert change.event.title == "Standup (demo day)"  # its own title: not the series' old one
    assert change.event.start == at(date(2026, 3, 16), 9)
    after = list_events(account, *span, tz=BERLIN)
    assert [(e.start.day, e.start.hour, e.title) for e in after] == [
        (2, 9, "Sync"),
        (16, 9, "Standup (demo day)"),
        (23, 9, "Sync"),
    ]
    assert all(e.end - e.start == timedelta(minutes=30) for e in after)
    with dav(server) as client:
        cal = client.principal().calendar(cal_id="work")
        master = cal.get_event_by_uid("series-with-exceptions").icalendar_component
    assert int(master["SEQUENCE"]) == sequence + 1  # a new revision: invitees' copies update
    assert "RECURRENCE-ID" not in master and "EXDATE" in master


def test_one_occurrence_moves_to_another_day_and_the_series_stays(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """ "Move tonight's piano lesson to Wednesday at 7": an exception for that occurrence
    (RFC 5545 RECURRENCE-ID), which may go to another day; the other weeks are untouched and
    the returned id still finds the moved occurrence."""
    add_raw(
        server,
        "work",
        summary="Piano",
        dtstart=at(date(2026, 3, 3), 18),
        dtend=at(date(2026, 3, 3), 19),
        rrule={"FREQ": "WEEKLY", "COUNT": 4},
    )
    span = (datetime(2026, 3, 1, tzinfo=BERLIN), datetime(2026, 4, 1, tzinfo=BERLIN))
    second = list_events(account, *span, tz=BERLIN)[1]
    change = update_event(
        account, second.event_id, start=at(date(2026, 3, 11), 19), title="Piano (moved)",
        tz=BERLIN, only_occurrence=True,
    )  # fmt: skip
    assert not change.whole_series and "only the occurrence" in change.message
    assert change.before is not None and change.before.start == at(date(2026, 3, 10), 18)
    assert (change.event.start, change.event.end) == (
        at(date(2026, 3, 11), 19),
        at(date(2026, 3, 11), 20),
    )
    after = list_events(account, *span, tz=BERLIN)
    assert [(e.start.day, e.start.hour, e.title) for e in after] == [
        (3, 18, "Piano"),
        (11, 19, "Piano (moved)"),
        (17, 18, "Piano"),
        (24, 18, "Piano"),
    ]
    assert after[1].event_id == second.event_id == change.event.event_id
    # Changed again, the same exception is edited (not a second one written).
    update_event(account, second.event_id, location="Room 4", tz=BERLIN, only_occurrence=True)
    with dav(server) as client:
        stored = client.principal().calendar(cal_id="work").events()[0].icalendar_instance
    exceptions = [c for c in stored.walk("VEVENT") if "RECURRENCE-ID" in c]
    assert len(exceptions) == 1 and str(exceptions[0]["LOCATION"]) == "Room 4"


def test_one_occurrence_is_deleted_and_the_series_stays(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    with dav(server) as client:
        client.principal().calendar(cal_id="work").add_event(ical=SERIES_WITH_EXCEPTIONS)
    span = (datetime(2026, 3, 1, tzinfo=BERLIN), datetime(2026, 4, 1, tzinfo=BERLIN))
    before = list_events(account, *span, tz=BERLIN)
    # The occurrence with an exception of its own (demo day), then a plain one.
    change = delete_event(account, before[1].event_id, tz=BERLIN, only_occurrence=True)
    assert change.action == "deleted" and not change.whole_series
    assert change.event.title == "Standup (demo day)" and "only the occurrence" in change.message
    delete_event(account, before[2].event_id, tz=BERLIN, only_occurrence=True)
    assert [(e.start.day, e.title) for e in list_events(account, *span, tz=BERLIN)] == [
        (2, "Standup")
    ]
    # The saved copy puts both back (what an undo does).
    restore_object(account, "work", "series-with-exceptions", change.stored, "event")
    assert [(e.start.day, e.title) for e in list_events(account, *span, tz=BERLIN)] == [
        (2, "Standup"),
        (16, "Standup (demo day)"),
        (23, "Standup"),
    ]


# --------------------------------------------------------------------------------------------
# Update and delete
# --------------------------------------------------------------------------------------------


def test_update_title_and_time(account: CalendarAccount) -> None:
    day = date(2026, 12, 3)
    created = create_event(account, "Lunch", at(day, 12), at(day, 13), location="Cafe", tz=BERLIN)
    change = update_event(account, created.event_id, title="Lunch with Sam", tz=BERLIN)
    assert not change.whole_series and change.event.title == "Lunch with Sam"
    assert change.event.event_id == created.event_id
    # A new start alone keeps the length; an empty location removes it.
    update_event(account, created.event_id, start=at(day, 12, 30), location="", tz=BERLIN)
    (event,) = list_events(account, at(day, 0), at(day, 23), tz=BERLIN)
    assert (event.title, event.start, event.end, event.location) == (
        "Lunch with Sam",
        at(day, 12, 30),
        at(day, 13, 30),
        None,
    )
    # A naive time is a wall clock time in the given zone; an end alone changes the length.
    update_event(account, created.event_id, end=datetime(2026, 12, 3, 14, 0), tz=BERLIN)
    (event,) = list_events(account, at(day, 0), at(day, 23), tz=BERLIN)
    assert event.end == at(day, 14)
    with pytest.raises(CalendarError) as caught:
        update_event(account, created.event_id, end=at(day, 12), tz=BERLIN)
    assert caught.value.reason == CalendarErrorReason.INVALID_INPUT
    with pytest.raises(CalendarError) as caught:
        update_event(account, created.event_id, tz=BERLIN)
    assert caught.value.reason == CalendarErrorReason.INVALID_INPUT


def test_delete(account: CalendarAccount, server: RadicaleServer) -> None:
    day = date(2026, 12, 4)
    keep = create_event(account, "Keep", at(day, 9), at(day, 10), tz=BERLIN)
    gone = create_event(account, "Drop", at(day, 11), at(day, 12), tz=BERLIN)
    change = delete_event(account, gone.event_id, tz=BERLIN)
    assert change.action == "deleted" and not change.whole_series
    assert change.event == gone
    assert list_events(account, at(day, 0), at(day, 23), tz=BERLIN) == [keep]
    # Deleting one occurrence of a series deletes the series, and says so.
    add_raw(
        server,
        "work",
        summary="Yoga",
        dtstart=at(day, 18),
        dtend=at(day, 19),
        rrule={"FREQ": "WEEKLY", "COUNT": 3},
    )
    span = (at(day, 0), at(day + timedelta(days=30), 0))
    yoga = [e for e in list_events(account, *span, tz=BERLIN) if e.title == "Yoga"]
    assert len(yoga) == 3
    change = delete_event(account, yoga[1].event_id, tz=BERLIN)
    assert change.whole_series and "every occurrence" in change.message
    assert change.event.start == at(day + timedelta(days=7), 18)
    assert [e.title for e in list_events(account, *span, tz=BERLIN)] == ["Keep"]


def test_event_deleted_elsewhere_then_updated_is_not_found(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    day = date(2026, 12, 5)
    created = create_event(account, "Haircut", at(day, 10), at(day, 11), tz=BERLIN)
    with dav(server) as client:  # the user deletes it on their phone
        for obj in client.principal().calendar(cal_id="personal").get_events():
            obj.delete()
    for call in (
        lambda: update_event(account, created.event_id, title="Haircut!", tz=BERLIN),
        lambda: delete_event(account, created.event_id, tz=BERLIN),
    ):
        with pytest.raises(CalendarError) as caught:
            call()
        assert caught.value.reason == CalendarErrorReason.NOT_FOUND
        assert "Home calendar" in caught.value.message
    # A calendar that vanished is not_found too; a malformed id is invalid_input.
    with pytest.raises(CalendarError) as caught:
        update_event(account, "gone-calendar/x", title="x")
    assert caught.value.reason == CalendarErrorReason.NOT_FOUND
    for bad in ("", "no-slash", "a/b/c/d", "work/uid/2026-12-05"):
        with pytest.raises(CalendarError) as caught:
            delete_event(account, bad)
        assert caught.value.reason == CalendarErrorReason.INVALID_INPUT


# --------------------------------------------------------------------------------------------
# Free time
# --------------------------------------------------------------------------------------------


def test_find_free_time_around_events(account: CalendarAccount, server: RadicaleServer) -> None:
    day = date(2026, 12, 7)  # a Monday
    create_event(account, "A", at(day, 9), at(day, 10), calendar="work", tz=BERLIN)
    create_event(account, "B", at(day, 9, 30), at(day, 11), calendar="personal", tz=BERLIN)
    create_event(account, "C", at(day, 14), at(day, 15), calendar="work", tz=BERLIN)
    # "Show as free" and cancelled events do not block time.
    add_raw(
        server, "work", summary="Free", dtstart=at(day, 16), dtend=at(day, 17), transp="TRANSPARENT"
    )
    add_raw(server, "work", summary="Off", dtstart=at(day, 8), dtend=at(day, 9), status="CANCELLED")
    span = (at(day, 0), at(day + timedelta(days=1), 0))
    slots = find_free_time(account, *span, 60, tz=BERLIN)
    assert slots == [
        FreeSlot(at(day, 8), at(day, 9)),
        FreeSlot(at(day, 11), at(day, 14)),
        FreeSlot(at(day, 15), at(day, 18)),
    ]
    assert [s.minutes for s in slots] == [60, 180, 180]
    assert find_free_time(account, *span, 181, tz=BERLIN) == []
    late = find_free_time(
        account, *span, 60, day_start=datetime.min.time().replace(hour=10), tz=BERLIN
    )
    assert late[0] == FreeSlot(at(day, 11), at(day, 14))
    # The cancelled event is not listed either.
    assert "Off" not in [e.title for e in list_events(account, *span, tz=BERLIN)]
    with pytest.raises(CalendarError) as caught:
        find_free_time(account, *span, 0, tz=BERLIN)
    assert caught.value.reason == CalendarErrorReason.INVALID_INPUT


def test_free_slots_rules() -> None:
    """The arithmetic alone: working days, DST days, ranges cut mid-day."""
    saturday = date(2026, 12, 12)
    week = (at(date(2026, 12, 7), 0), at(date(2026, 12, 14), 0))
    slots = free_slots([], *week, timedelta(hours=1), tz=BERLIN)
    assert [s.start.date().weekday() for s in slots] == [0, 1, 2, 3, 4]  # weekend skipped
    weekend = free_slots([], at(saturday, 0), at(saturday, 23), timedelta(hours=1), tz=BERLIN)
    assert weekend == [FreeSlot(at(saturday, 8), at(saturday, 18))]  # asked for: given
    cut = free_slots([], at(saturday, 12), at(saturday, 13), timedelta(minutes=30), tz=BERLIN)
    assert cut == [FreeSlot(at(saturday, 12), at(saturday, 13))]
    # Hours of one day asked for ("Monday after work") are the window, past working hours too.
    monday = date(2026, 12, 7)
    evening = free_slots([(at(monday, 17), at(monday, 18))], at(monday, 17), at(monday, 21),
                         timedelta(hours=1), tz=BERLIN)  # fmt: skip
    assert evening == [FreeSlot(at(monday, 18), at(monday, 21))]
    # On the day the clocks go forward the working day is still 08:00-18:00 local (9 hours UTC).
    dst_day = date(2026, 3, 29)
    (slot,) = free_slots([], at(dst_day, 0), at(dst_day, 23), timedelta(hours=1), tz=BERLIN)
    assert (slot.start.hour, slot.end.hour, slot.minutes) == (8, 18, 600)


# --------------------------------------------------------------------------------------------
# Parsing the model's times
# --------------------------------------------------------------------------------------------


def test_parse_when() -> None:
    now = datetime(2026, 11, 30, tzinfo=UTC)
    assert parse_when("2026-12-01T15:00", BERLIN, now) == datetime(2026, 12, 1, 15, tzinfo=BERLIN)
    assert parse_when(" 2026-12-01 15:00:30 ", BERLIN, now) == datetime(
        2026, 12, 1, 15, 0, 30, tzinfo=BERLIN
    )
    offset = parse_when("2026-12-01 15:00+01:00", NEW_YORK, now)
    assert offset == datetime(2026, 12, 1, 9, tzinfo=NEW_YORK) and offset.tzinfo == NEW_YORK
    assert parse_when("2026-12-01T14:00Z", BERLIN, now) == datetime(2026, 12, 1, 15, tzinfo=BERLIN)
    assert parse_when("2026-12-01", BERLIN, now) == datetime(2026, 12, 1, tzinfo=BERLIN)
    assert parse_day("2026-12-01") == date(2026, 12, 1)
    assert parse_day("2026-12-01T10:00") is None and parse_day("2026-02-30") is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2026-03-29T02:30", "does not exist"),  # clocks jump 02:00 -> 03:00 in Berlin
        ("2026-10-25T02:30", "happens twice"),  # clocks go 03:00 -> 02:00
        ("tomorrow at 3pm", "ISO 8601"),
        ("2026-12-01T25:00", "not a real"),
        ("20261201T1500", "ISO 8601"),
        ("3026-12-01", "years away"),
    ],
)
def test_parse_when_refuses(text: str, words: str) -> None:
    with pytest.raises(CalendarError) as caught:
        parse_when(text, BERLIN, datetime(2026, 11, 30, tzinfo=UTC))
    assert caught.value.reason == CalendarErrorReason.INVALID_INPUT
    assert words in caught.value.message


def test_ambiguous_time_message_offers_both_offsets() -> None:
    with pytest.raises(CalendarError) as caught:
        parse_when("2026-10-25T02:30", BERLIN)
    assert "2026-10-25T02:30+02:00" in caught.value.message
    assert "2026-10-25T02:30+01:00" in caught.value.message
    # With the offset given, it is accepted. A naive skipped time is refused by create_event too.
    assert parse_when("2026-10-25T02:30+01:00", BERLIN).utcoffset() == timedelta(hours=1)
    with pytest.raises(CalendarError) as caught:  # refused before any connection
        create_event(
            CalendarAccount("http://127.0.0.1:9/", "a", "b"),
            "x",
            datetime(2026, 3, 29, 2, 30),
            datetime(2026, 3, 29, 3, 30),
            tz=BERLIN,
        )
    assert caught.value.reason == CalendarErrorReason.INVALID_INPUT


# --------------------------------------------------------------------------------------------
# Failures: each with its reason, the account named, no password, and no hang
# --------------------------------------------------------------------------------------------


def _fails(account: CalendarAccount, limit: float = 3.0) -> CalendarError:
    started = time.monotonic()
    with pytest.raises(CalendarError) as caught:
        list_calendars(account)
    assert time.monotonic() - started < limit
    return caught.value


def test_wrong_password(server: RadicaleServer) -> None:
    secret = "not-the-password-9f3a"
    account = CalendarAccount(server.url, "alice", secret, name="Home calendar", timeout=5)
    error = _fails(account)
    assert error.reason == CalendarErrorReason.AUTH_FAILED
    assert error.account == "Home calendar"
    assert "“Home calendar”" in error.message and "password" in error.message
    for text in (error.message, str(error), repr(error), repr(account)):
        assert secret not in text
    assert PASSWORD not in repr(CalendarAccount(server.url, "alice", PASSWORD))


def test_port_closed_is_unreachable(network: Network) -> None:
    account = CalendarAccount(f"http://127.0.0.1:{free_port()}/", "alice", PASSWORD, name="Work")
    error = _fails(account, limit=2.0)
    assert error.reason == CalendarErrorReason.UNREACHABLE
    assert "“Work”" in error.message and PASSWORD not in error.message
    assert network.connects  # the jail saw the attempt: it really tried, on 127.0.0.1


def test_server_stopped_is_unreachable(tmp_path: Path) -> None:
    with running_radicale(tmp_path / "second", {"alice": PASSWORD}) as second:
        account = CalendarAccount(second.url, "alice", PASSWORD, name="Second", timeout=5)
        assert _fails(account).reason == CalendarErrorReason.NOT_FOUND  # no calendars yet
        with dav(second) as client:
            client.principal().make_calendar(name="Only", cal_id="only")
        assert [c.name for c in list_calendars(account)] == ["Only"]
        second.stop()
        error = _fails(account, limit=2.0)
    assert error.reason == CalendarErrorReason.UNREACHABLE


def test_silent_server_times_out() -> None:
    with socket.socket() as silent:  # accepts connections (kernel backlog) but never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        account = CalendarAccount(f"http://127.0.0.1:{port}/", "alice", PASSWORD, timeout=0.5)
        error = _fails(account, limit=3.0)
    assert error.reason == CalendarErrorReason.TIMEOUT
    assert "0.5 seconds" in error.message


def test_https_to_a_plain_http_server_is_tls(server: RadicaleServer) -> None:
    account = CalendarAccount(f"https://127.0.0.1:{server.port}/", "alice", PASSWORD, timeout=5)
    assert _fails(account).reason == CalendarErrorReason.TLS


def test_unknown_host(network: Network) -> None:
    account = CalendarAccount("https://calendar.invalid/dav/", "alice", PASSWORD, name="Work")
    error = _fails(account)
    assert error.reason == CalendarErrorReason.UNKNOWN_HOST
    assert "calendar.invalid" in error.message
    assert "calendar.invalid" in network.lookups and not network.connects


def test_unsafe_addresses_refused_before_connecting(network: Network) -> None:
    plain = CalendarAccount("http://calendar.invalid/", "alice", PASSWORD, name="Work")
    assert _fails(plain).reason == CalendarErrorReason.TLS  # would send the password in clear
    embedded = CalendarAccount(f"https://alice:{PASSWORD}@calendar.invalid/", "alice", PASSWORD)
    error = _fails(embedded)
    assert error.reason == CalendarErrorReason.INVALID_INPUT and PASSWORD not in error.message
    ftp = CalendarAccount("ftp://calendar.invalid/", "alice", PASSWORD)
    assert _fails(ftp).reason == CalendarErrorReason.INVALID_INPUT
    assert not network.connects and not network.lookups


class _Broken(BaseHTTPRequestHandler):
    """A "CalDAV server" that fails: 500 for every request, or a web page instead of XML."""

    body = b""
    status = 500

    def _answer(self) -> None:
        self.send_response(self.status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    do_GET = do_PROPFIND = do_REPORT = do_PUT = do_OPTIONS = _answer

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Garbage(_Broken):
    status = 200
    body = b"<html><body>Welcome to the captive portal</body></html>"


@pytest.mark.parametrize(
    ("handler", "reason"),
    [(_Broken, CalendarErrorReason.SERVER_ERROR), (_Garbage, CalendarErrorReason.NOT_FOUND)],
)
def test_server_errors(handler: type[BaseHTTPRequestHandler], reason: str) -> None:
    """A failing server is a server_error; a web page where CalDAV should be finds no calendars."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.01})
    thread.start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/"
        error = _fails(CalendarAccount(url, "alice", PASSWORD, name="Work", timeout=2))
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)
    assert error.reason == reason
    assert "“Work”" in error.message and PASSWORD not in error.message
