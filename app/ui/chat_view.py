"""The conversation view: messages as escaped text, replies streamed in place.

Model output and (later) email text are untrusted: they are inserted as plain text, never as
HTML, and the document loads no resources at all (no remote images, no file:// reads).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextBrowser, QWidget

_ROLE_LABELS = {"user": "You", "assistant": "Hearth"}
_ROLE_COLOURS = {"user": "#1f5fa8", "assistant": "#2e7d32", "error": "#b3261e", "note": "#666666"}


class ChatView(QTextBrowser):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setAccessibleName("Conversation")
        self._streaming = False

    # Returning a placeholder (not None) is what stops QTextDocument loading the URL itself.
    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        return QImage(1, 1, QImage.Format.Format_ARGB32)

    def add_message(self, role: str, text: str) -> None:
        self._open_block(role)
        self._cursor_at_end().insertText(text)
        self._streaming = False

    def begin_reply(self) -> None:
        self._open_block("assistant")
        self._streaming = True

    def append_reply_text(self, text: str) -> None:
        cursor = self._cursor_at_end()
        cursor.insertText(text)
        self._scroll_to_end()

    def end_reply(self, note: str | None = None) -> None:
        if note:
            self._cursor_at_end().insertHtml(
                f' <span style="color:{_ROLE_COLOURS["note"]}"><i>{html.escape(note)}</i></span>'
            )
        self._streaming = False

    def add_notice(self, text: str, kind: str = "error") -> None:
        colour = _ROLE_COLOURS.get(kind, _ROLE_COLOURS["note"])
        body = html.escape(text).replace("\n", "<br>")
        self._cursor_at_end().insertHtml(f'<p style="color:{colour}; margin-top:8px">{body}</p>')
        self._streaming = False
        self._scroll_to_end()

    def add_tool_card(self, record: Any) -> None:
        """A card for one tool call, on its own line: what ran, the gate's decision, the
        outcome. Later reply text continues on the next line."""
        outcome = {"ok": "done", "error": "failed", "refused": "not done"}.get(record.status, "")
        decision = {"allow": "allowed", "confirm": "asked you", "deny": "refused by Hearth"}
        answer = f", you {record.answer}" if record.answer else ""
        arguments = ", ".join(f"{k}={_short(v)}" for k, v in record.arguments.items())
        line = (
            f"Tool: {record.name}({arguments}) · {decision.get(record.decision, '')}"
            f"{answer} · {outcome}"
        )
        cursor = self._cursor_at_end()
        cursor.insertBlock()
        cursor.insertHtml(
            f'<span style="color:{_ROLE_COLOURS["note"]}">&nbsp;&nbsp;▸ {html.escape(line)}</span>'
        )
        cursor.insertBlock()
        cursor.setCharFormat(QTextCharFormat())
        self.setTextCursor(cursor)
        self._streaming = False
        self._scroll_to_end()

    def plain_text(self) -> str:
        return self.toPlainText()

    def _open_block(self, role: str) -> None:
        label = html.escape(_ROLE_LABELS.get(role, role.title()))
        colour = _ROLE_COLOURS.get(role, "#000000")
        cursor = self._cursor_at_end()
        if not self.document().isEmpty():
            cursor.insertBlock()
        cursor.insertHtml(f'<b style="color:{colour}">{label}:</b>&nbsp;')
        # Plain character format from here on, so the message text is not bold or coloured.
        cursor.setCharFormat(QTextCharFormat())
        self.setTextCursor(cursor)

    def _cursor_at_end(self) -> QTextCursor:
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        return cursor

    def _scroll_to_end(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())


def _short(value: Any, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
