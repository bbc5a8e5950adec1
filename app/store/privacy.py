"""Privacy: where Hearth keeps what, and "delete all conversations and memories".

Deleting rows is not enough for privacy: SQLite leaves the old text in free pages, in the FTS
index segments and in the write-ahead log. So the delete runs with secure_delete on, rebuilds
the FTS indexes, checkpoints and truncates the WAL, VACUUMs (rewrites the file without the
free pages) and truncates the WAL again, after which neither hearth.db nor hearth.db-wal holds
the deleted text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.paths import LOGS_FOLDER, MODELS_FOLDER, PROMPT_PREFIXES_FOLDER, cache_dir
from app.store.database import FILENAME, Database

# What "delete all" removes. Messages go with their conversations (ON DELETE CASCADE); the
# activity list goes too, because its arguments quote what was remembered and reminded. The
# document index holds copies of the files' text: it goes too (the next pass rebuilds it
# from the folders that are still allowed).
# The hashed digits the gate keeps of what private stores said (app.agent.gate.permissions).
PRIVATE_MARKS_KEY = "gate.private_digit_marks"
_DELETE: tuple[str, ...] = ("conversations", "messages", "memories", "reminders", "audit_log")
_DELETE += ("passage_vectors", "passages", "indexed_files")
# The trigram index keeps its own (folded) copy of the passages: it is emptied by the
# passages' delete trigger and rebuilt like the others, which drops its old segments.
_FTS = ("messages_fts", "memories_fts", "passages_fts", "passages_trigram")


@dataclass(frozen=True)
class StoragePlaces:
    """The places on disk the Privacy panel names."""

    data_dir: Path
    database: Path
    logs: Path
    models: Path
    prompt_cache: Path  # outside the data folder: the per-user cache

    @classmethod
    def of(cls, data_dir: Path) -> StoragePlaces:
        return cls(
            data_dir,
            data_dir / FILENAME,
            data_dir / LOGS_FOLDER,
            data_dir / MODELS_FOLDER,
            cache_dir() / PROMPT_PREFIXES_FOLDER,
        )


@dataclass(frozen=True)
class DeleteReport:
    conversations: int
    memories: int
    reminders: int


def delete_conversations_and_memories(database: Database) -> DeleteReport:
    """Remove every conversation (and message), memory, reminder and activity entry, and leave
    no copy of their text in the database file or its WAL (nor the hashed digits the gate keeps
    of what was read). Accounts, folders, permissions and settings stay."""
    connection = database.engine.raw_connection()
    raw = connection.driver_connection
    assert raw is not None  # a pooled SQLite connection always has its driver connection
    isolation = raw.isolation_level
    try:
        raw.isolation_level = None  # autocommit: VACUUM cannot run inside a transaction
        cursor = raw.cursor()
        cursor.execute("PRAGMA secure_delete=ON")  # freed pages are zeroed, not just unlinked
        counts = {
            table: cursor.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("conversations", "memories", "reminders")
        }
        cursor.execute("BEGIN IMMEDIATE")
        try:
            for table in _DELETE:
                cursor.execute(f"DELETE FROM {table}")
            # Hashed digit pieces of numbers read from those stores (the gate's grant fence).
            cursor.execute("DELETE FROM settings WHERE key = ?", (PRIVATE_MARKS_KEY,))
            for fts in _FTS:
                # 'rebuild' drops every old segment and re-reads the (now empty) content
                # tables (the trigram index's own, for passages_trigram).
                cursor.execute(f"INSERT INTO {fts}({fts}) VALUES ('rebuild')")
            cursor.execute("COMMIT")
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cursor.execute("VACUUM")
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cursor.close()
    finally:
        raw.isolation_level = isolation  # the pooled connection goes back as it came
        connection.close()
    return DeleteReport(counts["conversations"], counts["memories"], counts["reminders"])
