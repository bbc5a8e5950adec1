"""Conversations that last: the agent's messages, tool cards and taint, to and from the store.

A `KeptConversation` pairs a live `Conversation` with its own `ContextState` and saves each
message the moment the agent adds it (with the state as it is then), so a kill loses nothing
the agent already said, and a conversation that read untrusted mail is still tainted after a
restart while a new one starts clean. Only what the gate needs is saved as state: where
untrusted content came from, which private stores were read, and known recipients. What the
private stores said comes back from the tool messages that hold it, the user's own words
from their messages; allowed folders always come from the app's current settings.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar, get_args

from sqlalchemy.exc import SQLAlchemyError

from app.agent.gate import ContextState
from app.agent.tools.declarations import BUILTIN_TOOLS
from app.agent.turn.chat import Conversation, Message
from app.agent.turn.confirm import Answer
from app.agent.turn.loop import CallDecision, CallRecord, CallStatus
from app.llm.tools import ToolCall
from app.store.conversations import (
    ConversationStore,
    StoredConversation,
    StoredMessage,
    describe_error,
)

log = logging.getLogger(__name__)
T = TypeVar("T")
D = TypeVar("D")

TITLE_CHARS = 60


def title_from(text: str) -> str:
    """A short, one-line title: the first non-empty line of the user's first message."""
    line = next((" ".join(part.split()) for part in text.splitlines() if part.strip()), "")
    if not line:
        return "New conversation"
    return line if len(line) <= TITLE_CHARS else line[: TITLE_CHARS - 1].rstrip() + "…"


# -- messages ----------------------------------------------------------------------------------


def card_display(record: CallRecord) -> dict[str, Any]:
    """What a tool card shows (the result itself is the tool message's content), and once
    its change was undone, what the Undo did."""
    card: dict[str, Any] = {
        "name": record.name,
        "arguments": record.arguments,
        "decision": record.decision,
        "answer": record.answer,
        "status": record.status,
        "reasons": list(record.reasons),
    }
    if record.undone:
        card["undone"] = record.undone
    return {"card": card}


def _one_of(value: object, allowed: tuple[T, ...], default: D) -> T | D:
    """A saved value checked against its type's values (a hand-edited or older database)."""
    return next((a for a in allowed if a == value), default)


def card_from_display(display: dict[str, Any]) -> CallRecord | None:
    card = display.get("card") if isinstance(display, dict) else None
    if not isinstance(card, dict) or not isinstance(card.get("name"), str):
        return None
    arguments = card.get("arguments")
    return CallRecord(
        name=card["name"],
        arguments=arguments if isinstance(arguments, dict) else {},
        decision=_one_of(card.get("decision"), get_args(CallDecision), "confirm"),
        answer=_one_of(card.get("answer"), tuple(Answer), None),
        status=_one_of(card.get("status"), get_args(CallStatus), ""),
        reasons=[str(r) for r in card.get("reasons", []) if isinstance(r, str)],
        undone=card["undone"] if isinstance(card.get("undone"), str) else "",
    )


def to_stored(message: Message, card: CallRecord | None = None) -> StoredMessage:
    return StoredMessage(
        role=message.role,
        content=message.content,
        reasoning=message.reasoning,
        tool_calls=[
            {"id": c.id, "name": c.name, "arguments": c.arguments} for c in message.tool_calls
        ],
        tool_call_id=message.tool_call_id,
        name=message.name,
        trusted=message.trusted,
        stopped=message.stopped,
        display=card_display(card) if card is not None else {},
        created=None if message.sent_at is None else message.sent_at.astimezone(UTC),
    )


def from_stored(stored: StoredMessage) -> Message:
    calls = [
        ToolCall(str(c["name"]), dict(c.get("arguments") or {}), id=str(c.get("id", "")))
        for c in stored.tool_calls
        if isinstance(c, dict) and "name" in c
    ]
    return Message(
        role=stored.role,
        content=stored.content,
        reasoning=stored.reasoning,
        tool_calls=calls,
        tool_call_id=stored.tool_call_id,
        name=stored.name,
        trusted=stored.trusted,
        stopped=stored.stopped,
        sent_at=_sent_at(stored),
    )


def _sent_at(stored: StoredMessage) -> datetime | None:
    """A user message's sending time, back in local time (SQLite keeps UTC without a zone)."""
    if stored.role != "user" or stored.created is None:
        return None
    created = stored.created
    if created.tzinfo is None:
        created = created.replace(tzinfo=UTC)
    return created.astimezone()


# -- the gate's state ----------------------------------------------------------------------------


def context_state(context: ContextState) -> dict[str, Any]:
    """The saved part of a context: no folders (settings own them), no typed text (the
    user's messages hold it)."""
    return {
        "untrusted_sources": list(context.untrusted_sources),
        "private_sources": list(context.private_sources),
        "known_recipients": sorted(context.known_recipients),
    }


