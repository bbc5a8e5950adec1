"""The passages' embeddings (issue #39): documents found by meaning.

One row per passage and embedding model: the vector as float32 bytes. A BLOB table rather
than a numpy file beside the database, because a vector then lives and dies with its passage:
written in the same transaction as the index pass's other rows, gone by the foreign key's
cascade when the file changes or is forgotten, covered by WAL crash safety, by "delete all"
and by a backup of the one file. sqlite-vec (a vector index inside SQLite) is not installed
and Python's sqlite3 often cannot load extensions, so the search reads the vectors of the
allowed folders and multiplies them with numpy (a few milliseconds for 1,000 files).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passage_vectors",
        sa.Column(
            "passage_id",
            sa.Integer,
            sa.ForeignKey("passages.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        # Which model made it ("file name:size"): another model's vectors are not comparable.
        sa.Column("model", sa.String(300), nullable=False),
        sa.Column("vector", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("passage_vectors")
