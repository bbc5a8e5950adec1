"""Detectors: true positives, ordinary text that must stay quiet, bypass attempts, checksums.

The detectors only ever raise the gate's decision, so a miss is a weaker dialog and a false
hit is a needless one: both matter, and both are tested here.
"""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.agent.gate.detectors import (
    IBAN_LENGTHS,
    JOINED_PATH,
    KINDS,
    Finding,
    iban_valid,
    luhn_valid,
    normalise_text,
    scan,
    ssn_valid,
)


def kinds(arguments: dict) -> set[str]:
    return {f.kind for f in scan(arguments)}


def luhn_complete(prefix: str) -> str:
    """Append the check digit that makes `prefix` Luhn-valid."""
    for digit in "0123456789":
        if luhn_valid(prefix + digit):
            return prefix + digit
    raise AssertionError("unreachable")


def make_iban(country: str, bban: str) -> str:
    """A valid IBAN from a country code and account part (ISO 13616 check digits)."""
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(numeric) % 97:02d}{bban}"


# ---------------------------------------------------------------------------------------------
# Ordinary text: nothing at all


ORDINARY = [
    "Lunch with Sam at 12:30",
    "Room 4111",
    "2024-05-01",
    "2024-05-01T09:00:00+02:00",
    "01/05/2024 to 14/05/2024",
    "+1 (555) 123-4567",
    "+44 20 7946 0958",
    "555-123-4567",
    "+49 151 23456789",
    "Team standup in the small room",
    "Call mom on Sunday",
    "Pick up the kids at 3:15pm",
    "Quarterly planning, building 2, floor 3",
    "Flight BA 283 departs 18:45 from gate 22",
    "Order 12345 has shipped",
    "Dinner for 4 at Luigi's, 12 Main St",
    "Renew my passport next month",
    "Send the slides to the team",
    "Transfer the notes to the shared folder",
    "Pay attention to the 10:30 deadline",
    "Buy a pound of flour and two eggs",
    "Drive to 12 Oak Dr. Springfield",
    "zip code 94110",
    "The code review is at 14:00",
    "area code 415",
    "Meeting ID 845 2231 9921",
    "Read chapter 12, pages 40-55",
    "Doctoral thesis defence rehearsal",
    "Nursery rhymes for the toddler group",
    "Sam's flute lesson",
    "ask-questions-about-the-project-roadmap-and-timeline",
    "Version 3.11.7 released on 2023-12-04",
    "invoice March 2024",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_finds_nothing(text: str) -> None:
    assert scan({"text": text}) == []


def test_ordinary_calendar_and_email_calls_find_nothing() -> None:
    event = {
        "title": "Dinner with Anna",
        "start": "2024-06-01T19:00",
        "end": "2024-06-01T21:00",
        "location": "Luigi's, 12 Main St",
        "description": "Table for 4, call +1 415 555 0134 if late",
        "attendees": ["anna@example.com"],
    }
    assert scan(event) == []
    free = {"start": "2024-05-01", "end": "2024-05-02", "duration_minutes": 30}
    assert scan(free) == []
    mail = {
        "to": ["sam@example.com"],
        "subject": "Friday",
        "body": "Hi Sam,\n\nare we still on for Friday at 12:30 in room 4111?\n\nCheers",
    }
    assert scan(mail) == []


def test_kinds_are_the_documented_six() -> None:
    assert set(KINDS) == {"payment_card", "iban", "money", "health", "government_id", "secret"}


# ---------------------------------------------------------------------------------------------
# Payment cards and Luhn


@pytest.mark.parametrize(
    "number",
    [
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "4111111111111111",
        "5555 5555 5555 4444",
        "3782 822463 10005",  # Amex, 15
        "6011 1111 1111 1117",  # Discover
        "3530111333300000",  # JCB
        "30569309025904",  # Diners, 14
        "4222222222222",  # Visa, 13
        "4111 - 1111 - 1111 - 1111",
        "4111\u00a01111\u00a01111\u00a01111",  # no-break spaces
        "4111\u20131111\u20131111\u20131111",  # en dashes
        "４１１１ １１１１ １１１１ １１１１",  # fullwidth digits
        "4111\u200b1111\u200b1111\u200b1111",  # zero-width spaces
        "٤١١١١١١١١١١١١١١١",  # Arabic-Indic digits
        "4111\n1111\n1111\n1111",
    ],
)
def test_card_numbers_are_found(number: str) -> None:
    findings = scan({"body": f"my card is {number} thanks"})
    assert [f.kind for f in findings] == ["payment_card"]
    assert findings[0].path == "body"


def test_nineteen_digit_card_is_found() -> None:
    number = luhn_complete("6" + "2" * 17)
    assert len(number) == 19
    assert kinds({"body": number}) == {"payment_card"}


@pytest.mark.parametrize(
    "text",
    [
        "4111 1111 1111 1112",  # Luhn fails
        "4111 1111 1111",  # 12 digits
        "41111111111111111234",  # 20 digits in one group: some other id
        "0000 0000 0000 0000",  # Luhn-valid but no card
        "4444 4444 4444 4444 4444",  # repeated digit
    ],
)
def test_not_card_numbers(text: str) -> None:
    assert "payment_card" not in kinds({"body": text})


def test_luhn_valid_but_not_a_card_prefix() -> None:
    # 13-19 digits that pass Luhn but start with 0, 1, 7, 8 or 9 (timestamps, ids, phones)
    for first in "01789":
        number = luhn_complete(first + "234567890123")
        assert luhn_valid(number)
        assert "payment_card" not in kinds({"id": number})


def test_luhn_function() -> None:
    assert luhn_valid("79927398713")
    assert not luhn_valid("79927398710")
    assert luhn_valid("4111111111111111")
    assert not luhn_valid("4111111111111112")
    assert not luhn_valid("")
    assert not luhn_valid("4111 1111")
    assert not luhn_valid("١١١")  # only ASCII digits count here


def test_card_as_a_number_value() -> None:
    assert kinds({"amount": 4111111111111111}) == {"payment_card"}
    assert kinds({"amount": 4111111111111111.0}) == {"payment_card"}


def test_card_split_across_two_fields() -> None:
    findings = scan({"subject": "Ref 4111 1111", "body": "1111 1111 thanks"})
    assert [(f.kind, f.path) for f in findings] == [("payment_card", JOINED_PATH)]


def test_card_split_across_fields_in_reverse_order() -> None:
    findings = scan({"body": "1111 1111", "subject": "4111 1111"})
    assert [f.kind for f in findings] == ["payment_card"]


def test_card_split_across_list_items_and_numbers() -> None:
    assert kinds({"notes": ["4111", "1111", "1111", "1111"]}) == {"payment_card"}
    assert kinds({"a": 41111111, "b": 11111111}) == {"payment_card"}


def test_card_next_to_other_numbers_is_found() -> None:
    assert kinds({"body": "call 555 1234 4111 1111 1111 1111 2024"}) == {"payment_card"}


@pytest.mark.parametrize(
    "text",
    [
        "four one one one one one one one one one one one one one one one",
        "Four, one, one, one, one, one, one, one, one, one, one, one, one, one, one, one",
        "four-one-one-one one-one-one-one one-one-one-one one-one-one-one",
        "four triple one " + "one " * 12,  # 4, 111, then twelve 1s: sixteen digits
        "4111 one one one one 1111 1111",
        "five five five five, five five five five, five five five five, four four four four",
    ],
)
def test_spelled_out_card_numbers(text: str) -> None:
    findings = scan({"body": text})
    assert [f.kind for f in findings] == ["payment_card"]
    assert "spelled" in findings[0].excerpt


def test_spelled_out_words_that_are_not_a_card() -> None:
    assert scan({"body": "one two three four, here we go"}) == []
    assert scan({"body": "Oh, one more thing: the two of us at nine"}) == []


def test_encoded_card_numbers() -> None:
    url = "https://example.com/?c=4111%201111%201111%201111"
    assert [f.path for f in scan({"query": url})] == ["query (decoded)"]
    b64 = "NDExMSAxMTExIDExMTEgMTExMQ=="  # base64("4111 1111 1111 1111")
    assert [f.path for f in scan({"body": f"ref {b64}"})] == ["body (base64)"]
    entities = "&#52;&#49;&#49;&#49;111111111111"
    assert kinds({"body": entities}) == {"payment_card"}


def test_card_excerpt_is_redacted() -> None:
    (finding,) = scan({"body": "4111 1111 1111 1234".replace("1234", "1111")})
    assert finding.excerpt == "card number ending 1111"
    number = luhn_complete("453201511283036")
    (finding,) = scan({"body": number})
    digits = re.sub(r"\D", "", finding.excerpt)
    assert digits == number[-4:]


@settings(max_examples=150, deadline=None)
@given(
    body=st.lists(st.integers(0, 9), min_size=14, max_size=14),
    separator=st.sampled_from(["", " ", "-", " - ", "\u00a0", "\u2013"]),
    cut=st.integers(1, 3),
    reverse=st.booleans(),
)
def test_split_cards_are_always_found(
    body: list[int], separator: str, cut: int, reverse: bool
) -> None:
    """Any Visa-shaped number, any separator, split at any group boundary into two fields."""
    number = luhn_complete("4" + "".join(map(str, body)))
    groups = [number[i : i + 4] for i in range(0, 16, 4)]
    first, second = separator.join(groups[:cut]), separator.join(groups[cut:])
    arguments = (
        {"body": second, "subject": first} if reverse else {"subject": first, "body": second}
    )
    findings = scan(arguments)
    assert "payment_card" in {f.kind for f in findings}
    for finding in findings:
        assert number not in re.sub(r"\D", "", finding.excerpt)


# ---------------------------------------------------------------------------------------------
# IBAN and mod-97


VALID_IBANS = [
    "DE89370400440532013000",
    "GB82WEST12345698765432",
    "FR1420041010050500013M02606",
    "NL91ABNA0417164300",
    "NO9386011117947",  # shortest (15)
    "BE68539007547034",
    "CH9300762011623852957",
    "MT84MALT011000012345MTLCAST001S",  # 31, letters in the account part
    "IT60X0542811101000000123456",
    "ES9121000418450200051332",
]


@pytest.mark.parametrize("iban", VALID_IBANS)
def test_valid_ibans(iban: str) -> None:
    assert iban_valid(iban)
    grouped = " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))
    assert kinds({"body": f"please pay to {grouped} today"}) >= {"iban"}
    assert "iban" in kinds({"body": iban.lower()})


def test_iban_checksum_edge_cases() -> None:
    assert not iban_valid("DE88370400440532013000")  # check digits off by one
    assert not iban_valid("DE89370400440532013001")  # account digit changed
    assert not iban_valid("DE8937040044053201300")  # too short for DE
    assert not iban_valid("DE893704004405320130000")  # too long for DE
    assert not iban_valid("US133000000121212121212")  # AgentDojo's: US has no IBAN
    assert not iban_valid("XX89370400440532013000")
    assert not iban_valid("")
    assert iban_valid(" de89 3704 0044 0532 0130 00 ")
    # Check digits 00/01/99 satisfy mod-97 for some accounts but are never issued.
    for account in range(10_000):
        iban = make_iban("DE", f"{account:018d}")
        if iban[2:4] == "02":
            shadow = iban[:2] + "99" + iban[4:]
            rearranged = shadow[4:] + shadow[:4]
            assert int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1
            assert not iban_valid(shadow)
            break
    else:
        pytest.fail("no account with check digits 02 found")


def test_iban_lengths_table_matches_known_examples() -> None:
    for iban in VALID_IBANS:
        assert IBAN_LENGTHS[iban[:2]] == len(iban)


@pytest.mark.parametrize(
    "text",
    [
        "DE89 3704 0044 0532 0130 0012",  # runs on: not this IBAN
        "US13 3000 0001 2121 2121 2121 2",
        "AB12 3456 7890 1234 5678",
    ],
)
def test_not_ibans(text: str) -> None:
    assert "iban" not in kinds({"body": text})


def test_iban_behind_a_decoy_is_still_found() -> None:
    assert "iban" in kinds({"body": "AB12 DE89 3704 0044 0532 0130 00"})


def test_iban_excerpt_is_redacted() -> None:
    (finding,) = [f for f in scan({"body": "DE89370400440532013000"}) if f.kind == "iban"]
    assert finding.excerpt == "IBAN DE… ending 3000"
    assert "370400440532" not in finding.excerpt


# ---------------------------------------------------------------------------------------------
# Money


@pytest.mark.parametrize(
    "text",
    [
        "That will be $2,500",
        "€30 for the tickets",
        "30 € for the tickets",
        "USD 1,200.50",
        "1200 EUR",
        "send me 500 dollars",
        "five hundred euros",
        "twenty pounds",
        "£1.2m",
        "please wire 5k today",
        "transfer 3000 to my account",
        "Payment of 450 due",
        "invoice 48213",
        "she paid 75 last week",
        "refund 120 to the customer",
        "wire transfer",
        "my bank account details",
        "buy gift cards for me",
        "sort code please",
    ],
)
def test_money(text: str) -> None:
    assert "money" in kinds({"body": text})


def test_money_excerpt_masks_account_numbers() -> None:
    findings = scan({"body": "transfer to account 12345678"})
    assert findings and all("12345678" not in f.excerpt for f in findings)


# ---------------------------------------------------------------------------------------------
# Health


@pytest.mark.parametrize(
    "text",
    [
        "My diagnosis came back",
        "Diagnosed with diabetes last year",
        "Prescription refill",
        "Doctor appointment",
        "doctor's appointment at 3",
        "Dentist at 3pm",
        "clinic visit",
        "Session with my therapist",
        "Psychiatrist follow-up",
        "HIV test",
        "pregnancy scan",
        "She is pregnant",
        "Chemotherapy round 2",
        "pick up insulin",
        "antidepressants",
        "Blood test on Monday",
        "lab results",
        "Appointment with Dr. Patel",
        "see dr Okafor",
        "The doctors said",
        "two therapists",
        "MRI at the hospital",
        "metformin 500mg",
        "GP appointment",
        "A&E visit",
        "dentistry",
    ],
)
def test_health(text: str) -> None:
    assert "health" in kinds({"description": text})


@pytest.mark.parametrize(
    "text",
    [
        "Lunch with Sam",
        "Doctoral thesis",
        "Nursery school pickup",
        "flute practice",
        "the aids in the first aid kit",
        "Drive to 12 Oak Dr. Springfield",
        "read STDERR output",
        "Hivemind meeting",
        "Be patient with the build",
    ],
)
def test_not_health(text: str) -> None:
    assert "health" not in kinds({"description": text})


# ---------------------------------------------------------------------------------------------
# Government ids


@pytest.mark.parametrize(
    "text",
    [
        "SSN 536-22-1234",
        "536-22-1234",
        "my social security number is 536 22 1234",
        "SSN: 536221234",
        "NI number AB 12 34 56 C",
        "AB123456C",
        "passport number 123456789",
        "Passport no. C01X00T47",
        "driver's license number D1234567",
    ],
)
def test_government_ids(text: str) -> None:
    findings = [f for f in scan({"body": text}) if f.kind == "government_id"]
    assert findings
    for finding in findings:
        assert "536221234" not in re.sub(r"\D", "", finding.excerpt)
        assert "123456789" not in finding.excerpt


@pytest.mark.parametrize(
    "text",
    [
        "000-12-3456",
        "666-12-3456",
        "900-12-3456",
        "123-00-4567",
        "123-45-0000",
        "078-05-1120",  # the Woolworth wallet card
        "536221234",  # bare nine digits without context
        "GB123456A",  # GB is not a valid NI prefix
        "AB123456E",  # suffix only A-D
        "passport expires 2030",
    ],
)
def test_not_government_ids(text: str) -> None:
    assert "government_id" not in kinds({"body": text})


def test_ssn_rules() -> None:
    assert ssn_valid("536-22-1234")
    assert ssn_valid("536221234")
    for bad in ("000221234", "666221234", "936221234", "536001234", "536220000", "53622123"):
        assert not ssn_valid(bad)


# ---------------------------------------------------------------------------------------------
# Secrets


SECRETS = {
    "password: hunter2": "hunter2",
    "my password is hunter2": "hunter2",
    "pw=correcthorse": "correcthorse",
    "Your verification code is 482913": "482913",
    "OTP 4829": "4829",
    "482913 is your login code": "482913",
    "2FA code: 123 456": "123 456",
    "security code 9921": "9921",
    "PIN 4821": "4821",
    "the code is 77310": "77310",
    "key sk-proj-abcdefghijklmnopqrstuvwxyz123456": "abcdefghijklmnopqrstuvwxyz",
    "AKIAIOSFODNN7EXAMPLE": "IOSFODNN7EXAMPLE",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789": "abcdefghijklmnopqrstuvwxyz",
    "Authorization: Bearer abcdefghijklmnopqrstuvwxyz": "abcdefghijklmnopqrstuvwxyz",
    "api_key=abcd1234efgh5678": "abcd1234efgh5678",
    "-----BEGIN RSA PRIVATE KEY-----": "RSA PRIVATE",
    "xoxb-123456789012-abcdefghij": "123456789012",
}


@pytest.mark.parametrize(("text", "secret"), list(SECRETS.items()))
def test_secrets_are_found_and_never_repeated(text: str, secret: str) -> None:
    findings = [f for f in scan({"body": text}) if f.kind == "secret"]
    assert findings
    for finding in findings:
        assert secret not in finding.excerpt


def test_password_word_alone_counts() -> None:
    assert kinds({"fact": "my bank passwords"}) >= {"secret"}


# ---------------------------------------------------------------------------------------------
# Structure: paths, keys, nesting, robustness


def test_nested_paths_and_keys() -> None:
    findings = scan(
        {
            "attendees": [{"email": "x@example.com", "note": "card 4111 1111 1111 1111"}],
            "4111111111111111": "a card number as an argument name",
        }
    )
    paths = {f.path for f in findings}
    assert "attendees[0].note" in paths
    # a card number used as an argument name is found, and the path does not repeat it
    assert "<name 1> (name)" in paths
    assert all("41111111" not in f.path + f.excerpt for f in findings)


def test_each_value_reported_once_per_path() -> None:
    findings = scan({"body": "4111 1111 1111 1111 and again 4111-1111-1111-1111"})
    assert len([f for f in findings if f.kind == "payment_card"]) == 1


def test_findings_are_plain_frozen_records() -> None:
    finding = Finding("money", "body", "$5")
    with pytest.raises(AttributeError):
        finding.kind = "x"  # type: ignore[misc]


def test_normalise_text() -> None:
    assert normalise_text("４\u200b１") == "41"
    assert normalise_text("٤١") == "41"


def test_huge_numbers_do_not_break_the_scan() -> None:
    assert scan({"n": 10**5000, "m": -(10**5000), "f": 1e308}) == []


def test_large_input_is_fast() -> None:
    text = ("Lunch with Sam at 12:30 in room 4111. " * 5000)[:200_000]
    started = time.perf_counter()
    assert scan({"body": text}) == []
    assert time.perf_counter() - started < 5


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.one_of(st.text(), st.integers(), st.floats(), st.booleans(), st.none()),
        lambda children: st.one_of(
            st.lists(children, max_size=4), st.dictionaries(st.text(), children, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_scan_never_raises(value: object) -> None:
    for finding in scan({"value": value}):
        assert finding.kind in KINDS
