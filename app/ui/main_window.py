"""The main window: conversation, input box, Send and Stop, and a status line."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QMimeData, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QIcon,
    QKeyEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from app import APP_NAME
from app.agent.services.model_choice import ModelChoice
from app.agent.tools.undo import undo_in_words
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationRequest
from app.agent.turn.loop import CallRecord, TurnReport
from app.llm.backend import GenerationStats
from app.llm.machine_check import WORDS_PER_TOKEN
from app.llm.runtime import RuntimeSettings
from app.ui.accounts_dialog import AccountsDialog, AccountsService
from app.ui.activity_dialog import ActivityDialog
from app.ui.chat_view import ChatView
from app.ui.confirm_dialog import ConfirmDialog
from app.ui.conversations import ConversationController, ConversationService
from app.ui.data_panels import DataPanels
from app.ui.document_indexer import DocumentIndexer
from app.ui.model_menu import ModelMenu
from app.ui.model_settings_dialog import ModelSettingsMenu, loading_status
from app.ui.permissions_dialog import PermissionsDialog
from app.ui.tools_dialog import ToolsDialog, ToolsService
from app.ui.window_state import encode, first_size
from app.ui.worker import ModelWorker

log = logging.getLogger(__name__)

_STOP_NOTES = {
    "cancelled": "(stopped)",
    "max_tokens": "(reply cut: it reached the length limit)",
    "context_full": "(reply cut: the conversation filled the model's memory)",
    "repetition": "(reply cut: the model started repeating itself)",
}

# A turn that ended with no words at all (the model wrote nothing after its calls): the
# reply still says so, never a bare "Hearth:".
NO_ANSWER = (
    "(no answer: the model wrote nothing. Press Ctrl+R to try again, or ask in other words.)"
)

# What an empty conversation shows: what Hearth is for, in examples (audit: an empty chat
# gave no hint of what to ask).
EMPTY_CHAT = (
    "Ask anything, or ask Hearth to do something for you: “What is on my calendar "
    "tomorrow?”, “Find the email from Ana about the lease”, “Remind me at 5 to call the "
    "bank”, “What does my notes file say about the garden?”. It asks you before it sends, "
    "changes or deletes anything."
)


def speed_in_words(stats: GenerationStats, first_words_after: float | None) -> list[str]:
    """How fast the last reply came, for the status line: the wait for its first words and
    the writing speed in words, with one decimal so a slow machine never reads "0 words a
    second" (audit). Nothing for what was not measured."""
    said: list[str] = []
    if first_words_after is not None:
        said.append(f"first words after {first_words_after:.1f} s")
    words = stats.tokens_per_second * WORDS_PER_TOKEN
    if words > 0:
        said.append(f"{words:.1f} words a second")
    return said


def local_files(mime: QMimeData) -> list[str]:
    """The local files a drag carries (nothing for text or web addresses)."""
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


