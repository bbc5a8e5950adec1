"""Dates, times and durations from the words people use, resolved by code.

Small models cannot count days ("the Tuesday after next" from a Tuesday) or add minutes, so an
intent's time slots hold the user's own words and this module turns them into dates and times
against the moment the message was sent. English, German, French and Spanish words are read
alike: a weekday, "tomorrow", "next", "after next", a day of the month with or without its
month, a clock time ("3pm", "15:30", "15 Uhr", "14h", "a las 3"), a part of the day, "in N
days", durations and shifts ("back by 30 minutes", "eine Stunde früher").

Each reader returns None when it finds nothing it is sure of: the caller then asks the user.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from connectors.folding import fold

_WEEKDAYS: dict[str, int] = {}
for _index, _names in enumerate(
    (
        "monday mon montag mo lundi lun lunes",
        "tuesday tue tues dienstag di mardi mar martes",
        "wednesday wed mittwoch mi mercredi mer miercoles mie",
        "thursday thu thur thurs donnerstag do jeudi jeu jueves jue",
        "friday fri freitag fr vendredi ven viernes vie",
        "saturday sat samstag sonnabend sa samedi sam sabado sab",
        "sunday sun sonntag so dimanche dim domingo dom",
    )
):
    for _name in _names.split():
        _WEEKDAYS[_name] = _index
# Two-letter abbreviations collide with ordinary words ("do", "so", "mar"): only full names
# count on their own; the short forms only right before a date ("Fr 18.5.").
_WEEKDAY_WORDS = {name: day for name, day in _WEEKDAYS.items() if len(name) > 4}

_MONTHS: dict[str, int] = {}
for _index, _names in enumerate(
    (
        "january jan januar janvier enero ene",
        "february feb februar fevrier fev febrero",
        "march mar marz maerz mars marzo",
        "april apr avril avr abril abr",
        "may mai mayo",
        "june jun juni juin junio",
        "july jul juli juillet juil julio",
        "august aug aout agosto ago",
        "september sep sept septembre septiembre setiembre",
        "october oct oktober okt octobre octubre",
        "november nov novembre noviembre",
        "december dec dezember dez decembre diciembre dic",
    ),
    start=1,
):
    for _name in _names.split():
        _MONTHS[_name] = _index

# Days relative to today, longest phrases first when matched.
_RELATIVE_DAYS = {
    "day after tomorrow": 2,
    "ubermorgen": 2,
    "apres-demain": 2,
    "apres demain": 2,
    "pasado manana": 2,
    "today": 0,
    "tonight": 0,
    "heute": 0,
    "aujourd'hui": 0,
    "aujourdhui": 0,
    "ce soir": 0,
    "hoy": 0,
    "esta noche": 0,
    "esta manana": 0,
    "tomorrow": 1,
    "tmrw": 1,
    "morgen": 1,
    "demain": 1,
    "manana": 1,
    "yesterday": -1,
    "gestern": -1,
    "hier": -1,
    "ayer": -1,
}

# Parts of the day: (from, to) hours, and the hour a bare "at 3" in that part means.
_PARTS = {
    "morning": (8, 12),
    "vormittag": (8, 12),
    "vormittags": (8, 12),
    "morgens": (8, 12),
    "morgen fruh": (8, 12),  # tomorrow morning ("früh" alone is no part of the day)
    "matin": (8, 12),
    "matinee": (8, 12),
    "por la manana": (8, 12),
    "de la manana": (8, 12),
    "noon": (12, 14),
    "lunchtime": (12, 14),
    "lunch": (12, 14),
    "mittag": (12, 14),
    "mittags": (12, 14),
    "midi": (12, 14),
    "mediodia": (12, 14),
    "afternoon": (12, 18),
    "nachmittag": (12, 18),
    "nachmittags": (12, 18),
    "apres-midi": (12, 18),
    "apres midi": (12, 18),
    "tarde": (12, 21),  # Spanish "la tarde" runs into the evening, until dinner
    "evening": (18, 22),
    "tonight": (18, 23),
    "abend": (18, 22),
    "abends": (18, 22),
    "soir": (18, 22),
    "soiree": (18, 22),
    "noche": (18, 23),
    "esta noche": (18, 23),
    "esta manana": (8, 12),
    "ce soir": (18, 22),
    # the end of the working day
    "late afternoon": (16, 18),
    "spaten nachmittag": (16, 18),
    "spater nachmittag": (16, 18),
    "fin d'apres-midi": (16, 18),
    "end of the day": (16, 20),
    "after work": (17, 21),
    "nach der arbeit": (17, 21),
    "nach feierabend": (17, 21),
    "fin de journee": (16, 20),
    "apres le boulot": (17, 21),
    "apres le travail": (17, 21),
    "final del dia": (16, 20),
    "despues del trabajo": (17, 21),
    "al salir del trabajo": (17, 21),
}

_NEXT_WORDS = (
    r"next|nachsten|nachster|nachste|kommenden|kommender|prochain|prochaine|proximo|proxima|"
    r"que viene"
)
_AFTER_NEXT = r"after next|ubernachsten|ubernachster|ubernachste|en huit|despues del proximo"

_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "fifteen": 15, "twenty": 20, "thirty": 30,
    "forty": 40, "forty-five": 45, "ein": 1, "eine": 1, "einen": 1, "einer": 1, "zwei": 2,
    "drei": 3, "vier": 4, "funf": 5, "zehn": 10, "zwanzig": 20, "dreissig": 30, "dreißig": 30,
    "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "dix": 10, "vingt": 20,
    "trente": 30, "uno": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "diez": 10,
    "veinte": 20, "treinta": 30, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9,
    "vierzehn": 14, "funfzehn": 15, "sept": 7, "huit": 8, "neuf": 9, "quinze": 15, "seis": 6,
    "siete": 7, "ocho": 8, "nueve": 9, "quince": 15, "catorce": 14, "fourteen": 14,
    "sixty": 60, "ninety": 90, "vierzig": 40, "sechzig": 60, "neunzig": 90, "quarante": 40,
    "soixante": 60, "quatre-vingt-dix": 90, "cuarenta": 40, "sesenta": 60, "noventa": 90,
    "anderthalb": 1.5, "eineinhalb": 1.5,
}  # fmt: skip
_NUMBER = r"\d+(?:[.,]\d+)?|" + "|".join(sorted(map(re.escape, _NUMBER_WORDS), key=len)[::-1])


def _number(text: str) -> float | None:
    text = text.replace(",", ".")
    try:
        return float(text)
    except ValueError:
        return _NUMBER_WORDS.get(text)


@dataclass(frozen=True)
class When:
    """What a phrase said about when: a first day and how many days, and maybe clock times
    (`start`, `end`) or a part of the day (`part`, hours from-to)."""

    day: date
    days: int = 1
    start: time | None = None
    end: time | None = None
    part: tuple[int, int] | None = None
    day_given: bool = True  # False: only a time was said ("at 3"), the day is today

    def start_at(self, zone: datetime) -> datetime | None:
        """The start as an aware datetime in `zone`'s time zone (None without a clock time)."""
        if self.start is None:
            return None
        return datetime.combine(self.day, self.start, tzinfo=zone.tzinfo)

    def window(self, zone: datetime) -> tuple[datetime, datetime]:
        """The stretch of time the phrase covers: the days, narrowed to the part of the day."""
        first = datetime.combine(self.day, time(0), tzinfo=zone.tzinfo)
        if self.part is not None and self.days == 1:
            return first + timedelta(hours=self.part[0]), first + timedelta(hours=self.part[1])
        if self.start is not None and self.end is not None and self.days == 1:
            return datetime.combine(self.day, self.start, tzinfo=zone.tzinfo), datetime.combine(
                self.day, self.end, tzinfo=zone.tzinfo
            )
        return first, first + timedelta(days=self.days)


