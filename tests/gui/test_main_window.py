"""The chat window under pytest-qt (offscreen), on the real SmolLM2 model."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from app.llm.runtime import LocalModel
from app.ui.main_window import MainWindow
from app.ui.markdown_render import plain_text
from app.ui.worker import TextBatcher
from tests.conftest import TEST_SETTINGS
from tests.support.qt import gui_thread

pytestmark = pytest.mark.real_model


@pytest.fixture
def window(qtbot, smollm2_path: Path, data_dir: Path):
    win = MainWindow(smollm2_path, TEST_SETTINGS)
    win.worker.sampling.max_tokens = 80  # short replies: these tests check plumbing, not prose
    qtbot.addWidget(win)
    _deny_dialogs(win)
    win.show()
    qtbot.waitUntil(lambda: win.model_ready, timeout=120_000)
    yield win
    win.close()


def _deny_dialogs(win: MainWindow) -> None:
    """The tiny model sometimes calls a tool that needs confirmation: answer Deny, as a
    cautious user would, so the chat tests never wait on a dialog."""

    def deny() -> None:
        if win.last_dialog is not None:
            win.last_dialog.reject()

    win.worker.confirmation_needed.connect(lambda _request: QTimer.singleShot(0, deny))


def _type_and_send(qtbot, win: MainWindow, text: str) -> None:
    win.input.setFocus()
    qtbot.keyClicks(win.input, text)
    qtbot.keyClick(win.input, Qt.Key.Key_Return)


def test_send_streams_reply_and_shows_speed(qtbot, window: MainWindow) -> None:
    batches: list[str] = []
    window.worker.text.connect(batches.append)
    _type_and_send(qtbot, window, "Hello! Who are you?")
    assert window.busy and window.stop_button.isEnabled() and not window.send_button.isEnabled()
    assert window.input.toPlainText() == ""
    qtbot.waitUntil(lambda: not window.busy, timeout=120_000)
    assert batches, "no text reached the window"
    view = window.chat_view.plain_text()
    assert "You: Hello! Who are you?" in view
    assert plain_text("".join(batches)) in view  # as rendered from its Markdown
    assert "words a second" in window.status_label.text()
    assert window.conversation.messages[-1].role == "assistant"


def test_stop_ends_the_reply_and_keeps_its_text(qtbot, window: MainWindow) -> None:
    """Stop ends a reply that would run for minutes (3,000 tokens) and keeps what was written.
    How fast is measured in bench/stop_latency.py (a timed assertion here failed only when
    other work shared the cores)."""
    window.worker.sampling.max_tokens = 3000
    batches: list[str] = []
    window.worker.text.connect(batches.append)
    _type_and_send(qtbot, window, "Write a very long story about the sea.")
    qtbot.waitUntil(lambda: len("".join(batches)) > 40, timeout=120_000)
    qtbot.mouseClick(window.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.busy, timeout=20_000)
    reply = window.conversation.messages[-1]
    assert reply.role == "assistant" and reply.stopped
    assert reply.content.startswith("".join(batches)[:40])
    assert "(stopped)" in window.chat_view.plain_text()
    # The conversation goes on after a stop.
    _type_and_send(qtbot, window, "Thanks. Now say hi.")
    qtbot.waitUntil(lambda: not window.busy, timeout=120_000)
    assert [m.role for m in window.conversation.messages] == ["user", "assistant"] * 2


def test_model_runs_in_the_worker_thread(qtbot, window: MainWindow, monkeypatch) -> None:
    threads: list[threading.Thread] = []
    original = LocalModel.step

    def spy(self, *args, **kwargs):
        threads.append(threading.current_thread())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(LocalModel, "step", spy)
    _type_and_send(qtbot, window, "Hi")
    qtbot.waitUntil(lambda: not window.busy, timeout=120_000)
    assert threads and threads[0] is not threading.main_thread()
    assert window.worker.thread() is not gui_thread()


def test_unexpected_worker_error_is_shown_and_next_message_works(
    qtbot, window: MainWindow, monkeypatch
) -> None:
    original = LocalModel.step
    calls = {"n": 0}

    def flaky(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("simulated fault in the model backend")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(LocalModel, "step", flaky)
    _type_and_send(qtbot, window, "First message")
    qtbot.waitUntil(lambda: not window.busy, timeout=120_000)
    assert "Something went wrong" in window.chat_view.plain_text()
    assert "simulated fault" in window.chat_view.plain_text()
    assert window.conversation.messages[0].content == "First message"
    _type_and_send(qtbot, window, "Second message")
    qtbot.waitUntil(lambda: not window.busy, timeout=120_000)
    assert window.conversation.messages[-1].role == "assistant"
    assert window.conversation.messages[-1].content


@pytest.mark.parametrize("damage", ["truncated", "not_gguf", "missing"])
def test_bad_model_file_shows_error_and_window_stays_usable(
    qtbot, smollm2_path: Path, tmp_path: Path, data_dir: Path, damage: str
) -> None:
    bad = tmp_path / "model.gguf"
    if damage == "truncated":
        with smollm2_path.open("rb") as src, bad.open("wb") as dst:
            dst.write(src.read(20_000_000))
    elif damage == "not_gguf":
        bad.write_bytes(b"<html>404 Not Found</html>")
    win = MainWindow(bad, TEST_SETTINGS)
    qtbot.addWidget(win)
    _deny_dialogs(win)
    win.show()
    qtbot.waitUntil(lambda: "No model loaded" in win.status_label.text(), timeout=120_000)
    text = win.chat_view.plain_text()
    assert str(bad) in text
    assert {"truncated": "truncated", "not_gguf": "not a GGUF", "missing": "does not exist"}[
        damage
    ] in text
    # Still usable: typing and sending explains that there is no model, and keeps the text.
    _type_and_send(qtbot, win, "Are you there?")
    assert "No model is loaded" in win.chat_view.plain_text()
    assert win.input.toPlainText() == "Are you there?"
    # Choosing a good model afterwards works.
    good = tmp_path / "good.gguf"
    shutil.copyfile(smollm2_path, good)
    win.load_model(good)
    qtbot.waitUntil(lambda: win.model_ready, timeout=120_000)
    qtbot.keyClick(win.input, Qt.Key.Key_Return)
    # The reply may include tool calls (the model is told the time, so its output varies with
    # the clock): what matters is that the turn ran to an answer on the good model.
    qtbot.waitUntil(lambda: not win.busy and len(win.conversation.messages) >= 2, timeout=120_000)
    messages = win.conversation.messages
    assert (messages[0].role, messages[0].content) == ("user", "Are you there?")
    assert any(m.role == "assistant" for m in messages[1:])
    win.close()


def test_text_batcher_emits_at_most_once_per_frame() -> None:
    emitted: list[str] = []
    batcher = TextBatcher(emitted.append, interval=1 / 60)
    started = time.monotonic()
    for i in range(20_000):
        batcher.add(str(i % 10))
    batcher.flush()
    elapsed = time.monotonic() - started
    assert "".join(emitted) == "".join(str(i % 10) for i in range(20_000))
    assert len(emitted) <= elapsed * 60 + 2


def test_escape_stops_a_streaming_reply_and_focus_stays_in_the_message_box(
    qtbot, window: MainWindow
) -> None:
    window.worker.sampling.max_tokens = 3000
    batches: list[str] = []
    window.worker.text.connect(batches.append)
    _type_and_send(qtbot, window, "Write a very long story about the sea.")
    qtbot.waitUntil(lambda: len("".join(batches)) > 20, timeout=120_000)
    qtbot.keyClick(window.input, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not window.busy, timeout=60_000)
    reply = window.conversation.messages[-1]
    assert reply.role == "assistant" and reply.stopped
    assert "(stopped)" in window.chat_view.plain_text()
    assert QApplication.focusWidget() is window.input


def _with_unknown_architecture(source: Path, target: Path) -> None:
    """A copy whose header passes Hearth's check but names an architecture llama.cpp does not
    know, so the load itself fails (the name is replaced by one of the same length)."""
    data = bytearray(source.read_bytes())
    key = b"general.architecture"
    at = data.index(key) + len(key) + 4 + 8  # the value's type (u32) and length (u64)
    length = int.from_bytes(data[at - 8 : at], "little")
    data[at : at + length] = b"x" * length
    target.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["not_gguf", "unknown_architecture"])
def test_a_failed_load_keeps_the_model_that_worked(
    qtbot, window: MainWindow, smollm2_path: Path, tmp_path: Path, damage: str
) -> None:
    """A wrong file is reported and the model in use keeps answering: a file refused by the
    header check never unloads it, one that fails inside llama.cpp gets it loaded again."""
    bad = tmp_path / "wrong.gguf"
    if damage == "not_gguf":
        bad.write_text("a text file named like a model")
    else:
        _with_unknown_architecture(smollm2_path, bad)
    name = window.model_name
    window.load_model(bad)
    qtbot.waitUntil(lambda: window.model_ready, timeout=120_000)
    assert str(bad) in window.chat_view.plain_text()
    assert window.model_name == name
    assert "still in use" in window.status_label.text()
    assert window.model_path == smollm2_path
    _type_and_send(qtbot, window, "Hi")
    qtbot.waitUntil(lambda: not window.busy, timeout=120_000)
    assert window.conversation.messages[-1].role == "assistant"
    assert "No model is loaded" not in window.chat_view.plain_text()
