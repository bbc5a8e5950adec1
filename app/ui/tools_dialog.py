"""Settings → Tools…: the user's tool servers (MCP, issue #22): add, check, approve, switch
on and off, edit and remove.

As in Settings → Accounts…, everything that can wait runs in ``ToolsService`` on a worker
thread: the database, the keyring (D-Bus) and above all ``check_server``, which starts the
server's process (or reaches its address) and lists its tools, for seconds. The dialog only
sends queued signals and shows the answers, so the GUI thread never waits. The work itself is
``app.agent.tools.tool_servers`` (no Qt); it is imported in the service's slots, in its thread: it
loads the MCP SDK, which the window's start need not wait for.

A server's tool descriptions are its own words, and they are what the model will be told: the
dialog shows each one as the model will see it (as plain text: it never renders the server's
markup), with Hearth's risk wording, and a tool is used only after the user chose "Use these
tools". Secret values go from the password fields to the keyring only.
"""

from __future__ import annotations

import dataclasses
import html
import logging
from collections.abc import Callable, Iterable, Mapping
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QRadioButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.store.tool_servers import SECRET_NAME, WEB_ADDRESS, ToolServer
from app.ui.data_service import DataService

if TYPE_CHECKING:
    from app.agent.tools.tool_servers import ServerCheck, ServerPreset, ToolView

log = logging.getLogger(__name__)

CHECK_TIMEOUT = 30.0  # seconds for a server to start and list its tools (uvx may download)

INTRO = (
    "A tool server is a program made by someone else that gives Hearth more tools. "
    "Hearth asks you before every call to one of these tools, and treats what they send back "
    "like a web page: as information, never as instructions."
)
OWN_WORDS = (
    "The descriptions below are the server's own words, not Hearth's: this is exactly what the "
    "model will be told about each tool. A tool is used only after you choose “Use these tools”."
)