def next_weekday_said(phrase: str) -> bool:
    """Whether `phrase` names a weekday as "next" ("next Friday", "vendredi prochain"): said
    early in a week, some mean this week's and some the week after's."""
    text = fold(phrase)
    for name in sorted(_WEEKDAY_WORDS, key=len, reverse=True):
        match = re.search(rf"\b{name}s?\b", text)
        if match is not None:
            around = text[max(0, match.start() - 20) : match.end() + 25]
            after_next = re.search(rf"\b(?:{_AFTER_NEXT})\b", around)
            return bool(re.search(rf"\b(?:{_NEXT_WORDS})\b", around)) and not after_next
    return False


# A weekday's short English form right before a time of day ("Perfect Days (Wed 20:00)",
# "Fri 9am"): the day, though alone it may be another word ("sun", "sat").
_FULL_DAY = {
    "mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday",
    "thu": "thursday", "thur": "thursday", "thurs": "thursday", "fri": "friday",
    "sat": "saturday", "sun": "sunday",
}  # fmt: skip
_SHORT_DAY = re.compile(
    rf"\b({'|'.join(sorted(_FULL_DAY, key=len, reverse=True))})\.?\s+"
    r"(?=\d{1,2}(?::\d\d|h\d\d|\s*(?:am|pm|h|uhr)\b))"
)
# The same after a word that names a day next ("next wed", "on sat", "this fri", "by tue"),
# lower case as typed: "on Sun" of a title is left.
_SAID_SHORT_DAY = re.compile(
    r"\b(?:next|this|on|coming|last|by|until|till|before|every)\s+"
    rf"({'|'.join(sorted(_FULL_DAY, key=len, reverse=True))})\b\.?"
)


# A day something is to be done before or by ("before Friday", "bis Freitag", "d'ici
# jeudi", "antes del viernes", "before the budget meeting on Monday"), folded: "before"
# leaves that day out, "by" keeps it.
_DEADLINE = re.compile(
    r"\b(?:(?P<before>before|ahead of|vor|vorm|avant|antes del?)"
    r"|(?P<by>by|until|till|bis(?: zum| spatestens)?|spatestens|d'ici|jusqu'a|hasta el?))\s+"
    r"(?P<rest>.+)"
)
# The days looked through for the soonest free time when none is said.
SOONEST_DAYS = 7


def days_until(phrase: str, now: datetime) -> list[date]:
    """The days from today to the deadline `phrase` says (its day left out after "before",
    kept after "by"), at most a fortnight; [] if it says none, or a deadline already past."""
    for found in _DEADLINE.finditer(fold(phrase)):
        when = read_when(found["rest"], now)
        if when is None or not when.day_given:
            continue
        last = when.day - timedelta(days=1) if found["before"] else when.day
        count = (last - now.date()).days + 1
        return [now.date() + timedelta(days=n) for n in range(min(count, 14))]
    return []


def read_when(phrase: str, now: datetime) -> When | None:
    """The day(s) and time a phrase names, seen from `now`; None if it names neither."""
    text = _german_parts(" " + re.sub(r"\s+", " ", fold(phrase)).strip(" .,!?") + " ")
    today = now.date()
    relative = re.search(
        rf"\b(?:in|within|dans|en|binnen|dentro de)\s+"
        rf"((?:{_NUMBER})\s*(?:{_HOUR_UNITS}|{_MINUTE_UNITS})"
        r"(?:\s+(?:and a half|und eine halbe|et demie|y media))?|half an hour|einer halben stunde|"
        r"une demi-heure|media hora)",
        text,
    )
    if relative and (delta := read_duration(relative.group(1))) is not None:
        moment = now + delta
        return When(moment.date(), start=time(moment.hour, moment.minute))
    text = _SHORT_DAY.sub(lambda m: f"{_FULL_DAY[m.group(1)]} ", text)  # "wed 20:00"
    text = _SAID_SHORT_DAY.sub(  # "next wed same time"
        lambda m: m.group(0)[: m.start(1) - m.start(0)] + _FULL_DAY[m.group(1)], text
    )
    text = _INSTEAD_OF.sub(" ", text)  # "um 11 statt um 15 Uhr": 11, not 11 to 15
    day, days, given = _read_day(text, today)
    if days == 1 and (both := _TWO_WEEKDAYS.search(text)) is not None:
        # "Saturday and Sunday", "samedi et dimanche": both days, when one follows the other
        first, _, _ = _read_day(both.group(1), today)
        second, _, _ = _read_day(both.group(2), today)
        if first is not None and second is not None and (second - first).days == 1:
            day, days = first, (second - first).days + 1
    if (stretch := _DAY_RANGE.search(text)) is not None:
        text = f"{text[: stretch.start()]} {text[stretch.end() :]}"  # "12-13 June": no time
    part = _read_part(text)
    # "el sábado por la mañana … a eso de las 7": the morning said, a bare 7 is seven then
    start, end = _read_times(in_digits(text), morning=part is not None and part[1] <= 12)
    if day is None:
        if start is None and part is None:
            return None
        day, given = today, False
    if start is not None and part is not None and start.hour < 12 and part[0] >= 12:
        start = time(start.hour + 12, start.minute)  # "3 in the afternoon"
    if end is not None and start is not None and end <= start and end.hour < 12:
        end = time(end.hour + 12, end.minute)  # "from 11 to 1"
    if end is not None and start is not None and end <= start:
        # "a las 17:30? a las 4 no llego": a second time said, not where the first ends
        end = None
    return When(day, days, start, end, part if start is None else None, given)


# Two weekdays joined by "and" (folded): "saturday and sunday", "samstag und sonntag",
# "samedi et dimanche", "el sábado y el domingo".
_WEEKDAY_NAMES = "|".join(sorted(_WEEKDAY_WORDS, key=len, reverse=True))
_TWO_WEEKDAYS = re.compile(
    rf"\b({_WEEKDAY_NAMES})s?\s*(?:,|and|und|et|y|&)\s+(?:(?:el|le|am|on) )?({_WEEKDAY_NAMES})s?\b"
)


def days_named(phrase: str, now: datetime) -> list[date]:
    """Each single day `phrase` names somewhere in it, in order ("am Donnerstag klappt die
    Inspektion nicht, sie nehmen den Wagen am Montag": Thursday and Monday); a week or a
    month is no day."""
    return list(dict.fromkeys(w.day for w in periods_named(phrase, now, 2) if w.days == 1))


def periods_named(phrase: str, now: datetime, longest: int = 3) -> list[When]:
    """Each day or stretch of days `phrase` names somewhere in it, in order, read from up to
    `longest` words at a time ("Sam a réparé le robinet ce week-end ! … le plombier n'a plus
    besoin de venir la semaine prochaine": the weekend, then next week)."""
    words = phrase.split()
    found: dict[tuple[date, int], When] = {}
    for at in range(len(words)):
        for length in range(1, longest + 1):
            when = read_when(" ".join(words[at : at + length]), now)
            if when is not None and when.day_given:
                found.setdefault((when.day, when.days), When(when.day, when.days))
    return list(found.values())


_GERMAN_DAYS = r"montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag"
# "Freitagabend", "Montagnachmittag": a weekday and a part of the day as one word.
_DAY_AND_PART = re.compile(
    rf"\b({_GERMAN_DAYS})(morgen|vormittag|mittag|nachmittag|abend|nacht)(s?)\b"
)
# "Donnerstag Morgen", "heute Morgen": the morning of that day, not tomorrow.
_MORNING_OF = re.compile(rf"\b({_GERMAN_DAYS}|heute|gestern) morgen\b")


def _german_parts(text: str) -> str:
    """`text` (folded) with a German part of a named day in two words, the morning as
    "morgens" ("am Donnerstag morgen": Thursday morning, "morgen" alone is tomorrow)."""
    text = _DAY_AND_PART.sub(r"\1 \2\3", text)
    return _MORNING_OF.sub(r"\1 morgens", text)


# Spanish "mañana" as tomorrow, not the morning ("mañana por la mañana": tomorrow morning).
# ("esa mañana", "aquella mañana", "esa misma mañana": that morning, a day said before)
_TOMORROW_ES = re.compile(
    r"(?<!la )(?<!esta )(?<!esa )(?<!aquella )(?<!misma )(?<![\w-])manana(?![\w-])"
)


