"""Run the real window on whatever display is set, have one exchange, save a screenshot.

Used by test_xvfb_screenshot.py in a child process under Xvfb:
    python -m tests.gui.screenshot_app MODEL.gguf OUT.png "message"
Prints the conversation as JSON on stdout.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.llm.runtime import RuntimeSettings
from app.ui.main_window import MainWindow


def main(model: str, out: str, message: str) -> int:
    app = QApplication(sys.argv[:1])
    window = MainWindow(Path(model), RuntimeSettings(n_ctx=2048, seed=7))
    window.worker.sampling.max_tokens = 80
    window.show()
    state = {"sent": False}

    def tick() -> None:
        if not state["sent"] and window.model_ready:
            window.input.setPlainText(message)
            window.send()
            state["sent"] = True
        elif state["sent"] and not window.busy:
            timer.stop()
            QTimer.singleShot(300, finish)  # let the last repaint land

    def finish() -> None:
        window.grab().save(out)
        print(
            json.dumps(
                {
                    "platform": QApplication.platformName(),
                    "view": window.chat_view.plain_text(),
                    "status": window.status_label.text(),
                }
            )
        )
        window.close()
        app.quit()

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(50)
    QTimer.singleShot(120_000, app.quit)  # never hang a test run
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:4]))
