"""`--smoke-test MESSAGE`: check an installed app end to end, then quit.

Opens the real main window, waits for the model to load, sends MESSAGE through the window as a
user would, waits for the reply, and prints one JSON line per step on stdout (`ready`, then
`answer`); the exit code is 0 only when a non-empty answer arrived. The packaging test runs it
on the installed package offscreen.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

_started = time.monotonic()


def _emit(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, "seconds": round(time.monotonic() - _started, 3), **fields}))
    sys.stdout.flush()


def _last_answer(window: Any) -> str:
    for message in reversed(window.conversation.messages):
        if message.role == "assistant" and message.content.strip():
            return str(message.content).strip()
    return ""


# A check of the installed app, not of its speed (bench/ measures that): in CI it runs at the
# lowest priority beside the real-model tests, where the first answer's cold prompt evaluation
# (about a minute on idle cores) took over 300 s. The installer test's `timeout 900` bounds it.
SMOKE_TIMEOUT = 840.0


def start(window: Any, app: QApplication, message: str, timeout: float = SMOKE_TIMEOUT) -> None:
    """Drive `window` (a MainWindow) through one message; quits `app` with 0 or 1."""
    state: dict[str, str] = {"phase": "loading"}
    deadline = time.monotonic() + timeout

    def finish(code: int, **fields: Any) -> None:
        timer.stop()
        _emit("answer" if code == 0 else "failed", **fields)
        window.close()
        app.exit(code)

    def tick() -> None:
        if "failed" in state:
            finish(1, reason=f"model not loaded: {state['failed']}")
        elif time.monotonic() > deadline:
            finish(1, reason=f"timed out while {state['phase']}")
        elif state["phase"] == "loading" and window.model_ready:
            visible = isinstance(window, QMainWindow) and window.isVisible()
            _emit("ready", title=window.windowTitle(), visible=visible, model=window.model_name)
            window.input.setPlainText(message)
            window.send()
            state["phase"] = "answering"
        elif state["phase"] == "answering" and not window.busy:
            answer = _last_answer(window)
            finish(0 if answer else 1, answer=answer, status=window.status_label.text())

    timer = QTimer(window)
    timer.timeout.connect(tick)
    timer.start(20)
    # Emitted in the worker thread: only note it here; tick() acts in the GUI thread.
    window.worker.load_failed.connect(lambda text: state.update(failed=str(text)))
