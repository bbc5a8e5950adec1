"""summarise_spending over statements the tests write in the layouts banks use, with known
totals: every file is generated from a list of true transactions, and the expected sums are
added up from that list (plus a few figures written out by hand, in case both were wrong)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from connectors.files import FileAccessError, Folders
from connectors.statements import LayoutError, mask_numbers, merchant_of, summarise_spending
from tests.connectors.test_files import make_pdf

IBAN = "DE89370400440532013000"


@dataclass(frozen=True)
class Line:
    day: date
    text: str
    amount: Decimal  # negative: money out


def lines(*rows: tuple[str, str, str]) -> list[Line]:
    return [Line(date.fromisoformat(d), text, Decimal(a)) for d, text, a in rows]


NOVEMBER = lines(
    ("2026-11-02", "REWE Markt 0423 Berlin", "-23.45"),
    ("2026-11-03", "Gehalt November", "2450.00"),
    ("2026-11-14", "REWE Markt 0977 Berlin", "-1234.56"),
    ("2026-11-20", "Miete DE02120300000000202051", "-980.00"),
    ("2026-12-01", "Stadtwerke Strom", "-61.20"),
)


def spent(truth: list[Line]) -> str:
    return str(sum((-line.amount for line in truth if line.amount < 0), Decimal("0.00")))


def received(truth: list[Line]) -> str:
    return str(sum((line.amount for line in truth if line.amount > 0), Decimal("0.00")))


def comma(value: Decimal, thousands: str = ".") -> str:
    """1234.56 as 1.234,56."""
    text = f"{abs(value):,.2f}".replace(",", "§").replace(".", ",").replace("§", thousands)
    return ("-" if value < 0 else "") + text


def write_csv(path: Path, rows: list[list[str]], separator: str, preamble: str = "") -> None:
    out = io.StringIO()
    csv.writer(out, delimiter=separator, lineterminator="\n").writerows(rows)
    path.write_text(preamble + out.getvalue(), encoding="utf-8")


# One writer per layout: (file name, writer, currency the summary must find).


def german_sparkasse(folder: Path, truth: list[Line]) -> str:
    """';', account lines above the header, DD.MM.YYYY, 1.234,56, a currency column."""
    rows = [["Buchungstag", "Valuta", "Beguenstigter/Zahlungspflichtiger", "Betrag", "Waehrung"]]
    rows += [
        [f"{x.day:%d.%m.%Y}", f"{x.day:%d.%m.%Y}", x.text, comma(x.amount), "EUR"] for x in truth
    ]
    write_csv(folder / "giro.csv", rows, ";", f'"Kontonummer:";"{IBAN}"\n"Zeitraum:";"Nov"\n\n')
    return "giro.csv"


def uk_paid_out_paid_in(folder: Path, truth: list[Line]) -> str:
    """',', DD/MM/YYYY, separate Paid out / Paid in columns, £ signs, a balance column."""
    rows = [["Date", "Description", "Paid out", "Paid in", "Balance"]]
    for x in truth:
        money = f"£{abs(x.amount):,.2f}"
        rows.append(
            [f"{x.day:%d/%m/%Y}", x.text, money if x.amount < 0 else "",
             money if x.amount > 0 else "", "£9,999.99"]
        )  # fmt: skip
    write_csv(folder / "current-account.csv", rows, ",")
    return "current-account.csv"


def us_month_first(folder: Path, truth: list[Line]) -> str:
    """',', MM/DD/YYYY, one signed amount with $, (parentheses) for money out."""
    rows = [["Posted Date", "Payee", "Amount"]]
    for x in truth:
        money = f"(${-x.amount:,.2f})" if x.amount < 0 else f"${x.amount:,.2f}"
        rows.append([f"{x.day:%m/%d/%Y}", x.text, money])
    write_csv(folder / "checking.csv", rows, ",")
    return "checking.csv"


def dutch_af_bij(folder: Path, truth: list[Line]) -> str:
    """';', YYYYMMDD, unsigned amounts with an Af/Bij column, decimal comma, EUR in a header."""
    rows = [["Datum", "Naam / Omschrijving", "Rekening", "Af Bij", "Bedrag (EUR)"]]
    for x in truth:
        direction = "Af" if x.amount < 0 else "Bij"
        rows.append([f"{x.day:%Y%m%d}", x.text, "NL91ABNA0417164300", direction,
                     comma(abs(x.amount), "")])  # fmt: skip
    write_csv(folder / "ing.csv", rows, ";")
    return "ing.csv"


def french_tab_debit_credit(folder: Path, truth: list[Line]) -> str:
    """Tabs, Débit / Crédit columns, decimal comma with a space for thousands, currency in
    the lines above the header."""
    rows = [["Date opération", "Libellé", "Débit", "Crédit"]]
    for x in truth:
        money = comma(abs(x.amount), " ")
        rows.append([f"{x.day:%d/%m/%Y}", x.text, money if x.amount < 0 else "",
                     money if x.amount > 0 else ""])  # fmt: skip
    write_csv(folder / "releve.tsv.csv", rows, "\t", "Compte courant\nDevise : EUR\n")
    return "releve.tsv.csv"


def pdf_with_balance(folder: Path, truth: list[Line]) -> str:
    """A PDF whose text lines are 'date text amount balance', amounts without a sign."""
    balance = Decimal("5000.00")
    text = [f"Statement for account {IBAN}", "Date Description Amount Balance EUR"]
    for x in truth:
        balance += x.amount
        text.append(f"{x.day:%d.%m.%Y} {x.text} {comma(abs(x.amount))} {comma(balance)}")
    (folder / "statement.pdf").write_bytes(make_pdf(["\n".join(text)]))
    return "statement.pdf"


LAYOUTS = [
    (german_sparkasse, "EUR"),
    (uk_paid_out_paid_in, "GBP"),
    (us_month_first, "USD"),
    (dutch_af_bij, "EUR"),
    (french_tab_debit_credit, "EUR"),
    (pdf_with_balance, "EUR"),
]


@pytest.mark.parametrize(("write", "currency"), LAYOUTS, ids=[w.__name__ for w, _ in LAYOUTS])
def test_each_layout_sums_to_the_known_totals(tmp_path: Path, write: object, currency: str) -> None:
    name = write(tmp_path, NOVEMBER)  # type: ignore[operator]
    result = summarise_spending(Folders([tmp_path]), name)
    assert result.skipped == ()
    [total] = result.totals
    assert (total.currency, total.spent, total.received) == (
        currency,
        spent(NOVEMBER),
        received(NOVEMBER),
    )
    assert (total.spent, total.received) == ("2299.21", "2450.00")  # by hand
    months = {(m.month, m.spent, m.received) for m in result.months}
    assert months == {("2026-11", "2238.01", "2450.00"), ("2026-12", "61.20", "0.00")}
    top = result.merchants[0]
    assert (top.merchant, top.spent, top.payments) == ("Rewe Markt Berlin", "1258.01", 2)


def test_a_folder_of_statements_keeps_currencies_apart_and_counts_overlaps_once(
    tmp_path: Path,
) -> None:
    german_sparkasse(tmp_path, NOVEMBER)
    uk_paid_out_paid_in(tmp_path, NOVEMBER[:2])
    pdf_with_balance(tmp_path, NOVEMBER)  # the same month again, as a PDF
    (tmp_path / "shopping-list.csv").write_text("item,qty\nmilk,2\n")
    result = summarise_spending(Folders([tmp_path]), "")
    totals = {t.currency: (t.spent, t.received) for t in result.totals}
    assert totals == {"EUR": ("2299.21", "2450.00"), "GBP": ("23.45", "2450.00")}
    assert result.counted_once == len(NOVEMBER)
    assert [s.path for s in result.skipped] == ["shopping-list.csv"]
    assert "no header row" in result.skipped[0].why
    assert len(result.files) == 3


def test_account_numbers_are_masked_to_the_last_four_digits(tmp_path: Path) -> None:
    german_sparkasse(tmp_path, NOVEMBER)
    result = summarise_spending(Folders([tmp_path]), "giro.csv")
    assert result.files[0].account == "••••3000"
    shown = repr(result)
    assert "0532013000" not in shown and "120300000000202051" not in shown
    assert any(m.merchant.startswith("Miete") for m in result.merchants)
    assert mask_numbers("card 4111 1111 1111 1234 at shop") == "card ••••1234 at shop"


def test_a_month_can_be_picked_and_bad_input_is_explained(tmp_path: Path) -> None:
    german_sparkasse(tmp_path, NOVEMBER)
    folders = Folders([tmp_path])
    result = summarise_spending(folders, "giro.csv", month="2026-12")
    assert [(t.spent, t.transactions) for t in result.totals] == [("61.20", 1)]
    with pytest.raises(LayoutError, match="not a month"):
        summarise_spending(folders, "giro.csv", month="December")
    with pytest.raises(FileAccessError):
        summarise_spending(folders, "/etc/passwd.csv")
    (tmp_path / "scan.pdf").write_bytes(make_pdf(["Thank you for banking with us"]))
    result = summarise_spending(folders, "scan.pdf")
    assert result.totals == () and "no line starts with a date" in result.skipped[0].why


def test_merchant_names_drop_card_words_and_reference_numbers() -> None:
    assert merchant_of("CARD PAYMENT REWE MARKT 0423 BERLIN 12.03") == "Rewe Markt Berlin"
    assert merchant_of("Kartenzahlung Amazon Mktp DE*AB12CD34") == "Amazon Mktp DE"
    assert merchant_of("") == "(no description)"
