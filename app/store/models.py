"""The tables. The schema itself is created and changed only by the Alembic migrations."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
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
    # The labels of the conversation that wrote it (app.agent.gate.labels); NULL: unknown,
    # untrusted.
    labels_json: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)


class StandingPermissionRecord(Base):
    """An "always allow" the user granted: a tool, narrowed to a host or recipient."""

    __tablename__ = "standing_permissions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    tool: Mapped[str] = mapped_column(String(100))
    scope: Mapped[str | None] = mapped_column(String(500), nullable=True)


class ConversationRecord(Base):
    """A conversation in the sidebar; its title comes from the first message unless renamed."""

    __tablename__ = "conversations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    state_json: Mapped[str] = mapped_column(Text, default="{}")


class MessageRecord(Base):
    """One message of a conversation, tool calls and reasoning included (FTS5-indexed)."""

    __tablename__ = "messages"
    __table_args__ = (UniqueConstraint("conversation_id", "position", name="uq_messages_position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    conversation_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("conversations.id", ondelete="CASCADE")
    )
    position: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    role: Mapped[str] = mapped_column(String(20))
    content: Mapped[str] = mapped_column(Text, default="")
    reasoning: Mapped[str] = mapped_column(Text, default="")
    tool_calls_json: Mapped[str] = mapped_column(Text, default="[]")
    tool_call_id: Mapped[str] = mapped_column(String(100), default="")
    name: Mapped[str] = mapped_column(String(100), default="")
    trusted: Mapped[bool] = mapped_column(Boolean, default=True)
    stopped: Mapped[bool] = mapped_column(Boolean, default=False)
    display_json: Mapped[str] = mapped_column(Text, default="{}")


class AllowedFolderRecord(Base):
    """A folder the user lets the assistant read and write."""

    __tablename__ = "allowed_folders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(String(4096), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReminderRecord(Base):
    """A reminder; `delivered` is set once the notification was shown."""

    __tablename__ = "reminders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    due: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    text: Mapped[str] = mapped_column(Text)
    delivered: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The labels of the conversation that set it (app.agent.gate.labels); NULL: unknown, untrusted.
    labels_json: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)


class SettingRecord(Base):
    """One app setting (model options and the like) as JSON. Never a secret."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value_json: Mapped[str] = mapped_column(Text)
