"""Content detectors over tool-call arguments: money, health, government ids and secrets.

The policy gate uses these only to *raise* a decision (allow -> confirm), never to lower one:
a detector can always be fooled (base64 of base64, a number read out in French), so the
static tool labels stay the real boundary. What the detectors add is that an ordinary
write (a calendar note, a memory, a file) carrying a card number, an IBAN, a diagnosis or
a one-time code stops for the user, and that an "always allow" never covers such a call.

Everything here is deterministic and offline: the standard library, plus python-stdnum's
check-digit validators for national identity numbers (its own Luhn and IBAN checks are kept:
faster, and the IBAN table is wider). Every string, number
and dict key in the arguments is scanned, nested values included, and so is the
concatenation of all values (a card number split across two fields is still one number).
Each string is looked at as typed, after Unicode clean-up (NFKC, invisible characters
removed, non-ASCII digits mapped), percent/HTML-decoded, with base64 tokens decoded, and,
for card numbers, with spelled-out digits ("four one one one ...") turned into digits.

An excerpt never repeats a full number or secret: cards and accounts keep their last four
characters, ids their last two or three, passwords and codes none at all.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any
from urllib.parse import unquote_plus

from stdnum.de import idnr as stdnum_de_idnr
from stdnum.es import dni as stdnum_es_dni
from stdnum.es import nie as stdnum_es_nie
from stdnum.fr import nir as stdnum_fr_nir
from stdnum.it import codicefiscale as stdnum_it_codicefiscale
from stdnum.nl import bsn as stdnum_nl_bsn
from stdnum.se import personnummer as stdnum_se_personnummer

from app.agent.gate import bip39

__all__ = [
    "KINDS",
    "PRIVATE_DATA",
    "Finding",
    "decoded_views",
    "fold",
    "iban_valid",
    "luhn_valid",
    "normalise_text",
    "private_tokens",
    "scan",
    "shared_private_token",
    "ssn_valid",
]

PAYMENT_CARD = "payment_card"
IBAN = "iban"
MONEY = "money"
HEALTH = "health"
GOVERNMENT_ID = "government_id"
SECRET = "secret"
KINDS: tuple[str, ...] = (PAYMENT_CARD, IBAN, MONEY, HEALTH, GOVERNMENT_ID, SECRET)
# Not found by `scan`: the gate reports it when an outbound argument carries a distinctive
# token of what a private store said in the conversation (`shared_private_token`).
PRIVATE_DATA = "private_data"

JOINED_PATH = "<joined>"
_MAX_PAIRED_VALUES = 16
"""The path reported for a finding that only exists once all values are put together."""

_MAX_DEPTH = 64  # the gate refuses deeper arguments anyway; this only bounds recursion here
_MAX_B64_TOKENS = 32


@dataclass(frozen=True)
class Finding:
    """One detector hit: what kind, in which argument (e.g. `attendees[0].email`), and a
    redacted excerpt that is safe to show in a dialog or write to the audit log."""

    kind: str
    path: str
    excerpt: str


@dataclass(frozen=True)
class _Hit:
    kind: str
    key: str  # a hash of the normalised value, only used to drop duplicates
    excerpt: str


def _key(kind: str, value: str) -> str:
    """Hash the matched value so that even internal bookkeeping never holds the raw secret."""
    return kind + ":" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:24]


# --------------------------------------------------------------------------------------------
# Text clean-up


_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e0fff]"
)
_UNICODE_DIGIT = re.compile(r"\d")


def _ascii_digit(match: re.Match[str]) -> str:
    return str(unicodedata.decimal(match.group(), 0))


def normalise_text(text: str) -> str:
    """NFKC, drop invisible format characters, map every Unicode decimal digit to ASCII.

    Why: "４１１１", "4111\u200b1111" and Arabic-Indic digits all read as a card number to a
    human (and to the receiving end of an exfiltration), so they must to the detectors too.
    """
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    if not text.isascii():
        text = _UNICODE_DIGIT.sub(_ascii_digit, text)
    return text


_DATE_TIME = re.compile(
    r"(?<!\d)(?:19|20)\d\d([-/.])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])(?!\d)"
    r"|(?<!\d)(?:0?[1-9]|[12]\d|3[01])([-/.])(?:0?[1-9]|[12]\d|3[01])\2(?:19|20)?\d\d(?!\d)"
    r"|(?<!\d)(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?!\d)",
    re.ASCII,
)


def _mask_dates(text: str) -> str:
    """Blank out dates and times (same length) so "2024-05-01 2024-05-02" is no card number."""
    return _DATE_TIME.sub(lambda m: "#" * len(m.group()), text)


# A number not glued to other digits ("1234" but not the "34" of "12:34" or "1.234").
_NUMBER_BEFORE = r"(?<!\d)(?<!\d[.,:/\-])"
_NUMBER_AFTER = r"(?!\d|[.,:/\-]\d)"


# --------------------------------------------------------------------------------------------
# Checksums


def luhn_valid(digits: str) -> bool:
    """The Luhn mod-10 check every payment card number carries."""
    if not digits.isascii() or not digits.isdigit():
        return False
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if index % 2:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


# Lengths from the SWIFT IBAN registry, plus the "experimental" countries banks accept.
IBAN_LENGTHS: dict[str, int] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HN": 28, "HR": 21, "HU": 28,
    "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
    "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22,
    "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23,
    "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
    "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
    # French overseas territories use FR's format under their own code.
    "BL": 27, "GF": 27, "GP": 27, "MF": 27, "MQ": 27, "NC": 27, "PF": 27, "PM": 27, "RE": 27,
    "TF": 27, "WF": 27, "YT": 27,
    # Not in the registry but in use.
    "AO": 25, "BF": 28, "BJ": 28, "CF": 27, "CG": 27, "CI": 28, "CM": 27, "CV": 25, "DZ": 26,
    "GA": 27, "GQ": 27, "GW": 25, "IR": 26, "KM": 27, "MA": 28, "MG": 27, "ML": 28, "MZ": 25,
    "NE": 28, "SN": 28, "TD": 27, "TG": 28,
}  # fmt: skip

_IBAN_SHAPE = re.compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]+", re.ASCII)


def iban_valid(text: str) -> bool:
    """Country length and the ISO 13616 mod-97 check (spaces and case ignored)."""
    compact = re.sub(r"[^A-Za-z0-9]", "", text).upper()
    if not _IBAN_SHAPE.fullmatch(compact):
        return False
    if IBAN_LENGTHS.get(compact[:2]) != len(compact) or not 2 <= int(compact[2:4]) <= 98:
        return False  # check digits 00, 01 and 99 pass mod-97 but are never issued
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(char, 36)) for char in rearranged)) % 97 == 1


_SSN_NEVER_ISSUED = frozenset({"078051120", "219099999", "457555462"})


def ssn_valid(number: str) -> bool:
    """US SSN structure: area not 000/666/9xx, group not 00, serial not 0000, no famous fakes."""
    digits = re.sub(r"[\s\-.]", "", number)
    if len(digits) != 9 or not digits.isascii() or not digits.isdigit():
        return False
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
        return False
    return digits not in _SSN_NEVER_ISSUED


# --------------------------------------------------------------------------------------------
# Payment cards


# Digit groups joined by any separator that is not a letter or digit, up to three of them
# ("4111 1111", "4111-1111", "4111.1111", "4111/1111", "4111_1111", "4111 : 1111"). Dates and
# times are masked with "#" first, so a "#" run longer than three ends a number. "%" is left
# to the percent-decoded reading ("4111%201111" is 4111 1111 there, not 4111201111 here).
_SEPARATOR = r"(?:[^\w#%]|_)"
_CARD_RUN = re.compile(r"(?<!\d)\d(?:" + _SEPARATOR + r"{0,3}\d)+(?!\d)")
_CARD_RUN_SPELLED = re.compile(r"(?<!\d)\d(?:" + _SEPARATOR + r"{0,4}\d)+(?!\d)")
_GROUP_SPLIT = re.compile(r"\D+", re.ASCII)
_CARD_FIRST_DIGITS = frozenset("23456")  # Mastercard 2/5, Amex/JCB/Diners 3, Visa 4, Discover 6


def _card_number_ok(digits: str) -> bool:
    return (
        13 <= len(digits) <= 19
        and digits[0] in _CARD_FIRST_DIGITS
        and len(set(digits)) > 1
        and luhn_valid(digits)
    )


def _card_hits(text: str, pattern: re.Pattern[str], how: str = "") -> list[_Hit]:
    """Every Luhn-valid 13-19 digit window, on group boundaries, of each run of digits.

    Windows matter when a card is glued to another number ("call 555 1234 4111 1111 ...")
    or split across fields that are joined; groups keep the windows few.
    """
    hits: list[_Hit] = []
    for run in pattern.finditer(text):
        groups = [g for g in _GROUP_SPLIT.split(run.group()) if g]
        if sum(len(g) for g in groups) < 13:
            continue
        phone_prefix = text[run.start() - 1 : run.start()] == "+"
        index = 0
        while index < len(groups):
            total, found_end, found_digits = 0, -1, ""
            for end in range(index, len(groups)):
                total += len(groups[end])
                if total > 19:
                    break
                digits = "".join(groups[index : end + 1])
                if total >= 13 and _card_number_ok(digits):
                    if index == 0 and phone_prefix and total <= 15:
                        continue  # "+49 151 2345 6789" is an international phone number
                    found_end = end  # keep the longest valid window from this start
                    found_digits = digits
            if found_end >= 0:
                excerpt = f"card number{how} ending {found_digits[-4:]}"
                hits.append(_Hit(PAYMENT_CARD, _key(PAYMENT_CARD, found_digits), excerpt))
                index = found_end + 1
            else:
                index += 1
    return hits


# Digit words in the languages Hearth's models are used in: English, French, German,
# Spanish, Italian, Portuguese and Dutch (accents optional: "zero"/"zéro", "tres"/"três").
_DIGIT_WORDS = {
    # English
    "zero": "0", "oh": "0", "nought": "0", "nil": "0", "one": "1", "two": "2", "three": "3",
    "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
    # French
    "zéro": "0", "un": "1", "une": "1", "deux": "2", "trois": "3", "quatre": "4", "cinq": "5",
    "sept": "7", "huit": "8", "neuf": "9",
    # German
    "null": "0", "eins": "1", "zwei": "2", "zwo": "2", "drei": "3", "vier": "4", "fünf": "5",
    "funf": "5", "fuenf": "5", "sechs": "6", "sieben": "7", "acht": "8", "neun": "9",
    # Spanish
    "cero": "0", "uno": "1", "dos": "2", "tres": "3", "cuatro": "4", "cinco": "5", "seis": "6",
    "siete": "7", "ocho": "8", "nueve": "9",
    # Italian
    "due": "2", "tre": "3", "quattro": "4", "cinque": "5", "sei": "6", "sette": "7", "otto": "8",
    "nove": "9",
    # Portuguese
    "um": "1", "uma": "1", "dois": "2", "duas": "2", "três": "3", "quatro": "4", "sete": "7",
    "oito": "8",
    # Dutch
    "nul": "0", "een": "1", "één": "1", "twee": "2", "drie": "3", "vijf": "5", "zes": "6",
    "zeven": "7", "negen": "9",
}  # fmt: skip
_LETTER_BEFORE, _LETTER_AFTER = r"(?<![^\W\d_])", r"(?![^\W\d_])"  # any script's letters
_SPELLED_DIGIT = re.compile(
    _LETTER_BEFORE
    + r"(?:(double|triple)[\s\-]+)?("
    + "|".join(sorted(_DIGIT_WORDS, key=len, reverse=True))
    + r")"
    + _LETTER_AFTER,
    re.IGNORECASE,
)


def _spelled_to_digits(text: str) -> str | None:
    """Spelled digits to digits: "four one" -> "4 1", "double four" -> "44".

    None when there are fewer than four digit words (nothing a card number could hide in).
    """
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        times = {"double": 2, "triple": 3}.get((match.group(1) or "").lower(), 1)
        return _DIGIT_WORDS[match.group(2).lower()] * times

    converted = _SPELLED_DIGIT.sub(replace, text)
    return converted if count >= 4 else None


# --------------------------------------------------------------------------------------------
# IBAN


_IBAN_CANDIDATE = re.compile(
    r"(?<![A-Za-z])(?=([A-Za-z]{2}[0-9]{2}(?:[^A-Za-z0-9]{0,3}[A-Za-z0-9]){11,32}))", re.ASCII
)


def _iban_hits(text: str) -> list[_Hit]:
    hits: list[_Hit] = []
    for match in _IBAN_CANDIDATE.finditer(text):
        raw = match.group(1)
        length = IBAN_LENGTHS.get(raw[:2].upper())
        if length is None:
            continue
        count, cut = 0, -1
        for position, char in enumerate(raw):
            if char.isalnum():
                count += 1
                if count == length:
                    cut = position + 1
                    break
        if cut < 0 or (cut < len(raw) and raw[cut].isalnum()):
            continue  # too short, or the run goes on: it is some other token
        compact = re.sub(r"[^A-Za-z0-9]", "", raw[:cut]).upper()
        if iban_valid(compact):
            excerpt = f"IBAN {compact[:2]}… ending {compact[-4:]}"
            hits.append(_Hit(IBAN, _key(IBAN, compact), excerpt))
    return hits


# --------------------------------------------------------------------------------------------
# Money


# Bounded repetitions throughout: an unbounded one rescans the rest of a long run of digit
# groups or number words from every start (seconds of CPU for a few kilobytes).
_AMOUNT = r"(?:\d{1,3}(?:[,.' ]\d{3}){1,6}|\d{1,24})(?:[.,]\d{1,2})?"
_SCALE = r"(?:\s?(?:k|m|bn|mm|million|thousand|billion|grand)(?![A-Za-z]))?"
_SYMBOLS = "$€£¥₹₽₩₪₺₫฿₴₦₱₿¢"
_CODES = (
    "USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|RMB|HKD|SGD|SEK|NOK|DKK|ISK|PLN|CZK|HUF|RON|BGN|INR|"
    "BRL|MXN|ZAR|TRY|RUB|UAH|KRW|ILS|AED|SAR|QAR|THB|IDR|MYR|VND|NGN|KES|EGP|ARS|CLP|COP|"
    "BTC|ETH|USDT|USDC|XMR"
)
_LOWER_CODES = "usd|eur|gbp|chf|jpy|inr|sek|nok|dkk|pln|btc|eth"
_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    "eighty|ninety|hundred|hundreds|thousand|thousands|million|millions|billion|billions"
)
_CURRENCY_WORDS = (
    r"dollars?|bucks|euros?|pounds?(?:\s+sterling)?|quid|pence|cents?|yen|yuan|renminbi|"
    r"rupees?|roubles?|rubles?|francs?|pesos?|reais|kron(?:a|e|or|er|ur)|zlot(?:y|ys|ych|e)|"
    r"lira|lire|shekels?|dirhams?|rand|baht|ringgit|bitcoins?|satoshis?|sats|ether"
)
_MONEY_AMOUNT = re.compile(
    rf"(?:[A-Z]{{1,3}})?[{_SYMBOLS}]\s?{_AMOUNT}{_SCALE}"
    rf"|{_NUMBER_BEFORE}{_AMOUNT}{_SCALE}\s?[{_SYMBOLS}]"
    rf"|(?<![A-Za-z])(?:{_CODES}|(?i:{_LOWER_CODES}))\s?{_AMOUNT}{_SCALE}"
    rf"|{_NUMBER_BEFORE}{_AMOUNT}{_SCALE}\s?(?:{_CODES}|(?i:{_LOWER_CODES}))(?![A-Za-z])"
    rf"|(?i:(?:{_NUMBER_BEFORE}{_AMOUNT}{_SCALE}\s?|(?<![A-Za-z])(?:{_NUMBER_WORDS})[\s\-]++"
    rf"(?:(?:{_NUMBER_WORDS}|and|of)[\s\-]++){{0,8}})"
    rf"(?:{_CURRENCY_WORDS}))(?![A-Za-z])"
)
_MONEY_KEYWORD = re.compile(
    r"(?<![A-Za-z])(?:transfer(?:s|red|ring)?|wire(?:s|d)?|wiring|payments?|pay(?:s|ing)?|paid|"
    r"invoices?|invoiced|remit(?:s|ted|tance)?|refund(?:s|ed)?|deposit(?:s|ed)?|"
    r"withdraw(?:s|n|al|als)?|withdrew|reimburse(?:s|d|ment)?|owe(?:s|d)?)(?![A-Za-z])",
    re.IGNORECASE,
)
_MONEY_NUMBER = re.compile(
    _NUMBER_BEFORE + r"\d(?:[\d,.]*\d)?(?:\s?(?:k|m|bn)(?![A-Za-z]))?" + _NUMBER_AFTER,
    re.IGNORECASE | re.ASCII,
)
_YEAR = re.compile(r"(?:19|20)\d\d", re.ASCII)
_MONEY_PHRASE = re.compile(
    r"(?<![A-Za-z])(?:(?i:credit\s+cards?|debit\s+cards?|card\s+number|cvv2?|cvc2?|"
    r"bank\s+(?:account|details|transfer)s?|account\s+number|acct\.?\s*(?:no|number|#)|"
    r"routing\s+number|sort\s+code|swift\s+code|bic\s+code|iban|wire\s+transfer|"
    r"gift\s+cards?|paypal|venmo|zelle|western\s+union|moneygram|"
    r"(?:crypto(?:currency)?|bitcoin)\s+(?:wallet|address)|wallet\s+address)|SWIFT|BIC)"
    r"(?![A-Za-z])"
)
_NEAR = 30  # characters between a payment word and its number


def _mask_long_digits(text: str, longest: int = 6) -> str:
    """Amounts are shown; any longer digit run (an account number) keeps two digits."""

    def mask(match: re.Match[str]) -> str:
        digits = re.sub(r"\D", "", match.group())
        if len(digits) <= longest:
            return match.group()
        return "•" * (len(digits) - 2) + digits[-2:]

    return re.sub(r"\d(?:[\d,.' ]*\d)?", mask, text)


def _money_hits(text: str) -> list[_Hit]:
    hits: list[_Hit] = []
    for match in islice(_MONEY_AMOUNT.finditer(text), _MAX_HITS):
        phrase = " ".join(match.group().split())
        hits.append(_Hit(MONEY, _key(MONEY, phrase.lower()), _mask_long_digits(phrase)))
    numbers = [
        m
        for m in _MONEY_NUMBER.finditer(text)
        if (sum(c.isdigit() for c in m.group()) >= 2 or not m.group()[-1].isdigit())
        and not _YEAR.fullmatch(m.group())
    ]
    if numbers:
        starts = [number.start() for number in numbers]
        for word in islice(_MONEY_KEYWORD.finditer(text), _MAX_HITS):
            for number in _near(numbers, starts, word.start(), word.end(), _NEAR):
                start, end = min(word.start(), number.start()), max(word.end(), number.end())
                phrase = " ".join(text[start:end].split())
                if len(phrase) > 60:
                    phrase = f"{word.group()} … {number.group()}"
                excerpt = _mask_long_digits(phrase)
                hits.append(_Hit(MONEY, _key(MONEY, phrase.lower()), excerpt))
                break
    for match in _MONEY_PHRASE.finditer(text):
        phrase = " ".join(match.group().split())
        hits.append(_Hit(MONEY, _key(MONEY, phrase.lower()), phrase))
    return hits


# --------------------------------------------------------------------------------------------
# Health


_HEALTH_TERMS = (
    # clinicians, places, appointments
    r"doctors?|physicians?|clinicians?|nurses?|dentists?|dentistry|dental|orthodontists?|dermatolog(?:ist|y)|"
    r"gyn(?:a)?ecolog(?:ist|y|ical)|obstetrician|ob[\s/\-]?gyn|cardiolog(?:ist|y)|"
    r"oncolog(?:ist|y)|neurolog(?:ist|y)|urolog(?:ist|y)|p(?:a)?ediatrician|radiolog(?:ist|y)|"
    r"psychiatr(?:ist|y|ic)|psychologists?|psychotherap(?:ist|y)|therap(?:ist|y|ies|eutic)|"
    r"physiotherap(?:ist|y)|physio|chiropractor|ophthalmolog(?:ist|y)|midwife|midwives|"
    r"surgeons?|surger(?:y|ies)|surgical|an(?:a)?esthe(?:sia|siologist|tist)|clinic(?:al)?|"
    r"hospitals?|hospitali[sz](?:ed|ation)|urgent\s+care|emergency\s+room|pharmac(?:y|ies|ist)|"
    r"medical|medications?|medicines?|prescri(?:be|bed|bes|bing|ption|ptions)|dos(?:e|age)|"
    r"vaccin(?:e|es|ation|ated)|immuni[sz]ation|flu\s+shot|check[\s\-]?up\s+with|"
    r"blood\s+(?:tests?|work|sugar|pressure)|bloodwork|"
    r"lab(?:oratory)?\s+(?:results?|tests?|work|report)|test\s+results|biops(?:y|ies)|mri|"
    r"ct\s+scan|pet\s+scan|x[\s\-]?rays?|ultrasound|mammogram|colonoscopy|pap\s+smear|"
    r"smear\s+test|ecg|ekg|icu|physical\s+exam|health\s+insurance|medicare|medicaid|"
    r"sick\s+(?:leave|note|day)|doctor'?s\s+note|"
    # conditions
    r"diagnos(?:is|es|ed|e|ing|tic)|illness(?:es)?|diseases?|disorders?|syndromes?|symptoms?|"
    r"cancer|tumou?rs?|leuka?emia|lymphoma|melanoma|carcinoma|chemo(?:therapy)?|"
    r"radiotherapy|radiation\s+therapy|immunotherapy|dialysis|diabet(?:es|ic)|hiv|hepatitis|"
    r"tuberculosis|pregnan(?:t|cy|cies)|miscarriages?|abortions?|ivf|(?:in)?fertility|"
    r"contracepti(?:on|ve|ves)|birth\s+control|morning[\s\-]after\s+pill|herpes|hpv|chlamydia|"
    r"gonorr?h(?:o)?ea|syphilis|depression|depressive|anxiety|panic\s+attacks?|bipolar|"
    r"schizophreni(?:a|c)|psychosis|adhd|autism|autistic|ptsd|ocd|anorexi(?:a|c)|bulimi(?:a|c)|"
    r"eating\s+disorder|dementia|alzheimer'?s?|parkinson'?s?|epilep(?:sy|tic)|seizures?|"
    r"heart\s+(?:attack|disease|failure|condition)|hypertension|cholesterol|asthma|copd|"
    r"arthritis|multiple\s+sclerosis|lupus|crohn'?s|c(?:o)?eliac|migraines?|covid(?:[\s\-]?19)?|"
    r"coronavirus|pneumonia|influenza|flu|concussion|suicid(?:e|al)|self[\s\-]?harm|overdose|"
    r"addiction|alcoholism|substance\s+abuse|allerg(?:y|ies|ic)|obesity|sleep\s+apn(?:o)?ea|"
    r"insomnia|infections?|mental\s+health|rehab(?:ilitation)?|"
    # medications
    r"insulin|metformin|ozempic|wegovy|mounjaro|semaglutide|tirzepatide|antidepressants?|"
    r"antipsychotics?|antibiotics?|antiretrovirals?|sertraline|zoloft|fluoxetine|prozac|"
    r"(?:es)?citalopram|lexapro|bupropion|wellbutrin|venlafaxine|effexor|xanax|alprazolam|"
    r"valium|diazepam|lorazepam|ativan|adderall|ritalin|methylphenidate|lithium|quetiapine|"
    r"seroquel|olanzapine|risperidone|aripiprazole|abilify|clozapine|lamotrigine|gabapentin|"
    r"pregabalin|oxycodone|hydrocodone|fentanyl|morphine|codeine|tramadol|methadone|"
    r"buprenorphine|suboxone|naloxone|narcan|opioids?|amoxicillin|penicillin|doxycycline|"
    r"azithromycin|statins?|atorvastatin|simvastatin|lisinopril|amlodipine|losartan|"
    r"metoprolol|warfarin|levothyroxine|prednisone|omeprazole|truvada|viagra|sildenafil|"
    r"cialis|epipen|inhaler|albuterol|ventolin|\d+\s?(?:mg|mcg)"
)
_HEALTH = re.compile(
    r"(?<![A-Za-z0-9])(?:(?i:" + _HEALTH_TERMS + r")(?i:s|es|'s|’s)?"
    r"|AIDS|STDs?|STIs?|GP|PrEP|HRT|A&E|AA\s+meetings?)(?![A-Za-z0-9])"
)
# "Dr" is also "Drive": count it only as a title in front of a name ("with Dr. Patel").
_DOCTOR_TITLE = re.compile(
    r"(?:(?<![A-Za-z])(?i:with|see|saw|seeing|visit|visiting|call|at)\s+|^)"
    r"(?i:dr)\.?\s+[A-Z][a-z]+"
)


def _health_hits(text: str) -> list[_Hit]:
    hits = []
    for match in _HEALTH.finditer(text):
        term = " ".join(match.group().split())
        hits.append(_Hit(HEALTH, _key(HEALTH, term.lower()), term[:40]))
    for match in _DOCTOR_TITLE.finditer(text):
        hits.append(_Hit(HEALTH, _key(HEALTH, match.group().lower()), "doctor (Dr. …)"))
    return hits


# --------------------------------------------------------------------------------------------
# Government ids


_SSN_DASHED = re.compile(r"(?<![\d\-])\d{3}-\d{2}-\d{4}(?![\d\-])", re.ASCII)
_SSN_LOOSE = re.compile(r"(?<![\d\-])\d{3}[ .]?\d{2}[ .]?\d{4}(?![\d\-])", re.ASCII)
_SSN_CONTEXT = re.compile(
    r"(?<![A-Za-z])(?:ssn|ss#|social[\s\-]+security|social\s+sec|tax\s+id|itin)(?![A-Za-z])",
    re.IGNORECASE,
)
_UK_NI = re.compile(
    r"(?<![A-Za-z0-9])([A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z])\s?(\d{2})\s?(\d{2})\s?(\d{2})\s?"
    r"([A-D])(?![A-Za-z0-9])",
    re.IGNORECASE | re.ASCII,
)
_UK_NI_BAD_PREFIX = frozenset({"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"})
_ID_PHRASE = re.compile(
    r"(?<![A-Za-z])(passport|driv(?:er'?s?|ing)\s+licen[cs]e|national\s+id(?:entity)?(?:\s+card)?|"
    r"id\s+card|identity\s+card)"
    r"(?:\s*+(?:no\.?|number|num\.?|nr\.?|#|id))?\s*+(?:is|was|:|#|=|-)?\s*+"
    r"([A-Za-z0-9](?:[A-Za-z0-9\-]{4,18})[A-Za-z0-9])(?![A-Za-z0-9])",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class _NationalId:
    """A national identity number: the words that name it, its shape, its check digits."""

    label: str
    context: re.Pattern[str]
    shape: re.Pattern[str]
    is_valid: Callable[[str], bool]


def _digits(count: int) -> str:
    """`count` digits, each optionally after a space, dot or dash (36 574 261 809)."""
    return rf"(?<![\w\-.])\d(?:[ .\-]?\d){{{count - 1}}}(?![\w\-])"


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


# Each is looked for only within 40 characters of its own words (random 9-digit strings pass
# the Dutch 11-test about 1 time in 11); python-stdnum checks the digits.
_NATIONAL_IDS = (
    _NationalId(
        "German tax id (Steuer-ID)",
        _words(r"steuer[\s\-]*id(?:entifikationsnummer)?|steuer[\s\-]*nr|"
               r"identifikationsnummer|idnr|tax\s+id(?:entification)?(?:\s+number)?"),
        re.compile(_digits(11)),
        stdnum_de_idnr.is_valid,
    ),
    _NationalId(
        "French social security number (NIR)",
        _words(r"nir|n°\s*(?:de\s+)?s[ée]cu(?:rit[ée]\s+sociale)?|num[ée]ro\s+de\s+s[ée]cu"
               r"(?:rit[ée]\s+sociale)?|s[ée]curit[ée]\s+sociale|carte\s+vitale|insee"),
        re.compile(r"(?<![\w\-])[12](?:[ .]?\d{2}){2}[ .]?(?:\d{2}|2[AB])(?:[ .]?\d{3}){2}"
                   r"[ .]?\d{2}(?![\w\-])", re.IGNORECASE),
        stdnum_fr_nir.is_valid,
    ),
    _NationalId(
        "Spanish identity number (DNI/NIE)",
        _words(r"dni|nie|nif|documento\s+nacional(?:\s+de\s+identidad)?"),
        re.compile(r"(?<![\w\-])(?:\d{8}|[XYZ][ \-]?\d{7})[ \-]?[A-Z](?![\w\-])", re.IGNORECASE),
        lambda value: stdnum_es_dni.is_valid(value) or stdnum_es_nie.is_valid(value),
    ),
    _NationalId(
        "Italian tax code (codice fiscale)",
        _words(r"codice\s+fiscale|cod\.\s*fisc\.?|fiscal\s+code|tax\s+code"),
        re.compile(r"(?<![\w\-])[A-Z]{6}[0-9LMNP-V]{2}[A-Z][0-9LMNP-V]{2}[A-Z][0-9LMNP-V]{3}[A-Z]"
                   r"(?![\w\-])", re.IGNORECASE),
        stdnum_it_codicefiscale.is_valid,
    ),
    _NationalId(
        "Dutch citizen service number (BSN)",
        _words(r"bsn|burger[\s\-]*service[\s\-]*nummer|sofi[\s\-]*nummer"),
        re.compile(_digits(9)),
        stdnum_nl_bsn.is_valid,
    ),
    _NationalId(
        "Swedish personal identity number (personnummer)",
        _words(r"person[\s\-]*(?:nummer|nr)"),
        re.compile(r"(?<![\w\-])(?:\d{2})?\d{6}[\-+ ]?\d{4}(?![\w\-])"),
        stdnum_se_personnummer.is_valid,
    ),
)  # fmt: skip


def _national_id_hits(text: str) -> list[_Hit]:
    hits: list[_Hit] = []
    for kind in _NATIONAL_IDS:
        contexts = list(islice(kind.context.finditer(text), _MAX_HITS))
        if not contexts:
            continue
        numbers = [m for m in kind.shape.finditer(text) if kind.is_valid(m.group())]
        starts = [m.start() for m in numbers]
        near = {id(m): m for c in contexts for m in _near(numbers, starts, c.start(), c.end(), 40)}
        for match in sorted(near.values(), key=lambda m: m.start()):
            value = re.sub(r"[^0-9A-Za-z]", "", match.group()).upper()
            excerpt = f"{kind.label} •••{value[-2:]}"
            hits.append(_Hit(GOVERNMENT_ID, _key(GOVERNMENT_ID, value), excerpt))
    return hits


def _government_hits(text: str) -> list[_Hit]:
    hits: list[_Hit] = []
    for match in _SSN_DASHED.finditer(text):
        if ssn_valid(match.group()):
            digits = match.group().replace("-", "")
            excerpt = f"SSN •••-••-{digits[-4:]}"
            hits.append(_Hit(GOVERNMENT_ID, _key(GOVERNMENT_ID, digits), excerpt))
    contexts = list(islice(_SSN_CONTEXT.finditer(text), _MAX_HITS))
    if contexts:
        numbers = [m for m in _SSN_LOOSE.finditer(text) if ssn_valid(m.group())]
        starts = [m.start() for m in numbers]
        near = {id(m): m for c in contexts for m in _near(numbers, starts, c.start(), c.end(), 40)}
        for match in sorted(near.values(), key=lambda m: m.start()):
            digits = re.sub(r"\D", "", match.group())
            excerpt = f"SSN •••-••-{digits[-4:]}"
            hits.append(_Hit(GOVERNMENT_ID, _key(GOVERNMENT_ID, digits), excerpt))
    for match in _UK_NI.finditer(text):
        prefix = match.group(1).upper()
        if prefix in _UK_NI_BAD_PREFIX:
            continue
        value = "".join(match.groups()).upper()
        excerpt = f"UK National Insurance number ••••••{value[-3:]}"
        hits.append(_Hit(GOVERNMENT_ID, _key(GOVERNMENT_ID, value), excerpt))
    for match in _ID_PHRASE.finditer(text):
        number = match.group(2)
        if sum(c.isdigit() for c in number) < 4:
            continue
        what = " ".join(match.group(1).split()).lower()
        excerpt = f"{what} number •••{number[-3:]}"
        hits.append(_Hit(GOVERNMENT_ID, _key(GOVERNMENT_ID, number.upper()), excerpt))
    return hits + _national_id_hits(text)


# --------------------------------------------------------------------------------------------
# Secrets: passwords, one-time codes, API keys and tokens


_KEY_BEFORE = r"(?<![A-Za-z0-9_\-])"  # a key starts a token: no rescanning from inside one
_SECRET_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----"), lambda m: "private key block"),
    (
        re.compile(r"(?<![A-Za-z0-9])sk-(?:proj-|ant-|live-|svcacct-)?[A-Za-z0-9_\-]{16,512}"),
        lambda m: f"API key sk-… ({len(m.group())} characters)",
    ),
    # Cloud keys: AWS access key ids (every documented prefix) and secret keys, Google OAuth
    # tokens, client secrets and service-account files, Azure storage keys, SAS signatures
    # and client secrets, DigitalOcean, Hugging Face, npm, PyPI, SendGrid, Alibaba.
    (
        re.compile(
            r"(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA|"
            r"APKA)[0-9A-Z]{16}(?![A-Za-z0-9])"
        ),
        lambda m: f"AWS access key {m.group()[:4]}…",
    ),
    (
        re.compile(
            r"(?i)(?<![A-Za-z])aws_?secret(?:_?access)?_?key\s*+(?:is|[:=])\s*+[\"']?"
            r"[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])"
        ),
        lambda m: "AWS secret key [redacted]",
    ),
    (
        re.compile(r'(?i)"type"\s*+:\s*+"service_account"|"private_key_id"\s*+:\s*+"[0-9a-f]{8,}'),
        lambda m: "Google service account key",
    ),
    (
        re.compile(_KEY_BEFORE + r"(?:ya29\.[0-9A-Za-z_\-]{20,512}|1//0[0-9A-Za-z_\-]{30,512})"),
        lambda m: "Google OAuth token",
    ),
    (re.compile(_KEY_BEFORE + r"GOCSPX-[A-Za-z0-9_\-]{20,40}"), lambda m: "Google client secret"),
    (
        re.compile(
            r"(?i)AccountKey=[A-Za-z0-9+/]{40,120}={0,2}|SharedAccessKey=[A-Za-z0-9+/=]{20,}"
        ),
        lambda m: "Azure storage key",
    ),
    (
        re.compile(r"(?i)(?<![A-Za-z0-9])sig=[A-Za-z0-9%+/]{16,300}={0,2}"),
        lambda m: "Azure shared access signature",
    ),
    (
        re.compile(_KEY_BEFORE + r"[A-Za-z0-9_~.\-]{3}8Q~[A-Za-z0-9_~.\-]{31,34}"),
        lambda m: "Azure client secret",
    ),
    (re.compile(_KEY_BEFORE + r"do[opr]_v1_[a-f0-9]{64}"), lambda m: "DigitalOcean token"),
    (re.compile(_KEY_BEFORE + r"hf_[A-Za-z]{34}(?![A-Za-z])"), lambda m: "Hugging Face token"),
    (re.compile(_KEY_BEFORE + r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"), lambda m: "npm token"),
    (
        re.compile(_KEY_BEFORE + r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,512}"),
        lambda m: "PyPI token",
    ),
    (
        re.compile(_KEY_BEFORE + r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}"),
        lambda m: "SendGrid key",
    ),
    (
        re.compile(r"(?<![A-Za-z0-9])LTAI[A-Za-z0-9]{12,20}(?![A-Za-z0-9])"),
        lambda m: "Alibaba Cloud access key",
    ),
    (
        re.compile(
            r"(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,512}|github_pat_[A-Za-z0-9_]{22,512})"
        ),
        lambda m: f"GitHub token {m.group()[:4]}…",
    ),
    (re.compile(_KEY_BEFORE + r"glpat-[A-Za-z0-9_\-]{20,512}"), lambda m: "GitLab token glpat-…"),
    (
        re.compile(_KEY_BEFORE + r"xox[abposr]-[A-Za-z0-9\-]{10,512}"),
        lambda m: f"Slack token {m.group()[:5]}…",
    ),
    (re.compile(r"AIza[0-9A-Za-z_\-]{35}"), lambda m: "Google API key AIza…"),
    (
        re.compile(_KEY_BEFORE + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,512}"),
        lambda m: "Stripe secret key",
    ),
    (
        re.compile(
            _KEY_BEFORE + r"eyJ[A-Za-z0-9_\-]{8,4096}\.eyJ[A-Za-z0-9_\-]{8,4096}\."
            r"[A-Za-z0-9_\-]{8,4096}"
        ),
        lambda m: "JSON web token eyJ…",
    ),
    (
        re.compile(r"(?i)(?<![A-Za-z])bearer\s++[A-Za-z0-9\-._~+/]{12,512}=*"),
        lambda m: "bearer token [redacted]",
    ),
    (
        re.compile(r"(?i)(?<![A-Za-z])authorization\s*+:\s*+\S{1,256}"),
        lambda m: "Authorization header [redacted]",
    ),
    (
        re.compile(
            r"(?i)(?<![A-Za-z])(api[_\- ]?key|apikey|secret[_\- ]?key|client[_\- ]?secret|"
            r"access[_\- ]?token|auth[_\- ]?token|refresh[_\- ]?token|private[_\- ]?key|"
            r"token|secret)\s*+(?:is|:|=)\s*+[\"']?[A-Za-z0-9_\-./+=]{6,256}"
        ),
        lambda m: f"{m.group(1).lower()}: [redacted]",
    ),
    (
        re.compile(
            r"(?i)(?<![A-Za-z])(password|passwd|passphrase|passcode|pwd|pw|pin(?:\s+code)?)"
            r"\s*+(?:is|was|:|=)\s*+\S{1,256}"
        ),
        lambda m: f"{m.group(1).lower()}: [redacted]",
    ),
    (
        re.compile(r"(?i)(?<![A-Za-z])(?:seed|recovery|mnemonic|secret)\s+phrases?(?![A-Za-z])"),
        lambda m: "wallet seed phrase (mentioned)",
    ),
    (
        re.compile(r"(?i)(?<![A-Za-z])pass(?:word|phrase|code)s?(?![A-Za-z])"),
        lambda m: f"{m.group().lower()} (mentioned)",
    ),
)
_MAX_HITS = 64  # per detector and text: enough to report, and a bound on the work


class _Spans:
    """Non-overlapping spans, kept sorted: an overlap test in log time, not a scan of all."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        index = bisect_right(self.starts, start)
        if index and self.ends[index - 1] > start:
            return True
        return index < len(self.starts) and self.starts[index] < end

    def add(self, start: int, end: int) -> None:
        index = bisect_right(self.starts, start)
        self.starts.insert(index, start)
        self.ends.insert(index, end)


