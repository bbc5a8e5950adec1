"""The GUI thread never waits on the model, the network, the disk or the keyring.

A Python audit hook (``sys.addaudithook``) records every ``open``, ``sqlite3.connect``,
``socket.connect``, ``socket.getaddrinfo`` and ``os.mkdir`` raised on the main (GUI) thread
while ``_RECORDING`` is on; the test drives the window's dialogs as a user would and expects
none. The OS keyring is a real Secret Service reached over D-Bus, so a keyring read on the
GUI thread shows up as a ``socket.connect``.

What the hook cannot see, and what it ignores:
- Qt's own file access happens in C++ and raises no Python audit event.
- Python imports do raise ``open`` events: the modules are imported up front, and events whose
  path ends in .py/.pyc/.so are ignored anyway (a lazy ``import`` in a slot is not I/O we own).
- ``open`` of an integer file descriptor is not a new file (``os.fdopen``, pipes).
Audit hooks cannot be removed, so the hook is installed once and checks a module-level flag.
"""

from __future__ import annotations

import json
import sys
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QWizard

# Imported up front so that the actions below import nothing new (see the module docstring).
import app.agent.services.model_choice
import app.llm.catalog
import app.llm.download
import app.llm.embedded
import app.llm.remote
import app.store.database
import app.store.folders
import app.store.privacy
import app.store.settings
import app.ui.main_window
import connectors.credentials  # noqa: F401
from app.llm.catalog import load_catalog
from app.store.database import Database
from app.ui.main_window import MainWindow
from tests.llm_server import free_port
from tests.support.secret_service import SecretService

WAIT = 60_000
WATCHED = frozenset({"open", "sqlite3.connect", "socket.connect", "socket.getaddrinfo", "os.mkdir"})
IGNORED_SUFFIXES = (".py", ".pyc", ".so")

_RECORDING = False
_EVENTS: list[tuple[str, str, str]] = []  # event, its first argument, where it was raised
_INSTALLED = False
_GUI_THREAD = threading.main_thread().ident


def _hook(event: str, args: tuple[object, ...]) -> None:
    """Cheap when off: the hook sees every audit event of the whole test run."""
    if not _RECORDING or event not in WATCHED or threading.get_ident() != _GUI_THREAD:
        return
    target = args[0] if args else None
    if event == "open":
        if isinstance(target, int):
            return
        if str(target).endswith(IGNORED_SUFFIXES):
            return
    where = "".join(traceback.format_stack(limit=14)[:-1])
    _EVENTS.append((event, repr(target), where))


@pytest.fixture
def gui_io() -> Iterator[list[tuple[str, str, str]]]:
    """The events recorded while the test has recording on (see record())."""
    global _INSTALLED
    if not _INSTALLED:
        sys.addaudithook(_hook)
        _INSTALLED = True
    _EVENTS.clear()
    yield _EVENTS
    _stop()
    _EVENTS.clear()


def _start() -> None:
    global _RECORDING
    _RECORDING = True


def _stop() -> None:
    global _RECORDING
    _RECORDING = False


def _report(events: list[tuple[str, str, str]]) -> str:
    return "\n\n".join(
        f"{event} {target} on the GUI thread:\n{where}" for event, target, where in events
    )


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    """A window on a replay script (no model to load), its database migrated as at start."""
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Scripted hello."] * 3}))
    data = tmp_path / "data"
    data.mkdir()
    Database.open(data).close()
    win = MainWindow(script, data_dir=data)
    win.model_menu.catalog = load_catalog()  # as the start-up does, before the window shows
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.model_ready and not win.conversations.opening, timeout=WAIT)
    yield win
    _stop()
    win.close()


def test_the_hook_sees_disk_and_database_access_on_the_gui_thread_only(
    gui_io: list[tuple[str, str, str]], tmp_path: Path
) -> None:
    """Without this, an empty record could mean a hook that sees nothing."""
    _start()
    (tmp_path / "note.txt").write_text("x")
    Database.open(tmp_path, upgrade=False).close()  # a connection only when used: use it
    database = Database.open(tmp_path)
    database.close()
    worker = threading.Thread(target=lambda: (tmp_path / "other.txt").write_text("y"))
    worker.start()
    worker.join()
    _stop()
    kinds = [event for event, _target, _where in gui_io]
    assert "open" in kinds and "sqlite3.connect" in kinds
    assert not any("other.txt" in target for _event, target, _where in gui_io)


