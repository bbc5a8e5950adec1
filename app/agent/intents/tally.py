"""Counts and sums over a file the user asked about, done by code: a small model reading a
table adds up the first line it sees ("I spent 54.20 on groceries") and counts a list's
heading as an item.

A sum is the amount column of the table's rows that hold the question's telling words
("groceries"), in the month the question names if the rows are dated; a count is the list's
items (its bulleted or numbered lines). Neither when the question is not "how much"/"how
many", or when no row holds its words: the model answers from the text then.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from pathlib import PurePosixPath

from app.agent.intents.file_steps import telling_words
from app.agent.intents.recognise import any_word_of
from app.agent.intents.when import MONTH_NAMES, month_number, read_month
from app.store.documents import content_words
from connectors.folding import fold
from connectors.statements.values import decimal_comma, parse_amount

# "How many … ?" and "how much … ?" in the four languages (accents folded: "cuántos").
# ("Um wie viel Uhr …?" asks the time, "combien de temps …?" how long.)
HOW_MANY = re.compile(r"\b(?:how many|wie ?viele?(?! uhr)|combien|cu[aá]nt[oa]s)\b", re.I)
_HOW_MUCH = re.compile(
    r"\b(?:how much(?! time)|in total|wie ?viel(?! uhr| zeit)|insgesamt|combien(?! de temps)|"
    r"au total|cu[aá]nto(?! tiempo)|en total)\b"
    r"|\bwhat (?:did|does|do) [^?]{0,60}\bcost\b|\b(?:gekostet|kostete|coute|coutait|costo)\b",
    re.I,
)
# Words for spending, paying, costs and money in the four languages (accents folded, stems):
# a question without any is not about money.
MONEY = re.compile(
    r"[€$£]|\b(?:spen[dt]|pa(?:y|id)|cost|money|bought|buy|purchas|price|expens|bills?\b|"
    r"charge|eur|euro|dollar|ausgeb|ausgegeb|ausgab|bezahl|gezahlt|zahl|kost|geld|gekauft|kauf|"
    r"rechnung|depens|achet|factur|prix|argent|gast|pag|dinero|compr|precio)"
)

# A header naming the column that holds the amounts (else the last column of numbers).
_AMOUNT_HEADER = re.compile(
    r"amount|betrag|montant|importe|sum|total|price|preis|prix|precio|cost|kosten|eur|usd|gbp"
)
_ISO_DAY = re.compile(r"\b(\d{4}-\d{2})-\d{2}\b")
# A list's item: a bulleted, ticked or numbered line.
ITEM = re.compile(r"^\s*(?:[-*•]|\[[ xX]\]|\d+[.)])\s+\S")
# Words of the question that say what is asked, not which rows: they select nothing.
ASKING = {
    "much", "many", "spend", "spent", "cost", "total", "viel", "viele", "insgesamt",
    "combien", "cuanto", "cuantos", "cuantas", "things", "items", "entries", "file", "list",
    "dinge", "sachen", "punkte", "eintrage", "datei", "liste", "choses", "elements",
    "fichier", "cosas", "elementos", "archivo", "lista",
    # how often is no thing paid for ("per month": "Monthly transit pass" is not the gym)
    "month", "monthly", "week", "weekly", "year", "yearly", "monat", "monatlich", "woche",
    "jahr", "mois", "mensuel", "semaine", "annee", "mensual", "semana", "ano",
}  # fmt: skip
# The account or statement itself ("von meinem Girokonto", "from my checking account"): a sum
# of the whole statement is asked, not a payee's.
ACCOUNT = {
    "account", "accounts", "checking", "current", "bank", "statement", "statements", "konto",
    "girokonto", "kontoauszug", "kontoauszuge", "bankkonto", "compte", "comptes", "releve",
    "releves", "bancaire", "cuenta", "cuentas", "corriente", "extracto", "extractos", "banco",
}  # fmt: skip
# Words asking for a list's items as such.
_ITEMS = {
    "things", "items", "entries", "lines", "dinge", "sachen", "punkte", "eintrage", "choses",
    "elements", "lignes", "cosas", "elementos", "entradas", "lineas",
}  # fmt: skip


@dataclass(frozen=True)
class Sum:
    total: Decimal
    parts: tuple[Decimal, ...]
    words: str  # the question's words the summed rows hold
    comma: bool  # the file writes 12,50

    def written(self, amount: Decimal) -> str:
        """`amount` as the file writes its amounts (12.50 or 12,50)."""
        return str(amount).replace(".", ",") if self.comma else str(amount)


# Asking by how much one amount passes, or falls short of, another (folded): "how much over
# budget", "by how much did we overspend", "um wie viel überzogen", "dépassé de combien", "de
# combien … en dessous", "cuánto nos hemos pasado", "la diferencia".
_BY_HOW_MUCH = re.compile(
    r"\b(?:over(?:spent|spend|run|shot)?|under(?:spent)?|exceed\w*|uberzog\w*|"
    r"uberschr\w*|druber|drunter|unterschied\w*|differen\w*|depass\w*|en dessous|"
    r"(?:uber|unter) (?:dem )?(?:plan|budget)|au-dessus|por (?:encima|debajo)|"
    r"(?:nos|me|te|se) (?:hemos |he |has |ha )?pas(?:ado|amos)|excedi\w*|sobrepas\w*)\b"
)


@dataclass(frozen=True)
class Difference:
    """Two amounts of one row ("travel": planned 6000, spent 7450) and how far apart."""

    row: str
    first: tuple[str, Decimal]  # its header and amount
    second: tuple[str, Decimal]
    comma: bool  # the file writes 12,50

    def written(self, amount: Decimal) -> str:
        return str(amount).replace(".", ",") if self.comma else str(amount)

    @property
    def apart(self) -> Decimal:
        return abs(self.second[1] - self.first[1])


def asks_a_difference(question: str) -> bool:
    """Whether `question` asks by how much one amount passes another (with how much)."""
    folded = fold(question)
    return bool(_BY_HOW_MUCH.search(folded)) and (asks_how_much(question) or "differen" in folded)


def row_difference(text: str, words: str) -> Difference | None:
    """The one row of the table whose first cell is one of `words`, when it holds exactly two
    amounts (a plan and what was spent); None otherwise. Code subtracts: a small model does
    not."""
    rows = _rows(text)
    if len(rows) < 2:
        return None
    header = [" ".join(h.replace("_", " ").split()) for h in rows[0]]
    body = [r for r in rows[1:] if _a_row_of(r, rows[0])]
    named = [r for r in body if r[0].strip() and any_word_of(r[0].strip(), words)]
    if len(named) != 1:
        return None
    comma = decimal_comma(cell for row in body for cell in row)
    amounts = [
        (header[j], amount)
        for j, cell in enumerate(named[0])
        if j > 0 and not _ISO_DAY.search(cell) and (amount := parse_amount(cell, comma)) is not None
    ]
    if len(amounts) != 2:
        return None
    return Difference(named[0][0].strip(), amounts[0], amounts[1], comma)


def asks_how_many(question: str) -> bool:
    return bool(HOW_MANY.search(fold(question)))


def asks_how_much(question: str) -> bool:
    return bool(_HOW_MUCH.search(fold(question)))


def asks_a_sum_of_money(question: str, now: datetime) -> bool:
    """Whether `question` asks how much money went somewhere in a month ("What did public
    transport cost me in April?"): the statements and expense tables answer it, all of them,
    not the one file its words happen to name."""
    return (
        asks_how_much(question)
        and bool(MONEY.search(fold(question)))
        and read_month(question, now) is not None
    )


def table_sum(text: str, question: str, month: str | None) -> Sum | None:
    """The amounts of the table's rows holding the most of `question`'s telling words (in
    `month`, "2029-04", when the rows are dated), summed; None if `text` is no table with
    amounts, or no row holds any of the words."""
    rows = _rows(text)
    if len(rows) < 2:
        return None
    header = rows[0]
    body = [r for r in rows[1:] if _a_row_of(r, header)]
    column = _amount_column(header, body)
    if column is None:
        return None
    if month is not None:
        dated = [r for r in body if any(_ISO_DAY.search(c) for c in r)]
        if len(dated) == len(body):
            body = [r for r in body if any(m.group(1) == month for c in r
                                           for m in _ISO_DAY.finditer(c))]  # fmt: skip
    words = [w for w in telling_words(question) if fold(w) not in ASKING]
    held = [[w for w in words if _holds(row, column, w)] for row in body]
    most = max((len(h) for h in held), default=0)
    if not most:
        return None
    chosen = [(row, h) for row, h in zip(body, held, strict=True) if len(h) == most]
    comma = decimal_comma(row[column] for row in body)
    parts = tuple(a for row, _ in chosen if (a := parse_amount(row[column], comma)) is not None)
    if not parts:
        return None
    words_held = " ".join(dict.fromkeys(chosen[0][1]))
    return Sum(sum(parts, Decimal(0)), parts, words_held, comma)


# What a summary must not lose: an amount with its currency ("4,850 EUR", "€39"), a
# reference ("PO-5521", "2029-117"), a day and month ("25 May", "4. Juni", "le 3 juin").
_AMOUNT = (
    r"\b\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?\s?(?i:EUR|USD|GBP|CHF|€|\$|£)"
    r"|(?:€|\$|£)\s?\d[\d.,]*\d"
)
_REFERENCE = r"\b[A-Z]{2,}[- ]?\d{2,}\b|\b\d{4}-\d{3,}\b"  # capitals: "PO-5521", not "Invoice 2029"
_DAY_MONTH = re.compile(
    r"\b(\d{1,2})\.?\s(?:de\s)?((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mär|mai|okt|"
    r"dez|janv|févr|avr|juin|juil|août|déc|ene|abr|ago|dic)\w*)",
    re.IGNORECASE,
)
_DETAIL = re.compile(rf"{_AMOUNT}|{_REFERENCE}|(?i:{_DAY_MONTH.pattern})")


def details_left_out(text: str, summary: str, days_only: bool = False) -> str:
    """The amounts, references and days `text` holds that `summary` leaves out, as the text
    writes them, in its order ("4,850 EUR; PO-5521"); "" when it keeps them all. A small
    model's summary drops numbers; these are the user's to see. `days_only`: the days."""
    kept = re.sub(r"[\s.,]", "", fold(summary))
    detail = re.compile(_DAY_MONTH.pattern, re.I) if days_only else _DETAIL
    text = with_their_month(text)  # ("in June, on the 4th, 13th and 25th": "13 June")
    found = dict.fromkeys(m.group(0).strip() for m in detail.finditer(text))
    left = [f for f in found if not any(form in kept for form in _forms(f))]
    return "; ".join(left[:6])


def with_their_month(text: str) -> str:
    """`text` with days written as ordinals after a month their sentence names given that
    month ("3 deliveries in June, on the 4th, 13th and 25th": "… on the 4 June, 13 June and
    25 June"), so that they read as days."""

    def dated(sentence: re.Match[str]) -> str:
        said = sentence.group(0)
        folded = fold(said)
        if len(folded) != len(said):  # ("ß" folded to "ss"): places differ
            return said
        months = list(_MONTH_NAME.finditer(folded))

        def with_month(day: re.Match[str]) -> str:
            before = [m for m in months if m.end() <= day.start()]
            if not before:
                return day.group(0)
            return f"{day.group(1)} {said[before[-1].start() : before[-1].end()]}"

        return _ORDINAL.sub(with_month, said)

    return re.sub(r"[^.!?]+[.!?]?", dated, text)


# A month's name (folded), as the calendar reads them; a day written as an ordinal, not
# before a month's name ("the 13th", not "13th June").
_MONTH_NAME = re.compile(rf"\b(?:{MONTH_NAMES})\b")
_ORDINAL = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:{MONTH_NAMES})\b)", re.IGNORECASE
)


