"""Settings → Accounts…: add, edit, test and remove one mail and one calendar account.

Everything that can wait — the network (Test connection), the keyring (D-Bus, and it may pop up
an unlock prompt) and the database — runs in ``AccountsService`` on a worker thread; the dialog
only sends it queued signals and shows the answers, so the GUI thread never waits. The work
itself is ``app.agent.services.accounts`` (no Qt), which ``ask`` and the tests call
too. Passwords go from the password field straight to the keyring: never to the database,
settings or the log.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.agent.services.providers import Preset, provider_preset, provider_presets
from app.store.accounts import AccountSettings, Kind
from app.ui.contrast_colours import on_window
from app.ui.data_service import DataService

log = logging.getLogger(__name__)

SECURITY_LABELS = {"tls": "TLS (SSL)", "starttls": "STARTTLS"}


class AccountsService(DataService):
    """Runs the account lifecycle (``app.agent.services.accounts``) off the GUI thread and relays
    the answers as signals. Every slot runs in the thread this object lives in; the rules about
    keyring names, the order of the writes and the messages are not here but below the UI.
    ``app.agent.services.accounts`` is imported in the slots: it loads caldav and the mail
    stack, which the window's start need not wait for."""

    listed = Signal(list, str)  # [AccountSettings], a keyring problem ("" if none)
    tested = Signal(int, bool, str)  # request token, success, message for the user
    saved = Signal(bool, str)  # whether the password is in the keyring, message for the user
    failed = Signal(str)  # a message for the user

    what = "the accounts"

    def _open_failed(self, message: str) -> Exception:
        from app.agent.services.accounts import AccountsError

        return AccountsError(message)

    @Slot()
    def refresh(self) -> None:
        from app.agent.services.accounts import AccountsError, stored_accounts

        try:
            accounts, problem = stored_accounts(self._opened())
        except AccountsError as exc:  # reaches the user; the thread lives on
            self.failed.emit(str(exc))
            return
        self.listed.emit(accounts, problem)

    @Slot(int, object, str)
    def test(self, token: int, settings: AccountSettings, password: str) -> None:
        """Sign in once with these settings; the answer says plainly what failed."""
        from app.agent.services.accounts import test_account

        check = test_account(settings, password)
        self.tested.emit(token, check.ok, check.message)

    @Slot(object, str)
    def save(self, settings: AccountSettings, password: str) -> None:
        """Settings to the database; the password (if given) to the keyring, or nowhere."""
        from app.agent.services.accounts import AccountsError, save_account

        try:
            saved = save_account(self._opened(), settings, password)
        except AccountsError as exc:
            self.failed.emit(str(exc))
            return
        self.saved.emit(saved.in_keyring, saved.message)
        self.refresh()

    @Slot(int)
    def remove(self, account_id: int) -> None:
        """Forget the account and delete its password from the keyring."""
        from app.agent.services.accounts import AccountsError, remove_account

        try:
            problem = remove_account(self._opened(), account_id)
        except AccountsError as exc:
            problem = str(exc)
        if problem:
            self.failed.emit(problem)
        self.refresh()