class ToolsService(DataService):
    """Runs ``app.agent.tools.tool_servers`` off the GUI thread and relays the answers as signals.
    Every slot runs in the thread this object lives in, and none lets an exception escape:
    a failure becomes a message for the user and the thread lives on."""

    listed = Signal(list)  # [ToolServer], as stored
    presets_ready = Signal(list)  # [ServerPreset], once, for the Add form
    saved = Signal(int, object)  # request token, the stored ToolServer
    save_failed = Signal(int, str)  # request token, a message for the user
    checking = Signal(int)  # server id: its check has started
    checked = Signal(int, object)  # server id, ServerCheck
    approved = Signal(object)  # the stored ToolServer with its new approvals
    switched = Signal(object)  # the stored ToolServer, switched on or off
    removed = Signal(int, str, str)  # server id, its name, a problem ("" if none)
    failed = Signal(str)  # a message for the user

    what = "the tool servers"

    def __init__(self, data_dir: Path) -> None:
        super().__init__(data_dir)
        self._presets_sent = False

    def _open_failed(self, message: str) -> Exception:
        from app.agent.tools.tool_servers import ToolServersError

        return ToolServersError(message)

    def _run(self, action: Callable[[], None], on_error: Callable[[str], None]) -> None:
        """Runs one request; its failure reaches the user in words, never as a crash."""
        from app.agent.tools.tool_servers import ToolServersError

        try:
            action()
        except ToolServersError as exc:
            on_error(str(exc))
        except Exception as exc:  # a bug below must not end this thread or the app
            log.exception("a tool server request failed")
            on_error(f"Something went wrong: {exc}")

    def _server(self, server_id: int) -> ToolServer:
        from app.agent.tools.tool_servers import ToolServersError, stored_servers

        for server in stored_servers(self._opened()):
            if server.id == server_id:
                return server
        raise ToolServersError("This tool server is no longer there (it was removed).")

    def _list(self) -> None:
        from app.agent.tools.tool_servers import stored_servers

        self.listed.emit(stored_servers(self._opened()))

    @Slot()
    def refresh(self) -> None:
        def action() -> None:
            if not self._presets_sent:
                from app.agent.tools.tool_servers import PRESETS

                self.presets_ready.emit(list(PRESETS))
                self._presets_sent = True
            self._list()

        self._run(action, self.failed.emit)

    @Slot(int, object, object)
    def save(self, token: int, server: ToolServer, secrets: Mapping[str, str]) -> None:
        """Store the server (secret values to the keyring), then start it and list its tools."""
        from app.agent.tools.tool_servers import save_server

        stored: list[ToolServer] = []

        def action() -> None:  # save_server checks the command's quoting and the address
            stored.append(save_server(self._opened(), server, dict(secrets)))

        self._run(action, lambda message: self.save_failed.emit(token, message))
        if not stored:
            return
        saved = stored[0]
        self.saved.emit(token, saved)
        self._run(self._list, self.failed.emit)
        if saved.id is not None:
            self._check(saved)

    @Slot(int)
    def check(self, server_id: int) -> None:
        """Start the stored server as it is now and list its tools (seconds, on this thread)."""
        found: list[ToolServer] = []
        self._run(lambda: found.append(self._server(server_id)), self.failed.emit)
        if found:
            self._check(found[0])

    def _check(self, server: ToolServer) -> None:
        from app.agent.tools.tool_servers import ServerCheck, check_server

        assert server.id is not None
        self.checking.emit(server.id)
        try:
            result = check_server(server, timeout=CHECK_TIMEOUT)
        except Exception as exc:  # documented never to raise; a bug must not end the thread
            log.exception("checking a tool server failed")
            result = ServerCheck(ok=False, message=f"Hearth could not check this server: {exc}")
        self.checked.emit(server.id, result)

    @Slot(int, list)
    def approve(self, server_id: int, tools: list) -> None:
        from app.agent.tools.tool_servers import approve_tools

        def action() -> None:
            self.approved.emit(approve_tools(self._opened(), server_id, tools))
            self._list()

        self._run(action, self.failed.emit)

    @Slot(int, bool)
    def set_enabled(self, server_id: int, enabled: bool) -> None:
        from app.agent.tools.tool_servers import save_server

        def action() -> None:
            server = dataclasses.replace(self._server(server_id), enabled=enabled)
            self.switched.emit(save_server(self._opened(), server, {}))
            self._list()

        self._run(action, self.failed.emit)

    @Slot(int)
    def remove(self, server_id: int) -> None:
        """Forget the server, its keyring secrets and its "always allow" grants."""
        from app.agent.tools.tool_servers import remove_server

        def action() -> None:
            name = self._server(server_id).name
            self.removed.emit(server_id, name, remove_server(self._opened(), server_id))
            self._list()

        self._run(action, self.failed.emit)


class SecretRow:
    """One secret in the form: its name, its value (a password field) and a Remove button."""

    def __init__(self, name: str = "", stored: bool = False) -> None:
        self.stored = stored  # its value is in the keyring already: an empty field keeps it
        self.name = QLineEdit(name)
        self.name.setPlaceholderText("NAME, e.g. API_KEY")
        self.value = QLineEdit()
        self.value.setEchoMode(QLineEdit.EchoMode.Password)
        self.value.setPlaceholderText("unchanged (type to replace)" if stored else "value")
        self.remove = QPushButton("Remove")

    def number(self, index: int) -> None:
        """Distinct names for screen readers: "Secret 2 name", not five fields called "Name"."""
        self.name.setAccessibleName(f"Secret {index} name")
        self.value.setAccessibleName(f"Secret {index} value")
        self.remove.setAccessibleName(f"Remove secret {index}")

    def widgets(self) -> tuple[QWidget, ...]:
        return (self.name, self.value, self.remove)


