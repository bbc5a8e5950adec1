"""What users of other assistants expect (issue #38, item 7), in the real window: a file attached
to the message (Attach… or dropped on the window) is read by the files connector's confined
reader and labelled like any file read; custom instructions ("Tell Hearth about yourself / how
to answer") are kept in the settings database and end the system prompt of every conversation;
the status line counts seconds while a model loads and while a message is read.

A scripted model (exact outputs, and it keeps the requests it was sent), the real files
connector, a real data folder; offscreen.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent

from app.agent.turn.chat import INSTRUCTIONS_INTRO, SYSTEM_PROMPT, system_prompt_for
from app.llm.scripted import ScriptedBackend
from app.store.database import Database
from app.store.settings import ASSISTANT_INSTRUCTIONS, MODEL_PATH, SettingsStore
from app.ui.main_window import MainWindow
from app.ui.worker import ModelWorker
from tests.scripting import call
from tests.support.qt import open_window, send

WAIT = 60_000
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LETTER = "Dear Ana, please pay the 120 EUR for the garden plot by Friday. Marc\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    return docs


@pytest.fixture
def letter(tmp_path: Path) -> Path:
    """A file outside the allowed folders: attaching it is the user's own choice."""
    elsewhere = tmp_path / "Downloads"
    elsewhere.mkdir()
    path = elsewhere / "letter.txt"
    path.write_text(LETTER)
    return path


def backend(window: MainWindow) -> ScriptedBackend:
    assert window.worker.agent is not None
    model = window.worker.agent.backend
    assert isinstance(model, ScriptedBackend)
    return model


