"""Settings → Model…: where the model runs ("On this computer" or "On a server") and how.

On this computer: the model file, context size, threads, thinking, temperature. On a server:
its address, the model name and an optional API key (kept only in the OS keyring). Test
connection talks to the server on a plain thread, so the window never freezes, and says
plainly what failed. Saving writes SettingsStore in one transaction and tells the main
window whether the model must be reloaded (a new file, server, context size or thread count)
or only the next turn changes (thinking, temperature). The menu entry emits that as signals;
the window connects them (and owns the reload), so nothing here reaches into the window.

The GUI thread never waits on the disk, the network or the keyring (a D-Bus call that can
block on an unlock prompt): ModelSettingsService reads and writes the settings and the key,
and runs Test connection, on plain threads and answers through queued signals.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.agent.services.model_choice import (
    CONTEXT_CHOICES,
    ModelChoice,
    read_api_key,
    store_api_key,
)
from app.agent.turn.chat import MAX_INSTRUCTIONS
from app.store.settings import SettingsStore

log = logging.getLogger(__name__)


def test_connection(base_url: str, model: str, api_key: str | None) -> tuple[bool, str]:
    """Connect, check the key and the model name; (worked, a sentence for the user)."""
    from app.llm.remote import RemoteError, RemoteModel, RemoteSettings

    try:
        remote = RemoteModel(RemoteSettings(base_url, model, api_key, read_timeout=30.0))
        remote.load()
    except RemoteError as exc:
        return False, str(exc)
    return True, remote.describe()


class ModelSettingsService(QObject):
    """The panel's disk, keyring and network work, each call on a plain thread.

    It lives in the GUI thread, so its signals, emitted from those threads, reach the dialog
    queued. Give it a data folder (the window: the database is opened and migrated in the
    thread) or a SettingsStore (tests). One lock keeps the settings reads and writes in order.
    """

    loaded = Signal(object, bool)  # ModelChoice, whether the keyring holds an API key
    saved = Signal(object, str)  # ModelChoice, a notice about the key ("" if none)
    failed = Signal(str)  # a message for the user
    tested = Signal(bool, str)  # worked, a sentence for the user

    def __init__(
        self,
        data_dir: Path | None = None,
        store: SettingsStore | None = None,
        read_key: bool = True,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.data_dir = data_dir
        self.store = store
        self.read_key = read_key
        self._lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def _start(self, name: str, work: Callable[[], None]) -> None:
        thread = threading.Thread(target=work, name=f"model-settings-{name}", daemon=True)
        self.threads = [t for t in self.threads if t.is_alive()] + [thread]
        thread.start()

    def _with_store(self, work: Callable[[SettingsStore], object]) -> object:
        """Run `work` on the given store, or on the data folder's database opened for it."""
        with self._lock:
            if self.store is not None:
                return work(self.store)
            from app.paths import data_dir
            from app.store.database import Database

            database = Database.open(data_dir(self.data_dir))
            try:
                return work(SettingsStore(database))
            finally:
                database.close()

    def load(self) -> None:
        """The saved choice and whether a key is stored; `loaded` (or `failed`) answers."""

        def run() -> None:
            try:
                choice = self._with_store(ModelChoice.load)
                has_key = bool(read_api_key()) if self.read_key else False
            except Exception as exc:  # a broken database must reach the user
                log.exception("model settings: read failed")
                self.failed.emit(f"Hearth could not read the model settings: {exc}")
                return
            self.loaded.emit(choice, has_key)

        self._start("load", run)

    def save(self, choice: ModelChoice) -> None:
        """The key to the keyring (if one was typed), the rest to the settings; `saved` or
        `failed` answers."""

        def run() -> None:
            notice = ""
            problem = store_api_key(choice.api_key) if choice.api_key else ""
            if problem:  # not saved anywhere: it is used until Hearth closes
                notice = f"{problem} The key is used only until you close Hearth."
            try:
                self._with_store(choice.save)
            except Exception as exc:
                log.exception("model settings: save failed")
                self.failed.emit(f"Hearth could not save the model settings: {exc}")
                return
            self.saved.emit(choice, notice)

        self._start("save", run)

    def test(self, choice: ModelChoice, stored_key: bool) -> None:
        """Test connection; the stored key (when asked for) is read in the thread too."""

        def run() -> None:
            key = choice.api_key
            if key is None and stored_key:
                key = read_api_key()
            self.tested.emit(*test_connection(choice.base_url, choice.remote_model, key))

        self._start("test", run)


