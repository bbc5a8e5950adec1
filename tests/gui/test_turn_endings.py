"""Every way a turn ends shows words in the real window (issue #38, item 1): Hearth's own
answers (calls it could not read, the step limit, results put into words for the model) are
drawn as they are saved, a turn with no words says so, and a failed card shows its reason,
live and reopened. A scripted model (exact outputs), the real files connector, a real data
folder; offscreen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl

from app.ui.main_window import NO_ANSWER
from tests.scripting import call
from tests.support.qt import open_window
from tests.support.qt import send as ask

WAIT = 60_000
SCREENSHOTS = Path(os.environ.get("HEARTH_SCREENSHOTS", "test-artifacts"))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.txt").write_text("Garden: plant the tulips in October.\n")
    return docs


def test_calls_the_agent_could_not_read_end_in_words(qtbot, tmp_path, folder) -> None:
    invented = "<tool_call>\n<function=add lunch>\n</function>\n</tool_call>"
    window = open_window(qtbot, tmp_path, [invented, invented], folders=[folder])
    reply = ask(qtbot, window, "add lunch with Anna on Friday at 12:30")
    saved = window.conversation.messages[-1]
    assert saved.role == "assistant" and "could not understand" in saved.content
    assert "could not understand" in reply, reply
    assert window.chat_view.plain_text().count("could not understand") == 1
    if SCREENSHOTS.is_dir():
        window.grab().save(str(SCREENSHOTS / "reply-unreadable-calls.png"))


def test_the_step_limit_ends_in_words(qtbot, tmp_path, folder) -> None:
    turns = [call("list_files", path="."), call("read_file", path="notes.txt")]
    window = open_window(qtbot, tmp_path, turns, folders=[folder])
    assert window.worker.agent is not None
    window.worker.agent.max_steps = 2
    reply = ask(qtbot, window, "tidy my notes")
    assert "I stopped after 2 steps" in reply, reply


def test_results_put_into_words_are_drawn(qtbot, tmp_path, folder) -> None:
    """The model repeats a read, is told to answer, and calls again: Hearth answers with the
    result it has, and that answer is on screen, not only in the saved conversation."""
    read = call("read_file", path="notes.txt")
    window = open_window(qtbot, tmp_path, [read, read, read], folders=[folder])
    reply = ask(qtbot, window, "what does my notes file say?")
    assert "Here is what read_file found" in reply, reply
    assert "plant the tulips" in reply


def test_a_turn_with_no_words_says_so(qtbot, tmp_path, folder) -> None:
    window = open_window(qtbot, tmp_path, [call("list_files", path="."), ""], folders=[folder])
    reply = ask(qtbot, window, "what is in my folder?")
    assert NO_ANSWER in reply, reply


def test_a_failed_card_shows_its_reason_live_and_reopened(qtbot, tmp_path, folder) -> None:
    turns = [call("read_file", path="missing.txt"), "I could not read it."]
    window = open_window(qtbot, tmp_path, turns, folders=[folder])
    reply = ask(qtbot, window, "read missing.txt")
    card, _, rest = reply.partition("· failed")
    assert card, reply
    why = rest.splitlines()[1]  # the line under the card
    assert why.startswith("Why: ") and "missing.txt" in why, reply
    if SCREENSHOTS.is_dir():
        window.chat_view.grab().save(str(SCREENSHOTS / "card-failed-why.png"))
    # Reopened from the store (another conversation, then back): the same reason.
    shown = window.chat_view.plain_text()
    conversations = window.conversations
    qtbot.waitUntil(lambda: conversations.current_id is not None, timeout=WAIT)  # saved
    first = conversations.current_id
    assert first is not None
    qtbot.keyClick(window.input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.chat_view.plain_text() == "", timeout=WAIT)
    conversations._request_open(first)
    qtbot.waitUntil(lambda: "missing.txt" in window.chat_view.plain_text(), timeout=WAIT)
    assert why in window.chat_view.plain_text(), (shown, window.chat_view.plain_text())


def test_a_card_opens_to_show_what_was_asked_and_what_came_back(qtbot, tmp_path, folder) -> None:
    """Issue #38 item 4: a card opens (Details) to the call's arguments in the confirmation
    dialog's words and the result, and closes again; reopened conversations too."""
    turns = [call("read_file", path="notes.txt"), "The notes say October."]
    window = open_window(qtbot, tmp_path, turns, folders=[folder])
    ask(qtbot, window, "what do my notes say?")
    view = window.chat_view
    assert "Details" in view.plain_text() and "plant the tulips" not in view.plain_text()
    card = next(key for key in _links(view) if key.startswith("hearth:card/"))
    view.anchorClicked.emit(QUrl(card))  # what a click (or Enter on the link) sends
    shown = view.plain_text()
    assert "Asked:\n    File: notes.txt" in shown, shown
    assert "Result:" in shown and "Garden: plant the tulips in October." in shown, shown
    assert "Hide details" in shown
    if SCREENSHOTS.is_dir():
        view.grab().save(str(SCREENSHOTS / "card-opened.png"))
    view.anchorClicked.emit(QUrl(card))
    assert "plant the tulips" not in view.plain_text()
    # Reopened from the store: the same details.
    conversations = window.conversations
    qtbot.waitUntil(lambda: conversations.current_id is not None, timeout=WAIT)
    first = conversations.current_id
    qtbot.keyClick(window.input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: view.plain_text() == "", timeout=WAIT)
    conversations._request_open(first)
    qtbot.waitUntil(lambda: "Details" in view.plain_text(), timeout=WAIT)
    card = next(key for key in _links(view) if key.startswith("hearth:card/"))
    view.anchorClicked.emit(QUrl(card))
    assert "File: notes.txt" in view.plain_text()
    assert "plant the tulips in October." in view.plain_text()


def _links(view) -> list[str]:
    """Every link the view shows, in order."""
    found: list[str] = []
    block = view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            href = fragment.charFormat().anchorHref()
            if href and href not in found:
                found.append(href)
            it += 1
        block = block.next()
    return found
