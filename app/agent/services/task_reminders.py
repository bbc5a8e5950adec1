"""Reminders for tasks that fall due (issue #24): the user's open tasks with a due time, from
the task lists of the stored calendar account, shown through the reminder notifications.

`TaskReminders.due()` is asked on every tick of the reminder service's timer (its own
thread, never the GUI's), but it reads the server only when needed: every `REFRESH`, and
once more when a task it holds falls due, to be sure it is still open and still due then
(it may have been ticked off or moved on the phone meanwhile). Between reads the ticks only
compare times. A server that cannot be reached is quiet: one line in the log when it stops
answering, one when it is back, nothing for the user; the tasks already read still remind.

Only tasks with a due time remind (a due day, "by Friday", has no moment to fall due at);
one that fell due while Hearth was closed reminds at the next start if that was less than
`MISSED` ago. Each reminder is shown once: the task and its due time are remembered in the
settings, so a task moved to a new time reminds again at that time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from app import clock

log = logging.getLogger(__name__)

REFRESH = timedelta(minutes=10)
MISSED = timedelta(days=1)
REMINDED_KEY = "tasks.reminded"  # settings: the task reminders already shown
MAX_REMEMBERED = 500


@dataclass(frozen=True)
class DueTask:
    key: str  # the task and its due time: moved to another time, it reminds again
    title: str
    due: datetime  # aware


def _key(task: Any) -> str:
    return f"{task.task_id}@{task.due.astimezone(UTC).isoformat()}"


def stored_calendar(database: Any) -> Any:
    """The stored calendar account with its password, or None (no account, no keyring)."""
    from app.agent.services.accounts import load_accounts
    from app.store.accounts import AccountStore

    if not any(s.kind == "calendar" for s in AccountStore(database).saved()):
        return None
    return load_accounts(database).calendar


class TaskReminders:
    """Which tasks have fallen due, read from the server no more often than needed."""

    def __init__(
        self,
        database: Any,
        account: Callable[[], Any] | None = None,
        refresh: timedelta = REFRESH,
    ) -> None:
        self.database = database
        self._account = account or (lambda: stored_calendar(database))
        self.refresh = refresh
        self.reads = 0  # how often the server was asked (for the tests and the log)
        self._tasks: list[Any] = []
        self._read_at: datetime | None = None
        self._failing = False

    def due(self, now: datetime | None = None) -> list[DueTask]:
        """The tasks due by `now` that have not reminded yet, soonest first."""
        now = now or clock.now()
        if self._read_at is None or now - self._read_at >= self.refresh or self._fell_due(now):
            self._read(now)
        reminded = self._reminded()
        found = [
            DueTask(_key(t), t.title, t.due)
            for t in self._tasks
            if t.due is not None and not t.due_is_day and t.due <= now < t.due + MISSED
        ]
        return [task for task in found if task.key not in reminded]

    def mark_reminded(self, key: str) -> None:
        from app.store.settings import SettingsStore

        kept = [k for k in self._reminded() if k != key][-(MAX_REMEMBERED - 1) :]
        SettingsStore(self.database).set(REMINDED_KEY, [*kept, key])

    def _reminded(self) -> list[str]:
        from app.store.settings import SettingsStore

        value = SettingsStore(self.database).get(REMINDED_KEY, [])
        return [str(k) for k in value] if isinstance(value, list) else []

    def _fell_due(self, now: datetime) -> bool:
        """A task read before its due time has reached it: read again before reminding."""
        read = self._read_at or now
        return any(
            t.due is not None and not t.due_is_day and read < t.due <= now for t in self._tasks
        )

    def _read(self, now: datetime) -> None:
        from connectors.calendar import list_tasks

        self._read_at = now
        try:
            account = self._account()
            if account is None:
                self._tasks = []
                return
            self.reads += 1
            self._tasks = list_tasks(account)
        except Exception as exc:  # down, signed out, no keyring: quiet, tried again later
            if not self._failing:
                log.info(
                    "task reminders: the task lists cannot be read (%s); trying again every "
                    "%d minutes",
                    type(exc).__name__,
                    self.refresh.total_seconds() // 60,
                )
            self._failing = True
            return
        if self._failing:
            log.info("task reminders: the task lists can be read again")
        self._failing = False
