"""IBANs: a country's length and the ISO 13616 mod-97 check, any separators."""

from __future__ import annotations

import re

from app.agent.gate.detectors.base import IBAN, Hit, key

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


_IBAN_CANDIDATE = re.compile(
    # An upper-case country code may stand apart from its check digits ("DE 89 3704 ...").
    r"(?<![A-Za-z])(?=((?:[A-Za-z]{2}[0-9]{2}|[A-Z]{2}[ \-]?[0-9][^A-Za-z0-9]{0,3}[0-9])"
    r"(?:[^A-Za-z0-9]{0,3}[A-Za-z0-9]){11,32}))",
    re.ASCII,
)


def iban_hits(text: str) -> list[Hit]:
    hits: list[Hit] = []
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
            hits.append(Hit(IBAN, key(IBAN, compact), excerpt))
    return hits