class ServerEditor(QDialog):
    """The form for one server. Save goes to the service via the owner; the form stays open
    (and keeps everything typed) until the service says the server is stored."""

    def __init__(self, owner: ToolsDialog, existing: ToolServer | None = None) -> None:
        super().__init__(owner)
        self.owner = owner
        self.existing = existing
        self.token = 0
        self.secret_rows: list[SecretRow] = []
        self.setWindowTitle(f"Edit {existing.name}" if existing else "Add a tool server")
        self.resize(560, 0)

        self.preset = QComboBox()
        self.preset.setAccessibleName("Start from a well-known server")
        self.preset.addItem("Choose one (optional)", None)
        for preset in owner.presets:
            self.preset.addItem(preset.name, preset)
        self.about = QLabel()
        self.about.setWordWrap(True)
        self.about.setAccessibleDescription("About the chosen server")
        self.name = QLineEdit()
        self.name.setAccessibleName("Server name")
        self.local = QRadioButton("A &program on this computer")
        self.remote = QRadioButton("A server on the &internet")
        self.how = QButtonGroup(self)
        self.how.addButton(self.local)
        self.how.addButton(self.remote)
        self.local.setChecked(True)
        self.command = QLineEdit()
        self.command.setAccessibleName("Command line")
        self.command.setAccessibleDescription("The program and its arguments, as typed in a shell")
        self.command.setPlaceholderText("uvx mcp-server-time")
        self.url = QLineEdit()
        self.url.setAccessibleName("Address")
        self.url.setAccessibleDescription("The server's http or https address")
        self.url.setPlaceholderText("https://example.com/mcp")

        form = QFormLayout()
        form.addRow("Start &from", self.preset)
        form.addRow("", self.about)
        form.addRow("&Name", self.name)
        form.addRow("", self.local)
        form.addRow("Co&mmand line", self.command)
        form.addRow("", self.remote)
        form.addRow("A&ddress", self.url)

        secrets = QGroupBox("Secrets (optional)")
        secrets_layout = QVBoxLayout(secrets)
        explain = QLabel(
            "Some servers need a key or a password. A program gets each secret as an "
            "environment variable of that name; an address gets it as an HTTP header. "
            "The values are kept in your computer's password store, never in Hearth's files."
        )
        explain.setWordWrap(True)
        self.secrets_grid = QGridLayout()
        self.add_secret_button = QPushButton("Add a secre&t")
        self.add_secret_button.setAccessibleName("Add a secret")
        secrets_layout.addWidget(explain)
        secrets_layout.addLayout(self.secrets_grid)
        add_row = QHBoxLayout()
        add_row.addWidget(self.add_secret_button)
        add_row.addStretch(1)
        secrets_layout.addLayout(add_row)

        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setAccessibleDescription("What is missing or went wrong")
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setText("&Save")
        self.save_button.setAccessibleName("Save and check the server")

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(secrets)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.save_button.setDefault(True)  # once in the dialog, so that it is its main default

        self.preset.currentIndexChanged.connect(self._preset_chosen)
        self.local.toggled.connect(self._how_changed)
        self.add_secret_button.clicked.connect(lambda: self.add_secret_row(focus=True))
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)

        if existing is not None:
            self._fill(existing)
        self._how_changed()
        self._order_tabs()
        self.name.setFocus()

    # -- the form ----------------------------------------------------------------------------

    def choose_preset(self, name: str) -> None:
        index = self.preset.findText(name)
        if index >= 0:
            self.preset.setCurrentIndex(index)

    def _preset_chosen(self) -> None:
        preset: ServerPreset | None = self.preset.currentData()
        if preset is None:
            self.about.setText("")
            return
        self.about.setText(preset.about)
        preset_names = {p.name for p in self.owner.presets}
        if not self.name.text().strip() or self.name.text().strip() in preset_names:
            self.name.setText(preset.name)
        self.command.setText(preset.command)
        self.url.setText(preset.url)
        (self.remote if preset.url and not preset.command else self.local).setChecked(True)
        for row in list(self.secret_rows):  # the preset's secrets replace the empty rows
            if not row.name.text().strip() and not row.value.text():
                self.remove_secret_row(row)
        typed = {row.name.text().strip() for row in self.secret_rows}
        for name in preset.secret_names:
            if name not in typed:
                self.add_secret_row(name)
        self._how_changed()

    def _fill(self, server: ToolServer) -> None:
        self.name.setText(server.name)
        self.command.setText(server.command)
        self.url.setText(server.url)
        (self.remote if server.url else self.local).setChecked(True)
        for name in server.secret_names:
            self.add_secret_row(name, stored=True)

    @Slot()
    def _how_changed(self) -> None:
        local = self.local.isChecked()
        self.command.setEnabled(local)
        self.url.setEnabled(not local)

    def add_secret_row(self, name: str = "", stored: bool = False, focus: bool = False) -> None:
        row = SecretRow(name, stored)
        row.remove.clicked.connect(lambda: self.remove_secret_row(row))
        self.secret_rows.append(row)
        self._lay_out_secrets()
        if focus:
            (row.value if name else row.name).setFocus()

    def remove_secret_row(self, row: SecretRow) -> None:
        self.secret_rows.remove(row)
        for widget in row.widgets():
            self.secrets_grid.removeWidget(widget)
            widget.deleteLater()
        self._lay_out_secrets()
        self.add_secret_button.setFocus()

    def _lay_out_secrets(self) -> None:
        for index, row in enumerate(self.secret_rows):
            row.number(index + 1)
            for column, widget in enumerate(row.widgets()):
                self.secrets_grid.addWidget(widget, index, column)
        self._order_tabs()

    def _order_tabs(self) -> None:
        """Top to bottom, each secret's name, value and Remove in turn, then Save, Cancel."""
        chain: list[QWidget] = [self.preset, self.name, self.local, self.command, self.remote]
        chain += [self.url]
        for row in self.secret_rows:
            chain += row.widgets()
        chain += [self.add_secret_button, *self.buttons.buttons()]
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)

    def server(self) -> tuple[ToolServer | None, dict[str, str], str]:
        """The form as a server and its secrets (name → value, "" keeps a stored value),
        or None and what the user still has to fix."""
        name = self.name.text().strip()
        if not name:
            return None, {}, "Give the server a name."
        command = url = ""
        if self.local.isChecked():
            command = self.command.text().strip()
            if not command:
                return None, {}, "Enter the command line that starts the server."
        else:
            url = self.url.text().strip()
            if not url:
                return None, {}, "Enter the server's address."
            if not WEB_ADDRESS.match(url):
                return None, {}, "The address must start with http:// or https://."
        secrets: dict[str, str] = {}
        stored = set(self.existing.secret_names) if self.existing else set()
        for index, row in enumerate(self.secret_rows, start=1):
            secret_name, value = row.name.text().strip(), row.value.text()
            if not secret_name and not value:
                continue
            if not SECRET_NAME.fullmatch(secret_name):
                return (
                    None,
                    {},
                    (
                        f"Secret {index}: give it a name made of letters, digits, “_” or “-” "
                        "(the name the server expects, e.g. API_KEY)."
                    ),
                )
            if secret_name in secrets:
                return None, {}, f"The secret {secret_name} is there twice."
            if not value and secret_name not in stored:
                return None, {}, f"Enter the value of the secret {secret_name}."
            secrets[secret_name] = value
        existing = self.existing
        server = ToolServer(
            name=name,
            command=command,
            url=url,
            enabled=existing.enabled if existing else True,
            secret_names=tuple(secrets),
            approved=existing.approved if existing else {},
            id=existing.id if existing else None,
            secret_ref=existing.secret_ref if existing else "",
        )
        return server, secrets, ""

    # -- saving ------------------------------------------------------------------------------

    @Slot()
    def save(self) -> None:
        server, secrets, problem = self.server()
        if server is None:
            self.show_problem(problem)
            return
        self.token = self.owner.next_token()
        self.save_button.setEnabled(False)
        self.problem.setStyleSheet("")
        self.problem.setText("Saving…")
        self.owner.request_save.emit(self.token, server, secrets)

    def show_problem(self, message: str) -> None:
        self.save_button.setEnabled(True)
        self.problem.setStyleSheet(f"color: {_colour(self, ok=False)};")
        self.problem.setText("✗ " + message)

    def saved(self) -> None:
        for row in self.secret_rows:  # the values are in the keyring now
            row.value.clear()
        self.accept()


