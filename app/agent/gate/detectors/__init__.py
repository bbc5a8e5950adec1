"""Content detectors over tool-call arguments: money, health, government ids and secrets.

The policy gate uses these only to *raise* a decision (allow -> confirm), never to lower one:
a detector can always be fooled (base64 of base64, a number read out in Finnish), so the
static tool labels stay the real boundary. What the detectors add is that an ordinary
write (a calendar note, a memory, a file) carrying a card number, an IBAN, a diagnosis or
a one-time code stops for the user, and that an "always allow" never covers such a call.

Everything here is deterministic and offline: the standard library, plus python-stdnum's
check-digit validators for national identity numbers. One module per kind (`cards`, `iban`,
`money`, `health`, `ids`, `passwords`), all over ONE normalisation pipeline (`normalise`):
every string, number and dict key in the arguments, nested values included, is read as
typed and as decoded (percent, HTML, base64, base32, hex, ROT13), each reading normalised
(NFKC, invisible characters dropped, look-alike digits and letters of other scripts folded),
and read again with number words in seven languages as digits and with the words between
digit groups left out. All values are also joined, in both orders and pairwise (a card number
split across a title and its notes is still one number). `private` finds what a private
store said when it is about to leave.

An excerpt never repeats a full number or secret: cards and accounts keep their last four
characters, ids their last two or three, passwords and codes none at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from app.agent.gate.detectors.base import (
    GOVERNMENT_ID,
    HEALTH,
    IBAN,
    KINDS,
    MONEY,
    PAYMENT_CARD,
    PRIVATE_DATA,
    SECRET,
    Finding,
    Hit,
)
from app.agent.gate.detectors.cards import CARD_RUN_SPELLED, card_hits, luhn_valid
from app.agent.gate.detectors.health import health_hits
from app.agent.gate.detectors.iban import IBAN_LENGTHS, iban_hits, iban_valid
from app.agent.gate.detectors.ids import NATIONAL_ID_LABELS, government_hits, ssn_valid
from app.agent.gate.detectors.money import money_hits
from app.agent.gate.detectors.normalise import (
    GAPPED_HOW,
    ROT13_HOW,
    SPELLED_HOW,
    decoded_views,
    fold,
    gapped_account,
    gapped_numbers,
    mask_dates,
    normalise_text,
    spelled_to_digits,
    views,
)
from app.agent.gate.detectors.passwords import secret_hits
from app.agent.gate.detectors.private import (
    private_digit_marks,
    private_tokens,
    shared_private_digits,
    shared_private_token,
)

__all__ = [
    "GOVERNMENT_ID",
    "HEALTH",
    "IBAN",
    "IBAN_LENGTHS",
    "JOINED_PATH",
    "KINDS",
    "MONEY",
    "NATIONAL_ID_LABELS",
    "PAYMENT_CARD",
    "PRIVATE_DATA",
    "SECRET",
    "Finding",
    "decoded_views",
    "fold",
    "iban_valid",
    "luhn_valid",
    "normalise_text",
    "private_digit_marks",
    "private_tokens",
    "scan",
    "shared_private_digits",
    "shared_private_token",
    "ssn_valid",
]

JOINED_PATH = "<joined>"
"""The path reported for a finding that only exists once all values are put together."""
_MAX_PAIRED_VALUES = 16
# What is not part of a written number: letters, currency signs and other symbols.
_NOT_NUMBER = re.compile(r"[^\d\s().,+/-]+")
_MAX_DEPTH = 64  # the gate refuses deeper arguments anyway; this only bounds recursion here


def _detect_view(how: str, text: str) -> list[Hit]:
    """The detectors for one reading of a value. A ROT13 reading only looks for what has
    letters and a checksum or a fixed shape (IBANs, keys, passwords): health and money words
    turn up by chance in ROT13 of ordinary text ("RPT" reads "ECG")."""
    if how == ROT13_HOW:
        return iban_hits(text) + secret_hits(text, mask_dates(text), keys_only=True)
    return _detect(text)


def _detect(text: str) -> list[Hit]:
    """All detectors over one piece of already-normalised text, then over its readings with
    number words as digits and with the words between digit groups left out."""
    masked = mask_dates(text)
    hits = card_hits(masked)
    hits += iban_hits(text)
    hits += money_hits(masked)
    hits += health_hits(text)
    hits += government_hits(text)
    hits += secret_hits(text, masked)
    spelled = spelled_to_digits(masked, least=1)
    if spelled is not None:
        hits += card_hits(spelled, CARD_RUN_SPELLED, SPELLED_HOW)
        hits += iban_hits(spelled)
        if not any(hit.kind == MONEY for hit in hits):
            hits += money_hits(spelled)  # "zwanzig Euro"; "fifteen grand" is found as typed
        hits += government_hits(spelled)
        hits += secret_hits(spelled, spelled)
    for reading in (masked, spelled):
        if reading is None:
            continue
        gapped = gapped_numbers(reading)
        if gapped is not None:
            hits += card_hits(gapped, how=GAPPED_HOW)
        account = gapped_account(reading)
        if account is not None:
            hits += iban_hits(account)
    return hits


def _leaf_text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        # Past 40 digits nothing here fits in one number, and Python refuses str() of huge ints.
        return str(value) if -(10**40) < value < 10**40 else None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    return None


_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]{0,39}")


def _path_name(key: str, index: int) -> str:
    """Argument names come from the model: only plain short names appear in a path as is,
    so a card number used *as a name* never reaches a dialog or log through the path."""
    return key if _PLAIN_NAME.fullmatch(key) else f"<name {index}>"


def _leaves(value: Any, path: str, depth: int = 0) -> Iterator[tuple[str, str, bool]]:
    """(path, text, is_value) for every scalar and every dict key, depth-first in order."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, dict):
        for index, (key, item) in enumerate(value.items()):
            key_text = str(key)
            name = _path_name(key_text, index)
            child = f"{path}.{name}" if path else name
            yield f"{child} (name)", key_text, False
            yield from _leaves(item, child, depth + 1)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]", depth + 1)
    else:
        text = _leaf_text(value)
        if text is not None:
            yield path or "<value>", text, True


