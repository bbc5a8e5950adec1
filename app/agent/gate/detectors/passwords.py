"""Secrets: passwords and PINs by their label words (any case, the supported languages),
one-time codes near their words, a password in an address, API keys and tokens by shape, and
wallet seed phrases (BIP-39 words with a checksum)."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice

from app.agent.gate import bip39
from app.agent.gate.detectors.base import (
    MAX_HITS,
    NUMBER_AFTER,
    NUMBER_BEFORE,
    SECRET,
    Hit,
    Spans,
    key,
)
from app.agent.gate.detectors.base import near as _near

# "Password" and "PIN" in the supported languages, in any case.
_PASSWORD_WORDS = (
    r"passwort|kennwort|geheimzahl|geheimnummer|pin[\s\-]?nummer|mot\s+de\s+passe|mdp|"
    r"code\s+secret|code\s+confidentiel|contrase[ñn]a|clave\s+secreta|n[úu]mero\s+secreto|"
    r"c[óo]digo\s+secreto|senha|palavra[\s\-]passe|wachtwoord|pincode|parola\s+d'ordine|"
    r"codice\s+segreto"
)
# A password in an address's user-info: scheme://user:secret@host/... (not a shape ROT13
# keeps meaning: the ROT13 reading skips it).
_USER_INFO = re.compile(
    r"(?i)(?<![A-Za-z0-9+.\-])[a-z][a-z0-9+.\-]{0,20}://[^\s/:@?#]{0,128}:[^\s/@?#]{1,256}@"
)
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
            r"(?i)(?<![A-Za-z])(password|passwd|passphrase|passcode|pwd|pw|pin(?:\s+code)?|"
            + _PASSWORD_WORDS
            + r")\s*+(?:is|was|ist|war|est|[ée]tait|es|era|[èé]|:|=)\s*+\S{1,256}"
        ),
        lambda m: f"{' '.join(m.group(1).split()).lower()}: [redacted]",
    ),
    (_USER_INFO, lambda m: "password in an address (user:password@host) [redacted]"),
    (
        re.compile(r"(?i)(?<![A-Za-z])(?:seed|recovery|mnemonic|secret)\s+phrases?(?![A-Za-z])"),
        lambda m: "wallet seed phrase (mentioned)",
    ),
    (
        re.compile(
            r"(?i)(?<![A-Za-z])(?:pass(?:word|phrase|code)s?|" + _PASSWORD_WORDS + r")(?![A-Za-z])"
        ),
        lambda m: f"{m.group().lower()} (mentioned)",
    ),
)


# Seed phrases: 12 to 24 words of the BIP-39 list (a wallet's master key). Words may be
# numbered or separated by punctuation; 12 to 17 need a valid checksum in some window (so
# ordinary prose of list words stays quiet), 18 or more in a row count as they are.
_WORD = re.compile(r"[a-z]+")
_SEED_GAP = re.compile(r"[^a-z]{1,8}")


def _seed_hits(text: str) -> list[Hit]:
    lowered = text.casefold()
    run: list[str] = []
    last_end = -1
    hits: list[Hit] = []

    def close() -> None:
        if len(run) >= 18 or (len(run) >= 12 and _checksum_window(run)):
            hits.append(
                Hit(SECRET, key(SECRET, " ".join(run)), f"wallet seed phrase ({len(run)} words)")
            )

    for match in _WORD.finditer(lowered):
        word = match.group()
        joined = last_end >= 0 and _SEED_GAP.fullmatch(lowered, last_end, match.start()) is not None
        if word in bip39.INDEX and (joined or not run):
            run.append(word)
        else:
            close()
            run = [word] if word in bip39.INDEX else []
            if len(hits) >= MAX_HITS:
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


# Words that make a nearby number a secret, in any case and in the supported languages:
# "card pin 4821", "Geheimzahl 4821", "code secret 4821", "código de verificación 118204".
_OTP_KEYWORD = re.compile(
    r"(?i)(?<![A-Za-z])(?:(?:one[\s\-]?time|verification|verify|security|confirmation|login|"
    r"log[\s\-]?in|sign[\s\-]?in|auth(?:entication|orization|enticator)?|access|backup|"
    r"recovery|reset|activation|2fa|mfa|sms|otp|door|gate|alarm|safe|lock(?:box)?)\s+"
    r"(?:code|pin|passcode|key)s?|otp|2fa|mfa|totp|passcodes?|one[\s\-]?time\s+passwords?|"
    r"pins?|pin[\s\-]?codes?|m?tan|"
    + _PASSWORD_WORDS
    + r"|(?:sicherheits|zugangs|best[äa]tigungs|verifizierungs|bestaetigungs|anmelde|tür|tuer)"
    r"code|code\s+(?:pin|de\s+(?:v[ée]rification|confirmation|s[ée]curit[ée]|acc[èe]s))|"
    r"c[óo]digo\s+(?:pin|de\s+(?:verificaci[óo]n|seguridad|acceso|confirmaci[óo]n|"
    r"verifica[çc][ãa]o|seguran[çc]a|acesso|confirma[çc][ãa]o))|"
    r"codice\s+(?:pin|di\s+(?:verifica|sicurezza|accesso|conferma))|"
    r"(?:verificatie|bevestigings|beveiligings|toegangs)code)(?![A-Za-z])"
)
_OTP_NUMBER = re.compile(NUMBER_BEFORE + r"(?:\d{4,8}|\d{3}[ \-]\d{3})" + NUMBER_AFTER, re.ASCII)
# "code" directly followed by a number ("code: 4821", "the code is 77310"); possessive, so a
# long gap is not tried every way.
_CODE_THEN_NUMBER = re.compile(
    r"(?i)(?<![A-Za-z])code(?![A-Za-z])\s*+(?:is\s*+|[:=#\-]\s*+)?"
    + NUMBER_BEFORE
    + r"(?P<number>\d{4,8}|\d{3}[ \-]\d{3})"
    + NUMBER_AFTER
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
    NUMBER_BEFORE + r"(\d{4,8})\s+is\s+(?:your|the)\s+(?:[A-Za-z\-]+\s+){0,2}code(?![A-Za-z])",
    re.IGNORECASE,
)
_OTP_NEAR = 40


def secret_hits(text: str, masked: str, keys_only: bool = False) -> list[Hit]:
    """Keys, tokens, passwords and seed phrases by shape; with `keys_only` False also
    one-time codes (a number near a word like "code" or "PIN"). Linear time: patterns start
    only where a token starts and are bounded, and number/keyword pairs are found by bisection."""
    hits: list[Hit] = []
    spans = Spans()
    for pattern, describe in _SECRET_PATTERNS:
        if keys_only and pattern is _USER_INFO:
            continue
        for match in islice(pattern.finditer(text), MAX_HITS):
            if spans.overlaps(*match.span()):
                continue  # a more specific pattern already covers this text
            spans.add(*match.span())
            hits.append(Hit(SECRET, key(SECRET, match.group()), describe(match)))
    hits += _seed_hits(text)
    if keys_only:
        return hits
    numbers = list(_OTP_NUMBER.finditer(masked))
    if not numbers:
        return hits
    starts = [number.start() for number in numbers]
    for keyword in islice(_OTP_KEYWORD.finditer(masked), MAX_HITS):
        for number in _near(numbers, starts, keyword.start(), keyword.end(), _OTP_NEAR):
            what = " ".join(keyword.group().split()).lower()
            hits.append(Hit(SECRET, key(SECRET, number.group()), f"{what} [redacted]"))
    for match in islice(_CODE_THEN_NUMBER.finditer(masked), MAX_HITS):
        before = re.findall(r"[A-Za-z]+", masked[max(0, match.start() - 20) : match.start()])
        if before and before[-1].lower() in _CODE_NOT_SECRET:
            continue
        hits.append(Hit(SECRET, key(SECRET, match.group("number")), "code [redacted]"))
    for match in islice(_REVERSE_CODE.finditer(masked), MAX_HITS):
        hits.append(Hit(SECRET, key(SECRET, match.group(1)), "code [redacted]"))
    return hits
