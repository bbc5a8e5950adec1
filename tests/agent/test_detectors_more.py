"""Detectors, issue #16: any separator joins digit groups, hex and ROT13 beside base64 and
percent, number words in the app's languages, seed phrases and cloud keys, linear time on any
input, and secrets kept out of the audit log whatever the gate decided."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.agent.gate.detectors import scan
from app.agent.tools.registry import Registry
from app.agent.tools.toolbox import build_registry
from app.agent.turn.audit import AuditEntry, MemoryAuditLog
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.store.database import Database
from tests.scripting import call, script

CARD = "4111111111111111"


def kinds(arguments: dict) -> set[str]:
    return {f.kind for f in scan(arguments)}


@pytest.mark.parametrize("separator", [".", "/", "_", ":", ",", "~", "|", "*", " / ", "·"])
def test_any_separator_joins_digit_groups(separator: str) -> None:
    number = separator.join(["4111", "1111", "1111", "1111"])
    assert kinds({"query": f"card {number}"}) >= {"payment_card"}, number
    iban = separator.join(["DE89", "3704", "0044", "0532", "0130", "00"])
    assert kinds({"query": iban}) >= {"iban"}, iban


@pytest.mark.parametrize(
    "text",
    [
        "Version 3.11.7 released on 2023-12-04",
        "Read chapter 12, pages 40-55",
        "scores 12/14, 9/10 and 7/8",
        "coordinates 48.8566, 2.3522",
        "1.2.3.4 5.6.7.8",
    ],
)
def test_separated_numbers_that_are_no_card_stay_quiet(text: str) -> None:
    assert scan({"body": text}) == []


def _hex(text: str) -> str:
    return text.encode().hex()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (_hex(f"card {CARD}"), "payment_card"),
        (_hex("password: hunter22"), "secret"),
        (":".join(f"{b:02x}" for b in b"DE89370400440532013000"), "iban"),
        ("".join(f"\\x{b:02x}" for b in b"password: hunter22"), "secret"),
        ("cnffjbeq: uhagre22", "secret"),  # ROT13 of "password: hunter22"
        ("QR89 3704 0044 0532 0130 00", "iban"),  # ROT13 of the letters of an IBAN
        ("nxvnvbfsbqaa7rknzcyr".upper(), "secret"),  # ROT13 of an AWS access key id
    ],
)
def test_hex_and_rot13_are_decoded(text: str, kind: str) -> None:
    findings = [f for f in scan({"query": text}) if f.kind == kind]
    assert findings, text
    assert findings[0].path in ("query (hex)", "query (ROT13)")


def test_rot13_of_ordinary_text_finds_nothing() -> None:
    assert scan({"body": "RPT TC meeting with the ZEV team at 10:00"}) == []


@pytest.mark.parametrize(
    "text",
    [
        "quatre un un un un un un un un un un un un un un un",  # French
        "vier eins eins eins eins eins eins eins eins eins eins eins eins eins eins eins",
        "cuatro uno uno uno uno uno uno uno uno uno uno uno uno uno uno uno",  # Spanish
        "quattro uno uno uno uno uno uno uno uno uno uno uno uno uno uno uno",  # Italian
        "quatro um um um um um um um um um um um um um um um",  # Portuguese
        "vier één één één één één één één één één één één één één één één",  # Dutch
        "cinq cinq cinq cinq, cinq cinq cinq cinq, cinq cinq cinq cinq, quatre quatre "
        "quatre quatre",
    ],
)
def test_number_words_in_the_supported_languages(text: str) -> None:
    findings = scan({"body": text})
    assert [f.kind for f in findings] == ["payment_card"], text


def test_ordinary_words_in_other_languages_are_no_card() -> None:
    assert scan({"body": "un café et deux croissants pour quatre personnes"}) == []
    assert scan({"body": "Ich habe eins, zwei, drei Äpfel"}) == []


# -- seed phrases and cloud keys ----------------------------------------------------------------

SEED_12 = "abandon " * 11 + "about"  # the BIP-39 test vector (valid checksum)
SEED_24 = (
    "legal winner thank year wave sausage worth useful legal winner thank year wave sausage "
    "worth useful legal winner thank year wave sausage worth title"
)


@pytest.mark.parametrize(
    "text",
    [
        SEED_12,
        SEED_24,
        SEED_12.upper().replace(" ", ", "),
        "words: " + SEED_12.replace(" ", "-") + " (keep safe)",
        base64.b64encode(SEED_12.encode()).decode(),
    ],
)
def test_seed_phrases_are_found(text: str) -> None:
    findings = [f for f in scan({"fact": text}) if f.kind == "secret"]
    assert findings, text
    assert all("abandon" not in f.excerpt and "legal" not in f.excerpt for f in findings)


def test_ordinary_sentences_of_wordlist_words_are_no_seed() -> None:
    # Every word is on the BIP-39 list, but the checksum does not hold.
    text = "please remember to buy milk and bread after work today with my family"
    assert "secret" not in kinds({"fact": text})


CLOUD_KEYS = [
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "AWS key ASIAY34FZKBOKMUTVV7A",
    "AGPAIOSFODNN7EXAMPLE",
    '{"type": "service_account", "project_id": "demo", "private_key_id": "a1b2c3d4e5f6"}',
    "token ya29.a0AfH6SMBx3kq9Zb0c1d2e3f4g5h6i7j8k9l0mnopqrstu",
    "client secret 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",
    "DefaultEndpointsProtocol=https;AccountName=demo;AccountKey="
    + "A" * 86
    + "==;EndpointSuffix=core.windows.net",
    "https://demo.blob.core.windows.net/c/f?sv=2022-11-02&se=2030-01-01&sp=r&sig=abcDEF123%2Bxyz%3D",
    "dop_v1_" + "a1" * 32,
    "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",
    "npm_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "pypi-AgEIcHlwaS5vcmc" + "A" * 60,
    "SG." + "a" * 22 + "." + "b" * 43,
    "LTAI5tQ9x8Yz7Wv6Ut5Sr4",
]


@pytest.mark.parametrize("text", CLOUD_KEYS)
def test_cloud_keys_are_found(text: str) -> None:
    findings = [f for f in scan({"body": text}) if f.kind == "secret"]
    assert findings, text


# -- linear time on any input --------------------------------------------------------------------

# Pieces a quadratic pattern would choke on when repeated: runs that almost match.
FRAGMENTS = [
    "eyJ", "eyJabc.", "glpat-", "xoxb-", "token=", "authorization:", "password ", "code ",
    "pay ", "1 ", "123 ", "4111 ", "one ", "quatre ", "DE89", "passport ", "@", "a@", "ab",
    "0x", "\\x4", "=", "-", ".", ",", " ", "\n", "> ", "From: a@b\n", "abandon ", "sk-",
    "AKIA", "ya29.", "https://", "%41", "&#52;",
]  # fmt: skip


# Repeated, each makes a backtracking pattern rescan the rest of the input from every start
# (before issue #16: about 18 s for 16 kB of "123 ", 8 s of "one one ").
WORST = ["123 ", "one one ", "code 1234 ", "pay 12 ", "password ", "eyJ", "ssn 123 45 6789 "]


@pytest.mark.timeout(180)  # a guard for a hang, far above the few seconds linear code takes
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    worst=st.sampled_from(WORST),
    pieces=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=4),
    repeat=st.integers(5_000, 8_000),
)
def test_long_adversarial_inputs_are_scanned_and_never_leak(
    worst: str, pieces: list[str], repeat: int
) -> None:
    """Tens of kilobytes of near-matches. The time is measured as a ratio in
    bench/detector_scaling.py, not asserted here; what is asserted is that the scan ends and
    that no excerpt repeats a long digit run or a key."""
    text = worst * (repeat // len(worst) * 4) + "".join(pieces) * (repeat // len(pieces))
    for finding in scan({"body": text, "other": text[: len(text) // 3]}):
        assert not re.search(r"\d{8}", finding.excerpt), finding
        assert len(finding.excerpt) < 200


# -- the audit log keeps no secret, whatever the decision -------------------------------------

SECRET_VALUES = [
    "4111.1111.1111.1111",
    "4111_1111_1111_1111",
    "DE89 3704 0044 0532 0130 00",
    "password: hunter22",
    "AKIAIOSFODNN7EXAMPLE",
    SEED_12,
]


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _clear(value: str, stored: str) -> bool:
    """True when `stored` still holds `value` in clear (as typed, or its digits)."""
    folded = stored.replace("\\", "")
    if value in folded:
        return True
    digits = _digits(value)
    return len(digits) >= 12 and digits in _digits(folded)


@pytest.mark.parametrize("value", SECRET_VALUES)
def test_the_audit_log_hides_secrets_in_any_argument(tmp_path: Path, value: str) -> None:
    database = Database.open(tmp_path)
    log = database.audit_log()
    entries = [
        AuditEntry("web_search", {"query": f"look up {value}"}, "confirm", "denied", "refused"),
        AuditEntry(
            "send_email", {"to": ["a@b.example"], "meta": {"note": [value]}}, "allow", None, "ok"
        ),
        AuditEntry(
            "no_such_tool",
            {"x": value},
            "deny",
            None,
            "refused",
            reasons=[f"unknown tool, argument {value}"],
        ),
        AuditEntry(
            "read_file",
            {"path": f"/home/me/{value}.txt"},
            "deny",
            None,
            "refused",
            reasons=[f"the path /home/me/{value}.txt is outside the allowed folders"],
            result_preview=f"Refused: {value}",
        ),
    ]
    for entry in entries:
        log.write(entry)
    for row in log.recent():
        stored = row.arguments_json + row.reasons_json + row.result_preview
        assert not _clear(value, stored), (row.tool, stored)
    database.close()


def test_a_refused_card_through_the_agent_is_not_in_the_audit_log(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    registry: Registry = build_registry(data=database)
    number = "4111.1111.1111.1111"
    agent = Agent(
        script(
            call("web_search", query=f"card {number}"),
            call("no_such_tool", card=number),
            "Done.",
        ),
        registry,
        audit=database.audit_log(),
    )
    agent.run_turn(Conversation(), "hi")
    rows = database.audit_log().recent()
    assert len(rows) == 2
    stored = json.dumps([[r.arguments_json, r.reasons_json, r.result_preview] for r in rows])
    assert not _clear(number, stored)
    database.close()


def test_memory_audit_entries_are_redacted_the_same_way() -> None:
    log = MemoryAuditLog()
    log.write(AuditEntry("web_search", {"query": "4111/1111/1111/1111"}, "deny", None, "refused"))
    assert _digits(CARD) not in _digits(json.dumps(log.entries[0].redacted_arguments()))


def test_words_added_beside_a_fields_number_do_not_part_it_from_anothers() -> None:
    """Found by the gate's monotonicity property: "$2,500" in one field and a phone number
    in another read as a card when joined; words added after the amount in its own field
    must not make that finding (and the question it asks) go away."""
    before = {"query": "please wire $2,500", "since": "+1 (555) 123-4567"}
    after = {"query": "please wire $2,500 my HIV test results", "since": "+1 (555) 123-4567"}
    assert "payment_card" in {f.kind for f in scan(before)}
    assert "payment_card" in {f.kind for f in scan(after)}
