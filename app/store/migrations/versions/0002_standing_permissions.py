"""Standing "always allow" permissions the user granted (each revocable).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "standing_permissions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tool", sa.String(100), nullable=False),
        sa.Column("scope", sa.String(500), nullable=True),
        sa.UniqueConstraint("tool", "scope", name="uq_standing_tool_scope"),
    )


def downgrade() -> None:
    op.drop_table("standing_permissions")