def _read_day(text: str, today: date) -> tuple[date | None, int, bool]:
    counted = _nth_weekday(text, today) or _month_end(text, today) or _weeks_on(text, today)
    if counted is not None:
        return counted, 1, True
    for phrase, offset in sorted(_RELATIVE_DAYS.items(), key=lambda p: -len(p[0])):
        if re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text):
            if phrase == "manana" and not _TOMORROW_ES.search(text):
                continue  # "por la mañana", "esta mañana": in the morning, not tomorrow
            if phrase == "morgen" and re.search(
                r"\bmorgens\b|guten morgen|\b(?:diesem|dem|jenem|selben|gleichen) morgen\b", text
            ):  # ("an diesem Morgen": that morning)
                continue
            return today + timedelta(days=offset), 1, True
    if match := re.search(r"\b(?:in|within|dans|en|binnen|dentro de)\s+(" + _NUMBER + r")\s+"
                          r"(days?|tagen?|jours?|dias?|weeks?|wochen?|semaines?|semanas?)\b"
                          r"|\b(" + _NUMBER + r")\s+(days?|weeks?)\s+from\s+(?:now|today)\b",
                          text):  # fmt: skip
        amount = _number(match.group(1) or match.group(3)) or 0
        said_unit = match.group(2) or match.group(4)
        unit = 7 if said_unit.startswith(("w", "s")) else 1
        if said_unit.startswith(("tag", "jour", "dia")) and amount in (8, 15):
            amount -= 1  # "in acht Tagen", "dans quinze jours": a week, two weeks
        return today + timedelta(days=int(amount * unit)), 1, True
    if re.search(r"\b(?:in|within) a fortnight\b|\bfortnight from (?:now|today)\b", text):
        return today + timedelta(days=14), 1, True
    week = _read_week(text, today)
    if week is not None:
        return week
    if (stretch := _DAY_RANGE.search(text)) is not None:
        # "on 12-13 June", "du 12 au 13 juin", "vom 12. bis 13. Juni": the days from one to
        # the other
        first, last = int(stretch.group(1)), int(stretch.group(2))
        begins = _next_date(today, _MONTHS[stretch.group(3)], first)
        if begins is not None and 0 < last - first < _LONGEST_STRETCH:
            return begins, last - first + 1, True
    dated = _read_date(text, today)
    if dated is not None:
        return dated, 1, True
    for name, weekday in sorted(_WEEKDAY_WORDS.items(), key=lambda p: -len(p[0])):
        match = re.search(rf"\b{name}s?\b", text)
        if match is None:
            continue
        ahead = (weekday - today.weekday()) % 7
        around = text[max(0, match.start() - 20) : match.end() + 25]
        if re.search(rf"\b(?:{_AFTER_NEXT})\b", around):
            ahead = ahead + 7 if ahead else 14
        elif re.search(rf"\b(?:{_NEXT_WORDS})\b", around):
            # "next Tuesday" said on a Monday is the day after, said on a Tuesday a week on.
            ahead = ahead or 7
        elif re.search(r"\b(last|letzten|letzter|dernier|derniere|pasado)\b", around):
            ahead = ahead - 7 if ahead else -7
        return today + timedelta(days=ahead), 1, True
    return None, 1, False


_ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "last": -1, "erste": 1, "ersten": 1, "erster": 1, "zweite": 2, "zweiten": 2, "dritte": 3,
    "dritten": 3, "vierte": 4, "vierten": 4, "letzte": -1, "letzten": -1, "letzter": -1,
    "premier": 1, "premiere": 1, "1er": 1, "deuxieme": 2, "seconde": 2, "troisieme": 3,
    "quatrieme": 4, "dernier": -1, "derniere": -1, "primer": 1, "primero": 1, "segundo": 2,
    "tercer": 3, "tercero": 3, "cuarto": 4, "ultimo": -1,
}  # fmt: skip
_DAY_NAMES = "|".join(sorted(_WEEKDAY_WORDS, key=len, reverse=True))
# The weekdays' and the parts of the day's names (folded, one word each): "donnerstag",
# "nachmittag", "apres-midi" (for patterns elsewhere that let a day be said in between).
DAY_AND_PART_NAMES = "|".join(
    sorted({*_WEEKDAY_WORDS, *(p for p in _PARTS if " " not in p)}, key=len, reverse=True)
)
# The time or day a new one replaces, named after it (folded): "at 11 instead of 3pm", "um 11
# statt um 15 Uhr", "à 11h au lieu de 15h", "el lunes en vez del viernes".
_INSTEAD_OF = re.compile(
    r"\b(?:instead of|rather than|statt|anstatt|anstelle von|au lieu d[eu]|en (?:vez|lugar) del?)"
    r"\s+(?:(?:um|at|a las|a la|a|l'|el|del|am|le|du|on|the)\s*)?"
    rf"(?:\d{{1,2}}(?:[:.h]\d{{2}})?\s*(?:uhr|h|am|pm|o'clock)?|(?:{_DAY_NAMES})s?)(?!\w)"
)
_NTH = re.compile(rf"\b({'|'.join(sorted(_ORDINALS, key=len, reverse=True))})\s+({_DAY_NAMES})s?\b")
# "next month" in the four languages (folded), and a month said without naming it.
_NEXT_MONTH = re.compile(
    r"\b(?:next month|(?:nachsten|kommenden) monats?|mois prochain|prochain mois|"
    r"mes que viene|proximo mes|mes proximo|siguiente mes|mes siguiente)\b"
)
_A_MONTH = re.compile(r"\b(?:month|monats?|mois|mes)\b")
_FULL_MONTHS = "|".join(sorted((n for n in _MONTHS if len(n) >= 4 or n in ("may", "mai")),
                               key=len, reverse=True))  # fmt: skip


def _month_said(text: str, today: date) -> tuple[int, int, bool] | None:
    """The month `text` opens with (after "of", "im", "du", "del"…): (year, month, named),
    `named` False for "the month" said without naming one; None if it names none."""
    head = text[:28]
    if _NEXT_MONTH.search(head):
        month = today.month % 12 + 1
        return today.year + (month == 1), month, True
    if named := re.search(rf"\b({_FULL_MONTHS})\b", head):
        # this year's, unless it ended over a month ago ("fin avril" said in May: April's)
        month = _MONTHS[named.group(1)]
        return today.year + (month < today.month - 1), month, True
    if _A_MONTH.search(head):
        return today.year, today.month, False
    return None


def _nth_weekday(text: str, today: date) -> date | None:
    """ "The first Monday of next month", "am letzten Freitag im Monat", "le dernier vendredi
    de juin", "el primer lunes del mes que viene"; None without a month after the weekday."""
    found = _NTH.search(text)
    if found is None or (month := _month_said(text[found.end() :], today)) is None:
        return None
    nth, weekday = _ORDINALS[found.group(1)], _WEEKDAY_WORDS[found.group(2)]
    year, number, named = month
    day = _weekday_of_month(year, number, weekday, nth)
    if day is not None and day < today and not named:  # "the first Monday of the month"
        following = number % 12 + 1
        day = _weekday_of_month(year + (following == 1), following, weekday, nth)
    return day


def _weekday_of_month(year: int, month: int, weekday: int, nth: int) -> date | None:
    if nth < 0:
        last = date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    first = date(year, month, 1)
    day = first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
    return day if day.month == month else None


_MONTH_END = re.compile(
    r"\b(?:(?:the\s+)?end of|ende|fin|finales|final|a fin|a finales)\s+(?:de\s+la\s+|de\s+|des\s+|"
    r"du\s+|del\s+|of\s+)?(?:the\s+|this\s+|dieses\s+|ce\s+|este\s+)?(?P<rest>.{0,20})"
    r"|\bmonatsende\b"
)


def _month_end(text: str, today: date) -> date | None:
    """The last day of the month named: "by the end of the month", "bis Ende des Monats", "à la
    fin du mois prochain", "a finales de mes", "end of June"."""
    found = _MONTH_END.search(text)
    if found is None:
        return None
    month = _month_said(found.group("rest") or "month", today)
    if month is None:
        return None
    year, number, _ = month
    return date(year + (number == 12), number % 12 + 1, 1) - timedelta(days=1)