class AccountEditor(QDialog):
    """The form for one account. Test connection and Save go to the service via the owner."""

    def __init__(
        self, owner: AccountsDialog, kind: Kind, existing: AccountSettings | None = None
    ) -> None:
        super().__init__(owner)
        self.owner = owner
        self.kind: Kind = existing.kind if existing else kind
        self.existing = existing
        self.token = 0
        self.testing = False  # a connection test is running
        what = "mail" if self.kind == "mail" else "calendar"
        self.setWindowTitle(f"{'Edit' if existing else 'Add'} {what} account")

        self.preset = QComboBox()
        self.preset.setAccessibleName("Provider")
        for preset in provider_presets(self.kind):
            self.preset.addItem(preset.label, preset.key)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setAccessibleDescription("Provider hint")
        self.name = QLineEdit()
        self.name.setAccessibleName("Account name")
        self.email = QLineEdit()
        self.email.setAccessibleName("Email address")
        self.username = QLineEdit()
        self.username.setAccessibleName("User name")
        self.username.setPlaceholderText("usually your email address")
        self.password = QLineEdit()
        self.password.setAccessibleName("Password")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        if existing:
            self.password.setPlaceholderText("unchanged (type to replace)")

        form = QFormLayout()
        form.addRow("Provider", self.preset)
        form.addRow("", self.hint)
        form.addRow("Name", self.name)
        form.addRow("Email address", self.email)
        form.addRow("User name", self.username)
        form.addRow("Password", self.password)

        self.imap_host = QLineEdit()
        self.imap_port = _port_box()
        self.imap_security = _security_box()
        self.smtp_host = QLineEdit()
        self.smtp_port = _port_box()
        self.smtp_security = _security_box()
        self.save_sent = QCheckBox("Put a copy of sent mail in the Sent folder")
        self.calendar_url = QLineEdit()
        self.calendar_url.setAccessibleName("Calendar address")
        self.server_host = QLineEdit()  # only for presets with {host} (Nextcloud)
        self.server_host.setAccessibleName("Server")
        self.server_host.setPlaceholderText("cloud.example.org")

        servers = QGroupBox("Servers")
        server_form = QFormLayout(servers)
        if self.kind == "mail":
            for label, host, port, security in (
                ("Incoming (IMAP)", self.imap_host, self.imap_port, self.imap_security),
                ("Outgoing (SMTP)", self.smtp_host, self.smtp_port, self.smtp_security),
            ):
                host.setAccessibleName(f"{label} server")
                port.setAccessibleName(f"{label} port")
                # A combo box is read by its value; its purpose comes from the label it is
                # the buddy of, named in full so incoming and outgoing can be told apart.
                security_label = QLabel("Security:")
                security_label.setAccessibleName(f"{label} security")
                security_label.setBuddy(security)
                row = QHBoxLayout()
                row.addWidget(host, 1)
                row.addWidget(port)
                row.addWidget(security_label)
                row.addWidget(security)
                server_form.addRow(label, row)
            server_form.addRow("", self.save_sent)
        else:
            server_form.addRow("Server", self.server_host)
            server_form.addRow("Calendar address", self.calendar_url)

        self.test_button = QPushButton("Test connection")
        self.test_button.setAccessibleName("Test connection")
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        self.test_result.setAccessibleDescription("Test result")
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(servers)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addStretch(1)
        layout.addLayout(test_row)
        layout.addWidget(self.test_result)
        layout.addWidget(self.buttons)

        self.preset.currentIndexChanged.connect(self._preset_chosen)
        self.server_host.textChanged.connect(self._host_typed)
        self.test_button.clicked.connect(self.test_connection)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.owner.service_tested.connect(self._on_tested)

        if existing:
            self._fill(existing)
        else:
            self._preset_chosen()

    # -- form <-> settings -------------------------------------------------------------------

    def current_preset(self) -> Preset:
        return provider_preset(str(self.preset.currentData()))

    def choose_preset(self, key: str) -> None:
        index = self.preset.findData(key)
        if index >= 0:
            self.preset.setCurrentIndex(index)
            self._preset_chosen()

    def _preset_chosen(self) -> None:
        """Fill the servers from the preset and show its hint (app passwords, limits)."""
        preset = self.current_preset()
        hint = preset.hint
        if preset.app_password:
            hint = f"<b>This provider needs an app password.</b> {hint}"
        self.hint.setText(hint)
        labels = {p.label for p in provider_presets(self.kind)}
        if not self.name.text() or self.name.text() in labels:
            self.name.setText(preset.label if preset.key != "other" else "")
        if self.kind == "mail":
            self.imap_host.setText(preset.imap_host)
            self.imap_port.setValue(preset.imap_port)
            _set_security(self.imap_security, preset.imap_security)
            self.smtp_host.setText(preset.smtp_host)
            self.smtp_port.setValue(preset.smtp_port)
            _set_security(self.smtp_security, preset.smtp_security)
            self.save_sent.setChecked(preset.save_sent)
        else:
            needs_host = "{host}" in preset.calendar_url
            self.server_host.setEnabled(needs_host)
            self.calendar_url.setText(preset.calendar_url_for(self.server_host.text()))

    def _host_typed(self) -> None:
        preset = self.current_preset()
        if "{host}" in preset.calendar_url:
            self.calendar_url.setText(preset.calendar_url_for(self.server_host.text()))

    def _fill(self, account: AccountSettings) -> None:
        index = self.preset.findData(account.provider)
        self.preset.blockSignals(True)
        self.preset.setCurrentIndex(max(index, 0))
        self.preset.blockSignals(False)
        self.hint.setText(self.current_preset().hint)
        self.name.setText(account.name)
        self.email.setText(account.email)
        self.username.setText(account.username)
        self.imap_host.setText(account.imap_host)
        self.imap_port.setValue(account.imap_port)
        _set_security(self.imap_security, account.imap_security)
        self.smtp_host.setText(account.smtp_host)
        self.smtp_port.setValue(account.smtp_port)
        _set_security(self.smtp_security, account.smtp_security)
        self.save_sent.setChecked(account.save_sent)
        self.calendar_url.setText(account.calendar_url)
        self.server_host.setEnabled("{host}" in self.current_preset().calendar_url)

    def settings(self) -> AccountSettings:
        """The form as settings (no password: that travels separately, to the keyring)."""
        email = self.email.text().strip()
        return AccountSettings(
            kind=self.kind,
            name=self.name.text().strip() or email or self.current_preset().label,
            provider=self.current_preset().key,
            email=email,
            username=self.username.text().strip() or email,
            imap_host=self.imap_host.text().strip(),
            imap_port=self.imap_port.value(),
            imap_security=str(self.imap_security.currentData()),
            smtp_host=self.smtp_host.text().strip(),
            smtp_port=self.smtp_port.value(),
            smtp_security=str(self.smtp_security.currentData()),
            save_sent=self.save_sent.isChecked(),
            calendar_url=self.calendar_url.text().strip(),
            id=self.existing.id if self.existing else None,
            secret_ref=self.existing.secret_ref if self.existing else "",
        )

    def _missing(self) -> str:
        """What the user still has to fill in, or ""."""
        settings = self.settings()
        if self.kind == "mail":
            if not settings.email:
                return "Enter the email address."
            if not settings.imap_host or not settings.smtp_host:
                return "Enter the incoming (IMAP) and outgoing (SMTP) servers."
        elif not settings.calendar_url or "HOST" in settings.calendar_url:
            return "Enter the calendar address (or your server's name)."
        if not self.password.text() and self.existing is None:
            return "Enter the password."
        return ""

    # -- actions -----------------------------------------------------------------------------

    @Slot()
    def test_connection(self) -> None:
        missing = self._missing()
        if missing:
            self._show_result(False, missing)
            return
        if self.testing:
            return  # one test at a time
        self.token = self.owner.next_token()
        # Not disabled while it runs: Qt would move the keyboard focus on, to Save, where a
        # second Space saved instead of testing again.
        self.testing = True
        self.test_button.setText("Testing…")
        self.test_result.setStyleSheet("")
        self.test_result.setText("Testing… (this can take up to 20 seconds)")
        self.owner.request_test.emit(self.token, self.settings(), self.password.text())

    @Slot(int, bool, str)
    def _on_tested(self, token: int, ok: bool, message: str) -> None:
        if token != self.token:
            return  # an answer for another editor or an older attempt
        self.testing = False
        self.test_button.setText("Test connection")
        self._show_result(ok, message)

    def _show_result(self, ok: bool, message: str) -> None:
        # Colours that read on this window, light or dark (fixed ones failed 4.5:1 on dark).
        colour = on_window(self.palette(), "success" if ok else "danger")
        self.test_result.setStyleSheet(f"color: {colour.name()};")
        self.test_result.setText(("✓ " if ok else "✗ ") + message)

    @Slot()
    def save(self) -> None:
        missing = self._missing()
        if missing:
            self._show_result(False, missing)
            return
        self.owner.request_save.emit(self.settings(), self.password.text())
        self.password.clear()
        self.accept()


