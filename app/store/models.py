"""The tables. The schema itself is created and changed only by the Alembic migrations."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class AuditRecord(Base):
    """One tool call: arguments (secrets redacted), decision, the user's answer, outcome."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    tool: Mapped[str] = mapped_column(String(100))
    arguments_json: Mapped[str] = mapped_column(Text)
    decision: Mapped[str] = mapped_column(String(10))
    answer: Mapped[str | None] = mapped_column(String(10), nullable=True)
    status: Mapped[str] = mapped_column(String(10))
    reasons_json: Mapped[str] = mapped_column(Text, default="[]")
    result_preview: Mapped[str] = mapped_column(Text, default="")


class MemoryRecord(Base):
    """A fact the user asked the assistant to remember."""

    __tablename__ = "memories"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    text: Mapped[str] = mapped_column(Text)


class StandingPermissionRecord(Base):
    """An "always allow" the user granted: a tool, narrowed to a host or recipient."""

    __tablename__ = "standing_permissions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    tool: Mapped[str] = mapped_column(String(100))
    scope: Mapped[str | None] = mapped_column(String(500), nullable=True)