# A day, then weeks on from it: "a week from Friday", "two weeks from Monday", "a week on
# Friday", "Friday week", "Freitag in einer Woche", "morgen in acht Tagen", "vendredi en huit",
# "de hoy en ocho días".
_COUNT_WEEKS = {"a": 1, "one": 1, "1": 1, "two": 2, "2": 2, "three": 3, "3": 3}
_FROM_A_DAY = (
    rf"{_DAY_NAMES}|now|today|tomorrow|heute|morgen|ubermorgen|aujourd'hui|demain|hoy|manana"
)
_WEEKS_ON = (
    (re.compile(rf"\b(a|one|two|three|[123])\s+weeks?\s+(?:from|on|after)\s+({_FROM_A_DAY})\b"),
     lambda m: (m.group(2), 7 * _COUNT_WEEKS[m.group(1)])),
    (re.compile(rf"\b({_DAY_NAMES})\s+week\b"), lambda m: (m.group(1), 7)),
    (re.compile(rf"\b({_FROM_A_DAY})\s+in\s+(einer|zwei|1|2)\s+wochen?\b"),
     lambda m: (m.group(1), 7 if m.group(2) in ("einer", "1") else 14)),
    (re.compile(rf"\b({_FROM_A_DAY})\s+in\s+(acht|vierzehn|8|14)\s+tagen\b"),
     lambda m: (m.group(1), 7 if m.group(2) in ("acht", "8") else 14)),
    (re.compile(rf"\b({_FROM_A_DAY})\s+en\s+(huit|quinze)\b"),
     lambda m: (m.group(1), 7 if m.group(2) == "huit" else 14)),
    (re.compile(rf"\b({_FROM_A_DAY})\s+en\s+(ocho|quince|8|15)\s+dias\b"),
     lambda m: (m.group(1), 7 if m.group(2) in ("ocho", "8") else 14)),
)  # fmt: skip


def _weeks_on(text: str, today: date) -> date | None:
    for pattern, read in _WEEKS_ON:
        if (found := pattern.search(text)) is None:
            continue
        base, days = read(found)
        first = today if base == "now" else _read_day(f" {base} ", today)[0]
        if first is not None:
            return first + timedelta(days=days)
    return None


def _read_week(text: str, today: date) -> tuple[date, int, bool] | None:
    monday = today - timedelta(days=today.weekday())
    weekend = re.search(r"\b(weekend|wochenende|week-end|fin de semana|finde)\b", text)
    week = re.search(r"\b(week|woche|semaine|semana)\b", text)
    if not weekend and not week:
        return None
    shift = 0
    if re.search(rf"\b(?:{_AFTER_NEXT})\b", text):
        shift = 14
    elif re.search(rf"\b(?:{_NEXT_WORDS})\b", text):
        shift = 7
    elif re.search(r"\b(last|letzte|letzten|derniere|pasada)\b", text):
        shift = -7
    if weekend:
        saturday = monday + timedelta(days=5 + shift)
        if shift == 0 and today > saturday + timedelta(days=1):
            saturday += timedelta(days=7)
        return saturday, 2, True
    if re.search(
        r"\b(in|dans|en)\s+(\d+|a|one|two|zwei|deux|dos)\s+(weeks?|wochen|semaines|semanas)\b", text
    ):
        return None  # "in two weeks": handled as days ("pencil in a coffee … next week": not)
    start = monday + timedelta(days=shift)
    named = {d for n, d in _WEEKDAY_WORDS.items() if re.search(rf"\b{n}s?\b", text)}
    if len(named) == 1:  # "Friday next week", "vendredi de la semaine prochaine": that day
        return start + timedelta(days=named.pop()), 1, True
    if shift == 0:  # "this week": from today on
        return today, 7 - today.weekday(), True
    return start, 7, True


# Two days of one month and the days between ("12-13 June", "12 to 13 June", "du 12 au 13
# juin", "vom 12. bis 13. Juni", "del 12 al 13 de junio"), folded; a week or two at most.
_LONGEST_STRETCH = 15
_MONTH_WORDS = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY_RANGE = re.compile(
    r"\b(\d{1,2})\.?\s*(?:-|–|to|until|till|bis|au|al|a)\s*(\d{1,2})(?:st|nd|rd|th|er|\.)?\s*"
    rf"(?:de\s+|of\s+)?({_MONTH_WORDS})\.?\b"
)


