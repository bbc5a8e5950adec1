"""The smaller points of issue #38 (item 6), in the real window with a scripted model and a
real data folder, offscreen: the empty chat's hint wraps, the status line's speed never reads
"0 words a second", the working counter stops while the confirmation waits for the user,
Test connection keeps the keyboard focus, the account editor's ✓/✗ read on a dark window,
"Model settings…" is not "Models…" with a letter less, and two conversations that began with
the same words get two titles."""

from __future__ import annotations

import os
import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication

from app.llm.backend import GenerationStats
from app.ui.contrast_colours import contrast
from app.ui.main_window import MainWindow, speed_in_words
from tests.scripting import call
from tests.support.qt import menu_actions
from tests.support.qt import open_window as open_scripted_window
from tests.support.qt import send as ask

WAIT = 60_000
SCREENSHOTS = Path(os.environ.get("HEARTH_SCREENSHOTS", "test-artifacts"))


def open_window(qtbot, tmp_path: Path, turns: list[str], **kwargs) -> MainWindow:
    return open_scripted_window(qtbot, tmp_path, turns, activate=True, **kwargs)


def text_rows(image: QImage, background: QColor) -> int:
    """How many separate bands of rows hold something other than the background."""
    bands, inside = 0, False
    for y in range(image.height()):
        inked = any(
            abs(image.pixelColor(x, y).lightness() - background.lightness()) > 40
            for x in range(0, image.width(), 2)
        )
        if inked and not inside:
            bands += 1
        inside = inked
    return bands


def test_the_empty_chat_hint_wraps_instead_of_being_cut(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path, [])
    window.resize(860, 600)
    view = window.chat_view
    qtbot.waitUntil(lambda: view.viewport().width() < 700)
    image = view.viewport().grab().toImage()
    if SCREENSHOTS.is_dir():
        window.grab().save(str(SCREENSHOTS / "empty-chat-hint.png"))
    background = view.palette().color(QPalette.ColorRole.Base)
    assert text_rows(image, background) >= 3  # the whole hint, over several lines
    assert "calendar" in view.accessibleDescription()


def test_the_status_line_says_when_the_first_words_came(qtbot, tmp_path) -> None:
    """A slow machine reads "0.2 words a second", never "about 0 words a second"; the wait
    for the first words is said apart (the audit's 51 s of prompt reading)."""
    slow = GenerationStats(generated_tokens=3, generate_seconds=10.0)
    assert speed_in_words(slow, 51.3) == ["first words after 51.3 s", "0.2 words a second"]
    assert speed_in_words(GenerationStats(), None) == []  # nothing measured: nothing said
    window = open_window(qtbot, tmp_path, ["Hello there."])
    ask(qtbot, window, "hi")
    status = window.status_label.text()
    assert re.search(r"first words after \d+\.\d s", status), status
    assert "about" not in status, status  # one decimal, never "about 0 words a second"


def test_the_working_counter_stops_while_the_dialog_waits(qtbot, tmp_path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "garden.md").write_text("Tulips.\n")
    turns = [call("write_file", path="garden.md", content="Roses.", overwrite=True), "Done."]
    window = open_window(qtbot, tmp_path, turns, folders=[folder])
    window.input.setPlainText("rewrite my garden notes")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: window.last_dialog is not None and window.last_dialog.isVisible(), timeout=WAIT
    )
    view = window.chat_view
    later = view.clock() + 30
    view.clock = lambda: later  # the user thinks for half a minute
    view._show_working()  # what the one-second timer does
    shown = view.plain_text()
    assert "Waiting for your answer…" in shown and "Working… 30 s" not in shown, shown
    assert window.last_dialog is not None
    window.last_dialog.reject()
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)


def test_test_connection_keeps_the_focus_and_colours_read_on_dark(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path, [])
    dialog = window.open_accounts()
    qtbot.waitUntil(lambda: dialog.add_calendar.isEnabled(), timeout=WAIT)
    dialog.add_calendar.click()
    editor = dialog.editor
    assert editor is not None
    editor.choose_preset("other")
    editor.calendar_url.setText("http://127.0.0.1:9/dav/")  # nothing listens there
    editor.password.setText("not-used")
    editor.test_button.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is editor.test_button)
    qtbot.keyClick(editor.test_button, Qt.Key.Key_Space)
    assert editor.test_result.text().startswith("Testing")
    assert QApplication.focusWidget() is editor.test_button  # a second Space tests, not saves
    qtbot.waitUntil(lambda: editor.test_result.text().startswith("✗"), timeout=WAIT)
    assert QApplication.focusWidget() is editor.test_button

    dark = QPalette(editor.palette())
    dark.setColor(QPalette.ColorRole.Window, QColor("#323232"))
    dark.setColor(QPalette.ColorRole.WindowText, QColor("#eeeeee"))
    dark.setColor(QPalette.ColorRole.Base, QColor("#2a2a2a"))
    editor.setPalette(dark)
    for ok in (True, False):
        editor._show_result(ok, "a result")
        colour = QColor(editor.test_result.styleSheet().split("color:")[1].strip(" ;"))
        assert contrast(colour, QColor("#323232")) >= 4.5, (ok, colour.name())
    editor.reject()
    dialog.reject()


def test_model_settings_is_not_models_with_a_letter_less(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path, [])
    texts = [a.text().replace("&", "") for a in menu_actions(window) if a.text()]
    assert "Model settings…" in texts and "Model…" not in texts, texts


def test_two_conversations_that_begin_alike_get_two_titles(qtbot, tmp_path) -> None:
    window = open_window(qtbot, tmp_path, ["Noted.", "Noted again."])
    ask(qtbot, window, "add lunch with Anna on Friday at 12:30")
    first = window.conversation
    qtbot.keyClick(window.input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.conversation is not first, timeout=WAIT)
    ask(qtbot, window, "add lunch with Anna on Friday at 12:30")
    sidebar = window.conversations.sidebar
    qtbot.waitUntil(lambda: sidebar.list.count() == 2, timeout=WAIT)
    titles = [sidebar.list.item(i).text().split("\n")[0] for i in range(sidebar.list.count())]
    assert sorted(titles) == [
        "add lunch with Anna on Friday at 12:30",
        "add lunch with Anna on Friday at 12:30 (2)",
    ], titles
