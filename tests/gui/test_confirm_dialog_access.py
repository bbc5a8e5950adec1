"""The confirmation dialog from the keyboard, for screen readers and on dark desktops (issue
#19: K3, K7, K8, S2, S7, finding 7), on the real dialog with real key events."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProxyStyle,
    QPushButton,
    QStyle,
    QWidget,
)

from app.agent.turn.confirm import ConfirmationRequest
from app.ui.confirm_dialog import ConfirmDialog
from app.ui.contrast_colours import contrast
from connectors.files import Folders, preview_write

OFFER = "Always allow write_file (no other tool)\nOnly in clean conversations."


def _write_request(folder: Path, **extra: Any) -> ConfirmationRequest:
    """A write_file request whose previews come from the real files connector."""
    (folder / "notes.txt").write_text("keep\nold line\n")
    folders = Folders([folder])

    def preview(arguments: dict[str, Any]) -> str:
        plan = preview_write(
            folders, arguments["path"], arguments["content"], bool(arguments.get("overwrite"))
        )
        return f"{'Replace' if plan.exists else 'Create'} {plan.path}\n\n{plan.diff}"

    arguments = {"path": "notes.txt", "content": "keep\nnew line\n", "overwrite": True}
    return ConfirmationRequest(
        tool="write_file",
        arguments=arguments,
        label="destructive",
        reasons=("write_file deletes or overwrites something",),
        preview=preview(arguments),
        provenance="the file notes.txt",
        editable=tuple(arguments),
        preview_for=preview,
        **extra,
    )


def _open(qtbot, request: ConfirmationRequest) -> ConfirmDialog:
    dialog = ConfirmDialog(request)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.deny_button, timeout=5_000)
    return dialog


def _tab_walk(qtbot, steps: int, backwards: bool = False) -> list[QWidget | None]:
    seen: list[QWidget | None] = []
    key = Qt.Key.Key_Backtab if backwards else Qt.Key.Key_Tab
    for _ in range(steps):
        focus = QApplication.focusWidget()
        assert focus is not None
        qtbot.keyClick(focus, key)
        seen.append(QApplication.focusWidget())
    return seen


def test_tab_alone_reaches_allow_once_and_edit(qtbot, tmp_path: Path) -> None:
    dialog = _open(qtbot, _write_request(tmp_path, standing_offer=OFFER))
    assert _tab_walk(qtbot, 5) == [
        dialog.preview,
        dialog.always,
        dialog.allow_button,
        dialog.edit_button,
        dialog.deny_button,
    ]
    assert _tab_walk(qtbot, 5, backwards=True) == [
        dialog.edit_button,
        dialog.allow_button,
        dialog.always,
        dialog.preview,
        dialog.deny_button,
    ]


def test_tab_reaches_every_edit_field_and_leaves_the_text_box(qtbot, tmp_path: Path) -> None:
    dialog = _open(qtbot, _write_request(tmp_path))
    qtbot.keyClick(dialog.edit_button, Qt.Key.Key_Space)
    path, content, overwrite = dialog.fields.values()
    assert isinstance(content, QPlainTextEdit)
    assert QApplication.focusWidget() is path
    assert _tab_walk(qtbot, 6) == [
        content,  # Tab leaves the multi-line field instead of typing a tab into it
        overwrite,
        dialog.allow_button,
        dialog.edit_button,
        dialog.deny_button,
        dialog.preview,
    ]
    assert "\t" not in content.toPlainText()


def _mnemonic(text: str) -> str | None:
    found = re.search(r"&([^&])", text.replace("&&", ""))
    return found[1].casefold() if found else None


def test_every_button_has_its_own_mnemonic(qtbot, tmp_path: Path) -> None:
    """(Offscreen Qt delivers no Alt shortcuts to a test, so the registered keys are checked.)"""
    dialog = _open(qtbot, _write_request(tmp_path, standing_offer=OFFER))
    controls = [b for b in dialog.findChildren(QAbstractButton) if b.isVisible()]
    letters = [_mnemonic(b.text()) for b in controls]
    assert None not in letters and len(set(letters)) == len(letters)
    keys = {b.shortcut().toString() for b in controls}
    assert keys == {"Alt+A", "Alt+E", "Alt+D", "Alt+W"}
    qtbot.keyClick(dialog.edit_button, Qt.Key.Key_Space)
    assert {b.shortcut().toString() for b in dialog.findChildren(QPushButton)} == {
        "Alt+A",
        "Alt+E",
        "Alt+D",
    }
    assert dialog.allow_button.text() == "&Allow edited"


class _GnomeButtons(QProxyStyle):
    """A desktop whose dialog buttons follow the GNOME order (OK rightmost)."""

    def styleHint(self, hint: QStyle.StyleHint, *args: Any) -> int:
        if hint == QStyle.StyleHint.SH_DialogButtonLayout:
            return QDialogButtonBox.ButtonLayout.GnomeLayout.value
        return super().styleHint(hint, *args)


@pytest.fixture
def gnome_desktop() -> Iterator[None]:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    name = app.style().name()
    app.setStyle(_GnomeButtons(name))
    yield
    app.setStyle(name)


def test_buttons_keep_one_order_on_every_desktop(qtbot, tmp_path: Path, gnome_desktop) -> None:
    dialog = _open(qtbot, _write_request(tmp_path))
    xs = [b.mapTo(dialog, b.rect().topLeft()).x() for b in _buttons(dialog)]
    assert xs == sorted(xs)  # Allow once · Edit… · Deny, left to right, Deny rightmost


def _buttons(dialog: ConfirmDialog) -> list[QPushButton]:
    return [dialog.allow_button, dialog.edit_button, dialog.deny_button]


def test_enter_in_an_edit_field_shows_the_new_preview_and_never_denies(
    qtbot, tmp_path: Path
) -> None:
    dialog = _open(qtbot, _write_request(tmp_path))
    denied: list[int] = []
    dialog.rejected.connect(lambda: denied.append(1))
    qtbot.keyClick(dialog.edit_button, Qt.Key.Key_Space)
    path = dialog.fields["path"]
    assert isinstance(path, QLineEdit)
    qtbot.keyClick(path, Qt.Key.Key_Return)  # nothing changed: still nothing answered
    assert dialog.isVisible() and not denied
    path.setText("summary.txt")
    assert not dialog.allow_button.isEnabled()  # the preview does not show the edit yet
    qtbot.keyClick(path, Qt.Key.Key_Return)
    qtbot.waitUntil(dialog.allow_button.isEnabled, timeout=30_000)
    preview = dialog.preview.toPlainText()
    assert preview.startswith("Create summary.txt") and "+new line" in preview
    assert dialog.heading.text() == "Replace the text of summary.txt"
    assert dialog.preview.isVisible() and dialog.preview_label.isVisible()
    qtbot.keyClick(path, Qt.Key.Key_Return)
    qtbot.keyClick(dialog.fields["overwrite"], Qt.Key.Key_Return)
    assert dialog.isVisible() and not denied
    qtbot.mouseClick(dialog.allow_button, Qt.MouseButton.LeftButton)
    assert dialog.result_answer.arguments == {**dialog.request.arguments, "path": "summary.txt"}


def test_undoing_the_edit_shows_the_proposal_again(qtbot, tmp_path: Path) -> None:
    dialog = _open(qtbot, _write_request(tmp_path))
    qtbot.keyClick(dialog.edit_button, Qt.Key.Key_Space)
    path = dialog.fields["path"]
    assert isinstance(path, QLineEdit)
    path.setText("other.txt")
    qtbot.keyClick(path, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "other.txt" in dialog.preview.toPlainText(), timeout=30_000)
    qtbot.mouseClick(dialog.edit_button, Qt.MouseButton.LeftButton)  # Undo edits
    assert not dialog.editing and path.text() == "notes.txt"
    assert dialog.preview.toPlainText().startswith("Replace notes.txt")
    assert dialog.heading.text() == "Replace the text of notes.txt"


def test_the_dialog_speaks_words_not_code(qtbot, tmp_path: Path) -> None:
    dialog = _open(qtbot, _write_request(tmp_path, standing_offer=OFFER))
    shown = "\n".join(label.text() for label in dialog.findChildren(QLabel) if label.isVisible())
    shown += "\n" + dialog.preview.toPlainText() + dialog.always.text()
    assert "Replace the text of notes.txt" in shown
    assert "This action deletes or overwrites something" in shown
    for code in ("write_file", "web_search", "@@", "--- a/", "+++ b/"):
        assert code not in shown
    qtbot.keyClick(dialog.edit_button, Qt.Key.Key_Space)
    captions = [label.text() for label in dialog.editor.findChildren(QLabel)]
    assert captions == ["File", "New text", "Replace if it exists"]
    for name, field in dialog.fields.items():
        assert (
            field.accessibleName()
            == dialog.editor.findChildren(QLabel)[list(dialog.fields).index(name)].text()
        )


def test_labels_are_read_with_their_text_and_the_dialog_by_its_title(qtbot, tmp_path: Path) -> None:
    dialog = _open(qtbot, _write_request(tmp_path, standing_offer=OFFER))
    [label] = [x for x in dialog.findChildren(QLabel) if "Proposed after" in x.text()]
    origin = QAccessible.queryAccessibleInterface(label)
    assert origin is not None
    name = origin.text(QAccessible.Text.Name)
    assert name == "⚠ Proposed after reading the file notes.txt."
    assert origin.text(QAccessible.Text.Description) == "Where this request came from"
    for label in dialog.findChildren(QLabel):  # the same pattern everywhere in the dialog
        read = QAccessible.queryAccessibleInterface(label)
        if label.text():
            assert read is not None and read.text(QAccessible.Text.Name) == label.text()
    whole = QAccessible.queryAccessibleInterface(dialog)
    assert whole is not None and whole.text(QAccessible.Text.Name) == dialog.windowTitle()
    assert dialog.announcement == "Hearth asks before it acts: Replace the text of notes.txt"


ROLES = (
    QPalette.ColorRole.Base,
    QPalette.ColorRole.Text,
    QPalette.ColorRole.Window,
    QPalette.ColorRole.WindowText,
    QPalette.ColorRole.Button,
    QPalette.ColorRole.ButtonText,
    QPalette.ColorRole.Mid,
)
# Fusion's light colours, and those measured on a dark GTK desktop (Adwaita dark, audit run 5).
LIGHT = ("#ffffff", "#000000", "#efefef", "#000000", "#efefef", "#000000", "#b8b8b8")
DARK = ("#323232", "#ffffff", "#2d2d2d", "#eeeeee", "#3c3c3c", "#eeeeee", "#5a5a5a")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.mark.parametrize("colours", [LIGHT, DARK], ids=["light", "dark"])
def test_diff_and_warning_colours_pass_aa_in_light_and_dark(
    qtbot, tmp_path: Path, colours: tuple[str, ...], request: pytest.FixtureRequest
) -> None:
    """Also leaves a picture of each in test-artifacts/, for a person to look at."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = QPalette(app.palette())
    palette = QPalette(before)
    for role, colour in zip(ROLES, colours, strict=True):
        palette.setColor(role, QColor(colour))
    app.setPalette(palette)
    try:
        dialog = _open(qtbot, _write_request(tmp_path))
        ARTIFACTS.mkdir(exist_ok=True)
        dialog.grab().save(str(ARTIFACTS / f"confirm-dialog-{request.node.callspec.id}.png"))
    finally:
        app.setPalette(before)
    assert {"added", "removed"} <= set(dialog.highlighter.kinds)
    for kind in ("added", "removed"):
        form = dialog.highlighter.formats[kind]
        assert contrast(form.foreground().color(), form.background().color()) >= 4.5
    window = QColor(colours[2])
    warning = re.search(r"color: (#[0-9a-f]{6})", dialog.origin.styleSheet())
    assert warning is not None and contrast(QColor(warning[1]), window) >= 4.5
    assert contrast(_ring(dialog), window) >= 3.0  # WCAG 1.4.11: the focus ring stands out