def _read_date(text: str, today: date) -> date | None:
    """A day of the month: "20 May", "May 20th", "20. Mai", "le 20 mai", "20 de mayo",
    "20.5.", "20/05", "2029-05-20", "the 20th" (this month, or the next if it is past)."""
    iso = re.search(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", text)
    if iso:
        return _safe_date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
    months = "|".join(sorted(_MONTHS, key=len, reverse=True))
    match = re.search(
        rf"\b(\d{{1,2}})(?:st|nd|rd|th|er|\.|º)?\s*(?:de\s+|of\s+)?({months})\.?\b", text
    ) or re.search(rf"\b({months})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", text)
    if match:
        first, second = match.group(1), match.group(2)
        day_text, month_name = (first, second) if first.isdigit() else (second, first)
        return _next_date(today, _MONTHS[month_name], int(day_text))
    numeric = re.search(r"\b(\d{1,2})[./](\d{1,2})(?:[./](\d{2,4}))?\b(?!:)", text)
    after = text[numeric.end() : numeric.end() + 4] if numeric else ""
    if numeric and not re.search(r"\d[.:]\d{2}\s*(uhr|h|am|pm)", numeric.group(0) + after):
        day_number, month = int(numeric.group(1)), int(numeric.group(2))
        if numeric.group(3):
            year = int(numeric.group(3))
            return _safe_date(year + 2000 if year < 100 else year, month, day_number)
        if 1 <= month <= 12 and ("." in numeric.group(0) or "/" in numeric.group(0)):
            return _next_date(today, month, day_number)
    if (beside := _beside_a_weekday(text, today)) is not None:
        return beside
    ordinal = re.search(
        r"\b(?:the\s+|on\s+the\s+|le\s+|el\s+(?:dia\s+)?|am\s+)(\d{1,2})(st|nd|rd|th|er|\.)?"
        r"(?!\s*-?\s*(?:uhr|h\b|:|am\b|pm\b|minutes|min|hours?|stunden?|horas?))\b",
        text,
    )
    if ordinal and (
        ordinal.group(2) or re.search(r"\b(the|le|el)\s+(?:dia\s+)?\d", ordinal.group(0))
    ):
        number = int(ordinal.group(1))
        candidate = _safe_date(today.year, today.month, number)
        if candidate is not None and candidate >= today:
            return candidate
        month = today.month % 12 + 1
        return _safe_date(today.year + (month == 1), month, number)
    return None


_A_WEEKDAYS_DAY = re.compile(
    rf"\b({'|'.join(sorted(_WEEKDAY_WORDS, key=len, reverse=True))})\b\s*,?\s*"
    r"(?:den\s+|the\s+|le\s+|el\s+)?(\d{1,2})(?:st|nd|rd|th|er|\.)?"
    r"(?!\d|\s*(?:uhr|h\b|:|am\b|pm\b|min|hours?|minutes?|stunden?|heures?|horas?))"
)


def _beside_a_weekday(text: str, today: date) -> date | None:
    """The day a number beside a weekday names ("el viernes 25", "Freitag, den 25.",
    "vendredi 25"): the next such day of the month that is that weekday; None when neither
    this month's nor the next month's is (the number is then a time: "Friday 10")."""
    found = _A_WEEKDAYS_DAY.search(text)
    if found is None:
        return None
    number = int(found.group(2))
    month_after = today.month % 12 + 1
    for candidate in (
        _safe_date(today.year, today.month, number),
        _safe_date(today.year + (month_after == 1), month_after, number),
    ):
        if candidate is not None and candidate >= today:
            return candidate if candidate.weekday() == _WEEKDAY_WORDS[found.group(1)] else None
    return None


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _next_date(today: date, month: int, day: int) -> date | None:
    """That day of that month, this year or, if it is long past, next year."""
    candidate = _safe_date(today.year, month, day)
    if candidate is not None and candidate < today - timedelta(days=60):
        candidate = _safe_date(today.year + 1, month, day)
    return candidate


_CLOCK = re.compile(
    r"(?<![\d.:/])(\d{1,2})(?:(?::|\.|h)(\d{2}))?\s*"
    r"(a\.?m\.?|p\.?m\.?|uhr|h(?![a-z])|heures?|hrs?|o'?clock)?(?![\d./]|:\d|\s*(?:min|minutes|hours|days|tage|jours|dias|st\b|nd\b|rd\b|th\b))"
    # a length, not a clock time ("a 2 hour block", "a 2-hour call", "2 Stunden", "2 horas")
    r"(?!\s*-?\s*(?:hours?|hrs?|stunden?|horas?)\b)"
)  # fmt: skip
_TIME_CUES = re.compile(
    r"\b(at|um|a|à|las|la|vers|gegen|from|von|de|ab|until|till|to|bis|jusqu'a|hasta|"
    r"between|zwischen|entre|and|und|et|y|-|–)\s*$"
)
# Words of a rough time ("around 3", "hacia las 4", "etwa um 5"): a number after them is an
# hour only where nothing follows it but the sentence's end or the part of the day ("about 3
# people" is no time).
_ROUGHLY = re.compile(r"\b(around|about|circa|ca\.|etwa|environ|hacia|sobre)\s*$")
_NOTHING_AFTER = re.compile(r"\s*(?:$|[,.;:!?)]|(?:and|or|und|oder|et|ou|y|o)\b)")


# Clock times in words (folded), as people say them: "half past five", "half five",
# "quarter to six", "halb sechs", "Viertel nach fünf", "cinq heures et demie", "six heures
# moins le quart", "las cinco y media", "a las cinco", "um fünf". Written as digits before
# the clock is read; "at five" is then "at 5", read as the afternoon like "at 5".
_HOUR_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "sechs": 6, "sieben": 7, "acht": 8,
    "neun": 9, "zehn": 10, "elf": 11, "zwolf": 12,
    "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8,
    "neuf": 9, "dix": 10, "onze": 11, "douze": 12,
    "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
    "nueve": 9, "diez": 10, "once": 11, "doce": 12,
}  # fmt: skip
_HOUR = "|".join(sorted(_HOUR_WORDS, key=len, reverse=True))
# The Spanish words before an hour with no "las" ("de ocho y media a diez y media"), kept in
# the text: they say where a range starts and ends.
_ES_CUE = r"(?:(?<=\bde )|(?<=\ba )|(?<=\bdesde )|(?<=\bhasta )|(?<=\bsobre )|(?<=\bentre ))"
# (pattern, minutes past the hour named, hours to take off the hour named)
# (or in digits: "a las 9 y media", "halb 9", "9 heures et quart")
_WORDED: tuple[tuple[re.Pattern[str], int, int], ...] = tuple(
    (re.compile(pattern.replace(f"({_HOUR})", rf"(\d{{1,2}}|{_HOUR})")), minutes, back)
    for pattern, minutes, back in (
        (rf"\bhalf past ({_HOUR})\b", 30, 0),
        (rf"\bquarter past ({_HOUR})\b", 15, 0),
        (rf"\bquarter to ({_HOUR})\b", 45, 1),
        (rf"\bhalf ({_HOUR})\b", 30, 0),  # British: "half five" is 5:30
        (rf"\b({_HOUR}) thirty\b", 30, 0),
        (rf"\bhalb ({_HOUR})\b", 30, 1),  # "halb sechs" is 5:30
        (rf"\bviertel nach ({_HOUR})\b", 15, 0),
        (rf"\bviertel vor ({_HOUR})\b", 45, 1),
        (rf"\b({_HOUR}) heures? et demie\b", 30, 0),
        (rf"\b({_HOUR}) heures? et quart\b", 15, 0),
        (rf"\b({_HOUR}) heures? moins le quart\b", 45, 1),
        (rf"(?:\bla[s]? |{_ES_CUE})({_HOUR}) y media\b", 30, 0),
        (rf"(?:\bla[s]? |{_ES_CUE})({_HOUR}) y cuarto\b", 15, 0),
        (rf"(?:\bla[s]? |{_ES_CUE})({_HOUR}) menos cuarto\b", 45, 1),
    )
)
# After "at five", "um fünf", "a las cinco": the end, or a word that goes on about the time
# ("at five tomorrow", "a las cinco de la tarde"); "at two locations" names no time.
_A_CLOCK_ENDS = (
    r"(?=\s*(?:$|[,.;:!?)]|(?:today|tonight|tomorrow|on|in|this|next|and|or|for|with|to|"
    r"until|instead|please|pm|am|sharp|heute|morgen|abends|morgens|nachmittags|am|und|oder|"
    r"bis|bitte|stattdessen|ce|demain|et|ou|jusqu|plutot|hoy|manana|de|del|el|y|o|hasta|"
    r"por|mejor)\b))"
)
_WORDED_HOUR = re.compile(
    rf"\b(at|um|(?:a|hasta|desde|sobre|de|para) las?)\s+({_HOUR})\b{_A_CLOCK_ENDS}"
    rf"|\b({_HOUR})\s+(o'?clock|uhr)\b"
    # "à cinq heures", not "deux heures" of a length ("Bloque deux heures jeudi")
    rf"|\b(a|vers|avant|apres|jusqu'a|des)\s+({_HOUR})\s+(heures?)\b"
)
_MORNING = re.compile(r"\b(?:morning|morgens|vormittags|fruh|matin|manana)\b")
# A part of the day right after an hour, which says which half of the day it is in ("7 in the
# morning", "3 in the afternoon", "10 at night", "sechs abends", "7 heures du matin", "las 3
# de la tarde"), folded.
_PART_AFTER = re.compile(
    r"\s*(?:(?:in the |at )(morning|afternoon|evening|night)|"
    r"(morgens|vormittags|fruh|nachmittags|abends|nachts)|"
    r"(?:du |de l'|de la )(matin|apres-midi|soir|manana|tarde|noche))\b"
)
_HOUR_BEFORE_PART = re.compile(rf"\b({_HOUR})(?={_PART_AFTER.pattern})")


def in_digits(text: str) -> str:
    """`text` with the clock times it says in words written in digits ("half five": "5:30",
    with "pm" when the hour is 1 to 7 and no morning is said, as "at 5" is read)."""
    afternoon = not _MORNING.search(text)
    for pattern, minutes, back in _WORDED:

        def digits(match: re.Match[str], minutes: int = minutes, back: int = back) -> str:
            named = match.group(1)
            said = int(named) if named.isdigit() else _HOUR_WORDS[named]
            hour = (said - back - 1) % 12 + 1
            return f"{hour}:{minutes:02d}{'pm' if afternoon and 1 <= hour <= 7 else ''}"

        text = pattern.sub(digits, text)
    text = _WORDED_HOUR.sub(_hour_in_digits, text)
    # "sechs abends", "three in the afternoon": the part of the day makes it a clock time
    return _HOUR_BEFORE_PART.sub(lambda m: str(_HOUR_WORDS[m.group(1)]), text)


def _hour_in_digits(match: re.Match[str]) -> str:
    """One hour said in words as digits, with the words around it ("um fünf": "um 5")."""
    cue, hour, before, after = match.group(1, 2, 3, 4)
    if hour:
        return f"{cue} {_HOUR_WORDS[hour]}"
    if before:
        return f"{_HOUR_WORDS[before]} {after}"
    return f"{match.group(5)} {_HOUR_WORDS[match.group(6)]} {match.group(7)}"


