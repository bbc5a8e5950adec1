"""Model text to a safe piece of rich text: the Markdown people expect, nothing a page could do.

The model's text is untrusted (a web page or an email can steer it). Qt's own Markdown parser
runs with MarkdownNoHTML, so `<b>`, `<img>` or `<script>` stay visible characters; then the
result is walked once: images become a line of text (nothing is ever fetched, not even a local
file), a link keeps its anchor only for http(s) and always shows its real address beside its
text, and each code block gets a monospace tinted block and a "Copy code" link. Links of the
app's own controls are added only by the view, after this, so the model cannot forge one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import (
    QBrush,
    QFont,
    QFontDatabase,
    QImage,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextDocumentFragment,
    QTextFormat,
)

from app.ui.chat_colours import ChatColours

_FEATURES = (
    QTextDocument.MarkdownFeature.MarkdownNoHTML
    | QTextDocument.MarkdownFeature.MarkdownDialectGitHub
)
OPENABLE_SCHEMES = ("http", "https")


class _InertDocument(QTextDocument):
    """A scratch document that loads nothing, should anything ask it to."""

    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        return QImage(1, 1, QImage.Format.Format_ARGB32)


@dataclass
class _Edit:
    """A change to the scratch document, applied from the end backwards so positions hold."""

    position: int
    length: int
    replacement: str
    format: QTextCharFormat


def render_markdown(
    text: str, colours: ChatColours, copy_link: Callable[[str], str]
) -> QTextDocumentFragment:
    """Render `text`; `copy_link(code)` returns the address of a "Copy code" link."""
    document = _InertDocument()
    document.setMarkdown(text, _FEATURES)
    edits = _inline_edits(document, colours)
    for edit in sorted(edits, key=lambda e: e.position, reverse=True):
        cursor = QTextCursor(document)
        cursor.setPosition(edit.position)
        cursor.setPosition(edit.position + edit.length, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(edit.replacement, edit.format)
    _style_code_blocks(document, colours, copy_link)
    _colour_text(document, colours)
    _lead_with_empty_block(document)
    return QTextDocumentFragment(document)


def markdown_chunks(text: str) -> list[str]:
    """`text` cut at blank lines outside code fences and before a line that is not indented
    (which would continue a list item): pieces that render alike alone and together, so a
    streaming reply redraws only its last piece and reuses the others."""
    chunks: list[str] = []
    current: list[str] = []
    fence = ""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        stripped = line.lstrip()
        if not fence and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
        elif fence and stripped.startswith(fence):
            fence = ""
        current.append(line)
        following = lines[number + 1] if number + 1 < len(lines) else ""
        starts_block = following[:1] not in ("", " ", "\t")
        if not fence and not line.strip() and starts_block:
            chunks.append("\n".join(current))
            current = []
    if current:
        chunks.append("\n".join(current))
    return chunks


def plain_text(text: str) -> str:
    """What the rendered `text` reads as (for announcements: no `**` or fences read aloud)."""
    document = _InertDocument()
    document.setMarkdown(text, _FEATURES)
    return document.toPlainText().strip()


def _inline_edits(document: QTextDocument, colours: ChatColours) -> list[_Edit]:
    edits: list[_Edit] = []
    for block in _blocks(document):
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            iterator += 1
            if not fragment.isValid():
                continue
            char_format = fragment.charFormat()
            if char_format.isImageFormat():
                edits.append(
                    _image_edit(fragment.position(), fragment.length(), char_format, colours)
                )
            elif char_format.isAnchor():
                edits.extend(
                    _link_edits(fragment.position(), fragment.text(), char_format, colours)
                )
    return edits


def _image_edit(
    position: int, length: int, char_format: QTextCharFormat, colours: ChatColours
) -> _Edit:
    source = char_format.toImageFormat().name()
    plain = QTextCharFormat()
    plain.setForeground(QBrush(colours.note))
    plain.setFontItalic(True)
    return _Edit(position, length, f"[image not shown: {source}]", plain)


def _link_edits(
    position: int, text: str, char_format: QTextCharFormat, colours: ChatColours
) -> list[_Edit]:
    """A link opens only http(s); its address is always on screen, so text and target can't
    silently differ ("click here" reads "click here (https://…)")."""
    href = char_format.anchorHref()
    scheme = QUrl(href).scheme().lower()
    link = QTextCharFormat(char_format)
    if scheme in OPENABLE_SCHEMES:
        link.setForeground(QBrush(colours.link))
        link.setFontUnderline(True)
    else:  # javascript:, file:, the app's own schemes…: shown, never clickable
        link = QTextCharFormat()
        link.setForeground(QBrush(colours.text))
    link.setToolTip(href)
    edits = [_Edit(position, len(text), text, link)]
    if not _shows_address(text, href):
        address = QTextCharFormat()
        address.setForeground(QBrush(colours.note))
        edits.append(_Edit(position + len(text), 0, f" ({href})", address))
    return edits


def _shows_address(text: str, href: str) -> bool:
    shown = text.strip().rstrip("/")
    target = href.strip().rstrip("/")
    return shown in (target, target.removeprefix("https://"), target.removeprefix("http://"))


def _style_code_blocks(
    document: QTextDocument, colours: ChatColours, copy_link: Callable[[str], str]
) -> None:
    """Each run of code lines: monospace on a tint, then a "Copy code" link on its own line."""
    runs: list[list[QTextBlock]] = []
    for block in _blocks(document):
        if block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence):
            previous = block.previous()
            if runs and runs[-1][-1] == previous:
                runs[-1].append(block)
            else:
                runs.append([block])
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    for run in reversed(runs):  # from the end, so earlier positions hold
        code = "\n".join(block.text() for block in run)
        for block in run:
            cursor = QTextCursor(block)
            block_format = block.blockFormat()
            block_format.setBackground(QBrush(colours.code_background))
            cursor.setBlockFormat(block_format)
            cursor.movePosition(
                QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
            )
            char_format = QTextCharFormat()
            char_format.setFontFamilies([fixed.family(), "monospace"])
            char_format.setFontStyleHint(QFont.StyleHint.Monospace)
            char_format.setFontFixedPitch(True)
            cursor.mergeCharFormat(char_format)
        cursor = QTextCursor(run[-1])
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        link = QTextCharFormat()
        link.setAnchor(True)
        link.setAnchorHref(copy_link(code))
        link.setForeground(QBrush(colours.link))
        link.setFontUnderline(True)
        cursor.insertText("Copy code", link)


def _colour_text(document: QTextDocument, colours: ChatColours) -> None:
    """Text without a colour of its own gets the palette's text colour, explicitly: a reply
    never inherits the colour of whatever was drawn before it (a tool card's grey)."""
    uncoloured = []
    for block in _blocks(document):
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            iterator += 1
            no_colour = fragment.charFormat().foreground().style() == Qt.BrushStyle.NoBrush
            if fragment.isValid() and no_colour:
                uncoloured.append((fragment.position(), fragment.length()))
    coloured = QTextCharFormat()
    coloured.setForeground(QBrush(colours.text))
    for position, length in uncoloured:
        cursor = QTextCursor(document)
        cursor.setPosition(position)
        cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(coloured)


def _lead_with_empty_block(document: QTextDocument) -> None:
    """Pasting a fragment merges its first block into the block at the cursor, format lost (a
    heading or a code block would turn into plain text): so the first block is an empty one."""
    first = document.begin()
    cursor = QTextCursor(first)
    cursor.insertBlock(first.blockFormat(), first.charFormat())
    cursor.movePosition(QTextCursor.MoveOperation.Start)
    cursor.setBlockFormat(QTextBlockFormat())


def _blocks(document: QTextDocument) -> list[QTextBlock]:
    blocks = []
    block = document.begin()
    while block.isValid():
        blocks.append(block)
        block = block.next()
    return blocks
