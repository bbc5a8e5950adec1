"""What ``open_item`` opens: an allow-list of kinds, checked by name, by content and by the
desktop's MIME type.

A deny-list of programs can never be complete: every year brings a new launcher (``.jnlp``
downloads and runs Java, ``.flatpakref`` installs an application, ``.appinstaller`` and
``.msix`` install packages, ``.search-ms`` points the file manager at a remote share). So a
file is opened only when all three looks say it is one of the kinds below (documents,
images, audio, video, plain text, PDF, office files); the program checks of
``connectors.desktop.programs`` stay as a second line. Web pages, scripts with an inert
suffix and vector images (both can run code in the viewer they open in) are not here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from connectors.magic import media_kind


@dataclass(frozen=True)
class Kind:
    """One kind of file the desktop may open: its name in words, the content test."""

    words: str
    content: Callable[[bytes], bool]


def _starts(*magics: bytes) -> Callable[[bytes], bool]:
    return lambda head: head.startswith(magics)


def _media(*kinds: str) -> Callable[[bytes], bool]:
    return lambda head: media_kind(head) in kinds


def _text(head: bytes) -> bool:
    """Plain text: no NUL byte, and UTF-8 (a cut-off last character is fine) or a legacy
    one-byte encoding's printable range."""
    body = head.removeprefix(b"\xef\xbb\xbf")
    if b"\x00" in body:
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(body) - 3:  # not merely the last character cut by the read
            return all(b >= 0x20 or b in b"\t\n\r\f" for b in body)
    return True


_PDF = Kind("a PDF document", _starts(b"%PDF-"))
_IMAGE = Kind("an image", _media("image"))
_AUDIO = Kind("a sound file", _media("audio", "audio or video"))
_VIDEO = Kind("a video", _media("video", "audio or video"))
_TEXT = Kind("a text file", _text)
_ZIP_OFFICE = Kind("an office document", _starts(b"PK\x03\x04"))
_OLE_OFFICE = Kind("an office document", _starts(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"))
_RTF = Kind("a rich-text document", _starts(b"{\\rtf"))

OPENABLE: dict[str, Kind] = {
    ".pdf": _PDF,
    **dict.fromkeys(
        (".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".heic",
         ".heif", ".avif"),
        _IMAGE,
    ),
    **dict.fromkeys(
        (".mp3", ".ogg", ".oga", ".opus", ".flac", ".wav", ".m4a", ".aac"), _AUDIO
    ),
    **dict.fromkeys((".mp4", ".m4v", ".mkv", ".webm", ".mov", ".avi", ".ogv"), _VIDEO),
    **dict.fromkeys((".txt", ".text", ".md", ".markdown", ".csv", ".tsv", ".log"), _TEXT),
    **dict.fromkeys(
        (".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp", ".odg", ".epub"), _ZIP_OFFICE
    ),
    **dict.fromkeys((".doc", ".xls", ".ppt"), _OLE_OFFICE),
    ".rtf": _RTF,
}  # fmt: skip

# What the desktop may call an openable file (its MIME type, where it can say at all).
_MIME_FAMILIES = ("text/", "image/", "audio/", "video/")
_MIME_REFUSED = frozenset({"image/svg+xml", "text/html", "application/xhtml+xml"})
_MIME_ALLOWED = frozenset(
    {"application/pdf", "application/rtf", "application/msword", "application/vnd.ms-excel",
     "application/vnd.ms-powerpoint", "application/epub+zip", "application/ogg",
     "application/x-ole-storage", "application/zip", "application/octet-stream",
     "application/x-matroska", "application/csv"}
)  # fmt: skip
_MIME_PREFIXES = (
    "application/vnd.openxmlformats-officedocument.",
    "application/vnd.oasis.opendocument.",
)


def not_openable(name: str, head: bytes, mime: str | None) -> str | None:
    """Why Hearth does not hand this file to the desktop (in words), or None when its name,
    its first bytes and the desktop's MIME type (None: the desktop cannot say) all say it
    is a document, an image, a sound, a video or text."""
    suffix = os.path.splitext(name.rstrip(". "))[1].lower()
    kind = OPENABLE.get(suffix)
    if kind is None:
        what = f"a {suffix} file" if suffix else "a file without a known kind"
        return f"{what}, and Hearth opens only documents, images, sound, video and text"
    if not kind.content(head):
        return f"named like {kind.words}, but its content is something else"
    if mime:
        mime = mime.strip().lower()
        allowed = mime in _MIME_ALLOWED or mime.startswith(_MIME_PREFIXES)
        allowed = allowed or (mime.startswith(_MIME_FAMILIES) and mime not in _MIME_REFUSED)
        if not allowed:
            return f"{kind.words} by its name, but the desktop calls it {mime}"
    return None
