"""The activity view: the audit log of tool calls, newest first (read-only), in the chat's
words: what was done as its card says it, how it went, what was asked (as the confirmation
dialog labels it) and what came back, never raw JSON (audit: "Tool: write_file",
"Decision: confirm", arguments with \\n escapes, no result)."""

from __future__ import annotations

import json
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

from app.agent.tools.wording import (
    arguments_in_words,
    describe_call,
    outcome_in_words,
    reason_in_words,
    result_in_words,
)

COLUMNS = ("When", "What", "How it went", "Asked", "Result")
_WIDTHS = (140, 200, 170, 250)  # the Result column takes the rest
_RESULT_CHARS = 300  # the log keeps a preview; the table shows its start


class ActivityDialog(QDialog):
    def __init__(self, rows: list[dict[str, Any]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Activity: what Hearth did")
        self.setAccessibleName("Activity")
        self.resize(1000, 460)
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Every tool call, what Hearth's safety check decided, your answer, and the "
            "outcome. Passwords and codes are hidden."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(len(rows), len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAccessibleName("Tool calls")
        self.table.setWordWrap(True)
        for row, record in enumerate(rows):
            for column, value in enumerate(row_in_words(record)):
                self.table.setItem(row, column, QTableWidgetItem(value))
        header = self.table.horizontalHeader()
        for column, width in enumerate(_WIDTHS):
            self.table.setColumnWidth(column, width)
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        layout.addWidget(self.table)
        self.empty = QLabel("Nothing yet: Hearth has not used a tool.")
        self.empty.setVisible(not rows)
        self.table.setVisible(bool(rows))
        layout.addWidget(self.empty)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


def row_in_words(record: dict[str, Any]) -> tuple[str, str, str, str, str]:
    """One audit row as the table shows it: (when, what, how it went, asked, result)."""
    tool = str(record.get("tool", ""))
    arguments = _parsed(record.get("arguments"), {})
    arguments = arguments if isinstance(arguments, dict) else {}
    status = str(record.get("status", ""))
    how = outcome_in_words(str(record.get("decision", "")), record.get("answer"), status)
    if record.get("decision") == "deny":  # why Hearth refused it
        reasons = _parsed(record.get("reasons"), [])
        why = (
            [reason_in_words(str(r), tool) for r in reasons if r]
            if isinstance(reasons, list)
            else []
        )
        if why:
            how += "\n" + "; ".join(why)
    result = result_in_words(tool, _read_cut(record.get("result") or ""), _RESULT_CHARS)
    return (
        str(record.get("at", "")),
        describe_call(tool, arguments),
        how,
        arguments_in_words(tool, arguments),
        result,
    )


def _parsed(value: Any, empty: Any) -> Any:
    """A JSON column read back; a value that is not JSON stays as it is."""
    if not isinstance(value, str):
        return value if value is not None else empty
    try:
        return json.loads(value) if value.strip() else empty
    except ValueError:
        return value


_DECODER = json.JSONDecoder()


def _read_cut(preview: Any) -> Any:
    """A result the log kept as JSON cut after 300 characters (rows written before the log
    kept its previews in words): what survived the cut, read back (the whole items of a
    list, the fields of a record, a cut text as far as it goes), so it too is shown in
    words; anything else as it is."""
    if not isinstance(preview, str) or not preview.endswith("…") or preview[:1] not in "[{":
        return preview
    body = preview[:-1]
    if body[0] == "[":
        items: list[Any] = []
        at = 1
        while True:
            at = _skip(body, at, ", \n")
            try:
                item, at = _DECODER.raw_decode(body, at)
            except ValueError:
                return [*items, "…"] if items else preview
            items.append(item)
    fields: dict[str, Any] = {}
    at = 1
    while True:
        key: Any = None  # the field whose value was cut, once its name was read
        try:
            key, at = _DECODER.raw_decode(body, _skip(body, at, ", \n"))
            at = _skip(body, at, ": ")
            value, at = _DECODER.raw_decode(body, at)
        except ValueError:
            rest = body[at:].lstrip()
            if isinstance(key, str) and rest.startswith('"'):
                fields[key] = rest[1:].replace("\\n", "\n") + "…"  # a text cut short
            return fields or preview
        fields[str(key)] = value


def _skip(text: str, at: int, characters: str) -> int:
    while at < len(text) and text[at] in characters:
        at += 1
    return at
