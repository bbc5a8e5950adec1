"""Store layer of the Privacy panel, reminders and memory recall, on real SQLite files."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.store.database import FILENAME, Database
from app.store.memories import fts_query, search_memories
from app.store.models import ConversationRecord, MemoryRecord, MessageRecord
from app.store.privacy import StoragePlaces, delete_conversations_and_memories
from app.store.reminders import ReminderError, ReminderStore, parse_local_time

PHRASE = "zanzibar-quokka-marmalade"
NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    db = Database.open(tmp_path)
    yield db
    db.close()


def remember(database: Database, text: str) -> int:
    with database.session() as session, session.begin():
        record = MemoryRecord(created=datetime.now(UTC), text=text)
        session.add(record)
        session.flush()
        return record.id


def test_fts_query_is_quoted_and_safe() -> None:
    assert fts_query("Dentist appointment") == '"dentist" OR "appointment"'
    assert (
        fts_query('x" OR content:* NEAR(a b) -"')
        == '"x" OR "or" OR "content" OR "near" OR "a" OR "b"'
    )
    assert fts_query("  ?!  ... **") == ""
    assert fts_query("") == ""
    assert fts_query("Zoë's café") == '"zoë" OR "s" OR "café"'


def test_recall_ranks_by_bm25_and_follows_forget(database: Database) -> None:
    dentist = remember(database, "The dentist is Dr Müller on Main Street")
    both = remember(database, "Dentist appointments are on Tuesday; the dentist is kind")
    tea = remember(database, "Anna likes green tea")
    found = search_memories(database, "dentist tuesday")
    assert [m.id for m in found] == [both, dentist]  # more matching words rank first
    assert search_memories(database, "muller")[0].id == dentist  # diacritics folded
    assert search_memories(database, '"; DROP TABLE memories; --') == []
    assert search_memories(database, "NEAR( * ") == []
    assert search_memories(database, "!!!") == []
    with database.session() as session, session.begin():
        session.delete(session.get(MemoryRecord, dentist))
    assert [m.id for m in search_memories(database, "dentist")] == [both]
    # no words at all: the newest, as many as asked
    assert [m.id for m in search_memories(database, "")] == [tea, both]
    assert [m.id for m in search_memories(database, " ", limit=1)] == [tea]


def test_reminders_due_delivered_cancel_and_past_refused(database: Database) -> None:
    store = ReminderStore(database)
    soon = store.add("Call Anna", NOW + timedelta(minutes=5), now=NOW)
    later = store.add("Pay rent", NOW + timedelta(days=1), now=NOW)
    with pytest.raises(ReminderError, match="in the past"):
        store.add("Too late", NOW - timedelta(minutes=1), now=NOW)
    assert [r.id for r in store.pending()] == [soon.id, later.id]
    assert store.due(NOW) == []
    assert [r.text for r in store.due(NOW + timedelta(minutes=5))] == ["Call Anna"]
    assert store.due(NOW + timedelta(minutes=5))[0].due == NOW + timedelta(minutes=5)
    store.mark_delivered(soon.id, NOW + timedelta(minutes=6))
    assert store.due(NOW + timedelta(hours=2)) == []
    # After a "restart" (a new connection), an overdue one is still due.
    database.close()
    assert database.engine.url.database is not None
    reopened = ReminderStore(Database.open(Path(database.engine.url.database).parent))
    assert [r.id for r in reopened.due(NOW + timedelta(days=2))] == [later.id]
    reopened.cancel(later.id)
    assert reopened.pending() == []
    with pytest.raises(ReminderError, match="no pending reminder"):
        reopened.cancel(soon.id)
    reopened.database.close()


def test_parse_local_time() -> None:
    assert parse_local_time("2026-12-01T09:30:00+01:00") == datetime(2026, 12, 1, 8, 30, tzinfo=UTC)
    assert parse_local_time("2026-12-01T09:30Z") == datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    naive = datetime(2026, 12, 1, 9, 30)
    assert parse_local_time("2026-12-01T09:30") == naive.astimezone(UTC)
    with pytest.raises(ReminderError, match="ISO 8601"):
        parse_local_time("tomorrow at nine")


def test_delete_all_leaves_no_trace_in_the_files(tmp_path: Path, database: Database) -> None:
    remember(database, f"My secret word is {PHRASE}")
    ReminderStore(database).add(f"Say {PHRASE}", datetime.now(UTC) + timedelta(days=1))
    with database.session() as session, session.begin():
        conversation = ConversationRecord(
            title=PHRASE, created=datetime.now(UTC), updated=datetime.now(UTC)
        )
        session.add(conversation)
        session.flush()
        for position in range(50):  # enough text to span many pages
            session.add(
                MessageRecord(
                    conversation_id=conversation.id,
                    position=position,
                    created=datetime.now(UTC),
                    role="user",
                    content=f"message {position}: {PHRASE} " + "lorem ipsum " * 40,
                )
            )
    places = StoragePlaces.of(tmp_path)
    wal = Path(str(places.database) + "-wal")
    contents = places.database.read_bytes() + (wal.read_bytes() if wal.exists() else b"")
    assert PHRASE.encode() in contents  # the test would prove nothing otherwise

    report = delete_conversations_and_memories(database)
    assert (report.conversations, report.memories, report.reminders) == (1, 1, 1)
    for path in (places.database, wal):
        if path.exists():
            assert PHRASE.encode() not in path.read_bytes(), path
    with database.session() as session:
        assert session.query(MessageRecord).count() == 0
    assert search_memories(database, PHRASE) == []
    # The pooled connection still works normally (transactions, FTS triggers).
    remember(database, "after the delete")
    assert search_memories(database, "delete")[0].text == "after the delete"
    assert places.database.name == FILENAME and places.logs == tmp_path / "logs"
