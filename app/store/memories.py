"""Keyword recall over remembered facts, ranked by SQLite FTS5 (bm25 over `memories_fts`).

The user's words are never passed to FTS5 as query syntax: each word becomes a quoted string
and the words are OR-ed, so quotes, NEAR, column filters or a stray `*` cannot change the
query (or make it fail). The index is kept in step with `memories` by triggers (migration 0004).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import text

from app.store.database import Database

# Letters and digits in any script; what unicode61 would treat as token characters.
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Memory:
    id: int
    text: str
    # The labels of the conversation that wrote it, as stored (JSON text; None: written before
    # labels were kept). The store keeps them opaque: app.agent.gate.labels reads them.
    labels_json: str | None = None


def fts_query(query: str) -> str:
    """A safe FTS5 MATCH expression: every word quoted, OR-ed; "" when there are no words."""
    words = [w for w in _WORD.findall(query) if w.strip("_")]
    unique = list(dict.fromkeys(w.lower() for w in words))
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in unique)


def search_memories(database: Database, query: str, limit: int = 10) -> list[Memory]:
    """The memories matching any word of `query`, best bm25 rank first (newest on ties); a
    query of no words ("") lists the newest ("what do you know about me?")."""
    expression = fts_query(query)
    if not expression and query.strip():
        return []  # only signs ("*"): nothing asked
    if not expression:
        statement = text("SELECT id, text, labels_json FROM memories ORDER BY id DESC LIMIT :limit")
        with database.engine.connect() as connection:
            rows = connection.execute(statement, {"limit": limit})
            return [Memory(int(row[0]), str(row[1]), row[2]) for row in rows]
    statement = text(
        "SELECT m.id, m.text, m.labels_json FROM memories_fts "
        "JOIN memories AS m ON m.id = memories_fts.rowid "
        "WHERE memories_fts MATCH :query ORDER BY bm25(memories_fts), m.id DESC LIMIT :limit"
    )
    with database.engine.connect() as connection:
        rows = connection.execute(statement, {"query": expression, "limit": limit})
        return [Memory(int(row[0]), str(row[1]), row[2]) for row in rows]
