"""Steps for money: what was spent, read from the user's bank statements and expense tables.

Every folder holding statements is summed by `summarise_spending` and the payee's lines are
added by code, never by the model's arithmetic; the month is read from the user's words in
four languages (`read_month`). What the question asks about, from the model's slot or else
from the request's own words ("eating out", "Lebensmittel"), is a payee the statements name,
or else the lines of an expense table holding it (tried once more in English, the language
such tables are often kept in); a "payee" neither holds ("the Lisbon hotel") is a question for
the files and emails instead, and one nothing names ("beim Bäcker") was paid nothing. A
balance is read from the month's statement, not summed."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import PurePosixPath

from app.agent.intents import tally
from app.agent.intents.catalog import JUST_ANSWER
from app.agent.intents.english import english_words
from app.agent.intents.file_steps import ok_result, read_text, telling_words
from app.agent.intents.glossary import glossed
from app.agent.intents.language import is_function_word, speaks_of_the_user, the_question
from app.agent.intents.lookup import (
    answer_from_file,
    ask_things,
    balance_changed,
    best_source,
    said_sum,
)
from app.agent.intents.recognise import any_word_of
from app.agent.intents.router import Doing, HandOver, Instead, Steps
from app.agent.intents.sums import asks_a_measure
from app.agent.intents.when import months_named, read_month, read_when, without_month
from connectors.folding import fold

# An indefinite article before a word (folded): a kind of thing ("an egg", "ein Ei", "des
# pâtes", "un plátano"), not one of the user's ("the lasagne"). (Not the "a" of "a la",
# "a qué hora", "il y a".)
_A_KIND = re.compile(
    r"(?<!\by )\b(?:a(?!\s+(?:la|las|los|el|lo|que|quel\w*|qui|quien|donde|cuando)\b)|an|ein|"
    r"eine[nms]?|une?|des|una?|unos|unas)\s+[^\W\d]"
)


def _money_files(doing: Doing) -> list[str]:
    """The spreadsheets and PDFs the allowed folders hold: where bank statements and
    expense tables would be."""
    paths: dict[str, None] = {}
    for pattern in ("*.csv", "*.pdf"):
        for match in ok_result(doing.call("search_files", query=pattern)) or []:
            if isinstance(match, dict) and match.get("kind", "file") == "file":
                paths.setdefault(str(match["path"]), None)
    return list(paths)


def _folders(files: list[str]) -> list[str]:
    return list(dict.fromkeys(str(PurePosixPath(path).parent) for path in files))[:4]


def subject_words(text: str) -> str:
    """What a money question asks about ("eating out", "Lebensmittel"): its telling words
    but the month, the money and the asking words, and the little words of any language;
    not those of a clause leaving something out ("das Gehalt nicht mitrechnen")."""
    text = " ".join(c for c in re.split(r"[.,;:!?]", text) if not _LEAVING_OUT.search(fold(c)))
    kept = [
        w for w in telling_words(without_month(text))
        if not tally.MONEY.search(fold(w)) and fold(w) not in tally.ASKING | tally.ACCOUNT
        and not is_function_word(w)
    ]  # fmt: skip
    return " ".join(kept)


# A clause leaving something out of a sum, in the four languages (folded): "not counting
# the salary", "das Gehalt nicht mitrechnen", "sans le salaire", "sin contar el sueldo".
_LEAVING_OUT = re.compile(
    r"\b(?:not|without|except|excluding|apart from|nicht|ohne|ausser|abgesehen|sans|sauf|hors|"
    r"sin|excepto|salvo)\b"
)


def _besides_the_account(subject: str) -> str:
    """`subject`'s words but those naming the account or statement itself ("Girokonto")."""
    return " ".join(w for w in subject.split() if fold(w) not in tally.ACCOUNT)


def spending(doing: Doing, slots: dict[str, str]) -> str:
    # the asking sentence's month first ("… los gastos este mes... ¿cuánto me dejé en el
    # súper en marzo?": March), then the model's, then the request's
    asked = the_question(doing.request)
    month = (read_month(asked, doing.now) if asked != doing.request else None) or read_month(
        slots.get("month") or doing.request, doing.now
    )
    said = fold(doing.request)
    if month is None and not tally.MONEY.search(said) and read_when(doing.request, doing.now):
        # "Was habe ich nächste Woche vor?": a day's question, not money's
        raise Instead("show_calendar")
    about_money = (
        tally.MONEY.search(said) or tally.asks_how_much(said) or tally.BALANCE.search(said)
    )
    if tally.asks_a_difference(doing.request) and month is None:
        # "How much are we under plan on software?": a budget's two amounts, which the files'
        # steps subtract (a statement's sums would add the plan up)
        raise Instead("ask_files")
    if month is None and asks_a_measure(doing.request):
        raise Instead(JUST_ANSWER)  # "un marathon ça fait combien de km ?": no money asked
    if month is None and not about_money:
        # No money, month or sum in it: a question of the user's things ("How long does the
        # lasagne bake?": their recipe), or a general one about a kind of thing ("Wie lange
        # muss ein Ei kochen, damit es weich ist?", taken for spending on "Ei").
        general = not speaks_of_the_user(doing.request) and _A_KIND.search(said)
        raise Instead(JUST_ANSWER if general else "ask_files")
    files = _money_files(doing)
    months = months_named(asked, doing.now)
    if month in months and 1 < len(months) <= _MONTHS_COMPARED:
        # "did i spend more on groceries in april or march?": each month's, side by side
        return "\n\n".join(_spent(doing, slots, files, said, each) for each in months)
    return _spent(doing, slots, files, said, month)


