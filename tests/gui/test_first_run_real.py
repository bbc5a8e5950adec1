"""A whole first run on the real default model (issue #38, item 2): an empty data folder, the
guide as `python -m app` opens it, the README's default model (Qwen2.5-Coder-0.5B) downloaded
from a local HTTP server (the file `make run` fetched, never the internet), checked, loaded,
and a first message that ends in a tool call.

Slow (a 491 MB download over loopback, its checksum, the model's load and a turn on two
cores): a real_model test, run one at a time.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from app.agent.turn.loop import CallRecord
from app.llm.embedded import QWEN_CODER, ensure_tool_model
from app.store.database import Database
from app.store.settings import FIRST_RUN_DONE, MODEL_PATH, SettingsStore
from tests.gui.test_first_start import DEFAULT_ID, catalog_with, first_start, shoot

# A 491 MB download, a warm-up of the prompt prefix and a turn on two busy cores.
pytestmark = [pytest.mark.real_model, pytest.mark.timeout(1800)]

SLOW = 600_000  # a busy two-core machine


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def model_server() -> Iterator[str]:
    """The default model's file, served from the folder `make run` put it in."""
    source = ensure_tool_model(verify=False)
    handler = functools.partial(_Quiet, directory=str(source.parent))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    assert isinstance(host, str)
    yield f"http://{host}:{port}/{source.name}"
    server.shutdown()
    server.server_close()


def test_a_first_run_ends_with_the_default_model_calling_a_tool(
    qtbot, model_server: str, data_dir: Path
) -> None:
    window = first_start(data_dir, catalog_with(model_server))
    qtbot.addWidget(window)
    wizard = window.model_menu.wizard
    assert wizard is not None
    qtbot.waitUntil(lambda: wizard.manager.survey is not None, timeout=SLOW)
    wizard.next()
    assert wizard.model_page.selected_entry_id() == DEFAULT_ID
    calls: list[CallRecord] = []
    window.worker.tool_call.connect(calls.append)  # (in the worker's thread: a list append)
    started = time.monotonic()
    wizard.next()  # the download starts
    wizard.next()
    assert "is downloading" in wizard.done_page.summary.text()
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.FinishButton), Qt.MouseButton.LeftButton)

    target = data_dir / "models" / QWEN_CODER.filename
    qtbot.waitUntil(lambda: window.model_ready and window.model_path == target, timeout=SLOW)
    ready = time.monotonic() - started
    assert target.stat().st_size == QWEN_CODER.size  # checked against its SHA-256 on the way
    assert window.model_name.startswith("Qwen2.5")
    assert "could not" not in window.chat_view.plain_text()
    database = Database.open(data_dir)
    try:
        settings = SettingsStore(database).all()
    finally:
        database.close()
    assert settings[MODEL_PATH] == str(target) and settings[FIRST_RUN_DONE] is True

    window.input.setFocus()
    qtbot.keyClicks(window.input, "Remember that my favourite colour is green.")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    sent = time.monotonic()
    qtbot.waitUntil(lambda: window.busy, timeout=10_000)
    # A change the gate asks about is allowed, as the user would (nothing here should ask).
    qtbot.waitUntil(lambda: not window.busy or window.last_dialog is not None, timeout=SLOW)
    asked = window.last_dialog is not None
    if asked:
        shoot(window.last_dialog, "first-run-6-asked.png")
        window.last_dialog.allow_button.click()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: not window.busy, timeout=SLOW)
    turn = time.monotonic() - sent
    print(f"download, check and load: {ready:.1f} s; the first turn: {turn:.1f} s")
    shoot(window, "first-run-6-chatting.png")
    assert [call.name for call in calls] == ["remember"], window.chat_view.plain_text()
    assert calls[0].status == "ok" and not asked
    assert "green" in str(calls[0].arguments)
