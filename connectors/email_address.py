"""What counts as an e-mail address, in one place for the whole app.

Two shapes: an address to send to (one @, a dot in the domain, no spaces, quotes, brackets or
separators: what a recipient field, an attendee or a tool argument of format "email" must be),
and anything address-like inside free text (broader on purpose: the gate looks for every
recipient a message could reach, and a looser match only makes it ask more often).
Standard library only, so every layer can import it.
"""

from __future__ import annotations

import re

_CHAR = r"[^@\s<>()\[\],;:\"'\\]"
_LAST = r"[^@\s<>()\[\],;:\"'\\.]"  # the last part of the domain: no trailing dot

ADDRESS = re.compile(rf"{_CHAR}+@{_CHAR}+\.{_LAST}+")
IN_TEXT = re.compile(rf"{_CHAR}+@{_CHAR}+")


def is_email_address(text: str) -> bool:
    """True when the whole of `text` is one address to send to."""
    return ADDRESS.fullmatch(text) is not None
