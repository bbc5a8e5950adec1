"""Reminders for due tasks (issue #24) against a real Radicale: `TaskReminders` reads the
user's task lists no more often than needed, and the reminder service shows a task that
fell due through the reminder notifications (a real D-Bus notification server, the calendar
account stored with its password in a real Secret Service). A server that is down is quiet."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QThread

from app.agent.services.accounts import save_account
from app.agent.services.task_reminders import TaskReminders
from app.store.accounts import AccountSettings
from app.store.database import Database
from app.ui.reminders import ReminderNotifier, ReminderService
from connectors.calendar import CalendarAccount, add_task, complete_task, update_task
from tests.connectors.test_tasks import PASSWORD, account, clean, server
from tests.notification_server import running_notification_server
from tests.support.radicale_server import RadicaleServer, free_port

__all__ = ["account", "clean", "server"]  # the task tests' fixtures: Radicale with lists


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    opened = Database.open(tmp_path)
    yield opened
    opened.close()


def minute(when: datetime) -> datetime:
    return when.replace(second=0, microsecond=0)


def test_a_task_due_now_reminds_once_and_the_server_is_read_only_when_needed(
    account: CalendarAccount, database: Database
) -> None:
    now = minute(datetime.now(UTC))
    add_task(account, "Pay the rent", due=now - timedelta(minutes=5))
    add_task(account, "Call the plumber", due=now + timedelta(hours=1))
    add_task(account, "Renew passport", due=date.today())  # a day: no moment to remind at
    add_task(account, "Old chore", due=now - timedelta(days=3))  # long past: not now
    add_task(account, "Someday")
    tasks = TaskReminders(database, lambda: account)

    [due] = tasks.due(now)
    assert due.title == "Pay the rent" and due.due == now - timedelta(minutes=5)
    for later in range(1, 5):  # the timer's ticks only compare times
        assert [t.title for t in tasks.due(now + timedelta(minutes=later))] == ["Pay the rent"]
    assert tasks.reads == 1
    tasks.mark_reminded(due.key)
    assert tasks.due(now + timedelta(minutes=5)) == []
    assert TaskReminders(database, lambda: account).due(now) == []  # after a restart too

    # The plumber falls due: the server is read again to be sure it is still open and due.
    in_an_hour = now + timedelta(hours=1, seconds=30)
    assert [t.title for t in tasks.due(in_an_hour)] == ["Call the plumber"]
    assert tasks.reads == 2


def test_a_task_done_or_moved_meanwhile_on_the_phone_does_not_remind(
    account: CalendarAccount, database: Database
) -> None:
    now = minute(datetime.now(UTC))
    plumber = add_task(account, "Call the plumber", due=now + timedelta(hours=1))
    dentist = add_task(account, "Book the dentist", due=now + timedelta(hours=1))
    tasks = TaskReminders(database, lambda: account)
    assert tasks.due(now) == []
    complete_task(account, plumber.task_id)
    update_task(account, dentist.task_id, due=now + timedelta(hours=3))
    assert tasks.due(now + timedelta(hours=1, minutes=1)) == []
    assert [t.title for t in tasks.due(now + timedelta(hours=3))] == ["Book the dentist"]


def test_a_server_that_is_down_is_quiet(
    database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    down = CalendarAccount(f"http://127.0.0.1:{free_port()}/", "alice", PASSWORD, name="Home")
    tasks = TaskReminders(database, lambda: down)
    now = datetime.now(UTC)
    with caplog.at_level(logging.INFO, logger="app.agent.services.task_reminders"):
        for tick in range(60):  # half an hour of the reminder timer's ticks
            assert tasks.due(now + timedelta(seconds=30 * tick)) == []
    assert tasks.reads == 3  # every ten minutes, not every tick
    [line] = [r for r in caplog.records if r.name == "app.agent.services.task_reminders"]
    assert line.levelno == logging.INFO and "cannot be read" in line.getMessage()
    assert PASSWORD not in line.getMessage()


def test_a_due_task_reaches_the_desktop_through_the_reminder_notifications(
    qtbot: Any,
    tmp_path: Path,
    account: CalendarAccount,
    server: RadicaleServer,
    secret_service: Any,
) -> None:
    database = Database.open(tmp_path)
    settings = AccountSettings(
        kind="calendar", name="Home", username="alice", calendar_url=server.url
    )
    save_account(database, settings, PASSWORD)
    database.close()
    # Due this minute: shown well within LATE (two minutes) of its time whatever second the
    # test starts at (a minute earlier, a start late in a minute showed "(was due …)").
    add_task(account, "Pay the rent", due=minute(datetime.now(UTC)))

    thread = QThread()
    service = ReminderService(tmp_path)
    service.moveToThread(thread)
    thread.start()
    notifier = ReminderNotifier(service, tray=None, interval_ms=60_000)
    shown: list[tuple[int, str]] = []
    checks: list[list[Any]] = []
    notifier.shown.connect(lambda rid, channel: shown.append((rid, channel)))
    service.due.connect(checks.append)
    try:
        with running_notification_server() as desktop:
            notifier.start()
            qtbot.waitUntil(lambda: bool(shown), timeout=20_000)
            notifier.check_now()  # the next tick: marked as shown, so nothing is due
            qtbot.waitUntil(lambda: len(checks) == 2, timeout=20_000)
    finally:
        notifier.stop()
        thread.quit()
        thread.wait(5_000)
        service.close()
    assert [channel for _, channel in shown] == ["desktop"]
    [(app, summary, body)] = desktop.shown
    assert (app, summary) == ("Hearth", "Hearth reminder")
    assert body == "Task due: Pay the rent"
    assert checks[1] == []
    database = Database.open(tmp_path)
    assert TaskReminders(database, lambda: account).due() == []  # not after a restart either
    database.close()
