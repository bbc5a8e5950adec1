"""Settings → Folders…, Settings → Privacy… and reminder notifications in the real window
(scripted model, real SQLite, real Qt widgets, offscreen: no system tray, so reminders show
in the window). The store work runs in the store thread, never in the GUI thread."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QThread
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox
from sqlalchemy import update

from app.store.database import Database
from app.store.folders import FolderStore
from app.store.memories import search_memories
from app.store.models import ReminderRecord
from app.store.reminders import ReminderStore
from app.ui.main_window import MainWindow
from app.ui.reminders import choose_channel
from tests.scripting import call
from tests.support.qt import gui_thread, menu_action, open_window

WAIT = 60_000
PHRASE = "periwinkle-xylophone-4417"


def settings_action(window: MainWindow, text: str) -> QAction:
    return menu_action(window, text)


def send(qtbot, window: MainWindow, text: str) -> None:
    qtbot.waitUntil(lambda: not window.busy and window.send_button.isEnabled(), timeout=WAIT)
    window.input.setPlainText(text)
    window.send()
    assert window.busy
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)


def test_folders_add_remove_and_the_agent_follows(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "Documents"
    folder.mkdir()
    (folder / "notes.txt").write_text("shopping list")
    turns = [
        call("list_folder", path=str(folder)),
        "One file.",
        call("list_folder", path=str(folder)),
        "I cannot.",
    ]
    window = open_window(qtbot, tmp_path, turns)
    settings_action(window, "&Folders…").trigger()
    dialog = window.data_panels.folders_dialog
    assert dialog is not None
    threads: list[QThread] = []
    assert window.data_panels.folders_service is not None
    window.data_panels.folders_service.listed.connect(
        lambda *_: threads.append(QThread.currentThread()), Qt.ConnectionType.DirectConnection
    )
    qtbot.waitUntil(dialog.add_button.isEnabled, timeout=WAIT)
    assert dialog.list.count() == 0 and "No folders yet" in dialog.notice.text()

    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    dialog.add_button.click()
    qtbot.waitUntil(lambda: dialog.stored == [str(folder.resolve())], timeout=WAIT)
    assert dialog.list.item(0).text() == str(folder.resolve())
    assert "Saved" in dialog.notice.text()
    assert window.worker.folders_changed.is_set()
    assert threads and all(t is not gui_thread() for t in threads)
    database = Database.open(tmp_path / "data")
    assert FolderStore(database).saved() == [folder.resolve()]
    database.close()

    send(qtbot, window, "What is in my Documents?")
    view = window.chat_view.plain_text()
    assert "List the folder" in view and "allowed · done" in view, view
    assert folder.resolve() in window.worker.folders
    assert not window.worker.folders_changed.is_set()

    dialog.list.setCurrentRow(0)
    assert dialog.remove_button.isEnabled()
    dialog.remove_button.click()
    qtbot.waitUntil(lambda: dialog.stored == [], timeout=WAIT)
    send(qtbot, window, "And now?")
    assert window.worker.folders == []
    # No folder: no file tools; the model's call is answered "Unknown tool" and nothing runs.
    assert window.worker.agent is not None
    assert "list_folder" not in window.worker.agent.registry.names()
    assert window.chat_view.plain_text().count("List the folder") == 1
    dialog.close()
    window.close()


def test_command_line_folders_are_shown_but_not_removable(qtbot, tmp_path: Path) -> None:
    folder = tmp_path / "cli"
    folder.mkdir()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Hi."]}))
    (tmp_path / "data").mkdir()
    window = MainWindow(script, data_dir=tmp_path / "data", folders=[folder.resolve()])
    qtbot.addWidget(window)
    dialog = window.data_panels.open_folders()
    qtbot.waitUntil(dialog.add_button.isEnabled, timeout=WAIT)
    assert dialog.list.count() == 1 and "--allow-folder" in dialog.list.item(0).text()
    dialog.list.setCurrentRow(0)
    assert not dialog.remove_button.isEnabled()
    dialog.close()
    window.close()


def test_privacy_panel_explains_and_deletes_for_real(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns = [call("remember", fact=f"My locker code word is {PHRASE}"), f"Noted: {PHRASE}."]
    window = open_window(qtbot, tmp_path, turns)
    send(qtbot, window, f"Remember that my locker code word is {PHRASE}")
    data = tmp_path / "data"
    db_file, wal = data / "hearth.db", data / "hearth.db-wal"

    def on_disk() -> bytes:
        return b"".join(p.read_bytes() for p in (db_file, wal) if p.exists())

    qtbot.waitUntil(lambda: PHRASE.encode() in on_disk(), timeout=WAIT)  # saved, or no proof

    settings_action(window, "P&rivacy…").trigger()
    dialog = window.data_panels.privacy_dialog
    assert dialog is not None
    text = dialog.text.text()
    cache = str(Path(os.environ["HEARTH_CACHE_DIR"]) / "prompt-prefixes")
    for expected in (str(data), "hearth.db", "logs", "models", "keyring", "no telemetry", cache):
        assert expected in text, expected

    # It asks first; "No" changes nothing.
    asked: list[str] = []

    def answer(result):
        def question(parent, title, message, *args):
            asked.append(message)
            return result

        return question

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    dialog.delete_button.click()
    assert asked and "cannot be undone" in asked[0]
    assert dialog.notice.text() == ""

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    dialog.delete_button.click()
    qtbot.waitUntil(lambda: dialog.notice.text().startswith("Deleted"), timeout=WAIT)
    assert "1 memory" in dialog.notice.text()
    assert PHRASE.encode() not in on_disk()
    database = Database.open(data)
    assert search_memories(database, PHRASE) == []
    database.close()
    dialog.close()
    window.close()


def test_a_reminder_missed_while_closed_shows_at_start_and_a_new_one_when_due(
    qtbot, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    database = Database.open(data)
    store = ReminderStore(database)
    long_ago = datetime.now(UTC) - timedelta(days=2)
    missed = store.add("Take the bins out", long_ago + timedelta(hours=1), now=long_ago)

    in_an_hour = (datetime.now() + timedelta(hours=1)).replace(microsecond=0).isoformat()
    turns = [call("set_reminder", text="Call the bakery", at=in_an_hour), "I will remind you."]
    window = open_window(qtbot, tmp_path, turns)
    # The missed one appears without any action, inside the window (no tray offscreen).
    qtbot.waitUntil(
        lambda: "Reminder: Take the bins out" in window.chat_view.plain_text(), timeout=WAIT
    )
    assert "(was due" in window.chat_view.plain_text()
    assert window.data_panels.notifier is not None
    assert window.data_panels.notifier.channel() == "window"
    qtbot.waitUntil(lambda: store.due() == [], timeout=WAIT)  # marked delivered
    assert store.pending() == []

    send(qtbot, window, "Remind me in an hour to call the bakery")
    assert "Remind you on" in window.chat_view.plain_text()
    [bakery] = store.pending()
    assert bakery.text == "Call the bakery" and bakery.id != missed.id
    assert window.data_panels.notifier is not None
    window.data_panels.notifier.check_now()
    qtbot.wait(200)
    assert "Reminder: Call the bakery" not in window.chat_view.plain_text()  # not due yet

    # Time passes (the row's time moves to now) and the next check shows it once.
    with database.session() as session, session.begin():
        session.execute(
            update(ReminderRecord)
            .where(ReminderRecord.id == bakery.id)
            .values(due=datetime.now(UTC).replace(tzinfo=None) - timedelta(seconds=1))
        )
    assert window.data_panels.notifier is not None
    window.data_panels.notifier.check_now()
    qtbot.waitUntil(
        lambda: "Reminder: Call the bakery" in window.chat_view.plain_text(), timeout=WAIT
    )
    qtbot.waitUntil(lambda: store.pending() == [], timeout=WAIT)
    assert window.data_panels.notifier is not None
    window.data_panels.notifier.check_now()
    qtbot.wait(200)
    assert window.chat_view.plain_text().count("Reminder: Call the bakery") == 1
    database.close()
    window.close()


def test_tray_is_used_only_when_it_can_show_messages() -> None:
    assert choose_channel(True, True, True) == "tray"
    assert choose_channel(False, True, True) == "window"
    assert choose_channel(True, False, True) == "window"
    assert choose_channel(True, True, False) == "window"


def test_privacy_panel_opens_from_the_window(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, ["Hi."])
    assert isinstance(window.data_panels.open_privacy(), QDialog)
    window.close()


def test_worker_folders_merge_command_line_and_stored_and_skip_missing(tmp_path: Path) -> None:
    from app.ui.worker import ModelWorker

    cli, kept, gone = (tmp_path / name for name in ("cli", "kept", "gone"))
    for folder in (cli, kept, gone):
        folder.mkdir()
    database = Database.open(tmp_path)
    store = FolderStore(database)
    for folder in (kept, gone, cli):
        store.add(folder)
    gone.rmdir()  # an unplugged disk: left out rather than breaking every turn
    worker = ModelWorker(data_dir=tmp_path, folders=[cli.resolve()])
    worker.folders_changed.set()
    worker._load_folders(database)
    assert worker.folders == [cli.resolve(), kept.resolve()]
    assert worker.command_line_folders == [cli.resolve()]
    assert not worker.folders_changed.is_set()
    database.close()