class ToolsDialog(QDialog):
    """The list of tool servers with Add / Edit / Check / Turn on or off / Remove, and the
    selected server's tools as the model will see them; talks to a ToolsService."""

    request_refresh = Signal()
    request_save = Signal(int, object, object)  # token, ToolServer, {secret name: value}
    request_check = Signal(int)  # server id
    request_approve = Signal(int, list)  # server id, [ToolView]
    request_enable = Signal(int, bool)  # server id, on or off
    request_remove = Signal(int)  # server id
    changed = Signal()  # something the agent's session uses changed: restart the servers

    def __init__(self, service: ToolsService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Tools")
        self.resize(720, 560)
        self._token = 0
        self.loaded = False
        self.servers: list[ToolServer] = []
        self.presets: list[ServerPreset] = []
        self.checks: dict[int, ServerCheck] = {}
        self.checking: set[int] = set()
        self.editor: ServerEditor | None = None
        self.confirm_box: QMessageBox | None = None
        self._select_id: int | None = None

        intro = QLabel(INTRO)
        intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setAccessibleName("Tool servers")
        self.add_button = QPushButton("&Add server…")
        self.add_button.setAccessibleName("Add a tool server")
        self.edit_button = QPushButton("&Edit…")
        self.edit_button.setAccessibleName("Edit the server")
        self.check_button = QPushButton("Chec&k")
        self.check_button.setAccessibleName("Check the server and show its tools")
        self.toggle_button = QPushButton("Turn &off")
        self.toggle_button.setAccessibleName("Turn the server off")
        self.remove_button = QPushButton("&Remove")
        self.remove_button.setAccessibleName("Remove the server")

        self.tools_heading = QLabel("Tools")
        self.tools_heading.setAccessibleDescription("Whose tools are shown below")
        self.own_words = QLabel(OWN_WORDS)
        self.own_words.setWordWrap(True)
        self.tools_view = QTextBrowser()
        self.tools_view.setAccessibleName("Tools of the selected server")
        self.tools_view.setOpenLinks(False)
        self.tools_view.setOpenExternalLinks(False)
        self.tools_view.setTabChangesFocus(True)
        self.approve_button = QPushButton("&Use these tools")
        self.approve_button.setAccessibleName("Use these tools")
        self.approve_button.setAccessibleDescription(
            "Lets Hearth offer the tools shown to the model; each call still asks you first"
        )
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setAccessibleDescription("What happened last")
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.close_button = self.buttons.button(QDialogButtonBox.StandardButton.Close)
        self.close_button.setText("&Close")

        side = QVBoxLayout()
        for button in (
            self.add_button,
            self.edit_button,
            self.check_button,
            self.toggle_button,
            self.remove_button,
        ):
            side.addWidget(button)
        side.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.list, 1)
        top.addLayout(side)
        approve_row = QHBoxLayout()
        approve_row.addWidget(self.approve_button)
        approve_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(top, 1)
        layout.addWidget(self.tools_heading)
        layout.addWidget(self.own_words)
        layout.addWidget(self.tools_view, 2)
        layout.addLayout(approve_row)
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)
        self.close_button.setDefault(True)  # once in the dialog, so that it is its main default
        chain: list[QWidget] = [
            self.list,
            self.add_button,
            self.edit_button,
            self.check_button,
            self.toggle_button,
            self.remove_button,
            self.tools_view,
            self.approve_button,
            self.close_button,
        ]
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)

        self.add_button.clicked.connect(lambda: self.open_editor())
        self.edit_button.clicked.connect(self.edit_selected)
        self.check_button.clicked.connect(self.check_selected)
        self.toggle_button.clicked.connect(self.toggle_selected)
        self.remove_button.clicked.connect(lambda: self.remove_selected())
        self.approve_button.clicked.connect(self.approve_selected)
        self.list.currentRowChanged.connect(lambda _row: self._selection_changed())
        self.buttons.rejected.connect(self.reject)

        # Queued: the service lives in another thread.
        self.request_refresh.connect(service.refresh)
        self.request_save.connect(service.save)
        self.request_check.connect(service.check)
        self.request_approve.connect(service.approve)
        self.request_enable.connect(service.set_enabled)
        self.request_remove.connect(service.remove)
        service.listed.connect(self._on_listed)
        service.presets_ready.connect(self._on_presets)
        service.saved.connect(self._on_saved)
        service.save_failed.connect(self._on_save_failed)
        service.checking.connect(self._on_checking)
        service.checked.connect(self._on_checked)
        service.approved.connect(self._on_approved)
        service.switched.connect(self._on_switched)
        service.removed.connect(self._on_removed)
        service.failed.connect(self._on_failed)
        self.tools_view.setPlainText("Loading your tool servers…")
        self._update_buttons()
        self.add_button.setFocus()
        self.request_refresh.emit()

    def next_token(self) -> int:
        self._token += 1
        return self._token

    def selected(self) -> ToolServer | None:
        row = self.list.currentRow()
        return self.servers[row] if 0 <= row < len(self.servers) else None

    def select(self, name: str) -> None:
        for row, server in enumerate(self.servers):
            if server.name == name:
                self.list.setCurrentRow(row)

    # -- actions -----------------------------------------------------------------------------

    def open_editor(self, existing: ToolServer | None = None) -> ServerEditor:
        self.editor = ServerEditor(self, existing)
        self.editor.open()
        return self.editor

    def edit_selected(self) -> None:
        server = self.selected()
        if server is not None:
            self.open_editor(server)

    def check_selected(self) -> None:
        server = self.selected()
        if server is None or server.id is None or server.id in self.checking:
            return
        self.checking.add(server.id)
        self._show_notice(f"Checking “{server.name}”: starting it and asking for its tools…")
        self._refresh_items()
        self.request_check.emit(server.id)

    def toggle_selected(self) -> None:
        server = self.selected()
        if server is not None and server.id is not None:
            self.toggle_button.setEnabled(False)  # until the answer
            self.request_enable.emit(server.id, not server.enabled)

    def remove_selected(self, confirm: bool = True) -> None:
        """Asks first (No is the default), in a window-modal box the event loop keeps serving."""
        server = self.selected()
        if server is None or server.id is None:
            return
        server_id = server.id
        if not confirm:
            self.request_remove.emit(server_id)
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Remove tool server",
            f"Remove “{server.name}”? Hearth forgets its settings, deletes its secrets from your "
            "password store and stops offering its tools.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.setEscapeButton(QMessageBox.StandardButton.No)

        def answered(_code: int) -> None:
            if box.clickedButton() is box.button(QMessageBox.StandardButton.Yes):
                self.request_remove.emit(server_id)
            self.confirm_box = None

        box.finished.connect(answered)
        self.confirm_box = box
        box.open()

    def pending_tools(self, server: ToolServer | None = None) -> list[ToolView]:
        """The selected server's tools from its last check that the user has not approved as
        they are now (new ones, and changed ones)."""
        server = server or self.selected()
        check = self.checks.get(server.id) if server and server.id is not None else None
        if check is None or not check.ok:
            return []
        return [tool for tool in check.tools if tool.status != "approved"]

    def approve_selected(self) -> None:
        server = self.selected()
        tools = self.pending_tools(server)
        if server is None or server.id is None or not tools:
            return
        self.approve_button.setEnabled(False)  # until the answer
        self.request_approve.emit(server.id, tools)

    # -- the service's answers ---------------------------------------------------------------

    @Slot(list)
    def _on_presets(self, presets: list) -> None:
        self.presets = list(presets)

    @Slot(list)
    def _on_listed(self, servers: list) -> None:
        current = self.selected()
        keep = self._select_id if self._select_id is not None else (current and current.id)
        self._select_id = None
        self.servers = list(servers)
        self.loaded = True
        ids = {server.id for server in self.servers}
        self.checks = {key: value for key, value in self.checks.items() if key in ids}
        self.list.blockSignals(True)
        self.list.clear()
        for server in self.servers:
            item = QListWidgetItem(self._item_text(server), self.list)
            item.setToolTip(server.command or server.url)  # the list shows it shortened
        row = next((i for i, s in enumerate(self.servers) if s.id == keep), 0)
        if self.servers:
            self.list.setCurrentRow(row)
        self.list.blockSignals(False)
        self._selection_changed()

    @Slot(int, object)
    def _on_saved(self, token: int, server: ToolServer) -> None:
        if self.editor is not None and token == self.editor.token:
            self.editor.saved()
        self._select_id = server.id
        self._show_notice(f"Saved “{server.name}”. Starting it to see its tools…")
        self.changed.emit()

    @Slot(int, str)
    def _on_save_failed(self, token: int, message: str) -> None:
        if self.editor is not None and token == self.editor.token and self.editor.isVisible():
            self.editor.show_problem(message)  # the form keeps everything the user typed
        else:
            self._show_notice(message, ok=False)

    @Slot(int)
    def _on_checking(self, server_id: int) -> None:
        self.checking.add(server_id)
        self._refresh_items()

    @Slot(int, object)
    def _on_checked(self, server_id: int, check: ServerCheck) -> None:
        self.checking.discard(server_id)
        self.checks[server_id] = check
        server = next((s for s in self.servers if s.id == server_id), None)
        name = server.name if server else "the server"
        if not check.ok:
            self._show_notice(f"“{name}” is not working: {check.message}", ok=False)
        elif self.pending_tools(server):
            self._show_notice(
                f"“{name}”: {check.message} Read what each tool does, then choose “Use these "
                "tools” to let Hearth offer them, or leave them off."
            )
        else:
            self._show_notice(f"“{name}”: {check.message}")
        self._refresh_items()

    @Slot(object)
    def _on_approved(self, server: ToolServer) -> None:
        self._replace(server)
        check = self.checks.get(server.id) if server.id is not None else None
        if check is not None and server.id is not None:
            tools = tuple(_with_status(tool, server.approved) for tool in check.tools)
            self.checks[server.id] = dataclasses.replace(check, tools=tools)
        where = "" if server.enabled else " once you turn the server on"
        self._show_notice(
            f"Hearth will offer the tools of “{server.name}” to the model from your next "
            f"message{where}. It still asks you before every call."
        )
        self._refresh_items()
        self.changed.emit()

    @Slot(object)
    def _on_switched(self, server: ToolServer) -> None:
        self._replace(server)
        if server.enabled:
            self._show_notice(
                f"“{server.name}” is on: its approved tools are offered from your next message."
            )
        else:
            self._show_notice(f"“{server.name}” is off: Hearth will not start it.")
        self._refresh_items()
        self.changed.emit()

    @Slot(int, str, str)
    def _on_removed(self, server_id: int, name: str, problem: str) -> None:
        self.checks.pop(server_id, None)
        self.checking.discard(server_id)
        if problem:
            self._show_notice(f"Removed “{name}”, but: {problem}", ok=False)
        else:
            self._show_notice(f"Removed “{name}”.")
        self.changed.emit()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._show_notice(message, ok=False)
        self._update_buttons()

    # -- showing -----------------------------------------------------------------------------

    def _replace(self, server: ToolServer) -> None:
        self.servers = [server if s.id == server.id else s for s in self.servers]

    def _item_text(self, server: ToolServer) -> str:
        return f"{server.describe()} · {'on' if server.enabled else 'off'} · {self._state(server)}"

    def _state(self, server: ToolServer) -> str:
        if server.id in self.checking:
            return "checking…"
        check = self.checks.get(server.id) if server.id is not None else None
        if check is None:
            count = len(server.approved)
            return f"{count} tool{'s' if count != 1 else ''} approved, not checked yet"
        if not check.ok:
            return "✗ not working"
        statuses = [tool.status for tool in check.tools]
        parts = []
        if statuses.count("changed"):
            parts.append(f"⚠ {statuses.count('changed')} changed, switched off")
        if statuses.count("new"):
            parts.append(f"{statuses.count('new')} new, waiting for you")
        if statuses.count("approved"):
            parts.append(f"✓ {statuses.count('approved')} in use")
        return ", ".join(parts) or "no tools"

    def _refresh_items(self) -> None:
        for row, server in enumerate(self.servers):
            item = self.list.item(row)
            if item is not None:
                item.setText(self._item_text(server))
        self._show_tools()
        self._update_buttons()

    def _selection_changed(self) -> None:
        self._show_tools()
        self._update_buttons()

    def _show_tools(self) -> None:
        server = self.selected()
        if server is None:
            self.tools_heading.setText("Tools")
            self.tools_view.setPlainText(
                "No tool servers yet. Choose “Add server…” to add one."
                if self.loaded
                else "Loading your tool servers…"
            )
            return
        self.tools_heading.setText(f"Tools of “{server.name}”")
        check = self.checks.get(server.id) if server.id is not None else None
        if server.id in self.checking:
            self.tools_view.setPlainText(
                "Starting the server and asking for its tools… (this can take a few seconds)"
            )
        elif check is None:
            approved = ", ".join(sorted(server.approved)) or "none"
            self.tools_view.setPlainText(
                "Not checked yet. Choose “Check” to start the server and see its tools as the "
                f"model will see them.\n\nTools you approved earlier: {approved}."
            )
        elif not check.ok:
            self.tools_view.setPlainText(
                f"The server is not working:\n{check.message}\n\nChoose “Edit…” to correct "
                "its command line or address, then it is checked again."
            )
        else:
            self.tools_view.setHtml(_tools_html(check.tools))

    def _show_notice(self, text: str, ok: bool = True) -> None:
        self.notice.setStyleSheet("" if ok else f"color: {_colour(self, ok=False)};")
        self.notice.setText(text if ok else "✗ " + text)

    def _update_buttons(self) -> None:
        server = self.selected()
        has = server is not None
        busy = server is not None and server.id is not None and server.id in self.checking
        self.edit_button.setEnabled(has)
        self.check_button.setEnabled(has and not busy)
        self.toggle_button.setEnabled(has)
        self.remove_button.setEnabled(has)
        self.approve_button.setEnabled(has and not busy and bool(self.pending_tools(server)))
        on = server is None or server.enabled
        self.toggle_button.setText("Turn &off" if on else "Turn o&n")
        self.toggle_button.setAccessibleName("Turn the server off" if on else "Turn the server on")


