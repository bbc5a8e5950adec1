"""Mail and calendar account settings (passwords live in the OS keyring, never here).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("provider", sa.String(40), nullable=False, server_default="other"),
        sa.Column("email", sa.String(320), nullable=False, server_default=""),
        sa.Column("username", sa.String(320), nullable=False, server_default=""),
        sa.Column("display_name", sa.String(200), nullable=False, server_default=""),
        sa.Column("imap_host", sa.String(255), nullable=False, server_default=""),
        sa.Column("imap_port", sa.Integer, nullable=False, server_default="993"),
        sa.Column("imap_security", sa.String(10), nullable=False, server_default="tls"),
        sa.Column("smtp_host", sa.String(255), nullable=False, server_default=""),
        sa.Column("smtp_port", sa.Integer, nullable=False, server_default="465"),
        sa.Column("smtp_security", sa.String(10), nullable=False, server_default="tls"),
        sa.Column("save_sent", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("calendar_url", sa.String(2000), nullable=False, server_default=""),
        sa.Column("secret_ref", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('mail', 'calendar')", name="ck_accounts_kind"),
    )


def downgrade() -> None:
    op.drop_table("accounts")