def scan(arguments: dict[str, Any]) -> list[Finding]:
    """Run every detector over every value (and key) in `arguments`, and over all values
    joined together. Returns findings in argument order; each distinct value once per path.
    """
    findings: list[Finding] = []
    seen_keys: set[str] = set()
    values: list[str] = []
    for path, text, is_value in _leaves(arguments, ""):
        if is_value:
            values.append(text)
        reported_here: set[str] = set()
        for how, view in views(text):
            for hit in _detect_view(how, view):
                if hit.key in reported_here:
                    continue
                reported_here.add(hit.key)
                findings.append(Finding(hit.kind, path + how, hit.excerpt))
        seen_keys |= reported_here
    if len(values) > 1:
        joined_seen: set[str] = set()
        # Whole sequence both ways, and every ordered pair of values holding digits: a number
        # split over two fields is found whatever stands between them (capped: cheap).
        few = [v for v in values if sum(c.isdigit() for c in v) >= 2][:_MAX_PAIRED_VALUES]
        pairs = [f"{a} {b}" for i, a in enumerate(few) for j, b in enumerate(few) if i != j]
        # ... and their numbers alone: words added to a field beside its number must not
        # part it from the other field's (what is found only grows as text is added)
        bare = [_NOT_NUMBER.sub(" ", v).strip() for v in few]
        pairs += [f"{a} {b}" for i, a in enumerate(bare) for j, b in enumerate(bare) if i != j]
        for joined in (" ".join(values), " ".join(reversed(values)), *pairs):
            for how, view in views(joined):
                for hit in _detect_view(how, view):
                    if hit.key in seen_keys or hit.key in joined_seen:
                        continue
                    joined_seen.add(hit.key)
                    findings.append(Finding(hit.kind, JOINED_PATH, hit.excerpt))
    return findings