def _near(
    numbers: list[re.Match[str]], starts: list[int], start: int, end: int, gap: int
) -> Iterator[re.Match[str]]:
    """The numbers within `gap` characters of the span start..end (in order), found by
    bisection: numbers are short, so only those starting near the span can be near it."""
    index = bisect_left(starts, start - gap - _LONGEST_NUMBER)
    while index < len(numbers) and starts[index] <= end + gap:
        number = numbers[index]
        if max(number.start() - end, start - number.end()) <= gap:
            yield number
        index += 1


_LONGEST_NUMBER = 64


# Seed phrases: 12 to 24 words of the BIP-39 list (a wallet's master key). Words may be
# numbered or separated by punctuation; 12 to 17 need a valid checksum in some window (so
# ordinary prose of list words stays quiet), 18 or more in a row count as they are.
_WORD = re.compile(r"[a-z]+")
_SEED_GAP = re.compile(r"[^a-z]{1,8}")


def _seed_hits(text: str) -> list[_Hit]:
    lowered = text.casefold()
    run: list[str] = []
    last_end = -1
    hits: list[_Hit] = []

    def close() -> None:
        if len(run) >= 18 or (len(run) >= 12 and _checksum_window(run)):
            hits.append(
                _Hit(SECRET, _key(SECRET, " ".join(run)), f"wallet seed phrase ({len(run)} words)")
            )

    for match in _WORD.finditer(lowered):
        word = match.group()
        joined = last_end >= 0 and _SEED_GAP.fullmatch(lowered, last_end, match.start()) is not None
        if word in bip39.INDEX and (joined or not run):
            run.append(word)
        else:
            close()
            run = [word] if word in bip39.INDEX else []
            if len(hits) >= _MAX_HITS:
                return hits
        last_end = match.end()
    close()
    return hits


