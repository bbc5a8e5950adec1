"""Reminders where the desktop has no tray (stock GNOME): a desktop notification over the
freedesktop D-Bus interface, sent from the reminder service's thread, and the window as the
fallback when there is no notification server or it refuses (issue #21, item 8)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMetaObject, Qt, QThread

from app.store.database import Database
from app.store.reminders import ReminderStore
from app.ui.desktop_notifications import NotificationFailed, notify
from app.ui.reminders import ReminderNotifier, ReminderService
from tests.notification_server import running_notification_server


def test_a_notification_reaches_the_desktop_with_its_text_as_text(secret_service: Any) -> None:
    with running_notification_server() as server:
        assert notify("Hearth reminder", "Call <Bob> & Ann") >= 1
    assert server.shown == [("Hearth", "Hearth reminder", "Call &lt;Bob&gt; &amp; Ann")]
    with running_notification_server(capabilities=("body",)) as plain:
        notify("Hearth reminder", "Call <Bob>")
    assert plain.shown[0][2] == "Call <Bob>"  # no markup: nothing to escape


def test_no_server_or_a_refusal_is_a_clear_failure(secret_service: Any, monkeypatch: Any) -> None:
    with pytest.raises(NotificationFailed):  # the bus is there, nobody owns the name
        notify("Hearth reminder", "x", timeout=2)
    with running_notification_server(refuse=True), pytest.raises(NotificationFailed):
        notify("Hearth reminder", "x", timeout=2)
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS")
    with pytest.raises(NotificationFailed, match="no desktop session bus"):
        notify("Hearth reminder", "x")


def _due_reminder(tmp_path: Path, text: str) -> None:
    database = Database.open(tmp_path)
    long_ago = datetime.now(UTC) - timedelta(days=1)  # set then, due an hour later
    ReminderStore(database).add(text, long_ago + timedelta(hours=1), now=long_ago)
    database.close()


class _Running:
    """A reminder service on its own thread and the notifier that asks it (both kept alive)."""

    def __init__(self, tmp_path: Path) -> None:
        self.thread = QThread()
        self.service = ReminderService(tmp_path)
        self.service.moveToThread(self.thread)
        self.thread.start()
        self.notifier = ReminderNotifier(self.service, tray=None, interval_ms=60_000)
        self.in_window: list[str] = []
        self.shown: list[tuple[int, str]] = []
        self.notifier.in_window.connect(self.in_window.append)
        self.notifier.shown.connect(lambda rid, channel: self.shown.append((rid, channel)))

    def first_shown(self, qtbot: Any) -> None:
        """Start (the first check runs at once) and wait for the first reminder shown."""
        try:
            self.notifier.start()
            qtbot.waitUntil(lambda: bool(self.shown), timeout=15_000)
        finally:
            # Stopped as the app stops it (DataPanels.shutdown): close runs in the service's
            # thread after what is already queued there, such as marking the reminder
            # delivered; quitting first could drop that (it did on busy cores).
            self.notifier.stop()
            QMetaObject.invokeMethod(
                self.service, "close", Qt.ConnectionType.BlockingQueuedConnection
            )
            self.thread.quit()
            self.thread.wait(5_000)


def test_without_a_tray_a_due_reminder_goes_to_the_desktop(
    qtbot: Any, tmp_path: Path, secret_service: Any
) -> None:
    _due_reminder(tmp_path, "Take the bins out")
    with running_notification_server() as server:
        running = _Running(tmp_path)
        running.first_shown(qtbot)
    assert [channel for _, channel in running.shown] == ["desktop"]
    [(app, summary, body)] = server.shown
    assert (app, summary) == ("Hearth", "Hearth reminder")
    assert body.startswith("Take the bins out\n(was due ")  # missed while closed: says when
    assert running.in_window == []  # shown once, on the desktop
    database = Database.open(tmp_path)
    assert ReminderStore(database).due() == []  # marked delivered
    database.close()


def test_without_a_notification_server_the_window_shows_it(
    qtbot: Any, tmp_path: Path, secret_service: Any
) -> None:
    _due_reminder(tmp_path, "Water the plants")
    running = _Running(tmp_path)
    running.first_shown(qtbot)
    assert [channel for _, channel in running.shown] == ["window"]
    [notice] = running.in_window
    assert notice.startswith("⏰ Reminder: Water the plants")
