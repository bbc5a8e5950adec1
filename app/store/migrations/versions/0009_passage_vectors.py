"""The passages' embeddings (issue #39): documents found by meaning.

One row per passage and embedding model: the vector as float32 bytes. A BLOB table rather
than a numpy file beside the database, because a vector then lives and dies with its passage:
written in the same transaction as the index pass's other rows, gone by the foreign key's
cascade when the file changes or is forgotten, covered by WAL crash safety, by "delete all"
and by a backup of the one file. sqlite-vec (a vector index inside SQLite) is not installed
and Python's sqlite3 often cannot load extensions, so the search reads the vectors of the
allowed folders and multiplies them with numpy. Reading 2,000 vectors took 50 to 185 ms on a
busy machine, so the search keeps them in memory until `passage_vectors_epoch` (one counter,
raised by a trigger on every vector written or deleted, a cascade's too) says they changed.

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
    op.create_table(
        "passage_vectors_epoch",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
    )
    op.execute("INSERT INTO passage_vectors_epoch (id, n) VALUES (1, 0)")
    for event in ("INSERT", "DELETE"):
        op.execute(
            f"CREATE TRIGGER passage_vectors_{event.lower()} AFTER {event} ON passage_vectors "
            "BEGIN UPDATE passage_vectors_epoch SET n = n + 1 WHERE id = 1; END"
        )


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS passage_vectors_insert")
    op.execute("DROP TRIGGER IF EXISTS passage_vectors_delete")
    op.drop_table("passage_vectors_epoch")
    op.drop_table("passage_vectors")