def _checksum_window(words: list[str]) -> bool:
    for start in range(len(words) - 11):
        for length in bip39.SEED_LENGTHS:
            if start + length <= len(words) and bip39.checksum_valid(words[start : start + length]):
                return True
    return False


_OTP_KEYWORD = re.compile(
    r"(?<![A-Za-z])(?:(?i:(?:one[\s\-]?time|verification|verify|security|confirmation|login|"
    r"log[\s\-]?in|sign[\s\-]?in|auth(?:entication|orization|enticator)?|access|backup|"
    r"recovery|reset|activation|2fa|mfa|sms|otp|door|gate|alarm|safe|lock(?:box)?)\s+"
    r"(?:code|pin|passcode|key)s?|otp|2fa|mfa|totp|passcodes?|one[\s\-]?time\s+passwords?)"
    r"|PIN)(?![A-Za-z])"
)
_OTP_NUMBER = re.compile(_NUMBER_BEFORE + r"(?:\d{4,8}|\d{3}[ \-]\d{3})" + _NUMBER_AFTER, re.ASCII)
# "code" directly followed by a number ("code: 4821", "the code is 77310"); possessive, so a
# long gap is not tried every way.
_CODE_THEN_NUMBER = re.compile(
    r"(?i)(?<![A-Za-z])code(?![A-Za-z])\s*+(?:is\s*+|[:=#\-]\s*+)?"
    + _NUMBER_BEFORE
    + r"(?P<number>\d{4,8}|\d{3}[ \-]\d{3})"
    + _NUMBER_AFTER
)
# "zip code 94110" is an address, not a secret: words that make "code" something else.
_CODE_NOT_SECRET = frozenset(
    {
        "zip", "postal", "post", "postcode", "area", "country", "dialing", "dial", "dress",
        "source", "tax", "sort", "product", "error", "status", "iso", "airport", "region", "bar",
        "qr", "promo", "promotional", "discount", "coupon", "voucher", "referral", "colour",
        "color", "course", "class", "item", "style", "reference", "booking", "tracking", "vat",
        "swift", "bic", "morse",
    }
)  # fmt: skip
_REVERSE_CODE = re.compile(
    _NUMBER_BEFORE + r"(\d{4,8})\s+is\s+(?:your|the)\s+(?:[A-Za-z\-]+\s+){0,2}code(?![A-Za-z])",
    re.IGNORECASE,
)
_OTP_NEAR = 40


