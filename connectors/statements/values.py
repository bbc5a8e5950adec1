"""Amounts and dates as banks write them, read exactly (Decimal, never float).

A statement file is read with one convention for the whole file: whether a comma or a point
marks the decimals, and whether 03/04/2026 is the 3rd of April or the 4th of March. Both are
decided from every value in the column (``decimal_comma``, ``day_first``), because a single
value such as "1,234" or "03/04/2026" cannot say. A statement is sorted by date and covers
weeks: of the two readings of a date column, the one that is sorted and short is the one the
bank wrote; only a column that reads the same both ways falls back on the currency's custom.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal, InvalidOperation
from itertools import pairwise

# Currency signs and codes found beside amounts.
SYMBOLS = {"€": "EUR", "£": "GBP", "$": "USD", "¥": "JPY", "₹": "INR", "CHF": "CHF", "Fr.": "CHF"}
_CODE = re.compile(r"\b([A-Z]{3})\b")
_KNOWN_CODES = frozenset(
    {"EUR", "GBP", "USD", "CHF", "JPY", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK",
     "HUF", "RON", "BGN", "INR", "CNY", "HKD", "SGD", "ZAR", "BRL", "MXN", "TRY", "ILS"}
)  # fmt: skip
_DECIMAL_COMMA = re.compile(r",\d{1,2}(?:\s*[-+])?$")
_DECIMAL_POINT = re.compile(r"\.\d{1,2}(?:\s*[-+])?$")
# Month names and abbreviations, English, German, French, Spanish, Italian, Dutch (lower case).
_MONTH_NAMES = (
    "jan january januar janv janvier ene enero gen gennaio januari jänner jän",
    "feb february februar fév fev févr fevr février fevrier febrero febbraio februari",
    "mar march mär mrz märz maerz mars marzo maart",
    "apr april avr avril abr abril aprile",
    "may mai mei mag mayo maggio",
    "jun june juni juin junio giu giugno",
    "jul july juli juil juillet julio lug luglio",
    "aug august aoû aou août aout ago agosto augustus",
    "sep sept september septembre septiembre set settembre",
    "oct october okt oktober octobre octubre ott ottobre",
    "nov november novembre noviembre",
    "dec december dez dezember déc dec décembre decembre dic diciembre dicembre",
)
_MONTHS = {name: i + 1 for i, names in enumerate(_MONTH_NAMES) for name in names.split()}
# Currencies of the countries that write the month first (03/12/2026 is 12 March there).
_MONTH_FIRST_CURRENCIES = frozenset({"USD", "PHP"})


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
_LETTERS = r"[^\W\d_]{3,9}"
_DAY_MONTH = re.compile(rf"(\d{{1,2}})\.?[ .-]*({_LETTERS})\.?[ .-]*(\d{{2,4}})\b")
_MONTH_DAY = re.compile(rf"({_LETTERS})\.?[ .-]*(\d{{1,2}})(?:st|nd|rd|th)?,?[ .-]*(\d{{4}})\b")


def month_first_currency(currency: str | None) -> bool:
    """Whether a statement in this currency most likely writes the month first."""
    return currency in _MONTH_FIRST_CURRENCIES


def _both_readings(cells: Iterable[str]) -> tuple[list[date | None], list[date | None]]:
    """The ambiguous numeric dates of a column (not ISO, not with a month name), read day
    first and month first; None where a reading is not a date."""
    by_day: list[date | None] = []
    by_month: list[date | None] = []
    for cell in cells:
        match = _NUMERIC_DATE.match(cell.strip())
        if not match or len(match[1]) > 2:
            continue
        by_day.append(parse_date(cell, True))
        by_month.append(parse_date(cell, False))
    return by_day, by_month


def _disorder(dates: list[date | None]) -> tuple[int, bool, int]:
    """How unlike a statement's date column a reading is: impossible dates first, then
    whether it goes back and forth (a statement is sorted, either way), then how far it
    wanders (the sum of the steps: a statement covers weeks, not one day in each month)."""
    known = [d for d in dates if d is not None]
    steps = [(b - a).days for a, b in pairwise(known)]
    sorted_either_way = all(s >= 0 for s in steps) or all(s <= 0 for s in steps)
    return len(dates) - len(known), not sorted_either_way, sum(abs(s) for s in steps)


def day_first(cells: Iterable[str], *, month_first_usual: bool = False) -> bool:
    """Whether the column's dates like 03/04/2026 put the day first, decided from every value:
    the reading with no impossible dates, under which the column is sorted and spans the
    shortest time wins; a column that reads the same both ways (one date, or 03/03/2026)
    follows the convention of the statement's currency (``month_first_usual``)."""
    by_day, by_month = _both_readings(cells)
    day_cost, month_cost = _disorder(by_day), _disorder(by_month)
    if day_cost != month_cost:
        return day_cost < month_cost
    return not month_first_usual


def _month(word: str) -> int | None:
    return _MONTHS.get(word.lower().rstrip("."))


def parse_date(text: str, first_is_day: bool = True) -> date | None:
    """A date in the common forms (2026-03-12, 12.03.2026, 12.03.26, 03/12/2026, 20260312,
    12 Mar 2026, 12. März 2026, Mar 12, 2026, March 12th 2026, also with a time after it),
    or None."""
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
        match = _DAY_MONTH.match(cell)
        if match and (named := _month(match[2])):
            year = int(match[3]) + (2000 if len(match[3]) == 2 else 0)
            return date(year, named, int(match[1]))
        match = _MONTH_DAY.match(cell)
        if match and (named := _month(match[1])):
            return date(int(match[3]), named, int(match[2]))
    except ValueError:
        return None
    return None
