"""The window's helpers talk through signals: each runs here against a plain host widget
(no MainWindow), and the window's own wiring sends a saved choice into the worker thread as a
queued call rather than an attribute written from the GUI thread."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from PySide6.QtCore import Qt, QThread
from PySide6.QtWidgets import QMenu, QStyle, QWidget

import app.ui.conversations
import app.ui.data_panels
import app.ui.model_menu
import app.ui.model_settings_dialog
from app.agent.services.model_choice import ModelChoice
from app.agent.turn.chat import Conversation
from app.store.database import Database
from app.store.settings import SettingsStore
from app.ui.chat_view import ChatView
from app.ui.conversations import ConversationController, ConversationService
from app.ui.data_panels import DataPanels
from app.ui.model_menu import ModelMenu
from app.ui.model_settings_dialog import ModelSettingsMenu, loading_status
from app.ui.worker import ModelWorker
from tests.support.qt import gui_thread

WAIT = 60_000
HELPERS = (
    app.ui.conversations,
    app.ui.data_panels,
    app.ui.model_menu,
    app.ui.model_settings_dialog,
)


@pytest.fixture
def host(qtbot) -> QWidget:
    """What the helpers get instead of the window: a widget to parent their dialogs."""
    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


@pytest.mark.parametrize("module", HELPERS, ids=lambda m: m.__name__)
def test_the_helpers_do_not_know_the_window(module: object) -> None:
    tree = ast.parse(Path(module.__file__).read_text())  # type: ignore[attr-defined]
    imported = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }
    assert "app.ui.main_window" not in imported
    assert "MainWindow" not in Path(module.__file__).read_text()  # type: ignore[attr-defined]


def test_model_settings_says_reload_or_next_turn_by_signal(
    qtbot, host: QWidget, data: Path
) -> None:
    menu = QMenu(host)
    entry = ModelSettingsMenu(menu, data, lambda: Path("/models/small.gguf"), host)
    assert [a.text() for a in menu.actions()] == ["&Model settings…"]
    loads: list[ModelChoice] = []
    turns: list[ModelChoice] = []
    entry.load_requested.connect(loads.append)
    entry.choice_changed.connect(turns.append)

    dialog = entry.open()
    qtbot.waitUntil(lambda: dialog.ready, timeout=WAIT)
    assert dialog.path_edit.text() == "/models/small.gguf"  # the host's file, offered
    dialog.temperature_box.setValue(0.4)  # only the next turn changes
    with qtbot.waitSignal(entry.choice_changed, timeout=WAIT):
        dialog.save()
    assert loads == [] and turns[0].temperature == 0.4

    again = entry.open()
    qtbot.waitUntil(lambda: again.ready, timeout=WAIT)
    again.threads_box.setValue(2)  # a reload
    with qtbot.waitSignal(entry.load_requested, timeout=WAIT):
        again.save()
    assert len(turns) == 1 and loads[0].threads == 2


def test_loading_status_names_the_file_or_the_host_only() -> None:
    assert loading_status(ModelChoice(path="/m/small.gguf")) == "Loading small.gguf…"
    remote = ModelChoice(backend="remote", base_url="http://10.0.0.5:8080/v1", api_key="sk-x")
    assert loading_status(remote) == "Connecting to the model server at 10.0.0.5…"


def test_model_menu_passes_the_account_request_on(host: QWidget, data: Path) -> None:
    menu = QMenu(host)
    models = ModelMenu(menu, data, host)
    asked: list[bool] = []
    models.accounts_requested.connect(lambda: asked.append(True))
    chosen: list[Path] = []
    models.model_chosen.connect(chosen.append)
    manager = models.start()
    manager.model_file.emit("/models/chosen.gguf")  # "Use this model" found its file
    assert chosen == [Path("/models/chosen.gguf")]
    wizard = models.open_first_run()
    wizard.extras.account_button.click()
    assert asked == [True]
    wizard.reject()
    models.shutdown()


def test_data_panels_hold_a_notice_while_a_reply_streams(qtbot, host: QWidget, data: Path) -> None:
    menu = QMenu(host)
    panels = DataPanels(menu, data, [Path("/from/the/command/line")], host)
    assert [a.text() for a in menu.actions()] == ["&Folders…", "P&rivacy…"]
    notices: list[tuple[str, str]] = []
    lines: list[str] = []
    panels.notice.connect(lambda text, kind: notices.append((text, kind)))
    panels.attention.connect(lines.append)
    panels.start(host.style().standardIcon(QStyle.StandardPixmap.SP_ComputerIcon))
    try:
        assert panels.notifier is not None
        panels.turn_started(Conversation(), "hello")
        panels.notifier.in_window.emit("Reminder: Gym bag\n(was due at 08:00)")
        assert lines == ["Reminder: Gym bag"] and notices == []  # the reply is not split
        panels.turn_ended()
        assert notices == [("Reminder: Gym bag\n(was due at 08:00)", "note")]

        changed: list[bool] = []
        panels.folders_changed.connect(lambda: changed.append(True))
        dialog = panels.open_folders()
        qtbot.waitUntil(dialog.add_button.isEnabled, timeout=WAIT)
        assert "--allow-folder" in dialog.list.item(0).text()
        dialog.add_folder(str(data))
        qtbot.waitUntil(lambda: changed == [True], timeout=WAIT)
        dialog.reject()
    finally:
        panels.shutdown()


@pytest.fixture
def service_thread() -> Iterator[QThread]:
    thread = QThread()
    thread.start()
    yield thread
    thread.quit()
    thread.wait(10_000)


def test_conversations_switch_through_signals(qtbot, data: Path, service_thread: QThread) -> None:
    service = ConversationService(data, lambda: [])
    service.moveToThread(service_thread)
    service_thread.finished.connect(service.close, Qt.ConnectionType.DirectConnection)
    view = ChatView()
    qtbot.addWidget(view)
    controller = ConversationController(service, view)
    qtbot.addWidget(controller.sidebar)
    opening: list[bool] = []
    opened: list[Conversation] = []
    controller.opening_changed.connect(opening.append)
    controller.conversation_opened.connect(opened.append)

    controller.start()
    qtbot.waitUntil(lambda: len(opened) == 1, timeout=WAIT)
    assert opening == [True, False] and not controller.opening
    assert isinstance(opened[0], Conversation)

    controller.turn_started(opened[0], "hi")  # no switching while a reply is written
    controller.sidebar.new_requested.emit()
    assert opening == [True, False] and controller.sidebar.busy
    controller.turn_ended()
    assert not controller.sidebar.busy
    controller.start_over()  # Privacy… deleted everything: a new, empty one
    qtbot.waitUntil(lambda: len(opened) == 2, timeout=WAIT)
    assert opened[1] is not opened[0]


class RecordingWorker(ModelWorker):
    """The real worker, noting the thread of every write of its choice. (A property, not an
    overridden slot: PySide6 connects an overriding slot directly, in the emitter's thread.)"""

    writes: ClassVar[list[QThread]] = []

    @property
    def choice(self) -> ModelChoice | None:
        return self._choice

    @choice.setter
    def choice(self, value: ModelChoice | None) -> None:
        RecordingWorker.writes.append(QThread.currentThread())
        self._choice = value


def test_a_saved_choice_reaches_the_worker_in_its_own_thread(
    qtbot, tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.ui.main_window
    from app.ui.main_window import MainWindow

    monkeypatch.setattr(app.ui.main_window, "ModelWorker", RecordingWorker)
    RecordingWorker.writes = []
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Hello."]}))
    start = ModelChoice(path=str(tmp_path / "saved.gguf"), thinking=True, temperature=0.5)
    database = Database.open(data)
    start.save(SettingsStore(database))  # Settings → Model… as saved before this start
    database.close()
    window = MainWindow(script, data_dir=data, saved_choice=start)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
    assert window.worker.choice == start  # given before its thread started
    assert RecordingWorker.writes == [gui_thread()]

    dialog = window.model_settings.open()
    qtbot.waitUntil(lambda: dialog.ready, timeout=WAIT)
    dialog.temperature_box.setValue(0.2)
    with qtbot.waitSignal(dialog.saved, timeout=WAIT):
        dialog.save()
    qtbot.waitUntil(lambda: len(RecordingWorker.writes) == 2, timeout=WAIT)
    assert RecordingWorker.writes[1] is window.model_thread  # queued into the worker's thread
    assert window.worker.choice is not None and window.worker.choice.temperature == 0.2
    window.close()


def test_a_stop_pressed_while_the_message_waited_stops_it(tmp_path: Path) -> None:
    """Issue #19's first finding: a message sent during the warm-up waits in the worker's
    queue; Stop then cancelled only the warm-up and the turn cleared it and ran to the token
    limit. Now the window clears `cancel` when it sends, and the waiting turn stops."""
    from app.agent.turn.chat import Conversation
    from app.ui.worker import ModelWorker

    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["A long answer."] * 2}))
    worker = ModelWorker()
    worker.load(str(script))
    reports: list = []
    worker.turn_finished.connect(reports.append)
    worker.cancel.set()  # Stop, pressed while the message waited behind the warm-up
    conversation = Conversation()
    worker.run_turn(conversation, "hello")
    assert reports[-1].stop_reason == "cancelled"
    assert conversation.messages[-1].stopped
    worker.cancel.clear()  # what the window's send() does for the next message
    worker.run_turn(conversation, "hello again")
    assert reports[-1].stop_reason == "answered"
    worker.unload()
