"""A file's text cut into passages a small model can read, each with where it sits.

A 4–8k-token context holds a handful of passages, not a folder, so the document index stores
text in pieces of about a paragraph (``TARGET_CHARS``) and cites each by where a person would
look: the page of a PDF, the heading of a Markdown or Word section, the lines of a text file or
a spreadsheet (whose header row is repeated in each piece, so a row still says what its
columns mean). Pure text in, ``(location, text)`` pairs out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

TARGET_CHARS = 700  # a passage grows up to about this, whole paragraphs at a time
MAX_CHARS = 1000  # a paragraph longer than this is cut at sentence ends
MAX_LOCATION_CHARS = 200

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
TABLE_SUFFIXES = frozenset({".csv", ".tsv"})

Passage = tuple[str, str]  # (location, text)


def split_passages(
    text: str, suffix: str, *, pages: Sequence[str] = (), docx: bool = False
) -> list[Passage]:
    """The passages of a file's text. ``pages``: a PDF's text page by page; ``docx``: a Word
    document whose headings were marked Markdown-style by ``read_file(headings=True)``."""
    if pages:
        return [
            (f"page {number}", piece)
            for number, page in enumerate(pages, start=1)
            for _, piece in _pieces(_paragraphs(page))
        ]
    if docx or suffix in MARKDOWN_SUFFIXES:
        return _by_heading(text)
    if suffix in TABLE_SUFFIXES:
        return _table(text)
    return [(f"line {line}", piece) for line, piece in _pieces(_paragraphs(text))]


def _paragraphs(text: str, first_line: int = 1) -> list[tuple[int, str]]:
    """(first line number, paragraph with its white space folded) for each blank-line-separated
    paragraph."""
    found: list[tuple[int, str]] = []
    start, lines = first_line, list[str]()
    for number, line in enumerate(text.splitlines(), start=first_line):
        if line.strip():
            if not lines:
                start = number
            lines.append(line)
        elif lines:
            found.append((start, " ".join(" ".join(lines).split())))
            lines = []
    if lines:
        found.append((start, " ".join(" ".join(lines).split())))
    return found


def _pieces(paragraphs: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    """Whole paragraphs joined up to ``TARGET_CHARS``; an overlong one cut at sentence ends."""
    out: list[tuple[int, str]] = []
    start, current = 0, ""
    for line, paragraph in paragraphs:
        for part in _cut_long(paragraph):
            if current and len(current) + 1 + len(part) > TARGET_CHARS:
                out.append((start, current))
                current = ""
            if not current:
                start = line
            current = f"{current}\n{part}" if current else part
    if current:
        out.append((start, current))
    return out


def _cut_long(paragraph: str) -> list[str]:
    """A paragraph as it is, or cut into pieces of at most ``MAX_CHARS`` at sentence ends (at
    spaces, or anywhere, where a sentence is longer still)."""
    if len(paragraph) <= MAX_CHARS:
        return [paragraph]
    pieces: list[str] = []
    current = ""
    for sentence in _SENTENCE_END.split(paragraph):
        for part in _hard_cut(sentence):
            if current and len(current) + 1 + len(part) > TARGET_CHARS:
                pieces.append(current)
                current = ""
            current = f"{current} {part}" if current else part
    if current:
        pieces.append(current)
    return pieces


def _hard_cut(sentence: str) -> list[str]:
    if len(sentence) <= MAX_CHARS:
        return [sentence]
    parts: list[str] = []
    rest = sentence
    while len(rest) > MAX_CHARS:
        cut = rest.rfind(" ", 0, TARGET_CHARS)
        cut = cut if cut > TARGET_CHARS // 2 else TARGET_CHARS
        parts.append(rest[:cut].strip())
        rest = rest[cut:].strip()
    return [*parts, rest] if rest else parts


def _by_heading(text: str) -> list[Passage]:
    """Sections under their headings ("Lease › Notice"); text before the first heading is
    cited by its lines."""
    out: list[Passage] = []
    trail: list[tuple[int, str]] = []  # (level, heading) above the current line, outermost first
    section: list[str] = []
    section_start = 1

    def flush() -> None:
        if not any(line.strip() for line in section):
            return
        where = " › ".join(title for _, title in trail)[:MAX_LOCATION_CHARS]
        for line, piece in _pieces(_paragraphs("\n".join(section), section_start)):
            out.append((where or f"line {line}", piece))

    for number, line in enumerate(text.splitlines(), start=1):
        heading = _HEADING.match(line)
        if heading is None:
            section.append(line)
            continue
        flush()
        level = len(heading.group(1))
        while trail and trail[-1][0] >= level:
            trail.pop()
        trail.append((level, heading.group(2).strip()))
        section, section_start = [], number + 1
    flush()
    return out


def _table(text: str) -> list[Passage]:
    """Rows in pieces, each led by the header row; cited as "lines 2–30"."""
    lines = text.splitlines()
    if not lines:
        return []
    header, rows = lines[0], lines[1:]
    out: list[Passage] = []
    chunk: list[str] = []
    first = last = 2
    for number, row in enumerate(rows, start=2):
        if not row.strip():
            continue
        if chunk and len(header) + sum(len(r) + 1 for r in chunk) + len(row) > TARGET_CHARS:
            out.append((_lines(first, last), "\n".join([header, *chunk])))
            chunk = []
        if not chunk:
            first = number
        chunk.append(row[:MAX_CHARS])
        last = number
    if chunk:
        out.append((_lines(first, last), "\n".join([header, *chunk])))
    if not out and header.strip():
        out.append(("line 1", header[:MAX_CHARS]))
    return out


def _lines(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}–{last}"