def days_not_held(text: str, answer: str) -> list[str]:
    """The days (a day of a month) `answer` says that `text` does not, where the text says
    its days that way ("el 9 de junio" of a booking for "8 June": the model's); [] if it
    says none the text lacks, or the text dates nothing so."""
    held = {_a_day(m) for m in _DAY_MONTH.finditer(text)}
    if not held:
        return []
    return [m.group(0) for m in _DAY_MONTH.finditer(answer) if _a_day(m) not in held]


def _a_day(match: re.Match[str]) -> tuple[int, int]:
    """A day and month read by `_DAY_MONTH`: (day, month), the month in any of the four
    languages."""
    return int(match.group(1)), month_number(match.group(2))


# Each month's first letters in English, German, French and Spanish, folded.
_MONTHS = (
    ("jan", "ene"), ("feb", "fev"), ("mar",), ("apr", "avr", "abr"), ("may", "mai"),
    ("jun", "jui"), ("jul", "jui"), ("aug", "aou", "ago"), ("sep",), ("oct", "okt"),
    ("nov",), ("dec", "dez", "dic"),
)  # fmt: skip


def _forms(detail: str) -> list[str]:
    """A detail as a summary may write it, folded without spaces and marks: "4,850 EUR" as
    "4850eur" or "4850", "25 May" as "25may" or "may25"."""
    bare = re.sub(r"[\s.,]", "", fold(detail))
    day = _DAY_MONTH.fullmatch(detail)
    if day:
        # the month in any of the four languages ("22 May" said "22. Mai", "17 de mayo")
        number, month = day.group(1), fold(day.group(2))[:3]
        months = next((m for m in _MONTHS if month in m), (month,))
        return [f for m in months for f in (f"{number}{m}", f"{number}de{m}", f"{m}{number}")]
    digits = re.sub(r"[^\d]", "", bare)
    return [bare, digits] if digits and not re.search(r"[a-z]{2}", bare) else [bare]


