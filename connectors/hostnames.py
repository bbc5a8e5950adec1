"""Host names as the network uses them (IDNA 2008, UTS #46) and as the user is shown them.

Why the `idna` package and not ``str.encode("idna")``: Python's codec is IDNA 2003. It maps
``ß`` to ``ss`` and ``ς`` to ``σ`` and drops joiners, so ``faß.de`` became ``fass.de``: a
different domain from the ``xn--fa-hia.de`` that browsers and mail servers reach. An email the
user approved for ``x@faß.de`` would have gone to someone else. Every connector that puts a
host on the network encodes it here, and every dialog shows it through `display_host`, so what
the user approves is what is used.

Labels that are plain ASCII (and not ``xn--``) pass through lower-cased when they hold only
letters, digits, ``-`` and ``_``, as browsers do: ``my_host.example`` stays reachable (IDNA 2008
itself forbids the underscore). Callers add their own stricter rules (mail forbids ``_``).
"""

from __future__ import annotations

import re
import unicodedata

import idna

__all__ = ["HostNameError", "ascii_host", "comparable_host", "display_host", "is_international"]

MAX_HOST_CHARS = 253
# Scripts that may share one label (Unicode TR39 "highly restrictive"): Japanese, Chinese and
# Korean names mix Han with their own scripts and Latin. Any other mix is a look-alike risk.
_SCRIPT_SETS = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
_ASCII_LABEL = re.compile(r"[a-z0-9_-]{1,63}")
_SCRIPT_ALIASES = {
    "CJK": "HAN",
    "IDEOGRAPHIC": "HAN",
    "KATAKANA-HIRAGANA": "KATAKANA",
    "HALFWIDTH": "KATAKANA",
}


class HostNameError(ValueError):
    """The host name cannot be used: the message says why, in words for the user."""


def ascii_host(host: str) -> str:
    """The host in the form that goes on the network: lower-case ASCII, A-labels for
    international labels (``faß.de`` → ``xn--fa-hia.de``). A final dot is kept.
    Raises HostNameError for a name no server can have (bad joiners, empty labels, ...)."""
    try:
        mapped = idna.uts46_remap(host, std3_rules=False, transitional=False)
    except idna.IDNAError as exc:
        raise HostNameError(f"the name has a character not allowed in host names ({exc})") from exc
    labels = mapped.split(".")
    final_dot = len(labels) > 1 and labels[-1] == ""
    if final_dot:
        labels.pop()
    encoded = []
    for label in labels:
        if not label:
            raise HostNameError("the name has an empty part (two dots in a row)")
        if label.isascii() and not label.startswith("xn--"):
            if not _ASCII_LABEL.fullmatch(label):
                raise HostNameError(f"{label[:70]!a} is too long or has a character not allowed")
            encoded.append(label)
            continue
        try:
            encoded.append(idna.alabel(label).decode("ascii"))
        except (idna.IDNAError, UnicodeError) as exc:
            raise HostNameError(f"{label!a} is not a valid international name ({exc})") from exc
    result = ".".join(encoded) + ("." if final_dot else "")
    if len(result.rstrip(".")) > MAX_HOST_CHARS:
        raise HostNameError(f"the name is longer than {MAX_HOST_CHARS} characters")
    return result


def comparable_host(host: str) -> str:
    """The host as checks compare it: `ascii_host`, so ``FAß.de`` equals ``xn--fa-hia.de`` but
    not ``fass.de`` (case-folding alone would make ß "ss"). A name no server can have, or one
    with invisible characters (UTS #46 drops a zero-width space: ``exa\u200bmple.com`` would
    pass for ``example.com``), is compared by its NFKC case-folded text: it stays a name the
    user never typed."""
    folded = unicodedata.normalize("NFKC", host).casefold()
    if any(unicodedata.category(char) == "Cf" for char in host):
        return folded
    try:
        return ascii_host(host)
    except HostNameError:
        return folded


def is_international(host: str) -> bool:
    """True when the name has a non-ASCII character or an ``xn--`` label."""
    return not host.isascii() or any(label.lower().startswith("xn--") for label in host.split("."))


def display_host(host: str) -> str:
    """How to show the host to the user: the readable Unicode form of each international
    label whose letters are of one script (or a Japanese, Chinese or Korean mix), else the
    ASCII form that is used, so ``pаypal.com`` with a Cyrillic ``а`` shows as
    ``xn--pypal-4ve.com`` instead of passing for ``paypal.com``. Raises HostNameError like
    `ascii_host`."""
    shown = []
    for label in ascii_host(host).split("."):
        if label.startswith("xn--"):
            unicode_label = idna.ulabel(label)
            shown.append(unicode_label if _one_script(unicode_label) else label)
        else:
            shown.append(label)
    return ".".join(shown)


def _one_script(label: str) -> bool:
    """Whether the label's letters come from one script or an allowed CJK mix. The script is
    read from the Unicode character name (Python has no script property); digits, hyphens,
    combining marks and joiners belong to every script."""
    scripts = set()
    for char in label:
        if not unicodedata.category(char).startswith("L"):
            continue
        first = unicodedata.name(char, "UNKNOWN").split()[0]
        scripts.add(_SCRIPT_ALIASES.get(first, first))
    return len(scripts) <= 1 or any(scripts <= allowed for allowed in _SCRIPT_SETS)
