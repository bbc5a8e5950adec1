"""One normalisation pipeline under every detector (issue #37, class 1; issue #41, class 2).

Each property spells the same private number or secret another way (look-alike letters and
digits of other scripts, number words in each supported language, base32, words between its
parts) and every detector with a checksum must still see it; ordinary text stays quiet.
"""

from __future__ import annotations

import base64
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.agent.gate.detectors import JOINED_PATH, luhn_valid, scan
from app.agent.gate.detectors.normalise import spelled_to_digits

IBAN = "DE89370400440532013000"
IBAN_GB = "GB29NWBK60161331926819"
CARD = "4539578763621486"


def kinds(arguments: dict) -> set[str]:
    return {f.kind for f in scan(arguments)}


def luhn_complete(prefix: str) -> str:
    return next(prefix + d for d in "0123456789" if luhn_valid(prefix + d))


# -- look-alike letters and digits --------------------------------------------------------------

LETTER_LOOKALIKES = {
    "D": ["D", "Ｄ", "𝐃"],
    "E": ["E", "Е", "Ε", "Ｅ"],  # Latin, Cyrillic, Greek, full-width
    "G": ["G", "Ｇ"],
    "B": ["B", "В", "Β"],
    "N": ["N", "Ν"],
    "W": ["W", "Ԝ"],
    "K": ["K", "К", "Κ"],
}
DIGIT_SCRIPTS = [
    "0123456789",
    "٠١٢٣٤٥٦٧٨٩",  # Arabic-Indic
    "۰۱۲۳۴۵۶۷۸۹",  # Extended Arabic-Indic
    "०१२३४५६७८९",  # Devanagari
    "０１２３４５６７８９",  # full-width
    "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗",  # mathematical bold
]


@settings(max_examples=120, deadline=None)
@given(
    iban=st.sampled_from([IBAN, IBAN_GB]),
    picks=st.lists(st.integers(0, 5), min_size=22, max_size=22),
    group=st.sampled_from(["", " ", "-"]),
)
def test_an_iban_in_any_look_alike_characters_is_found(
    iban: str, picks: list[int], group: str
) -> None:
    spelled = []
    for char, pick in zip(iban, picks, strict=True):
        if char.isdigit():
            spelled.append(DIGIT_SCRIPTS[pick][int(char)])
        else:
            options = LETTER_LOOKALIKES.get(char, [char])
            spelled.append(options[pick % len(options)])
    text = group.join("".join(spelled[i : i + 4]) for i in range(0, len(spelled), 4))
    assert "iban" in kinds({"query": f"account {text}"}), text


def test_letters_o_and_l_between_digits_read_as_digits() -> None:
    """Only between digits: "4000 0O00" is a card, "OO44" at a group's start stays letters."""
    assert "payment_card" in kinds({"note": "4000 0O00 0O00 0002"})
    assert "payment_card" in kinds({"note": "4111 1l11 11I1 1111"})
    assert "iban" in kinds({"note": "DE89 37O4 0O44 0532 0l30 00"})


# -- number words in every supported language -------------------------------------------------

DIGIT_WORDS = {
    "en": "zero one two three four five six seven eight nine",
    "fr": "zéro un deux trois quatre cinq six sept huit neuf",
    "de": "null eins zwei drei vier fünf sechs sieben acht neun",
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve",
    "it": "zero uno due tre quattro cinque sei sette otto nove",
    "pt": "zero um dois três quatro cinco seis sete oito nove",
    "nl": "nul een twee drie vier vijf zes zeven acht negen",
}


def in_words(digits: str, language: str, separator: str) -> str:
    words = DIGIT_WORDS[language].split()
    return separator.join(words[int(d)] for d in digits)


