"""The user's tool servers (MCP): how each is started and which tool descriptions were seen.

Secrets for a server (API keys in environment variables or headers) live in the OS keyring
under ``secret_ref``; only their names are stored here.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tool_servers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("command", sa.Text, nullable=False, server_default=""),
        sa.Column("url", sa.String(2000), nullable=False, server_default=""),
        sa.Column("enabled", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("secret_names_json", sa.Text, nullable=False, server_default="[]"),
        sa.Column("approved_json", sa.Text, nullable=False, server_default="{}"),
        sa.Column("secret_ref", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tool_servers")
