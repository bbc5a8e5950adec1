"""What a file is by its first bytes: the one table of magic numbers every connector uses.

The files connector names a binary it will not read, the desktop connector refuses programs
and opens only documents, images, sound and video: all of them ask `identify` here, so a
format is described once and a new one is added in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["SIGNATURES", "Family", "Signature", "identify", "media_kind"]

Family = Literal[
    "program", "document", "image", "audio", "video", "audio or video", "archive"
]  # fmt: skip


@dataclass(frozen=True)
class Signature:
    """Bytes a format starts with (at `offset`), its family and its name in words."""

    magic: bytes
    family: Family
    words: str
    offset: int = 0

    def matches(self, head: bytes) -> bool:
        return head[self.offset : self.offset + len(self.magic)] == self.magic


_MACH_O = "a macOS program (Mach-O)"
SIGNATURES: tuple[Signature, ...] = (
    # Programs and launchers: opening one would run it.
    Signature(b"\x7fELF", "program", "a Linux program (ELF)"),
    Signature(b"MZ", "program", "a Windows program"),
    Signature(b"\xfe\xed\xfa\xce", "program", _MACH_O),
    Signature(b"\xfe\xed\xfa\xcf", "program", _MACH_O),
    Signature(b"\xce\xfa\xed\xfe", "program", _MACH_O),
    Signature(b"\xcf\xfa\xed\xfe", "program", _MACH_O),
    Signature(b"\xca\xfe\xba\xbe", "program", "a macOS or Java program"),
    Signature(b"#!", "program", "a script (it starts with #!)"),
    Signature(b"L\x00\x00\x00\x01\x14\x02\x00", "program", "a Windows shortcut"),
    Signature(b"FasdUAS", "program", "an AppleScript"),
    Signature(b"\x00asm", "program", "a WebAssembly program"),
    # Documents.
    Signature(b"%PDF-", "document", "a PDF"),
    Signature(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "document", "an old Office document"),
    Signature(b"{\\rtf", "document", "an RTF document"),
    Signature(b"PK\x03\x04", "archive", "a ZIP archive or Office document"),
    # Images.
    Signature(b"\x89PNG\r\n\x1a\n", "image", "a PNG image"),
    Signature(b"\xff\xd8\xff", "image", "a JPEG image"),
    Signature(b"GIF87a", "image", "a GIF image"),
    Signature(b"GIF89a", "image", "a GIF image"),
    Signature(b"WEBP", "image", "a WebP image", offset=8),
    Signature(b"BM", "image", "a BMP image"),
    Signature(b"II*\x00", "image", "a TIFF image"),
    Signature(b"MM\x00*", "image", "a TIFF image"),
    # Sound and video.
    Signature(b"ID3", "audio", "an MP3 sound"),
    Signature(b"fLaC", "audio", "a FLAC sound"),
    Signature(b"WAVE", "audio", "a WAV sound", offset=8),
    Signature(b"OggS", "audio or video", "an Ogg sound or video"),
    Signature(b"AVI ", "video", "an AVI video", offset=8),
    Signature(b"\x1aE\xdf\xa3", "video", "a Matroska or WebM video"),
    Signature(b"\x00\x00\x01\xba", "video", "an MPEG video"),
    Signature(b"\x00\x00\x01\xb3", "video", "an MPEG video"),
)
# ISO media files ("....ftyp" + a brand): images (HEIF, AVIF), sound (M4A) or video.
_IMAGE_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"mif1", b"msf1",
                           b"avif", b"avis"})  # fmt: skip
_AUDIO_BRANDS = frozenset({b"M4A ", b"M4B ", b"M4P ", b"F4A "})
_FRAME_SYNC = frozenset({0xF1, 0xF9, 0xFA, 0xFB, 0xF2, 0xF3, 0xE2, 0xE3})  # MP3 / AAC frames


def identify(head: bytes) -> Signature | None:
    """The format the first bytes name, or None (text, or something not in the table).
    Programs are looked for first: a Windows program with "ftyp" at byte 4 is a program."""
    for signature in SIGNATURES:
        if signature.family == "program" and signature.matches(head):
            return signature
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        if brand in _IMAGE_BRANDS:
            return Signature(b"ftyp", "image", "a HEIF or AVIF image", 4)
        if brand in _AUDIO_BRANDS:
            return Signature(b"ftyp", "audio", "an MPEG-4 sound", 4)
        return Signature(b"ftyp", "audio or video", "an MPEG-4 or QuickTime file", 4)
    if head[4:8] in (b"moov", b"mdat", b"wide", b"free", b"skip"):
        return Signature(head[4:8], "video", "a QuickTime video", 4)
    riff = head.startswith(b"RIFF")
    for signature in SIGNATURES:
        if signature.offset == 8 and not riff:
            continue
        if signature.matches(head):
            return signature
    if len(head) >= 2 and head[0] == 0xFF and head[1] in _FRAME_SYNC:
        return Signature(head[:2], "audio", "an MP3 or AAC sound")
    return None


def media_kind(head: bytes) -> Family | None:
    """The family of what the first bytes name ("image", "audio", "video"...), or None."""
    found = identify(head)
    return found.family if found else None