# Months shown side by side at most ("in March, April or May?").
_MONTHS_COMPARED = 3


def _spent(
    doing: Doing, slots: dict[str, str], files: list[str], said: str, month: str | None
) -> str:
    """What was spent in `month` (all the statements hold if None): at the payee or on the
    thing the request names, else in all, with the largest payees."""
    if tally.BALANCE.search(said):
        # "What was the closing balance on my April statement?": the statement says it; a
        # sum of payments does not
        return _balance(doing, files, month) or ask_things(doing, {})
    merchant = _besides_the_account(slots.get("merchant", ""))
    by_merchant: dict[tuple[str, str], tuple[float, int]] = {}  # (merchant, currency)
    spent: dict[str, float] = {}
    for folder in _folders(files):
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
    subject = merchant or subject_words(doing.request)
    if subject:
        found = _paid_to(doing, subject, by_merchant, during)
        tables = {} if found else _tables(doing, files)
        found = found or _table_lines(doing, subject, tables, month)
        if not found and (kind := glossed(subject)) and fold(kind) != fold(subject):
            # "restaurants" of a table whose lines say "eating out": the everyday thing's
            # English name, no model step
            found = _paid_to(doing, kind, by_merchant, during) or _table_lines(
                doing, kind, tables, month
            )
        english = english_words(doing, the_question(doing.request)) if not found else ""
        if english := subject_words(english):
            # "Lebensmittel" of an expense table kept in English ("groceries")
            found = _paid_to(doing, english, by_merchant, during) or _table_lines(
                doing, english, tables, month
            )
        if found:
            return found
        if merchant and spent and best_source(doing, merchant) is None:
            # no payee, no table's line, and no file or email names it ("beim Bäcker"):
            # nothing was paid there, as the statements read say
            return doing.say("spent_nothing_at", merchant=merchant, during=during)
        if merchant:  # not a payee and in no table ("the Lisbon hotel"): for the files
            return ask_things(doing, {"about": merchant})
    if not spent:
        return doing.say("no_statements", during=during)
    totals = ", ".join(f"{amount:.2f} {currency}" for currency, amount in spent.items())
    top = sorted(by_merchant.items(), key=lambda item: item[1][0], reverse=True)[:5]
    lines = "\n".join(f"- {name}: {amount:.2f} {currency}" for (name, currency), (amount, _) in top)
    return doing.say("spent_total", totals=totals, during=during, lines=lines)


def _paid_to(
    doing: Doing, subject: str, by_merchant: dict[tuple[str, str], tuple[float, int]], during: str
) -> str:
    """The payments to the payees `subject` names ("" if it names none)."""
    matching = {k: v for k, v in by_merchant.items() if any_word_of(subject, k[0])}
    if not matching:
        return ""
    lines = "\n".join(
        f"- {name}: {amount:.2f} {currency} "
        f"({doing.say('payments' if count != 1 else 'payment', count=count)})"
        for (name, currency), (amount, count) in matching.items()
    )
    return doing.say("spent_at", during=during, lines=lines)


def _tables(doing: Doing, files: list[str]) -> dict[str, str]:
    """The spreadsheets' texts, by path."""
    texts: dict[str, str] = {}
    for path in [p for p in files if p.lower().endswith(".csv")][:_TABLES]:
        try:
            texts[path] = read_text(doing, path)
        except HandOver:
            continue
    return texts


def _table_lines(doing: Doing, subject: str, tables: dict[str, str], month: str | None) -> str:
    """The lines of an expense table holding `subject`'s words, added up by code ("" if no
    table's line holds them)."""
    for path, text in tables.items():
        found = tally.table_sum(text, subject, month)
        if found is not None:
            return f"{said_sum(doing, found)}\n\n({doing.say('from_file_cited', path=path)})"
    return ""


# Tables read at most for one question: a folder of a hundred spreadsheets is not read whole.
_TABLES = 6


def _balance(doing: Doing, files: list[str], month: str | None) -> str:
    """The answer from the statement of `month` (its file named by the month) that speaks of
    a balance; "" if no such file is found."""
    named = [p for p in files if month is None or _names_month(PurePosixPath(p).name, month)]
    for path in named[:_TABLES]:
        try:
            text = read_text(doing, path)
        except HandOver:
            continue
        if tally.BALANCE.search(fold(text)):
            if (said := balance_changed(doing, text)) is not None:
                return f"{said}\n\n({doing.say('from_file_cited', path=path)})"
            if (line := tally.balance_line(text, doing.request)) is not None:
                return f"{line}\n\n({doing.say('from_file_cited', path=path)})"
            return answer_from_file(doing, path, text)
    return ""


def _names_month(name: str, month: str) -> bool:
    """Whether a file's name says `month` ("statement-2029-04.pdf", "04_2029", "april")."""
    year, number = month.split("-")
    if re.search(rf"{year}\D?{number}(?!\d)|(?<!\d){number}\D?{year}", name):
        return True
    return read_month(re.sub(r"[\W_]+", " ", name), datetime(int(year), 12, 31)) == month


STEPS: dict[str, Steps] = {"spending": spending}
