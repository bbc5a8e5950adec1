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
