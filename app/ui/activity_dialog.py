"""The activity view: the audit log of tool calls, newest first (read-only)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

COLUMNS = ("When", "Tool", "Decision", "Your answer", "Outcome", "Arguments")


class ActivityDialog(QDialog):
    def __init__(self, rows: list[dict[str, Any]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Activity: what Hearth did")
        self.setAccessibleName("Activity")
        self.resize(900, 420)
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(
                "Every tool call, what Hearth's safety check decided, your answer, and the "
                "outcome. Passwords and codes are hidden."
            )
        )
        self.table = QTableWidget(len(rows), len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAccessibleName("Tool calls")
        for row, record in enumerate(rows):
            values = (
                record["at"],
                record["tool"],
                record["decision"],
                record["answer"] or "",
                record["status"],
                record["arguments"],
            )
            for column, value in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(str(value)))
        self.table.horizontalHeader().setSectionResizeMode(
            len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch
        )
        layout.addWidget(self.table)
        self.empty = QLabel("Nothing yet: Hearth has not used a tool.")
        self.empty.setVisible(not rows)
        self.table.setVisible(bool(rows))
        layout.addWidget(self.empty)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
