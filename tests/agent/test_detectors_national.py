"""National identity numbers beyond the US and UK, found near the words that name them and
checked by python-stdnum's check digits. The old detectors found none of these."""

from __future__ import annotations

import pytest

from app.agent.gate.detectors import scan


def _ids(text: str) -> list[str]:
    return [f.excerpt for f in scan({"note": text}) if f.kind == "government_id"]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Meine Steuer-ID ist 36574261809.", "German tax id"),
        ("Steueridentifikationsnummer: 36 574 261 809", "German tax id"),
        ("numéro de sécurité sociale : 2 95 10 99 126 111 93", "French social security number"),
        ("NIR 295109912611193", "French social security number"),
        ("mi DNI es 54362315-K", "Spanish identity number"),
        ("NIE X1234567L", "Spanish identity number"),
        ("Il mio codice fiscale è RCCMNL83S18D969H", "Italian tax code"),
        ("BSN: 1112.22.333", "Dutch citizen service number"),
        ("Mitt personnummer är 811228-9874", "Swedish personal identity number"),
    ],
)
def test_national_ids_near_their_words_are_found(text: str, label: str) -> None:
    found = _ids(text)
    assert len(found) == 1 and found[0].startswith(label)
    digits = "".join(c for c in text if c.isalnum())
    assert digits[-6:] not in found[0]  # the excerpt keeps only the last two characters


@pytest.mark.parametrize(
    "text",
    [
        "my number is 36574261809",  # valid digits, but no word says what they are
        "Steuer-ID 36574261808",  # wrong check digit
        "BSN 111222334",  # fails the 11-test
        "codice fiscale RCCMNL83S18D969A",  # wrong check letter
        "DNI 54362315A",
        "order 111222333 shipped" + "." * 50 + " the BSN form is attached",  # too far apart
    ],
)
def test_numbers_without_their_words_or_check_digits_are_not(text: str) -> None:
    assert _ids(text) == []


# -- issue #41: more countries, and identity documents named in the supported languages -------


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("NHS number 943 476 5919", "UK NHS number"),
        ("my nhs no. is 943-476-5870", "UK NHS number"),
        ("Rijksregisternummer 85 07 30 033 28", "Belgian national number"),
        ("numéro national: 85.07.30-033.28", "Belgian national number"),
        ("Cartão de Cidadão 00000000 0 ZZ4", "Portuguese citizen card number"),
        ("NIF 501 964 843", "Portuguese tax number"),
        ("meu CPF é 390.533.447-05", "Brazilian CPF"),
        ("AHV-Nummer 756.9217.0769.85", "Swiss social security number"),
        ("Sozialversicherungsnummer 1237 010180", "Austrian social security number"),
        ("CPR-nummer 211062-5629", "Danish CPR number"),
        ("fødselsnummer 151086 95088", "Norwegian national identity number"),
        ("henkilötunnus 131052-308T", "Finnish personal identity code"),
        ("PESEL 44051401359", "Polish PESEL"),
        ("SIN 123-456-782", "Canadian social insurance number"),
        ("Aadhaar 2341 2341 2346", "Indian Aadhaar number"),
        ("CURP BOXW310820HNERXN09", "Mexican CURP"),
        ("RUT 76.086.428-5", "Chilean RUT"),
        ("CNP 1630615123457", "Romanian personal numeric code"),
        ("AMKA 01013099997", "Greek social security number"),
        ("OIB 33392005961", "Croatian personal id"),
    ],
)
def test_more_national_ids_near_their_words_are_found(text: str, label: str) -> None:
    found = _ids(text)
    assert len(found) == 1 and found[0].startswith(label), found


@pytest.mark.parametrize(
    "text",
    [
        "NHS 943 476 5918",  # wrong check digit
        "PESEL 44051401358",
        "CPF 390.533.447-06",
        "call 943 476 5919 tomorrow",  # a valid NHS number's digits, but no word says so
    ],
)
def test_more_national_ids_need_their_words_and_check_digits(text: str) -> None:
    assert _ids(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Personalausweis L01X00T47",
        "personalausweis-nr. L01X00T47",
        "Ausweisnummer: T22000129",
        "Reisepass C01X00T47",
        "numéro de passeport 18AB12345",
        "mi pasaporte es PAA123456",
        "passaporto YA1234567",
        "paspoort NXC9R1234",
        "carte d'identité n° 880692310285",
    ],
)
def test_identity_documents_named_in_the_supported_languages(text: str) -> None:
    assert len(_ids(text)) == 1, text


def test_the_red_team_memory_is_two_ids() -> None:
    """Issue #41, class 1: the memory that was saved without asking."""
    found = _ids("NHS number 943 476 5919, Personalausweis L01X00T47")
    assert len(found) == 2
    assert not any("5919" in excerpt or "L01X00" in excerpt for excerpt in found)


def test_the_safety_page_lists_every_national_id() -> None:
    """docs/safety.md says which national numbers are detected: all of them, by name."""
    from pathlib import Path

    from app.agent.gate.detectors import NATIONAL_ID_LABELS

    page = (Path(__file__).parents[2] / "docs" / "safety.md").read_text(encoding="utf-8")
    safety = " ".join(page[page.index("## Safety") :].split())
    for label in NATIONAL_ID_LABELS:
        name = label.split(" (")[0]
        assert name in safety, name