# A stretch of time kept for something (folded): "block", "slot", "créneau", "bloque".
_A_BLOCK = r"blocks?|slots?|chunks?|zeitblock|zeitfenster|block|creneau|plage|bloque|hueco"
# What says a length follows (folded): "un créneau de 2h", "a block of 2h", "pendant 2
# heures", "für 2h", "durante 2 horas"; not "de 2h à 4h", a time from and to.
_A_LENGTH_BEFORE = re.compile(
    rf"\b(?:{_A_BLOCK}|bloc|pause|session|seance|sesion|rato)\s+(?:de|d'|von|of)\s*$"
    r"|\b(?:pendant|durant|durante|fur|during)\s*$"
)
# Before or after something, right after an amount (folded): "2h avant le dentiste".
_BEFORE_OR_AFTER_IT = re.compile(
    r"\s*(?:before|after|earlier|later|beforehand|avant|apres|plus tot|plus tard|vor|vorher|"
    r"nach|nachher|davor|danach|fruher|spater|antes|despues|mas tarde)\b"
)
_RANGE_AFTER = re.compile(r"\s*(?:a|-|–|bis|to|hasta|jusqu'a)\s*\d")


def _read_times(text: str, morning: bool = False) -> tuple[time | None, time | None]:
    """The first clock time in `text`, and an end time after "to"/"until"/"-" if given;
    `morning`: the text names the morning, so a bare hour is not guessed afternoon."""
    found: list[tuple[time, int, int]] = []
    guessed: list[bool] = []  # the hour made afternoon by "nobody means three at night"
    mornings: list[bool] = []  # said "am"
    evenings: list[bool] = []  # said with nothing of the half of the day: may be the evening
    afternoons: list[bool] = []
    for match in _CLOCK.finditer(text):
        hour, minute = int(match.group(1)), int(match.group(2) or 0)
        suffix = (match.group(3) or "").replace(".", "")
        before = text[: match.start()]
        part = _PART_AFTER.match(text, match.end())
        cued = (
            suffix
            or match.group(2)
            or _TIME_CUES.search(before[-9:])
            or part
            or (_ROUGHLY.search(before[-9:]) and _NOTHING_AFTER.match(text, match.end()))
        )
        if not cued or hour > 24 or minute > 59:
            continue
        if re.search(r"\b(in|dans|en|within)\s*$", before[-6:]):
            continue  # "in 2 hours" is not two o'clock
        if (
            _A_LENGTH_BEFORE.search(before[-16:])
            and not suffix.startswith(("a", "p"))
            and not _RANGE_AFTER.match(text, match.end())
        ):
            continue  # "un créneau de 2h", "pendant 2 heures": how long, not two o'clock
        if (
            _BEFORE_OR_AFTER_IT.match(text, match.end())
            and not suffix.startswith(("a", "p", "u", "o"))
            and not _TIME_CUES.search(before[-9:])
        ):
            continue  # "2h avant le dentiste", "2h vorher": an amount before, not two o'clock
        if part is not None and not suffix.startswith(("a", "p")) and hour <= 12:
            # "7 in the morning", "3 in the afternoon", "10 at night", "sechs abends"
            said = part.group(part.lastindex or 0)
            later = not _MORNING.match(said) and (hour >= 6 or said not in ("night", "nachts"))
            suffix = "pm" if later else "am"
        if suffix.startswith("p") and hour < 12:
            hour += 12
        elif suffix.startswith("a") and hour == 12:
            hour = 0
        guess = not suffix and not match.group(2) and 1 <= hour <= 7 and not morning
        if guess:
            hour += 12  # "at 3": nobody means three in the morning
        found.append((time(hour % 24, minute), match.start(), match.end()))
        guessed.append(guess)
        mornings.append(suffix.startswith("a"))
        evenings.append(not suffix and part is None and hour < 12)
        afternoons.append(suffix.startswith("p"))  # "pm", or a later part of the day after it
    for word, hour in (("noon", 12), ("midday", 12), ("mittag", 12), ("midi", 12),
                       ("mediodia", 12), ("midnight", 0)):  # fmt: skip
        if not found and re.search(rf"\b(at|um|a|à)\s+{word}\b", text):
            found.append((time(hour), 0, 0))
    if not found:
        return None, None
    start = found[0][0]
    end = None
    if len(found) > 1:
        between = text[found[0][2] : found[1][1]]
        if (
            re.search(r"(-|–|to|until|till|bis|a|à|jusqu|hasta|y|and|und|et)\s*", between)
            and len(between) < 12
        ):
            end = found[1][0]
            if guessed[0] and mornings[1] and start.hour - 12 <= end.hour:
                start = time(start.hour - 12, start.minute)  # "from 7 to 8 am": both morning
            elif evenings[0] and afternoons[1] and start.hour + 12 <= end.hour:
                # "de 8:30 a 10:30 de la noche": the evening at its end holds for both
                start = time(start.hour + 12, start.minute)
            if end.hour < start.hour and end.hour + 12 < 24 and found[1][0] != time(0):
                end = time(end.hour + 12, end.minute)
    return start, end


def is_part_of_day(word: str) -> bool:
    """Whether `word` is a part of the day ("noche", "abends"); "lunch" names an event too."""
    folded = fold(word)
    return folded in _PARTS and folded not in ("lunch", "lunchtime")


def without_parts_of_day(text: str) -> str:
    """`text` without the parts of the day it names ("el sábado por la mañana que tengo …":
    "el sábado que tengo …")."""
    words = text.split()
    folded = [fold(w).strip(".,;:!?¿¡") for w in words]
    phrases = sorted((p.split() for p in _PARTS), key=len, reverse=True)
    kept: list[str] = []
    i = 0
    while i < len(words):
        length = next((len(p) for p in phrases if folded[i : i + len(p)] == p), 0)
        if length:
            i += length
            continue
        kept.append(words[i])
        i += 1
    return " ".join(kept)


def _read_part(text: str) -> tuple[int, int] | None:
    for phrase, hours in sorted(_PARTS.items(), key=lambda p: -len(p[0])):
        if re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text):
            if phrase == "tarde" and re.search(r"\b(mas tarde|llego tarde)\b", text):
                continue
            return hours
    return None


_MINUTE_UNITS = r"minut\w*|mins?|m\b"
_HOUR_UNITS = r"hours?|hrs?|h\b|stund\w*|std|heures?|horas?"


# A length said before what it is for, opening a new event's title (folded): "2 hour block
# to write the report", "30-minute slot for the call", "un créneau de 2h pour le rapport",
# "zwei Stunden für den Bericht", "un bloque de 2 horas para el informe".
_LENGTH = rf"(?:{_NUMBER})[\s-]*(?:{_HOUR_UNITS}|{_MINUTE_UNITS})\w*|half an hour|(?:an|one) hour"
_LENGTH_FIRST = re.compile(
    rf"^(?:(?:a|an|ein\w*|un|une|una)\s+)?"
    rf"(?:(?:{_LENGTH})(?:\s+(?:{_A_BLOCK}))?|(?:{_A_BLOCK})\s+(?:de|von|of)\s+(?:{_LENGTH}))"
    r"\s*(?:to|for|fur|zum|zur|um|pour|para|:|-)\s+(?=\S)"
)


def without_a_length(title: str) -> str:
    """A new event's title without the length said before what it is for ("2 hour block to
    write the report": "write the report"); the title itself if it opens with none, or is
    nothing else."""
    found = _LENGTH_FIRST.match(fold(title))
    if found is None or len(fold(title)) != len(title):
        return title
    return title[found.end() :]


# Words before a clock time written "9h" (folded): "entre 9h et 17h", "à 10h", "vers 8h".
_CLOCK_BEFORE = re.compile(
    r"\b(?:entre|et|a|vers|jusqu'a|des|avant|apres|um|ab|bis|von|at|from|until|to|and|hasta|"
    r"desde|las|y)\s*$"
)


# A word of how between a number and its unit ("two quiet hours", "deux bonnes heures",
# "zwei ruhige Stunden", "dos buenas horas"), folded.
_HOW_LONG = (
    r"(?:good|solid|full|quiet|whole|clear|long|short|free|bonnes?|bons?|longues?|petites?|"
    r"grandes?|pleines?|gute|guten|volle|vollen|ganze|ganzen|ruhige|ruhigen|freie|freien|"
    r"buenas?|largas?|tranquilas?|enteras?|libres?)"
)