def rows_named(text: str, words: str) -> list[str]:
    """The table's rows whose first cell is one of `words` ("travel" of "how much did we
    spend on travel?"), each with its header's names: "travel: planned eur 6000, spent eur
    7450". [] when `text` is no table, or no row is named."""
    rows = _rows(text)
    if len(rows) < 2:
        return []
    header = [" ".join(h.replace("_", " ").split()) for h in rows[0]]
    named = [r for r in rows[1:] if _a_row_of(r, rows[0]) and r[0].strip()
             and any_word_of(r[0].strip(), words)]  # fmt: skip
    return [
        f"{row[0].strip()}: "
        + ", ".join(f"{h} {c.strip()}" for h, c in zip(header[1:], row[1:], strict=True) if c)
        for row in named
    ]


def _rows(text: str) -> list[list[str]]:
    first = text.split("\n", 1)[0]
    delimiter = max((";", ",", "\t"), key=first.count)
    if not first.count(delimiter):
        return []
    return [row for row in csv.reader(io.StringIO(text), delimiter=delimiter) if row]


def _a_row_of(row: list[str], header: list[str]) -> bool:
    """Whether `row` is one of the table's rows: as many cells as the header, not empty, not
    a comment ("# …", which may hold anyone's words, an attacker's too)."""
    return (
        len(row) == len(header)
        and any(c.strip() for c in row)
        and not row[0].lstrip().startswith("#")
    )


