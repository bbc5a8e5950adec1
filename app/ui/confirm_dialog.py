"""The confirmation dialog: shows exactly what will run, where the request came from, and lets
the user allow it once, edit it (the gate checks the edit again), or deny it.

Everything shown is rendered by code from the arguments that will run; nothing here comes
from the model's prose, and every text is plain text (a value cannot bring markup). It speaks
in words (`app.agent.tools.wording`): a plain title, reasons without tool names, labelled fields, a
diff without its code headers. Deny is the default button, so Enter or Escape never allows.

Keyboard: Tab goes Deny → the preview → "always" → the edit fields → Allow once → Edit… → Deny
(`_chain_tabs`). The buttons read "Allow once · Edit… · Deny" on every desktop: a fixed order
keeps habits safe on all of them (on GNOME, where the rightmost button is usually OK, it is
Deny), where a `QDialogButtonBox` would put Allow once rightmost there. Enter in an edit field
shows the new preview of the edit and never answers: an action that sends mail or overwrites
a file is not allowed by a key pressed out of habit, and not silently denied either.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from typing import Any

from PySide6.QtCore import QObject, QSize, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import (
    QAccessible,
    QFont,
    QKeyEvent,
    QPalette,
    QShowEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.agent.tools.contact_names import recipient_addresses
from app.agent.tools.readable_diff import DiffLine, readable_lines
from app.agent.tools.wording import (
    arguments_in_words,
    describe_call,
    field_label,
    offer_in_words,
    reason_in_words,
)
from app.agent.turn.confirm import Answer, ConfirmationAnswer, ConfirmationRequest
from app.ui.announce import announce
from app.ui.contrast_colours import diff_colours, focus_ring, on_window

_LABEL_WORDS = {
    "outbound": "send something off this computer",
    "destructive": "change or delete something",
    "write": "save something",
    "read": "look something up",
}
# The focused control wears a ring (3:1 against the window, WCAG 1.4.11); the default button
# (Deny) is bold. Without this, Fusion draws the same frame for the focused and the default
# button, and a faint one round the focused preview (WCAG 2.4.7, focus visible).
_STYLE = """
QPushButton {{ padding: 4px 14px; border: 1px solid palette(mid); border-radius: 4px;
              background: palette(button); color: palette(button-text); }}
QPushButton:default {{ font-weight: bold; }}
QPushButton:focus {{ border: 3px solid {ring}; padding: 2px 12px; }}
QPushButton:disabled {{ color: palette(mid); }}
QPlainTextEdit, QLineEdit {{ border: 1px solid palette(mid); border-radius: 2px;
                             padding: 2px; background: palette(base); }}
QPlainTextEdit:focus, QLineEdit:focus {{ border: 3px solid {ring}; padding: 0px; }}
"""
_DEBOUNCE_MS = 400  # an edit's preview follows typing, not every key


class _DiffHighlighter(QSyntaxHighlighter):
    """Colours added and removed lines from the palette (their +/- marks stay as well)."""

    def __init__(self, document: QTextDocument, palette: QPalette) -> None:
        super().__init__(document)
        self.kinds: list[str] = []
        self.formats: dict[str, QTextCharFormat] = {}
        for kind, (text, background) in diff_colours(palette).items():
            form = QTextCharFormat()
            form.setForeground(text)
            form.setBackground(background)
            self.formats[kind] = form
        where = QTextCharFormat()
        where.setFontItalic(True)
        self.formats["where"] = where

    def highlightBlock(self, text: str) -> None:
        number = self.currentBlock().blockNumber()
        kind = self.kinds[number] if number < len(self.kinds) else "text"
        form = self.formats.get(kind)
        if form is not None:
            self.setFormat(0, len(text), form)


class _PreviewRunner(QObject):
    """Runs the request's previewer off the GUI thread (it may read the disk)."""

    ready = Signal(int, str)

    def run(self, request: ConfirmationRequest, generation: int, edited: dict[str, Any]) -> None:
        previewer = request.preview_for
        assert previewer is not None

        def work() -> None:
            try:
                text = previewer(edited)
            except Exception as exc:  # a broken preview says so; Allow stays possible to judge
                text = f"The preview of this edit failed ({type(exc).__name__})."
            with contextlib.suppress(RuntimeError):  # the dialog was closed meanwhile
                self.ready.emit(generation, text)

        QThreadPool.globalInstance().start(work)


class _WholeScroll(QScrollArea):
    """A scroll area that asks for room for all of its content (Qt's asks for at most 24
    lines): the dialog is as tall as what it shows, up to the screen (`fit_screen`)."""

    def sizeHint(self) -> QSize:
        body = self.widget()
        if body is None:
            return super().sizeHint()
        hint = body.sizeHint()
        return QSize(hint.width() + self.verticalScrollBar().sizeHint().width(), hint.height())


