"""The document index (issue #23): the files of the allowed folders, their passages, and an
FTS5 index over the passages for `search_documents`.

`indexed_files` remembers each file's size and modification time, so a later pass re-reads
only what changed, and why a file could not be indexed. `passages` are its text in pieces,
each with where it sits (a page, a heading, a line); the FTS5 index is external-content,
kept in step by triggers (so a cascade from a removed file clears it too), with the Porter
stemmer ("periods" finds "period").

Self-contained: it touches no other table, so it can be renumbered after another branch's
migration without change.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_FTS = [
    "CREATE VIRTUAL TABLE passages_fts USING fts5(name, location, text, content='passages', "
    "content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')",
    "CREATE TRIGGER passages_ai AFTER INSERT ON passages BEGIN "
    "INSERT INTO passages_fts(rowid, name, location, text) "
    "VALUES (new.id, new.name, new.location, new.text); END",
    "CREATE TRIGGER passages_ad AFTER DELETE ON passages BEGIN "
    "INSERT INTO passages_fts(passages_fts, rowid, name, location, text) "
    "VALUES ('delete', old.id, old.name, old.location, old.text); END",
]


def upgrade() -> None:
    op.create_table(
        "indexed_files",
        sa.Column("id", sa.Integer, primary_key=True),
        # The allowed folder's real path, and the file's path beneath it ("/"-separated).
        sa.Column("root", sa.String(4096), nullable=False),
        sa.Column("path", sa.String(4096), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("modified_ns", sa.Integer, nullable=False),
        sa.Column("passages", sa.Integer, nullable=False, server_default="0"),
        # Why it is not (or only partly) indexed, for the person; "" when all went well.
        sa.Column("problem", sa.Text, nullable=False, server_default=""),
        sa.Column("indexed", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("root", "path", name="uq_indexed_files_path"),
    )
    op.create_table(
        "passages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "file_id",
            sa.Integer,
            sa.ForeignKey("indexed_files.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("position", sa.Integer, nullable=False),
        # The file's name and its document's title, searched with the passage.
        sa.Column("name", sa.String(1000), nullable=False),
        sa.Column("location", sa.String(300), nullable=False),  # "page 3", "Notice", "line 40"
        sa.Column("text", sa.Text, nullable=False),
    )
    op.create_index("ix_passages_file", "passages", ["file_id"])
    for statement in _FTS:
        op.execute(statement)


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS passages_ad")
    op.execute("DROP TRIGGER IF EXISTS passages_ai")
    op.execute("DROP TABLE IF EXISTS passages_fts")
    op.drop_index("ix_passages_file", "passages")
    op.drop_table("passages")
    op.drop_table("indexed_files")
