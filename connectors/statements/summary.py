"""Where the money went: bank statements in the user's folders, summed by month and merchant.

Read-only by construction: this reads files through the files connector (the same
confinement) and returns figures; there is no bank connection and nothing that pays. The
result is what a person would tot up by hand: money out and money in per currency (never
added across currencies), per month, and the merchants where most went. Account numbers
and other long numbers in what is returned are masked to their last four digits.

Overlapping exports (a CSV and the PDF of the same month, or two downloads that share a
week) would count a purchase twice; a line found in several files counts as often as the
file with the most copies of it has it, which keeps two real coffees on one day.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal

from connectors.files import FileAccessError, Folders, list_folder, read_file
from connectors.statements.layout import LayoutError, Statement, Transaction, read_csv
from connectors.statements.pdf_lines import read_pdf_text

STATEMENT_SUFFIXES = (".csv", ".pdf")
MAX_STATEMENT_CHARS = 5_000_000
MAX_FILES = 60
TOP_MERCHANTS = 15
CENT = Decimal("0.01")

# Words banks put before the merchant's name, and reference noise after it.
_PREFIXES = re.compile(
    r"(?i)^(?:(?:card|debit card|pos|contactless|visa|mastercard|maestro|ec|girocard)"
    r"(?: payment| purchase| transaction)?|kartenzahlung|lastschrift|sepa[- ]lastschrift|"
    r"paiement par carte|paiement cb|cb|compra|betaalautomaat|bea|pin|apple pay|google pay)"
    r"[\s:*/,-]+"
)
_NOISE = re.compile(r"(?i)\b(?:\d[\d./:-]*|[a-z]*\d[a-z\d]*|x{2,}\d*|\*+\w*)\b|[*#/]")
_LONG_NUMBER = re.compile(r"\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{2,4}){3,8}\b|\d(?:[ -]?\d){5,}")


def mask_numbers(text: str) -> str:
    """Account numbers, IBANs, card numbers (six digits or more) as •••• and the last four."""

    def masked(match: re.Match[str]) -> str:
        digits = re.sub(r"[^0-9A-Za-z]", "", match[0])
        return "••••" + digits[-4:]

    return _LONG_NUMBER.sub(masked, text)


def merchant_of(description: str) -> str:
    """A merchant name to group by: "CARD PAYMENT REWE Markt 0423 Berlin 12.03" and
    "REWE MARKT 0977 BERLIN" are both "Rewe Markt Berlin"."""
    text = _PREFIXES.sub("", mask_numbers(description).strip())
    text = _NOISE.sub(" ", text.replace("••••", " "))
    words = [w for w in text.split() if len(w) > 1 or w.isalpha()][:4]
    # SHOUTED words read as names ("REWE" → "Rewe"); short ones stay ("DE", "H&M").
    shown = [w.capitalize() if (w.isupper() and len(w) > 3) or w.islower() else w for w in words]
    return " ".join(shown) or "(no description)"


@dataclass(frozen=True, slots=True)
class FileRead:
    path: str
    layout: str
    account: str | None  # masked
    transactions: int
    first_day: str
    last_day: str


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    why: str


@dataclass(frozen=True, slots=True)
class Total:
    currency: str
    spent: str  # money out, as a positive amount
    received: str
    transactions: int


@dataclass(frozen=True, slots=True)
class MonthTotal:
    month: str  # YYYY-MM
    currency: str
    spent: str
    received: str


@dataclass(frozen=True, slots=True)
class MerchantTotal:
    merchant: str
    currency: str
    spent: str
    payments: int


@dataclass(frozen=True, slots=True)
class Spending:
    files: tuple[FileRead, ...]
    skipped: tuple[Skipped, ...]
    totals: tuple[Total, ...]
    months: tuple[MonthTotal, ...]
    merchants: tuple[MerchantTotal, ...]
    counted_once: int  # lines found in more than one file


def _money(value: Decimal) -> str:
    return str(value.quantize(CENT))


def _candidates(folders: Folders, path: str) -> list[str]:
    """The statement files ``path`` names: itself, or the .csv and .pdf files in it."""
    if path.lower().endswith(STATEMENT_SUFFIXES):
        return [path]
    entries = list_folder(folders, path)
    prefix = path.strip().rstrip("/")
    return [
        f"{prefix}/{e.name}" if prefix and prefix != "." else e.name
        for e in entries
        if e.kind == "file" and e.name.lower().endswith(STATEMENT_SUFFIXES)
    ][:MAX_FILES]


def _read(folders: Folders, path: str) -> Statement:
    text = read_file(folders, path, max_chars=MAX_STATEMENT_CHARS)
    if text.truncated:
        raise LayoutError("it is too long to sum in one go; split it by year")
    if path.lower().endswith(".pdf"):
        return read_pdf_text(text.text)
    return read_csv(text.text)


def summarise_spending(folders: Folders, path: str = "", month: str | None = None) -> Spending:
    """Money out and in per currency, per month and per merchant, over the statements that
    ``path`` names (a file, or a folder's .csv and .pdf files; empty: the first folder).
    ``month`` ("2026-11") keeps only that month. A file that is not a statement Hearth can
    read is listed under ``skipped`` with the reason; FileAccessError if ``path`` itself is
    not allowed or not there."""
    if month is not None and not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", month):
        raise LayoutError(f"{month[:20]!r} is not a month; write it as 2026-11.")
    files: list[FileRead] = []
    skipped: list[Skipped] = []
    counted: Counter[Transaction] = Counter()
    lines = 0
    candidates = _candidates(folders, path)
    # One named file that cannot be read is an error; in a folder, it is one skipped file.
    quiet = (LayoutError,) if candidates == [path] else (LayoutError, FileAccessError)
    for candidate in candidates:
        try:
            statement = _read(folders, candidate)
        except quiet as exc:
            why = exc.message if isinstance(exc, FileAccessError) else str(exc)
            skipped.append(Skipped(candidate, why))
            continue
        kept = [t for t in statement.transactions if not month or t.day.isoformat()[:7] == month]
        days = sorted(t.day for t in statement.transactions)
        account = mask_numbers(statement.account) if statement.account else None
        files.append(
            FileRead(
                candidate, statement.layout, account, len(kept), days[0].isoformat(),
                days[-1].isoformat(),
            )
        )  # fmt: skip
        lines += len(kept)
        counted |= Counter(kept)
    return _summed(files, skipped, counted, lines - sum(counted.values()))


def _summed(
    files: list[FileRead], skipped: list[Skipped], counted: Counter[Transaction], once: int
) -> Spending:
    spent: dict[str, Decimal] = defaultdict(Decimal)
    received: dict[str, Decimal] = defaultdict(Decimal)
    count: Counter[str] = Counter()
    by_month: dict[tuple[str, str], list[Decimal]] = defaultdict(lambda: [Decimal(0), Decimal(0)])
    by_merchant: dict[tuple[str, str], list[Decimal]] = defaultdict(
        lambda: [Decimal(0), Decimal(0)]
    )
    for transaction, times in counted.items():
        currency = transaction.currency or "unknown currency"
        amount = transaction.amount * times
        count[currency] += times
        month = by_month[(transaction.day.isoformat()[:7], currency)]
        if amount < 0:
            spent[currency] -= amount
            month[0] -= amount
            merchant = by_merchant[(merchant_of(transaction.description), currency)]
            merchant[0] -= amount
            merchant[1] += times
        else:
            received[currency] += amount
            month[1] += amount
    totals = tuple(Total(c, _money(spent[c]), _money(received[c]), count[c]) for c in sorted(count))
    months = tuple(
        MonthTotal(m, c, _money(v[0]), _money(v[1])) for (m, c), v in sorted(by_month.items())
    )
    ranked = sorted(by_merchant.items(), key=lambda item: (-item[1][0], item[0]))
    merchants = tuple(
        MerchantTotal(name, c, _money(v[0]), int(v[1])) for (name, c), v in ranked[:TOP_MERCHANTS]
    )
    return Spending(tuple(files), tuple(skipped), totals, months, merchants, once)