class MessageInput(QPlainTextEdit):
    """Enter sends; Shift+Enter starts a new line; Tab moves on to the next control, as in
    every other text field a keyboard user meets (a tab in a chat message is never wanted)."""

    submitted = Signal()
    files_dropped = Signal(list)  # local file paths dropped (or pasted) on the box: attach

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return bool(local_files(source)) or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        """A file dropped here is attached, not typed in as its address."""
        files = local_files(source)
        if files:
            self.files_dropped.emit(files)
            return
        super().insertFromMimeData(source)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class MainWindow(QMainWindow):
    """The window. It owns the worker and the helpers (menus, panels, the sidebar) and wires
    them in `_connect_signals`; the helpers never hold the window, they emit signals."""

    # Queued into the worker thread.
    request_load = Signal(str)
    request_load_choice = Signal(object)  # ModelChoice: a file with its settings, or a server
    request_turn = Signal(object, str)
    request_activity = Signal()
    request_permissions = Signal()
    request_revoke = Signal(int)
    request_undo = Signal(object, object)  # the conversation, the CallRecord to undo

    def __init__(
        self,
        model_path: Path,
        settings: RuntimeSettings | None = None,
        data_dir: Path | None = None,
        folders: list[Path] | None = None,
        model_choice: ModelChoice | None = None,
        saved_choice: ModelChoice | None = None,
        geometry: QByteArray | None = None,
        load_at_start: bool = True,
    ) -> None:
        """`model_choice` is loaded instead of `model_path` (a saved server); `saved_choice` is
        Settings → Model… as saved, whose thinking and temperature apply from the first turn;
        `geometry` is the place and size saved at the last quit. Without `load_at_start`
        (a first run with no model on the disk) nothing loads until the first-run guide has
        chosen: no error about a missing model greets a new user."""
        super().__init__()
        self.setWindowTitle(APP_NAME)
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(first_size(self.screen().availableGeometry().size()))
        self.conversation = Conversation()
        self.model_path = model_path
        self.model_name = ""
        self.busy = False
        self.model_ready = False
        self.editing_last = False  # Ctrl+E: the next send replaces the last message
        self._again: str | None = None  # the text to send once the last request is taken back
        self._restoring = False  # the conversation open at the last quit is being reopened
        self._restored = False
        self._first_load: Callable[[], None] | None = None  # waits for that
        self._send_when_open = False  # Enter was pressed while a conversation opened
        self._sent_at = 0.0  # when the last message went out (monotonic)
        self._first_text_at: float | None = None  # when its first words came
        self.data_dir = data_dir
        self._waiting_for_guide = not load_at_start
        # The status line counts seconds while a model loads and while a message is read
        # (llama.cpp reports no progress for either): (words, when it started).
        self._ticking: tuple[str, float] | None = None
        self._ticker = QTimer(self)
        self._ticker.setInterval(1000)
        self._ticker.timeout.connect(self._tick)

        self.chat_view = ChatView()
        self.chat_view.setPlaceholderText(EMPTY_CHAT)
        self.input = MessageInput()
        self.input.setPlaceholderText("Type a message and press Enter")
        self.input.setAccessibleName("Message")
        self.input.setFixedHeight(80)
        self.send_button = QPushButton("Send")
        self.send_button.setAccessibleName("Send message")
        self.stop_button = QPushButton("Stop")
        self.stop_button.setAccessibleName("Stop the reply")
        self.stop_button.setEnabled(False)
        # Attach… and files dropped on the window: read with the message (as read_file reads).
        self.attach_button = QPushButton("Attach…")
        self.attach_button.setAccessibleName("Attach a file to the message")
        self.attach_button.setToolTip("Attach a file (or drop it on the window)")
        self.attachments: list[Path] = []
        self.attachments_label = QLabel()
        self.attachments_label.setAccessibleDescription("Attached files")
        self.attachments_label.setWordWrap(True)
        self.remove_attachments_button = QPushButton("Remove")
        self.remove_attachments_button.setAccessibleName("Remove the attached files")
        self.setAcceptDrops(True)
        self.status_label = QLabel()
        self.status_label.setAccessibleDescription("Status")
        self.statusBar().addPermanentWidget(self.status_label, 1)

        self.model_thread = QThread(self)
        self.model_thread.setObjectName("model-worker")
        self.worker = ModelWorker(settings, data_dir=data_dir, folders=folders, choice=saved_choice)
        self.worker.moveToThread(self.model_thread)
        # Saved conversations: the service has a thread of its own, so opening, listing and
        # searching never wait behind a model load, a warm-up or a reply (audit: Ctrl+N during
        # a warm-up waited 12 s). The agent still saves each message as it adds it, in the
        # model's thread; the window never switches conversations while a turn runs, so the
        # two threads never hand the open conversation back and forth mid-turn.
        self.conversation_thread = QThread(self)
        self.conversation_thread.setObjectName("conversations")
        service = ConversationService(data_dir, self.worker.current_folders)
        service.moveToThread(self.conversation_thread)
        self.worker.conversations = service
        self.conversations = ConversationController(service, self.chat_view, self)
        self._build_layout()
        self._build_menu()

        self.activity_dialog: ActivityDialog | None = None
        self.permissions_dialog: PermissionsDialog | None = None
        self.accounts_thread: QThread | None = None  # started on first use of Settings → Accounts
        self.accounts_service: AccountsService | None = None
        self.accounts_dialog: AccountsDialog | None = None
        self.tools_thread: QThread | None = None  # started on first use of Settings → Tools
        self.tools_service: ToolsService | None = None
        self.tools_dialog: ToolsDialog | None = None
        self.last_dialog: ConfirmDialog | None = None
        self._connect_signals()

        self.conversation_thread.start()
        self.model_thread.start()
        if data_dir is not None:
            self.data_panels.start(self._icon())  # tray; reminders, also those due while closed
            self.documents.start()  # the first pass once the model has settled
        if not load_at_start:
            self._set_status("No model yet: the set-up guide helps you choose one")
            self._after_restore(lambda: None)  # the conversations still come back
        elif model_choice is not None:  # the saved Settings → Model… choice (maybe a server)
            self.load_choice(model_choice)
        else:
            self.load_model(model_path)
        self.input.setFocus()

    def _build_layout(self) -> None:
        """The saved conversations left of the chat, resizable; input and buttons below it."""
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.attach_button)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout()
        layout.addWidget(self.chat_view, 1)
        attached = QHBoxLayout()
        attached.addWidget(self.attachments_label, 1)
        attached.addWidget(self.remove_attachments_button)
        layout.addLayout(attached)
        layout.addLayout(row)
        self._show_attachments()
        chat = QWidget()
        chat.setLayout(layout)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.conversations.sidebar)
        self.splitter.addWidget(chat)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([220, 640])
        self.setCentralWidget(self.splitter)

    def _build_menu(self) -> None:
        menu = self.menuBar().addMenu("&File")
        open_model = QAction("&Open model…", self)
        open_model.setShortcut(QKeySequence.StandardKey.Open)
        open_model.triggered.connect(self._choose_model)
        menu.addAction(open_model)
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        menu.addAction(quit_action)
        self._build_chat_menu()
        view = self.menuBar().addMenu("&View")
        activity = QAction("&Activity (what Hearth did)…", self)
        activity.triggered.connect(self.request_activity.emit)
        view.addAction(activity)
        permissions = QAction("&Permissions (always allowed)…", self)
        permissions.triggered.connect(self.request_permissions.emit)
        view.addAction(permissions)
        settings_menu = self.menuBar().addMenu("&Settings")
        accounts = QAction("&Accounts…", self)
        accounts.triggered.connect(self.open_accounts)
        settings_menu.addAction(accounts)
        tools = QAction("&Tools…", self)
        tools.triggered.connect(self.open_tools)
        settings_menu.addAction(tools)
        data_dir = self.data_dir
        # Models…, First-run guide…; Model… (here or a server); Folders…, Privacy…, reminders.
        self.model_menu = ModelMenu(settings_menu, data_dir, self)
        self.model_settings = ModelSettingsMenu(settings_menu, data_dir, self._model_path, self)
        self.data_panels = DataPanels(
            settings_menu, data_dir, self.worker.command_line_folders, self
        )
        # The document index of the allowed folders (search_documents), kept up to date in
        # its own thread; its status sits in the status bar, Pause in this menu.
        self.documents = DocumentIndexer(
            settings_menu, data_dir, self.worker.command_line_folders, self
        )
        self.statusBar().addPermanentWidget(self.documents.status)

    def _build_chat_menu(self) -> None:
        """The everyday actions, each with the shortcut other chat apps taught users: Esc
        stops the reply, Ctrl+N starts a conversation, Ctrl+F searches, Shift+Esc returns to
        the message box. In a menu, so they can be found and read by a screen reader."""
        chat = self.menuBar().addMenu("&Chat")
        self.new_action = QAction("&New conversation", self)
        self.new_action.setShortcut(QKeySequence.StandardKey.New)
        self.new_action.triggered.connect(self.new_conversation)
        self.search_action = QAction("&Search conversations", self)
        self.search_action.setShortcut(QKeySequence.StandardKey.Find)
        self.search_action.triggered.connect(self.focus_search)
        self.stop_action = QAction("S&top the reply", self)
        self.stop_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.stop_action.setEnabled(False)
        self.stop_action.triggered.connect(self.stop)
        self.regenerate_action = QAction("&Regenerate the last reply", self)
        self.regenerate_action.setShortcut(QKeySequence("Ctrl+R"))
        self.regenerate_action.triggered.connect(self.regenerate)
        self.edit_action = QAction("&Edit the last message", self)
        self.edit_action.setShortcut(QKeySequence("Ctrl+E"))
        self.edit_action.triggered.connect(self.edit_last)
        self.focus_input_action = QAction("Go to the &message box", self)
        self.focus_input_action.setShortcut(QKeySequence("Shift+Esc"))
        self.focus_input_action.triggered.connect(self.input.setFocus)
        for action in (
            self.new_action,
            self.search_action,
            self.stop_action,
            self.regenerate_action,
            self.edit_action,
        ):
            chat.addAction(action)
        chat.addSeparator()
        chat.addAction(self.focus_input_action)

    def _connect_signals(self) -> None:
        """Every connection between the window, its worker and its helpers, in one place.

        Connections to the worker (and the conversation service in its thread) are queued by
        Qt; the worker is changed only by its own slots, except for the thread-safe
        `cancel`/`accounts_changed`/`folders_changed` events and `answer()`. The worker's
        turn-end signals reach the window first, then the sidebar and the reminder notices:
        a reply is closed before anything is added after it.
        """
        worker = self.worker
        self.input.submitted.connect(self.send)
        self.input.files_dropped.connect(self.attach)
        self.attach_button.clicked.connect(self._choose_attachment)
        self.remove_attachments_button.clicked.connect(lambda: self.attach([], replace=True))
        self.send_button.clicked.connect(self.send)
        self.stop_button.clicked.connect(self.stop)

        # The window and the worker.
        self.request_load.connect(worker.load)
        self.request_load_choice.connect(worker.load_choice)
        self.request_turn.connect(worker.run_turn)
        self.request_activity.connect(worker.load_activity)
        self.request_permissions.connect(worker.load_permissions)
        self.request_revoke.connect(worker.revoke_permission)
        worker.loaded.connect(self._on_loaded)
        worker.load_failed.connect(self._on_load_failed)
        worker.kept.connect(self._on_kept)
        worker.text.connect(self._on_text)
        worker.reasoning.connect(self.chat_view.append_reasoning)
        worker.turn_finished.connect(self._on_turn_finished)
        worker.turn_failed.connect(self._on_turn_failed)
        worker.tool_call.connect(self._on_tool_call)
        worker.confirmation_needed.connect(self._on_confirmation_needed)
        worker.activity.connect(self._on_activity)
        worker.permissions.connect(self._on_permissions)
        self.chat_view.source_requested.connect(worker.open_source)  # a cited document
        self.chat_view.undo_requested.connect(self._on_undo_requested)  # a card's Undo
        self.request_undo.connect(worker.undo)
        worker.undo_finished.connect(self._on_undo_finished)

        # Saved conversations: the service sees each tool call before its result is saved (in
        # the worker's thread), and closes its database in its own thread as that thread ends.
        conversations = self.conversations
        service = conversations.service
        worker.tool_call.connect(service.note_call, Qt.ConnectionType.DirectConnection)
        self.conversation_thread.finished.connect(service.close, Qt.ConnectionType.DirectConnection)
        self.request_turn.connect(conversations.turn_started)
        worker.turn_finished.connect(conversations.turn_ended)
        worker.turn_failed.connect(conversations.turn_ended)
        conversations.opening_changed.connect(self._on_opening)
        service.rewound.connect(self._on_rewound)
        conversations.conversation_opened.connect(self._on_conversation_opened)

        # Settings → Models…, First-run guide…, Model….
        self.model_menu.model_chosen.connect(self.load_model)
        self.model_menu.accounts_requested.connect(self.open_accounts)
        self.model_menu.notice.connect(self._on_model_notice)
        self.model_menu.progress.connect(self._on_download_progress)
        self.model_menu.guide_closed.connect(self._on_guide_closed)
        self.model_settings.load_requested.connect(self.load_choice)
        self.model_settings.choice_changed.connect(worker.set_choice)
        self.model_settings.notice.connect(self.chat_view.add_notice)

        # Settings → Folders…, Privacy…, reminders and the tray.
        panels = self.data_panels
        panels.folders_changed.connect(worker.folders_changed.set)
        panels.folders_changed.connect(self.documents.refresh)
        # The embedding model arrived: a pass now gives the indexed passages their meaning.
        self.model_menu.meaning_model_ready.connect(self.documents.refresh)
        panels.history_deleted.connect(conversations.start_over)
        panels.notice.connect(self.chat_view.add_notice)
        worker.notice.connect(panels.show_note)  # a tool server that did not start, ...
        panels.attention.connect(self._on_attention)
        panels.show_requested.connect(self.bring_to_front)
        self.request_turn.connect(panels.turn_started)
        worker.turn_finished.connect(panels.turn_ended)
        worker.turn_failed.connect(panels.turn_ended)

    # -- actions -----------------------------------------------------------------------------

    def load_model(self, path: Path) -> None:
        self.model_path = path
        self.model_ready = False
        self._waiting_for_guide = False
        self._start_ticking(f"Loading {path.name}…")
        self._update_buttons()
        self._after_restore(lambda: self.request_load.emit(str(path)))

    def load_choice(self, choice: ModelChoice) -> None:
        """Settings → Model…: load the file with its runtime settings, or connect to the
        server, in the worker thread; the status line says which meanwhile."""
        self.model_ready = False
        if choice.backend != "remote":
            self.model_path = Path(choice.path)
        self._start_ticking(loading_status(choice))
        self._update_buttons()
        self._after_restore(lambda: self.request_load_choice.emit(choice))

    def _after_restore(self, load: Callable[[], None]) -> None:
        """At start the model loads once the last conversation is back (it is, in a moment,
        in its own thread): "ready" then means a message goes to that conversation. Later
        loads start at once."""
        if self._restored:
            load()
            return
        self._first_load = load
        if not self._restoring:
            self._restoring = True
            self.conversations.opening_changed.connect(self._restore_done)
            self.conversations.start()

    @Slot(bool)
    def _restore_done(self, opening: bool) -> None:
        if opening or self._restored:
            return
        self._restored = True
        self.conversations.opening_changed.disconnect(self._restore_done)
        load, self._first_load = self._first_load, None
        if load is not None:
            load()

    @Slot(list)
    def attach(self, paths: list[str], replace: bool = False) -> None:
        """Files to send with the next message; they are read (in the model's thread, by the
        files connector) when it is sent. Nothing touches the disk here."""
        if replace:
            self.attachments = []
        for path in paths:
            if Path(path) not in self.attachments:
                self.attachments.append(Path(path))
        self._show_attachments()
        self.input.setFocus()

    def _show_attachments(self) -> None:
        names = ", ".join(path.name for path in self.attachments)
        self.attachments_label.setText(f"Attached: {names}" if names else "")
        self.attachments_label.setVisible(bool(names))
        self.remove_attachments_button.setVisible(bool(names))

    def _choose_attachment(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Attach files", str(Path.home()))
        if paths:
            self.attach(paths)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if local_files(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        files = local_files(event.mimeData())
        if files:
            event.acceptProposedAction()
            self.attach(files)
        else:
            super().dropEvent(event)

    @Slot()
    def send(self) -> None:
        text = self.input.toPlainText().strip()
        if not text and self.attachments:
            text = "Here is a file."  # a file sent on its own
        if not text or self.busy:
            return
        if self.conversations.opening:  # it goes to the conversation being opened, once open
            self._send_when_open = True
            return
        if self.editing_last and self.model_ready:
            # The edited message replaces the last one: take that back first (the service
            # answers with `rewound`, and the text goes out from there).
            self.editing_last = False
            self._again = text
            self.input.clear()
            self._rewind()
            return
        self._send_text(text)

    def _send_text(self, text: str) -> None:
        if not self.model_ready:
            manager = self.model_menu.manager
            if manager is not None and manager.downloading is not None:
                # The first run's download: the message stays in the box for later.
                name = manager.entry(manager.downloading).name
                self.chat_view.add_notice(
                    f"{name} is still downloading; Hearth loads it as soon as it is in place "
                    "(the status line shows how far it is). Your message stays in the box.",
                    "info",
                )
                return
            self.chat_view.add_notice(
                "No model is loaded yet, so there is nobody to answer. "
                "Choose a model file in File → Open model…",
                "error",
            )
            return
        self.input.clear()
        self.chat_view.add_message("user", text)
        if self.attachments:  # read with this message by the agent, then forgotten here
            self.conversation.attachments = [str(path) for path in self.attachments]
            self.attach([], replace=True)
        self.chat_view.begin_reply()
        self.busy = True
        self._update_buttons()
        # Until the first words: a long message takes a while to read on a small machine.
        self._start_ticking(f"{self.model_name} · Reading your message…")
        self.worker.cancel.clear()  # a new request: an earlier Stop is spent
        self._sent_at, self._first_text_at = time.monotonic(), None
        self.request_turn.emit(self.conversation, text)

    @Slot()
    def regenerate(self) -> None:
        """Ctrl+R: the last reply again, for the same message."""
        if self.busy or not self.model_ready or not self._last_request():
            return
        self._again = None
        self._rewind()

    @Slot()
    def edit_last(self) -> None:
        """Ctrl+E: the last message back in the box; sending it replaces the old one and
        everything after it."""
        last = self._last_request()
        if self.busy or not last:
            return
        self.input.setPlainText(last)
        self.input.setFocus()
        self.editing_last = True
        self._set_status(f"{self.model_name} · editing your last message: Enter sends it again")

    def _last_request(self) -> str:
        return next(
            (m.content for m in reversed(self.conversation.messages) if m.role == "user"), ""
        )

    def _rewind(self) -> None:
        self.busy = True
        self._update_buttons()
        self.conversations.request_rewind.emit()

    @Slot(object)
    def _on_rewound(self, text: str | None) -> None:
        """The last request was taken back (the view shows the conversation without it):
        send the edited text, or the same one again."""
        again, self._again = self._again, None
        self.busy = False
        self._update_buttons()
        if text is not None:
            self._send_text(again or text)

    @Slot()
    def stop(self) -> None:
        if self.busy:
            self.worker.cancel.set()
            self._set_status(f"{self.model_name} · stopping…")

    @Slot()
    def new_conversation(self) -> None:
        """Ctrl+N: as the sidebar's New button, which a running reply disables."""
        sidebar = self.conversations.sidebar
        if sidebar.new_button.isEnabled():
            sidebar.new_button.click()
        self.input.setFocus()

    @Slot()
    def focus_search(self) -> None:
        """Ctrl+F: into the sidebar's search box, its text selected to be typed over."""
        box = self.conversations.sidebar.search_box
        box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        box.selectAll()

    @Slot()
    def bring_to_front(self) -> None:
        """The tray icon was clicked: show the window, raised."""
        self.showNormal()
        self.raise_()
        self.activateWindow()

    def open_accounts(self) -> AccountsDialog:
        """Settings → Accounts…; its keyring, database and network work runs off this thread."""
        if self.accounts_service is None:
            from app.paths import data_dir

            self.accounts_thread = QThread(self)
            self.accounts_thread.setObjectName("accounts-worker")
            self.accounts_service = AccountsService(data_dir(self.data_dir, create=False))
            self.accounts_service.moveToThread(self.accounts_thread)
            self.accounts_thread.start()
        self.accounts_dialog = AccountsDialog(self.accounts_service, self)
        self.accounts_dialog.changed.connect(self.worker.accounts_changed.set)
        self.accounts_dialog.open()
        return self.accounts_dialog

    def open_tools(self) -> ToolsDialog:
        """Settings → Tools…; starting servers, the keyring and the database run off this
        thread."""
        if self.tools_service is None:
            from app.paths import data_dir

            self.tools_thread = QThread(self)
            self.tools_thread.setObjectName("tools-worker")
            self.tools_service = ToolsService(data_dir(self.data_dir, create=False))
            self.tools_service.moveToThread(self.tools_thread)
            # Its database is closed in its own thread, as that thread ends.
            self.tools_thread.finished.connect(
                self.tools_service.close, Qt.ConnectionType.DirectConnection
            )
            self.tools_thread.start()
        if self.tools_dialog is not None:
            self.tools_dialog.deleteLater()  # an earlier one stops answering the service
        self.tools_dialog = ToolsDialog(self.tools_service, self)
        self.tools_dialog.changed.connect(self.worker.tool_servers_changed.set)
        self.tools_dialog.open()
        return self.tools_dialog

    def _choose_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Open a model file", str(self.model_path.parent), "GGUF models (*.gguf)"
        )
        if path and not self.busy:
            self.load_model(Path(path))

    # -- helpers' signals ---------------------------------------------------------------------

    @Slot(bool)
    def _on_opening(self, opening: bool) -> None:
        """Until the conversation has switched, a message would go to the old one: Send
        waits. The message box stays usable, so the keyboard focus and what the user types
        stay in it (a disabled box handed the focus, and the typing, to the search box)."""
        self.send_button.setEnabled(not opening and not self.busy)

    @Slot(object)
    def _on_conversation_opened(self, conversation: Conversation) -> None:
        if conversation is not self.conversation:
            self.editing_last = False  # another conversation: there is no "last" to replace
        self.conversation = conversation
        self.input.setFocus()
        if self._send_when_open:
            self._send_when_open = False
            self.send()

    @Slot(str)
    def _on_model_notice(self, line: str) -> None:
        """A download failed: one line in the conversation, whichever dialog started it."""
        self.chat_view.add_notice(line, "error")
        if not self.model_ready and not self.busy:
            self._set_status("No model loaded: the download failed")

    @Slot(str)
    def _on_download_progress(self, text: str) -> None:
        """The status line follows a download while there is no model to chat with."""
        if not self.model_ready and self._ticking is None:
            self._set_status(text)

    @Slot(bool)
    def _on_guide_closed(self, chose: bool) -> None:
        """The guide closed without choosing (Skip setup): load what there is now, which
        says plainly what to do if it is missing."""
        if self._waiting_for_guide and not chose:
            self.load_model(self.model_path)

    @Slot(str)
    def _on_attention(self, line: str) -> None:
        """A reminder fell due: the status bar at once, and the taskbar asks for attention."""
        self.statusBar().showMessage(line, 60_000)
        QApplication.alert(self)

    # -- worker signals ----------------------------------------------------------------------

    @Slot(str)
    def _on_loaded(self, name: str) -> None:
        self.model_name = name
        self.model_ready = True
        self._set_status(f"{name} · ready")
        self._update_buttons()

    @Slot(str)
    def _on_load_failed(self, message: str) -> None:
        self.model_ready = False
        self.chat_view.add_notice(message, "error")
        self._set_status("No model loaded")
        self._update_buttons()

    @Slot(str, str)
    def _on_kept(self, name: str, path: str) -> None:
        """A new model failed to load; the one before still answers."""
        if path:
            self.model_path = Path(path)
        self._on_loaded(name)
        self._set_status(f"{name} · ready (the model before is still in use)")

    @Slot(str)
    def _on_text(self, text: str) -> None:
        if self._first_text_at is None:
            self._first_text_at = time.monotonic()
            self._set_status(f"{self.model_name} · writing…")
        self.chat_view.append_reply_text(text)

    @Slot(list)
    def _on_activity(self, rows: list) -> None:
        self.activity_dialog = ActivityDialog(rows, self)
        self.activity_dialog.open()

    @Slot(list)
    def _on_permissions(self, grants: list) -> None:
        if self.permissions_dialog is None:
            self.permissions_dialog = PermissionsDialog(self.request_revoke.emit, self)
        self.permissions_dialog.show_grants(grants)
        self.permissions_dialog.open()

    @Slot(object)
    def _on_tool_call(self, record: CallRecord) -> None:
        if self._ticking is not None:  # the message was read: the model is at work
            self._set_status(f"{self.model_name} · writing…")
        self.chat_view.add_tool_card(record)

    @Slot(object)
    def _on_undo_requested(self, record: CallRecord) -> None:
        """A card's Undo: its reverse call runs on the worker thread, through the gate (a
        dialog may ask); the card says what happened when it is back."""
        if self.busy:  # a Stop meant for the reply must not be taken as "no" to the undo
            self.chat_view.undo_finished(
                record,
                "Not undone yet: Hearth is still answering. Press Undo again when it has finished.",
            )
            return
        self.worker.cancel.clear()  # an earlier Stop is spent
        self._set_status(f"{self.model_name} · undoing…")
        self.request_undo.emit(self.conversation, record)

    @Slot(object, object)
    def _on_undo_finished(self, record: CallRecord, reverse: CallRecord) -> None:
        note = record.undone or undo_in_words(
            record.name, reverse.name, reverse.status, reverse.answer, reverse.result
        )
        self.chat_view.undo_finished(record, note)
        if not self.busy:
            self._set_status(f"{self.model_name} · {note}")

    @Slot(object)
    def _on_confirmation_needed(self, request: ConfirmationRequest) -> None:
        self._set_status(f"{self.model_name} · waiting for your answer")
        self.chat_view.waiting_for_user(True)
        dialog = ConfirmDialog(request, self)
        self.last_dialog = dialog
        dialog.finished.connect(lambda _code: self._answered(dialog))
        dialog.open()  # window-modal, but the event loop keeps running

    def _answered(self, dialog: ConfirmDialog) -> None:
        self.worker.answer(dialog.result_answer)
        self.chat_view.waiting_for_user(False)
        if self.busy:
            self._set_status(f"{self.model_name} · writing…")

    @Slot(object)
    def _on_turn_finished(self, report: TurnReport) -> None:
        stats = report.stats
        # The turn's own reason: a model limit hit while Hearth wrote the answer itself (the
        # step limit, calls it could not read) is not what the user sees cut.
        self.chat_view.end_reply(_STOP_NOTES.get(report.stop_reason), if_silent=NO_ANSWER)
        self.busy = False
        self._update_buttons()
        first = None if self._first_text_at is None else self._first_text_at - self._sent_at
        self._set_status(" · ".join([self.model_name, *speed_in_words(stats, first)]))

    @Slot(str)
    def _on_turn_failed(self, message: str) -> None:
        self.chat_view.end_reply()
        self.chat_view.add_notice(message, "error")
        self.busy = False
        self._update_buttons()
        self._set_status(f"{self.model_name} · the last reply failed")

    # -- helpers -----------------------------------------------------------------------------

    def _model_path(self) -> Path:
        return self.model_path

    def _icon(self) -> QIcon:
        icon = self.windowIcon()
        if icon.isNull():
            icon = self.style().standardIcon(QStyle.StandardPixmap.SP_ComputerIcon)
        return icon

    def _set_status(self, text: str) -> None:
        """A status that does not count seconds (it ends any counting)."""
        self._ticking = None
        self._ticker.stop()
        self.status_label.setText(text)

    def _start_ticking(self, words: str) -> None:
        """`words` now, then with the seconds so far, until the next status."""
        self._set_status(words)
        self._ticking = (words, time.monotonic())
        self._ticker.start()

    @Slot()
    def _tick(self) -> None:
        if self._ticking is None:
            return
        words, started = self._ticking
        self.status_label.setText(f"{words} {time.monotonic() - started:.0f} s")

    def _update_buttons(self) -> None:
        # Stop is disabled under the keyboard focus at the end of a reply: without this Qt
        # hands the focus to the next control (the search box) and the next words go there.
        stop_had_focus = self.stop_button.hasFocus()
        self.send_button.setEnabled(not self.busy)
        self.stop_button.setEnabled(self.busy)
        self.stop_action.setEnabled(self.busy)
        self.regenerate_action.setEnabled(not self.busy)
        self.edit_action.setEnabled(not self.busy)
        if stop_had_focus and not self.busy:
            self.input.setFocus()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.worker.cancel.set()
        if self.accounts_thread is not None:
            self.accounts_thread.quit()
            self.accounts_thread.wait(25_000)  # a connection test ends within its timeout
        if self.tools_thread is not None:
            self.tools_thread.quit()
            self.tools_thread.wait(40_000)  # a server check ends within its timeout
        self.model_menu.shutdown()  # a running download keeps its partial file
        self.data_panels.keep_window_geometry(encode(self.saveGeometry()))
        self.data_panels.shutdown()
        self.documents.shutdown()
        self.model_thread.quit()
        if self.model_thread.wait(10_000):
            self.worker.unload()  # the worker thread has ended: safe to free llama.cpp here
        # After the model's thread: a turn that was ending has saved its last message.
        self.conversation_thread.quit()
        self.conversation_thread.wait(10_000)
        self.worker.close_tool_servers()  # their processes end with the app
        super().closeEvent(event)
