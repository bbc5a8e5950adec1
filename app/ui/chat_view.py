"""The conversation view: each message, reply and notice in a block of its own.

The view keeps what it shows as a list of entries and draws each into its own text frame, so
a reply can be drawn again (its Markdown while it streams, a folded thinking part opened, new
colours after the desktop turned dark) and a notice removed without touching the rest. The
user's words stay plain text; the model's are rendered by `markdown_render`, which makes them
inert. The document loads no resources at all (no remote images, no file:// reads).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QBrush,
    QDesktopServices,
    QGuiApplication,
    QImage,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocumentFragment,
    QTextFrame,
    QTextFrameFormat,
)
from PySide6.QtWidgets import QTextBrowser, QWidget

from app.agent.tools.wording import (
    arguments_in_words,
    describe_call,
    outcome_in_words,
    result_in_words,
)
from app.ui.announce import announce
from app.ui.chat_colours import ChatColours, chat_colours
from app.ui.markdown_render import (
    OPENABLE_SCHEMES,
    markdown_chunks,
    plain_text,
    render_markdown,
)

_ROLE_LABELS = {"user": "You", "assistant": "Hearth"}
_OWN_SCHEME = "hearth"  # the view's own links: copy, fold, dismiss
# Drawing a streamed reply again may take at most about a tenth of the GUI thread's time.
_RENDER_SHARE = 10
_FASTEST_RENDER_MS = 50
_SLOWEST_RENDER_MS = 1000


@dataclass
class _Card:
    line: str
    sources: list[tuple[str, str]] = field(default_factory=list)  # (path, page or heading)
    reason: str = ""  # why it failed or was refused, in the tool's or the gate's words
    asked: str = ""  # what was asked, in the confirmation dialog's words (opened card)
    came_back: str = ""  # what the tool brought back, in words (opened card)
    open: bool = False
    # The call itself, for Undo: offered while `record.undo` is set and it is not undone.
    record: Any = field(default=None, repr=False)
    undo_note: str = ""  # "Undoing…", then what the Undo did, in words
    undoing: bool = False

    def offers_undo(self) -> bool:
        record = self.record
        return (
            record is not None
            and getattr(record, "undo", None) is not None
            and not getattr(record, "undone", False)
            and not self.undoing
        )


@dataclass
class _Thinking:
    text: str = ""
    open: bool = False


@dataclass
class _Entry:
    key: int
    frame: QTextFrame | None = field(default=None, init=False, repr=False)


@dataclass
class _Message(_Entry):
    role: str = "user"
    text: str = ""


@dataclass
class _Notice(_Entry):
    kind: str = "error"
    text: str = ""


@dataclass
class _Reply(_Entry):
    parts: list[str | _Card | _Thinking] = field(default_factory=list)
    note: str | None = None
    finished: bool = False
    waiting_since: float | None = None  # nothing has come from the model since then
    asking: bool = False  # a confirmation waits for the user: not the model's time
    # (part, piece) -> (its Markdown, drawn): a redraw renders only the pieces that changed.
    drawn: dict[tuple[int, int], tuple[str, QTextDocumentFragment]] = field(default_factory=dict)
    # Where the last piece of the last part was drawn, from the frame's start: a streaming
    # redraw removes and draws only from there.
    tail: tuple[int, int, int] | None = None  # (part, piece, offset)

    def text(self) -> str:
        return "\n\n".join(p for p in self.parts if isinstance(p, str) and p.strip())


class ChatView(QTextBrowser):
    # A document a search_documents card cites was clicked: the window opens it (off this
    # thread, through the same checks as opening any file).
    source_requested = Signal(str)
    # A card's Undo was clicked (the CallRecord): the window runs it on the worker thread.
    undo_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setAccessibleName("Conversation")
        self._hint = ""  # what an empty conversation shows (setPlaceholderText)
        self._entries: list[_Entry] = []
        self._reply: _Reply | None = None  # the one streaming now
        self._copies: dict[str, str] = {}
        self._sources: dict[str, str] = {}  # link key -> a cited document's path
        self._keys = 0
        self._quiet = False
        self._colours = chat_colours(self.palette())
        # Seams: how a link is opened and what time it is (a test replaces them).
        self.open_link: Callable[[QUrl], Any] = QDesktopServices.openUrl
        self.clock: Callable[[], float] = time.monotonic
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(_FASTEST_RENDER_MS)
        self._render_timer.timeout.connect(self._render_reply)
        self._working_timer = QTimer(self)
        self._working_timer.setInterval(1000)
        self._working_timer.timeout.connect(self._show_working)
        self.anchorClicked.connect(self._on_link)
        self.copy_last_action = QAction("Copy the last reply", self)
        self.copy_last_action.setShortcut(QKeySequence("Ctrl+Shift+C"))
        self.copy_last_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.copy_last_action.triggered.connect(self.copy_last_reply)
        self.addAction(self.copy_last_action)
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._scheme_changed)

    def setPlaceholderText(self, text: str) -> None:
        """The empty chat's hint, drawn wrapped by `paintEvent` (Qt draws a placeholder on
        one line and clips it); a screen reader reads it as the view's description."""
        self._hint = text
        self.setAccessibleDescription(text)
        self.viewport().update()

    def placeholderText(self) -> str:
        return self._hint

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._hint or not self.document().isEmpty():
            return
        painter = QPainter(self.viewport())
        colour = self.palette().color(QPalette.ColorRole.PlaceholderText)
        painter.setPen(colour)
        margin = int(self.document().documentMargin())
        area = self.viewport().rect().adjusted(margin, margin, -margin, -margin)
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap
        painter.drawText(area, int(flags), self._hint)
        painter.end()

    # Returning a placeholder (not None) is what stops QTextDocument loading the URL itself.
    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        return QImage(1, 1, QImage.Format.Format_ARGB32)

    # -- what the window and the saved conversations call --------------------------------------

    def add_message(self, role: str, text: str) -> None:
        self._add(_Message(self._next_key(), role=role, text=text))

    def begin_reply(self) -> None:
        reply = _Reply(self._next_key(), waiting_since=self.clock())
        self._reply = reply
        self._add(reply)
        if not self._quiet:
            self._working_timer.start()

    def append_reply_text(self, text: str) -> None:
        reply = self._current_reply()
        if reply.parts and isinstance(reply.parts[-1], str):
            reply.parts[-1] += text
        else:
            reply.parts.append(text)
        reply.waiting_since = None
        self._schedule_render()

    def append_reasoning(self, text: str) -> None:
        """The model's thinking: kept, shown folded under a "Thinking…" link."""
        reply = self._current_reply()
        if reply.parts and isinstance(reply.parts[-1], _Thinking):
            reply.parts[-1].text += text
        else:
            reply.parts.append(_Thinking(text))
        reply.waiting_since = None
        self._schedule_render()

    def end_reply(self, note: str | None = None, if_silent: str | None = None) -> None:
        """Close the streaming reply with its note; `if_silent` is the note when the reply
        has neither words nor a note of its own."""
        reply = self._reply
        if reply is None:
            return
        if not note and not reply.text():
            note = if_silent
        self._reply = None
        self._working_timer.stop()
        self._render_timer.stop()
        reply.note = note
        reply.finished = True
        reply.waiting_since = None
        if not self._redraw_tail(reply):  # only its ending changes
            self._draw(reply)
        said = plain_text(reply.text())
        if not self._quiet and (said or note):  # a failed turn's empty reply: its error speaks
            announce(self, " ".join(filter(None, ["Hearth replied:", said, note])))

    def waiting_for_user(self, asking: bool) -> None:
        """A confirmation opened (True) or was answered: the working counter stops while
        the user thinks, and starts again from zero when the model has the answer."""
        reply = self._reply
        if reply is None:
            return
        reply.asking = asking
        reply.waiting_since = self.clock()
        self._render_timer.stop()
        self._render_reply()

    def add_notice(self, text: str, kind: str = "error") -> None:
        """An error or a note, in a block of its own; an error can be dismissed."""
        self._add(_Notice(self._next_key(), kind=kind, text=text))
        if not self._quiet:
            announce(self, text, assertive=kind == "error")

    def add_tool_card(self, record: Any) -> None:
        """A card for one tool call: what ran, the gate's decision, the outcome."""
        # In the same words as the confirmation dialog: "Read the file notes.txt".
        line = (
            f"{describe_call(record.name, record.arguments)} · "
            f"{outcome_in_words(record.decision, record.answer, record.status)}"
        )
        if self._reply is None:
            self.begin_reply()
        reply = self._current_reply()
        reply.parts.append(
            _Card(
                line,
                _cited_sources(record),
                _card_reason(record),
                asked=arguments_in_words(record.name, record.arguments),
                came_back=_came_back(record),
                record=record,
                undo_note=str(getattr(record, "undone", "") or ""),  # a reopened card
            )
        )
        reply.waiting_since = self.clock()  # the model reads the result next
        self._render_reply()

    def undo_finished(self, record: Any, note: str) -> None:
        """The Undo of `record`'s card ran (or could not): the card says what happened in
        words, and offers Undo again only when it did not happen and still can."""
        for entry, _index, card in self._cards():
            if card.record is record:
                card.undoing = False
                card.undo_note = note
                self._draw(entry)
                if not self._quiet:
                    announce(self, note, assertive=not getattr(record, "undone", False))
                return

    def plain_text(self) -> str:
        return self.toPlainText()

    def clear(self) -> None:
        self._entries.clear()
        self._copies.clear()
        self._sources.clear()
        self._reply = None
        self._render_timer.stop()
        self._working_timer.stop()
        super().clear()

    def notices(self) -> list[tuple[str, str]]:
        """The notices showing now, to show again after the view was cleared."""
        return [(e.text, e.kind) for e in self._entries if isinstance(e, _Notice)]

    @contextmanager
    def quiet(self) -> Iterator[None]:
        """Replaying a saved conversation: drawn at once, nothing announced."""
        self._quiet = True
        try:
            yield
        finally:
            self._quiet = False

    @Slot()
    def copy_last_reply(self) -> None:
        replies = [e for e in self._entries if isinstance(e, _Reply) and e.finished and e.text()]
        if replies:
            QGuiApplication.clipboard().setText(replies[-1].text())

    # -- drawing ---------------------------------------------------------------------------------

    def _add(self, entry: _Entry) -> None:
        self._entries.append(entry)
        self._draw(entry)

    def _current_reply(self) -> _Reply:
        if self._reply is None:
            self.begin_reply()
        assert self._reply is not None
        return self._reply

    def _schedule_render(self) -> None:
        if self._quiet:
            return
        if not self._render_timer.isActive():
            self._render_timer.start()

    @Slot()
    def _render_reply(self) -> None:
        """Draw the streaming reply again; the next time waits ten times as long as this took,
        so a long reply costs the GUI thread about a tenth of its time, whatever its length."""
        if self._reply is None:
            return
        started = time.perf_counter()
        if not self._redraw_tail(self._reply):
            self._draw(self._reply)
        spent_ms = (time.perf_counter() - started) * 1000
        interval = int(spent_ms * _RENDER_SHARE)
        self._render_timer.setInterval(max(_FASTEST_RENDER_MS, min(_SLOWEST_RENDER_MS, interval)))

    @Slot()
    def _show_working(self) -> None:
        if self._reply is not None and self._reply.waiting_since is not None:
            self._render_timer.stop()
            self._render_reply()

    def _draw(self, entry: _Entry) -> None:
        """(Re)draw one entry in its own frame; a new entry goes at the end."""
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 4
        cursor = QTextCursor(self.document())
        if entry.frame is None:
            cursor.movePosition(QTextCursor.MoveOperation.End)
            frame_format = QTextFrameFormat()
            frame_format.setTopMargin(14 if isinstance(entry, _Message) else 6)
            entry.frame = cursor.insertFrame(frame_format)
        else:
            cursor.setPosition(entry.frame.firstPosition())
            cursor.setPosition(entry.frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
        if isinstance(entry, _Reply):
            entry.tail = None  # set again as its last piece is drawn
        cursor.setBlockFormat(QTextBlockFormat())
        cursor.setCharFormat(QTextCharFormat())
        if isinstance(entry, _Message):
            self._write_message(cursor, entry)
        elif isinstance(entry, _Reply):
            self._write_reply(cursor, entry)
        elif isinstance(entry, _Notice):
            self._write_notice(cursor, entry)
        if at_end:
            bar.setValue(bar.maximum())

    def _write_message(self, cursor: QTextCursor, message: _Message) -> None:
        label = _ROLE_LABELS.get(message.role, message.role.title())
        cursor.insertText(f"{label}: ", self._format(self._colours.role(message.role), bold=True))
        cursor.insertText(message.text, self._format(self._colours.text))

    def _write_reply(self, cursor: QTextCursor, reply: _Reply) -> None:
        colours = self._colours
        cursor.insertText("Hearth:", self._format(colours.assistant, bold=True))
        for index, part in enumerate(reply.parts):
            if isinstance(part, str):  # the fragment starts a line of its own
                self._write_markdown(cursor, reply, index, part)
                continue
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
            if isinstance(part, _Card):
                cursor.insertText(part.line, self._format(colours.note))
                if part.asked or part.came_back:  # opens like the thinking fold
                    cursor.insertText("   ", self._format(colours.text))
                    label = "Hide details" if part.open else "Details"
                    href = f"{_OWN_SCHEME}:card/{reply.key}/{index}"
                    cursor.insertText(label, self._link_format(href))
                if part.offers_undo():  # a change Hearth made, that code can reverse
                    cursor.insertText("   ", self._format(colours.text))
                    href = f"{_OWN_SCHEME}:undo/{reply.key}/{index}"
                    cursor.insertText("Undo", self._link_format(href))
                if part.undo_note:
                    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                    cursor.insertText(part.undo_note, self._format(colours.note, italic=True))
                if part.reason:
                    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                    cursor.insertText(part.reason, self._format(colours.note, italic=True))
                if part.open:
                    self._write_card_details(cursor, part)
                self._write_sources(cursor, part)
            else:
                self._write_thinking(cursor, reply, index, part)
        self._write_ending(cursor, reply)

    def _write_card_details(self, cursor: QTextCursor, card: _Card) -> None:
        """An opened card: what was asked, in the dialog's words, and what came back."""
        colours = self._colours
        for heading, text in (("Asked:", card.asked), ("Result:", card.came_back)):
            if not text:
                continue
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
            cursor.insertText(heading, self._format(colours.note, bold=True))
            for line in text.splitlines():
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
                cursor.insertText(f"    {line}", self._format(colours.note))

    def _write_sources(self, cursor: QTextCursor, card: _Card) -> None:
        """The documents a search cited, each a link that opens the file."""
        for number, (path, where) in enumerate(card.sources):
            if number == 0:  # a line of its own, not glued to the card's "· done"
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
            cursor.insertText(
                "Sources: " if number == 0 else " · ", self._format(self._colours.note)
            )
            label = f"{path} ({where})" if where else path
            cursor.insertText(
                label, self._link_format(f"{_OWN_SCHEME}:source/{self._source_key(path)}")
            )

    def _source_key(self, path: str) -> str:
        key = str(len(self._sources))
        for known, known_path in self._sources.items():
            if known_path == path:
                return known
        self._sources[key] = path
        return key

    def _write_ending(self, cursor: QTextCursor, reply: _Reply) -> None:
        """The line under a reply: working, a note such as "(stopped)", and Copy reply."""
        colours = self._colours
        ending: list[tuple[str, QTextCharFormat]] = []
        if reply.asking and not reply.finished:
            ending.append(("Waiting for your answer…", self._format(colours.note, italic=True)))
        elif reply.waiting_since is not None and not reply.finished:
            seconds = int(self.clock() - reply.waiting_since)
            working = "Working…" + (f" {seconds} s" if seconds >= 1 else "")
            ending.append((working, self._format(colours.note, italic=True)))
        if reply.note:
            ending.append((reply.note, self._format(colours.note, italic=True)))
        if reply.finished and reply.text():
            link = self._copy_link(str(reply.key), reply.text())
            ending.append(("Copy reply", self._link_format(link)))
        if ending:
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
            for number, (text, text_format) in enumerate(ending):
                if number:
                    cursor.insertText("   ", self._format(colours.text))
                cursor.insertText(text, text_format)

    def _redraw_tail(self, reply: _Reply) -> bool:
        """Streaming text only changes the reply's last piece: remove and draw just that (and
        what follows it), when everything before it is as drawn. False: draw it all."""
        if reply.frame is None or reply.tail is None:
            return False
        index, piece, offset = reply.tail
        text = reply.parts[-1] if index == len(reply.parts) - 1 else None
        if not isinstance(text, str):
            return False
        pieces = markdown_chunks(text)
        if len(pieces) <= piece:
            return False
        for earlier in range(piece):
            if reply.drawn.get((index, earlier), ("",))[0] != pieces[earlier]:
                return False
        cursor = QTextCursor(self.document())
        cursor.setPosition(reply.frame.firstPosition() + offset)
        cursor.setPosition(reply.frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        self._write_markdown(cursor, reply, index, text, first=piece)
        self._write_ending(cursor, reply)
        return True

    def _write_markdown(
        self, cursor: QTextCursor, reply: _Reply, index: int, text: str, first: int = 0
    ) -> None:
        pieces = markdown_chunks(text)
        for piece in range(first, len(pieces)):
            source = pieces[piece]
            known = reply.drawn.get((index, piece))
            if known is None or known[0] != source:
                copy_links = self._copy_links(f"{reply.key}.{index}.{piece}")
                known = (source, render_markdown(source, self._colours, copy_links))
                reply.drawn[(index, piece)] = known
            if index == len(reply.parts) - 1 and piece == len(pieces) - 1 and reply.frame:
                reply.tail = (index, piece, cursor.position() - reply.frame.firstPosition())
            cursor.insertFragment(known[1])

    def _write_thinking(
        self, cursor: QTextCursor, reply: _Reply, index: int, thinking: _Thinking
    ) -> None:
        colours = self._colours
        if thinking.open:
            label = "Hide thinking"
        else:
            still = reply is self._reply and index == len(reply.parts) - 1
            label = "Thinking… (show)" if still else "Show thinking"
        cursor.insertText(label, self._link_format(f"{_OWN_SCHEME}:fold/{reply.key}/{index}"))
        if thinking.open:
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
            cursor.insertText(thinking.text.strip(), self._format(colours.note, italic=True))

    def _write_notice(self, cursor: QTextCursor, notice: _Notice) -> None:
        colour = self._colours.error if notice.kind == "error" else self._colours.note
        cursor.insertText(notice.text, self._format(colour, italic=notice.kind != "error"))
        if notice.kind == "error":
            cursor.insertText("   ", self._format(self._colours.text))
            cursor.insertText("Dismiss", self._link_format(f"{_OWN_SCHEME}:dismiss/{notice.key}"))

    def _format(self, colour: Any, *, bold: bool = False, italic: bool = False) -> QTextCharFormat:
        text_format = QTextCharFormat()
        text_format.setForeground(QBrush(colour))
        if bold:
            text_format.setFontWeight(700)
        text_format.setFontItalic(italic)
        return text_format

    def _link_format(self, href: str) -> QTextCharFormat:
        text_format = self._format(self._colours.link)
        text_format.setAnchor(True)
        text_format.setAnchorHref(href)
        text_format.setFontUnderline(True)
        return text_format

    def _copy_links(self, prefix: str) -> Callable[[str], str]:
        """Numbered "Copy code" links for one piece of a reply (the same on every redraw)."""
        codes = iter(range(1_000_000))
        return lambda code: self._copy_link(f"{prefix}.{next(codes)}", code)

    def _copy_link(self, key: str, text: str) -> str:
        self._copies[key] = text
        return f"{_OWN_SCHEME}:copy/{key}"

    def _next_key(self) -> int:
        self._keys += 1
        return self._keys

    # -- links and colours -----------------------------------------------------------------------

    @Slot(QUrl)
    def _on_link(self, url: QUrl) -> None:
        """The view's own links act here; a link in a reply opens only http(s), and only now,
        after the user clicked it."""
        scheme = url.scheme().lower()
        if scheme in OPENABLE_SCHEMES:
            self.open_link(url)
            return
        if scheme != _OWN_SCHEME:
            return
        action, _, target = url.path().partition("/")
        if action == "copy" and target in self._copies:
            QGuiApplication.clipboard().setText(self._copies[target])
        elif action == "dismiss":
            self._dismiss(target)
        elif action == "fold":
            self._toggle_thinking(target)
        elif action == "card":
            self._toggle_card(target)
        elif action == "undo":
            self._undo(target)
        elif action == "source" and target in self._sources:
            self.source_requested.emit(self._sources[target])

    def _dismiss(self, key: str) -> None:
        for entry in self._entries:
            if isinstance(entry, _Notice) and str(entry.key) == key and entry.frame is not None:
                cursor = QTextCursor(self.document())
                cursor.setPosition(entry.frame.firstPosition() - 1)
                cursor.setPosition(entry.frame.lastPosition() + 1, QTextCursor.MoveMode.KeepAnchor)
                cursor.removeSelectedText()
                self._entries.remove(entry)
                return

    def _toggle_card(self, target: str) -> None:
        reply_key, _, index = target.partition("/")
        for entry in self._entries:
            if isinstance(entry, _Reply) and str(entry.key) == reply_key and index.isdigit():
                part = entry.parts[int(index)] if int(index) < len(entry.parts) else None
                if isinstance(part, _Card):
                    part.open = not part.open
                    announce(self, "Details shown" if part.open else "Details hidden")
                    self._draw(entry)
                return

    def _cards(self) -> Iterator[tuple[_Reply, int, _Card]]:
        for entry in self._entries:
            if isinstance(entry, _Reply):
                for index, part in enumerate(entry.parts):
                    if isinstance(part, _Card):
                        yield entry, index, part

    def _undo(self, target: str) -> None:
        """Undo clicked: the card says "Undoing…" (and offers no second Undo) until the
        window reports what happened (`undo_finished`)."""
        for entry, index, card in self._cards():
            if f"{entry.key}/{index}" == target and card.offers_undo():
                card.undoing = True
                card.undo_note = "Undoing…"
                self._draw(entry)
                self.undo_requested.emit(card.record)
                return

    def _toggle_thinking(self, target: str) -> None:
        reply_key, _, index = target.partition("/")
        for entry in self._entries:
            if isinstance(entry, _Reply) and str(entry.key) == reply_key and index.isdigit():
                part = entry.parts[int(index)] if int(index) < len(entry.parts) else None
                if isinstance(part, _Thinking):
                    part.open = not part.open
                    self._draw(entry)
                return

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._recolour()

    @Slot()
    def _scheme_changed(self) -> None:
        # The new palette reaches the widgets after this signal: recolour once it has.
        QTimer.singleShot(0, self._recolour)

    def _recolour(self) -> None:
        colours: ChatColours = chat_colours(self.palette())
        if colours == self._colours:
            return
        self._colours = colours
        super().clear()
        for entry in self._entries:
            entry.frame = None
            if isinstance(entry, _Reply):
                entry.drawn.clear()  # drawn in the old colours
            self._draw(entry)


_REASON_LIMIT = 400


def _card_reason(record: Any) -> str:
    """Why a call failed, or why Hearth refused it, for the line under its card (a refusal
    the user gave needs no reason: the card says "you denied")."""
    if record.status not in ("error", "refused") or record.answer == "denied":
        return ""
    text = str(getattr(record, "result", "") or "").strip()
    for prefix in ("Refused: ", "Not done: ", "Error: "):
        text = text.removeprefix(prefix)
    if not text:
        return ""
    text = " ".join(text.split())
    if len(text) > _REASON_LIMIT:
        text = text[:_REASON_LIMIT].rstrip() + "…"
    return f"Why: {text}"


def _came_back(record: Any) -> str:
    """A card's result in words; nothing for a call that did not run (its reason says why)."""
    if record.status != "ok":
        return ""
    return result_in_words(record.name, getattr(record, "result", None))


def _cited_sources(record: Any) -> list[tuple[str, str]]:
    """The (path, page or heading) pairs a successful search_documents call returned."""
    if record.name != "search_documents" or record.status != "ok":
        return []
    result = getattr(record, "result", None)
    if not isinstance(result, list):
        return []
    cited = [
        (str(item["path"]), str(item.get("where") or ""))
        for item in result
        if isinstance(item, dict) and item.get("path")
    ]
    return list(dict.fromkeys(cited))
