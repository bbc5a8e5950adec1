"""Keyboard and screen-reader access to the window and its dialogs (issue #19, audit K1-K6 and
S1-S5): Tab leaves the message box, the everyday shortcuts work, no menu repeats a mnemonic,
every label is read with its text, every focusable control has a name, every combo box is
labelled by a label, and the window comes back where the user left it. Real widgets, the
scripted model, a real data folder; offscreen."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSize, Qt, QTimer
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QMenu,
    QWidget,
    QWizard,
)

from app.store.database import Database
from app.ui.main_window import MainWindow
from app.ui.window_state import DEFAULT_SIZE, first_size, saved_geometry
from tests.support.qt import open_window as open_scripted_window

WAIT = 60_000


def open_window(qtbot, tmp_path: Path, turns: list[str], **kwargs) -> MainWindow:
    return open_scripted_window(qtbot, tmp_path, turns, activate=True, **kwargs)


def focused() -> QWidget | None:
    return QApplication.focusWidget()


# -- keyboard -------------------------------------------------------------------------------


def test_tab_leaves_the_message_box_and_types_no_tab(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, [])
    window.input.setFocus()
    qtbot.waitUntil(lambda: focused() is window.input)
    qtbot.keyClick(window.input, Qt.Key.Key_Tab)
    assert window.input.toPlainText() == ""
    assert focused() is not window.input
    qtbot.keyClick(focused(), Qt.Key.Key_Backtab)
    assert focused() is window.input


def test_shortcuts_new_conversation_search_and_back_to_the_message_box(
    qtbot, tmp_path: Path
) -> None:
    window = open_window(qtbot, tmp_path, ["Hello there."])
    window.input.setPlainText("hi")
    window.send()
    # The sidebar learns that the turn ended by its own queued call, a moment after the window:
    # until then New is disabled and Ctrl+N does nothing (this raced on busy cores).
    qtbot.waitUntil(lambda: not window.busy and not window.conversations.sidebar.busy, timeout=WAIT)
    first = window.conversation
    assert len(first.messages) == 2
    sidebar = window.conversations.sidebar

    qtbot.keyClick(window.input, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert focused() is sidebar.search_box
    qtbot.keyClick(sidebar.search_box, Qt.Key.Key_Escape, Qt.KeyboardModifier.ShiftModifier)
    assert focused() is window.input

    qtbot.keyClick(window.input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.conversation is not first, timeout=WAIT)
    assert window.conversation.messages == []
    assert focused() is window.input


def test_a_conversation_switch_never_waits_for_the_model_thread(qtbot, tmp_path: Path) -> None:
    """Ctrl+N while the model's thread is busy (a warm-up, a load): the new conversation opens
    at once, and what the user types goes into the message box, never into the search box
    (issue #38 item 3, audit screenshot 22)."""
    window = open_window(qtbot, tmp_path, ["Hello there."])
    window.input.setPlainText("hi")
    window.send()
    qtbot.waitUntil(lambda: not window.busy and not window.conversations.sidebar.busy, timeout=WAIT)
    first = window.conversation
    started, release = threading.Event(), threading.Event()

    def warm_up() -> None:  # as the worker's warm-up holds its thread after a load
        started.set()
        release.wait(30)

    QTimer.singleShot(0, window.worker, warm_up)
    qtbot.waitUntil(started.is_set, timeout=WAIT)
    try:
        window.input.setFocus()
        qtbot.waitUntil(lambda: focused() is window.input)
        qtbot.keyClick(window.input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClicks(focused(), "Tell me a story")
        qtbot.waitUntil(lambda: window.conversation is not first, timeout=3_000)
        assert window.conversation.messages == []
        assert focused() is window.input
        assert window.input.toPlainText() == "Tell me a story"
        assert window.conversations.sidebar.search_box.text() == ""
        assert window.chat_view.plain_text() == ""
    finally:
        release.set()


def test_enter_while_a_conversation_opens_sends_it_there(qtbot, tmp_path: Path) -> None:
    """A slow open (a large conversation, a busy disk): the message box stays usable, and a
    message sent meanwhile goes to the conversation being opened once it is open, never to
    the one being left."""
    window = open_window(qtbot, tmp_path, ["Hello there.", "A story."])
    window.input.setPlainText("hi")
    window.send()
    qtbot.waitUntil(lambda: not window.busy and not window.conversations.sidebar.busy, timeout=WAIT)
    first = window.conversation
    started, release = threading.Event(), threading.Event()

    def slow_disk() -> None:  # holds the conversations' thread, as a slow open would
        started.set()
        release.wait(30)

    QTimer.singleShot(0, window.conversations.service, slow_disk)
    qtbot.waitUntil(started.is_set, timeout=WAIT)
    try:
        qtbot.keyClick(window.input, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
        assert window.conversations.opening and window.input.isEnabled()
        qtbot.keyClicks(window.input, "Tell me a story")
        qtbot.keyClick(window.input, Qt.Key.Key_Return)
        assert len(first.messages) == 2  # nothing went to the conversation being left
    finally:
        release.set()
    qtbot.waitUntil(lambda: not window.conversations.opening, timeout=WAIT)
    qtbot.waitUntil(lambda: len(window.conversation.messages) == 2, timeout=WAIT)
    assert window.conversation is not first
    assert window.conversation.messages[0].content == "Tell me a story"
    assert len(first.messages) == 2


def test_privacy_opens_with_the_focus_on_close(qtbot, tmp_path: Path) -> None:
    """Space on the focused button must never start "Delete all" (audit finding 9)."""
    window = open_window(qtbot, tmp_path, [])
    privacy = window.data_panels.open_privacy()
    qtbot.waitUntil(privacy.isVisible)
    close = privacy.buttons.button(QDialogButtonBox.StandardButton.Close)
    qtbot.waitUntil(lambda: privacy.focusWidget() is not None)
    assert privacy.focusWidget() is close
    privacy.reject()


def test_escape_stops_only_while_a_reply_runs(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, ["Fine."])
    assert not window.stop_action.isEnabled()
    qtbot.keyClick(window.input, Qt.Key.Key_Escape)  # nothing runs: nothing is cancelled
    assert not window.worker.cancel.is_set()
    window.busy = True  # as send() leaves it while the worker runs the turn
    window._update_buttons()
    assert window.stop_action.isEnabled()
    qtbot.keyClick(window.input, Qt.Key.Key_Escape)
    assert window.worker.cancel.is_set()
    window.busy = False
    window._update_buttons()
    window.worker.cancel.clear()


def test_focus_stays_out_of_the_search_box_when_stop_disables_itself(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, [])
    window.busy = True
    window._update_buttons()
    window.stop_button.setFocus()
    qtbot.waitUntil(lambda: focused() is window.stop_button)
    window.busy = False
    window._update_buttons()  # what the end of a reply does
    assert focused() is window.input


def _mnemonic(text: str) -> str | None:
    found = re.search(r"&([^&])", text.replace("&&", ""))
    return found.group(1).lower() if found else None


def test_no_menu_repeats_a_mnemonic(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, [])
    bar = [_mnemonic(a.text()) for a in window.menuBar().actions()]
    assert len(bar) == len(set(bar)) and None not in bar, bar
    for top in window.menuBar().actions():
        menu = top.menu()
        assert isinstance(menu, QMenu)
        letters = [_mnemonic(a.text()) for a in menu.actions() if not a.isSeparator()]
        assert None not in letters, (top.text(), letters)
        assert len(letters) == len(set(letters)), (top.text(), letters)


# -- screen readers -------------------------------------------------------------------------


def _visible_widgets(top: QWidget) -> list[QWidget]:
    return [w for w in [top, *top.findChildren(QWidget)] if w.isVisibleTo(top)]


def _is_focus_proxy_part(widget: QWidget) -> bool:
    """The line edit inside a spin box or an editable combo: the box itself is read."""
    parent = widget.parentWidget()
    return isinstance(widget, QLineEdit) and isinstance(parent, QAbstractSpinBox | QComboBox)


def access_problems(top: QWidget) -> list[str]:
    """What a screen reader would get wrong in `top`: a label whose fixed name hides its text,
    a focusable control without a name, a combo box no label points at."""
    problems = []
    for widget in _visible_widgets(top):
        where = f"{type(widget).__name__} in {top.windowTitle() or type(top).__name__}"
        if isinstance(widget, QLabel) and widget.text().strip():
            name = widget.accessibleName()
            # A buddy label names its control: its name may be fuller than its text.
            if name and name != widget.text() and widget.buddy() is None:
                problems.append(f"{where}: label read as {name!r}, not its text")
            continue
        if not widget.isEnabled() or _is_focus_proxy_part(widget):
            continue
        if not widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            continue
        interface = QAccessible.queryAccessibleInterface(widget)
        if interface is None or not interface.text(QAccessible.Text.Name).strip():
            problems.append(f"{where}: a focusable control without a name")
        if (
            isinstance(widget, QComboBox)
            and interface is not None
            and not interface.relations(QAccessible.RelationFlag.Label)
        ):
            problems.append(f"{where}: combo box labelled by nothing ({widget.currentText()})")
    return problems


def _open_dialogs() -> list[QWidget]:
    return [
        w
        for w in QApplication.topLevelWidgets()
        if w.isVisible() and isinstance(w, QDialog | QWizard)
    ]


def _close_dialogs() -> None:
    for dialog in _open_dialogs():
        dialog.close()


def test_window_and_every_settings_dialog_read_well(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, [])
    window.status_label.setText("script · ready")
    assert access_problems(window) == []
    checked = []
    menus = {a.text(): a.menu() for a in window.menuBar().actions()}
    for title in ("&Settings", "&View"):
        menu = menus[title]
        assert isinstance(menu, QMenu)
        for action in menu.actions():
            if action.isSeparator() or not action.isEnabled() or action.isCheckable():
                continue  # a checkable item (Pause document indexing) opens no dialog
            action.trigger()
            qtbot.waitUntil(lambda: bool(_open_dialogs()), timeout=WAIT)
            qtbot.wait(200)  # let a service's first answer fill the dialog
            for dialog in _open_dialogs():
                problems = access_problems(dialog)
                assert problems == [], (action.text(), problems)
                checked.append(action.text())
            _close_dialogs()
    assert len(checked) >= 8, checked  # every dialog of both menus was looked at


def test_the_mail_account_editor_tells_incoming_from_outgoing(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, [])
    accounts = window.open_accounts()
    editor = accounts.open_editor("mail")
    ports = [
        QAccessible.queryAccessibleInterface(w).text(QAccessible.Text.Name)
        for w in (editor.imap_port, editor.smtp_port)
    ]
    incoming, outgoing = (
        {
            label.text(QAccessible.Text.Name)
            for label, _ in QAccessible.queryAccessibleInterface(w).relations(
                QAccessible.RelationFlag.Label
            )
        }
        for w in (editor.imap_security, editor.smtp_security)
    )
    assert len(set(ports)) == 2, ports
    assert incoming - outgoing and outgoing - incoming, (incoming, outgoing)
    assert access_problems(editor) == []
    editor.close()


def test_status_line_is_read_with_its_text(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, [])
    interface = QAccessible.queryAccessibleInterface(window.status_label)
    assert interface is not None
    assert "ready" in interface.text(QAccessible.Text.Name)


# -- the window's place and size ------------------------------------------------------------


def test_the_window_comes_back_where_it_was_left(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, [])
    window.resize(700, 500)
    window.move(QPoint(40, 30))
    qtbot.wait(50)
    window.close()
    data = tmp_path / "data"
    saved = saved_geometry(data)
    assert saved is not None and not saved.isEmpty()
    again = open_window(qtbot, tmp_path, [], geometry=saved)
    assert again.size() == QSize(700, 500)
    again.close()


def test_a_damaged_saved_size_opens_the_default_window(qtbot, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    database = Database.open(data)
    from app.store.settings import WINDOW_GEOMETRY, SettingsStore

    SettingsStore(database).set(WINDOW_GEOMETRY, "bm90IGEgZ2VvbWV0cnk=")  # base64, not Qt's
    database.close()
    saved = saved_geometry(data)
    window = open_window(qtbot, tmp_path, [], geometry=saved)
    available = window.screen().availableGeometry().size()
    assert window.size() == first_size(available)


@pytest.mark.parametrize(
    ("screen", "expected"),
    [
        (QSize(1920, 1080), DEFAULT_SIZE),  # room to spare: the default
        (QSize(640, 400), QSize(576, 360)),  # 1280x800 at 2x scaling: fits on the screen
    ],
)
def test_a_first_window_fits_the_screen(screen: QSize, expected: QSize) -> None:
    assert first_size(screen) == expected


def test_the_window_can_shrink_to_a_small_scaled_screen(qtbot, tmp_path: Path) -> None:
    """At 2x on a 1280x800 screen there are 640x400 logical pixels; Send and Stop must fit."""
    window = open_window(qtbot, tmp_path, [])
    hint = window.minimumSizeHint()
    assert hint.width() <= 576 and hint.height() <= 360, hint


def test_dialogs_start_where_enter_is_safe(qtbot, tmp_path: Path) -> None:
    """Privacy never starts on Delete all; Enter in Models closes it rather than starting a
    download; in the guide, Enter on the accounts page goes Next; Model… starts on the
    choice, not on Cancel (audit K6)."""
    window = open_window(qtbot, tmp_path, [])
    privacy = window.data_panels.open_privacy()
    qtbot.waitUntil(privacy.isVisible)
    assert QApplication.focusWidget() is not privacy.delete_button
    assert not privacy.delete_button.autoDefault()

    models = window.model_menu.open_models()
    qtbot.waitUntil(models.isVisible)
    assert not models.download_button.autoDefault() and not models.download_button.isDefault()
    models.close()

    guide = window.model_menu.open_first_run()
    qtbot.waitUntil(guide.isVisible)
    extras = guide.extras
    assert not extras.account_button.autoDefault() and not extras.folder_button.autoDefault()
    guide.close()

    settings = window.model_settings.open()
    qtbot.waitUntil(lambda: settings.local_radio.isEnabled(), timeout=WAIT)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)
    assert QApplication.focusWidget() in (settings.local_radio, settings.remote_radio)
    settings.close()


def test_regenerate_and_edit_the_last_message(qtbot, tmp_path: Path) -> None:
    """Ctrl+R answers the last message again; Ctrl+E puts it back in the box and sending
    replaces it. The replaced exchange is gone from the view, the conversation and the saved
    copy (what a reopened conversation would show)."""
    from app.store.conversations import ConversationStore

    window = open_window(qtbot, tmp_path, ["First answer.", "Second answer.", "Third answer."])
    window.input.setPlainText("What is up?")
    window.send()
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    assert "First answer." in window.chat_view.plain_text()

    qtbot.keyClick(window.input, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "Second answer." in window.chat_view.plain_text(), timeout=WAIT)
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    view = window.chat_view.plain_text()
    assert "First answer." not in view and view.count("What is up?") == 1
    assert [(m.role, m.content) for m in window.conversation.messages] == [
        ("user", "What is up?"),
        ("assistant", "Second answer."),
    ]

    qtbot.keyClick(window.input, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert window.input.toPlainText() == "What is up?"
    window.input.setPlainText("What is down?")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Third answer." in window.chat_view.plain_text(), timeout=WAIT)
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    view = window.chat_view.plain_text()
    assert "What is up?" not in view and "Second answer." not in view
    assert [(m.role, m.content) for m in window.conversation.messages] == [
        ("user", "What is down?"),
        ("assistant", "Third answer."),
    ]
    database = Database.open(tmp_path / "data")
    try:
        store = ConversationStore(database)
        (summary,) = store.recent()
        saved = store.load(summary.id).messages
        assert [(m.role, m.content) for m in saved] == [
            ("user", "What is down?"),
            ("assistant", "Third answer."),
        ]
    finally:
        database.close()


def test_nothing_to_regenerate_in_an_empty_conversation(qtbot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path, ["Never used."])
    window.regenerate()
    window.edit_last()
    assert not window.busy and not window.editing_last
    assert window.input.toPlainText() == ""
