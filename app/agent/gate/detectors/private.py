"""Private data: the distinctive pieces of what the user's own stores said, and whether an
outgoing text carries one (in any spelling the normalisation pipeline folds)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator

from app.agent.gate.detectors.normalise import (
    fold,
    mask_dates,
    normalise_text,
    spelled_to_digits,
    views,
)

_DIGIT_GROUPS = re.compile(r"\d+(?:[^\w]{1,3}\d+)*", re.ASCII)
_SECRET_VALUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:password|passwd|passphrase|passcode|pwd|pin|code|secret|key|token|"
    r"login|username|user\s+name|account)\s*(?:is|was|:|=)?\s*[\"']?(\S{4,80})"
)
_TOKEN_WINDOW = 10  # longer tokens are kept as every 10-character slice (a part leaks too)
_MIN_TOKEN = 6
_MIN_KEYWORD_TOKEN = 4


def _windows(token: str) -> Iterator[str]:
    if len(token) <= _TOKEN_WINDOW:
        yield token
        return
    for start in range(len(token) - _TOKEN_WINDOW + 1):
        yield token[start : start + _TOKEN_WINDOW]


def private_tokens(text: str, limit: int = 50_000) -> set[str]:
    """The distinctive pieces of `text` (read from a private store), folded: digit groups
    joined across separators (6+ digits), words of 6+ characters that mix letters and digits,
    long words (12+), and whatever follows "password", "PIN", "code", "key"... (4+).
    Dates and times are not distinctive. Kept as 10-character slices when longer, so that a
    part of a long value still matches."""
    plain = mask_dates(normalise_text(text))
    found: set[str] = set()

    def add(token: str) -> None:
        for piece in _windows(token):
            if len(found) >= limit:
                return
            found.add(piece)

    for run in _DIGIT_GROUPS.finditer(plain):
        digits = re.sub(r"\D", "", run.group())
        if len(digits) >= _MIN_TOKEN and len(set(digits)) > 1:
            add(digits)
    for word in plain.split():
        folded = fold(word)
        has_digit = any(c.isdigit() for c in folded)
        has_alpha = any(c.isalpha() for c in folded)
        if len(folded) >= 12 or (len(folded) >= _MIN_TOKEN and has_digit and has_alpha):
            add(folded)
    for match in _SECRET_VALUE.finditer(plain):
        folded = fold(match.group(1))
        if len(folded) >= _MIN_KEYWORD_TOKEN:
            add(folded)
    return found


def shared_private_token(text: str, tokens: set[str]) -> str | None:
    """How `text` carries one of `tokens` ("", " (base64)", ...), or None. Every reading of
    the text (as typed, percent-, HTML-, base64-, hex- and ROT13-decoded) is folded the same
    way as the tokens, then each slice of a token's length is looked up: linear time."""
    if not tokens:
        return None
    lengths = sorted({len(t) for t in tokens})
    for how, view in views(text, short=True):
        folded = fold(view)
        for length in lengths:
            for start in range(len(folded) - length + 1):
                if folded[start : start + length] in tokens:
                    return how
    return None


# --------------------------------------------------------------------------------------------
# Digits of private data, kept across conversations (hashed) while a standing grant exists

_MARK_SHORTEST, _MARK_LONGEST = 4, 8
_PRIVATE_RUN = 6  # only runs of six or more digits are private numbers (not times, not years)
_YEAR = re.compile(r"(?:19|20)\d\d", re.ASCII)
_QUERY_RUN = re.compile(r"\d+(?:[^\w#]{1,3}\d+)*", re.ASCII)


def _mark(digits: str) -> str:
    return hashlib.sha256(b"hearth-private-digits:" + digits.encode("ascii")).hexdigest()[:20]


def private_digit_marks(text: str, limit: int = 20_000) -> set[str]:
    """Hashes of every 4- to 8-digit piece of each number of six or more digits in `text`
    (read from a private store). Kept beyond the conversation, so that a piece of an IBAN sent
    in one request and the next piece in another are both known as private."""
    plain = mask_dates(normalise_text(text))
    marks: set[str] = set()
    for run in _DIGIT_GROUPS.finditer(plain):
        digits = re.sub(r"\D", "", run.group())
        if len(digits) < _PRIVATE_RUN or len(set(digits)) == 1:
            continue
        for size in range(_MARK_SHORTEST, _MARK_LONGEST + 1):
            for start in range(len(digits) - size + 1):
                if len(marks) >= limit:
                    return marks
                marks.add(_mark(digits[start : start + size]))
    return marks


def _query_pieces(text: str) -> Iterator[str]:
    """The digit pieces of an outgoing text worth comparing: each group of four or more
    digits, and each run of groups joined by separators ("0130 00" -> "013000")."""
    for run in _QUERY_RUN.finditer(text):
        groups = re.findall(r"\d+", run.group())
        for candidate in {"".join(groups), *groups}:
            if len(candidate) < _MARK_SHORTEST or _YEAR.fullmatch(candidate):
                continue  # a year on its own ("trains 2026") is no piece of anything
            if len(candidate) <= _MARK_LONGEST:
                yield candidate
            else:
                for start in range(len(candidate) - _MARK_LONGEST + 1):
                    yield candidate[start : start + _MARK_LONGEST]


def shared_private_digits(text: str, marks: set[str] | frozenset[str]) -> bool:
    """True when `text` (any reading: as typed, decoded, number words as digits) carries four
    or more digits in a row from a private number whose marks are given."""
    if not marks:
        return False
    for _how, view in views(text, short=True):
        readings = [mask_dates(view)]
        spelled = spelled_to_digits(readings[0], least=1)
        if spelled is not None:
            readings.append(spelled)
        for reading in readings:
            if any(_mark(piece) in marks for piece in _query_pieces(reading)):
                return True
    return False