def restore_context(
    state: dict[str, Any], messages: list[Message], allowed_folders: list[str]
) -> ContextState:
    context = ContextState(allowed_folders=list(allowed_folders))
    for source in state.get("untrusted_sources") or []:
        context.add_untrusted(str(source))
    for kind in state.get("private_sources") or []:
        context.add_private(str(kind))
    context.known_recipients = {str(r) for r in state.get("known_recipients") or []}
    for message in messages:
        if message.role == "user":
            context.note_user_text(message.content)
        elif message.role == "tool":
            if not message.trusted and not context.tainted:
                # Belt and braces: an untrusted result taints, whatever the state cell says.
                context.add_untrusted(f"the result of {message.name or 'a tool'}")
            rule = BUILTIN_TOOLS.get(message.name)
            if rule is not None and rule.private_result:
                # What a private store said, so an outbound call carrying it is still found.
                context.add_private(rule.private_result, message.content)
    return context


# -- what the chat view redraws ----------------------------------------------------------------


@dataclass
class TurnView:
    """One exchange as the chat view shows it: the user's words, then the reply's text and
    tool cards in order."""

    user: str
    parts: list[str | CallRecord] = field(default_factory=list)
    stopped: bool = False


def _shown_result(card: CallRecord, content: str) -> str:
    """A reopened card's result, from the tool message the model read (a failure's reason,
    without the "Error: " or "Not done: " the model is told before it)."""
    for prefix in ("Error: ", "Not done: "):
        if card.status in ("error", "refused") and content.startswith(prefix):
            return content.removeprefix(prefix)
    return content


def turn_views(messages: list[StoredMessage]) -> list[TurnView]:
    turns: list[TurnView] = []
    for message in messages:
        if message.role == "user":
            turns.append(TurnView(message.content))
            continue
        if not turns:
            turns.append(TurnView(""))
        turn = turns[-1]
        if message.role == "assistant":
            if message.content.strip():
                turn.parts.append(message.content)
            turn.stopped = turn.stopped or message.stopped
        elif message.role == "tool":
            card = card_from_display(message.display)
            if card is not None:
                card.result = _shown_result(card, message.content)
                turn.parts.append(card)
    return turns


# -- a conversation kept in the store --------------------------------------------------------


class KeptConversation:
    """A conversation, its own gate state, and (with a store) its saved copy."""

    def __init__(
        self,
        store: ConversationStore | None,
        conversation: Conversation | None = None,
        context: ContextState | None = None,
        conversation_id: int | None = None,
        title: str = "",
    ) -> None:
        self.store = store
        self.conversation = conversation or Conversation()
        self.context = context or ContextState()
        self.conversation_id = conversation_id
        self.title = title
        self.save_error: str | None = None
        self._card: CallRecord | None = None
        self.conversation.on_add = self._on_add

    @classmethod
    def load(
        cls, store: ConversationStore, conversation_id: int, allowed_folders: list[str]
    ) -> tuple[KeptConversation, StoredConversation]:
        """Reopen a saved conversation exactly: messages, tool calls, taint."""
        stored = store.load(conversation_id)
        conversation = Conversation([from_stored(m) for m in stored.messages])
        context = restore_context(stored.state, conversation.messages, allowed_folders)
        kept = cls(store, conversation, context, conversation_id, stored.summary.title)
        return kept, stored

    def note_call(self, record: CallRecord) -> None:
        """The agent reports a call just before it adds the call's result message."""
        self._card = record

    def note_undone(self, record: CallRecord) -> None:
        """A card's change was undone: its saved card says so too (a reopened conversation
        shows the same words; the messages the model reads stay as they were)."""
        if self.store is None or self.conversation_id is None or not record.call_id:
            return
        try:
            self.store.set_card(self.conversation_id, record.call_id, card_display(record))
        except (SQLAlchemyError, OSError, LookupError) as exc:
            log.warning("the undo of a card was not saved: %s", describe_error(exc))

    def _on_add(self, message: Message) -> None:
        card, self._card = self._card, None
        if message.role != "tool" or (card is not None and card.name != message.name):
            card = None
        if self.store is None or self.save_error is not None:
            return  # after a failed write, later ones would leave a gap: stop saving
        try:
            if self.conversation_id is None:
                self.title = title_from(message.content) if message.role == "user" else ""
                summary = self.store.create(self.title, context_state(self.context))
                self.conversation_id = summary.id
            self.store.append(
                self.conversation_id, to_stored(message, card), context_state(self.context)
            )
        except (SQLAlchemyError, OSError, LookupError) as exc:
            log.warning("conversation %s not saved: %s", self.conversation_id, describe_error(exc))
            self.save_error = (
                f"This conversation could not be saved ({describe_error(exc)}); it stays open, "
                "but messages from here on are not kept."
            )
