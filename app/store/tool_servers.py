"""The user's tool servers (MCP, issue #22): how to start each one, and what the user approved.

A server's secrets (API keys it reads from environment variables or HTTP headers) are not
fields here: their values live in the OS keyring under ``secret_ref`` and the variable's
name (``app.agent.tools.tool_servers``); only the names are stored. ``approved`` maps each tool's
name to the fingerprint of the description and schema the user saw: a server that later
changes a tool's description gets that tool switched off until the user looks again.
"""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import MappingProxyType

from sqlalchemy import Boolean, DateTime, Integer, String, Text, select
from sqlalchemy.orm import Mapped, mapped_column

from app.store.database import Database
from app.store.models import Base

# What a secret may be called (an environment variable or an HTTP header), and what an
# address must look like: checked by the settings form as the user types and again on save.
SECRET_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]{0,63}")
WEB_ADDRESS = re.compile(r"https?://[^\s/]+", re.IGNORECASE)


class ToolServerRecord(Base):
    """One tool server's settings; made by migration 0006."""

    __tablename__ = "tool_servers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    command: Mapped[str] = mapped_column(Text, default="")  # a command line, for stdio
    url: Mapped[str] = mapped_column(String(2000), default="")  # or a streamable-HTTP address
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    secret_names_json: Mapped[str] = mapped_column(Text, default="[]")
    approved_json: Mapped[str] = mapped_column(Text, default="{}")
    secret_ref: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class ToolServer:
    """A tool server as the user set it up (``id`` is None until it is stored).

    Exactly one of ``command`` (a program and its arguments, started over stdio) and ``url``
    (a streamable-HTTP address). ``secret_names``: the environment variables (stdio) or HTTP
    headers (url) whose values are in the keyring.
    """

    name: str
    command: str = ""
    url: str = ""
    enabled: bool = True
    secret_names: tuple[str, ...] = ()
    approved: Mapping[str, str] = field(default_factory=dict)
    id: int | None = None
    secret_ref: str = ""

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("A tool server needs a name.")
        if bool(self.command.strip()) == bool(self.url.strip()):
            raise ValueError("A tool server is started by a command or reached at an address.")
        object.__setattr__(self, "approved", MappingProxyType(dict(self.approved)))

    def describe(self) -> str:
        """A one-line label for lists: "Weather (uvx mcp-weather)"."""
        how = self.command or self.url
        return f"{self.name} ({how if len(how) <= 60 else how[:59] + '…'})"


_FIELDS = ("name", "command", "url", "enabled")


def _server(record: ToolServerRecord) -> ToolServer:
    return ToolServer(
        **{name: getattr(record, name) for name in _FIELDS},
        secret_names=tuple(json.loads(record.secret_names_json)),
        approved=json.loads(record.approved_json),
        id=record.id,
        secret_ref=record.secret_ref,
    )


def _write(record: ToolServerRecord, server: ToolServer) -> None:
    for name in _FIELDS:
        setattr(record, name, getattr(server, name))
    record.secret_names_json = json.dumps(list(server.secret_names))
    record.approved_json = json.dumps(dict(server.approved), sort_keys=True)
    record.updated = datetime.now(UTC)


class ToolServerStore:
    """Add, update, remove and list tool servers; each call is its own transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def saved(self) -> list[ToolServer]:
        with self.database.session() as session:
            query = select(ToolServerRecord).order_by(ToolServerRecord.id)
            return [_server(record) for record in session.scalars(query)]

    def get(self, server_id: int) -> ToolServer | None:
        with self.database.session() as session:
            record = session.get(ToolServerRecord, server_id)
            return _server(record) if record is not None else None

    def add(self, server: ToolServer) -> ToolServer:
        """Store a new server; returns it with its id and keyring name filled in. A name
        already taken (in any case) is a ValueError: names tell the user's servers apart."""
        taken = {s.name.casefold() for s in self.saved()}
        if server.name.casefold() in taken:
            raise ValueError(f"There is already a tool server called “{server.name}”.")
        now = datetime.now(UTC)
        with self.database.session() as session, session.begin():
            record = ToolServerRecord(
                secret_ref=server.secret_ref or f"tools-{secrets.token_hex(8)}", created=now
            )
            _write(record, server)
            session.add(record)
            session.flush()
            return _server(record)

    def update(self, server: ToolServer) -> ToolServer:
        """Replace a stored server's settings (its keyring name stays)."""
        if server.id is None:
            raise ValueError("Only a stored tool server can be updated.")
        others = {s.name.casefold() for s in self.saved() if s.id != server.id}
        if server.name.casefold() in others:
            raise ValueError(f"There is already a tool server called “{server.name}”.")
        with self.database.session() as session, session.begin():
            record = session.get(ToolServerRecord, server.id)
            if record is None:
                raise KeyError(server.id)
            _write(record, server)
            session.flush()
            return _server(record)

    def approve(self, server_id: int, fingerprints: Mapping[str, str]) -> ToolServer:
        """Record that the user saw these tools as they are now (name → fingerprint)."""
        server = self.get(server_id)
        if server is None:
            raise KeyError(server_id)
        return self.update(replace(server, approved={**server.approved, **fingerprints}))

    def remove(self, server_id: int) -> ToolServer | None:
        """Delete a server; returns what was removed (its keyring name and secret names)."""
        with self.database.session() as session, session.begin():
            record = session.get(ToolServerRecord, server_id)
            if record is None:
                return None
            removed = _server(record)
            session.delete(record)
            return removed


def replace(server: ToolServer, **changes: object) -> ToolServer:
    """A copy with some fields changed (dataclasses.replace, typed for callers)."""
    return dataclasses.replace(server, **changes)  # type: ignore[arg-type]
