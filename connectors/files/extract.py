"""Text out of bytes: plain text in any common encoding, PDF pages, Word paragraphs.

Everything here works on bytes already read from a safely opened descriptor, never on a path,
so a parser cannot be tricked into opening a different file. PDF and DOCX parsers are imported
lazily: the rest of the connector works without them, and they cost nothing until used.
"""

from __future__ import annotations

import codecs
import io
import zipfile
from typing import Any, Literal

from connectors.encodings import legacy_encodings
from connectors.magic import identify

Kind = Literal["text", "pdf", "docx"]

# Files whose content search_files looks inside (besides PDF and DOCX).
TEXT_SUFFIXES = frozenset(
    {
        ".txt",
        ".text",
        ".md",
        ".markdown",
        ".csv",
        ".tsv",
        ".json",
        ".log",
        ".rst",
        ".org",
        ".yaml",
        ".yml",
        ".xml",
        ".html",
        ".htm",
        ".ini",
    }
)
DOCUMENT_SUFFIXES: dict[str, Kind] = {".pdf": "pdf", ".docx": "docx"}
# Formats people will ask about that we cannot turn into text: named in the refusal.
UNSUPPORTED_SUFFIXES = frozenset(
    {".doc", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".odp", ".pages", ".numbers"}
)
READABLE_HINT = "Hearth can read text files (.txt, .md, .csv, .json...), PDF and Word (.docx)."

MAX_DOCX_UNPACKED = 100 * 1024 * 1024
MAX_DOCX_MEMBERS = 5000
MAX_PDF_PAGES = 2000


class DocumentError(Exception):
    """The bytes could not be turned into text; the message says why, for a person."""


def sniff(head: bytes, suffix: str) -> Kind:
    """Decide how to read a file from its first bytes (content first, then the name)."""
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith(b"PK\x03\x04") and suffix == ".docx":
        return "docx"
    if suffix in DOCUMENT_SUFFIXES:
        raise DocumentError(f"it is named {suffix} but is not a valid {suffix[1:].upper()} file")
    return "text"


def describe_binary(head: bytes) -> str:
    """A human name for a binary file type, for the refusal message."""
    found = identify(head)  # the one magic-byte table (connectors.magic)
    return found.words if found is not None else "binary data"


def decode_text(data: bytes, *, complete: bool) -> tuple[str, str] | None:
    """Decode text; returns (text, encoding) or None when the bytes are not text.

    UTF-8 (with or without BOM) and UTF-16 with a BOM are decoded strictly. Anything else that
    does not look binary is an old file from another computer, still worth reading: Windows-1252
    when charset-normalizer's mess detector finds that reading clean (its own first guess on a
    short Western text is often a rarer Latin code page), else charset-normalizer's guess
    (Cyrillic, Greek, Japanese, Chinese, Korean... code pages), else Latin-1, which accepts
    every byte. The encoding says which. With ``complete=False`` (a truncated read) a character
    cut in half at the end is dropped.
    """
    if data.startswith(codecs.BOM_UTF8):
        return _decode(data, "utf-8-sig", complete)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode(data, "utf-16", complete)
    if b"\x00" in data[:8192]:
        return None
    decoded = _decode(data, "utf-8", complete)
    if decoded is not None:
        return decoded
    for encoding in [*legacy_encodings(data, complete), "latin-1"]:
        decoded = _decode(data, encoding, complete)
        if decoded is not None:
            return None if _looks_binary(decoded[0]) else decoded
    return None


def _decode(data: bytes, encoding: str, complete: bool) -> tuple[str, str] | None:
    """Strictly decoded text and the encoding's usual name, or None if the bytes do not fit."""
    try:
        text = codecs.getincrementaldecoder(encoding)("strict").decode(data, final=complete)
    except UnicodeDecodeError:
        return None
    return text, _encoding_name(encoding)


def _encoding_name(codec: str) -> str:
    """The label people know an encoding by (Python's codec names are cp1251, cp932...)."""
    name = codecs.lookup(codec).name
    if name.startswith("cp125"):
        return "windows-" + name[2:]
    return {"utf-8-sig": "utf-8", "iso8859-1": "latin-1", "cp932": "shift_jis"}.get(name, name)


