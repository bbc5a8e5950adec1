"""Reminder notifications: a GUI timer asks ``ReminderService`` (on a worker thread: the GUI
thread never reads the disk) for due reminders, shows each one — as a system-tray message
when the desktop has a tray that shows messages, else as a desktop notification over D-Bus
(sent from the service's thread), else as a notice in the window — and then has it marked
delivered. The first check runs at start, so reminders that fell due while the app was
closed are shown then. Tasks of the calendar account that fall due remind the same way
(`app.agent.services.task_reminders`: the server is read every few minutes, not on every tick)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QSystemTrayIcon

from app.agent.services.task_reminders import TaskReminders
from app.store.database import Database
from app.store.reminders import ReminderStore

log = logging.getLogger(__name__)

CHECK_INTERVAL_MS = 30_000
# Shown later than this after its time (the app was closed or asleep): say when it was due.
LATE = timedelta(minutes=2)

Channel = Literal["tray", "desktop", "window"]
TITLE = "Hearth reminder"


@dataclass(frozen=True)
class DueReminder:
    """What the GUI needs to show one reminder (plain data across threads)."""

    id: int
    text: str
    due: datetime  # aware

    def message(self, now: datetime) -> str:
        if now - self.due > LATE:
            return f"{self.text}\n(was due {self.due.astimezone().strftime('%a %d %b, %H:%M')})"
        return self.text


def choose_channel(tray_available: bool, supports_messages: bool, tray_visible: bool) -> Channel:
    """The tray only when it can really show a message; otherwise a desktop notification,
    which falls back to the window (that always can) when the desktop has none."""
    return "tray" if tray_available and supports_messages and tray_visible else "window"


class ReminderService(QObject):
    """Reads due reminders and marks them delivered; slots run in this object's thread."""

    due = Signal(list)  # [DueReminder]
    failed = Signal(str)
    notified = Signal(int, bool)  # reminder id, whether the desktop showed it

    def __init__(self, data_dir: Path, tasks: bool = True) -> None:
        super().__init__()
        self.data_dir = data_dir
        self._database: Database | None = None
        # Due tasks of the calendar account remind too (app.agent.services.task_reminders). They
        # travel the same way as reminders, under negative ids: id → the task's key.
        self.with_tasks = tasks
        self.tasks: TaskReminders | None = None
        self._task_keys: dict[int, str] = {}

    def _store(self) -> ReminderStore:
        if self._database is None:
            self._database = Database.open(self.data_dir)
        return ReminderStore(self._database)

    @Slot()
    def close(self) -> None:
        if self._database is not None:
            self._database.close()
            self._database = None

    @Slot()
    def check(self) -> None:
        try:
            found = self._store().due()
        except Exception as exc:  # the timer tries again; the thread must live on
            log.exception("reminders: could not read due reminders")
            self.failed.emit(str(exc))
            return
        due = [DueReminder(r.id, r.text, r.due) for r in found]
        self.due.emit(due + self._due_tasks())

    def _due_tasks(self) -> list[DueReminder]:
        """Tasks that fell due; the server is read only when needed (never raises)."""
        if not self.with_tasks or self._database is None:
            return []
        if self.tasks is None:
            self.tasks = TaskReminders(self._database)
        try:
            found = self.tasks.due()
        except Exception:  # the settings could not be read: reminders go on without tasks
            log.exception("reminders: could not check due tasks")
            return []
        due = []
        for task in found:
            known = [i for i, key in self._task_keys.items() if key == task.key]
            number = known[0] if known else -(len(self._task_keys) + 1)
            self._task_keys[number] = task.key
            due.append(DueReminder(number, f"Task due: {task.title}", task.due))
        return due

    @Slot(int, str)
    def notify_desktop(self, reminder_id: int, message: str) -> None:
        """A desktop notification over D-Bus (blocking, so here and not in the GUI thread)."""
        from app.ui.desktop_notifications import NotificationFailed, notify

        try:
            notify(TITLE, message)
        except NotificationFailed as exc:
            log.info("reminders: no desktop notification (%s); shown in the window", exc)
            self.notified.emit(reminder_id, False)
            return
        self.notified.emit(reminder_id, True)

    @Slot(int)
    def mark_delivered(self, reminder_id: int) -> None:
        try:
            if reminder_id < 0:
                if self.tasks is not None and reminder_id in self._task_keys:
                    self.tasks.mark_reminded(self._task_keys[reminder_id])
                return
            self._store().mark_delivered(reminder_id)
        except Exception:
            log.exception("reminders: could not mark %d delivered", reminder_id)


class ReminderNotifier(QObject):
    """Lives in the GUI thread. `tray` is the main window's tray icon, or None."""

    request_check = Signal()
    request_delivered = Signal(int)
    request_desktop = Signal(int, str)  # id, message: to the service's thread
    in_window = Signal(str)  # a reminder to show inside the window
    shown = Signal(int, str)  # id, channel: after a reminder was presented

    def __init__(
        self,
        service: ReminderService,
        tray: QSystemTrayIcon | None = None,
        interval_ms: int = CHECK_INTERVAL_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.tray = tray
        self._presented: set[int] = set()
        self._waiting: dict[int, str] = {}  # sent to the desktop, its answer not back yet
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check_now)
        self.request_check.connect(service.check)
        self.request_delivered.connect(service.mark_delivered)
        self.request_desktop.connect(service.notify_desktop)
        service.due.connect(self._on_due)
        service.notified.connect(self._on_notified)

    def start(self) -> None:
        """Check at once (missed reminders), then on every tick."""
        self.check_now()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    @Slot()
    def check_now(self) -> None:
        self.request_check.emit()

    def channel(self) -> Channel:
        tray = self.tray
        return choose_channel(
            QSystemTrayIcon.isSystemTrayAvailable() and tray is not None,
            QSystemTrayIcon.supportsMessages(),
            tray is not None and tray.isVisible(),
        )

    @Slot(list)
    def _on_due(self, reminders: list) -> None:
        now = datetime.now(UTC)
        for reminder in reminders:
            if reminder.id in self._presented:  # asked again before the mark was written
                continue
            self._presented.add(reminder.id)
            channel = self.channel()
            message = reminder.message(now)
            if channel == "tray" and self.tray is not None:
                self.tray.showMessage(
                    TITLE, message, QSystemTrayIcon.MessageIcon.Information, 30_000
                )
                self._delivered(reminder.id, "tray")
            else:  # the desktop's answer decides: _on_notified
                self._waiting[reminder.id] = message
                self.request_desktop.emit(reminder.id, message)

    @Slot(int, bool)
    def _on_notified(self, reminder_id: int, shown: bool) -> None:
        message = self._waiting.pop(reminder_id, None)
        if message is None:
            return
        if not shown:
            self.in_window.emit(f"⏰ Reminder: {message}")
        self._delivered(reminder_id, "desktop" if shown else "window")

    def _delivered(self, reminder_id: int, channel: Channel) -> None:
        self.request_delivered.emit(reminder_id)
        self.shown.emit(reminder_id, channel)
