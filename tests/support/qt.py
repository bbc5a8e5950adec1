"""Qt helpers the GUI tests share: the real window on a scripted model, sending a message and
waiting for the turn's end, a window's menu entries and the GUI thread (typed: Qt's stubs
return a bare QObject for a menu and an optional application)."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QThread
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu

from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest
from app.agent.turn.loop import Agent, TurnReport
from app.ui.confirm_dialog import ConfirmDialog
from app.ui.main_window import MainWindow


def menu_actions(window: QMainWindow, title: str = "&Settings") -> list[QAction]:
    """The entries of the window's menu called `title`, in order."""
    entry = next(a for a in window.menuBar().actions() if a.text() == title)
    menu = entry.menu()
    assert isinstance(menu, QMenu), title
    return menu.actions()


def menu_action(window: QMainWindow, text: str, title: str = "&Settings") -> QAction:
    """The entry called `text` in the window's menu called `title`."""
    return next(a for a in menu_actions(window, title) if a.text() == text)


def gui_thread() -> QThread:
    """The thread the application (and every widget) lives in."""
    app = QApplication.instance()
    assert app is not None
    return app.thread()


# -- the real window on a scripted model --------------------------------------------------------

WAIT = 60_000  # ms: a busy machine can take long to start a window's worker and model


def open_window(
    qtbot: Any,
    tmp_path: Path,
    turns: list[str],
    *,
    data: Path | None = None,
    size: tuple[int, int] | None = None,
    activate: bool = False,
    **options: Any,
) -> MainWindow:
    """The real window on a scripted model that plays `turns`, shown and ready: its model
    loaded and its conversation open. Each window gets its own script file (a test may open
    several); its data folder is `data`, else tmp_path/"data". `options` go to MainWindow
    (`folders=[...]`)."""
    script = tmp_path / f"script-{len(list(tmp_path.glob('script-*')))}.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": turns}))
    if data is None:
        data = tmp_path / "data"
        data.mkdir(exist_ok=True)
    window = MainWindow(script, data_dir=data, **options)
    qtbot.addWidget(window)
    if size is not None:
        window.resize(*size)
    window.show()
    if activate:
        window.activateWindow()
    qtbot.waitUntil(lambda: window.model_ready and not window.conversations.opening, timeout=WAIT)
    return window


def type_message(qtbot: Any, window: MainWindow, text: str) -> None:
    """Type `text` into the message box and press Return, as a user sends it."""
    window.input.setPlainText(text)
    qtbot.keyClick(window.input, Qt.Key.Key_Return)


def wait_turn(qtbot: Any, window: MainWindow) -> None:
    """Until the reply is over and the conversation list has caught up with it."""
    qtbot.waitUntil(lambda: not window.busy and not window.conversations.sidebar.busy, timeout=WAIT)


def send(qtbot: Any, window: MainWindow, text: str) -> str:
    """Send `text`, wait for the end of the turn, and return the last reply as shown."""
    type_message(qtbot, window, text)
    wait_turn(qtbot, window)
    return window.chat_view.plain_text().rpartition("Hearth:")[2].strip()


def ask_through_dialog(
    qtbot: Any, agent: Agent, text: str, answer: Callable[[ConfirmDialog], None]
) -> tuple[TurnReport, ConfirmDialog]:
    """Run the turn in a worker thread; show its one question in the real dialog, on this
    (the GUI) thread, and let `answer` look at it and press a button."""
    asked: queue.Queue[ConfirmationRequest] = queue.Queue()
    answers: queue.Queue[ConfirmationAnswer] = queue.Queue()

    def confirmer(request: ConfirmationRequest) -> ConfirmationAnswer:
        asked.put(request)
        return answers.get(timeout=60)

    agent.confirmer = confirmer
    reports: list[TurnReport] = []
    worker = threading.Thread(target=lambda: reports.append(agent.run_turn(Conversation(), text)))
    worker.start()
    qtbot.waitUntil(lambda: not asked.empty(), timeout=WAIT)
    dialog = ConfirmDialog(asked.get())
    qtbot.addWidget(dialog)
    dialog.show()
    answer(dialog)
    answers.put(dialog.result_answer)
    worker.join(timeout=60)
    assert reports, "the turn did not finish"
    return reports[0], dialog