def _looks_binary(text: str) -> bool:
    """Many control characters in a sample mean data, not text, whatever the encoding says."""
    sample = text[:8192]
    controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\n\r\f")
    return controls > len(sample) // 20


def extract_pdf(data: bytes, max_chars: int) -> tuple[str, bool]:
    """The text of a PDF's pages, separated by blank lines; (text, truncated)."""
    pages, truncated = extract_pdf_pages(data, max_chars)
    return cut_text("\n\n".join(pages), max_chars, truncated)


def extract_pdf_pages(data: bytes, max_chars: int) -> tuple[list[str], bool]:
    """The text of each page, in order (the document index cites pages); (pages, truncated).

    Reading stops once ``max_chars`` characters are in hand; the last page is not cut."""
    try:
        from pypdf import PdfReader
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise DocumentError("PDF support is not installed (the 'pypdf' package)") from exc
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:  # many PDFs are "encrypted" with an empty password, only to restrict printing
                opened = bool(reader.decrypt(""))
            except Exception:  # e.g. AES without the optional 'cryptography' package
                opened = False
            if not opened:
                raise DocumentError("it is protected with a password")
        texts: list[str] = []
        total = 0
        truncated = False
        for number, page in enumerate(reader.pages):
            if number >= MAX_PDF_PAGES or total > max_chars:
                truncated = True
                break
            text = (page.extract_text() or "").strip()
            texts.append(text)
            total += len(text) + 2
    except DocumentError:
        raise
    except Exception as exc:  # a third-party parser on untrusted input: any failure is "damaged"
        raise DocumentError("the PDF is damaged or uses features Hearth cannot read") from exc
    return texts, truncated


def extract_docx(data: bytes, max_chars: int, *, headings: bool = False) -> tuple[str, bool]:
    """The paragraphs (and table rows, tab-separated) of a Word document, in order.

    With ``headings``, a paragraph styled as a heading is written as a Markdown heading
    ("## Notice"), so the document index can cite the section a passage sits in."""
    try:
        from docx import Document
        from docx.table import Table
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise DocumentError("Word support is not installed (the 'python-docx' package)") from exc
    _check_zip(data)
    try:
        document = Document(io.BytesIO(data))
        lines: list[str] = []
        total = 0
        truncated = False
        for block in document.iter_inner_content():
            if total > max_chars:
                truncated = True
                break
            if isinstance(block, Table):
                for row in block.rows:
                    line = "\t".join(cell.text for cell in row.cells)
                    lines.append(line)
                    total += len(line) + 1
            else:
                line = _heading_marker(block) + block.text if headings else block.text
                lines.append(line)
                total += len(line) + 1
    except Exception as exc:  # a third-party parser on untrusted input
        raise DocumentError("the Word document is damaged or not a .docx file") from exc
    return cut_text("\n".join(lines), max_chars, truncated)


def _heading_marker(paragraph: Any) -> str:
    """ "# " for Title and Heading 1, "## " for Heading 2, ...; "" for other paragraphs."""
    style = getattr(getattr(paragraph, "style", None), "name", "") or ""
    if not paragraph.text.strip():
        return ""
    if style == "Title":
        return "# "
    if style.startswith("Heading "):
        level = style.removeprefix("Heading ").strip()
        if level.isdigit():
            return "#" * max(1, min(int(level), 6)) + " "
    return ""


def _check_zip(data: bytes) -> None:
    """Refuse zip bombs before python-docx inflates anything.

    ``zipfile`` never inflates a member past its declared size, so bounding the declared sizes
    bounds the memory used.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError) as exc:
        raise DocumentError("the Word document is damaged or not a .docx file") from exc
    if len(members) > MAX_DOCX_MEMBERS or sum(m.file_size for m in members) > MAX_DOCX_UNPACKED:
        raise DocumentError("the Word document unpacks to more than Hearth will read")
    if not any(m.filename == "word/document.xml" for m in members):
        raise DocumentError("it is not a Word (.docx) document")


def cut_text(text: str, max_chars: int, truncated: bool) -> tuple[str, bool]:
    """At most ``max_chars`` of ``text``; (text, whether anything is missing)."""
    if len(text) > max_chars:
        return text[:max_chars], True
    return text, truncated
