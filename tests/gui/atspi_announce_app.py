"""The chat view on a real display with the accessibility bridge on: once the listener has
seen this application on the bus (argv[1] exists), a reply ends and an error appears; it
quits when the listener has heard them (argv[2] has argv[3] lines) or after 60 s."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.ui.chat_view import ChatView

NAME = "hearth-announcements"


def main() -> None:
    ready, heard, wanted = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    app = QApplication([])
    app.setApplicationName(NAME)  # how the listener finds it on the bus
    view = ChatView()
    view.resize(500, 400)
    view.show()
    acted = False

    def poll() -> None:
        nonlocal acted
        if not acted and ready.exists():
            acted = True
            view.begin_reply()
            view.append_reply_text("The **answer** is 42.")
            view.end_reply()
            view.add_notice("The model could not be loaded.", "error")
        if heard.exists() and len(heard.read_text().splitlines()) >= wanted:
            app.quit()

    timer = QTimer()
    timer.timeout.connect(poll)
    timer.start(100)
    QTimer.singleShot(60_000, app.quit)
    app.exec()


if __name__ == "__main__":
    main()