@settings(max_examples=80, deadline=None)
@given(
    language=st.sampled_from(sorted(DIGIT_WORDS)),
    separator=st.sampled_from([" ", "-", ", "]),
    upper=st.booleans(),
)
def test_an_iban_in_number_words_is_found_in_every_language(
    language: str, separator: str, upper: bool
) -> None:
    """Issue #37: an IBAN in German number words left under a standing search grant."""
    text = f"DE {in_words(IBAN[2:], language, separator)}"
    text = text.upper() if upper else text
    assert "iban" in kinds({"query": text}), text


@settings(max_examples=80, deadline=None)
@given(
    language=st.sampled_from(sorted(DIGIT_WORDS)),
    body=st.lists(st.integers(0, 9), min_size=14, max_size=14),
)
def test_a_card_in_number_words_is_found_in_every_language(language: str, body: list[int]) -> None:
    number = luhn_complete("4" + "".join(map(str, body)))
    assert "payment_card" in kinds({"note": in_words(number, language, " ")})


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("twenty-two", "22"),
        ("ninety nine", "99"),
        ("zweiundzwanzig", "22"),
        ("siebenundneunzig", "97"),
        ("vingt et un", "21"),
        ("soixante-dix-sept", "77"),
        ("quatre-vingt-dix-neuf", "99"),
        ("veintidós", "22"),
        ("treinta y dos", "32"),
        ("ventitré", "23"),
        ("ventotto", "28"),
        ("vinte e dois", "22"),
        ("tweeëntwintig", "22"),
        ("double four", "44"),
    ],
)
def test_compound_number_words(text: str, digits: str) -> None:
    assert spelled_to_digits(text, least=1) == digits


def test_an_iban_read_out_in_german_pairs() -> None:
    pairs = (
        "DE neunundachtzig siebenunddreißig null vier null null vierundvierzig null fünf "
        "zweiunddreißig null eins dreißig null null"
    )
    assert "iban" in kinds({"query": pairs})


def test_a_pin_spelled_out() -> None:
    assert "secret" in kinds({"text": "Geheimzahl vier acht zwei eins"})


# -- encodings -----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", [str.upper, str.lower])
@pytest.mark.parametrize(
    ("plain", "kind"),
    [(f"card {CARD}", "payment_card"), (f"iban {IBAN}", "iban"), ("password: hunter22", "secret")],
)
def test_base32_is_decoded(case, plain: str, kind: str) -> None:
    token = case(base64.b32encode(plain.encode()).decode().rstrip("="))
    assert kind in kinds({"query": f"ref {token}"})


# -- money ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "1,2 Mio. €",
        "3 Mrd. CHF",
        "950 zł",
        "120 Kč",
        "fifteen grand",
        "zwanzig Euro",
        "cinquante euros",
        "2 millones de pesos",
    ],
)
def test_money_in_more_spellings(text: str) -> None:
    assert "money" in kinds({"note": text})


# -- secrets by their label words, any case, any supported language ----------------------------

PIN_LABELS = [
    "pin",
    "card pin",
    "PIN-Nummer",
    "Geheimzahl",
    "code secret",
    "code PIN",
    "número secreto",
    "código PIN",
    "codice PIN",
    "pincode",
    "senha",
    "Passwort",
    "mot de passe",
    "wachtwoord",
    "contraseña",
]


@settings(max_examples=120, deadline=None)
@given(
    label=st.sampled_from(PIN_LABELS),
    casing=st.lists(st.booleans(), min_size=20, max_size=20),
    number=st.integers(1000, 99_999_999),
    after=st.booleans(),
)
def test_a_pin_by_its_label_word_in_any_case(
    label: str, casing: list[bool], number: int, after: bool
) -> None:
    """Issue #41, class 2: "Sparkasse card pin 4821" was set as a reminder without asking."""
    word = "".join(c.upper() if up else c.lower() for c, up in zip(label, casing * 2, strict=False))
    text = f"Sparkasse {word} {number} - change it" if not after else f"{number} is my {word}"
    assert "secret" in kinds({"text": text}), text


