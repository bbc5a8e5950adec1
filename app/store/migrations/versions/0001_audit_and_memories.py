"""The audit log and memories.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tool", sa.String(100), nullable=False),
        sa.Column("arguments_json", sa.Text, nullable=False),
        sa.Column("decision", sa.String(10), nullable=False),
        sa.Column("answer", sa.String(10), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("reasons_json", sa.Text, nullable=False),
        sa.Column("result_preview", sa.Text, nullable=False),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at"])
    op.create_table(
        "memories",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("memories")
    op.drop_index("ix_audit_log_at", "audit_log")
    op.drop_table("audit_log")