def _secret_hits(text: str, masked: str, keys_only: bool = False) -> list[_Hit]:
    """Keys, tokens, passwords and seed phrases by shape; with `keys_only` False also
    one-time codes (a number near a word like "code" or "PIN"). Linear time: patterns start
    only where a token starts and are bounded, and number/keyword pairs are found by bisection."""
    hits: list[_Hit] = []
    spans = _Spans()
    for pattern, describe in _SECRET_PATTERNS:
        for match in islice(pattern.finditer(text), _MAX_HITS):
            if spans.overlaps(*match.span()):
                continue  # a more specific pattern already covers this text
            spans.add(*match.span())
            hits.append(_Hit(SECRET, _key(SECRET, match.group()), describe(match)))
    hits += _seed_hits(text)
    if keys_only:
        return hits
    numbers = list(_OTP_NUMBER.finditer(masked))
    if not numbers:
        return hits
    starts = [number.start() for number in numbers]
    for keyword in islice(_OTP_KEYWORD.finditer(masked), _MAX_HITS):
        for number in _near(numbers, starts, keyword.start(), keyword.end(), _OTP_NEAR):
            what = " ".join(keyword.group().split()).lower()
            hits.append(_Hit(SECRET, _key(SECRET, number.group()), f"{what} [redacted]"))
    for match in islice(_CODE_THEN_NUMBER.finditer(masked), _MAX_HITS):
        before = re.findall(r"[A-Za-z]+", masked[max(0, match.start() - 20) : match.start()])
        if before and before[-1].lower() in _CODE_NOT_SECRET:
            continue
        hits.append(_Hit(SECRET, _key(SECRET, match.group("number")), "code [redacted]"))
    for match in islice(_REVERSE_CODE.finditer(masked), _MAX_HITS):
        hits.append(_Hit(SECRET, _key(SECRET, match.group(1)), "code [redacted]"))
    return hits


