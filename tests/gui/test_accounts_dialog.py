"""Settings → Accounts… in the real window: presets, Test connection against a real Radicale
(in the accounts worker thread), Save to the database + a real Secret Service, the agent using
the stored account, and Remove. Afterwards no file the app wrote holds the password."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QThread

from app.agent.services.accounts import load_accounts
from app.logging_setup import configure_logging
from app.store.accounts import AccountStore
from app.store.database import Database
from app.ui.accounts_dialog import AccountEditor, AccountsDialog
from app.ui.main_window import MainWindow
from connectors.credentials import SERVICE
from tests.scripting import call
from tests.support.qt import gui_thread, menu_action, open_window
from tests.support.radicale_server import (
    RadicaleServer,
    running_radicale_with_calendar,
)
from tests.support.secret_service import SecretService

PASSWORD = "alice-Secret-pw-7731"


@pytest.fixture
def radicale(tmp_path: Path) -> Iterator[RadicaleServer]:
    with running_radicale_with_calendar(tmp_path / "radicale", "alice", PASSWORD) as server:
        yield server


@pytest.fixture
def logs(tmp_path: Path) -> Iterator[Path]:
    """The app's real log file, at DEBUG, for the scan at the end."""
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    root = logging.getLogger()
    before = list(root.handlers), root.level
    path = configure_logging(data, logging.DEBUG)
    yield path.parent
    for handler in root.handlers[:]:
        if handler not in before[0]:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(before[1])


def open_accounts(qtbot, window: MainWindow) -> AccountsDialog:
    menu_action(window, "&Accounts…").trigger()
    dialog = window.accounts_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible, timeout=5_000)
    return dialog


def run_test(qtbot, editor: AccountEditor) -> str:
    editor.test_button.click()
    assert editor.test_result.text().startswith("Testing")  # answered later, by the worker thread
    qtbot.waitUntil(lambda: not editor.testing, timeout=30_000)
    return editor.test_result.text()


def files_containing(root: Path, secret: str) -> list[Path]:
    needles = [secret.encode(), secret.encode("utf-16-le")]
    return [p for p in root.rglob("*") if p.is_file() and any(n in p.read_bytes() for n in needles)]


def test_calendar_account_test_save_use_remove(
    qtbot,
    tmp_path: Path,
    secret_service: SecretService,
    radicale: RadicaleServer,
    logs: Path,
) -> None:
    turns = [
        call("list_events", start="2030-01-01T00:00", end="2030-01-02T00:00"),
        "Your day is free.",
    ]
    window = open_window(qtbot, tmp_path, turns)
    dialog = open_accounts(qtbot, window)
    # The network test must not run on the GUI thread: record the thread that answers.
    threads: list[QThread] = []
    assert window.accounts_service is not None
    window.accounts_service.tested.connect(
        lambda *_: threads.append(QThread.currentThread()), Qt.ConnectionType.DirectConnection
    )
    qtbot.waitUntil(lambda: dialog.add_calendar.isEnabled(), timeout=30_000)
    dialog.add_calendar.click()
    editor = dialog.editor
    assert editor is not None and editor.kind == "calendar"

    # A preset fills the address and explains the app password.
    editor.choose_preset("icloud")
    assert editor.calendar_url.text() == "https://caldav.icloud.com/"
    assert "app password" in editor.hint.text() and "App-Specific" in editor.hint.text()
    editor.choose_preset("nextcloud")
    editor.server_host.setText("cloud.example.org")
    assert editor.calendar_url.text() == "https://cloud.example.org/remote.php/dav"

    # Our own server: "Other", the Radicale address, a wrong password first.
    editor.choose_preset("other")
    editor.name.setText("Family calendar")
    editor.calendar_url.setText(radicale.url)
    editor.username.setText("alice")
    editor.password.setText("not-the-password")
    result = run_test(qtbot, editor)
    assert result.startswith("✗")
    assert "refused" in result.lower() or "password" in result.lower()
    assert "not-the-password" not in result

    editor.password.setText(PASSWORD)
    result = run_test(qtbot, editor)
    assert result.startswith("✓ Connected"), result
    assert "Family" in result
    gui = gui_thread()
    assert threads and all(t is not gui for t in threads)
    assert all(t is window.accounts_thread for t in threads)

    editor.buttons.button(editor.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: len(dialog.accounts) == 1, timeout=10_000)
    assert "Saved" in dialog.notice.text()
    account = dialog.accounts[0]
    assert account.calendar_url == radicale.url and account.username == "alice"
    assert secret_service.backend.get_password(SERVICE, account.secret_ref) == PASSWORD

    # The agent uses it: the password comes from the keyring, list_events reaches Radicale.
    assert window.worker.accounts_changed.is_set()
    window.input.setPlainText("What's on tomorrow?")
    window.send()
    qtbot.waitUntil(lambda: not window.busy, timeout=30_000)
    view = window.chat_view.plain_text()
    assert "Look at your calendar" in view and "allowed · done" in view, view
    assert window.worker.agent is not None
    assert "list_events" in window.worker.agent.registry.names()

    # Nothing the app wrote holds the password: database (+WAL), logs, settings folders.
    data = tmp_path / "data"
    assert (data / "hearth.db").exists() and any(logs.iterdir())
    assert files_containing(data, PASSWORD) == []
    assert files_containing(secret_service.home / ".config", PASSWORD) == []

    # Remove: the row and the keyring entry go.
    dialog.list.setCurrentRow(0)
    dialog.remove_selected(confirm=False)
    qtbot.waitUntil(lambda: dialog.accounts == [], timeout=10_000)
    assert secret_service.backend.get_password(SERVICE, account.secret_ref) is None
    database = Database.open(data)
    assert AccountStore(database).saved() == []
    assert load_accounts(database).calendar is None
    database.close()
    window.close()


def test_mail_preset_and_a_clear_failure(
    qtbot, tmp_path: Path, secret_service: SecretService
) -> None:
    """Gmail fills the servers and asks for an app password; a closed port fails plainly."""
    window = open_window(qtbot, tmp_path, ["Hello."])
    dialog = open_accounts(qtbot, window)
    qtbot.waitUntil(lambda: dialog.add_mail.isEnabled(), timeout=30_000)
    dialog.add_mail.click()
    editor = dialog.editor
    assert editor is not None
    editor.choose_preset("gmail")
    assert editor.imap_host.text() == "imap.gmail.com" and editor.imap_port.value() == 993
    assert editor.smtp_host.text() == "smtp.gmail.com" and editor.smtp_port.value() == 465
    assert not editor.save_sent.isChecked()
    assert "needs an app password" in editor.hint.text()
    editor.choose_preset("other")
    editor.email.setText("me@example.test")
    from tests.support.radicale_server import free_port

    editor.imap_host.setText("127.0.0.1")
    editor.imap_port.setValue(free_port())  # nothing listens there
    editor.smtp_host.setText("127.0.0.1")
    editor.password.setText("whatever-pw")
    result = run_test(qtbot, editor)
    assert result.startswith("✗") and "connection was refused" in result, result
    assert "Check the server name and port" in result
    window.close()
