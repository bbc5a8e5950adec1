"""Which column is which in a bank's CSV export, and the transactions it holds.

Banks differ in everything: the separator (``,`` ``;`` tab), lines of account details above
the header, one signed amount column or separate debit and credit (money out / money in)
columns, a direction column ("Af"/"Bij", "D"/"C"), decimal commas, and headers in the
bank's language. The header row is found by its names (a fixed vocabulary per role, below);
nothing is guessed from position, so a file whose columns cannot be named is refused with
the names Hearth looked for rather than summed wrongly.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from connectors.statements.values import (
    currency_in,
    day_first,
    decimal_comma,
    month_first_currency,
    parse_amount,
    parse_date,
)

# Header names per role, in order of preference (lower case, accents as written).
ROLES: dict[str, tuple[str, ...]] = {
    "date": (
        "date", "booking date", "transaction date", "posting date", "posted date",
        "completed date", "started date", "buchungstag", "buchungsdatum", "datum",
        "date opération", "date operation", "date de l'opération", "fecha", "fecha operación",
        "data", "data operazione", "transactiedatum", "value date", "wertstellung",
    ),
    "description": (
        "merchant", "payee", "counterparty", "name", "beguenstigter/zahlungspflichtiger",
        "begünstigter/zahlungspflichtiger", "empfänger", "auftraggeber/empfänger",
        "naam / omschrijving", "naam/omschrijving", "description", "details",
        "transaction description", "narrative", "memo", "verwendungszweck", "buchungstext",
        "libellé", "libelle", "concepto", "descrizione", "omschrijving", "reference",
    ),
    "amount": (
        "amount", "betrag", "montant", "importe", "importo", "bedrag", "transaction amount",
        "value", "umsatz", "amount (eur)", "betrag (eur)", "bedrag (eur)",
    ),
    "debit": (
        "debit", "debit amount", "paid out", "money out", "withdrawals", "withdrawal", "soll",
        "lastschrift", "ausgang", "débit", "debit (eur)", "cargo", "uscite",
    ),
    "credit": (
        "credit", "credit amount", "paid in", "money in", "deposits", "deposit", "haben",
        "gutschrift", "eingang", "crédit", "credit (eur)", "abono", "entrate",
    ),
    # Not "valuta": Dutch for currency, but the value date in German exports.
    "currency": ("currency", "währung", "waehrung", "devise", "moneda", "divisa"),
    "direction": ("af bij", "af/bij", "debit/credit", "dr/cr", "cr/dr", "soll/haben", "type"),
}  # fmt: skip
_OUT_WORDS = frozenset({"af", "d", "dr", "debit", "s", "soll", "out", "debit card", "dbit"})
_IN_WORDS = frozenset({"bij", "c", "cr", "credit", "h", "haben", "in"})
_ACCOUNT_LABEL = re.compile(r"(?i)\b(account|konto|iban|compte|rekening|cuenta|conto)")
HEADER_SEARCH_LINES = 40


class LayoutError(ValueError):
    """The file is not a statement Hearth can read; the message says why."""


@dataclass(frozen=True, slots=True)
class Transaction:
    """One booked line: negative amounts are money out."""

    day: date
    description: str
    amount: Decimal
    currency: str | None


@dataclass(frozen=True, slots=True)
class Statement:
    """What a file held, and how it was read (for the user to check)."""

    transactions: tuple[Transaction, ...]
    layout: str
    account: str | None  # as written in the file: mask before showing


def _name(cell: str) -> str:
    return " ".join(cell.strip().strip('"').lower().split())


def _roles(header: list[str]) -> dict[str, int]:
    """Column index per role, each column used once, the preferred name winning."""
    names = [_name(cell) for cell in header]
    found: dict[str, int] = {}
    for role, wanted in ROLES.items():
        for word in wanted:
            if word in names and names.index(word) not in found.values():
                found[role] = names.index(word)
                break
    return found


def _usable(roles: dict[str, int]) -> bool:
    money = "amount" in roles or ("debit" in roles and "credit" in roles)
    return "date" in roles and "description" in roles and money


def _dialect(text: str) -> str:
    sample = "\n".join(text.splitlines()[:HEADER_SEARCH_LINES])
    try:
        return csv.Sniffer().sniff(sample, delimiters=";,\t|").delimiter
    except csv.Error:
        counts = {sep: sample.count(sep) for sep in ";,\t|"}
        return max(counts, key=lambda sep: counts[sep])


def _account(rows: list[list[str]]) -> str | None:
    """An account number from the lines above the header ("Konto;DE89 3704 ...")."""
    for row in rows:
        for index, cell in enumerate(row):
            if _ACCOUNT_LABEL.search(cell):
                rest = [c for c in row[index:] if re.search(r"\d{4}", c)]
                if rest:
                    return rest[0].strip()
    return None


def read_csv(text: str) -> Statement:
    """The transactions of a CSV statement, or LayoutError saying what was missing."""
    separator = _dialect(text)
    rows = [row for row in csv.reader(text.splitlines(), delimiter=separator) if any(row)]
    for position, row in enumerate(rows[:HEADER_SEARCH_LINES]):
        roles = _roles(row)
        if _usable(roles):
            return _transactions(rows[position + 1 :], roles, row, separator, rows[:position])
    raise LayoutError(
        "no header row with a date, a description and an amount (or debit and credit) "
        "column was found"
    )


def _cell(row: list[str], roles: dict[str, int], role: str) -> str:
    index = roles.get(role)
    return row[index].strip() if index is not None and index < len(row) else ""


def _transactions(
    body: list[list[str]],
    roles: dict[str, int],
    header: list[str],
    separator: str,
    preamble: list[list[str]],
) -> Statement:
    money = [r for r in ("amount", "debit", "credit") if r in roles]
    comma = decimal_comma(_cell(row, roles, r) for row in body for r in money)
    header_currency = next(
        (c for r in money if (c := currency_in(header[roles[r]]))), None
    ) or currency_in(" ".join(" ".join(row) for row in preamble))
    file_currency = header_currency or next(
        (
            c
            for row in body
            for r in ("currency", *money)
            if (c := currency_in(_cell(row, roles, r)))
        ),
        None,
    )
    first_is_day = day_first(
        (_cell(row, roles, "date") for row in body),
        month_first_usual=month_first_currency(file_currency),
    )
    found: list[Transaction] = []
    for row in body:
        day = parse_date(_cell(row, roles, "date"), first_is_day)
        if day is None:
            continue  # a totals line, a page footer, an empty line
        amount = _amount(row, roles, comma)
        if amount is None:
            continue
        currency = currency_in(_cell(row, roles, "currency")) or header_currency
        if currency is None:
            currency = next((c for r in money if (c := currency_in(_cell(row, roles, r)))), None)
        found.append(Transaction(day, _cell(row, roles, "description"), amount, currency))
    if not found:
        raise LayoutError("the header was found, but no line under it has a date and an amount")
    columns = "amount" if "amount" in roles else "debit and credit"
    shown_separator = {"\t": "tab"}.get(separator, separator)
    layout = (
        f"CSV, '{shown_separator}' separated, {columns} columns, decimal "
        f"{'comma' if comma else 'point'}, dates {'day' if first_is_day else 'month'} first"
    )
    return Statement(tuple(found), layout, _account(preamble))


def _amount(row: list[str], roles: dict[str, int], comma: bool) -> Decimal | None:
    if "amount" in roles:
        value = parse_amount(_cell(row, roles, "amount"), comma)
        direction = _name(_cell(row, roles, "direction"))
        if value is not None and direction in _OUT_WORDS:
            return -abs(value)
        if value is not None and direction in _IN_WORDS:
            return abs(value)
        return value
    out = parse_amount(_cell(row, roles, "debit"), comma)
    into = parse_amount(_cell(row, roles, "credit"), comma)
    if out is None and into is None:
        return None
    return (into or Decimal(0)) - abs(out or Decimal(0))