# --------------------------------------------------------------------------------------------
# Putting it together


def _detect_view(how: str, text: str) -> list[_Hit]:
    """The detectors for one reading of a value. A ROT13 reading only looks for what has
    letters and a checksum or a fixed shape (IBANs, keys, passwords): health and money words
    turn up by chance in ROT13 of ordinary text ("RPT" reads "ECG")."""
    if how == _ROT13_HOW:
        return _iban_hits(text) + _secret_hits(text, _mask_dates(text), keys_only=True)
    return _detect(text)


def _detect(text: str) -> list[_Hit]:
    """All detectors over one piece of already-normalised text."""
    masked = _mask_dates(text)
    hits = _card_hits(masked, _CARD_RUN)
    spelled = _spelled_to_digits(masked)
    if spelled is not None:
        hits += _card_hits(spelled, _CARD_RUN_SPELLED, " (spelled out)")
    hits += _iban_hits(text)
    hits += _money_hits(masked)
    hits += _health_hits(text)
    hits += _government_hits(text)
    hits += _secret_hits(text, masked)
    return hits


_B64_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{16,}={0,2}(?![A-Za-z0-9+/=_\-])")
# For matching what a private store said, shorter tokens count too (a password is short).
_B64_SHORT_TOKEN = re.compile(
    r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{8,}={0,2}(?![A-Za-z0-9+/=_\-])"
)
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")