def _ring(dialog: ConfirmDialog) -> QColor:
    found = re.search(r"focus \{ border: 3px solid (#[0-9a-f]{6})", dialog.styleSheet())
    assert found is not None
    return QColor(found[1])


def _edge(widget: QWidget) -> QColor:
    """The colour of the widget's frame, halfway down its left edge."""
    image = widget.grab().toImage()
    return image.pixelColor(1, image.height() // 2)


def test_the_focused_button_looks_unlike_the_default_one(qtbot, tmp_path: Path) -> None:
    dialog = _open(qtbot, _write_request(tmp_path))
    dialog.allow_button.setFocus()
    qtbot.waitUntil(dialog.allow_button.hasFocus, timeout=5_000)
    focused, resting_default = _edge(dialog.allow_button), _edge(dialog.deny_button)
    assert focused != resting_default and focused == _ring(dialog)
    resting_preview = _edge(dialog.preview)
    dialog.preview.setFocus()
    qtbot.waitUntil(dialog.preview.hasFocus, timeout=5_000)
    assert _edge(dialog.preview) == _ring(dialog) != resting_preview


def test_addresses_are_edited_as_a_list_in_words(qtbot) -> None:
    """No JSON in a field: recipients read "a, b"; a tool without a previewer still shows
    the edit, in words, before it can be allowed."""
    arguments = {"to": ["ana@example.org", "bo@example.org"], "subject": "Hi", "body": "Hello"}
    request = ConfirmationRequest(
        tool="send_email",
        arguments=arguments,
        label="outbound",
        reasons=("send_email sends data off this computer",),
        preview="To: ana@example.org, bo@example.org\nSubject: Hi\n\nHello",
        editable=tuple(arguments),
    )
    dialog = _open(qtbot, request)
    assert dialog.heading.text() == "Send an email to ana@example.org and 1 other"
    qtbot.keyClick(dialog.edit_button, Qt.Key.Key_Space)
    to = dialog.fields["to"]
    assert isinstance(to, QLineEdit) and to.text() == "ana@example.org, bo@example.org"
    to.setText("cy@example.org")
    qtbot.keyClick(to, Qt.Key.Key_Return)
    assert dialog.preview.toPlainText().startswith("To: cy@example.org\nSubject: Hi")
    assert dialog.heading.text() == "Send an email to cy@example.org"
    qtbot.mouseClick(dialog.allow_button, Qt.MouseButton.LeftButton)
    assert dialog.result_answer.arguments == {**arguments, "to": ["cy@example.org"]}
