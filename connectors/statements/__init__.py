"""Bank statements in the user's own files (CSV exports, PDF statements with tabular text),
read and summed. Read-only: no bank connection, nothing that moves money.

    spending = summarise_spending(folders, "bank/2026")    # every .csv and .pdf in it
    spending.totals, spending.months, spending.merchants   # per currency, never mixed
"""

from connectors.statements.layout import LayoutError, Statement, Transaction, read_csv
from connectors.statements.pdf_lines import read_pdf_text
from connectors.statements.summary import (
    Spending,
    mask_numbers,
    merchant_of,
    summarise_spending,
)

__all__ = [
    "LayoutError",
    "Spending",
    "Statement",
    "Transaction",
    "mask_numbers",
    "merchant_of",
    "read_csv",
    "read_pdf_text",
    "summarise_spending",
]
