"""Conversations and their messages (with FTS5 search), allowed folders, reminders, app
settings, and an FTS5 index over memories for keyword recall.

The FTS5 tables are external-content indexes kept in step by triggers, so a crash can never
leave the index disagreeing with a committed row.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _fts_index(table: str, column: str) -> list[str]:
    """An FTS5 index `<table>_fts` over `table.column`, with triggers that keep it in step."""
    fts = f"{table}_fts"
    return [
        f"CREATE VIRTUAL TABLE {fts} USING fts5({column}, content='{table}', "
        f"content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
        f"CREATE TRIGGER {table}_ai AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO {fts}(rowid, {column}) VALUES (new.id, new.{column}); END",
        f"CREATE TRIGGER {table}_ad AFTER DELETE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {column}) VALUES ('delete', old.id, old.{column}); END",
        f"CREATE TRIGGER {table}_au AFTER UPDATE OF {column} ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, {column}) VALUES ('delete', old.id, old.{column}); "
        f"INSERT INTO {fts}(rowid, {column}) VALUES (new.id, new.{column}); END",
        f"INSERT INTO {fts}({fts}) VALUES ('rebuild')",
    ]


def _drop_fts_index(table: str) -> None:
    for suffix in ("ai", "ad", "au"):
        op.execute(f"DROP TRIGGER IF EXISTS {table}_{suffix}")
    op.execute(f"DROP TABLE IF EXISTS {table}_fts")


def upgrade() -> None:
    op.create_table(
        "conversations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("title", sa.String(200), nullable=False, server_default=""),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        # The conversation's taint and similar agent state, as JSON (never secrets).
        sa.Column("state_json", sa.Text, nullable=False, server_default="{}"),
    )
    op.create_index("ix_conversations_updated", "conversations", ["updated"])
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "conversation_id",
            sa.Integer,
            sa.ForeignKey("conversations.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("content", sa.Text, nullable=False, server_default=""),
        sa.Column("reasoning", sa.Text, nullable=False, server_default=""),
        sa.Column("tool_calls_json", sa.Text, nullable=False, server_default="[]"),
        sa.Column("tool_call_id", sa.String(100), nullable=False, server_default=""),
        sa.Column("name", sa.String(100), nullable=False, server_default=""),
        sa.Column("trusted", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("stopped", sa.Boolean, nullable=False, server_default=sa.false()),
        # What the chat view needs to redraw a tool card: decision, status, preview, ...
        sa.Column("display_json", sa.Text, nullable=False, server_default="{}"),
        sa.UniqueConstraint("conversation_id", "position", name="uq_messages_position"),
    )
    op.create_table(
        "allowed_folders",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("path", sa.String(4096), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "reminders",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("delivered", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_reminders_due", "reminders", ["due"])
    op.create_table(
        "settings",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("value_json", sa.Text, nullable=False),
    )
    for statement in _fts_index("messages", "content") + _fts_index("memories", "text"):
        op.execute(statement)


def downgrade() -> None:
    _drop_fts_index("memories")
    _drop_fts_index("messages")
    op.drop_table("settings")
    op.drop_index("ix_reminders_due", "reminders")
    op.drop_table("reminders")
    op.drop_table("allowed_folders")
    op.drop_table("messages")
    op.drop_index("ix_conversations_updated", "conversations")
    op.drop_table("conversations")
