"""ConversationStore on a real SQLite file: append, list, rename, delete, load, FTS5 search."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from app.store.conversations import (
    ConversationNotFound,
    ConversationStore,
    StoredMessage,
    describe_error,
    fts_query,
)
from app.store.database import Database


@pytest.fixture
def store(tmp_path: Path):
    database = Database.open(tmp_path)
    yield ConversationStore(database)
    database.close()


def fts_ok(database: Database) -> None:
    with database.engine.begin() as connection:
        connection.execute(text("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')"))
        assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"


def test_append_load_round_trip_keeps_every_field(store: ConversationStore) -> None:
    conversation = store.create("Trip plans", state={"untrusted_sources": ["an email from a@b"]})
    store.append(conversation.id, StoredMessage("user", "Plan my trip to Zürich"))
    calls = [{"id": "c1", "name": "read_email", "arguments": {"email_id": "7"}}]
    store.append(conversation.id, StoredMessage("assistant", "", reasoning="hmm", tool_calls=calls))
    card = {"card": {"name": "read_email", "decision": "allow", "status": "ok"}}
    saved = store.append(
        conversation.id,
        StoredMessage(
            "tool", "Body", tool_call_id="c1", name="read_email", trusted=False, display=card
        ),
        state={"untrusted_sources": ["an email from x@y"]},
    )
    store.append(conversation.id, StoredMessage("assistant", "Half a rep", stopped=True))
    assert saved.id is not None and saved.position == 2
    loaded = store.load(conversation.id)
    assert loaded.summary.title == "Trip plans"
    assert loaded.state == {"untrusted_sources": ["an email from x@y"]}
    assert [m.position for m in loaded.messages] == [0, 1, 2, 3]
    assert loaded.messages[1].tool_calls == calls and loaded.messages[1].reasoning == "hmm"
    tool = loaded.messages[2]
    assert (tool.role, tool.trusted, tool.tool_call_id, tool.name) == (
        "tool",
        False,
        "c1",
        "read_email",
    )
    assert tool.display == card
    assert loaded.messages[3].stopped


def test_list_is_newest_first_and_rename_does_not_reorder(store: ConversationStore) -> None:
    first = store.create("first")
    second = store.create("second")
    assert [c.id for c in store.recent()] == [second.id, first.id]
    store.append(first.id, StoredMessage("user", "again"))
    assert [c.id for c in store.recent()] == [first.id, second.id]
    store.rename(second.id, "  Renamed\nsecond  ")
    assert [c.title for c in store.recent()] == ["first", "Renamed second"]


def test_rename_rejects_an_empty_title_and_keeps_the_old_one(store: ConversationStore) -> None:
    conversation = store.create("kept")
    with pytest.raises(ValueError, match="needs a title"):
        store.rename(conversation.id, "  \n ")
    kept = store.get(conversation.id)
    assert kept is not None and kept.title == "kept"
    long = store.rename(conversation.id, "x" * 500)
    assert len(long.title) == 200
    with pytest.raises(ConversationNotFound):
        store.rename(9999, "nope")


def test_delete_removes_messages_and_their_search_entries(store: ConversationStore) -> None:
    gone = store.create("gone")
    kept = store.create("kept")
    store.append(gone.id, StoredMessage("user", "pelican sighting"))
    store.append(kept.id, StoredMessage("user", "pelican feathers"))
    store.delete(gone.id)
    assert [c.id for c in store.recent()] == [kept.id]
    with pytest.raises(ConversationNotFound):
        store.load(gone.id)
    assert [h.conversation_id for h in store.search("pelican")] == [kept.id]
    with store.database.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM messages")).scalar() == 1
    fts_ok(store.database)
    with pytest.raises(ConversationNotFound):
        store.append(gone.id, StoredMessage("user", "late"))


def test_truncate_drops_the_tail_and_its_search_entries(store: ConversationStore) -> None:
    """Regenerate and edit take the last exchange back: it leaves the conversation and the
    search index, and the next message continues the positions."""
    conversation = store.create("walk")
    for role, content in [
        ("user", "heron walk"),
        ("assistant", "a nice heron"),
        ("user", "osprey dive"),
        ("assistant", "an osprey reply"),
    ]:
        store.append(conversation.id, StoredMessage(role, content))
    store.truncate(conversation.id, 2)
    assert [m.content for m in store.load(conversation.id).messages] == [
        "heron walk",
        "a nice heron",
    ]
    assert store.search("osprey") == []
    fts_ok(store.database)
    again = store.append(conversation.id, StoredMessage("user", "egret"))
    assert again.position == 2
    with pytest.raises(ConversationNotFound):
        store.truncate(conversation.id + 100, 0)


def test_search_finds_words_across_conversations_with_snippets(store: ConversationStore) -> None:
    old = store.create("Garden")
    store.append(old.id, StoredMessage("user", "When should I prune the apple trees?"))
    store.append(old.id, StoredMessage("assistant", "Prune apple trees in late winter."))
    new = store.create("Taxes")
    store.append(new.id, StoredMessage("user", "Remind me about the tax return"))
    hits = store.search("apple")
    assert [h.conversation_id for h in hits] == [old.id]  # one hit per conversation
    assert "apple" in hits[0].snippet.lower() and "\n" not in hits[0].snippet
    assert store.search("prune APPLE")[0].conversation_id == old.id  # every word, any case
    assert store.search("appl")[0].conversation_id == old.id  # prefix while typing
    assert store.search("apple tax") == []
    assert store.search("Zurich") == []


def test_search_ignores_accents_and_matches_titles(store: ConversationStore) -> None:
    conversation = store.create("Café list")
    store.append(conversation.id, StoredMessage("user", "Meet in Zürich next week"))
    assert store.search("zurich")[0].conversation_id == conversation.id
    titled = store.search("café")
    assert titled and titled[0].conversation_id == conversation.id


def test_a_name_in_a_title_is_found_without_its_accents(store: ConversationStore) -> None:
    """Issue #39: titles are matched the way the message index matches, accents folded."""
    conversation = store.create("Birthday present for Zoë Müller")
    hits = store.search("zoe muller")
    assert [(h.conversation_id, h.snippet) for h in hits] == [(conversation.id, "")]


