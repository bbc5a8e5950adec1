"""Open the app's SQLite database, bring its schema up to date, and refuse one that is newer
than this app (rather than damage it)."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from app.store.models import AuditRecord

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
FILENAME = "hearth.db"
# Worker threads (model, accounts, model manager) may open a fresh database at the same
# moment: two migrations at once would both try to create the same tables.
_UPGRADE_LOCK = threading.Lock()


class DatabaseTooNew(RuntimeError):
    """The database was written by a newer Hearth; we leave it untouched."""


def _on_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")  # else cascades silently do nothing
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


class Database:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    @classmethod
    def open(cls, data_dir: Path, upgrade: bool = True) -> Database:
        path = Path(data_dir) / FILENAME
        engine = create_engine(f"sqlite:///{path}")
        event.listen(engine, "connect", _on_connect)
        database = cls(engine)
        if upgrade:
            with _UPGRADE_LOCK:
                database.upgrade()
        return database

    @classmethod
    def in_memory(cls) -> Database:
        """A private database that lives as long as this object (no data folder: tests,
        demos); one shared connection, so every session sees the same data."""
        engine = create_engine(
            "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
        event.listen(engine, "connect", _on_connect)
        database = cls(engine)
        with _UPGRADE_LOCK:  # Alembic's op/context proxies are process-wide
            database.upgrade()
        return database

    def current_revision(self) -> str | None:
        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def upgrade(self, target: str = "head") -> None:
        config = alembic_config()
        known = {rev.revision for rev in ScriptDirectory.from_config(config).walk_revisions()}
        current = self.current_revision()
        if current is not None and current not in known:
            raise DatabaseTooNew(
                f"The database {self.engine.url.database} was made by a newer version of Hearth "
                f"(schema {current}). It was not changed. Update Hearth to open it."
            )
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, target)

    def downgrade(self, target: str) -> None:
        config = alembic_config()
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, target)

    def session(self) -> Session:
        return self.sessions()

    def audit_log(self) -> SqlAuditLog:
        return SqlAuditLog(self)

    def close(self) -> None:
        self.engine.dispose()


class AuditEntryLike(Protocol):
    """What the store needs of an audit entry (the agent's AuditEntry): the store stays
    below the agent and never imports it."""

    at: datetime
    tool: str
    decision: str
    answer: str | None
    status: str
    reasons: list[str]
    result_preview: str

    def redacted_arguments(self) -> dict[str, Any]: ...


class SqlAuditLog:
    """Writes each entry as it happens, in its own transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def write(self, entry: AuditEntryLike) -> None:
        with self.database.session() as session, session.begin():
            session.add(
                AuditRecord(
                    at=entry.at,
                    tool=entry.tool,
                    arguments_json=json.dumps(
                        entry.redacted_arguments(), ensure_ascii=False, default=str
                    ),
                    decision=entry.decision,
                    answer=entry.answer,
                    status=entry.status,
                    reasons_json=json.dumps(entry.reasons, ensure_ascii=False),
                    result_preview=entry.result_preview,
                )
            )

    def recent(self, limit: int = 200) -> list[AuditRecord]:
        with self.database.session() as session:
            query = select(AuditRecord).order_by(AuditRecord.id.desc()).limit(limit)
            return list(session.scalars(query))