def read_duration(phrase: str) -> timedelta | None:
    """How long: "30 minutes", "an hour", "1.5 hours", "90 min", "half an hour", "2h", "a
    30-minute call", "eine Stunde", "une demi-heure", "media hora", "an hour and a half".
    Whole words only: "Sam" is not "a" minute."""
    text = fold(phrase)
    if re.search(r"\b(half an hour|halbe stunde|demi-heure|demi heure|media hora)\b", text):
        return timedelta(minutes=30)
    total = timedelta()
    for match in re.finditer(
        rf"\b({_NUMBER})[\s-]*(?:{_HOW_LONG}\s+)?({_HOUR_UNITS}|{_MINUTE_UNITS})\b", text
    ):
        amount = _number(match.group(1))
        unit = match.group(2)
        if amount is None or (len(unit) == 1 and not match.group(1)[0].isdigit()):
            continue  # "am" is not "a" minute; "2h" is two hours
        if unit == "h" and (_CLOCK_BEFORE.search(text[: match.start()]) or amount > 12):
            continue  # "entre 9h et 17h", "à 9h", "14h": clock times, not hours long
        if re.fullmatch(_HOUR_UNITS, unit):
            total += timedelta(hours=amount)
        else:
            total += timedelta(minutes=amount)
    # ("ne Stunde", "'ne Stunde": spoken German's "eine")
    if not total and re.search(r"\b(an hour|one hour|(?:ei)?ne stunde|une heure|una hora)\b", text):
        total = timedelta(hours=1)
    # "necesito hora y media" (no "una"): an hour, and its half below (a clock time says
    # "las")
    if not total and re.search(r"(?<!\blas )(?<!\bla )\bhora y media\b", text):
        total = timedelta(hours=1)
    # the half of a length right after its hours ("una hora y media"), not a clock time's
    # ("a las cuatro y media …, y ponle una hora": one hour)
    if total and re.search(
        rf"\b(?:{_HOUR_UNITS})\s+(?:and a half|und eine halbe|et demie|y media)\b", text
    ):
        total += timedelta(minutes=30)
    return total or None


_LATER = re.compile(
    r"\b(later|back|push|pushed|delay|postpone|forward by|spater|nach hinten|verschieb\w* um|"
    r"plus tard|retard|decal\w* de|mas tarde|retras\w*|atras)\b"
)
# (not "vor dem Meeting", "antes de la reunión": before something, `read_relative`)
_EARLIER = re.compile(
    r"\b(earlier|sooner|bring forward|move up|pull forward|fruher|vorziehen|vorverleg\w*|"
    r"nach vorne|plus tot|avanc\w*|antes(?!\s+de)|adelant\w*)\b"
)


# A verb of moving with the amount after "by" and no direction: later, as people mean it
# ("Décale le cours de piano de ce soir d'une heure", "Verschieb den Zahnarzt um eine Stunde").
# (folded; `language.asks_to_move` adds the verbs of moving to a time)
MOVING_VERBS = r"move|shift|push|shove|bump|verschieb\w*|schieb\w*|decal\w*|deplace\w*"
_SHIFTING = re.compile(rf"\b(?:{MOVING_VERBS})\b")
_BY_AMOUNT = re.compile(
    r"(?:\bby|\bum|\bde|\bd')\s*(?:an?|one|two|three|half|eine[nrm]?|zwei|drei|halbe\w*|"
    r"une|deux|trois|demi\w*|quart|\d+)\b"
)


def read_shift(phrase: str) -> timedelta | None:
    """A move by an amount: "back by 30 minutes" (+30 min), "an hour earlier" (-1 h),
    "eine Stunde später", "avancer de 15 minutes", "retrasar media hora", "décale … d'une
    heure" (later); None when the phrase names no amount or no direction."""
    text = fold(phrase).replace("’", "'")
    amount = read_duration(text)
    if amount is None:
        return None
    if _EARLIER.search(text):
        return -amount
    if _LATER.search(text) or (_SHIFTING.search(text) and _BY_AMOUNT.search(text)):
        return amount
    return None


# An amount of time before or after something named, in the four languages (folded); or
# before or after what the sentences around name ("zwei Stunden vorher", "an hour before").
_BEFORE = re.compile(
    r"\b(before|beforehand|bevor|vorher|davor|zuvor|vor|avant|auparavant|antes de|antes del|"
    r"antes)\b"
)
_AFTER = re.compile(
    r"\b(after|afterwards|nach|nachher|danach|apres|despues de|despues del|despues)\b"
)


def read_relative(phrase: str) -> tuple[timedelta, str] | None:
    """An amount before or after something the phrase names: "30 minutes before the water is
    turned off" (-30 min, "the water is turned off"), "eine Stunde vor dem Zahnarzt", "une
    heure après le cours"; None when it names no amount or no before/after. What is named
    runs to the end of its clause."""
    text = fold(phrase)
    found = [m for m in (_BEFORE.search(text), _AFTER.search(text)) if m is not None]
    eve = _THE_DAY_BEFORE.search(text)
    if not found and eve is None:
        return None
    if eve is not None and (not found or eve.start() <= min(m.start() for m in found)):
        # "the evening before the pickup", "la veille du barbecue", "am Vortag"
        amount: timedelta | None = timedelta(days=1)
        match, after = eve, eve.end()
    else:
        match = min(found, key=lambda m: m.start())
        after = match.end()
        amount = read_duration(text[: match.start()]) or _days_said(text[: match.start()])
    named = _ITS_END.split(text[after:] + " ", maxsplit=1)[0]
    # a clock time said beside it is when on that day, not part of what is named ("the day
    # before the barbecue at 6pm", "am Tag davor um 8")
    named = _A_CLOCK_SAID.sub(" ", named)
    if amount is None or named.strip() in _RELATIVE_DAYS:
        return None  # ("the day after tomorrow" is a day of its own)
    if not named.split() or named.split()[0] in _JOINING_A_CLAUSE:
        # nothing named ("zwei Stunden vorher, dass ich …"): what the sentences around
        # name, as a pronoun says it ("two hours before it")
        named = "it"
    return (amount if match.re is _AFTER else -amount), " ".join(named.split())


def read_anchored(phrase: str) -> tuple[timedelta, str] | None:
    """`read_relative`'s amount before or after something, or a day pointed back at ("ponme un
    recordatorio esa mañana a las 9": no amount, of what the sentences before name, the
    parcel, as a pronoun says it); None if neither."""
    if (relative := read_relative(phrase)) is not None:
        return relative
    return (timedelta(0), "it") if _THAT_DAY.search(fold(phrase)) else None


# A to-do due before or by a thing, not a day ("before the barbecue", "vor dem Grillfest",
# "bis zum Umzug", "avant la fête", "d'ici la réunion", "antes de la boda", "para la cena"),
# folded; "by" only before "the" ("reply to the email by Anna" names the sender).
_DUE_BY = re.compile(
    r"\b(?:before|ahead of|by(?= the\b)|vor(?= (?:dem|der|den)\b)|vorm|bis(?: zum| zur)|"
    r"avant(?: le| la| les| l')?|d'ici(?: le| la| l')|jusqu'(?:au|a la|a l')|"
    r"antes de(?:l| la| las| los)?|para(?: el| la)|hasta(?: el| la))(?!\w)"
)


def read_deadline(phrase: str, now: datetime) -> str | None:
    """What a to-do is due before or by when that is a thing, not a day ("add buy charcoal,
    before the barbecue": "the barbecue"); None when it names a day ("before Friday"), an
    amount before it (`read_relative`'s), or nothing."""
    text = fold(phrase)
    found = _DUE_BY.search(text)
    if found is None or read_duration(text[: found.start()]) or _days_said(text[: found.start()]):
        return None
    named = _ITS_END.split(text[found.end() :] + " ", maxsplit=1)[0].strip()
    named = " ".join(_A_CLOCK_SAID.sub(" ", named).split())
    if not named or named.split()[0] in _JOINING_A_CLAUSE:
        return None
    said = read_when(named, now)
    return None if said is not None and said.day_given else named


