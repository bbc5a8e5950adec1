"""Which legacy code page bytes that are not UTF-8 were written in (files, web pages).

charset-normalizer guesses; Windows-1252 goes first when charset-normalizer's own mess detector
finds that reading clean, because on short Western texts its first guess is often a rarer
Latin code page (``mac_latin2`` for a French sentence, "Rťunion").
"""

from __future__ import annotations

from charset_normalizer import from_bytes

# charset-normalizer's mess ratio of a Windows-1252 reading: Western European texts score 0 to
# 0.21, Cyrillic, Greek, Polish, Arabic or Thai bytes read as Windows-1252 0.94 or more.
CP1252_MAX_MESS = 0.5


def legacy_encodings(data: bytes, complete: bool = True) -> list[str]:
    """The likely code pages of bytes that are not UTF-8, best first (Python codec names).
    A truncated read (``complete=False``) may end inside a character of up to 4 bytes: the
    guess is then made without that partial character."""
    if from_bytes(data, cp_isolation=["cp1252"], threshold=CP1252_MAX_MESS).best():
        return ["cp1252"]
    for cut in range(1 if complete else 4):
        best = from_bytes(data[: len(data) - cut]).best()
        if best is not None:
            return [best.encoding]
    return []