class ModelSettingsDialog(QDialog):
    """The form. It opens at once, greyed out with "Reading your settings…", and fills in
    when the service answers; Save and Test connection also wait for the service."""

    saved = Signal(object, bool)  # the ModelChoice, and whether the model must be reloaded

    def __init__(
        self,
        service: ModelSettingsService,
        current_path: Path | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Model settings")
        self.service = service
        self.current_path = current_path
        self.original = ModelChoice()  # until the saved one is read
        self.ready = False  # the saved settings are shown
        self.choice: ModelChoice | None = None
        self.key_notice = ""
        self.has_stored_key = False
        self._saving = False

        self.local_radio = QRadioButton("On this computer")
        self.remote_radio = QRadioButton("On a server")
        group = QButtonGroup(self)
        group.addButton(self.local_radio)
        group.addButton(self.remote_radio)

        # -- on this computer --
        self.path_edit = QLineEdit()
        self.path_edit.setReadOnly(True)
        self.path_edit.setAccessibleName("Model file")
        self.choose_button = QPushButton("Choose file…")
        self.choose_button.clicked.connect(self._choose_file)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path_edit, 1)
        file_row.addWidget(self.choose_button)
        self.context_box = QComboBox()
        self.context_box.setAccessibleName("Context size")
        self.threads_box = QSpinBox()
        self.threads_box.setAccessibleName("Threads")
        self.threads_box.setRange(0, 64)
        self.threads_box.setSpecialValueText("Automatic")
        local_form = QFormLayout()
        local_form.addRow("Model file", file_row)
        local_form.addRow("Context size", self.context_box)
        local_form.addRow("Threads", self.threads_box)
        self.local_group = QGroupBox("Model on this computer")
        self.local_group.setLayout(local_form)

        # -- on a server --
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("http://192.168.1.5:8080/v1")
        self.url_edit.setAccessibleName("Server address")
        self.model_edit = QLineEdit()
        self.model_edit.setPlaceholderText("empty: the server's model")
        self.model_edit.setAccessibleName("Model name")
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setAccessibleName("API key")
        self.key_edit.setPlaceholderText("optional")
        self.test_button = QPushButton("Test connection")
        self.test_button.clicked.connect(self.start_test)
        self.test_label = QLabel()
        self.test_label.setWordWrap(True)
        self.test_label.setAccessibleDescription("Connection test result")
        remote_form = QFormLayout()
        remote_form.addRow("Address", self.url_edit)
        remote_form.addRow("Model name", self.model_edit)
        remote_form.addRow("API key", self.key_edit)
        remote_form.addRow(self.test_button, self.test_label)
        self.remote_group = QGroupBox("Model on a server (OpenAI-compatible)")
        self.remote_group.setLayout(remote_form)
        note = QLabel(
            "Your conversations are sent to this server. Only the address you type here is "
            "contacted."
        )
        note.setWordWrap(True)
        remote_form.addRow(note)

        # -- both --
        self.thinking_check = QCheckBox("Let the model think before it answers (slower)")
        self.temperature_box = QDoubleSpinBox()
        self.temperature_box.setAccessibleName("Temperature")
        self.temperature_box.setRange(0.0, 2.0)
        self.temperature_box.setSingleStep(0.1)
        self.temperature_box.setDecimals(2)
        # Custom instructions: the end of the system prompt, for every conversation.
        self.instructions_edit = QPlainTextEdit()
        self.instructions_edit.setTabChangesFocus(True)
        self.instructions_edit.setFixedHeight(72)
        self.instructions_edit.setPlaceholderText(
            "For example: I am Ana, a nurse in Lyon. Answer briefly, in French."
        )
        instructions_label = QLabel("Tell Hearth about &yourself / how to answer:")
        instructions_label.setBuddy(self.instructions_edit)
        self.instructions_edit.setAccessibleName("Tell Hearth about yourself / how to answer")
        common = QFormLayout()
        common.addRow(self.thinking_check)
        common.addRow("Temperature", self.temperature_box)
        common.addRow(instructions_label)
        common.addRow(self.instructions_edit)

        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.cancel_button = buttons.button(QDialogButtonBox.StandardButton.Cancel)

        layout = QVBoxLayout(self)
        layout.addWidget(self.local_radio)
        layout.addWidget(self.local_group)
        layout.addWidget(self.remote_radio)
        layout.addWidget(self.remote_group)
        layout.addLayout(common)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)

        self.local_radio.toggled.connect(self._update_enabled)
        service.loaded.connect(self._on_loaded)
        service.saved.connect(self._on_saved)
        service.failed.connect(self._on_failed)
        service.tested.connect(self._on_tested)
        self._show(ModelChoice())
        self._set_form_enabled(False)
        self._notice("Reading your settings…")
        self.resize(560, self.sizeHint().height())
        service.load()

    # -- the form ----------------------------------------------------------------------------

    def _show(self, choice: ModelChoice) -> None:
        """Put `choice` into the form."""
        self.path_edit.setText(choice.path)
        self.context_box.clear()
        sizes = sorted({*CONTEXT_CHOICES, choice.n_ctx})
        for size in sizes:
            self.context_box.addItem(f"{size:,} tokens", size)
        self.context_box.setCurrentIndex(sizes.index(choice.n_ctx))
        self.threads_box.setValue(choice.threads)
        self.url_edit.setText(choice.base_url)
        self.model_edit.setText(choice.remote_model)
        self.thinking_check.setChecked(choice.thinking)
        self.temperature_box.setValue(choice.temperature)
        self.instructions_edit.setPlainText(choice.instructions)
        (self.remote_radio if choice.backend == "remote" else self.local_radio).setChecked(True)
        self._update_enabled()

    def _set_form_enabled(self, enabled: bool) -> None:
        for widget in (
            self.local_radio,
            self.remote_radio,
            self.thinking_check,
            self.temperature_box,
            self.instructions_edit,
            self.save_button,
        ):
            widget.setEnabled(enabled)
        if enabled:
            self._update_enabled()
            focus = self.focusWidget()
            if focus is None or focus is self.cancel_button:
                # The form was shut while the saved choice loaded, and Qt had put the focus
                # on Cancel: start where the user chooses.
                checked = self.remote_radio if self.remote_radio.isChecked() else self.local_radio
                checked.setFocus()
        else:
            self.local_group.setEnabled(False)
            self.remote_group.setEnabled(False)

    def _notice(self, text: str, error: bool = False) -> None:
        self.error_label.setText(text)
        self.error_label.setStyleSheet("color: #b00020" if error else "")

    # -- actions -----------------------------------------------------------------------------

    def _update_enabled(self) -> None:
        local = self.local_radio.isChecked()
        self.local_group.setEnabled(local)
        self.remote_group.setEnabled(not local)

    def _choose_file(self) -> None:
        start = str(Path(self.path_edit.text()).parent) if self.path_edit.text() else ""
        path, _ = QFileDialog.getOpenFileName(
            self, "Choose a model file", start, "GGUF models (*.gguf)"
        )
        if path:
            self.path_edit.setText(path)

    def current_choice(self) -> ModelChoice:
        """What the form says now (the typed API key only if one was typed)."""
        key = self.key_edit.text().strip()
        return ModelChoice(
            backend="local" if self.local_radio.isChecked() else "remote",
            path=self.path_edit.text().strip(),
            n_ctx=int(self.context_box.currentData()),
            threads=self.threads_box.value(),
            thinking=self.thinking_check.isChecked(),
            temperature=round(self.temperature_box.value(), 2),
            base_url=self.url_edit.text().strip(),
            remote_model=self.model_edit.text().strip(),
            api_key=key or None,
            instructions=self.instructions_edit.toPlainText().strip()[:MAX_INSTRUCTIONS],
        )

    @Slot()
    def start_test(self) -> None:
        """Test connection in the service's thread; the answer comes back through a signal."""
        choice = self.current_choice()
        if not choice.base_url:
            self._on_tested(False, "Type the server's address first.")
            return
        self.test_button.setEnabled(False)
        self.test_label.setText("Connecting…")
        self.service.test(choice, self.has_stored_key)

    @Slot(bool, str)
    def _on_tested(self, worked: bool, message: str) -> None:
        self.test_button.setEnabled(True)
        self.test_label.setText(("✓ " if worked else "✗ ") + message)
        self.test_label.setStyleSheet("" if worked else "color: #b00020")

    @Slot()
    def save(self) -> None:
        """Check the form here, then write it in the service's thread; `saved` follows."""
        if not self.ready or self._saving:
            return
        choice = self.current_choice()
        if choice.backend == "local" and not choice.path:
            self._notice("Choose a model file first.", error=True)
            return
        if choice.backend == "remote" and not choice.base_url:
            self._notice("Type the server's address first.", error=True)
            return
        self._saving = True
        self.save_button.setEnabled(False)
        self._notice("Saving…")
        self.service.save(choice)

    # -- service answers ---------------------------------------------------------------------

    @Slot(object, bool)
    def _on_loaded(self, original: ModelChoice, has_key: bool) -> None:
        path = self.current_path
        if not original.path and path is not None and path.suffix == ".gguf":
            original.path = str(path)  # not a --script replay file
        self.original = original
        self.has_stored_key = has_key
        self.key_edit.setPlaceholderText(
            "saved in your keyring (type to replace)" if has_key else "optional"
        )
        self._show(original)
        self._set_form_enabled(True)
        self._notice("")
        self.ready = True

    @Slot(object, str)
    def _on_saved(self, choice: ModelChoice, key_notice: str) -> None:
        self._saving = False
        self.save_button.setEnabled(True)
        self._notice("")
        self.key_notice = key_notice
        self.choice = choice
        reload = self.original.needs_reload(choice) or (
            choice.backend == "remote" and choice.api_key is not None
        )
        self.saved.emit(choice, reload)
        self.accept()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._saving = False
        self.save_button.setEnabled(self.ready)
        self._notice(message, error=True)