# Where what is named ends: its clause's end, "so that", "that", or what to do after it: "to"
# before a verb (not before "the", "my"…: "the trip to my parents"), French "de"/"d'" and
# Spanish "de" before an infinitive ("la veille du rendez-vous de préparer ma carte",
# "antes de la cena de llamar"), folded.
_ITS_END = re.compile(
    r"[,.;!?]| so | damit | pour | para | that | dass | que | daran\b| dran\b"
    r"| to (?!(?:the|a|an|my|your|his|her|our|their|this|that|me|us|him|them)\b)"
    r"| de (?=\w+(?:er|ir|re|ar)\b)| d'(?=\w+(?:er|ir|re)\b)"
)


# The day before something, in words that say so without an amount ("the evening before",
# "the night before", "la veille", "am Vortag", "am Abend davor", "el día anterior", "la
# noche antes"), folded.
_THE_DAY_BEFORE = re.compile(
    r"\b(?:the (?:evening|night|morning|afternoon|day) (?:before|prior to)|the eve of|"
    r"la veille(?: au soir)?(?: de| du| des)?|le soir (?:d'avant|precedent)|"
    r"am vor(?:tag|abend)|am (?:abend|tag|morgen) (?:davor|vorher|zuvor)|"
    r"(?:el dia|la noche|la tarde) (?:anterior|antes)(?: a| al| de| del)?)\b"
)


# A day said before, pointed back at, maybe with its part ("that morning", "the same day",
# "an dem Tag", "am selben Abend", "ce jour-là", "le jour même", "ese día", "esa mañana"),
# folded.
_THAT_DAY = re.compile(
    r"\b(?:(?:that|the same)(?: same)? (?:day|morning|afternoon|evening|night)|"
    r"(?:an|in) (?:dem|diesem|jenem) (?:tag|morgen|vormittag|nachmittag|abend)|"
    r"(?:am|an dem) (?:selben|gleichen) (?:tag|morgen|vormittag|nachmittag|abend)|"
    r"(?:ce|cette) (?:jour|matin|soir|midi|apres-midi|matinee|soiree|nuit)-la|"
    r"le jour meme|le meme jour|el mismo dia|"
    r"(?:ese|aquel)(?: mismo)? (?:dia|mediodia)|(?:esa|aquella)(?: misma)? (?:manana|tarde|noche))"
    r"(?![\w-])"
)


def without_the_day_before(text: str) -> str:
    """`text` less its "the day before", "am Vortag", "la veille", "el día anterior", and a
    day pointed back at ("esa mañana", "that day") (a reminder's time, not what it is of),
    the rest as written."""
    for pattern in (_THE_DAY_BEFORE, _THAT_DAY):
        words = text.split()
        joined = " ".join(fold(w) for w in words)
        found = pattern.search(joined)
        if found is not None:
            first, last = joined[: found.start()].count(" "), joined[: found.end()].count(" ") + 1
            text = " ".join(words[:first] + words[last:])
    return text


# A clock time and what says it ("at 6pm", "um 8", "à 20h", "a las 7"), folded.
_A_CLOCK_SAID = re.compile(
    r"\b(?:(?:at|um|vers|a las|a la|a)\s+\d{1,2}(?:[:.h]\d{2})?\s*(?:h|uhr|am|pm|heures?|horas?)?|"
    r"\d{1,2}(?:[:.h]\d{2}|\s*(?:h|uhr|am|pm|heures?|horas?)))(?!\w)"
)


def said_beside(phrase: str, named: str) -> str:
    """`phrase` (folded) without what an amount before or after names: the words that may
    say at what time of that day ("at 7pm the evening before the pickup": "at 7pm the
    evening before")."""
    text = fold(phrase)
    return text.replace(named, " ", 1) if named and named != "it" else text


# Words opening the clause after "before" that say what to be reminded of, not what it is
# before ("zwei Stunden vorher, dass ich …", "an hour before to …"), folded.
_JOINING_A_CLAUSE = {"dass", "that", "to", "que", "so", "damit", "pour", "para"}


# Days before or after something ("the day before the barbecue", "zwei Tage vor dem Umzug",
# "deux jours avant", "el día antes de la barbacoa"), said last before the "before".
_DAYS_SAID = re.compile(
    rf"\b(the|a|one|einen|am|le|la|un|el|{_NUMBER})\s+(days?|tage?n?|jours?|dias?|"
    # a part of the day before ("am Abend vor dem Konzert", "the morning before")
    r"evening|night|morning|afternoon|abend|morgen|vormittag|nachmittag|soir|matin|"
    r"noche|tarde|manana)\s*$"
)


def _days_said(text: str) -> timedelta | None:
    found = _DAYS_SAID.search(text.rstrip())
    if found is None:
        return None
    number = found.group(1)
    count = 1 if number in ("the", "am", "le", "la", "el") else _number(number)
    return timedelta(days=int(count)) if count else None


# Whole names only: a month's short forms collide with words ("mar", "ago", "dic").
# The months' names and short forms in the four languages (folded), for patterns elsewhere.
MONTH_NAMES = "|".join(sorted((n for n in _MONTHS if len(n) >= 4 or n in ("may", "mai")),
                               key=len, reverse=True))  # fmt: skip
_LAST_MONTH = re.compile(
    r"\b(?:last month|letzten monat|vorigen monat|vormonat|le mois dernier|"
    r"mois dernier|el mes pasado|mes pasado)\b"
)
_THIS_MONTH = re.compile(r"\b(?:this month|diesen monat|ce mois(?:-ci)?|este mes)\b")


def without_month(phrase: str) -> str:
    """`phrase` (folded) without the words that name a month ("in April 2029", "le mois
    dernier"): what is left says what was asked of that month."""
    text = _LAST_MONTH.sub(" ", _THIS_MONTH.sub(" ", fold(phrase)))
    return re.sub(rf"\b(?:{MONTH_NAMES})\b(?:\s+\d{{4}})?", " ", text)


def month_number(name: str) -> int:
    """The month a name or its short form says in any of the four languages ("juin",
    "März", "Sept": 6, 3, 9); 0 if none."""
    return _MONTHS.get(fold(name).strip("."), 0)


def months_named(phrase: str, now: datetime) -> list[str]:
    """Each calendar month a phrase names, in the order said ("did I spend more in april or
    march?": "2029-04", "2029-03"); read as `read_month` reads one."""
    text = " " + re.sub(r"\s+", " ", fold(phrase)).strip(" .,!?") + " "
    said = [
        (m.start(), month)
        for pattern in (
            _THIS_MONTH,
            _LAST_MONTH,
            re.compile(rf"\b(?:{MONTH_NAMES})\b(?:\s+\d{{4}})?"),
        )
        for m in pattern.finditer(text)
        if (month := read_month(m.group(0), now)) is not None
    ]
    return list(dict.fromkeys(month for _, month in sorted(said)))


def read_month(phrase: str, now: datetime) -> str | None:
    """The calendar month a phrase names, as "2029-04": a month's name (the latest such
    month up to now, unless a year is said), "last month" or "this month"; None if none.
    Questions about money are about months gone by: "April" said in May is this April."""
    text = " " + re.sub(r"\s+", " ", fold(phrase)).strip(" .,!?") + " "
    if _THIS_MONTH.search(text):
        return f"{now.year:04d}-{now.month:02d}"
    if _LAST_MONTH.search(text):
        year, month = (now.year, now.month - 1) if now.month > 1 else (now.year - 1, 12)
        return f"{year:04d}-{month:02d}"
    named = re.search(rf"\b({MONTH_NAMES})\b(?:\s+(\d{{4}}))?", text)
    if named is None:
        return None
    month = _MONTHS[named.group(1)]
    if named.group(2):
        return f"{int(named.group(2)):04d}-{month:02d}"
    year = now.year if month <= now.month else now.year - 1
    return f"{year:04d}-{month:02d}"