def _base64_text(text: str, pattern: re.Pattern[str] = _B64_TOKEN) -> str | None:
    """Decoded text of base64-looking tokens that decode to readable UTF-8 (one level)."""
    decoded: list[str] = []
    for match in islice(pattern.finditer(text), _MAX_B64_TOKENS):
        token = match.group().rstrip("=").replace("-", "+").replace("_", "/")
        try:
            raw = base64.b64decode(token + "=" * (-len(token) % 4), validate=True)
            value = raw.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        readable = sum(c.isprintable() or c in "\t\r\n" for c in value)
        if value and readable >= 0.95 * len(value) and any(c.isalnum() for c in value):
            decoded.append(value)
    return normalise_text(" ".join(decoded)) if decoded else None


_HEX_TOKEN = re.compile(
    r"(?<![0-9A-Fa-f])(?:(?:0x|\\x)?[0-9A-Fa-f]{2}[\s:\-]?){8,}(?![0-9A-Fa-f])", re.ASCII
)
_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)


_ROT13_HOW = " (ROT13)"


def _hex_text(text: str) -> str | None:
    """Decoded text of hex-looking runs ("48656c6c6f", "48:65:6c", "\\x48\\x65") that decode to
    readable UTF-8 (one level, bounded like base64)."""
    decoded: list[str] = []
    for match in islice(_HEX_TOKEN.finditer(text), _MAX_B64_TOKENS):
        digits = re.sub(r"0x|\\x|[\s:\-]", "", match.group())
        if len(digits) % 2:
            digits = digits[:-1]
        try:
            value = bytes.fromhex(digits).decode("utf-8")
        except ValueError:
            continue
        readable = sum(c.isprintable() or c in "\t\r\n" for c in value)
        if value and readable >= 0.95 * len(value) and any(c.isalnum() for c in value):
            decoded.append(value)
    return normalise_text(" ".join(decoded)) if decoded else None


