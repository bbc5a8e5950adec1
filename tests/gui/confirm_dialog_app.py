"""Show the real confirmation dialog on whatever display is set, for a screen reader to read.

Used by test_atspi_confirm.py in a child process under Xvfb, with the accessibility bridge on:
    python -m tests.gui.confirm_dialog_app
A line "show" on standard input opens the dialog (the reader sends it once the app is on the
accessibility bus, so the opening announcement has someone to reach); a line "edit" edits the
file's name and shows the edit's preview; the program ends when its standard input closes.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QSocketNotifier
from PySide6.QtWidgets import QApplication, QLineEdit

from app.agent.turn.confirm import ConfirmationRequest
from app.ui.confirm_dialog import ConfirmDialog

PREVIEW = (
    "Replace notes.txt (20 bytes)\nIn the folder /home/ana/docs\n\n"
    "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n keep\n-old line\n+new line"
)
REQUEST = ConfirmationRequest(
    tool="write_file",
    arguments={"path": "notes.txt", "content": "keep\nnew line", "overwrite": True},
    label="destructive",
    reasons=("write_file deletes or overwrites something",),
    preview=PREVIEW,
    provenance="the file notes.txt",
    editable=("path", "content", "overwrite"),
)


def main() -> int:
    app = QApplication(sys.argv[:1])
    dialog = ConfirmDialog(REQUEST)
    stdin = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)

    def command() -> None:
        line = sys.stdin.readline()
        if not line:  # closed: the reader is done
            app.quit()
        elif line.strip() == "show":
            dialog.show()
        elif line.strip() == "edit":
            dialog.edit_button.click()
            path = dialog.fields["path"]
            assert isinstance(path, QLineEdit)
            path.setText("summary.txt")
            dialog.refresh_preview()

    stdin.activated.connect(command)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
