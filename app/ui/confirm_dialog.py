"""The confirmation dialog: shows exactly what will run, where the request came from, and lets
the user allow it once, edit it (the gate checks the edit again), or deny it.

Everything shown is rendered by code from the arguments that will run; nothing here comes
from the model's prose. Deny is the default button, so Enter or Escape never allows.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.agent.confirm import Answer, ConfirmationAnswer, ConfirmationRequest

_LABEL_WORDS = {
    "outbound": "send something off this computer",
    "destructive": "change or delete something",
    "write": "save something",
    "read": "look something up",
}


class ConfirmDialog(QDialog):
    def __init__(self, request: ConfirmationRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.result_answer = ConfirmationAnswer.deny()
        self.setWindowTitle("Hearth asks before it acts")
        self.setAccessibleName("Confirmation")
        self.setMinimumWidth(560)

        what = _LABEL_WORDS.get(request.label, "do something")
        heading = QLabel(f"<b>Hearth wants to {what}: {request.tool}</b>")
        heading.setAccessibleName(f"Hearth wants to {what}: {request.tool}")
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        if request.provenance:
            origin = QLabel(f"⚠ Proposed after reading {request.provenance}.")
            origin.setWordWrap(True)
            origin.setStyleSheet("color: #8a4b00")
            origin.setAccessibleName("Where this request came from")
            layout.addWidget(origin)
        for value in request.untyped_values:
            flag = QLabel(f"⚠ You never typed this: {value}")
            flag.setWordWrap(True)
            flag.setStyleSheet("color: #b3261e")
            layout.addWidget(flag)
        for reason in request.reasons:
            line = QLabel(f"• {reason}")
            line.setWordWrap(True)
            layout.addWidget(line)

        self.preview = QPlainTextEdit(request.preview)
        self.preview.setReadOnly(True)
        self.preview.setAccessibleName("Exactly what will happen")
        self.preview.setFont(QFont("monospace"))
        layout.addWidget(QLabel("Exactly what will happen:"))
        layout.addWidget(self.preview, 1)

        self.editor = QWidget()
        self.fields: dict[str, QWidget] = {}
        form = QFormLayout(self.editor)
        for name in request.editable:
            field = _field_for(request.arguments.get(name))
            field.setAccessibleName(f"Edit {name}")
            self.fields[name] = field
            form.addRow(name, field)
        self.editor.setVisible(False)
        layout.addWidget(self.editor)

        # The offer's first line is the choice; the rest says exactly what "always" covers.
        offer, _, covers = (request.standing_offer or "").partition("\n")
        self.always = QCheckBox(offer)
        self.always.setAccessibleName(offer or "Always allow")
        self.always.setAccessibleDescription(covers)
        self.always.setVisible(bool(request.standing_offer))
        layout.addWidget(self.always)
        self.always_scope = QLabel(covers)
        self.always_scope.setWordWrap(True)
        self.always_scope.setStyleSheet("color: palette(mid); margin-left: 24px")
        self.always_scope.setAccessibleName("What always allowing covers")
        self.always_scope.setVisible(bool(request.standing_offer and covers))
        layout.addWidget(self.always_scope)

        buttons = QDialogButtonBox()
        self.allow_button = QPushButton("Allow once")
        self.edit_button = QPushButton("Edit…")
        self.deny_button = QPushButton("Deny")
        for button in (self.allow_button, self.edit_button, self.deny_button):
            button.setAutoDefault(False)
        self.deny_button.setDefault(True)
        buttons.addButton(self.allow_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.edit_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.deny_button, QDialogButtonBox.ButtonRole.RejectRole)
        layout.addWidget(buttons)
        # A batch of changes is answered as a whole: there is nothing to edit one by one.
        self.edit_button.setVisible(bool(request.editable))
        self.allow_button.clicked.connect(self._allow)
        self.edit_button.clicked.connect(self._toggle_edit)
        self.deny_button.clicked.connect(self.reject)
        self.deny_button.setFocus()

    def _toggle_edit(self) -> None:
        editing = not self.editor.isVisible()
        self.editor.setVisible(editing)
        self.always.setVisible(bool(self.request.standing_offer) and not editing)
        self.always_scope.setVisible(
            self.always.isVisibleTo(self) and bool(self.always_scope.text())
        )
        self.preview.setVisible(not editing)
        self.allow_button.setText("Allow edited" if editing else "Allow once")
        if editing and self.fields:
            next(iter(self.fields.values())).setFocus()

    def _allow(self) -> None:
        if self.editor.isVisible():
            edited = {
                name: _value_of(field, self.request.arguments.get(name))
                for name, field in self.fields.items()
            }
            if edited != self.request.arguments:
                self.result_answer = ConfirmationAnswer(Answer.EDITED, edited)
                self.accept()
                return
        always = bool(self.request.standing_offer) and self.always.isChecked()
        self.result_answer = ConfirmationAnswer(Answer.APPROVED, always=always)
        self.accept()

    def reject(self) -> None:
        self.result_answer = ConfirmationAnswer.deny()
        super().reject()


def _field_for(value: Any) -> QWidget:
    if isinstance(value, bool):
        box = QCheckBox()
        box.setChecked(value)
        return box
    if isinstance(value, str) and ("\n" in value or len(value) > 80):
        editor = QPlainTextEdit(value)
        editor.setMinimumHeight(100)
        return editor
    if isinstance(value, str):
        return QLineEdit(value)
    return QLineEdit(json.dumps(value, ensure_ascii=False))


def _value_of(field: QWidget, original: Any) -> Any:
    if isinstance(field, QCheckBox):
        return field.isChecked()
    if isinstance(field, QPlainTextEdit):
        text = field.toPlainText()
    else:
        text = field.text() if isinstance(field, QLineEdit) else ""
    if isinstance(original, str):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text  # the gate's validation will refuse a wrong type
