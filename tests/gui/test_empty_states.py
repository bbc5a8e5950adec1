"""Empty places say so, and nothing contradicts itself (issue #19, audit §1.12): Activity with
no calls, Permissions with none granted, Models with nothing downloading."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.ui.activity_dialog import ActivityDialog
from app.ui.permissions_dialog import PermissionsDialog

ROW = {
    "at": "2026-12-01 10:00",
    "tool": "read_file",
    "decision": "allow",
    "answer": None,
    "status": "ok",
    "arguments": "{}",
}


def test_activity_says_nothing_happened_yet(qtbot) -> None:
    empty = ActivityDialog([])
    qtbot.addWidget(empty)
    empty.show()
    assert empty.empty.isVisible() and not empty.table.isVisible()
    full = ActivityDialog([ROW])
    qtbot.addWidget(full)
    full.show()
    assert full.table.isVisible() and not full.empty.isVisible()


def test_permissions_explain_the_list_only_when_there_is_one(qtbot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    dialog = PermissionsDialog(lambda _id: None, host)
    dialog.show()
    dialog.show_grants([])
    assert dialog.empty.isVisible() and not dialog.intro.isVisible()
    dialog.show_grants([{"id": 1, "text": "reading web pages on example.org", "created": "today"}])
    assert dialog.intro.isVisible() and not dialog.empty.isVisible()


def test_an_empty_conversation_says_what_to_ask(qtbot, tmp_path) -> None:
    import json

    from app.ui.main_window import MainWindow

    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": []}))
    window = MainWindow(script)
    qtbot.addWidget(window)
    assert window.chat_view.document().isEmpty()
    assert "calendar" in window.chat_view.placeholderText()
    window.close()
