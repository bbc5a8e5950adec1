"""Text other people wrote, made into what a reader sees: the one set of rules.

Mail, web pages, files, invitations, shared task lists, address books and outside tool
servers all hand Hearth text that someone else wrote, and the model reads every character
of it, including the ones a person never sees. Instructions are smuggled exactly there:

- invisible characters: format characters (zero-width spaces and joiners, bidirectional
  embeddings, overrides and isolates that reorder what is shown, the Unicode "tag" block
  that spells ASCII invisibly, the byte-order mark, the soft hyphen), variation selectors
  (which can carry a byte each after any character), Hangul fillers and other blanks that
  render as nothing;
- control characters (all but line feed and tab), and Unicode line and paragraph separators
  (made plain line feeds);
- in HTML, elements hidden from a reader: ``display:none``, ``visibility:hidden``,
  ``font-size:0`` (or a size too small to read), ``opacity:0``, ``color:transparent``, a
  zero-size box that hides its overflow, text pushed far off-screen, ``clip`` and
  ``transform:scale(0)``, the ``hidden`` attribute and ``aria-hidden="true"``.

Every connector that reads such text uses `visible_text` (a body), `one_line` (a subject,
a title, a name) and, for HTML, `hidden_element`; before, about ten places had eight rules.
Text is otherwise left as written (no NFKC: a reader sees "ﬁ" and "①" as they are).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

__all__ = [
    "HIDING_STYLE_PROPERTIES",
    "hidden_element",
    "hidden_style",
    "is_invisible",
    "one_line",
    "visible_text",
]

# Characters that render as nothing but are not format characters (category Cf covers the
# rest): variation selectors, all of plane 14 (tags, assigned or not), the combining
# grapheme joiner, Hangul and Khmer fillers, Mongolian free variation selectors.
_BLANK_RANGES = (
    (0xFE00, 0xFE0F), (0xE0000, 0xE0FFF), (0x034F, 0x034F), (0x115F, 0x1160),
    (0x3164, 0x3164), (0xFFA0, 0xFFA0), (0x17B4, 0x17B5), (0x180B, 0x180F),
)  # fmt: skip
_SPACES = re.compile(r"[ \t\f\v\u00a0]+")


def is_invisible(char: str) -> bool:
    """A character a reader never sees (the line feed and tab excepted): a format
    character, a control character, a variation selector or a filler."""
    if char in "\n\t":
        return False
    if unicodedata.category(char) in ("Cf", "Cc"):
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _BLANK_RANGES)


def _strip(text: str, control: str) -> str:
    """Line ends made "\\n", separators too; invisible characters dropped, controls made
    `control` (a space keeps "a\\x0bb" two words)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\u2028", "\n").replace("\u2029", "\n").replace("\x85", "\n")
    out = []
    for char in text:
        if not is_invisible(char):
            out.append(char)
        elif unicodedata.category(char) == "Cc":
            out.append(control)
    return "".join(out)


def visible_text(text: str, *, layout: bool = False) -> str:
    """A body of text as a reader sees it: invisible and control characters gone, line ends
    plain, runs of spaces one space, trailing spaces and more than one blank line dropped.
    `layout` keeps spaces, tabs and blank lines as they are (a file's columns and indents:
    only the characters nobody sees go)."""
    if layout:
        return _strip(str(text or ""), "")
    text = _strip(str(text or ""), " ")
    lines = [_SPACES.sub(" ", line).rstrip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def one_line(text: object, limit: int | None = None) -> str:
    """A subject, title or name as one line a reader sees: invisible characters gone, line
    breaks and controls made spaces, spaces squeezed, at most `limit` characters (an
    ellipsis marks a cut)."""
    flat = " ".join(_strip(str(text or ""), " ").split())
    if limit is not None and len(flat) > limit:
        return flat[: max(0, limit - 1)] + "…"
    return flat


# -- HTML ----------------------------------------------------------------------------------

# The style properties that can hide an element (a sanitiser must keep them for the check).
HIDING_STYLE_PROPERTIES = frozenset(
    {"display", "visibility", "font-size", "opacity", "color", "height", "max-height",
     "width", "max-width", "overflow", "text-indent", "position", "left", "top", "clip",
     "clip-path", "transform"}
)  # fmt: skip
_DECLARATION = re.compile(r"([a-zA-Z-]+)\s*:\s*([^;]*)")
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*(px|pt|em|rem|%|vw|vh|ex|ch)?\s*$")
_PX = {"px": 1.0, "pt": 4 / 3, "em": 16.0, "rem": 16.0, "ex": 8.0, "ch": 8.0, "%": 0.16,
       "vw": 10.0, "vh": 10.0, None: 1.0}  # fmt: skip
_MIN_READABLE_PX = 2.0  # text smaller than this is not for reading
_OFF_SCREEN_PX = -500.0


def _pixels(value: str) -> float | None:
    match = _LENGTH.match(value.replace("!important", ""))
    if not match:
        return None
    return float(match.group(1)) * _PX[match.group(2).lower() if match.group(2) else None]


def hidden_style(style: str) -> bool:
    """True when an inline style hides the element's text from a reader."""
    found: dict[str, str] = {}
    for name, value in _DECLARATION.findall(style or ""):
        found[name.lower()] = value.replace("!important", "").strip().lower()
    if found.get("display") == "none" or found.get("visibility") in ("hidden", "collapse"):
        return True
    size = _pixels(found.get("font-size", ""))
    if size is not None and size < _MIN_READABLE_PX:
        return True
    opacity = found.get("opacity", "")
    try:
        if opacity and float(opacity.rstrip("%")) / (100 if opacity.endswith("%") else 1) < 0.05:
            return True
    except ValueError:
        pass
    color = found.get("color", "").replace(" ", "")
    if color == "transparent" or re.fullmatch(r"rgba\(.*,0?\.?0*\)|hsla\(.*,0?\.?0*\)", color):
        return True
    if found.get("overflow") in ("hidden", "clip"):
        for box in ("height", "max-height", "width", "max-width"):
            length = _pixels(found.get(box, ""))
            if length is not None and length < 1:
                return True
    for edge in ("text-indent", "left", "top"):
        offset = _pixels(found.get(edge, ""))
        if offset is not None and offset <= _OFF_SCREEN_PX:
            return True
    if found.get("clip", "").startswith("rect(0") or re.match(
        r"inset\((?:50|100)%", found.get("clip-path", "")
    ):
        return True
    return bool(re.match(r"scale[xy]?\(\s*0*\.?0*\s*[,)]", found.get("transform", "")))


def hidden_element(attributes: Mapping[str, str | None]) -> bool:
    """True when an element's attributes hide it (and all it holds) from a reader."""
    values = {key.lower(): (value or "") for key, value in attributes.items()}
    return (
        "hidden" in values
        or values.get("aria-hidden", "").strip().lower() == "true"
        or hidden_style(values.get("style", ""))
    )
