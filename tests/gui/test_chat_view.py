"""The chat view as a user meets it: Markdown that cannot act, notices of their own, colours
that read on light and dark desktops, copy links, thinking folded, what screen readers hear.

Real widgets under pytest-qt; links are clicked with the mouse where they are drawn."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QAccessible, QColor, QGuiApplication, QImage, QPalette, QTextCursor
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.ui import announce
from app.ui.chat_view import ChatView
from app.ui.contrast_colours import contrast as contrast_ratio
from app.ui.main_window import MainWindow
from app.ui.markdown_render import plain_text
from tests.gui.test_tools_dialog import open_window

WAIT = 60_000
CODE = 'def greet(name):\n    return f"Hello {name}"'
MARKDOWN = f"""## Plan
Some **bold** text, `a span` and <b>raw</b> <script>alert(1)</script>.

- first
- second

```python
{CODE}
```

| day | weather |
|-----|---------|
| Mon | rain |

See [the forecast](https://weather.example/today) or [this](javascript:alert(1)).
"""


@pytest.fixture
def view(qtbot: Any) -> ChatView:
    chat = ChatView()
    chat.resize(700, 900)
    qtbot.addWidget(chat)
    chat.show()
    qtbot.waitExposed(chat)
    return chat


def reply(view: ChatView, *texts: str, note: str | None = None) -> None:
    view.begin_reply()
    for text in texts:
        view.append_reply_text(text)
    view.end_reply(note)


def card() -> Any:
    return SimpleNamespace(
        name="list_folder", arguments={"path": "docs"}, status="ok", decision="allow", answer=None
    )


def click_text(qtbot: Any, view: ChatView, text: str, after: str = "") -> None:
    """A left click on the middle of the first place `text` is drawn (after `after`)."""
    start = view.document().find(after).selectionEnd() if after else 0
    found = view.document().find(text, start)
    assert not found.isNull(), f"{text!r} is not in the view"
    cursor = QTextCursor(view.document())
    cursor.setPosition(found.selectionStart() + len(text) // 2)
    view.ensureCursorVisible()
    view.setTextCursor(cursor)
    view.ensureCursorVisible()
    rect = view.cursorRect(cursor)
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.x(), rect.center().y())
    )


def char_format_at(view: ChatView, text: str) -> Any:
    found = view.document().find(text)
    assert not found.isNull(), f"{text!r} is not in the view"
    cursor = QTextCursor(view.document())
    cursor.setPosition(found.selectionStart() + 1)
    return cursor.charFormat()


def test_markdown_is_rendered_and_raw_html_stays_text(view: ChatView) -> None:
    view.add_message("user", "Is **this** strong? <i>no</i>")
    reply(view, MARKDOWN)
    text = view.plain_text()
    assert "You: Is **this** strong? <i>no</i>" in text  # the user's own words stay plain
    assert "Some bold text, a span and <b>raw</b> <script>alert(1)</script>." in text
    assert "**" not in text.split("You:")[1].split("\n", 1)[1]
    assert "```" not in text and "|-----|" not in text
    assert char_format_at(view, "bold").fontWeight() >= 700
    assert char_format_at(view, "a span").fontFixedPitch()
    assert QTextCursor(view.document().find("Plan")).blockFormat().headingLevel() == 2
    cursor = QTextCursor(view.document().find("Mon"))
    assert cursor.currentTable() is not None
    list_cursor = QTextCursor(view.document().find("second"))
    assert list_cursor.currentList() is not None
    assert char_format_at(view, "raw").fontWeight() < 700  # <b> is two visible characters


def test_an_image_in_markdown_is_never_loaded(qtbot: Any, tmp_path: Path) -> None:
    picture = tmp_path / "pic.png"
    QImage(4, 4, QImage.Format.Format_RGB32).save(str(picture))
    asked: list[Any] = []

    class Watching(ChatView):
        def loadResource(self, kind: int, url: QUrl | str) -> Any:
            asked.append(url)
            return super().loadResource(kind, url)

    view = Watching()
    qtbot.addWidget(view)
    view.show()
    reply(
        view,
        f"Local ![a picture]({picture.as_uri()}) and remote ![b](http://127.0.0.1:9/x.png)"
        f' and raw <img src="{picture.as_uri()}">.',
    )
    view.grab()  # lay out and paint everything
    assert asked == []
    text = view.plain_text()
    assert f"[image not shown: {picture.as_uri()}]" in text
    assert "[image not shown: http://127.0.0.1:9/x.png]" in text
    block = view.document().begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            assert not iterator.fragment().charFormat().isImageFormat()
            iterator += 1
        block = block.next()


def test_a_link_shows_its_address_and_opens_only_http_when_clicked(
    qtbot: Any, view: ChatView
) -> None:
    opened: list[QUrl] = []
    view.open_link = opened.append
    view.add_notice("An error to keep", "error")
    reply(
        view,
        "[the forecast](https://weather.example/today), [this](javascript:alert(1)), "
        "[Dismiss](hearth:dismiss/1) and https://plain.example/",
    )
    text = view.plain_text()
    assert "the forecast (https://weather.example/today)" in text
    assert "this (javascript:alert(1))" in text
    assert "Dismiss (hearth:dismiss/1)" in text  # the model cannot forge the view's own links
    assert "https://plain.example/ (" not in text  # an address shown as itself needs no repeat
    assert opened == []  # nothing opens by itself
    click_text(qtbot, view, "the forecast")
    assert opened == [QUrl("https://weather.example/today")]
    click_text(qtbot, view, "this (java")
    click_text(qtbot, view, "Dismiss", after="javascript:alert(1)), ")
    assert opened == [QUrl("https://weather.example/today")]
    assert "An error to keep" in view.plain_text()


def test_copy_code_puts_exactly_the_code_on_the_clipboard(qtbot: Any, view: ChatView) -> None:
    QGuiApplication.clipboard().clear()
    reply(view, MARKDOWN)
    click_text(qtbot, view, "Copy code")
    assert QGuiApplication.clipboard().text() == CODE


def test_each_reply_can_be_copied_and_ctrl_shift_c_copies_the_last(qtbot: Any) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    view = ChatView()
    QVBoxLayout(window).addWidget(view)
    window.resize(600, 600)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    reply(view, "The **first** answer.")
    reply(view, "The second answer.")
    clipboard = QGuiApplication.clipboard()
    clipboard.clear()
    click_text(qtbot, view, "Copy reply")
    assert clipboard.text() == "The **first** answer."
    clipboard.clear()
    view.setFocus()
    qtbot.keyClick(
        view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert clipboard.text() == "The second answer."


def test_notices_are_blocks_of_their_own_and_errors_can_be_dismissed(
    qtbot: Any, view: ChatView
) -> None:
    view.begin_reply()
    view.append_reply_text("The answer ends here without a newline")
    view.end_reply()
    view.add_notice("The model file x cannot be used.", "error")
    view.add_notice("No model is loaded yet.", "error")
    view.add_notice("Reminder: buy stamps", "note")
    lines = view.plain_text().splitlines()
    assert "The answer ends here without a newline" in lines
    assert "The model file x cannot be used.   Dismiss" in lines
    assert "No model is loaded yet.   Dismiss" in lines
    assert "Reminder: buy stamps" in lines
    click_text(qtbot, view, "Dismiss")
    text = view.plain_text()
    assert "The model file x cannot be used." not in text
    assert "No model is loaded yet." in text and "The answer ends here" in text
    assert "Reminder: buy stamps" in text


def test_turns_have_a_gap_and_text_after_a_card_is_in_the_normal_colour(view: ChatView) -> None:
    view.add_message("user", "List my docs")
    view.begin_reply()
    view.add_tool_card(card())
    view.append_reply_text("Here they are.")
    view.end_reply()
    view.add_message("user", "Thanks")
    text_colour = view.palette().color(QPalette.ColorRole.Text)
    after = char_format_at(view, "Here they are.")
    assert after.foreground().style() != Qt.BrushStyle.NoBrush
    assert after.foreground().color() == text_colour
    card_colour = char_format_at(view, "List the folder").foreground().color()
    assert card_colour != text_colour
    assert "▸" not in view.plain_text()  # read aloud as "black right-pointing triangle"
    second = QTextCursor(view.document().find("Thanks"))
    assert second.currentFrame().frameFormat().topMargin() >= 10


LIGHT = {"base": "#ffffff", "text": "#000000", "window": "#efefef"}
DARK = {"base": "#323232", "text": "#ffffff", "window": "#2b2b2b"}
DEEP = {"base": "#1e1e1e", "text": "#dddddd", "window": "#252525"}


def palette(colours: dict[str, str]) -> QPalette:
    result = QPalette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        result.setColor(group, QPalette.ColorRole.Base, QColor(colours["base"]))
        result.setColor(group, QPalette.ColorRole.Text, QColor(colours["text"]))
        result.setColor(group, QPalette.ColorRole.WindowText, QColor(colours["text"]))
        result.setColor(group, QPalette.ColorRole.Window, QColor(colours["window"]))
    return result


def fill(view: ChatView) -> None:
    view.add_notice("The model could not be loaded.", "error")
    view.add_message("user", "Plan my day")
    view.begin_reply()
    view.append_reasoning("I should look at the calendar.")
    view.add_tool_card(card())
    view.append_reply_text(MARKDOWN)
    view.end_reply("(stopped)")
    view.add_notice("Reminder: buy stamps", "note")
    view.begin_reply()  # a reply still waiting: "Working…"


@pytest.mark.parametrize("scheme", [LIGHT, DARK, DEEP], ids=["light", "dark", "deep-dark"])
def test_every_colour_passes_wcag_aa_on_the_palette_base(
    view: ChatView, scheme: dict, request: pytest.FixtureRequest
) -> None:
    fill(view)  # drawn in the starting palette first: the switch must re-colour it
    view.setPalette(palette(scheme))
    artifacts = Path(__file__).resolve().parents[2] / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    view.grab().save(str(artifacts / f"chat-{request.node.callspec.id}.png"))  # to look at
    fold = view.document().find("Show thinking")
    assert not fold.isNull()
    text = view.plain_text()
    assert "Working…" in text and "Copy code" in text and "Dismiss" in text
    base = QColor(scheme["base"])
    checked = 0
    block = view.document().begin()
    while block.isValid():
        background = base
        if block.blockFormat().background().style() != Qt.BrushStyle.NoBrush:
            background = block.blockFormat().background().color()
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            iterator += 1
            if not fragment.text().strip():
                continue
            brush = fragment.charFormat().foreground()
            colour = (
                brush.color() if brush.style() != Qt.BrushStyle.NoBrush else QColor(scheme["text"])
            )
            ratio = contrast_ratio(colour, background)
            assert ratio >= 4.5, (
                f"{fragment.text()!r}: {colour.name()} on {background.name()} {ratio:.2f}:1"
            )
            checked += 1
        block = block.next()
    assert checked > 20


def test_a_finished_reply_errors_and_reminders_are_announced(
    view: ChatView, monkeypatch: pytest.MonkeyPatch
) -> None:
    heard: list[tuple[str, Any]] = []
    monkeypatch.setattr(announce, "send", lambda e: heard.append((e.message(), e.politeness())))
    polite = QAccessible.AnnouncementPoliteness.Polite
    view.begin_reply()
    for token in ["The ", "**answer**", " is ", "42."]:
        view.append_reply_text(token)
    assert heard == []  # not every streamed token
    view.end_reply()
    assert heard == [("Hearth replied: The answer is 42.", polite)]
    view.add_notice("The model could not be loaded.", "error")
    view.add_notice("Reminder: buy stamps", "note")
    assert heard[1:] == [
        ("The model could not be loaded.", QAccessible.AnnouncementPoliteness.Assertive),
        ("Reminder: buy stamps", polite),
    ]
    with view.quiet():  # a saved conversation reopened is not news
        reply(view, "Old answer")
    reply(view)  # a failed turn's empty reply: only its error is announced
    assert len(heard) == 3


def test_thinking_is_kept_folded_and_opens_on_request(qtbot: Any, view: ChatView) -> None:
    view.begin_reply()
    view.append_reasoning("The user wants a plan; ")
    view.append_reasoning("check the calendar first.")
    qtbot.waitUntil(lambda: "Thinking… (show)" in view.plain_text())
    assert "check the calendar" not in view.plain_text()
    view.append_reply_text("Here is your **plan**.")
    view.end_reply()
    assert "Show thinking" in view.plain_text() and "check the calendar" not in view.plain_text()
    click_text(qtbot, view, "Show thinking")
    assert "The user wants a plan; check the calendar first." in view.plain_text()
    click_text(qtbot, view, "Hide thinking")
    assert "check the calendar" not in view.plain_text()


def test_a_waiting_reply_shows_that_it_works_with_the_seconds(qtbot: Any, view: ChatView) -> None:
    now = [100.0]
    view.clock = lambda: now[0]
    view.begin_reply()
    assert "Working…" in view.plain_text()
    now[0] = 107.4
    qtbot.waitUntil(lambda: "Working… 7 s" in view.plain_text(), timeout=5_000)
    view.append_reply_text("Done")
    qtbot.waitUntil(lambda: "Working" not in view.plain_text(), timeout=5_000)


def test_markdown_renders_while_the_reply_streams(qtbot: Any, view: ChatView) -> None:
    view.begin_reply()
    view.append_reply_text("A **bo")
    view.append_reply_text("ld** step")
    qtbot.waitUntil(lambda: "A bold step" in view.plain_text(), timeout=5_000)
    assert char_format_at(view, "bold").fontWeight() >= 700
    view.end_reply()


def test_the_window_shows_thinking_folded_and_renders_a_reopened_conversation(
    qtbot: Any, tmp_path: Path
) -> None:
    turns = ["<think>Plan: greet them warmly.</think>Hello, **friend**! Here is `code`."]
    window, data = open_window(qtbot, tmp_path, turns)
    qtbot.waitUntil(lambda: not window.conversations.opening, timeout=WAIT)
    window.input.setPlainText("Hi")
    qtbot.keyClick(window.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    text = window.chat_view.plain_text()
    assert "Hello, friend! Here is code." in text and "**" not in text
    assert "Show thinking" in text and "greet them warmly" not in text
    click_text(qtbot, window.chat_view, "Show thinking")
    assert "Plan: greet them warmly." in window.chat_view.plain_text()
    qtbot.waitUntil(lambda: not window.conversations.sidebar.busy, timeout=WAIT)
    window.close()

    again = MainWindow(tmp_path / "script.json", data_dir=data)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitUntil(lambda: "Hello, friend!" in again.chat_view.plain_text(), timeout=WAIT)
    assert "**" not in again.chat_view.plain_text()
    assert char_format_at(again.chat_view, "friend").fontWeight() >= 700
    again.close()


def test_plain_text_of_markdown_is_what_is_read_aloud() -> None:
    assert plain_text("**Bold** and `code`") == "Bold and code"


def test_a_reply_streamed_in_pieces_ends_as_if_drawn_at_once(qtbot: Any, view: ChatView) -> None:
    """A redraw reuses the pieces already drawn: streaming must not change the outcome."""
    whole = ChatView()
    qtbot.addWidget(whole)
    reply(whole, MARKDOWN)
    view.begin_reply()
    for start in range(0, len(MARKDOWN), 23):
        view.append_reply_text(MARKDOWN[start : start + 23])
        qtbot.wait(80)  # let the throttled redraw run in between
    view.end_reply()
    assert view.plain_text() == whole.plain_text()
    assert "```" not in view.plain_text()  # and rendered


def test_the_view_s_links_work_from_the_keyboard(qtbot: Any, view: ChatView) -> None:
    """Tab moves from link to link inside the conversation and Enter follows one."""
    reply(view, "Just text.")
    view.add_notice("The model could not be loaded.", "error")
    view.setFocus()
    for _ in range(3):
        if view.textCursor().selectedText() == "Dismiss":
            break
        qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert view.textCursor().selectedText() == "Dismiss"
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert "could not be loaded" not in view.plain_text()