_STATUS_WORDS = {
    "approved": "✓ Approved: Hearth offers it to the model.",
    "new": "New: not used until you choose “Use these tools”.",
    "changed": (
        "⚠ Changed since you approved it: switched off until you look. Its description or "
        "its inputs are not what you approved; read it again."
    ),
}


def _tools_html(tools: Iterable[ToolView]) -> str:
    """The tools as rich text built by Hearth; every word from the server is escaped, so a
    description cannot add links, images or formatting."""
    tools = list(tools)
    if not tools:
        return "<p>The server offers no tools.</p>"
    parts = []
    for tool in tools:
        name = html.escape(tool.offered_as)
        own = html.escape(tool.name)
        status = html.escape(_STATUS_WORDS.get(tool.status, tool.status))
        description = html.escape(tool.description or "(the server gives no description)")
        description = description.replace("\n", "<br>")
        parts.append(
            f"<p><b>{name}</b> (the server calls it “{own}”)<br>"
            f"<b>{status}</b><br>"
            f"What the server says it does: “{description}”<br>"
            f"<i>{html.escape(tool.risk)}</i></p>"
        )
    return "".join(parts)


def _with_status(tool: ToolView, approved: Mapping[str, str]) -> ToolView:
    if approved.get(tool.name) == tool.fingerprint:
        return dataclasses.replace(tool, status="approved")
    return tool


def _colour(widget: QWidget, ok: bool) -> str:
    """Green or red that keeps WCAG AA contrast on a light and on a dark palette."""
    dark = widget.palette().color(QPalette.ColorRole.Window).lightness() < 128
    if dark:
        return "#81c995" if ok else "#f28b82"
    return "#1b7f3b" if ok else "#b3261e"
