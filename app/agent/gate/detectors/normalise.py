"""One normalisation pipeline that every detector runs on: a new spelling is added here once
and covers every kind of number and secret.

Why one place: a card number, an IBAN, an id or a PIN can be written with look-alike letters
and digits from other scripts, invisible characters, any separators, number words in any of
the supported languages, or encoded (percent, HTML, base64, base32, hex, ROT13). Each detector
used to fold some of these for itself; now each sees the same readings:

- `normalise_text`: NFKC, invisible characters dropped, every Unicode digit as ASCII, letters
  from other scripts that pass for Latin ones as Latin (a Cyrillic "Е"), and "O", "l", "I"
  between digits as the digits they pass for;
- `views`: the text as typed and each decoding of it (one level each);
- `spelled_to_digits`: number words (0 to 99) in English, French, German, Spanish, Italian,
  Portuguese and Dutch as digits;
- `gapped_numbers`: the digit groups of a text with the words between them left out ("card
  4539 5787 6362, ends 1486"), for the detectors that have a checksum.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import unicodedata
from collections.abc import Iterator
from itertools import islice
from urllib.parse import unquote_plus

__all__ = [
    "GAPPED_HOW",
    "ROT13_HOW",
    "SPELLED_HOW",
    "decoded_views",
    "fold",
    "gapped_account",
    "gapped_numbers",
    "mask_dates",
    "normalise_text",
    "spelled_to_digits",
    "strip_accents",
    "views",
]

_MAX_B64_TOKENS = 32

# --------------------------------------------------------------------------------------------
# Characters: invisible ones, digits and look-alike letters


_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e0fff]"
)
_UNICODE_DIGIT = re.compile(r"\d")
# Letters of other scripts that a reader takes for Latin ones (case kept). NFKC has already
# turned full-width and mathematical letters into plain ones.
_CONFUSABLE_LETTERS = str.maketrans(
    {
        # Cyrillic
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S", "Ԛ": "Q",
        "Ԝ": "W", "Ӏ": "I", "Ү": "Y", "Ԁ": "D", "Ꙇ": "I",
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "һ": "h",
        "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ү": "y", "ɡ": "g",
        # Greek
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        "α": "a", "ο": "o", "ν": "v", "ι": "i", "κ": "k", "ρ": "p", "υ": "u", "χ": "x",
        # Armenian and Latin extensions
        "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g", "զ": "q", "ı": "i", "ȷ": "j",
    }
)  # fmt: skip
# "O", "o", "I" and "l" standing between digits are the digits they pass for.
_DIGIT_LOOKALIKES = re.compile(r"(?<=\d)[OoIl]{1,3}(?=\d)", re.ASCII)
_AS_DIGIT = str.maketrans("OoIl", "0011")


def _ascii_digit(match: re.Match[str]) -> str:
    return str(unicodedata.decimal(match.group(), 0))


def normalise_text(text: str) -> str:
    """NFKC, invisible format characters dropped, every Unicode decimal digit as ASCII,
    look-alike letters of other scripts as Latin, and "O"/"l" between digits as 0/1.

    Why: "４１１１", "4111\u200b1111", Arabic-Indic digits, a Cyrillic "Е" in "DE89" and
    "4111 1O11" all read as a number to a human (and to the receiving end of an exfiltration),
    so they must to the detectors too.
    """
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    if not text.isascii():
        text = _UNICODE_DIGIT.sub(_ascii_digit, text).translate(_CONFUSABLE_LETTERS)
    return _DIGIT_LOOKALIKES.sub(lambda m: m.group().translate(_AS_DIGIT), text)


def strip_accents(text: str) -> str:
    """ "zéro", "três", "één" as "zero", "tres", "een" (ß as ss)."""
    decomposed = unicodedata.normalize("NFD", text.replace("ß", "ss"))
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


_DATE_TIME = re.compile(
    r"(?<!\d)(?:19|20)\d\d([-/.])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])(?!\d)"
    r"|(?<!\d)(?:0?[1-9]|[12]\d|3[01])([-/.])(?:0?[1-9]|[12]\d|3[01])\2(?:19|20)?\d\d(?!\d)"
    r"|(?<!\d)(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?!\d)",
    re.ASCII,
)


def mask_dates(text: str) -> str:
    """Blank out dates and times (same length) so "2024-05-01 2024-05-02" is no card number."""
    return _DATE_TIME.sub(lambda m: "#" * len(m.group()), text)


# --------------------------------------------------------------------------------------------
# Number words, 0 to 99, in the seven supported languages


def _english() -> dict[str, int]:
    units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    teens = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
    tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    words = {w: n for n, w in enumerate(units)} | {"oh": 0, "nought": 0, "nil": 0}
    words |= {w: 10 + n for n, w in enumerate(teens.split())}
    for t, ten in enumerate(tens, start=2):
        words[ten] = 10 * t
        for u in range(1, 10):
            words[f"{ten}-{units[u]}"] = 10 * t + u
    return words


def _german() -> dict[str, int]:
    units = ["null", "eins", "zwei", "drei", "vier", "funf", "sechs", "sieben", "acht", "neun"]
    teens = "zehn elf zwolf dreizehn vierzehn funfzehn sechzehn siebzehn achtzehn neunzehn"
    tens = ["zwanzig", "dreissig", "vierzig", "funfzig", "sechzig", "siebzig", "achtzig", "neunzig"]
    words = {w: n for n, w in enumerate(units)} | {"zwo": 2, "fuenf": 5, "ein": 1, "eine": 1}
    words |= {w: 10 + n for n, w in enumerate(teens.split())} | {"sechszehn": 16}
    for t, ten in enumerate(tens, start=2):
        words[ten] = 10 * t
        for u in range(1, 10):
            unit = "ein" if u == 1 else units[u]
            words[f"{unit}und{ten}"] = 10 * t + u
    for word, value in list(words.items()):  # "fünf" typed as "fuenf"
        if "u" in word:
            words.setdefault(word.replace("funf", "fuenf").replace("zwolf", "zwoelf"), value)
    return words


def _french() -> dict[str, int]:
    units = ["zero", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"]
    small = [
        "dix",
        "onze",
        "douze",
        "treize",
        "quatorze",
        "quinze",
        "seize",
        "dix-sept",
        "dix-huit",
        "dix-neuf",
    ]
    words = {w: n for n, w in enumerate(units)} | {"une": 1}
    words |= {w: 10 + n for n, w in enumerate(small)}
    below_20 = units + small
    for ten, value in (("vingt", 20), ("trente", 30), ("quarante", 40), ("cinquante", 50),
                       ("soixante", 60), ("septante", 70), ("huitante", 80), ("octante", 80),
                       ("nonante", 90)):  # fmt: skip
        words[ten] = value
        for u in range(1, 10):
            joiner = "-et-" if u == 1 else "-"
            words[f"{ten}{joiner}{units[u]}"] = value + u
            words.setdefault(f"{ten}-{units[u]}", value + u)
    for n in range(10, 20):  # 70-79: soixante-dix, soixante-et-onze, soixante-douze ...
        joiner = "-et-" if n == 11 else "-"
        words[f"soixante{joiner}{below_20[n]}"] = 60 + n
        words.setdefault(f"soixante-{below_20[n]}", 60 + n)
    for base in ("quatre-vingt", "quatre-vingts"):
        words[base] = 80
    for n in range(1, 20):  # 81-99: quatre-vingt-un ... quatre-vingt-dix-neuf
        words[f"quatre-vingt-{below_20[n]}"] = 80 + n
    return words


def _spanish() -> dict[str, int]:
    units = ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]
    small = [
        "diez",
        "once",
        "doce",
        "trece",
        "catorce",
        "quince",
        "dieciseis",
        "diecisiete",
        "dieciocho",
        "diecinueve",
        "veinte",
        "veintiuno",
        "veintidos",
        "veintitres",
        "veinticuatro",
        "veinticinco",
        "veintiseis",
        "veintisiete",
        "veintiocho",
        "veintinueve",
    ]
    words = {w: n for n, w in enumerate(units)} | {"un": 1, "una": 1, "veintiun": 21}
    words |= {w: 10 + n for n, w in enumerate(small)}
    for t, ten in enumerate(
        ["treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]
    ):
        words[ten] = 30 + 10 * t
        for u in range(1, 10):
            words[f"{ten}-y-{units[u]}"] = 30 + 10 * t + u
    return words


def _italian() -> dict[str, int]:
    units = ["zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove"]
    teens = [
        "dieci",
        "undici",
        "dodici",
        "tredici",
        "quattordici",
        "quindici",
        "sedici",
        "diciassette",
        "diciotto",
        "diciannove",
    ]
    tens = [
        "venti",
        "trenta",
        "quaranta",
        "cinquanta",
        "sessanta",
        "settanta",
        "ottanta",
        "novanta",
    ]
    words = {w: n for n, w in enumerate(units)} | {"un": 1, "una": 1}
    words |= {w: 10 + n for n, w in enumerate(teens)}
    for t, ten in enumerate(tens, start=2):
        words[ten] = 10 * t
        for u in range(1, 10):
            stem = ten[:-1] if units[u][0] in "aeiou" else ten  # ventuno, ventotto
            words[f"{stem}{units[u]}"] = 10 * t + u
    return words


def _portuguese() -> dict[str, int]:
    units = ["zero", "um", "dois", "tres", "quatro", "cinco", "seis", "sete", "oito", "nove"]
    teens = [
        "dez",
        "onze",
        "doze",
        "treze",
        "catorze",
        "quinze",
        "dezesseis",
        "dezessete",
        "dezoito",
        "dezenove",
    ]
    words = {w: n for n, w in enumerate(units)} | {"uma": 1, "duas": 2, "quatorze": 14}
    words |= {w: 10 + n for n, w in enumerate(teens)}
    words |= {"dezasseis": 16, "dezassete": 17, "dezanove": 19}
    tens = ["vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"]
    for t, ten in enumerate(tens, start=2):
        words[ten] = 10 * t
        for u in range(1, 10):
            words[f"{ten}-e-{units[u]}"] = 10 * t + u
    return words


def _dutch() -> dict[str, int]:
    units = ["nul", "een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"]
    teens = [
        "tien",
        "elf",
        "twaalf",
        "dertien",
        "veertien",
        "vijftien",
        "zestien",
        "zeventien",
        "achttien",
        "negentien",
    ]
    tens = ["twintig", "dertig", "veertig", "vijftig", "zestig", "zeventig", "tachtig", "negentig"]
    words = {w: n for n, w in enumerate(units)}
    words |= {w: 10 + n for n, w in enumerate(teens)}
    for t, ten in enumerate(tens, start=2):
        words[ten] = 10 * t
        for u in range(1, 10):
            words[f"{units[u]}en{ten}"] = 10 * t + u  # tweeentwintig (tweeëntwintig)
    return words


def _number_words() -> dict[str, int]:
    """Every language's words (accents stripped, compounds joined by "-"); languages agree
    wherever they share a word ("elf" is eleven in German and Dutch)."""
    table: dict[str, int] = {}
    for language in (_english, _german, _french, _spanish, _italian, _portuguese, _dutch):
        for word, value in language().items():
            assert table.get(word, value) == value, word
            table[word] = value
    return table


NUMBER_WORDS: dict[str, int] = _number_words()
_MAX_WORDS_IN_NUMBER = max(w.count("-") for w in NUMBER_WORDS) + 1
_LETTER_WORD = re.compile(r"[^\W\d_]+")
_WORD_GAP = re.compile(r"[\s\-]{1,3}")
_MULTIPLIER = {"double": 2, "triple": 3, "doppel": 2, "doppio": 2, "doble": 2, "dubbel": 2}
SPELLED_HOW = " (spelled out)"


def spelled_to_digits(text: str, least: int = 4) -> str | None:
    """Number words as digits: "four one" -> "41" (words in a row are one number), "twenty-two"
    -> "22", "double four" -> "44", "zweiundzwanzig" -> "22", "vingt et un" -> "21", in any of
    seven languages.

    None when fewer than `least` number words are found (nothing a number could hide in).
    Words are matched longest first (up to four joined by spaces or hyphens), in linear time.
    """
    words = list(islice(_LETTER_WORD.finditer(text), 20_000))
    keys = [strip_accents(w.group()).lower() for w in words]
    out: list[str] = []
    position, index, count, last_end = 0, 0, 0, -1
    while index < len(words):
        found = None
        for size in range(min(_MAX_WORDS_IN_NUMBER, len(words) - index), 0, -1):
            last = index + size - 1
            if any(
                not _WORD_GAP.fullmatch(text, words[i].end(), words[i + 1].start())
                for i in range(index, last)
            ):
                continue
            value = NUMBER_WORDS.get("-".join(keys[index : last + 1]))
            if value is not None:
                found = (size, value)
                break
        if found is None:
            index += 1
            continue
        size, value = found
        start, end = words[index].start(), words[index + size - 1].end()
        times = 1
        previous = index - 1
        if (
            previous >= 0
            and keys[previous] in _MULTIPLIER
            and _WORD_GAP.fullmatch(text, words[previous].end(), start)
            and words[previous].start() >= position
        ):
            times = _MULTIPLIER[keys[previous]]
            start = words[previous].start()
        gap = text[position:start]
        if count and position == last_end and _WORD_GAP.fullmatch(gap):
            gap = ""  # "vier acht zwei eins" reads as 4821: one number
        out.append(gap)
        out.append(str(value) * times)
        position = last_end = end
        count += 1
        index += size
    if count < least:
        return None
    out.append(text[position:])
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Digit groups with the words between them left out


_DIGIT_RUN = re.compile(r"(?:(?<![A-Za-z])[A-Z]{2})?\d+(?:[^\w#]{1,3}\d+)*", re.ASCII)
_GAP_WORD = re.compile(r"[^\W\d_]+")
_DECIMAL_END = re.compile(r"\d[.,]\d{1,2}$", re.ASCII)
_BANK_LETTERS = re.compile(r"(?<![A-Za-z0-9])[A-Z]{4}(?![A-Za-z0-9])", re.ASCII)
_MAX_WORDS_BETWEEN = 4
_MAX_GAP = 48
_MAX_RUNS = 2_000
_MAX_CARD_RUNS = 4
_MAX_WORDS_IN_CHAIN = 3  # between the groups of a card split three or four ways
GAPPED_HOW = " (split by words)"


def _number_runs(text: str) -> list[re.Match[str]]:
    """Runs of digits that could be part of a number: three or more digits, not an amount."""
    runs = []
    for run in islice(_DIGIT_RUN.finditer(text), _MAX_RUNS):
        value = run.group()
        if sum(c.isdigit() for c in value) < 3 and not value[:1].isalpha():
            continue  # too short to be part of a number; it counts as a word in the gap
        if _DECIMAL_END.search(value):
            continue  # an amount ("45.20", "1.234,56"): no card or account is written so
        runs.append(run)
    return runs


def _words_between(text: str, first: re.Match[str], second: re.Match[str]) -> int | None:
    """How many words stand between two runs, or None when they are too far apart."""
    gap = text[first.end() : second.start()]
    words = len(_GAP_WORD.findall(gap)) + len(re.findall(r"\d+", gap))
    return None if words > _MAX_WORDS_BETWEEN or len(gap) > _MAX_GAP else words


def _card_shaped(run: re.Match[str]) -> bool:
    """Groups of four digits (or eight, twelve): how a card number is written."""
    return all(len(g) % 4 == 0 for g in re.findall(r"\d+", run.group()))


def _card_piece(run: re.Match[str]) -> bool:
    """Written as a piece of a card number is: groups of four, or eight or more digits."""
    return _card_shaped(run) or any(len(g) >= 8 for g in re.findall(r"\d+", run.group()))


def gapped_numbers(text: str) -> str | None:
    """Numbers that words interrupt, with the words left out: "Renew card 4539 5787 6362,
    ends 1486" -> "4539 5787 6362 1486". None when no words were left out.

    For cards (a Luhn check passes one random number in ten, so the joins are few): two
    neighbouring runs of digits one of which is written as a piece of a card (groups of four,
    or eight digits or more), or up to four runs in groups of four (or eight, twelve) with at
    most three words
    between each. Readings are
    kept apart by "####" (no separator joins across it). Dates and times are masked before.
    """
    runs = _number_runs(text)
    readings: list[str] = []
    for index in range(len(runs)):
        chain, words = [runs[index]], 0
        for following in runs[index + 1 : index + _MAX_CARD_RUNS]:
            between = _words_between(text, chain[-1], following)
            if between is None:
                break
            chain.append(following)
            words += between
            if len(chain) == 2 and not any(_card_piece(run) for run in chain):
                break
            if len(chain) > 2 and (
                between > _MAX_WORDS_IN_CHAIN or not all(_card_shaped(run) for run in chain)
            ):
                break
            if words:
                readings.append(" ".join(run.group() for run in chain))
    return " #### ".join(readings) if readings else None


def gapped_account(text: str) -> str | None:
    """The runs of digits of `text` in order, with up to four words between neighbours left
    out and an IBAN's letters kept: "GB29 NWBK 6016, then 1331 9268 19" -> "GB29 NWBK 6016
    1331 9268 19". None when no words were left out. Only read for IBANs, whose country code,
    exact length and mod-97 check keep chance matches rare."""
    pieces: list[str] = []
    previous: re.Match[str] | None = None
    dropped = False
    for run in _number_runs(text):
        if previous is not None:
            between = _words_between(text, previous, run)
            if between is None:
                pieces.append("####")  # too far apart: not one number (no separator joins)
            elif between:
                dropped = True
                gap = text[previous.end() : run.start()]
                pieces.extend(_BANK_LETTERS.findall(gap))
        pieces.append(run.group())
        previous = run
    return " ".join(pieces) if dropped else None


# --------------------------------------------------------------------------------------------
# Decodings


_B64_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{16,}={0,2}(?![A-Za-z0-9+/=_\-])")
# For matching what a private store said, shorter tokens count too (a password is short).
_B64_SHORT_TOKEN = re.compile(
    r"(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{8,}={0,2}(?![A-Za-z0-9+/=_\-])"
)
_B32_TOKEN = re.compile(r"(?<![A-Za-z0-9=])(?:[A-Z2-7]{16,}|[a-z2-7]{16,})={0,6}(?![A-Za-z0-9=])")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")


def _readable(raw: bytes) -> str | None:
    """The bytes as text if they are readable UTF-8 with a letter or digit, else None."""
    try:
        value = raw.decode("utf-8")
    except ValueError:
        return None
    readable = sum(c.isprintable() or c in "\t\r\n" for c in value)
    if value and readable >= 0.95 * len(value) and any(c.isalnum() for c in value):
        return value
    return None


def _base64_text(text: str, pattern: re.Pattern[str] = _B64_TOKEN) -> str | None:
    """Decoded text of base64-looking tokens that decode to readable UTF-8 (one level)."""
    decoded: list[str] = []
    for match in islice(pattern.finditer(text), _MAX_B64_TOKENS):
        token = match.group().rstrip("=").replace("-", "+").replace("_", "/")
        try:
            raw = base64.b64decode(token + "=" * (-len(token) % 4), validate=True)
        except (binascii.Error, ValueError):
            continue
        value = _readable(raw)
        if value is not None:
            decoded.append(value)
    return normalise_text(" ".join(decoded)) if decoded else None


def _base32_text(text: str) -> str | None:
    """Decoded text of base32 tokens (RFC 4648, either case) that decode to readable UTF-8."""
    decoded: list[str] = []
    for match in islice(_B32_TOKEN.finditer(text), _MAX_B64_TOKENS):
        token = match.group().rstrip("=").upper()
        try:
            raw = base64.b32decode(token + "=" * (-len(token) % 8))
        except (binascii.Error, ValueError):
            continue
        value = _readable(raw)
        if value is not None:
            decoded.append(value)
    return normalise_text(" ".join(decoded)) if decoded else None


_HEX_TOKEN = re.compile(
    r"(?<![0-9A-Fa-f])(?:(?:0x|\\x)?[0-9A-Fa-f]{2}[\s:\-]?){8,}(?![0-9A-Fa-f])", re.ASCII
)
_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm",
)
ROT13_HOW = " (ROT13)"


def _hex_text(text: str) -> str | None:
    """Decoded text of hex-looking runs ("48656c6c6f", "48:65:6c", "\\x48\\x65") that decode to
    readable UTF-8 (one level, bounded like base64)."""
    decoded: list[str] = []
    for match in islice(_HEX_TOKEN.finditer(text), _MAX_B64_TOKENS):
        digits = re.sub(r"0x|\\x|[\s:\-]", "", match.group())
        if len(digits) % 2:
            digits = digits[:-1]
        try:
            raw = bytes.fromhex(digits)
        except ValueError:
            continue
        value = _readable(raw)
        if value is not None:
            decoded.append(value)
    return normalise_text(" ".join(decoded)) if decoded else None


def views(text: str, short: bool = False) -> Iterator[tuple[str, str]]:
    """The ways a value could be read, each normalised: as typed, URL/HTML-decoded, base64-,
    base32-, hex- and ROT13-decoded (one level each: a detector is a tripwire, not a decoder
    of everything). `short` decodes shorter base64 tokens (for matching private text)."""
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
    b32 = _base32_text(plain)
    if b32:
        yield " (base32)", b32
    hexed = _hex_text(plain)
    if hexed:
        yield " (hex)", hexed
    if any(c.isalpha() for c in plain if c.isascii()):
        yield ROT13_HOW, plain.translate(_ROT13)


def decoded_views(text: str) -> list[str]:
    """Every reading of `text` the detectors use: as typed and decoded (for other checks)."""
    return [view for _how, view in views(text)]


_FOLD_DROP = re.compile(r"[\W_]+")


def fold(text: str) -> str:
    """Case, separators and look-alike characters folded away: "4111-1111.1111/1111" and
    "4111 1111 1111 1111" both become "4111111111111111"."""
    return _FOLD_DROP.sub("", normalise_text(text).casefold())
