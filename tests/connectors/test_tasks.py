"""Tasks (CalDAV VTODO) against a real Radicale server on 127.0.0.1.

Alice has a task list "Chores", a calendar "Home" (events and tasks) and a calendar "Events
only" that refuses tasks. "Another client" (plain caldav, as a phone would) checks what the
connector wrote, and writes things the connector must read.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest
from caldav.davclient import DAVClient

from connectors.calendar import (
    CalendarAccount,
    CalendarError,
    CalendarErrorReason,
    add_task,
    complete_task,
    list_tasks,
    parse_due,
    parse_task_id,
    update_task,
)
from tests.support.radicale_server import RadicaleServer, free_port, running_radicale

BERLIN = ZoneInfo("Europe/Berlin")
PASSWORD = "alicepw"
LISTS = (
    ("events", "Events only", ["VEVENT"]),
    ("chores", "Chores", ["VTODO"]),
    ("home", "Home", None),
)


def dav(server: RadicaleServer) -> DAVClient:
    return DAVClient(
        url=server.url, username="alice", password=PASSWORD, timeout=5, enable_rfc6764=False
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RadicaleServer]:
    folder = tmp_path_factory.mktemp("radicale")
    with running_radicale(folder, {"alice": PASSWORD}) as running, dav(running) as client:
        principal = client.principal()
        for cal_id, name, components in LISTS:
            principal.make_calendar(name, cal_id, supported_calendar_component_set=components)
        yield running


@pytest.fixture(autouse=True)
def clean(server: RadicaleServer) -> None:
    with dav(server) as client:
        for cal in client.principal().get_calendars():
            if cal.get_display_name() != "Events only":
                for obj in cal.search(todo=True, include_completed=True):
                    obj.delete()


@pytest.fixture
def account(server: RadicaleServer) -> CalendarAccount:
    return CalendarAccount(server.url, "alice", PASSWORD, name="Home calendar")


def stored(server: RadicaleServer, task_id: str) -> icalendar.Component:
    """The VTODO as another client reads it from the server."""
    list_id, uid = parse_task_id(task_id)
    with dav(server) as client:
        [cal] = [
            c
            for c in client.principal().get_calendars()
            if str(c.url).rstrip("/").endswith(list_id)
        ]
        vcal = cal.get_todo_by_uid(uid).get_icalendar_instance()
    return next(c for c in vcal.subcomponents if c.name == "VTODO")


def test_added_tasks_are_listed_soonest_first_with_due_times_in_the_users_zone(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    later = add_task(account, "Renew passport", due=parse_due("2026-12-20", BERLIN), tz=BERLIN)
    soon = add_task(
        account, "Call the plumber", due=parse_due("2026-12-03T17:00", BERLIN), tz=BERLIN
    )
    whenever = add_task(account, "Sort photos", notes="the 2019 ones", tz=BERLIN)
    tasks = list_tasks(account, tz=BERLIN)
    assert [t.title for t in tasks] == ["Call the plumber", "Renew passport", "Sort photos"]
    assert tasks[0].due == datetime(2026, 12, 3, 17, tzinfo=BERLIN)
    assert (tasks[1].due_is_day, tasks[1].due) == (True, datetime(2026, 12, 20, tzinfo=BERLIN))
    assert tasks[2].notes == "the 2019 ones" and tasks[2].due is None
    # On the server: a zoned DUE with its TZID, a DATE for a day, in the first list that
    # takes tasks (the events-only calendar is skipped).
    assert stored(server, soon.task_id)["DUE"].params["TZID"] == "Europe/Berlin"
    assert stored(server, later.task_id).decoded("DUE") == date(2026, 12, 20)
    assert whenever.list == "Chores"


def test_in_new_york_the_same_task_is_due_at_new_york_time(account: CalendarAccount) -> None:
    add_task(account, "Call the plumber", due=parse_due("2026-12-03T17:00", BERLIN), tz=BERLIN)
    [task] = list_tasks(account, tz=ZoneInfo("America/New_York"))
    assert task.due is not None and task.due.hour == 11


def test_due_before_and_by_list(account: CalendarAccount) -> None:
    add_task(account, "Pay rent", due=date(2026, 12, 1), list_name="Home", tz=BERLIN)
    add_task(account, "Water plants", due=date(2026, 12, 9), tz=BERLIN)
    add_task(account, "Someday", tz=BERLIN)
    before = list_tasks(account, due_before=parse_due("2026-12-08", BERLIN), tz=BERLIN)
    assert [t.title for t in before] == ["Pay rent"]
    assert [t.title for t in list_tasks(account, "chores", tz=BERLIN)] == [
        "Water plants",
        "Someday",
    ]
    assert [t.title for t in list_tasks(account, "HOME", tz=BERLIN)] == ["Pay rent"]


def test_completing_a_task_marks_it_done_on_the_server_and_hides_it(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    task = add_task(account, "Pay rent", due=date(2026, 12, 1), tz=BERLIN)
    done = complete_task(account, task.task_id, tz=BERLIN)
    assert done.done and done.title == "Pay rent"
    todo = stored(server, task.task_id)
    assert str(todo["STATUS"]) == "COMPLETED" and todo.get("COMPLETED") is not None
    assert list_tasks(account, tz=BERLIN) == []
    with pytest.raises(CalendarError, match="already done"):
        complete_task(account, task.task_id, tz=BERLIN)


def test_a_task_done_in_another_app_is_not_listed(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    task = add_task(account, "Buy milk", tz=BERLIN)
    _, uid = parse_task_id(task.task_id)
    with dav(server) as client:
        cal = client.principal().calendar(cal_id="chores")
        cal.get_todo_by_uid(uid).complete()
    assert list_tasks(account, tz=BERLIN) == []


def test_completing_a_repeating_task_moves_it_to_the_next_time(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    with dav(server) as client:
        cal = client.principal().calendar(cal_id="chores")
        cal.add_todo(
            summary="Take out the bins",
            uid="bins@phone",
            dtstart=datetime(2026, 12, 1, 19, tzinfo=BERLIN),
            due=datetime(2026, 12, 1, 20, tzinfo=BERLIN),
            rrule={"FREQ": "WEEKLY"},
        )
    [task] = list_tasks(account, tz=BERLIN)
    assert task.recurring
    complete_task(account, task.task_id, tz=BERLIN)
    [next_one] = list_tasks(account, tz=BERLIN)
    assert next_one.title == "Take out the bins"
    assert next_one.due == datetime(2026, 12, 8, 20, tzinfo=BERLIN)


def test_update_changes_title_due_and_notes_and_can_remove_the_due_date(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    task = add_task(account, "Pay rent", due=date(2026, 12, 1), notes="IBAN on file", tz=BERLIN)
    changed = update_task(
        account,
        task.task_id,
        title="Pay the rent",
        due=parse_due("2026-12-02T09:30", BERLIN),
        notes="",
        tz=BERLIN,
    )
    assert (changed.title, changed.due, changed.notes) == (
        "Pay the rent",
        datetime(2026, 12, 2, 9, 30, tzinfo=BERLIN),
        None,
    )
    assert "DESCRIPTION" not in stored(server, task.task_id)
    update_task(account, task.task_id, remove_due=True, tz=BERLIN)
    [listed] = list_tasks(account, tz=BERLIN)
    assert (listed.title, listed.due) == ("Pay the rent", None)
    with pytest.raises(CalendarError, match="Nothing to change"):
        update_task(account, task.task_id, tz=BERLIN)


def test_a_calendar_that_holds_only_events_is_named_with_the_lists_that_do(
    account: CalendarAccount,
) -> None:
    with pytest.raises(CalendarError) as caught:
        add_task(account, "Pay rent", list_name="Events only", tz=BERLIN)
    assert "holds only events" in caught.value.message
    assert "“Chores”" in caught.value.message and "“Home”" in caught.value.message
    with pytest.raises(CalendarError, match="holds only events"):
        list_tasks(account, "events", tz=BERLIN)


def test_an_account_without_any_task_list_says_so(tmp_path: Path) -> None:
    with running_radicale(tmp_path / "r", {"bob": "bobpw"}) as server:
        with DAVClient(
            url=server.url, username="bob", password="bobpw", enable_rfc6764=False
        ) as client:
            client.principal().make_calendar(
                name="Work", cal_id="work", supported_calendar_component_set=["VEVENT"]
            )
        account = CalendarAccount(server.url, "bob", "bobpw", name="Bob's")
        with pytest.raises(CalendarError) as caught:
            list_tasks(account)
    assert caught.value.reason == CalendarErrorReason.NOT_FOUND
    assert "no list that can hold tasks" in caught.value.message


def test_unknown_list_and_vanished_task(account: CalendarAccount, server: RadicaleServer) -> None:
    with pytest.raises(CalendarError, match="no calendar “Groceries”"):
        list_tasks(account, "Groceries")
    task = add_task(account, "Buy milk", tz=BERLIN)
    _, uid = parse_task_id(task.task_id)
    with dav(server) as client:
        client.principal().calendar(cal_id="chores").get_todo_by_uid(uid).delete()
    with pytest.raises(CalendarError) as caught:
        complete_task(account, task.task_id, tz=BERLIN)
    assert caught.value.reason == CalendarErrorReason.NOT_FOUND
    with pytest.raises(CalendarError, match="is not a task id"):
        update_task(account, "Buy milk", title="x")


def test_a_wrong_password_and_a_server_that_is_down(server: RadicaleServer) -> None:
    wrong = CalendarAccount(server.url, "alice", "not-it", name="Home calendar")
    with pytest.raises(CalendarError) as caught:
        list_tasks(wrong)
    assert caught.value.reason == CalendarErrorReason.AUTH_FAILED
    assert "not-it" not in caught.value.message and "Home calendar" in caught.value.message
    down = CalendarAccount(f"http://127.0.0.1:{free_port()}/", "alice", PASSWORD, name="Home")
    with pytest.raises(CalendarError) as caught:
        add_task(down, "Pay rent")
    assert caught.value.reason == CalendarErrorReason.UNREACHABLE
    assert "could not connect" in caught.value.message


def test_due_text_is_parsed_strictly() -> None:
    assert parse_due("2026-12-05", BERLIN) == date(2026, 12, 5)
    assert parse_due("2026-12-05T17:00", BERLIN) == datetime(2026, 12, 5, 17, tzinfo=BERLIN)
    with pytest.raises(CalendarError, match="not a date or time"):
        parse_due("next Friday", BERLIN)


def test_a_repeating_task_with_a_count_is_done_after_its_last_time(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    with dav(server) as client:
        client.principal().calendar(cal_id="chores").add_todo(
            summary="Physio exercises",
            uid="physio@phone",
            due=date(2026, 12, 1),
            rrule={"FREQ": "DAILY", "COUNT": 2},
        )
    [first] = list_tasks(account, tz=BERLIN)
    complete_task(account, first.task_id, tz=BERLIN)
    [second] = list_tasks(account, tz=BERLIN)
    assert (second.due, second.due_is_day) == (datetime(2026, 12, 2, tzinfo=BERLIN), True)
    complete_task(account, second.task_id, tz=BERLIN)
    assert list_tasks(account, tz=BERLIN) == []


def test_a_repeating_task_skips_an_excluded_date_on_the_server(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """Issue #39: the next time comes from the whole recurrence set, EXDATE included."""
    with dav(server) as client:
        client.principal().calendar(cal_id="chores").add_todo(
            summary="Take out the bins",
            uid="bins-exdate@phone",
            dtstart=datetime(2026, 12, 1, 19, tzinfo=BERLIN),
            due=datetime(2026, 12, 1, 20, tzinfo=BERLIN),
            rrule={"FREQ": "WEEKLY"},
            exdate=[datetime(2026, 12, 8, 19, tzinfo=BERLIN)],
        )
    [task] = list_tasks(account, tz=BERLIN)
    complete_task(account, task.task_id, tz=BERLIN)
    [next_one] = list_tasks(account, tz=BERLIN)
    assert next_one.due == datetime(2026, 12, 15, 20, tzinfo=BERLIN)
    assert stored(server, next_one.task_id).decoded("DTSTART") == datetime(
        2026, 12, 15, 19, tzinfo=BERLIN
    )
