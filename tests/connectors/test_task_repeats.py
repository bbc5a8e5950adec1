"""A repeating to-do moves on through its whole recurrence set (issue #39, item 1): EXDATE,
RDATE, overrides and COUNT, not the RRULE alone. Pure iCalendar, no server."""

from __future__ import annotations

import itertools
from datetime import date, datetime
from zoneinfo import ZoneInfo

import icalendar
import pytest
import recurring_ical_events

from connectors.calendar.repeats import CannotMoveOn, move_on

BERLIN = ZoneInfo("Europe/Berlin")


def series(*lines: str) -> icalendar.Calendar:
    body = "\r\n".join(("BEGIN:VTODO", "UID:bins@phone", "SUMMARY:Bins", *lines, "END:VTODO"))
    return icalendar.Calendar.from_ical(
        f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n{body}\r\nEND:VCALENDAR\r\n"
    )


def master(vcal: icalendar.Calendar) -> icalendar.Component:
    return next(c for c in vcal.walk("VTODO") if "RECURRENCE-ID" not in c)


def dues(vcal: icalendar.Calendar, n: int = 6) -> list[date | datetime]:
    query = recurring_ical_events.of(vcal, components=["VTODO"])
    return [o.decoded("DUE") for o in itertools.islice(query.all(), n)]


def test_an_excluded_date_is_skipped() -> None:
    vcal = series(
        "DTSTART;TZID=Europe/Berlin:20261201T190000",
        "DUE;TZID=Europe/Berlin:20261201T200000",
        "RRULE:FREQ=WEEKLY",
        "EXDATE;TZID=Europe/Berlin:20261208T190000",
    )
    assert move_on(vcal, master(vcal))
    assert master(vcal).decoded("DUE") == datetime(2026, 12, 15, 20, tzinfo=BERLIN)
    assert master(vcal).decoded("DTSTART") == datetime(2026, 12, 15, 19, tzinfo=BERLIN)


def test_an_extra_date_comes_next_and_the_weekly_pattern_is_kept() -> None:
    vcal = series(
        "DTSTART;TZID=Europe/Berlin:20261207T190000",  # a Monday
        "DUE;TZID=Europe/Berlin:20261207T200000",
        "RRULE:FREQ=WEEKLY;COUNT=4",
        "RDATE;TZID=Europe/Berlin:20261209T190000",  # an extra Wednesday
    )
    assert move_on(vcal, master(vcal))
    assert dues(vcal) == [datetime(2026, 12, d, 20, tzinfo=BERLIN) for d in (9, 14, 21, 28)]


def test_an_override_of_the_next_occurrence_still_applies() -> None:
    vcal = series(
        "DTSTART;TZID=Europe/Berlin:20261201T190000",
        "DUE;TZID=Europe/Berlin:20261201T200000",
        "RRULE:FREQ=WEEKLY",
        "END:VTODO",
        "BEGIN:VTODO",
        "UID:bins@phone",
        "SUMMARY:Bins (late this week)",
        "RECURRENCE-ID;TZID=Europe/Berlin:20261208T190000",
        "DTSTART;TZID=Europe/Berlin:20261209T190000",
        "DUE;TZID=Europe/Berlin:20261209T200000",
    )
    assert move_on(vcal, master(vcal))
    assert dues(vcal, 2) == [
        datetime(2026, 12, 9, 20, tzinfo=BERLIN),
        datetime(2026, 12, 15, 20, tzinfo=BERLIN),
    ]


def test_a_count_with_an_excluded_date_ends_where_it_did() -> None:
    vcal = series(
        "DUE;VALUE=DATE:20261201", "RRULE:FREQ=DAILY;COUNT=3", "EXDATE;VALUE=DATE:20261202"
    )
    assert move_on(vcal, master(vcal))
    assert dues(vcal) == [date(2026, 12, 3)]
    assert not move_on(vcal, master(vcal))


def test_times_stay_on_the_wall_clock_across_summer_time() -> None:
    vcal = series(
        "DTSTART;TZID=Europe/Berlin:20270327T080000",
        "RRULE:FREQ=DAILY",
        "EXDATE;TZID=Europe/Berlin:20270328T080000",
    )
    assert move_on(vcal, master(vcal))
    assert master(vcal).decoded("DTSTART") == datetime(2027, 3, 29, 8, tzinfo=BERLIN)


@pytest.mark.parametrize("rule", ["FREQ=WEEKLY", "FREQ=DAILY", "FREQ=MONTHLY", "FREQ=YEARLY"])
def test_later_dates_never_move(rule: str) -> None:
    vcal = series(
        "DTSTART;TZID=Europe/Berlin:20260131T090000",
        f"RRULE:{rule};COUNT=12",
        "EXDATE;TZID=Europe/Berlin:20260131T090000",
        "RDATE;TZID=Europe/Berlin:20260205T090000",
    )
    expected = [
        o.decoded("DTSTART") for o in recurring_ical_events.of(vcal, components=["VTODO"]).all()
    ]
    seen = []
    while True:
        seen.append(master(vcal).decoded("DTSTART"))
        if not move_on(vcal, master(vcal)):
            break
    # the first date was excluded: every date of the set is then reached in turn, none invented
    assert seen[0] not in expected
    assert seen[1:] == expected


def test_a_series_that_cannot_be_moved_without_changing_it_is_refused_untouched() -> None:
    """Every other Saturday plus one extra Thursday: a series anchored on that Thursday
    would count its fortnights from the wrong week."""
    vcal = series(
        "DTSTART;TZID=Europe/Berlin:20260131T090000",
        "RRULE:FREQ=WEEKLY;INTERVAL=2",
        "EXDATE;TZID=Europe/Berlin:20260131T090000",
        "RDATE;TZID=Europe/Berlin:20260205T090000",
    )
    before = vcal.to_ical()
    with pytest.raises(CannotMoveOn, match="later dates"):
        move_on(vcal, master(vcal))
    assert vcal.to_ical() == before
