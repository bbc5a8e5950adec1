"""Labels on stored memories and reminders: where the text that wrote them came from.

A memory or reminder keeps the labels of the conversation that wrote it (untrusted sources,
private stores read), as JSON; reading it back restores them (app.agent.gate.labels). Rows that
existed before this migration keep NULL, which the agent reads as "unknown, so untrusted":
nobody can say any more whether an email or a web page was behind them, and treating them as
the user's own words is exactly the laundering this column exists to stop. Conversations keep
their labels in their existing `state_json` and need no new column.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_TABLES = ("memories", "reminders")


def upgrade() -> None:
    for table in _TABLES:
        op.add_column(table, sa.Column("labels_json", sa.Text, nullable=True))


def downgrade() -> None:
    # Plain ALTER TABLE (SQLite 3.35+): a batch copy of `memories` would drop its FTS triggers.
    for table in _TABLES:
        op.execute(f"ALTER TABLE {table} DROP COLUMN labels_json")
