"""The user's mail and calendar accounts: their non-secret settings, in the database.

The password is not a field here on purpose: it lives in the OS keyring under ``secret_ref``
(see ``connectors.credentials``), so a copied database, a backup or a bug report never carries
it. Turning settings into connector accounts is the agent's job (``app.agent.services.accounts``).
"""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy import Boolean, DateTime, Integer, String, select
from sqlalchemy.orm import Mapped, mapped_column

from app.store.database import Database
from app.store.models import Base


class AccountRecord(Base):
    """A mail or calendar account's settings. Never its password: that is in the keyring.

    Declared here on the shared ``Base`` (beside the store that owns it); the schema itself is
    made by migration 0003.
    """

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))  # "mail" | "calendar"
    name: Mapped[str] = mapped_column(String(200))
    provider: Mapped[str] = mapped_column(String(40), default="other")
    email: Mapped[str] = mapped_column(String(320), default="")
    username: Mapped[str] = mapped_column(String(320), default="")
    display_name: Mapped[str] = mapped_column(String(200), default="")
    imap_host: Mapped[str] = mapped_column(String(255), default="")
    imap_port: Mapped[int] = mapped_column(Integer, default=993)
    imap_security: Mapped[str] = mapped_column(String(10), default="tls")
    smtp_host: Mapped[str] = mapped_column(String(255), default="")
    smtp_port: Mapped[int] = mapped_column(Integer, default=465)
    smtp_security: Mapped[str] = mapped_column(String(10), default="tls")
    save_sent: Mapped[bool] = mapped_column(Boolean, default=True)
    calendar_url: Mapped[str] = mapped_column(String(2000), default="")
    # The keyring entry's name (random, so a re-created database never meets an old password).
    secret_ref: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


Kind = Literal["mail", "calendar"]
KINDS: frozenset[str] = frozenset({"mail", "calendar"})

_FIELDS = (
    "kind",
    "name",
    "provider",
    "email",
    "username",
    "display_name",
    "imap_host",
    "imap_port",
    "imap_security",
    "smtp_host",
    "smtp_port",
    "smtp_security",
    "save_sent",
    "calendar_url",
)


@dataclass(frozen=True)
class AccountSettings:
    """One account as the user configured it (``id`` is None until it is stored)."""

    kind: Kind
    name: str
    provider: str = "other"
    email: str = ""
    username: str = ""
    display_name: str = ""
    imap_host: str = ""
    imap_port: int = 993
    imap_security: str = "tls"
    smtp_host: str = ""
    smtp_port: int = 465
    smtp_security: str = "tls"
    save_sent: bool = True
    calendar_url: str = ""
    id: int | None = None
    secret_ref: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"An account is 'mail' or 'calendar', not {self.kind!r}.")

    def describe(self) -> str:
        """A one-line label for lists: "Work (mail, me@example.com)"."""
        who = self.email or self.username
        return f"{self.name} ({self.kind}{', ' + who if who else ''})"


def _settings(record: AccountRecord) -> AccountSettings:
    values = {name: getattr(record, name) for name in _FIELDS}
    return AccountSettings(**values, id=record.id, secret_ref=record.secret_ref)


class AccountStore:
    """Add, update, remove and list accounts; each call is its own transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def saved(self, kind: Kind | None = None) -> list[AccountSettings]:
        with self.database.session() as session:
            query = select(AccountRecord).order_by(AccountRecord.id)
            if kind is not None:
                query = query.where(AccountRecord.kind == kind)
            return [_settings(record) for record in session.scalars(query)]

    def get(self, account_id: int) -> AccountSettings | None:
        with self.database.session() as session:
            record = session.get(AccountRecord, account_id)
            return _settings(record) if record is not None else None

    def add(self, account: AccountSettings) -> AccountSettings:
        """Store a new account; returns it with its id and keyring name filled in."""
        now = datetime.now(UTC)
        ref = account.secret_ref or f"{account.kind}-{secrets.token_hex(8)}"
        with self.database.session() as session, session.begin():
            record = AccountRecord(
                **{name: getattr(account, name) for name in _FIELDS},
                secret_ref=ref,
                created=now,
                updated=now,
            )
            session.add(record)
            session.flush()
            return _settings(record)

    def update(self, account: AccountSettings) -> AccountSettings:
        """Replace a stored account's settings (its kind and keyring name stay)."""
        if account.id is None:
            raise ValueError("Only a stored account can be updated.")
        with self.database.session() as session, session.begin():
            record = session.get(AccountRecord, account.id)
            if record is None:
                raise KeyError(account.id)
            for name in _FIELDS:
                if name != "kind":
                    setattr(record, name, getattr(account, name))
            record.updated = datetime.now(UTC)
            session.flush()
            return _settings(record)

    def remove(self, account_id: int) -> AccountSettings | None:
        """Delete an account; returns what was removed (its ``secret_ref`` for the keyring)."""
        with self.database.session() as session, session.begin():
            record = session.get(AccountRecord, account_id)
            if record is None:
                return None
            removed = _settings(record)
            session.delete(record)
            return removed


def replace(account: AccountSettings, **changes: object) -> AccountSettings:
    """A copy with some fields changed (dataclasses.replace, typed for callers)."""
    return dataclasses.replace(account, **changes)  # type: ignore[arg-type]
