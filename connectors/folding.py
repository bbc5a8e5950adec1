"""Text folded for matching what a person typed against what is stored: case and accents away.

"Zoe Muller" must find the contact "Zoë Müller", and "jose alvarez" "José Álvarez": people type
names without their accents (a keyboard without them, a habit, a name heard rather than read).
Every place that matches a person's name (the contact search, the id hints, conversation
titles, the trigram document index) compares ``fold(query)`` with ``fold(stored)``, so they all
agree. Letters with a stroke or a ligature, which Unicode does not decompose (ł, ø, đ, æ, œ),
are spelled the way their speakers write them on a plain keyboard; ß becomes ss (case folding).

Folding keeps one character per character except for those few ligatures, so it is for
comparing, never for showing.
"""

from __future__ import annotations

import unicodedata

# The accents of Latin, Greek and Cyrillic letters (Combining Diacritical Marks). Marks of
# other scripts change the letter (the voicing marks of Japanese kana): they are kept.
_ACCENT_MIN, _ACCENT_MAX = "\u0300", "\u036f"
# Letters Unicode does not decompose into a base letter and a mark.
_PLAIN = str.maketrans(
    {
        "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ŧ": "t", "ı": "i", "ƚ": "l",
        "ɨ": "i", "ʉ": "u", "æ": "ae", "œ": "oe", "þ": "th", "ĸ": "q",
    }
)  # fmt: skip


def fold(text: str) -> str:
    """``text`` case-folded and without accents: "Zoë Müller" and "ZOE MULLER" both become
    "zoe muller", "Łódź" becomes "lodz", "Straße" "strasse"; "が" stays "が"."""
    # Accents off before case folding (which turns the iota subscript into an iota) and again
    # after it (which turns İ into i and a dot above); compatibility forms (𝕬, ﬁ) first, so
    # their case folds too.
    folded = _bare(_bare(str(text)).casefold())
    return unicodedata.normalize("NFC", folded.translate(_PLAIN))


def _bare(text: str) -> str:
    """`text` decomposed (NFKD), without the accents of Latin, Greek and Cyrillic letters."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not _ACCENT_MIN <= c <= _ACCENT_MAX)
