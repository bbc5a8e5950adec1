"""Reminders the user asked for: stored in SQLite so they fire after a restart too.

Times are kept in UTC (SQLite has no time-zone type: SQLAlchemy stores the wall-clock text),
and handed back as aware datetimes. `due()` lists what should be shown now, including what
fell due while the app was closed; the notifier marks each one delivered once shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, select

from app import clock
from app.store.database import Database
from app.store.models import ReminderRecord


class ReminderError(ValueError):
    """The reminder cannot be set; the message is for the user (and the model)."""


@dataclass(frozen=True)
class Reminder:
    id: int
    text: str
    due: datetime  # aware, UTC
    created: datetime
    delivered: datetime | None = None
    # The labels of the conversation that set it, as stored (JSON text; None: set before
    # labels were kept, read as untrusted). Opaque here: app.agent.gate.labels reads them.
    labels_json: str | None = None

    def local_due(self) -> datetime:
        return self.due.astimezone()


def _utc(value: datetime) -> datetime:
    """Aware UTC; a naive value is read as the computer's local time."""
    return value.astimezone(UTC)


def _stored(value: datetime) -> datetime:
    """The naive UTC wall-clock that goes into SQLite (so text order is time order)."""
    return _utc(value).replace(tzinfo=None)


def _loaded(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _reminder(record: ReminderRecord) -> Reminder:
    return Reminder(
        id=record.id,
        text=record.text,
        due=_loaded(record.due),  # type: ignore[arg-type]
        created=_loaded(record.created),  # type: ignore[arg-type]
        delivered=_loaded(record.delivered),
        labels_json=record.labels_json,
    )


def parse_local_time(value: str) -> datetime:
    """ISO 8601 date-time; without an offset it is the user's local time. Aware, UTC."""
    cleaned = value.strip()
    if cleaned.endswith(("Z", "z")):
        cleaned = cleaned[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(cleaned)
    except ValueError as exc:
        raise ReminderError(
            f"'{value}' is not a date and time. Use ISO 8601, for example 2026-12-01T09:30."
        ) from exc
    return _utc(parsed)


class ReminderStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    def add(
        self,
        text: str,
        due: datetime,
        now: datetime | None = None,
        labels_json: str | None = None,
    ) -> Reminder:
        """Store a reminder; a time that has passed is refused (it could never be shown).
        `labels_json` are the labels of the conversation that asked for it (None: unknown)."""
        now = _utc(now or clock.now())
        due = _utc(due)
        if not text.strip():
            raise ReminderError("The reminder needs a text.")
        if due <= now:
            local = due.astimezone().strftime("%Y-%m-%d %H:%M")
            raise ReminderError(
                f"{local} is in the past, so no reminder was set. Choose a time after "
                f"{now.astimezone().strftime('%Y-%m-%d %H:%M')}."
            )
        with self.database.session() as session, session.begin():
            record = ReminderRecord(
                created=_stored(now), due=_stored(due), text=text.strip(), labels_json=labels_json
            )
            session.add(record)
            session.flush()
            return _reminder(record)

    def pending(self) -> list[Reminder]:
        """Reminders not yet shown, soonest first."""
        with self.database.session() as session:
            query = (
                select(ReminderRecord)
                .where(ReminderRecord.delivered.is_(None))
                .order_by(ReminderRecord.due, ReminderRecord.id)
            )
            return [_reminder(r) for r in session.scalars(query)]

    def due(self, now: datetime | None = None) -> list[Reminder]:
        """Undelivered reminders whose time has come (also those missed while closed)."""
        limit = _stored(now or clock.now())
        with self.database.session() as session:
            query = (
                select(ReminderRecord)
                .where(ReminderRecord.delivered.is_(None), ReminderRecord.due <= limit)
                .order_by(ReminderRecord.due, ReminderRecord.id)
            )
            return [_reminder(r) for r in session.scalars(query)]

    def mark_delivered(self, reminder_id: int, at: datetime | None = None) -> None:
        with self.database.session() as session, session.begin():
            record = session.get(ReminderRecord, reminder_id)
            if record is not None and record.delivered is None:
                record.delivered = _stored(at or datetime.now(UTC))

    def cancel(self, reminder_id: int) -> Reminder:
        """Delete a reminder that has not been shown yet."""
        with self.database.session() as session, session.begin():
            record = session.get(ReminderRecord, reminder_id)
            if record is None or record.delivered is not None:
                raise ReminderError(f"There is no pending reminder with id {reminder_id}.")
            reminder = _reminder(record)
            session.execute(delete(ReminderRecord).where(ReminderRecord.id == reminder_id))
            return reminder
