"""Government ids: US SSNs and UK National Insurance numbers by shape, identity documents
named in the supported languages, and national identity numbers near their own words with
python-stdnum's check digits."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice

from stdnum.at import vnr as stdnum_at_vnr
from stdnum.be import nn as stdnum_be_nn
from stdnum.br import cpf as stdnum_br_cpf
from stdnum.ca import sin as stdnum_ca_sin
from stdnum.ch import ssn as stdnum_ch_ssn
from stdnum.cl import rut as stdnum_cl_rut
from stdnum.de import idnr as stdnum_de_idnr
from stdnum.dk import cpr as stdnum_dk_cpr
from stdnum.es import dni as stdnum_es_dni
from stdnum.es import nie as stdnum_es_nie
from stdnum.fi import hetu as stdnum_fi_hetu
from stdnum.fr import nir as stdnum_fr_nir
from stdnum.gb import nhs as stdnum_gb_nhs
from stdnum.gr import amka as stdnum_gr_amka
from stdnum.hr import oib as stdnum_hr_oib
from stdnum.ie import pps as stdnum_ie_pps
from stdnum.in_ import aadhaar as stdnum_in_aadhaar
from stdnum.it import codicefiscale as stdnum_it_codicefiscale
from stdnum.mx import curp as stdnum_mx_curp
from stdnum.nl import bsn as stdnum_nl_bsn
from stdnum.no import fodselsnummer as stdnum_no_fodselsnummer
from stdnum.pl import pesel as stdnum_pl_pesel
from stdnum.pt import cc as stdnum_pt_cc
from stdnum.pt import nif as stdnum_pt_nif
from stdnum.ro import cnp as stdnum_ro_cnp
from stdnum.se import personnummer as stdnum_se_personnummer

from app.agent.gate.detectors.base import GOVERNMENT_ID, MAX_HITS, Hit, key
from app.agent.gate.detectors.base import near as _near

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
# Identity documents by name, in the supported languages; their numbers have no public
# check digit, so a number with four or more digits right after the words is enough.
_ID_PHRASE = re.compile(
    r"(?<![A-Za-z])(passport|driv(?:er'?s?|ing)\s+licen[cs]e|national\s+id(?:entity)?(?:\s+card)?|"
    r"id\s+card|identity\s+card|personalausweis|ausweis|reisepass|pass(?:nummer|-nr)|f[üu]hrerschein|"
    r"carte\s+d'identit[ée]|carte\s+nationale\s+d'identit[ée]|cni|passeport|"
    r"permis\s+de\s+conduire|pasaporte|documento\s+de\s+identidad|carn[ée]\s+de\s+conducir|"
    r"carta\s+d'identit[àa]|passaporto|patente(?:\s+di\s+guida)?|identiteitskaart|"
    r"id[\s\-]kaart|paspoort|rijbewijs|passaporte|carta\s+de\s+condu[çc][ãa]o)"
    r"(?:\s*+(?:no\.?|number|num\.?|nr\.?|#|id|nummer|num[ée]ro|n[°º]\.?|-?nr\.?))?"
    r"\s*+(?:is|was|ist|est|es|è|é|:|#|=|-)?\s*+"
    r"([A-Za-z0-9](?:[A-Za-z0-9\-]{4,18})[A-Za-z0-9])(?![A-Za-z0-9])",
    re.IGNORECASE,
)


# A German identity card or passport serial: nine of these letters and digits ("L01X00T47").
_ID_CARD_SERIAL = re.compile(r"[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8}", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _NationalId:
    """A national identity number: the words that name it, its shape, its check digits."""

    label: str
    context: re.Pattern[str]
    shape: re.Pattern[str]
    is_valid: Callable[[str], bool]


def _digits(count: int) -> str:
    """`count` digits, each optionally after a space, dot, dash or slash (36 574 261 809)."""
    return rf"(?<![\w\-.])\d(?:[ .\-/]?\d){{{count - 1}}}(?![\w\-])"


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


def _shape(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w\-]){pattern}(?![\w\-])", re.IGNORECASE)


_NUMBER_WORD = r"(?:\s*+(?:number|no\.?|nr\.?|nummer|num[ée]ro|n[°º]))?"

# Each is looked for only within 40 characters of its own words, in any case and in the
# countries' own languages (random 9-digit strings pass the Dutch 11-test about 1 time in 11);
# python-stdnum checks the digits. docs/safety.md lists these.
_NATIONAL_IDS = (
    _NationalId(
        "UK NHS number",
        _words(r"nhs" + _NUMBER_WORD + r"|national\s+health\s+service\s+number|chi\s+number"),
        re.compile(_digits(10)),
        stdnum_gb_nhs.is_valid,
    ),
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
        "Belgian national number",
        _words(r"rijksregister(?:nummer)?|insz|niss|num[ée]ro\s+national|registre\s+national|"
               r"national\s+(?:register\s+)?number|nationalregisternummer"),
        re.compile(_digits(11)),
        stdnum_be_nn.is_valid,
    ),
    _NationalId(
        "Portuguese citizen card number (cartão de cidadão)",
        _words(r"cart[ãa]o\s+de\s+cidad[ãa]o|cc|bi|bilhete\s+de\s+identidade|"
               r"identifica[çc][ãa]o\s+civil"),
        _shape(r"\d{8}[ \-]?\d[ \-]?[A-Z0-9]{2}\d"),
        stdnum_pt_cc.is_valid,
    ),
    _NationalId(
        "Portuguese tax number (NIF)",
        _words(r"nif|contribuinte|n[úu]mero\s+fiscal"),
        re.compile(_digits(9)),
        stdnum_pt_nif.is_valid,
    ),
    _NationalId(
        "Brazilian CPF",
        _words(r"cpf"),
        _shape(r"\d{3}\.?\d{3}\.?\d{3}[\-/ ]?\d{2}"),
        stdnum_br_cpf.is_valid,
    ),
    _NationalId(
        "Swiss social security number (AHV/AVS)",
        _words(r"ahv|avs|avs|ahv[\s\-]*nummer|sozialversicherungsnummer|num[ée]ro\s+avs|"
               r"social\s+security"),
        _shape(r"756[ .]?\d{4}[ .]?\d{4}[ .]?\d{2}"),
        stdnum_ch_ssn.is_valid,
    ),
    _NationalId(
        "Austrian social security number",
        _words(r"sozialversicherungsnummer|sv[\s\-]*(?:nummer|nr)|svnr|vsnr|versicherungsnummer|"
               r"e[\s\-]*card|social\s+security"),
        _shape(r"\d{4}[ ]?\d{6}"),
        stdnum_at_vnr.is_valid,
    ),
    _NationalId(
        "Danish CPR number",
        _words(r"cpr" + _NUMBER_WORD + r"|personnummer"),
        _shape(r"\d{6}[\- ]?\d{4}"),
        stdnum_dk_cpr.is_valid,
    ),
    _NationalId(
        "Norwegian national identity number (fødselsnummer)",
        _words(r"f[øo]dselsnummer|personnummer"),
        re.compile(_digits(11)),
        stdnum_no_fodselsnummer.is_valid,
    ),
    _NationalId(
        "Swedish personal identity number (personnummer)",
        _words(r"person[\s\-]*(?:nummer|nr)"),
        re.compile(r"(?<![\w\-])(?:\d{2})?\d{6}[\-+ ]?\d{4}(?![\w\-])"),
        stdnum_se_personnummer.is_valid,
    ),
    _NationalId(
        "Finnish personal identity code (henkilötunnus)",
        _words(r"henkil[öo]tunnus|hetu|personbeteckning"),
        _shape(r"\d{6}[\-+A-FU-Y]\d{3}[0-9A-Y]"),
        stdnum_fi_hetu.is_valid,
    ),
    _NationalId(
        "Polish PESEL",
        _words(r"pesel"),
        re.compile(_digits(11)),
        stdnum_pl_pesel.is_valid,
    ),
    _NationalId(
        "Canadian social insurance number (SIN)",
        _words(r"sin" + _NUMBER_WORD + r"|social\s+insurance(?:\s+number)?|nas|"
               r"num[ée]ro\s+d'assurance\s+sociale"),
        re.compile(_digits(9)),
        stdnum_ca_sin.is_valid,
    ),
    _NationalId(
        "Irish PPS number",
        _words(r"ppsn?" + _NUMBER_WORD + r"|personal\s+public\s+service(?:\s+number)?"),
        _shape(r"\d{7}[A-W][ABWTXZ]?"),
        stdnum_ie_pps.is_valid,
    ),
    _NationalId(
        "Indian Aadhaar number",
        _words(r"aadhaa?r|uidai|uid"),
        _shape(r"\d{4}[ \-]?\d{4}[ \-]?\d{4}"),
        stdnum_in_aadhaar.is_valid,
    ),
    _NationalId(
        "Mexican CURP",
        _words(r"curp"),
        _shape(r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d"),
        stdnum_mx_curp.is_valid,
    ),
    _NationalId(
        "Chilean RUT",
        _words(r"rut|run"),
        _shape(r"\d{1,2}\.?\d{3}\.?\d{3}-?[\dK]"),
        stdnum_cl_rut.is_valid,
    ),
    _NationalId(
        "Romanian personal numeric code (CNP)",
        _words(r"cnp|cod\s+numeric\s+personal"),
        re.compile(_digits(13)),
        stdnum_ro_cnp.is_valid,
    ),
    _NationalId(
        "Greek social security number (AMKA)",
        _words(r"amka"),
        re.compile(_digits(11)),
        stdnum_gr_amka.is_valid,
    ),
    _NationalId(
        "Croatian personal id (OIB)",
        _words(r"oib"),
        re.compile(_digits(11)),
        stdnum_hr_oib.is_valid,
    ),
)  # fmt: skip
NATIONAL_ID_LABELS: tuple[str, ...] = tuple(kind.label for kind in _NATIONAL_IDS)


def _national_id_hits(text: str) -> list[Hit]:
    hits: list[Hit] = []
    for kind in _NATIONAL_IDS:
        contexts = list(islice(kind.context.finditer(text), MAX_HITS))
        if not contexts:
            continue
        numbers = [m for m in kind.shape.finditer(text) if kind.is_valid(m.group())]
        starts = [m.start() for m in numbers]
        near = {id(m): m for c in contexts for m in _near(numbers, starts, c.start(), c.end(), 40)}
        for match in sorted(near.values(), key=lambda m: m.start()):
            value = re.sub(r"[^0-9A-Za-z]", "", match.group()).upper()
            excerpt = f"{kind.label} •••{value[-2:]}"
            hits.append(Hit(GOVERNMENT_ID, key(GOVERNMENT_ID, value), excerpt))
    return hits


def government_hits(text: str) -> list[Hit]:
    hits: list[Hit] = []
    for match in _SSN_DASHED.finditer(text):
        if ssn_valid(match.group()):
            digits = match.group().replace("-", "")
            excerpt = f"SSN •••-••-{digits[-4:]}"
            hits.append(Hit(GOVERNMENT_ID, key(GOVERNMENT_ID, digits), excerpt))
    contexts = list(islice(_SSN_CONTEXT.finditer(text), MAX_HITS))
    if contexts:
        numbers = [m for m in _SSN_LOOSE.finditer(text) if ssn_valid(m.group())]
        starts = [m.start() for m in numbers]
        near = {id(m): m for c in contexts for m in _near(numbers, starts, c.start(), c.end(), 40)}
        for match in sorted(near.values(), key=lambda m: m.start()):
            digits = re.sub(r"\D", "", match.group())
            excerpt = f"SSN •••-••-{digits[-4:]}"
            hits.append(Hit(GOVERNMENT_ID, key(GOVERNMENT_ID, digits), excerpt))
    for match in _UK_NI.finditer(text):
        prefix = match.group(1).upper()
        if prefix in _UK_NI_BAD_PREFIX:
            continue
        value = "".join(match.groups()).upper()
        excerpt = f"UK National Insurance number ••••••{value[-3:]}"
        hits.append(Hit(GOVERNMENT_ID, key(GOVERNMENT_ID, value), excerpt))
    for match in _ID_PHRASE.finditer(text):
        number = match.group(2)
        digits = sum(c.isdigit() for c in number)
        if digits < 4 and not (digits >= 2 and _ID_CARD_SERIAL.fullmatch(number)):
            continue
        what = " ".join(match.group(1).split()).lower()
        excerpt = f"{what} number •••{number[-3:]}"
        hits.append(Hit(GOVERNMENT_ID, key(GOVERNMENT_ID, number.upper()), excerpt))
    return hits + _national_id_hits(text)