def _views(text: str, short: bool = False) -> Iterator[tuple[str, str]]:
    """The ways a value could be read: as typed, URL/HTML-decoded, base64-, hex- and
    ROT13-decoded (one level each: a detector is a tripwire, not a decoder of everything)."""
    plain = normalise_text(text)
    yield "", plain
    decoded = plain
    if _PERCENT.search(decoded):
        decoded = unquote_plus(decoded)
    if "&" in decoded:
        decoded = html.unescape(decoded)
    if decoded != plain:
        yield " (decoded)", normalise_text(decoded)
    b64 = _base64_text(plain, _B64_SHORT_TOKEN if short else _B64_TOKEN)
    if b64:
        yield " (base64)", b64
    hexed = _hex_text(plain)
    if hexed:
        yield " (hex)", hexed
    if any(c.isalpha() for c in plain if c.isascii()):
        yield _ROT13_HOW, plain.translate(_ROT13)


def decoded_views(text: str) -> list[str]:
    """Every reading of `text` the detectors use: as typed and decoded (for other checks)."""
    return [view for _how, view in _views(text)]


def _leaf_text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        # Past 40 digits nothing here fits in one number, and Python refuses str() of huge ints.
        return str(value) if -(10**40) < value < 10**40 else None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    return None


_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]{0,39}")


