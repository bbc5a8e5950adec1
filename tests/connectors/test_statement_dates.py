"""Which way a statement writes its dates (issue #39, item 2): a US statement is read month
first, month names are read, and a column is read the way under which it is sorted and short.
Property tests over generated statements, then the cases from the issue."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from connectors.statements.layout import read_csv
from connectors.statements.pdf_lines import read_pdf_text
from connectors.statements.values import day_first, parse_date


@st.composite
def statement_dates(draw: st.DrawFn) -> list[date]:
    """Dates a statement holds: sorted (either way), spanning under four weeks."""
    start = draw(st.dates(min_value=date(2000, 1, 1), max_value=date(2090, 12, 1)))
    offsets = draw(st.lists(st.integers(0, 27), min_size=1, max_size=30))
    days = sorted(start + timedelta(days=n) for n in offsets)
    return days[::-1] if draw(st.booleans()) else days


def csv_statement(days: list[date], pattern: str, currency: str) -> str:
    lines = ["Date,Description,Amount,Currency"]
    lines += [f"{d.strftime(pattern)},Shop {i},-{i + 1}.50,{currency}" for i, d in enumerate(days)]
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(statement_dates(), st.sampled_from(["%m/%d/%Y", "%m-%d-%Y", "%m/%d/%y"]))
def test_a_us_statement_is_read_month_first(days: list[date], pattern: str) -> None:
    statement = read_csv(csv_statement(days, pattern, "USD"))
    assert [t.day for t in statement.transactions] == days


@settings(max_examples=300, deadline=None)
@given(
    statement_dates(),
    st.sampled_from(["%d/%m/%Y", "%d.%m.%Y", "%d-%m-%y"]),
    st.sampled_from(["EUR", "GBP", "CHF"]),
)
def test_a_european_statement_is_read_day_first(days: list[date], pattern: str, cur: str) -> None:
    statement = read_csv(csv_statement(days, pattern, cur))
    assert [t.day for t in statement.transactions] == days


@settings(max_examples=300, deadline=None)
@given(statement_dates(), st.booleans(), st.booleans())
def test_the_column_decides_whatever_the_currency(
    days: list[date], month_first: bool, usual: bool
) -> None:
    """Whenever the dates themselves can tell (two dates in a column), the currency's custom
    is not needed: a British card spent in dollars is still read day first."""
    pattern = "%m/%d/%Y" if month_first else "%d/%m/%Y"
    cells = [d.strftime(pattern) for d in days]
    first_is_day = day_first(cells, month_first_usual=usual)
    if len(set(days)) > 1 or days[0].day > 12:
        assert [parse_date(c, first_is_day) for c in cells] == days
    else:  # one date, 03/04/2026: only the custom can say
        assert first_is_day is not usual


@given(st.dates(min_value=date(1990, 1, 1), max_value=date(2099, 12, 31)))
def test_month_names_are_read_either_way_round(day: date) -> None:
    for text in (
        day.strftime("%b %d, %Y"),
        day.strftime("%B %d, %Y"),
        day.strftime("%d %b %Y"),
        day.strftime("%d %B %Y"),
        day.strftime("%d-%b-%Y"),
    ):
        assert parse_date(text) == day, text


def test_a_us_fortnight_stays_in_march() -> None:
    """The issue's case: 03/01 … 03/12 was read day first, over five months."""
    days = [date(2026, 3, d) for d in (1, 2, 5, 9, 12)]
    statement = read_csv(csv_statement(days, "%m/%d/%Y", "USD"))
    assert [t.day for t in statement.transactions] == days
    assert "month first" in statement.layout
    statement = read_csv(csv_statement(days, "%m/%d/%Y", "EUR"))  # the column decides
    assert [t.day for t in statement.transactions] == days


def test_german_and_french_month_names() -> None:
    assert parse_date("12. März 2026") == date(2026, 3, 12)
    assert parse_date("3 décembre 2026") == date(2026, 12, 3)
    assert parse_date("March 12th, 2026") == date(2026, 3, 12)
    assert parse_date("Market 12, 2026") is None


def test_a_pdf_with_month_names_is_read() -> None:
    text = "\n".join(
        (
            "Checking account 1234 5678",
            "Mar 1, 2026 COFFEE HOUSE -4.50 995.50",
            "Mar 12, 2026 GROCERY STORE -23.45 972.05",
            "March 14, 2026 PAYROLL +1,000.00 1,972.05",
        )
    )
    statement = read_pdf_text(text)
    assert [(t.day, t.amount) for t in statement.transactions] == [
        (date(2026, 3, 1), Decimal("-4.50")),
        (date(2026, 3, 12), Decimal("-23.45")),
        (date(2026, 3, 14), Decimal("1000.00")),
    ]
