"""The real window for the AT-SPI test, in its own process on an X display: a scripted model
reads a file and then proposes to write one, so the confirmation dialog opens with where the
request came from. Prints one JSON line when the dialog is showing, then waits (the test
reads the accessibility tree meanwhile) until its stdin closes.

    python -m tests.gui.atspi_app DATA_DIR FOLDER
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication

from app.ui.main_window import MainWindow
from tests.scripting import call


class Ender(QObject):
    end = Signal()


def main(data: str, folder: str) -> int:
    app = QApplication(sys.argv[:1])
    app.setApplicationName("Hearth")
    script = Path(data) / "script.json"
    script.write_text(
        json.dumps(
            {
                "format": "qwen3.5",
                "turns": [
                    call("read_file", path="notes.txt"),
                    call("write_file", path="copy.txt", content="copied"),
                    "Done.",
                ],
            }
        )
    )
    window = MainWindow(script, data_dir=Path(data), folders=[Path(folder)])
    window.show()
    state = {"sent": False, "told": False}

    def tick() -> None:
        if not state["sent"] and window.model_ready:
            window.input.setPlainText("Copy my notes")
            window.send()
            state["sent"] = True
        dialog = window.last_dialog
        if dialog is not None and dialog.isVisible() and not state["told"]:
            state["told"] = True
            print(json.dumps({"dialog": dialog.windowTitle()}), flush=True)

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(50)

    def finish() -> None:
        if window.last_dialog is not None:
            window.last_dialog.reject()  # the worker waits for an answer
        window.close()
        app.quit()

    # The test closes stdin when it has read the tree (a signal emitted from that thread
    # reaches `finish` in this one); never outlive a test run either.
    ender = Ender()
    ender.end.connect(finish)

    def end_when_read() -> None:
        sys.stdin.read()
        ender.end.emit()

    threading.Thread(target=end_when_read, daemon=True).start()
    QTimer.singleShot(120_000, finish)
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:3]))
