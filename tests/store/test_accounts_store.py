"""The accounts table (migration 0003) and AccountStore: settings only, never a password."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError

from app.store.accounts import AccountRecord, AccountSettings, AccountStore, replace
from app.store.database import Database, alembic_config

HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


def tables(database: Database) -> set[str]:
    return set(inspect(database.engine).get_table_names())


def test_migration_0003_upgrade_downgrade(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    assert database.current_revision() == HEAD
    assert "accounts" in tables(database)
    columns = {c["name"] for c in inspect(database.engine).get_columns("accounts")}
    assert {"kind", "name", "email", "imap_host", "smtp_port", "calendar_url"} <= columns
    assert not any("pass" in c or c == "secret" for c in columns)
    AccountStore(database).add(AccountSettings(kind="mail", name="Work", email="me@example.org"))
    database.downgrade("0002")
    assert database.current_revision() == "0002"
    assert "accounts" not in tables(database)
    assert "standing_permissions" in tables(database)  # the older tables are untouched
    database.upgrade()
    assert database.current_revision() == HEAD
    assert AccountStore(database).saved() == []
    database.close()


def test_add_update_remove_list(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    store = AccountStore(database)
    mail = store.add(
        AccountSettings(
            kind="mail",
            name="Work",
            provider="fastmail",
            email="me@example.org",
            imap_host="imap.fastmail.com",
            smtp_host="smtp.fastmail.com",
        )
    )
    calendar = store.add(
        AccountSettings(kind="calendar", name="Home", calendar_url="https://c.example/")
    )
    assert mail.id is not None and mail.secret_ref.startswith("mail-")
    assert calendar.secret_ref.startswith("calendar-") and calendar.secret_ref != mail.secret_ref
    assert [a.name for a in store.saved()] == ["Work", "Home"]
    assert [a.name for a in store.saved("calendar")] == ["Home"]
    changed = store.update(replace(mail, name="Office", smtp_port=587))
    assert changed.name == "Office" and changed.smtp_port == 587
    assert changed.secret_ref == mail.secret_ref
    assert store.get(mail.id) == changed
    assert store.remove(mail.id) == changed
    assert store.remove(mail.id) is None
    assert [a.name for a in store.saved()] == ["Home"]
    database.close()


def test_kind_is_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        AccountSettings(kind="fax", name="x")  # type: ignore[arg-type]
    database = Database.open(tmp_path)
    with pytest.raises(IntegrityError), database.session() as session, session.begin():
        session.add(
            AccountRecord(kind="fax", name="x", secret_ref="r", created=_now(), updated=_now())
        )
    database.close()


def _now() -> object:
    from datetime import UTC, datetime

    return datetime.now(UTC)