@pytest.mark.parametrize(
    "typed",
    [
        '"',
        "AND OR NOT",
        "title:secret",
        "a* (b",
        "NEAR(x y)",
        "-",
        "'; DROP TABLE messages; --",
        "^x",
    ],
)
def test_search_treats_fts_syntax_as_plain_text(store: ConversationStore, typed: str) -> None:
    conversation = store.create("c")
    store.append(conversation.id, StoredMessage("user", "plain words AND OR NOT title:secret"))
    store.search(typed)  # never raises, whatever the user typed
    assert store.recent()[0].id == conversation.id
    fts_ok(store.database)


def test_fts_query_quotes_every_token() -> None:
    assert fts_query("  ") is None and fts_query("-- !!") is None
    assert fts_query('say "hi" OR') == '"say" """hi""" "OR"*'


def test_in_memory_database_works_without_a_data_folder() -> None:
    store = ConversationStore(Database.in_memory())
    conversation = store.create("memory")
    store.append(conversation.id, StoredMessage("user", "nothing on disk"))
    assert store.load(conversation.id).messages[0].content == "nothing on disk"
    assert store.search("disk")[0].conversation_id == conversation.id


def test_storage_errors_are_described_without_sql_parameters() -> None:
    import sqlite3

    from sqlalchemy.exc import IntegrityError

    error = IntegrityError(
        "INSERT INTO messages VALUES (?)",
        ("one-time code 493021",),
        sqlite3.IntegrityError("UNIQUE constraint failed: messages.position"),
    )
    assert "493021" in str(error)  # what SQLAlchemy itself would print
    described = describe_error(error)
    assert "493021" not in described and "UNIQUE constraint failed" in described
