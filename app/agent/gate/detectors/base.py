"""What every detector shares: the kinds, a finding, a hit (hashed, never the raw value), and
the bounded helpers that keep each detector linear in the length of its text."""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

PAYMENT_CARD = "payment_card"
IBAN = "iban"
MONEY = "money"
HEALTH = "health"
GOVERNMENT_ID = "government_id"
SECRET = "secret"
KINDS: tuple[str, ...] = (PAYMENT_CARD, IBAN, MONEY, HEALTH, GOVERNMENT_ID, SECRET)
# Not found by `scan`: the gate reports it when an outbound argument carries a distinctive
# token of what a private store said in the conversation (`shared_private_token`).
PRIVATE_DATA = "private_data"

MAX_HITS = 64  # per detector and text: enough to report, and a bound on the work

# A number not glued to other digits ("1234" but not the "34" of "12:34" or "1.234").
NUMBER_BEFORE = r"(?<!\d)(?<!\d[.,:/\-])"
NUMBER_AFTER = r"(?!\d|[.,:/\-]\d)"


@dataclass(frozen=True)
class Finding:
    """One detector hit: what kind, in which argument (e.g. `attendees[0].email`), and a
    redacted excerpt that is safe to show in a dialog or write to the audit log."""

    kind: str
    path: str
    excerpt: str


@dataclass(frozen=True)
class Hit:
    kind: str
    key: str  # a hash of the normalised value, only used to drop duplicates
    excerpt: str


def key(kind: str, value: str) -> str:
    """Hash the matched value so that even internal bookkeeping never holds the raw secret."""
    return kind + ":" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:24]


class Spans:
    """Non-overlapping spans, kept sorted: an overlap test in log time, not a scan of all."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        index = bisect_right(self.starts, start)
        if index and self.ends[index - 1] > start:
            return True
        return index < len(self.starts) and self.starts[index] < end

    def add(self, start: int, end: int) -> None:
        index = bisect_right(self.starts, start)
        self.starts.insert(index, start)
        self.ends.insert(index, end)


_LONGEST_NUMBER = 64


def near(
    numbers: list[re.Match[str]], starts: list[int], start: int, end: int, gap: int
) -> Iterator[re.Match[str]]:
    """The numbers within `gap` characters of the span start..end (in order), found by
    bisection: numbers are short, so only those starting near the span can be near it."""
    index = bisect_left(starts, start - gap - _LONGEST_NUMBER)
    while index < len(numbers) and starts[index] <= end + gap:
        number = numbers[index]
        if max(number.start() - end, start - number.end()) <= gap:
            yield number
        index += 1