def test_dialogs_never_touch_the_disk_network_or_keyring_on_the_gui_thread(
    qtbot,
    tmp_path: Path,
    window: MainWindow,
    secret_service: SecretService,
    gui_io: list[tuple[str, str, str]],
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    dead_server = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens: refused at once
    _start()

    # A turn, then the sidebar: New and a search.
    window.input.setPlainText("Hello!")
    window.send()
    sidebar = window.conversations.sidebar
    qtbot.waitUntil(lambda: not window.busy and not sidebar.busy, timeout=WAIT)  # New enabled
    qtbot.waitUntil(lambda: not window.conversations.opening, timeout=WAIT)
    sidebar.new_button.click()
    qtbot.waitUntil(lambda: not window.conversations.opening, timeout=WAIT)
    with qtbot.waitSignal(window.conversations.service.found, timeout=WAIT):
        qtbot.keyClicks(sidebar.search_box, "hello")

    # Settings → Folders…: the list, then Add.
    folders = window.data_panels.open_folders()
    qtbot.waitUntil(folders.add_button.isEnabled, timeout=WAIT)
    folders.add_folder(str(folder))
    qtbot.waitUntil(lambda: folders.stored == [str(folder)], timeout=WAIT)
    folders.reject()

    # Settings → Privacy…: delete everything.
    privacy = window.data_panels.open_privacy()
    assert privacy.delete_all(confirm=False)
    qtbot.waitUntil(lambda: privacy.notice.text().startswith("Deleted"), timeout=WAIT)
    privacy.reject()

    # Settings → Models…: the machine survey, then "Use this model" on the built-in one.
    models = window.model_menu.open_models()
    manager = window.model_menu.manager
    assert manager is not None
    qtbot.waitUntil(lambda: manager.survey is not None, timeout=WAIT)
    builtin = next(entry for entry in manager.catalog if entry.builtin)
    models.select(builtin.id)
    with qtbot.waitSignal(manager.model_file, timeout=WAIT):
        models.use_selected()
    qtbot.waitUntil(lambda: not window.status_label.text().startswith("Loading"), timeout=WAIT)
    models.reject()

    # Settings → First-run guide…: add a folder, then skip.
    wizard = window.model_menu.open_first_run()
    with qtbot.waitSignal(manager.folder_added, timeout=WAIT):
        wizard.extras.add_folder(folder)
    with qtbot.waitSignal(manager.first_run_saved, timeout=WAIT):
        wizard.button(QWizard.WizardButton.CancelButton).click()

    # Settings → Accounts…, View → Activity and Permissions.
    accounts = window.open_accounts()
    assert window.accounts_service is not None
    with qtbot.waitSignal(window.accounts_service.listed, timeout=WAIT):
        accounts.request_refresh.emit()
    accounts.reject()
    window.request_activity.emit()
    qtbot.waitUntil(lambda: window.activity_dialog is not None, timeout=WAIT)
    window.request_permissions.emit()
    qtbot.waitUntil(lambda: window.permissions_dialog is not None, timeout=WAIT)

    # Settings → Model…: open, Test connection, Save with a key (to the keyring), reopen.
    window.model_settings.action.trigger()
    dialog = window.model_settings.dialog
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.ready, timeout=WAIT)
    dialog.remote_radio.setChecked(True)
    dialog.url_edit.setText(dead_server)
    dialog.key_edit.setText("sk-audit-test")
    dialog.test_button.click()
    qtbot.waitUntil(lambda: dialog.test_label.text().startswith("✗"), timeout=WAIT)
    with qtbot.waitSignal(dialog.saved, timeout=WAIT):
        dialog.save_button.click()
    qtbot.waitUntil(lambda: not window.status_label.text().startswith("Connecting"), timeout=WAIT)
    again = window.model_settings.open()
    qtbot.waitUntil(lambda: again.ready, timeout=WAIT)
    assert again.has_stored_key and again.url_edit.text() == dead_server
    again.test_button.click()  # the stored key is read for the test, off the GUI thread
    qtbot.waitUntil(lambda: again.test_label.text().startswith("✗"), timeout=WAIT)
    again.reject()
    _stop()

    assert secret_service.backend.get_password(
        "Hearth", app.agent.services.model_choice.API_KEY_NAME
    )
    assert not gui_io, _report(gui_io)
