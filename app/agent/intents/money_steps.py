"""Steps for money: what was spent, read from the user's bank statements.

Every folder holding statements is summed by `summarise_spending` and the payee's lines are
added by code, never by the model's arithmetic; the month is read from the user's words in
four languages (`read_month`). A "payee" no statement names ("groceries") is a question for
the files and emails instead.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import PurePosixPath

from app.agent.intents.file_steps import ok_result
from app.agent.intents.lookup import ask_things
from app.agent.intents.recognise import any_word_of
from app.agent.intents.router import Doing, Instead, Steps
from app.agent.intents.when import read_month, read_when
from connectors.folding import fold

# Words for spending, paying, costs and money in the four languages (accents folded, stems):
# a question without any is not about money.
_MONEY = re.compile(
    r"[€$£]|\b(?:spen[dt]|pa(?:y|id)|cost|money|bought|buy|purchas|price|expens|bills?\b|"
    r"charge|eur|euro|dollar|ausgeb|ausgegeb|ausgab|bezahl|gezahlt|zahl|kost|geld|gekauft|kauf|"
    r"rechnung|depens|achet|factur|prix|argent|gast|pag|dinero|compr|precio)"
)

# An account's balance in the four languages: read from the statement, not summed.
_BALANCE = re.compile(r"\b(?:balance|saldo|kontostand|solde)\b")


def _statement_folders(doing: Doing) -> list[str]:
    """The folders holding spreadsheets or PDFs, where bank statements would be."""
    folders: dict[str, None] = {}
    for pattern in ("*.csv", "*.pdf"):
        for match in ok_result(doing.call("search_files", query=pattern)) or []:
            if isinstance(match, dict) and match.get("kind", "file") == "file":
                folders.setdefault(str(PurePosixPath(str(match["path"])).parent), None)
    return list(folders)[:4]


def spending(doing: Doing, slots: dict[str, str]) -> str:
    month = read_month(slots.get("month") or doing.request, doing.now)
    said = fold(doing.request)
    if month is None and not _MONEY.search(said) and read_when(doing.request, doing.now):
        # "Was habe ich nächste Woche vor?": a day's question, not money's
        raise Instead("show_calendar")
    if _BALANCE.search(said):
        # "What was the closing balance on my April statement?": the statement says it; a
        # sum of payments does not
        return ask_things(doing, {})
    merchant = slots.get("merchant", "")
    by_merchant: dict[tuple[str, str], tuple[float, int]] = {}  # (merchant, currency)
    spent: dict[str, float] = {}
    for folder in _statement_folders(doing):
        record = doing.call("summarise_spending", path=folder, month=month)
        if record.status != "ok" or not isinstance(record.result, dict):
            continue
        for total in record.result.get("totals", []):
            currency = str(total["currency"])
            spent[currency] = spent.get(currency, 0.0) + float(total["spent"])
        for line in record.result.get("merchants", []):
            key = (str(line["merchant"]), str(line["currency"]))
            amount, count = by_merchant.get(key, (0.0, 0))
            by_merchant[key] = (amount + float(line["spent"]), count + int(line["payments"]))
    during = doing.say("in_month", month=datetime.strptime(month, "%Y-%m")) if month else ""
    if not spent:
        return doing.say("no_statements", during=during)
    if merchant:
        matching = {k: v for k, v in by_merchant.items() if any_word_of(merchant, k[0])}
        if not matching:  # not a payee ("groceries"): a question for the files
            return ask_things(doing, {"about": merchant})
        lines = "\n".join(
            f"- {name}: {amount:.2f} {currency} "
            f"({doing.say('payments' if count != 1 else 'payment', count=count)})"
            for (name, currency), (amount, count) in matching.items()
        )
        return doing.say("spent_at", during=during, lines=lines)
    totals = ", ".join(f"{amount:.2f} {currency}" for currency, amount in spent.items())
    top = sorted(by_merchant.items(), key=lambda item: item[1][0], reverse=True)[:5]
    lines = "\n".join(f"- {name}: {amount:.2f} {currency}" for (name, currency), (amount, _) in top)
    return doing.say("spent_total", totals=totals, during=during, lines=lines)


STEPS: dict[str, Steps] = {"spending": spending}