def _amount_column(header: list[str], body: list[list[str]]) -> int | None:
    """The column of amounts: every cell a number (not a date), the one whose header names
    an amount first, else the last such column."""
    comma = decimal_comma(cell for row in body for cell in row)
    numeric = [
        j
        for j in range(len(header))
        if all(
            j < len(row) and not _ISO_DAY.search(row[j]) and parse_amount(row[j], comma) is not None
            for row in body
        )
    ]
    named = [j for j in numeric if _AMOUNT_HEADER.search(fold(header[j]))]
    if named:
        return named[0]
    return numeric[-1] if numeric else None


def _holds(row: list[str], column: int, word: str) -> bool:
    return any_word_of(word, " ".join(cell for j, cell in enumerate(row) if j != column))


def about_the_list_itself(question: str, path: str) -> bool:
    """Whether `question` asks how many items the list in `path` holds ("How many things are
    in my todo.txt?", "Wie viele Dinge stehen auf meiner Einkaufsliste?"): it names the file
    and asks for its things or items, not for something inside it ("How many days is the
    Lisbon trip?")."""
    name = fold(PurePosixPath(path).name)
    words = [fold(w) for w in content_words(question) if len(w) > 2]
    names_it = any(w in name for w in words if w not in _ITEMS)
    return names_it and any(w in _ITEMS for w in words)