def drop_on(window: MainWindow, paths: list[Path]) -> None:
    """A drag of files over the window, then the drop (the window's own handlers: Qt only
    delivers a synthetic drop through a real drag session)."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton)
    enter = QDragEnterEvent(QPoint(10, 10), *args, Qt.KeyboardModifier.NoModifier)
    window.dragEnterEvent(enter)
    assert enter.isAccepted()
    window.dropEvent(QDropEvent(QPointF(10, 10), *args, Qt.KeyboardModifier.NoModifier))


# -- attaching a file --------------------------------------------------------------------------


def test_a_dropped_file_is_read_and_labelled_like_a_file_read(
    qtbot, tmp_path: Path, folder: Path, letter: Path
) -> None:
    turns = [
        "The letter asks you to pay 120 EUR for the garden plot by Friday.",
        call("write_file", path="todo.txt", content="Pay Marc 120 EUR"),
        "I did not save it.",
    ]
    window = open_window(qtbot, tmp_path, turns, folders=[folder])
    drop_on(window, [letter])  # anywhere on the window
    assert window.attachments == [letter]
    assert "Attached: letter.txt" in window.attachments_label.text()
    assert window.attachments_label.isVisible()
    drop_on(window, [letter])  # twice is once
    assert window.attachments == [letter]
    ARTIFACTS.mkdir(exist_ok=True)
    window.grab().save(str(ARTIFACTS / "attached-file-before-sending.png"))

    send(qtbot, window, "What does this letter want?")
    assert window.attachments == [] and not window.attachments_label.isVisible()
    conversation = window.conversation
    roles = [message.role for message in conversation.messages]
    assert roles == ["user", "assistant", "tool", "assistant"]
    asked, result = conversation.messages[1], conversation.messages[2]
    assert [c.name for c in asked.tool_calls] == ["read_file"]
    assert asked.tool_calls[0].arguments == {"path": str(letter)}
    assert result.name == "read_file" and result.trusted is False
    assert "pay the 120 EUR" in result.content
    # The model read it as a tool result, the text the files connector gave.
    sent = backend(window).requests[0].messages
    assert any(m["role"] == "tool" and "pay the 120 EUR" in m["content"] for m in sent)
    # Labelled as any file read: someone else's text, from the user's files.
    context = window.worker.agent.context  # type: ignore[union-attr]
    assert "the file letter.txt" in context.untrusted_sources
    assert "files" in context.private_sources
    shown = window.chat_view.plain_text()
    assert "letter.txt" in shown and "120 EUR" in shown
    ARTIFACTS.mkdir(exist_ok=True)
    window.grab().save(str(ARTIFACTS / "attached-file-in-chat.png"))

    # Because of that label, a change the model proposes next asks first, naming the file.
    asked_about: list[str | None] = []
    window.worker.confirmation_needed.connect(lambda asked: asked_about.append(asked.provenance))
    window.input.setPlainText("Put it on my to-do list")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.last_dialog is not None, timeout=WAIT)
    window.last_dialog.reject()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    assert asked_about and "letter.txt" in (asked_about[0] or "")
    assert not (folder / "todo.txt").exists()
    # The audit log says where the read came from.
    database = Database.open(tmp_path / "data")
    try:
        rows = database.audit_log().recent()
    finally:
        database.close()
    read = next(row for row in rows if row.tool == "read_file")
    assert read.status == "ok" and "attached by you" in read.reasons_json


def test_a_file_dropped_on_the_message_box_is_attached_not_typed(
    qtbot, tmp_path: Path, folder: Path, letter: Path
) -> None:
    window = open_window(qtbot, tmp_path, ["Done."], folders=[folder])
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(letter))])
    assert window.input.canInsertFromMimeData(mime)
    window.input.insertFromMimeData(mime)  # what a drop (or a paste) on the box does
    assert window.input.toPlainText() == ""
    assert window.attachments == [letter]
    text = QMimeData()
    text.setText("just words")
    window.input.insertFromMimeData(text)
    assert window.input.toPlainText() == "just words"
    window.remove_attachments_button.click()
    assert window.attachments == []


def test_a_file_hearth_cannot_read_says_why_on_its_card(
    qtbot, tmp_path: Path, folder: Path
) -> None:
    picture = tmp_path / "photo.bin"
    picture.write_bytes(bytes(range(256)) * 64)
    window = open_window(qtbot, tmp_path, ["I could not read it."], folders=[folder])
    window.attach([str(picture)])
    send(qtbot, window, "Look at this")
    result = window.conversation.messages[2]
    assert result.role == "tool" and result.content.startswith("Error:")
    assert "not a text file" in result.content
    assert "photo.bin" in window.chat_view.plain_text()


# -- custom instructions -----------------------------------------------------------------------


def test_custom_instructions_are_kept_and_end_the_system_prompt(
    qtbot, tmp_path: Path, folder: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    database = Database.open(data)
    SettingsStore(database).set(MODEL_PATH, str(tmp_path / "some-model.gguf"))  # nothing reloads
    database.close()
    window = open_window(qtbot, tmp_path, ["Bonjour Ana.", "Oui."], folders=[folder])
    dialog = window.model_settings.open()
    qtbot.waitUntil(lambda: dialog.ready, timeout=WAIT)
    assert dialog.instructions_edit.isEnabled()
    words = "I am Ana, a nurse in Lyon.\nAnswer briefly, in French."
    dialog.instructions_edit.setPlainText(words)
    ARTIFACTS.mkdir(exist_ok=True)
    dialog.grab().save(str(ARTIFACTS / "settings-custom-instructions.png"))
    dialog.save()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=WAIT)

    database = Database.open(data)
    try:
        assert SettingsStore(database).get(ASSISTANT_INSTRUCTIONS) == words
    finally:
        database.close()
    send(qtbot, window, "Hello")
    first = backend(window).requests[-1].messages[0]["content"]
    expected = f"{INSTRUCTIONS_INTRO} I am Ana, a nurse in Lyon. Answer briefly, in French."
    assert first.startswith(f"{SYSTEM_PROMPT} {expected}")
    # Another conversation: the same system prompt, so the same cached prefix.
    before = window.conversation
    window.new_conversation()  # Ctrl+N
    qtbot.waitUntil(lambda: window.conversation is not before, timeout=WAIT)
    send(qtbot, window, "Again")
    second = backend(window).requests[-1].messages[0]["content"]
    assert second == first

    # The next start reads them back into the form.
    again = window.model_settings.open()
    qtbot.waitUntil(lambda: again.ready, timeout=WAIT)
    assert again.instructions_edit.toPlainText() == words
    again.reject()


def test_without_instructions_the_prompt_is_unchanged() -> None:
    """Byte for byte: the stored prompt prefixes of every user without instructions stay valid."""
    assert system_prompt_for("") == SYSTEM_PROMPT
    assert system_prompt_for("  \n ") == SYSTEM_PROMPT
    assert system_prompt_for(None) == SYSTEM_PROMPT
    long = system_prompt_for("x" * 5000)
    assert len(long) < len(SYSTEM_PROMPT) + 1600


# -- progress in the status line ---------------------------------------------------------------


def test_the_status_line_counts_while_a_model_loads_and_a_message_is_read(
    qtbot, tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """llama.cpp reports no progress for a load or a prompt: the seconds so far, every second,
    with the words of what is happening."""
    slow_load = ModelWorker._load_script

    def load_slowly(worker: ModelWorker, path: Path) -> None:
        time.sleep(2.5)
        slow_load(worker, path)

    slow_step = ScriptedBackend.step

    def read_slowly(model: ScriptedBackend, request, on_event, cancel):
        time.sleep(2.5)  # as a long message on a small machine
        return slow_step(model, request, on_event, cancel)

    monkeypatch.setattr(ModelWorker, "_load_script", load_slowly)
    monkeypatch.setattr(ScriptedBackend, "step", read_slowly)
    seen: list[str] = []
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Hello there."]}))
    data = tmp_path / "data"
    data.mkdir()
    window = MainWindow(script, data_dir=data, folders=[folder])
    qtbot.addWidget(window)
    window.show()

    def watch() -> bool:
        seen.append(window.status_label.text())
        return window.model_ready

    qtbot.waitUntil(watch, timeout=WAIT)
    assert any(re.fullmatch(r"Loading script\.json… [12] s", text) for text in seen), seen
    seen.clear()
    window.input.setPlainText("Please read this long message")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)

    def watch_reply() -> bool:
        seen.append(window.status_label.text())
        return not window.busy

    qtbot.waitUntil(watch_reply, timeout=WAIT)
    assert any(re.search(r"· Reading your message… [12] s$", text) for text in seen), seen
    assert "Reading" not in window.status_label.text()  # the reply ended: the speed instead
