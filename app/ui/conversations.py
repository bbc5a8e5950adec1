"""Saved conversations in the window: a service in a thread of its own (every read and write
of the database happens off the GUI thread) and a controller on the GUI thread that drives the
sidebar and redraws a reopened conversation; the window wires both.

The service does not share the model's thread, so a switch never waits for a load, a warm-up
or a reply. The agent still saves each message the moment it adds it, in order, with the
conversation's taint, in the model's thread (`session_for`, `note_call`); the controller never
switches while a turn runs, so the open conversation never changes under a turn.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from sqlalchemy.exc import SQLAlchemyError

from app.agent.gate import ContextState
from app.agent.turn.chat import Conversation
from app.agent.turn.history import KeptConversation, TurnView, turn_views
from app.agent.turn.loop import CallRecord
from app.store.conversations import ConversationNotFound, ConversationStore, describe_error
from app.store.database import Database, DatabaseTooNew
from app.ui.chat_view import ChatView
from app.ui.sidebar import ConversationSidebar

log = logging.getLogger(__name__)

LAST_CONVERSATION = "conversations.last_open"  # settings key: the id open when the app closed


@dataclass
class OpenedConversation:
    """What the window needs to show a conversation: the live object and how to redraw it."""

    conversation_id: int | None
    title: str
    conversation: Conversation
    turns: list[TurnView] = field(default_factory=list)
    tainted: bool = False


class ConversationService(QObject):
    """Keeps conversations in the database; its slots run in its own thread, `session_for`
    and `note_call` in the model's. Without a data folder it keeps them in an in-memory
    database."""

    listed = Signal(list)  # [ConversationSummary], newest first
    opened = Signal(object)  # OpenedConversation
    found = Signal(str, list)  # query, [SearchHit]
    current_changed = Signal(object)  # the open conversation's id (None until its first message)
    rewound = Signal(object)  # the last request's text, taken back to be sent again; or None
    failed = Signal(str)  # a message for the user

    def __init__(self, data_dir: Path | None, folders: Callable[[], list[Path]]) -> None:
        super().__init__()
        self.data_dir = data_dir
        self.folders = folders  # the worker's current allowed folders
        self._database: Database | None = None
        self._store: ConversationStore | None = None
        self.current: KeptConversation | None = None
        self._saved_id: int | None = None  # the current one's id as last remembered
        self._reported: KeptConversation | None = None  # whose save error the user has seen

    # -- used by the worker during a turn (worker thread) --------------------------------------

    def store(self) -> ConversationStore | None:
        """Opened on first use, here in the worker thread; None when it cannot be opened."""
        if self._store is None and self._database is None:
            try:
                if self.data_dir is None:
                    self._database = Database.in_memory()
                else:
                    self._database = Database.open(self.data_dir)
            except (DatabaseTooNew, SQLAlchemyError, OSError) as exc:
                log.warning("conversations not available: %s", describe_error(exc))
                self._database = Database.in_memory()
                self.failed.emit(
                    f"Saved conversations could not be opened ({describe_error(exc)}). "
                    "This session's conversations are kept in memory only."
                )
            self._store = ConversationStore(self._database)
        return self._store

    def session_for(self, conversation: Conversation) -> KeptConversation:
        """The kept conversation (own taint, saved copy) for the one the window sends; a
        conversation the service has not seen starts clean and is saved as a new one."""
        if self.current is None or self.current.conversation is not conversation:
            self.current = KeptConversation(self.store(), conversation, ContextState())
        self.current.context.allowed_folders = [str(p) for p in self.folders()]
        return self.current

    @Slot(object)
    def note_call(self, record: CallRecord) -> None:
        """Connected directly to the worker's tool_call: runs just before the result message
        is added, so the card is saved with it."""
        if self.current is not None:
            self.current.note_call(record)

    @Slot()
    def turn_done(self) -> None:
        kept = self.current
        if kept is None:
            return
        if kept.save_error and self._reported is not kept:
            self._reported = kept  # once per conversation
            self.failed.emit(kept.save_error)
        if kept.conversation_id != self._saved_id:
            self._saved_id = kept.conversation_id
            self._remember(kept.conversation_id)
        self.current_changed.emit(kept.conversation_id)
        self.refresh()

    # -- slots for the sidebar -----------------------------------------------------------------

    @Slot()
    def refresh(self) -> None:
        store = self.store()
        if store is not None:
            self._guard(lambda: self.listed.emit(store.recent()))

    @Slot()
    def restore(self) -> None:
        """On start: reopen the conversation that was open last, or start a fresh one."""
        last = None
        self.store()
        if self._database is not None:
            from app.store.settings import SettingsStore

            try:
                last = SettingsStore(self._database).get(LAST_CONVERSATION)
            except (SQLAlchemyError, ValueError) as exc:
                log.warning("last conversation unknown: %s", describe_error(exc))
        if isinstance(last, int) and self._open(last, quiet=True):
            self.refresh()
            return
        self.new()

    @Slot()
    def new(self) -> None:
        self.current = KeptConversation(self.store(), Conversation(), ContextState())
        self._saved_id = None
        self._remember(None)
        self.opened.emit(OpenedConversation(None, "", self.current.conversation))
        self.refresh()

    @Slot(int)
    def open(self, conversation_id: int) -> None:
        if not self._open(conversation_id, quiet=False):
            self.refresh()

    @Slot(int, str)
    def rename(self, conversation_id: int, title: str) -> None:
        store = self.store()
        if store is None:
            return

        def rename() -> None:
            summary = store.rename(conversation_id, title)
            if self.current is not None and self.current.conversation_id == conversation_id:
                self.current.title = summary.title

        self._guard(rename)
        self.refresh()

    @Slot(int)
    def delete(self, conversation_id: int) -> None:
        store = self.store()
        if store is None:
            return
        self._guard(lambda: store.delete(conversation_id))
        if self.current is None or self.current.conversation_id == conversation_id:
            self.new()
        else:
            self.refresh()

    @Slot()
    def rewind(self) -> None:
        """Regenerate or edit the last message: the last request and all after it are taken
        out of the conversation and the store, the conversation is shown again as saved, and
        `rewound` hands the request's text back for the window to send (None: nothing to
        take back). The gate's state stays as it was: what was read stays read."""
        kept = self.current
        messages = kept.conversation.messages if kept is not None else []
        last = max((i for i, m in enumerate(messages) if m.role == "user"), default=None)
        if kept is None or kept.conversation_id is None or last is None:
            self.rewound.emit(None)
            return
        if kept.save_error is not None:  # the store misses messages: positions would be wrong
            self.failed.emit(
                "This conversation is not fully saved, so its last message cannot be sent again."
            )
            self.rewound.emit(None)
            return
        text = messages[last].content
        store, conversation_id = kept.store, kept.conversation_id
        try:
            if store is not None:
                store.truncate(conversation_id, last)
        except (SQLAlchemyError, OSError, LookupError) as exc:
            log.warning("conversation %s not rewound: %s", conversation_id, describe_error(exc))
            self.failed.emit(f"The last message could not be taken back ({describe_error(exc)}).")
            self.rewound.emit(None)
            return
        if not self._open(conversation_id, quiet=False):
            self.rewound.emit(None)
            return
        self.rewound.emit(text)

    @Slot(str)
    def search(self, query: str) -> None:
        store = self.store()
        if store is not None:
            self._guard(lambda: self.found.emit(query, store.search(query)))

    # -- helpers -------------------------------------------------------------------------------

    def _open(self, conversation_id: int, quiet: bool) -> bool:
        store = self.store()
        if store is None:
            return False
        folders = [str(p) for p in self.folders()]
        try:
            kept, stored = KeptConversation.load(store, conversation_id, folders)
        except ConversationNotFound:
            if not quiet:
                self.failed.emit("That conversation no longer exists.")
            return False
        except SQLAlchemyError as exc:
            log.warning("conversation %s not opened: %s", conversation_id, describe_error(exc))
            self.failed.emit(f"The conversation could not be opened ({describe_error(exc)}).")
            return False
        self.current = kept
        self._saved_id = conversation_id
        self._remember(conversation_id)
        self.opened.emit(
            OpenedConversation(
                conversation_id,
                kept.title,
                kept.conversation,
                turn_views(stored.messages),
                kept.context.tainted,
            )
        )
        return True

    def _remember(self, conversation_id: int | None) -> None:
        database = self._database
        if database is None:
            return
        from app.store.settings import SettingsStore

        self._guard(lambda: SettingsStore(database).set(LAST_CONVERSATION, conversation_id))

    def _guard(self, action: Callable[[], object]) -> None:
        """A database problem becomes a message, never a dead worker thread."""
        try:
            action()
        except ValueError as exc:
            self.failed.emit(str(exc))
        except (SQLAlchemyError, OSError, LookupError) as exc:
            log.warning("conversation storage failed: %s", describe_error(exc))
            self.failed.emit(
                f"Saved conversations are not available right now ({describe_error(exc)})."
            )

    @Slot()
    def close(self) -> None:
        if self._database is not None:
            self._database.close()


