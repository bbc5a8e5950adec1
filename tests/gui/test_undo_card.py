"""Undo on a tool card in the real window (issue #38, item 4): a change Hearth made without
asking offers Undo; a mouse click on it runs the reverse call on the worker thread through
the gate (the dialog asks: removing a file is destructive), and the card then says it was
undone. A scripted model, the real files connector and a real data folder; offscreen."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from tests.scripting import call
from tests.support.qt import open_window

WAIT = 60_000
SCREENSHOTS = Path(os.environ.get("HEARTH_SCREENSHOTS", "test-artifacts"))


def click_link(qtbot, view, prefix: str) -> None:
    """A real mouse click on the first link whose address starts with `prefix`."""
    block = view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref().startswith(prefix):
                cursor = QTextCursor(view.document())
                cursor.setPosition(fragment.position() + 1)
                view.ensureCursorVisible()
                point = view.cursorRect(cursor).center()
                qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
                return
            it += 1
        block = block.next()
    raise AssertionError(f"no {prefix} link in: {view.plain_text()}")


def test_undo_on_a_card_asks_removes_the_file_and_says_so(qtbot, tmp_path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    turns = [call("write_file", path="shopping.txt", content="eggs\nmilk\n"), "I wrote it."]
    window = open_window(qtbot, tmp_path, turns, folders=[folder], size=(900, 600))
    window.input.setPlainText("write my shopping list to shopping.txt: eggs, milk")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    view = window.chat_view
    shown = view.plain_text()
    assert "Create the file shopping.txt · allowed · done   Details   Undo" in shown, shown
    assert (folder / "shopping.txt").exists()
    if SCREENSHOTS.is_dir():
        view.grab().save(str(SCREENSHOTS / "card-undo-offered.png"))

    window.last_dialog = None
    click_link(qtbot, view, "hearth:undo/")
    # The reverse call passes the gate: removing a file always asks.
    qtbot.waitUntil(
        lambda: window.last_dialog is not None and window.last_dialog.isVisible(), timeout=WAIT
    )
    dialog = window.last_dialog
    assert dialog is not None
    assert dialog.request.tool == "remove_file"
    assert "Remove the file shopping.txt, which Hearth created" in dialog.request.preview
    if SCREENSHOTS.is_dir():
        dialog.grab().save(str(SCREENSHOTS / "confirm-undo.png"))
    qtbot.mouseClick(dialog.allow_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Undone:" in view.plain_text(), timeout=WAIT)
    shown = view.plain_text()
    assert "Undone: the file Hearth created was removed." in shown, shown
    assert "Undo\n" not in shown and not shown.rstrip().endswith("Undo")  # offered no more
    assert not (folder / "shopping.txt").exists()
    if SCREENSHOTS.is_dir():
        view.grab().save(str(SCREENSHOTS / "card-undone.png"))
    # Reopened from the store (another conversation, then back): the card still says so.
    conversations = window.conversations
    qtbot.waitUntil(lambda: conversations.current_id is not None, timeout=WAIT)
    first = conversations.current_id
    qtbot.waitUntil(lambda: conversations.sidebar.new_button.isEnabled(), timeout=WAIT)
    window.new_conversation()  # Ctrl+N (the dialog that was open took the window's focus)
    qtbot.waitUntil(lambda: view.plain_text() == "", timeout=WAIT)
    conversations._request_open(first)
    qtbot.waitUntil(lambda: "shopping.txt" in view.plain_text(), timeout=WAIT)
    reopened = view.plain_text()
    assert "Undone: the file Hearth created was removed." in reopened, reopened
    assert "Details   Undo" not in reopened


def test_a_declined_undo_says_so_and_offers_undo_again(qtbot, tmp_path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    turns = [call("write_file", path="todo.md", content="- call Ann\n"), "Done."]
    window = open_window(qtbot, tmp_path, turns, folders=[folder], size=(900, 600))
    window.input.setPlainText("note: call Ann, in todo.md")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    view = window.chat_view
    window.last_dialog = None
    click_link(qtbot, view, "hearth:undo/")
    qtbot.waitUntil(
        lambda: window.last_dialog is not None and window.last_dialog.isVisible(), timeout=WAIT
    )
    assert window.last_dialog is not None
    qtbot.mouseClick(window.last_dialog.deny_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Not undone" in view.plain_text(), timeout=WAIT)
    assert "Not undone: you said no." in view.plain_text()
    assert "Details   Undo" in view.plain_text()  # still offered
    assert (folder / "todo.md").read_text() == "- call Ann\n"