class ConfirmDialog(QDialog):
    def __init__(self, request: ConfirmationRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.result_answer = ConfirmationAnswer.deny()
        self.setWindowTitle("Hearth asks before it acts")
        self.setAccessibleName(self.windowTitle())
        self.setMinimumWidth(560)
        self.setStyleSheet(_STYLE.format(ring=focus_ring(self.palette()).name()))
        # Everything but the buttons scrolls, so the buttons stay on a small or scaled screen
        # (audit: at 2x on a 768 px screen, Edit… pushed them off it).
        outer = QVBoxLayout(self)
        self.body = QWidget()
        layout = QVBoxLayout(self.body)
        layout.setContentsMargins(0, 0, 0, 0)
        self._outer, self._body_layout = outer, layout
        self.scroller = _WholeScroll()
        self.scroller.setWidget(self.body)
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroller.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        outer.addWidget(self.scroller, 1)
        # An edit's preview: asked for after typing settles, or at once on Enter.
        self._generation = 0
        self._previewed = True  # the preview shown is of the values in the fields
        self._runner = _PreviewRunner(self)
        self._runner.ready.connect(self._preview_ready)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(_DEBOUNCE_MS)
        self._debounce.timeout.connect(self.refresh_preview)

        what = _LABEL_WORDS.get(request.label, "do something")
        layout.addWidget(_plain(f"Hearth wants to {what}:"))
        self.title_text = request.title or describe_call(request.tool, request.arguments)
        self.heading = _plain(self.title_text)
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.heading.setFont(font)
        layout.addWidget(self.heading)

        # Labels keep their text as their accessible name; what they are for is a description.
        palette = self.palette()
        if request.provenance:
            self.origin = _plain(f"⚠ Proposed after reading {request.provenance}.")
            self.origin.setStyleSheet(f"color: {on_window(palette, 'warning').name()}")
            self.origin.setAccessibleDescription("Where this request came from")
            layout.addWidget(self.origin)
        self.flags: list[QLabel] = []
        for value, kind in _flags(request):
            flag = _plain(value)
            flag.setStyleSheet(f"color: {on_window(palette, kind).name()}")
            flag.setAccessibleDescription("A value the model chose, not you")
            layout.addWidget(flag)
            self.flags.append(flag)
        self.contact_lines: list[QLabel] = []
        for recipient, name in request.contacts:
            line = _plain(f"{recipient}: {name} (from your contacts)")
            line.setAccessibleDescription("Whose address this is, from your address books")
            layout.addWidget(line)
            self.contact_lines.append(line)
        if request.reasons:
            layout.addWidget(_plain("Why Hearth asks:"))
        for reason in request.reasons:
            line = _plain(f"• {reason_in_words(reason, request.tool)}")
            line.setAccessibleDescription("A reason Hearth asks")
            layout.addWidget(line)

        self.preview_label = _plain("Exactly what will happen:")
        layout.addWidget(self.preview_label)
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setAccessibleName("Exactly what will happen")
        self.preview.setFont(QFont("monospace"))
        self.preview.setMinimumHeight(120)  # room for a few lines beside the edit fields
        self.preview_label.setBuddy(self.preview)
        self.highlighter = _DiffHighlighter(self.preview.document(), palette)
        self._show_preview(request.preview)
        layout.addWidget(self.preview, 1)
        self.preview_note = _plain("")
        self.preview_note.setAccessibleDescription("The state of the preview")
        self.preview_note.setVisible(False)
        layout.addWidget(self.preview_note)

        self.editor = QWidget()
        self.fields: dict[str, QWidget] = {}
        form = QFormLayout(self.editor)
        form.setContentsMargins(0, 0, 0, 0)
        for name in request.editable:
            field = _field_for(request.arguments.get(name))
            label = field_label(request.tool, name)
            field.setAccessibleName(label)
            caption = QLabel(label)
            caption.setBuddy(field)
            self.fields[name] = field
            form.addRow(caption, field)
            _on_change(field, self._edited)
        self.editor.setVisible(False)
        layout.addWidget(self.editor)

        # The offer's first line is the choice; the rest says exactly what "always" covers.
        offer, _, covers = (request.standing_offer or "").partition("\n")
        offer = offer_in_words(offer, request.tool)
        self.always = QCheckBox(_with_mnemonic(offer))
        self.always.setAccessibleName(offer or "Always allow")
        self.always.setAccessibleDescription(covers)
        self.always.setVisible(bool(request.standing_offer))
        layout.addWidget(self.always)
        self.always_scope = _plain(covers)
        self.always_scope.setStyleSheet("margin-left: 24px")
        self.always_scope.setAccessibleDescription("What always allowing covers")
        self.always_scope.setVisible(bool(request.standing_offer and covers))
        layout.addWidget(self.always_scope)

        self.allow_button = QPushButton("&Allow once")
        self.edit_button = QPushButton("&Edit…")
        self.deny_button = QPushButton("&Deny")
        row = QHBoxLayout()
        row.addStretch(1)
        for button in (self.allow_button, self.edit_button, self.deny_button):
            button.setAutoDefault(False)
            row.addWidget(button)
        self.deny_button.setDefault(True)
        outer.addLayout(row)
        # A batch of changes is answered as a whole: there is nothing to edit one by one.
        self.edit_button.setVisible(bool(request.editable))
        self.allow_button.clicked.connect(self._allow)
        self.edit_button.clicked.connect(self._toggle_edit)
        self.deny_button.clicked.connect(self.reject)
        self._chain_tabs()
        self.deny_button.setFocus()

        self.announcement = f"{self.windowTitle()}: {self.title_text}"

    def _chain_tabs(self) -> None:
        """Deny → preview → always → fields → Allow → Edit → Deny; hidden ones are skipped."""
        chain: list[QWidget] = [
            self.deny_button,
            self.preview,
            self.always,
            *self.fields.values(),
            self.allow_button,
            self.edit_button,
        ]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    def showEvent(self, event: QShowEvent) -> None:
        """Say that the dialog opened and what it asks (a screen reader would stay silent)."""
        super().showEvent(event)
        self.fit_screen()
        self._announce(self.announcement, QAccessible.AnnouncementPoliteness.Assertive)

    def fit_screen(self) -> None:
        """As tall as its content wants, but never taller than the screen's free height, and
        on it: what does not fit scrolls above the buttons, which stay visible."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            return
        free = screen.availableGeometry()
        self._body_layout.activate()  # a field just shown counts in the size wanted
        self.scroller.updateGeometry()
        self._outer.activate()
        frame = self.frameGeometry().size() - self.geometry().size()  # the title bar
        height = min(self.sizeHint().height(), free.height() - frame.height())
        width = min(max(self.width(), self.sizeHint().width()), free.width() - frame.width())
        self.resize(max(width, self.minimumSizeHint().width()), max(height, 1))
        place = self.frameGeometry()
        x = min(max(place.left(), free.left()), free.right() + 1 - place.width())
        y = min(max(place.top(), free.top()), free.bottom() + 1 - place.height())
        if (x, y) != (place.left(), place.top()):
            self.move(x, y)

    def _announce(self, text: str, politeness: QAccessible.AnnouncementPoliteness) -> None:
        announce(self, text, assertive=politeness == QAccessible.AnnouncementPoliteness.Assertive)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter in an edit field shows the edit's preview; it neither allows nor denies."""
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        focus = self.focusWidget()
        if enter and self.editing and focus is not None and self.editor.isAncestorOf(focus):
            self.refresh_preview()
            event.accept()
            return
        super().keyPressEvent(event)

    # -- editing ---------------------------------------------------------------------------

    @property
    def editing(self) -> bool:
        return not self.editor.isHidden()

    def _toggle_edit(self) -> None:
        editing = not self.editing
        self.editor.setVisible(editing)
        self.always.setVisible(bool(self.request.standing_offer) and not editing)
        self.always_scope.setVisible(
            self.always.isVisibleTo(self) and bool(self.always_scope.text())
        )
        self.allow_button.setText("&Allow edited" if editing else "&Allow once")
        self.edit_button.setText("Undo &edits" if editing else "&Edit…")
        if self.isVisible():
            self.fit_screen()  # the fields need room: grow up to the screen, then scroll
        if editing:
            if self.fields:
                next(iter(self.fields.values())).setFocus()
            return
        for name, field in self.fields.items():  # back to exactly what was proposed
            _set_value(field, self.request.arguments.get(name))
        self._debounce.stop()
        self._generation += 1
        self._show_edit(self.request.preview, self.request.arguments)

    def edited_arguments(self) -> dict[str, Any]:
        return {
            name: _value_of(field, self.request.arguments.get(name))
            for name, field in self.fields.items()
        }

    def _edited(self) -> None:
        """A field changed: the preview no longer shows what Allow would run."""
        self._generation += 1
        if self.edited_arguments() == self.request.arguments:
            self._debounce.stop()
            self._show_edit(self.request.preview, self.request.arguments)
            return
        self._previewed = False
        self.allow_button.setEnabled(False)
        self.preview_note.setText("Your edit is not in the preview yet: press Enter to see it.")
        self.preview_note.setVisible(True)
        self._debounce.start()

    def refresh_preview(self) -> None:
        """Show what the values in the fields would do (the agent's own preview, run off the
        GUI thread); Allow edited waits for it."""
        self._debounce.stop()
        if self._previewed:
            return
        edited = self.edited_arguments()
        generation = self._generation
        if self.request.preview_for is None:
            self._preview_ready(generation, arguments_in_words(self.request.tool, edited))
            return
        self.preview_note.setText("Working out what your edit would do…")
        self._runner.run(self.request, generation, edited)

    def _preview_ready(self, generation: int, text: str) -> None:
        if generation != self._generation or not self.editing:
            return  # the fields changed again since, or editing was undone
        self._show_edit(text, self.edited_arguments())

    def _show_edit(self, preview: str, arguments: dict[str, Any]) -> None:
        self._previewed = True
        self._show_preview(preview)
        self.title_text = describe_call(self.request.tool, arguments)
        self.heading.setText(self.title_text)
        edited = arguments != self.request.arguments
        self.preview_note.setText("The preview shows your edit." if edited else "")
        self.preview_note.setVisible(edited)
        self.allow_button.setEnabled(True)
        if edited:  # Enter in a field otherwise seems to do nothing to someone who cannot see
            polite = QAccessible.AnnouncementPoliteness.Polite
            self._announce(f"The preview shows your edit: {self.title_text}", polite)

    def _show_preview(self, text: str) -> None:
        lines: list[DiffLine] = readable_lines(text)
        self.highlighter.kinds = [line.kind for line in lines]
        self.preview.setPlainText("\n".join(line.text for line in lines))

    # -- answers ---------------------------------------------------------------------------

    def _allow(self) -> None:
        if self.editing:
            if not self._previewed:  # never allow what the preview does not show
                self.refresh_preview()
                return
            edited = self.edited_arguments()
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


def _flags(request: ConfirmationRequest) -> list[tuple[str, str]]:
    """(text, colour) of each "you never typed this" line. A recipient found in the user's
    contacts is still one the user never typed (`app.agent.tools.contact_names`): its line names
    the contact, so the user can see it is the person meant; one in no address book says so."""
    names = dict(request.contacts)
    named = set(recipient_addresses(request.arguments))
    flags = []
    for value in request.untyped_values:
        name = names.get(value)
        if name:
            text = f"⚠ You never typed this: {value}, the address of {name} in your contacts"
            flags.append((text, "warning"))
        elif request.contacts_checked and value in named:
            flags.append(
                (f"⚠ You never typed this, and it is not in your contacts: {value}", "danger")
            )
        else:
            flags.append((f"⚠ You never typed this: {value}", "danger"))
    return flags


def _plain(text: str) -> QLabel:
    """A wrapped label that shows its text as text, never as markup."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


def _with_mnemonic(offer: str) -> str:
    """ "Al&ways allow …": W, since A, E and D belong to the buttons; a "&" in the text stays."""
    text = offer.replace("&", "&&")
    return "Al&" + text[2:] if text.startswith("Always") else text


def _is_word_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and "," not in v for v in value)


def _field_for(value: Any) -> QWidget:
    if isinstance(value, bool):
        box = QCheckBox()
        box.setChecked(value)
        return box
    if isinstance(value, str) and ("\n" in value or len(value) > 80):
        editor = QPlainTextEdit(value)
        editor.setTabChangesFocus(True)  # Tab leaves the field; it never traps the keyboard
        editor.setMinimumHeight(100)
        return editor
    line = QLineEdit()
    _set_value(line, value)
    return line


def _on_change(field: QWidget, slot: Any) -> None:
    if isinstance(field, QCheckBox):
        field.toggled.connect(slot)
    elif isinstance(field, (QPlainTextEdit, QLineEdit)):
        field.textChanged.connect(slot)


def _set_value(field: QWidget, value: Any) -> None:
    if isinstance(field, QCheckBox):
        field.setChecked(bool(value))
    elif isinstance(field, QPlainTextEdit):
        field.setPlainText(str(value))
    elif isinstance(field, QLineEdit):
        if isinstance(value, str):
            field.setText(value)
        elif _is_word_list(value):  # addresses: "a@x.org, b@y.org", not JSON
            field.setText(", ".join(value))
        else:
            field.setText(json.dumps(value, ensure_ascii=False))


def _value_of(field: QWidget, original: Any) -> Any:
    if isinstance(field, QCheckBox):
        return field.isChecked()
    if isinstance(field, QPlainTextEdit):
        text = field.toPlainText()
    else:
        text = field.text() if isinstance(field, QLineEdit) else ""
    if isinstance(original, str):
        return text
    if _is_word_list(original) and not text.lstrip().startswith("["):
        return [part.strip() for part in text.split(",") if part.strip()]
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text  # the gate's validation will refuse a wrong type