def loading_status(choice: ModelChoice) -> str:
    """The status line while `choice` loads: the server's host only, never its key or path."""
    if choice.backend == "remote":
        host = urlsplit(choice.base_url if "://" in choice.base_url else "//" + choice.base_url)
        return f"Connecting to the model server at {host.hostname or '?'}…"
    return f"Loading {Path(choice.path).name}…"


class ModelSettingsMenu(QObject):
    """Settings → Model…: opens the panel and says what its save means, as signals the
    window connects (a reload, or only the next turn's thinking and temperature). It knows
    no window: `model_path` tells it the file in use, to offer when nothing is saved."""

    load_requested = Signal(object)  # ModelChoice: reload the model (or connect to a server)
    # ModelChoice: thinking, temperature and custom instructions of the next turn
    choice_changed = Signal(object)
    notice = Signal(str, str)  # text, kind ("error"): a message for the conversation view

    def __init__(
        self,
        menu: QMenu,
        data_dir: Path | None,
        model_path: Callable[[], Path],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.data_dir = data_dir
        self.model_path = model_path
        self.dialog: ModelSettingsDialog | None = None
        action = QAction("&Model settings…", parent)
        action.triggered.connect(self.open)
        menu.addAction(action)
        self.action = action

    def open(self) -> ModelSettingsDialog:
        """The panel opens at once; the settings and the keyring are read in a thread."""
        service = ModelSettingsService(self.data_dir)
        self.dialog = ModelSettingsDialog(service, self.model_path(), self.parent_widget)
        service.setParent(self.dialog)
        self.dialog.saved.connect(self.apply)
        self.dialog.open()
        return self.dialog

    @Slot(object, bool)
    def apply(self, choice: ModelChoice, reload: bool) -> None:
        if self.dialog is not None and self.dialog.key_notice:
            self.notice.emit(self.dialog.key_notice, "error")
        if reload:
            self.load_requested.emit(choice)
        else:
            self.choice_changed.emit(choice)
