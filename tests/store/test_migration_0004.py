"""Migration 0004: conversations, messages and their FTS5 index, folders, reminders, settings,
and the memories index. Upgrading a database that already holds memories indexes them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import inspect, text

from app.store.database import Database

NEW_TABLES = {"conversations", "messages", "allowed_folders", "reminders", "settings"}


def test_upgrade_from_0003_indexes_existing_memories_and_downgrade_removes_tables(
    tmp_path: Path,
) -> None:
    database = Database.open(tmp_path, upgrade=False)
    database.upgrade("0003")
    with database.engine.begin() as connection:
        connection.execute(
            text("INSERT INTO memories (created, text) VALUES (:at, :text)"),
            {"at": datetime.now(UTC), "text": "My dentist is Dr. Müller on Elm Street"},
        )
    database.upgrade("0004")
    assert database.current_revision() == "0004"
    assert set(inspect(database.engine).get_table_names()) >= NEW_TABLES
    with database.engine.connect() as connection:
        hits = connection.execute(
            text("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'muller'")
        ).all()
    assert len(hits) == 1  # diacritics folded, lower-cased

    database.downgrade("0003")
    names = set(inspect(database.engine).get_table_names())
    assert not (NEW_TABLES & names) and "memories_fts" not in names and "messages_fts" not in names
    with database.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM memories")).scalar() == 1
    database.upgrade("0004")
    assert database.current_revision() == "0004"
    database.close()


def test_message_index_follows_insert_update_delete_and_cascade(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    now = datetime.now(UTC)

    def search(word: str) -> list[int]:
        with database.engine.connect() as connection:
            rows = connection.execute(
                text("SELECT rowid FROM messages_fts WHERE messages_fts MATCH :q"), {"q": word}
            )
            return [row[0] for row in rows]

    with database.engine.begin() as connection:
        connection.execute(
            text("INSERT INTO conversations (id, title, created, updated) VALUES (1, 't', :n, :n)"),
            {"n": now},
        )
        connection.execute(
            text(
                "INSERT INTO messages (id, conversation_id, position, created, role, content) "
                "VALUES (7, 1, 0, :n, 'user', 'Book the dentist appointment')"
            ),
            {"n": now},
        )
    assert search("dentist") == [7]
    with database.engine.begin() as connection:
        connection.execute(text("UPDATE messages SET content = 'Call the plumber' WHERE id = 7"))
    assert search("dentist") == [] and search("plumber") == [7]
    with database.engine.begin() as connection:
        connection.execute(text("DELETE FROM conversations WHERE id = 1"))  # cascades
    assert search("plumber") == []
    database.close()
