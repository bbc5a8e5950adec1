"""Amounts and dates as banks write them, read exactly (Decimal, never float).

A statement file is read with one convention for the whole file: whether a comma or a point
marks the decimals, and whether 03/04/2026 is the 3rd of April or the 4th of March. Both are
decided from every value in the column (``decimal_comma``, ``day_first``), because a single
value such as "1,234" or "03/04/2026" cannot say.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal, InvalidOperation

# Currency signs and codes found beside amounts.
SYMBOLS = {"€": "EUR", "£": "GBP", "$": "USD", "¥": "JPY", "₹": "INR", "CHF": "CHF", "Fr.": "CHF"}
_CODE = re.compile(r"\b([A-Z]{3})\b")
_KNOWN_CODES = frozenset(
    {"EUR", "GBP", "USD", "CHF", "JPY", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK",
     "HUF", "RON", "BGN", "INR", "CNY", "HKD", "SGD", "ZAR", "BRL", "MXN", "TRY", "ILS"}
)  # fmt: skip
_DECIMAL_COMMA = re.compile(r",\d{1,2}(?:\s*[-+])?$")
_DECIMAL_POINT = re.compile(r"\.\d{1,2}(?:\s*[-+])?$")
_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            "jan janv ene gen", "feb fév fev févr", "mar mär mrz", "apr avr abr", "may mai mei mag",
            "jun juin", "jul juil lug", "aug aoû aou ago", "sep sept set", "oct okt ott",
            "nov", "dec dez déc dic",
        ]
    )
    for m in names.split()
}  # fmt: skip


def currency_in(text: str) -> str | None:
    """The currency a cell or header names ("€", "EUR", "Betrag (GBP)"), or None."""
    for sign, code in SYMBOLS.items():
        if sign in text:
            return code
    for found in _CODE.findall(text.upper()):
        if found in _KNOWN_CODES:
            return found
    return None


def _core(text: str) -> str:
    """The digits, separators and sign of an amount cell, without currency or spaces."""
    cleaned = text.replace("\u00a0", " ").replace("\u2212", "-").strip()
    for sign in SYMBOLS:
        cleaned = cleaned.replace(sign, "")
    cleaned = re.sub(r"[A-Za-z]{3}\b", "", cleaned).strip()
    return re.sub(r"(?<=\d)[ '’](?=\d{3}\b)", "", cleaned).replace(" ", "")


def decimal_comma(cells: Iterable[str]) -> bool:
    """Whether this file writes 12,50 rather than 12.50 (the majority of cells that say)."""
    comma = point = 0
    for cell in cells:
        core = _core(cell)
        comma += bool(_DECIMAL_COMMA.search(core))
        point += bool(_DECIMAL_POINT.search(core))
    return comma > point


def parse_amount(text: str, comma: bool) -> Decimal | None:
    """A signed amount: "-1.234,56", "1,234.56", "(12.50)", "12.50-", "+ 3,00 €", "12.50 CR".
    None for an empty or unreadable cell."""
    raw = text.strip()
    if not raw:
        return None
    upper = raw.upper()
    negative = upper.endswith(("DR", "DB")) or (raw.startswith("(") and raw.endswith(")"))
    if upper.endswith(("CR", "DR", "DB")):
        raw = raw[:-2]
    core = _core(raw).strip("()")
    if core.endswith("-"):
        negative, core = True, core[:-1]
    elif core.endswith("+"):
        core = core[:-1]
    if core.startswith("-"):
        negative, core = True, core[1:]
    elif core.startswith("+"):
        core = core[1:]
    thousands, decimal = (".", ",") if comma else (",", ".")
    core = core.replace(thousands, "").replace(decimal, ".")
    if not re.fullmatch(r"\d+(?:\.\d+)?", core):
        return None
    try:
        value = Decimal(core)
    except InvalidOperation:
        return None
    return -value if negative else value


_NUMERIC_DATE = re.compile(r"(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})")
_WORD_DATE = re.compile(r"(\d{1,2})[ .-]*([A-Za-zéûä]{3,5})\.?[ .-]*(\d{2,4})")


def day_first(cells: Iterable[str]) -> bool:
    """For dates like 03/04/2026: True unless some value proves month-first (04/13/2026)."""
    for cell in cells:
        match = _NUMERIC_DATE.match(cell.strip())
        if match and len(match[1]) <= 2:
            first, second = int(match[1]), int(match[2])
            if first > 12:
                return True
            if second > 12:
                return False
    return True


def parse_date(text: str, first_is_day: bool = True) -> date | None:
    """A date in the common forms (2026-03-12, 12.03.2026, 12.03.26, 03/12/2026, 20260312,
    12 Mar 2026, also with a time after it), or None."""
    cell = text.strip()
    try:
        if re.fullmatch(r"(19|20)\d{6}", cell):  # 20261103, as Dutch banks write it
            return date(int(cell[:4]), int(cell[4:6]), int(cell[6:]))
        match = _NUMERIC_DATE.match(cell)
        if match:
            a, b, c = match.groups()
            if len(a) == 4:
                return date(int(a), int(b), int(c))
            year = int(c) + (2000 if len(c) == 2 else 0)
            day, month = (int(a), int(b)) if first_is_day else (int(b), int(a))
            return date(year, month, day)
        match = _WORD_DATE.match(cell)
        if match:
            named = _MONTHS.get(match[2].lower()[:4]) or _MONTHS.get(match[2].lower()[:3])
            if named:
                year = int(match[3]) + (2000 if len(match[3]) == 2 else 0)
                return date(year, named, int(match[1]))
    except ValueError:
        return None
    return None
