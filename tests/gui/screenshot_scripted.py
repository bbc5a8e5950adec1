"""The real window with a scripted reply (a tool card and Markdown), on whatever display is
set, in a light or dark palette; saves a screenshot and prints where Send and Stop ended up.

Used by test_window_screenshots.py in a child process under Xvfb (QT_SCALE_FACTOR=2 for the
scaled run):  python -m tests.gui.screenshot_scripted light|dark DATA_DIR FOLDER OUT.png
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from app.ui.main_window import MainWindow
from tests.scripting import call

REPLY = (
    "Your folder has **one** file, `notes.txt`:\n\n"
    "- notes.txt: the meeting notes\n\n"
    "```python\nprint('hello')\n```\n"
)
# Measured on a dark GTK desktop (Adwaita dark, the UI audit's run 5).
DARK = {
    QPalette.ColorRole.Window: "#2d2d2d",
    QPalette.ColorRole.WindowText: "#eeeeee",
    QPalette.ColorRole.Base: "#323232",
    QPalette.ColorRole.AlternateBase: "#3a3a3a",
    QPalette.ColorRole.Text: "#ffffff",
    QPalette.ColorRole.Button: "#3c3c3c",
    QPalette.ColorRole.ButtonText: "#eeeeee",
    QPalette.ColorRole.PlaceholderText: "#a0a0a0",
    QPalette.ColorRole.Mid: "#5a5a5a",
}


def _global_rect(widget: QWidget) -> QRect:
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def main(mode: str, data: str, folder: str, out: str) -> int:
    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    if mode == "dark":
        app.styleHints().setColorScheme(Qt.ColorScheme.Dark)
        palette = QPalette(app.palette())
        for role, colour in DARK.items():
            palette.setColor(role, QColor(colour))
        app.setPalette(palette)
    script = Path(data) / "script.json"
    script.write_text(
        json.dumps({"format": "qwen3.5", "turns": [call("list_folder", path=folder), REPLY]})
    )
    window = MainWindow(script, data_dir=Path(data), folders=[Path(folder)])
    window.show()
    state = {"sent": False}

    def tick() -> None:
        if not state["sent"] and window.model_ready:
            window.input.setPlainText("What is in my folder?")
            window.send()
            state["sent"] = True
        elif state["sent"] and not window.busy:
            timer.stop()
            QTimer.singleShot(400, finish)  # let the last repaint land

    def finish() -> None:
        window.grab().save(out)
        screen = window.screen().availableGeometry()
        print(
            json.dumps(
                {
                    "platform": QApplication.platformName(),
                    "ratio": window.devicePixelRatioF(),
                    "view": window.chat_view.plain_text(),
                    "window_on_screen": screen.contains(window.frameGeometry()),
                    "send_on_screen": screen.contains(_global_rect(window.send_button)),
                    "stop_on_screen": screen.contains(_global_rect(window.stop_button)),
                    "input_on_screen": screen.contains(_global_rect(window.input)),
                }
            ),
            flush=True,
        )
        window.close()
        app.quit()

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(50)
    QTimer.singleShot(120_000, app.quit)  # never hang a test run
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:5]))
