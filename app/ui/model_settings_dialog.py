"""Settings → Model…: where the model runs ("On this computer" or "On a server") and how.

On this computer: the model file, context size, threads, thinking, temperature. On a server:
its address, the model name and an optional API key (kept only in the OS keyring). Test
connection talks to the server on a plain thread, so the window never freezes, and says
plainly what failed. Saving writes SettingsStore in one transaction and tells the main
window whether the model must be reloaded (a new file, server, context size or thread count)
or only the next turn changes (thinking, temperature).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING
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
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.agent.model_choice import CONTEXT_CHOICES, ModelChoice, store_api_key
from app.store.settings import SettingsStore
from connectors.credentials import CredentialError, NoSecureKeyring

if TYPE_CHECKING:
    from app.ui.main_window import MainWindow


def test_connection(base_url: str, model: str, api_key: str | None) -> tuple[bool, str]:
    """Connect, check the key and the model name; (worked, a sentence for the user)."""
    from app.llm.remote import RemoteError, RemoteModel, RemoteSettings

    try:
        remote = RemoteModel(RemoteSettings(base_url, model, api_key, read_timeout=30.0))
        remote.load()
    except RemoteError as exc:
        return False, str(exc)
    return True, remote.describe()


class _Relay(QObject):
    """Carries a result from a plain thread back to the GUI thread (a queued signal)."""

    done = Signal(bool, str)


class ModelSettingsDialog(QDialog):
    saved = Signal(object, bool)  # the ModelChoice, and whether the model must be reloaded

    def __init__(
        self,
        store: SettingsStore,
        current_path: Path | None = None,
        parent: QWidget | None = None,
        read_key: bool = True,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Model settings")
        self.store = store
        self.original = ModelChoice.load(store)
        if not self.original.path and current_path is not None and current_path.suffix == ".gguf":
            self.original.path = str(current_path)  # not a --script replay file
        self.choice: ModelChoice | None = None
        self.key_notice = ""
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_tested)
        self._testing: threading.Thread | None = None
        self.has_stored_key = False
        if read_key:
            from app.agent.model_choice import read_api_key

            self.has_stored_key = bool(read_api_key())

        self.local_radio = QRadioButton("On this computer")
        self.remote_radio = QRadioButton("On a server")
        group = QButtonGroup(self)
        group.addButton(self.local_radio)
        group.addButton(self.remote_radio)

        # -- on this computer --
        self.path_edit = QLineEdit(self.original.path)
        self.path_edit.setReadOnly(True)
        self.path_edit.setAccessibleName("Model file")
        self.choose_button = QPushButton("Choose file…")
        self.choose_button.clicked.connect(self._choose_file)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path_edit, 1)
        file_row.addWidget(self.choose_button)
        self.context_box = QComboBox()
        self.context_box.setAccessibleName("Context size")
        sizes = sorted({*CONTEXT_CHOICES, self.original.n_ctx})
        for size in sizes:
            self.context_box.addItem(f"{size:,} tokens", size)
        self.context_box.setCurrentIndex(sizes.index(self.original.n_ctx))
        self.threads_box = QSpinBox()
        self.threads_box.setAccessibleName("Threads")
        self.threads_box.setRange(0, 64)
        self.threads_box.setSpecialValueText("Automatic")
        self.threads_box.setValue(self.original.threads)
        local_form = QFormLayout()
        local_form.addRow("Model file", file_row)
        local_form.addRow("Context size", self.context_box)
        local_form.addRow("Threads", self.threads_box)
        self.local_group = QGroupBox("Model on this computer")
        self.local_group.setLayout(local_form)

        # -- on a server --
        self.url_edit = QLineEdit(self.original.base_url)
        self.url_edit.setPlaceholderText("http://192.168.1.5:8080/v1")
        self.url_edit.setAccessibleName("Server address")
        self.model_edit = QLineEdit(self.original.remote_model)
        self.model_edit.setPlaceholderText("empty: the server's model")
        self.model_edit.setAccessibleName("Model name")
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setAccessibleName("API key")
        self.key_edit.setPlaceholderText(
            "saved in your keyring (type to replace)" if self.has_stored_key else "optional"
        )
        self.test_button = QPushButton("Test connection")
        self.test_button.clicked.connect(self.start_test)
        self.test_label = QLabel()
        self.test_label.setWordWrap(True)
        self.test_label.setAccessibleName("Connection test result")
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
        self.thinking_check.setChecked(self.original.thinking)
        self.temperature_box = QDoubleSpinBox()
        self.temperature_box.setAccessibleName("Temperature")
        self.temperature_box.setRange(0.0, 2.0)
        self.temperature_box.setSingleStep(0.1)
        self.temperature_box.setDecimals(2)
        self.temperature_box.setValue(self.original.temperature)
        common = QFormLayout()
        common.addRow(self.thinking_check)
        common.addRow("Temperature", self.temperature_box)

        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #b00020")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)

        layout = QVBoxLayout(self)
        layout.addWidget(self.local_radio)
        layout.addWidget(self.local_group)
        layout.addWidget(self.remote_radio)
        layout.addWidget(self.remote_group)
        layout.addLayout(common)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)

        self.local_radio.toggled.connect(self._update_enabled)
        if self.original.backend == "remote":
            self.remote_radio.setChecked(True)
        else:
            self.local_radio.setChecked(True)
        self._update_enabled()
        self.resize(560, self.sizeHint().height())

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
        )

    @Slot()
    def start_test(self) -> None:
        """Test connection on a plain thread; the answer comes back through a signal."""
        choice = self.current_choice()
        if not choice.base_url:
            self._on_tested(False, "Type the server's address first.")
            return
        key = choice.api_key
        if key is None and self.has_stored_key:
            from app.agent.model_choice import read_api_key

            key = read_api_key()
        self.test_button.setEnabled(False)
        self.test_label.setText("Connecting…")
        relay = self._relay

        def run() -> None:
            worked, message = test_connection(choice.base_url, choice.remote_model, key)
            relay.done.emit(worked, message)

        self._testing = threading.Thread(target=run, name="model-server-test", daemon=True)
        self._testing.start()

    @Slot(bool, str)
    def _on_tested(self, worked: bool, message: str) -> None:
        self.test_button.setEnabled(True)
        self.test_label.setText(("✓ " if worked else "✗ ") + message)
        self.test_label.setStyleSheet("" if worked else "color: #b00020")

    @Slot()
    def save(self) -> None:
        choice = self.current_choice()
        if choice.backend == "local" and not choice.path:
            self.error_label.setText("Choose a model file first.")
            return
        if choice.backend == "remote" and not choice.base_url:
            self.error_label.setText("Type the server's address first.")
            return
        if choice.api_key:
            try:
                store_api_key(choice.api_key)
            except (NoSecureKeyring, CredentialError) as exc:  # messages meant for the user
                # Not saved anywhere: it is used until Hearth closes.
                self.key_notice = f"{exc} The key is used only until you close Hearth."
            else:
                self.key_notice = ""
        choice.save(self.store)
        self.choice = choice
        reload = self.original.needs_reload(choice) or (
            choice.backend == "remote" and choice.api_key is not None
        )
        self.saved.emit(choice, reload)
        self.accept()


class ModelSettingsMenu(QObject):
    """Settings → Model… in the main window: opens the panel and applies what it saved (a
    reload through the worker thread, or only the next turn's thinking and temperature)."""

    request_load_choice = Signal(object)  # queued into the worker thread

    def __init__(self, window: MainWindow, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.dialog: ModelSettingsDialog | None = None
        self._connected = False  # the window builds its menus before its worker
        action = QAction("&Model…", window)
        action.triggered.connect(self.open)
        menu.addAction(action)
        self.action = action

    def open(self) -> ModelSettingsDialog:
        from app.paths import data_dir
        from app.store.database import Database

        store = SettingsStore(Database.open(data_dir(self.window.data_dir)))
        self.dialog = ModelSettingsDialog(store, self.window.model_path, self.window)
        self.dialog.saved.connect(self.apply)
        self.dialog.open()
        return self.dialog

    @Slot(object, bool)
    def apply(self, choice: ModelChoice, reload: bool) -> None:
        if self.dialog is not None and self.dialog.key_notice:
            self.window.chat_view.add_notice(self.dialog.key_notice, "error")
        if not reload:
            self.window.worker.choice = choice  # read at the start of the next turn
            return
        self.load(choice)

    def load(self, choice: ModelChoice) -> None:
        """Load the chosen model (or connect to the server) in the worker thread."""
        window = self.window
        window.model_ready = False
        if choice.backend == "remote":
            host = urlsplit(choice.base_url if "://" in choice.base_url else "//" + choice.base_url)
            window._set_status(f"Connecting to the model server at {host.hostname or '?'}…")
        else:
            window.model_path = Path(choice.path)
            window._set_status(f"Loading {Path(choice.path).name}…")
        window._update_buttons()
        if not self._connected:
            self.request_load_choice.connect(window.worker.load_choice)
            self._connected = True
        self.request_load_choice.emit(choice)