class AccountsDialog(QDialog):
    """The list of accounts with Add / Edit / Remove; talks to an AccountsService."""

    request_refresh = Signal()
    request_test = Signal(int, object, str)
    request_save = Signal(object, str)
    request_remove = Signal(int)
    service_tested = Signal(int, bool, str)  # relayed to the open editor
    changed = Signal()  # accounts were saved or removed: the agent should rebuild its tools

    def __init__(self, service: AccountsService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Accounts")
        self.resize(560, 360)
        self._token = 0
        self.accounts: list[AccountSettings] = []
        self.editor: AccountEditor | None = None

        self.list = QListWidget()
        self.list.setAccessibleName("Accounts")
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setAccessibleDescription("Accounts notice")
        self.add_mail = QPushButton("Add mail account…")
        self.add_calendar = QPushButton("Add calendar account…")
        self.edit_button = QPushButton("Edit…")
        self.remove_button = QPushButton("Remove")
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)

        buttons = QVBoxLayout()
        for button in (self.add_mail, self.add_calendar, self.edit_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.list, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel("Passwords are kept in your computer's password store, never in Hearth's files.")
        )
        layout.addLayout(row)
        layout.addWidget(self.notice)
        layout.addWidget(close)

        self.add_mail.clicked.connect(lambda: self.open_editor("mail"))
        self.add_calendar.clicked.connect(lambda: self.open_editor("calendar"))
        self.edit_button.clicked.connect(self.edit_selected)
        self.remove_button.clicked.connect(self.remove_selected)
        self.list.currentRowChanged.connect(lambda _row: self._update_buttons())
        close.rejected.connect(self.reject)

        # Queued: the service lives in another thread.
        self.request_refresh.connect(service.refresh)
        self.request_test.connect(service.test)
        self.request_save.connect(service.save)
        self.request_remove.connect(service.remove)
        service.listed.connect(self._on_listed)
        service.tested.connect(self.service_tested)
        service.saved.connect(self._on_saved)
        service.failed.connect(self._on_failed)
        self._update_buttons()
        self.request_refresh.emit()

    def next_token(self) -> int:
        self._token += 1
        return self._token

    def selected(self) -> AccountSettings | None:
        row = self.list.currentRow()
        return self.accounts[row] if 0 <= row < len(self.accounts) else None

    def open_editor(self, kind: Kind, existing: AccountSettings | None = None) -> AccountEditor:
        self.editor = AccountEditor(self, kind, existing)
        self.editor.open()
        return self.editor

    def edit_selected(self) -> None:
        account = self.selected()
        if account is not None:
            self.open_editor(account.kind, account)

    def remove_selected(self, confirm: bool = True) -> None:
        account = self.selected()
        if account is None or account.id is None:
            return
        if confirm:
            answer = QMessageBox.question(
                self,
                "Remove account",
                f"Remove “{account.name}” and delete its saved password?",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.request_remove.emit(account.id)
        self.changed.emit()

    @Slot(list, str)
    def _on_listed(self, accounts: list, keyring_problem: str) -> None:
        self.accounts = list(accounts)
        self.list.clear()
        for account in self.accounts:
            QListWidgetItem(account.describe(), self.list)
        if self.accounts:
            self.list.setCurrentRow(0)
        if keyring_problem:
            self.notice.setStyleSheet("color: #b3261e;")
            self.notice.setText(keyring_problem)
        self._update_buttons()

    @Slot(bool, str)
    def _on_saved(self, in_keyring: bool, message: str) -> None:
        self.notice.setStyleSheet("" if in_keyring else "color: #b3261e;")
        self.notice.setText(message)
        self.changed.emit()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.notice.setStyleSheet("color: #b3261e;")
        self.notice.setText(message)

    def _update_buttons(self) -> None:
        has = self.selected() is not None
        self.edit_button.setEnabled(has)
        self.remove_button.setEnabled(has)
        kinds = {account.kind for account in self.accounts}
        # One of each for now: the agent uses a single mail and a single calendar account.
        self.add_mail.setEnabled("mail" not in kinds)
        self.add_calendar.setEnabled("calendar" not in kinds)


def _port_box() -> QSpinBox:
    box = QSpinBox()
    box.setRange(1, 65535)
    box.setAccessibleName("Port")
    return box


def _security_box() -> QComboBox:
    box = QComboBox()
    box.setAccessibleName("Security")
    for value, label in SECURITY_LABELS.items():
        box.addItem(label, value)
    return box


def _set_security(box: QComboBox, value: str) -> None:
    index = box.findData(value)
    if index < 0:  # "plain" (a local bridge) is kept when stored, but not offered
        box.addItem("None (this computer only)", value)
        index = box.findData(value)
    box.setCurrentIndex(index)
