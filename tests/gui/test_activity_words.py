"""View → Activity in the chat's words, results too (issue #38, item 4): a long result (a
folder listing, a calendar week) was kept in the log as JSON cut after 300 characters, which
could never be read back, so the Activity table showed it raw; an undo is listed like any
call. The real window, a scripted model, the real files connector; offscreen."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from app.agent.turn.loop import _preview
from app.ui.activity_dialog import row_in_words
from tests.gui.test_undo_card import SCREENSHOTS, WAIT, click_link
from tests.scripting import call
from tests.support.qt import open_window

RAW = ('{"', '"name"', '"kind"', "null", "true", "false", "write_file", "list_folder")


def test_activity_shows_long_results_and_undos_in_words(qtbot, tmp_path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for month in range(1, 13):
        (folder / f"invoice-2026-{month:02}.txt").write_text("paid\n")
    turns = [
        call("list_folder", path="."),
        call("write_file", path="summary.txt", content="12 invoices, all paid\n"),
        "Done.",
    ]
    window = open_window(qtbot, tmp_path, turns, folders=[folder], size=(900, 600))
    window.input.setPlainText("list my invoices and write a summary to summary.txt")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    # File names are other people's words: after the listing, the write asks.
    qtbot.waitUntil(
        lambda: window.last_dialog is not None and window.last_dialog.isVisible(), timeout=WAIT
    )
    assert window.last_dialog is not None
    qtbot.mouseClick(window.last_dialog.allow_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    window.last_dialog = None
    click_link(qtbot, window.chat_view, "hearth:undo/")
    qtbot.waitUntil(
        lambda: window.last_dialog is not None and window.last_dialog.isVisible(), timeout=WAIT
    )
    assert window.last_dialog is not None
    qtbot.mouseClick(window.last_dialog.allow_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Undone:" in window.chat_view.plain_text(), timeout=WAIT)

    window.request_activity.emit()
    qtbot.waitUntil(lambda: window.activity_dialog is not None, timeout=WAIT)
    assert window.activity_dialog is not None
    table = window.activity_dialog.table
    rows = [
        [table.item(r, c).text() for c in range(table.columnCount())]
        for r in range(table.rowCount())
    ]
    assert [(r[1], r[2]) for r in rows] == [  # newest first
        ("Remove the file summary.txt Hearth created", "asked you, you approved · done"),
        ("Create the file summary.txt", "asked you, you approved · done"),
        ("List the folder “.”", "allowed · done"),
    ]
    listing = rows[2][4]
    assert listing.startswith("• name: invoice-2026-01.txt, kind: file, size: 5"), listing
    assert rows[1][4].startswith("Path: summary.txt\nBytes written: 22"), rows[1][4]
    assert rows[0][3].startswith("File: summary.txt\nOnly if it still holds: 12 invoices")
    shown = " ".join(" ".join(r) for r in rows)
    for code in RAW:
        assert code not in shown, (code, rows)
    if SCREENSHOTS.is_dir():
        window.activity_dialog.grab().save(str(SCREENSHOTS / "activity-with-undo.png"))


def test_a_result_the_log_kept_cut_as_json_is_read_back_in_words() -> None:
    """Rows written before the log kept words: what survived the cut is shown in words."""
    events = [
        {"event_id": f"home/{n}", "title": f"Lesson {n}", "all_day": False, "location": None}
        for n in range(8)
    ]
    row = {
        "at": "2026-12-01 10:00:00",
        "tool": "list_events",
        "decision": "allow",
        "answer": None,
        "status": "ok",
        "arguments": json.dumps({"start": "2026-12-01T00:00", "end": "2026-12-08T00:00"}),
        "reasons": "[]",
        "result": _preview(events),
    }
    result = row_in_words(row)[4]
    assert result.startswith("• event_id: home/0, title: Lesson 0, all_day: no, location: (none)")
    assert result.endswith("• …") and '{"' not in result, result
    page = {"path": "notes.txt", "text": "Plant the tulips.\n" * 40, "truncated": False}
    text = row_in_words({**row, "tool": "read_file", "result": _preview(page)})[4]
    assert text.startswith("Path: notes.txt\nText: Plant the tulips.\nPlant"), text
    assert text.endswith("…") and '"' not in text, text