def test_the_red_team_reminder_is_a_secret() -> None:
    findings = scan({"text": "Sparkasse card pin 4821 - change it at the ATM"})
    assert [f.kind for f in findings] == ["secret"]
    assert "4821" not in findings[0].excerpt


# -- a password in an address's user-info (issue #37, class 3) ----------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://alice:s3cr3t-pw@example.com/files",
        "ftp://backup:Hunter2!@192.0.2.10/",
        "postgres://app:correcthorse@db.example.net:5432/main",
        "smb://user:pa%24%24word@nas/share",
        "HTTPS://ALICE:SECRET@EXAMPLE.COM",
    ],
)
def test_a_password_in_an_address_is_a_secret(url: str) -> None:
    findings = [f for f in scan({"url": url}) if f.kind == "secret"]
    assert findings, url
    assert all(url.split("@")[0].split(":")[-1] not in f.excerpt for f in findings)


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/@alice/posts",
        "ssh://git@github.com/owner/repo.git",  # a user name, no password
        "mailto:bob@example.com",
        "https://example.com:8443/path",
    ],
)
def test_addresses_without_a_password_stay_quiet(text: str) -> None:
    assert "secret" not in kinds({"url": text})


# -- a number split across arguments with words between its parts (issue #37, class 2) ---------

FILLERS = ["ends", "and then", "notes: last digits", "ref", "see", "expires soon,", "the rest"]


@settings(max_examples=120, deadline=None)
@given(
    body=st.lists(st.integers(0, 9), min_size=14, max_size=14),
    cuts=st.sets(st.sampled_from([4, 8, 12]), min_size=1, max_size=3),
    fillers=st.lists(st.sampled_from(FILLERS), min_size=3, max_size=3),
    across=st.booleans(),
)
def test_a_card_split_by_words_is_found(
    body: list[int], cuts: set[int], fillers: list[str], across: bool
) -> None:
    number = luhn_complete("4" + "".join(map(str, body)))
    bounds = [0, *sorted(cuts), 16]
    parts = [number[a:b] for a, b in pairwise(bounds)]
    if across:  # the first parts in a title, the rest in the notes, words around them
        title = "Renew card " + " ".join(parts[:-1])
        arguments = {"title": title, "notes": f"{fillers[0]} {parts[-1]}"}
    else:
        pieces = [parts[0]]
        for filler, part in zip(fillers, parts[1:], strict=False):
            pieces += [filler, part]
        arguments = {"notes": "card " + " ".join(pieces)}
    assert "payment_card" in kinds(arguments), arguments


def test_the_red_team_task_is_a_card() -> None:
    findings = scan({"title": "Renew card 4539 5787 6362", "notes": "ends 1486"})
    assert [(f.kind, f.path) for f in findings] == [("payment_card", JOINED_PATH)]
    assert findings[0].excerpt.endswith("1486")


def test_a_file_name_and_its_content() -> None:
    arguments = {"path": "card-4539-5787.txt", "content": "rest: 6362 1486"}
    assert "payment_card" in kinds(arguments)


def test_an_iban_split_by_words() -> None:
    assert "iban" in kinds({"title": "GB29 NWBK 6016", "notes": "then 1331 9268 19"})
    assert "iban" in kinds({"query": "DE89 3704 sort 0044 0532 suffix 0130 00"})


@pytest.mark.parametrize(
    "text",
    [
        "Meeting in room 204 with 12 people, then 3 talks of 45 minutes each",
        "Order 5512 shipped, order 7731 pending, order 9034 cancelled",
        "Flights LH 2034 and LH 2035, seats 14C and 14D, gate B22",
        "Call 030 1234567 or 0171 2345678 between 9 and 17",
        "Invoice 2024-118 for 3 items, 250 g each",
    ],
)
def test_ordinary_numbers_between_words_are_no_card(text: str) -> None:
    assert "payment_card" not in kinds({"notes": text})
