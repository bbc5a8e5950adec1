"""Standing permissions ("always allow"): what the user granted, each revocable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class PermissionsDialog(QDialog):
    def __init__(self, revoke: Callable[[int], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Permissions: what Hearth may do without asking")
        self.setAccessibleName("Permissions")
        self.revoke = revoke
        self.rows: list[QWidget] = []
        layout = QVBoxLayout(self)
        # Says what the list is only when there is one (it read "You allowed these…" right
        # above "No standing permissions").
        self.intro = QLabel(
            "You allowed these once and for all. Money, health, personal data, deleting and "
            "new recipients always ask. Revoke any of them here."
        )
        self.intro.setWordWrap(True)
        layout.addWidget(self.intro)
        self.list_area = QVBoxLayout()
        layout.addLayout(self.list_area)
        self.empty = QLabel("No standing permissions: Hearth asks every time.")
        layout.addWidget(self.empty)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def show_grants(self, grants: list[dict[str, Any]]) -> None:
        for row in self.rows:
            row.deleteLater()
        self.rows = []
        for grant in grants:
            row = QWidget()
            line = QHBoxLayout(row)
            line.addWidget(QLabel(f"{grant['text']} (since {grant['created']})"), 1)
            button = QPushButton("Revoke")
            button.setAccessibleName(f"Revoke {grant['text']}")
            button.clicked.connect(lambda _=False, gid=grant["id"]: self.revoke(gid))
            line.addWidget(button)
            self.list_area.addWidget(row)
            self.rows.append(row)
        self.empty.setVisible(not grants)
        self.intro.setVisible(bool(grants))
