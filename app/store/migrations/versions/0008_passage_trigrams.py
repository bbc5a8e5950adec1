"""A trigram index over the document passages (issue #39): words inside words.

The word index (`passages_fts`, migration 0007) matches whole words, so "Kaution" finds
nothing in a lease that says "Mietkaution", nor "Ahornstr." in one that says "Ahornstraße".
`passages_trigram` indexes every three letters of the same passages, so any part of a word
matches; `app.store.documents` fuses its ranking with the word index's.

SQLite before 3.45 has no `remove_diacritics` for the trigram tokenizer, so the text is
folded in Python (`connectors.folding.fold`: case and accents away) before it is stored and
before it is searched. The table keeps that folded text itself (not external content: the
passages hold the unfolded text, so FTS5 could not recompute what to delete); a passage's
row goes when the passage goes (a trigger, so a cascade from a removed file clears it too).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from connectors.folding import fold

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE VIRTUAL TABLE passages_trigram USING fts5(name, text, tokenize='trigram')")
    op.execute(
        "CREATE TRIGGER passages_trigram_ad AFTER DELETE ON passages BEGIN "
        "DELETE FROM passages_trigram WHERE rowid = old.id; END"
    )
    connection = op.get_bind()
    rows = connection.execute(sa.text("SELECT id, name, location, text FROM passages"))
    batch: list[dict[str, object]] = []
    insert = sa.text("INSERT INTO passages_trigram (rowid, name, text) VALUES (:id, :name, :text)")
    for row in rows.fetchall():
        batch.append({"id": row[0], "name": fold(row[1]), "text": fold(f"{row[2]} {row[3]}")})
        if len(batch) >= 1000:
            connection.execute(insert, batch)
            batch = []
    if batch:
        connection.execute(insert, batch)


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS passages_trigram_ad")
    op.execute("DROP TABLE IF EXISTS passages_trigram")