# An account's balance in the four languages: read from the statement, not summed.
BALANCE = re.compile(
    r"\b(?:balance|saldo|kontostand|solde|left (?:in|on) (?:my|the) (?:account|card)|"
    r"(?:im|auf dem|auf meinem) konto (?:ubrig|geblieben)|"
    r"rest(?:e|ait|ais)\b[^.?!]{0,15}\bsur (?:mon|le) compte|"
    r"queda(?:ba)?\b[^.?!]{0,15}\ben (?:mi|la) cuenta)\b"
)
# Which balance a question asks for (folded): the one at the end of the period ("closing",
# "Ende", "à la fin", "il me restait", "al final") or at its start ("opening", "Anfang").
_AT_THE_END = re.compile(
    r"\b(?:end|closing|final|left|remaining|ende|schluss\w*|end\w*|ubrig|geblieben|fin|"
    r"cloture|restait|reste|finales?|cierre|quedaba|queda)\b"
)
_AT_THE_START = re.compile(
    r"\b(?:start|starting|beginning|opening|anfang\w*|beginn|debut|ouverture|initial|"
    r"inicio|principio|apertura)\b"
)
_BALANCE_LINE = re.compile(r"\b(?:balance|saldo|kontostand|solde)\b")


# Asking how a balance changed ("de combien mon solde a-t-il baissé", "how much did my
# balance go down", "um wie viel ist mein Kontostand gesunken", "cuánto ha bajado"), folded.
_CHANGED = re.compile(
    r"\b(?:chang\w*|go(?:ne)? (?:up|down)|went (?:up|down)|drop\w*|f[ae]ll\w*|r[io]se\w*|"
    r"grow\w*|differen\w*|gestiegen|gesunken|gefallen|ver(?:a|ae)ndert|unterschied|"
    r"veranderung|baisse\w*|augment\w*|diminu\w*|evolu\w*|variation|ecart|bajad\w*|"
    r"subid\w*|cambiad\w*|variad\w*|diferencia|bajo|subio)\b"
)
_AN_AMOUNT = re.compile(r"[+-]?\d[\d.,' ]*\d|\d")


@dataclass(frozen=True)
class BalanceChange:
    """A statement's opening and closing balance lines and the change between them."""

    opening: str
    closing: str
    change: Decimal
    currency: str


def balance_change(text: str, question: str) -> BalanceChange | None:
    """How the balance changed over the statement, computed by code from its opening and
    closing lines when the question asks that; None if it does not, or the statement has
    not exactly one of each with an amount."""
    if not _CHANGED.search(fold(question)):
        return None
    lines = [line.strip() for line in text.splitlines() if _BALANCE_LINE.search(fold(line))]
    opening = [line for line in lines if _AT_THE_START.search(fold(line))]
    closing = [line for line in lines if _AT_THE_END.search(fold(line))]
    if len(opening) != 1 or len(closing) != 1:
        return None
    amounts = [_last_amount(line) for line in (opening[0], closing[0])]
    if amounts[0] is None or amounts[1] is None:
        return None
    currency = re.search(r"\b[A-Z]{3}\b|[€$£]", closing[0])
    return BalanceChange(opening[0], closing[0], amounts[1] - amounts[0],
                         currency.group(0) if currency else "")  # fmt: skip


def _last_amount(line: str) -> Decimal | None:
    """The last amount a line writes ("Closing balance 30 April: 2,315.40 EUR": 2315.40)."""
    after = line.rsplit(":", 1)[-1]
    found = _AN_AMOUNT.findall(after)
    if not found:
        return None
    return parse_amount(found[-1], decimal_comma([found[-1]]))


def balance_line(text: str, question: str) -> str | None:
    """The one line of a statement giving the balance the question asks for ("Closing
    balance 30 April: 2,315.40 EUR" for "il me restait combien à la fin du mois ?"), read by
    code: a small model gave the opening one. None if the question says neither end."""
    asked = fold(question)
    end, start = _AT_THE_END.search(asked), _AT_THE_START.search(asked)
    if bool(end) == bool(start):
        return None
    kind = _AT_THE_END if end else _AT_THE_START
    lines = [line.strip() for line in text.splitlines() if _BALANCE_LINE.search(fold(line))]
    chosen = [line for line in lines if kind.search(fold(line))]
    return chosen[0] if len(chosen) == 1 else None
