"""Transactions from the text of a PDF statement, where the text is a table.

A PDF has no columns, only lines of text: "03.11.2026 REWE Markt Berlin -23,45 1.976,55".
A line is a transaction when it starts with a date and ends with one or two amounts (the
transaction, then the running balance). An amount written without a sign takes its sign
from the balance: if the balance went down, money went out. Lines without a sign and
without a balance to compare are counted as money out only when the statement never
writes a sign at all, and the layout says so.
"""

from __future__ import annotations

import re
from decimal import Decimal

from connectors.statements.layout import LayoutError, Statement, Transaction
from connectors.statements.values import (
    currency_in,
    day_first,
    decimal_comma,
    month_first_currency,
    parse_amount,
    parse_date,
)

_AMOUNT = r"[-+−]?\(?[€£$]?\s?\d{1,3}(?:[.,'\u00a0 ]\d{3})*(?:[.,]\d{2})\)?(?:\s?(?:[-+]|CR|DR))?"
_LINE = re.compile(
    rf"^(?P<date>[^\W\d_]{{3,9}}\.?\s\d{{1,2}},?\s\d{{4}}|\S+(?:\s\w{{3,9}}\.?\s\d{{2,4}})?)"
    rf"\s+(?P<text>.+?)\s+"
    rf"(?P<amount>{_AMOUNT})(?:\s+(?P<balance>{_AMOUNT}))?\s*(?:[A-Z]{{3}})?$"
)
_SIGNED = re.compile(r"^[-+−(]|[-+]$|CR$|DR$")
_ACCOUNT = re.compile(
    r"(?i)\b(?:account|konto|iban|compte|rekening)\b[^\d]*([\dA-Z][\d A-Z-]{5,40})"
)


def read_pdf_text(text: str) -> Statement:
    """The transactions of a statement's text, or LayoutError when no line looks like one."""
    matches = [m for line in text.splitlines() if (m := _LINE.match(line.strip()))]
    matches = [m for m in matches if parse_date(m["date"]) is not None or "/" in m["date"]]
    if not matches:
        raise LayoutError("no line starts with a date and ends with an amount")
    comma = decimal_comma(m["amount"] for m in matches)
    currency = currency_in(text)
    first_is_day = day_first(
        (m["date"] for m in matches), month_first_usual=month_first_currency(currency)
    )
    signed = any(_SIGNED.search(m["amount"].strip()) for m in matches)
    found: list[Transaction] = []
    previous: Decimal | None = None
    for match in matches:
        day = parse_date(match["date"], first_is_day)
        amount = parse_amount(match["amount"], comma)
        if day is None or amount is None:
            continue
        balance = parse_amount(match["balance"], comma) if match["balance"] else None
        if not _SIGNED.search(match["amount"].strip()):
            if balance is not None and previous is not None:
                amount = amount if balance > previous else -amount
            elif not signed:
                amount = -amount
        previous = balance if balance is not None else previous
        found.append(Transaction(day, match["text"].strip(), amount, currency))
    if not found:
        raise LayoutError("no line starts with a date and ends with an amount")
    account = _ACCOUNT.search(text)
    how = "signed amounts" if signed else "amounts signed by the running balance"
    layout = f"PDF text, {how}, decimal {'comma' if comma else 'point'}"
    return Statement(tuple(found), layout, account[1].strip() if account else None)
