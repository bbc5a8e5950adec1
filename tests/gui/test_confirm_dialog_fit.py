"""The confirmation dialog in the real window (issue #38, item 5): at 2x on a 768 px screen
Edit… keeps the buttons on screen, an edited preview that cannot be made speaks in words,
the gate's reasons are sentences, and a mail says which account sends it. A scripted model,
the real files connector, the real agent and dialog; offscreen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLineEdit

from app.agent.tools.toolbox import build_registry
from app.agent.turn.loop import Agent
from app.ui.confirm_dialog import ConfirmDialog
from app.ui.main_window import MainWindow
from connectors.mail import MailAccount
from tests.scripting import call, script
from tests.support.qt import ask_through_dialog, open_window

WAIT = 60_000
SCREENSHOTS = Path(os.environ.get("HEARTH_SCREENSHOTS", "test-artifacts"))
# 1366x768 at 2x: 683x384 logical pixels, less a title bar and a panel.
SCALED_FREE_HEIGHT = 384 - 40


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "garden.md").write_text("Tulips in October.\nRoses in spring.\n")
    return docs


def replace_garden(qtbot, tmp_path: Path, folder: Path) -> tuple[MainWindow, ConfirmDialog]:
    content = "\n".join(f"Line {n}: plant something." for n in range(12))
    turns = [call("write_file", path="garden.md", content=content, overwrite=True), "Done."]
    window = open_window(qtbot, tmp_path, turns, folders=[folder])
    window.input.setPlainText("rewrite my garden notes")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: window.last_dialog is not None and window.last_dialog.isVisible(), timeout=WAIT
    )
    assert window.last_dialog is not None
    return window, window.last_dialog


def save(widget, name: str) -> None:
    if SCREENSHOTS.is_dir():
        widget.grab().save(str(SCREENSHOTS / name))


def test_edit_keeps_the_buttons_on_a_768_px_screen_at_2x(qtbot, tmp_path, folder) -> None:
    window, dialog = replace_garden(qtbot, tmp_path, folder)
    qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)
    assert dialog.editing
    # The dialog may be as short as the scaled screen's free height...
    dialog.resize(dialog.width(), SCALED_FREE_HEIGHT)
    qtbot.waitUntil(lambda: dialog.height() <= SCALED_FREE_HEIGHT, timeout=2_000)
    # ... and then every button is still inside it, whole.
    for button in (dialog.allow_button, dialog.edit_button, dialog.deny_button):
        bottom = button.mapTo(dialog, QPoint(0, button.height())).y()
        assert button.isVisible() and bottom <= dialog.height(), button.text()
    # On its own screen it never grows past the free height, nor off it.
    dialog.fit_screen()
    free = dialog.screen().availableGeometry()
    assert free.contains(dialog.frameGeometry()), (free, dialog.frameGeometry())
    save(dialog, "confirm-edit-scaled.png")
    dialog.reject()
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)


def test_an_edited_preview_that_cannot_be_made_speaks_in_words(qtbot, tmp_path, folder) -> None:
    window, dialog = replace_garden(qtbot, tmp_path, folder)
    qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)
    path = dialog.fields["path"]
    assert isinstance(path, QLineEdit)
    path.setText("garden.md2")
    qtbot.keyClick(path, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.allow_button.isEnabled(), timeout=WAIT)
    shown = dialog.preview.toPlainText()
    assert "Hearth does not write 'garden.md2'" in shown, shown
    assert "File: garden.md2" in shown and "Replace if it exists: yes" in shown, shown
    for code in ("path:", "content:", "overwrite:", "True"):
        assert code not in shown, shown
    save(dialog, "confirm-edited-preview-words.png")
    dialog.reject()
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)


def test_reasons_are_sentences(qtbot, tmp_path, folder) -> None:
    """After reading a file (others' words), writing a password asks with two plain reasons."""
    (folder / "wifi-guest.txt").write_text("Guest network: ask at the desk.\n")
    turns = [
        call("read_file", path="wifi-guest.txt"),
        call("write_file", path="wifi.txt", content="password: hunter2-Xq9!zz"),
        "Saved.",
    ]
    window = open_window(qtbot, tmp_path, turns, folders=[folder])
    window.input.setPlainText("save the wifi password")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: window.last_dialog is not None and window.last_dialog.isVisible(), timeout=WAIT
    )
    dialog = window.last_dialog
    assert dialog is not None
    reasons = [label.text() for label in dialog.findChildren(type(dialog.heading))]
    reasons = [text for text in reasons if text.startswith("• ")]
    assert any("holds what looks like a password or a key" in r for r in reasons), reasons
    assert any("written by someone else" in r for r in reasons), reasons
    assert not any("detected" in r or "untrusted" in r for r in reasons), reasons
    save(dialog, "confirm-reasons-in-words.png")
    dialog.reject()
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)


def test_the_mail_dialog_says_which_account_sends(qtbot) -> None:
    account = MailAccount(
        email="sam@example.test",
        imap_host="127.0.0.1",
        imap_port=993,
        smtp_host="127.0.0.1",
        smtp_port=465,
        username="sam",
        password="not-used",
        display_name="Sam Weber",
    )
    agent = Agent(
        script(call("send_email", to=["bob@example.com"], subject="Hi", body="See you."), "Ok."),
        build_registry(mail=account),
    )

    def answer(dialog: ConfirmDialog) -> None:
        first = dialog.preview.toPlainText().splitlines()[0]
        assert first == "From: Sam Weber <sam@example.test>", dialog.preview.toPlainText()
        save(dialog, "confirm-mail-from.png")
        dialog.deny_button.click()  # nothing is sent

    ask_through_dialog(qtbot, agent, "email bob@example.com: see you", answer)