class ConversationController(QObject):
    """GUI-thread side: the sidebar, and showing in the chat view what the service sends.

    It holds the sidebar, the chat view it redraws and the service's request signals, never
    the window: the window puts the sidebar in its layout, connects the worker to the service,
    and hears `opening_changed` (keep the input shut while switching) and
    `conversation_opened` (the Conversation the next message goes to). Call `start()` once
    everything is connected: it asks the service for the conversation open at the last quit.
    """

    request_restore = Signal()
    request_new = Signal()
    request_open = Signal(int)
    request_rename = Signal(int, str)
    request_delete = Signal(int)
    request_search = Signal(str)
    request_refresh = Signal()
    request_turn_done = Signal()
    request_rewind = Signal()  # regenerate / edit: the service answers with `rewound`
    opening_changed = Signal(bool)  # True until the service has switched conversations
    conversation_opened = Signal(object)  # Conversation: where the next message goes

    def __init__(
        self, service: ConversationService, chat_view: ChatView, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.service = service
        self.chat_view = chat_view
        self.sidebar = ConversationSidebar()
        self.current_id: int | None = None
        self.opening = False
        self.busy = False  # a reply is being written: no switching now
        self._restored = False  # the first conversation shown since start

        self.request_restore.connect(service.restore)
        self.request_new.connect(service.new)
        self.request_open.connect(service.open)
        self.request_rename.connect(service.rename)
        self.request_delete.connect(service.delete)
        self.request_search.connect(service.search)
        self.request_refresh.connect(service.refresh)
        self.request_turn_done.connect(service.turn_done)
        self.request_rewind.connect(service.rewind)
        service.listed.connect(self.sidebar.show_conversations)
        service.found.connect(self.sidebar.show_results)
        service.opened.connect(self._on_opened)
        service.failed.connect(self._on_failed)
        service.current_changed.connect(self._on_current)

        self.sidebar.new_requested.connect(lambda: self._request_open(None))
        self.sidebar.open_requested.connect(self._request_open)
        self.sidebar.rename_requested.connect(self.request_rename.emit)
        self.sidebar.delete_requested.connect(self.request_delete.emit)
        self.sidebar.search_requested.connect(self.request_search.emit)
        self.sidebar.list_requested.connect(self.request_refresh.emit)

    def start(self) -> None:
        """Reopen the conversation that was open at the last quit (or start a new one)."""
        self._set_opening(True)
        self.request_restore.emit()

    def turn_started(self, *_args: object) -> None:
        self.busy = True
        self.sidebar.set_busy(True)

    def turn_ended(self, *_args: object) -> None:
        self.busy = False
        self.sidebar.set_busy(False)
        self.request_turn_done.emit()

    @Slot()
    def start_over(self) -> None:
        """The saved conversations are gone (Privacy…): a new one, and a fresh list."""
        self._request_open(None)
        self.request_refresh.emit()

    def _request_open(self, conversation_id: int | None) -> None:
        if self.busy or self.opening:
            return
        if conversation_id is not None and conversation_id == self.current_id:
            return
        self._set_opening(True)
        if conversation_id is None:
            self.request_new.emit()
        else:
            self.request_open.emit(conversation_id)

    def _set_opening(self, opening: bool) -> None:
        """Until the service has switched, a message would go to the old conversation."""
        self.opening = opening
        self.opening_changed.emit(opening)

    @Slot(object)
    def _on_opened(self, opened: OpenedConversation) -> None:
        self._set_opening(False)
        if self.busy:
            return
        self.current_id = opened.conversation_id
        self.sidebar.set_current(opened.conversation_id)
        view = self.chat_view
        # At start, notices may already be showing (a missed reminder, a model error): keep
        # them after the reopened conversation. Switching conversations starts a clean view.
        kept_notices = [] if self._restored else view.notices()
        self._restored = True
        view.clear()
        with view.quiet():  # drawn at once, not announced: the user did not just receive it
            for turn in opened.turns:
                if turn.user:
                    view.add_message("user", turn.user)
                view.begin_reply()
                for part in turn.parts:
                    if isinstance(part, str):
                        view.append_reply_text(part)
                    else:
                        view.add_tool_card(part)
                view.end_reply("(stopped)" if turn.stopped else None)
            if opened.tainted:
                view.add_notice(
                    "This conversation has read content from others (an email, a web page or "
                    "a file): changes it proposes will ask you first.",
                    "note",
                )
            for text, kind in kept_notices:
                view.add_notice(text, kind)
        self.conversation_opened.emit(opened.conversation)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._set_opening(False)
        self.chat_view.add_notice(message, "error")

    @Slot(object)
    def _on_current(self, conversation_id: int | None) -> None:
        self.current_id = conversation_id
        self.sidebar.set_current(conversation_id)
