"""Conversations and their messages, kept so a crash or kill loses nothing committed.

Each message is appended in its own transaction (with the conversation's `updated` time and
agent state), so what the agent has said is on disk before the next step starts. Search uses
the FTS5 index `messages_fts`; user text is turned into quoted tokens, never passed as FTS5
syntax. Plain data in and out: the store knows nothing of the agent or the UI.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from app.store.database import Database
from app.store.models import ConversationRecord, MessageRecord
from connectors.folding import fold

TITLE_LIMIT = 200  # the column's size
_WORD = re.compile(r"\w", re.UNICODE)


class ConversationNotFound(LookupError):
    """The conversation was deleted (perhaps in another window) or never existed."""


@dataclass
class StoredMessage:
    """One message as the store keeps it; `display` is what the chat view needs to redraw
    it (for a tool result: its card)."""

    role: str
    content: str = ""
    reasoning: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    tool_call_id: str = ""
    name: str = ""
    trusted: bool = True
    stopped: bool = False
    display: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
    position: int | None = None
    created: datetime | None = None


@dataclass(frozen=True)
class ConversationSummary:
    id: int
    title: str
    created: datetime
    updated: datetime


@dataclass
class StoredConversation:
    summary: ConversationSummary
    state: dict[str, Any]
    messages: list[StoredMessage]


@dataclass(frozen=True)
class SearchHit:
    """One conversation that matches, with a short snippet of where."""

    conversation_id: int
    title: str
    snippet: str
    updated: datetime


def fts_query(user_text: str) -> str | None:
    """A safe FTS5 query from what the user typed: every token quoted (so `AND`, `*`, `:`,
    quotes and brackets are plain text), all required, the last one also as a prefix so
    results appear while typing. None when nothing searchable is left."""
    tokens = [t for t in user_text.split() if _WORD.search(t)]
    if not tokens:
        return None
    quoted = ['"' + t.replace('"', '""') + '"' for t in tokens]
    quoted[-1] += "*"
    return " ".join(quoted)


def clean_title(title: str) -> str:
    """One line, trimmed, at most TITLE_LIMIT characters; ValueError when empty."""
    line = " ".join(str(title).split())
    if not line:
        raise ValueError("A conversation needs a title: type at least one character.")
    return line if len(line) <= TITLE_LIMIT else line[: TITLE_LIMIT - 1] + "…"


def _unused_title(session: Session, title: str) -> str:
    """The title, numbered when another conversation has it already ("Lunch (2)"): the list
    shows two conversations that began with the same words as two, not one twice."""
    if not title:
        return title
    taken = set(
        session.scalars(
            select(ConversationRecord.title).where(
                (ConversationRecord.title == title)
                | ConversationRecord.title.startswith(f"{title} (", autoescape=True)
            )
        )
    )
    number = 1
    candidate = title
    while candidate in taken:
        number += 1
        candidate = f"{title} ({number})"
    return candidate


def _summary(record: ConversationRecord) -> ConversationSummary:
    return ConversationSummary(record.id, record.title, record.created, record.updated)


def _now() -> datetime:
    return datetime.now(UTC)


class ConversationStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    def create(self, title: str = "", state: dict[str, Any] | None = None) -> ConversationSummary:
        now = _now()
        record = ConversationRecord(
            title=clean_title(title) if title.strip() else "",
            created=now,
            updated=now,
            state_json=json.dumps(state or {}, ensure_ascii=False),
        )
        with self.database.session() as session, session.begin():
            record.title = _unused_title(session, record.title)
            session.add(record)
        return _summary(record)

    def append(
        self, conversation_id: int, message: StoredMessage, state: dict[str, Any] | None = None
    ) -> StoredMessage:
        """Add one message at the end, in one transaction with the conversation's `updated`
        time and (when given) its new state. Returns the message with id and position."""
        now = _now()
        with self.database.session() as session, session.begin():
            if session.get(ConversationRecord, conversation_id) is None:
                raise ConversationNotFound(f"conversation {conversation_id} does not exist")
            last = session.scalar(
                select(func.max(MessageRecord.position)).where(
                    MessageRecord.conversation_id == conversation_id
                )
            )
            record = MessageRecord(
                conversation_id=conversation_id,
                position=0 if last is None else last + 1,
                created=message.created or now,
                role=message.role,
                content=message.content,
                reasoning=message.reasoning,
                tool_calls_json=json.dumps(message.tool_calls, ensure_ascii=False, default=str),
                tool_call_id=message.tool_call_id,
                name=message.name,
                trusted=message.trusted,
                stopped=message.stopped,
                display_json=json.dumps(message.display, ensure_ascii=False, default=str),
            )
            session.add(record)
            values: dict[str, Any] = {"updated": now}
            if state is not None:
                values["state_json"] = json.dumps(state, ensure_ascii=False)
            session.execute(
                update(ConversationRecord)
                .where(ConversationRecord.id == conversation_id)
                .values(**values)
            )
        message.id, message.position, message.created = record.id, record.position, record.created
        return message

    def set_card(self, conversation_id: int, tool_call_id: str, display: dict[str, Any]) -> None:
        """Replace what the card of one tool result shows (its change was undone since)."""
        with self.database.session() as session, session.begin():
            session.execute(
                update(MessageRecord)
                .where(
                    MessageRecord.conversation_id == conversation_id,
                    MessageRecord.role == "tool",
                    MessageRecord.tool_call_id == tool_call_id,
                )
                .values(display_json=json.dumps(display, ensure_ascii=False, default=str))
            )

    def truncate(self, conversation_id: int, keep: int) -> None:
        """Keep the first `keep` messages and drop the rest (regenerate, edit the last
        message); their search index entries go with them."""
        with self.database.session() as session, session.begin():
            if session.get(ConversationRecord, conversation_id) is None:
                raise ConversationNotFound(f"conversation {conversation_id} does not exist")
            session.execute(
                delete(MessageRecord).where(
                    MessageRecord.conversation_id == conversation_id,
                    MessageRecord.position >= keep,
                )
            )

    def set_state(self, conversation_id: int, state: dict[str, Any]) -> None:
        with self.database.session() as session, session.begin():
            session.execute(
                update(ConversationRecord)
                .where(ConversationRecord.id == conversation_id)
                .values(state_json=json.dumps(state, ensure_ascii=False))
            )

    def recent(self, limit: int | None = None) -> list[ConversationSummary]:
        """Newest (last written to) first."""
        query = select(ConversationRecord).order_by(
            ConversationRecord.updated.desc(), ConversationRecord.id.desc()
        )
        if limit is not None:
            query = query.limit(limit)
        with self.database.session() as session:
            return [_summary(r) for r in session.scalars(query)]

    def get(self, conversation_id: int) -> ConversationSummary | None:
        with self.database.session() as session:
            record = session.get(ConversationRecord, conversation_id)
            return None if record is None else _summary(record)

    def rename(self, conversation_id: int, title: str) -> ConversationSummary:
        """Rename without touching `updated`: renaming is not new activity."""
        cleaned = clean_title(title)
        with self.database.session() as session, session.begin():
            record = session.get(ConversationRecord, conversation_id)
            if record is None:
                raise ConversationNotFound(f"conversation {conversation_id} does not exist")
            record.title = cleaned
        return _summary(record)

    def delete(self, conversation_id: int) -> None:
        """Remove the conversation; its messages (and their index entries) go with it."""
        with self.database.session() as session, session.begin():
            session.execute(
                delete(ConversationRecord).where(ConversationRecord.id == conversation_id)
            )

    def load(self, conversation_id: int) -> StoredConversation:
        with self.database.session() as session:
            record = session.get(ConversationRecord, conversation_id)
            if record is None:
                raise ConversationNotFound(f"conversation {conversation_id} does not exist")
            rows = session.scalars(
                select(MessageRecord)
                .where(MessageRecord.conversation_id == conversation_id)
                .order_by(MessageRecord.position)
            )
            messages = [
                StoredMessage(
                    role=r.role,
                    content=r.content,
                    reasoning=r.reasoning,
                    tool_calls=_json(r.tool_calls_json, []),
                    tool_call_id=r.tool_call_id,
                    name=r.name,
                    trusted=r.trusted,
                    stopped=r.stopped,
                    display=_json(r.display_json, {}),
                    id=r.id,
                    position=r.position,
                    created=r.created,
                )
                for r in rows
            ]
            return StoredConversation(_summary(record), _json(record.state_json, {}), messages)

    def search(self, user_text: str, limit: int = 50) -> list[SearchHit]:
        """Conversations whose title or messages contain every word typed: title matches
        first, then by FTS5 rank (bm25) of their best message, newest first on ties."""
        query = fts_query(user_text)
        if query is None:
            return []
        words = [fold(t) for t in user_text.split() if _WORD.search(t)]
        hits: dict[int, SearchHit] = {}
        with self.database.session() as session:
            for record in session.scalars(
                select(ConversationRecord).order_by(ConversationRecord.updated.desc())
            ):
                title = fold(record.title)
                if all(word in title for word in words):
                    hits[record.id] = SearchHit(record.id, record.title, "", record.updated)
            rows = session.execute(
                text(
                    "SELECT m.conversation_id, c.title, c.updated, "
                    "snippet(messages_fts, 0, '', '', '…', 12) AS snip "
                    "FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid "
                    "JOIN conversations c ON c.id = m.conversation_id "
                    "WHERE messages_fts MATCH :query "
                    "ORDER BY bm25(messages_fts), c.updated DESC LIMIT :limit"
                ),
                {"query": query, "limit": limit * 10},
            )
            for conversation_id, title, updated, snip in rows:
                if conversation_id in hits:
                    if not hits[conversation_id].snippet:
                        old = hits[conversation_id]
                        hits[conversation_id] = SearchHit(
                            old.conversation_id, old.title, _one_line(snip), old.updated
                        )
                    continue
                hits[conversation_id] = SearchHit(
                    conversation_id, title, _one_line(snip), _as_datetime(updated)
                )
        return list(hits.values())[:limit]


def describe_error(exc: BaseException) -> str:
    """A storage error for logs and the user, without the SQL parameters SQLAlchemy puts in
    its messages (they are message texts, which may hold codes or passwords)."""
    if isinstance(exc, SQLAlchemyError):
        orig = getattr(exc, "orig", None)
        return f"{type(exc).__name__}: {orig}" if orig is not None else type(exc).__name__
    return f"{type(exc).__name__}: {exc}"


def _one_line(snippet: str) -> str:
    return " ".join(str(snippet).split())


def _as_datetime(value: Any) -> datetime:
    """Raw SQL returns SQLAlchemy's stored text for DateTime columns."""
    if isinstance(value, datetime):
        return value
    parsed = datetime.fromisoformat(str(value))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _json(raw: str, default: Any) -> Any:
    """A damaged JSON cell loses only that detail, never the whole conversation."""
    try:
        return json.loads(raw) if raw else default
    except (TypeError, ValueError):
        return default