def _path_name(key: str, index: int) -> str:
    """Argument names come from the model: only plain short names appear in a path as is,
    so a card number used *as a name* never reaches a dialog or log through the path."""
    return key if _PLAIN_NAME.fullmatch(key) else f"<name {index}>"


def _leaves(value: Any, path: str, depth: int = 0) -> Iterator[tuple[str, str, bool]]:
    """(path, text, is_value) for every scalar and every dict key, depth-first in order."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, dict):
        for index, (key, item) in enumerate(value.items()):
            key_text = str(key)
            name = _path_name(key_text, index)
            child = f"{path}.{name}" if path else name
            yield f"{child} (name)", key_text, False
            yield from _leaves(item, child, depth + 1)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]", depth + 1)
    else:
        text = _leaf_text(value)
        if text is not None:
            yield path or "<value>", text, True


def scan(arguments: dict[str, Any]) -> list[Finding]:
    """Run every detector over every value (and key) in `arguments`, and over all values
    joined together. Returns findings in argument order; each distinct value once per path.
    """
    findings: list[Finding] = []
    seen_keys: set[str] = set()
    values: list[str] = []
    for path, text, is_value in _leaves(arguments, ""):
        if is_value:
            values.append(text)
        reported_here: set[str] = set()
        for how, view in _views(text):
            for hit in _detect_view(how, view):
                if hit.key in reported_here:
                    continue
                reported_here.add(hit.key)
                findings.append(Finding(hit.kind, path + how, hit.excerpt))
        seen_keys |= reported_here
    if len(values) > 1:
        joined_seen: set[str] = set()
        # Whole sequence both ways, and every ordered pair of values holding digits: a number
        # split over two fields is found whatever stands between them (capped: cheap).
        few = [v for v in values if sum(c.isdigit() for c in v) >= 2][:_MAX_PAIRED_VALUES]
        pairs = [f"{a} {b}" for i, a in enumerate(few) for j, b in enumerate(few) if i != j]
        for joined in (" ".join(values), " ".join(reversed(values)), *pairs):
            for how, view in _views(joined):
                for hit in _detect_view(how, view):
                    if hit.key in seen_keys or hit.key in joined_seen:
                        continue
                    joined_seen.add(hit.key)
                    findings.append(Finding(hit.kind, JOINED_PATH, hit.excerpt))
    return findings


# --------------------------------------------------------------------------------------------
# Private data: distinctive tokens of what the user's own stores said


_FOLD_DROP = re.compile(r"[\W_]+")
_DIGIT_GROUPS = re.compile(r"\d+(?:[^\w]{1,3}\d+)*", re.ASCII)
_SECRET_VALUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:password|passwd|passphrase|passcode|pwd|pin|code|secret|key|token|"
    r"login|username|user\s+name|account)\s*(?:is|was|:|=)?\s*[\"']?(\S{4,80})"
)
_TOKEN_WINDOW = 10  # longer tokens are kept as every 10-character slice (a part leaks too)
_MIN_TOKEN = 6
_MIN_KEYWORD_TOKEN = 4


def fold(text: str) -> str:
    """Case, separators and look-alike digits folded away: "4111-1111.1111/1111" and
    "4111 1111 1111 1111" both become "4111111111111111"."""
    return _FOLD_DROP.sub("", normalise_text(text).casefold())


def _windows(token: str) -> Iterator[str]:
    if len(token) <= _TOKEN_WINDOW:
        yield token
        return
    for start in range(len(token) - _TOKEN_WINDOW + 1):
        yield token[start : start + _TOKEN_WINDOW]


def private_tokens(text: str, limit: int = 50_000) -> set[str]:
    """The distinctive pieces of `text` (read from a private store), folded: digit groups
    joined across separators (6+ digits), words of 6+ characters that mix letters and digits,
    long words (12+), and whatever follows "password", "PIN", "code", "key"... (4+).
    Dates and times are not distinctive. Kept as 10-character slices when longer, so that a
    part of a long value still matches."""
    plain = _mask_dates(normalise_text(text))
    found: set[str] = set()

    def add(token: str) -> None:
        for piece in _windows(token):
            if len(found) >= limit:
                return
            found.add(piece)

    for run in _DIGIT_GROUPS.finditer(plain):
        digits = re.sub(r"\D", "", run.group())
        if len(digits) >= _MIN_TOKEN and len(set(digits)) > 1:
            add(digits)
    for word in plain.split():
        folded = fold(word)
        has_digit = any(c.isdigit() for c in folded)
        has_alpha = any(c.isalpha() for c in folded)
        if len(folded) >= 12 or (len(folded) >= _MIN_TOKEN and has_digit and has_alpha):
            add(folded)
    for match in _SECRET_VALUE.finditer(plain):
        folded = fold(match.group(1))
        if len(folded) >= _MIN_KEYWORD_TOKEN:
            add(folded)
    return found


def shared_private_token(text: str, tokens: set[str]) -> str | None:
    """How `text` carries one of `tokens` ("", " (base64)", ...), or None. Every reading of
    the text (as typed, percent-, HTML-, base64-, hex- and ROT13-decoded) is folded the same
    way as the tokens, then each slice of a token's length is looked up: linear time."""
    if not tokens:
        return None
    lengths = sorted({len(t) for t in tokens})
    for how, view in _views(text, short=True):
        folded = fold(view)
        for length in lengths:
            for start in range(len(folded) - length + 1):
                if folded[start : start + length] in tokens:
                    return how
    return None
