"""Money: amounts with a currency (symbol, code, word, in figures or words), payment words near
a number, and the names of payment channels."""

from __future__ import annotations

import re
from itertools import islice

from app.agent.gate.detectors.base import MAX_HITS, MONEY, NUMBER_AFTER, NUMBER_BEFORE, Hit, key
from app.agent.gate.detectors.base import near as _near

# Bounded repetitions throughout: an unbounded one rescans the rest of a long run of digit
# groups or number words from every start (seconds of CPU for a few kilobytes).
_AMOUNT = r"(?:\d{1,3}(?:[,.' ]\d{3}){1,6}|\d{1,24})(?:[.,]\d{1,2})?"
# Scales in the supported languages: "1,2 Mio. €", "3 Mrd", "2 millones", "5 mila".
_SCALE = (
    r"(?:\s?(?:k|m|bn|mm|million|thousand|billion|grand|(?i:mio|mrd|md|tsd|mill|mln)\.?|"
    r"(?i:millions?|milliards?|millionen|milliarden|millones|milhões|milhoes|milioni|"
    r"miliardi|mila|mil|mille|miljoen|miljard|lakh|crore))(?![A-Za-z])"
    r"(?:\s(?i:de|of|di|d')(?![A-Za-z]))?)?"
)
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
    r"lira|lire|shekels?|dirhams?|rand|baht|ringgit|bitcoins?|satoshis?|sats|ether|grand|"
    # written after the amount in their countries: "950 zł", "120 Kč", "40 kr"
    r"zł|zl|kč|kr|lei|leva|forint|"
    # the supported languages' own words
    r"dollari|dólares|dolares|dollar[sn]|sterline|libras?|pfund|centimes?|céntimos?|centesimi|"
    r"rappen|franken|franchi|francos|rupie|złotych|zloty|zlotys"
)
_MONEY_AMOUNT = re.compile(
    rf"(?:[A-Z]{{1,3}})?[{_SYMBOLS}]\s?{_AMOUNT}{_SCALE}"
    rf"|{NUMBER_BEFORE}{_AMOUNT}{_SCALE}\s?[{_SYMBOLS}]"
    rf"|(?<![A-Za-z])(?:{_CODES}|(?i:{_LOWER_CODES}))\s?{_AMOUNT}{_SCALE}"
    rf"|{NUMBER_BEFORE}{_AMOUNT}{_SCALE}\s?(?:{_CODES}|(?i:{_LOWER_CODES}))(?![A-Za-z])"
    rf"|(?i:(?:{NUMBER_BEFORE}{_AMOUNT}{_SCALE}\s?|(?<![A-Za-z])(?:{_NUMBER_WORDS})[\s\-]++"
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
    NUMBER_BEFORE + r"\d(?:[\d,.]*\d)?(?:\s?(?:k|m|bn)(?![A-Za-z]))?" + NUMBER_AFTER,
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


def money_hits(text: str) -> list[Hit]:
    hits: list[Hit] = []
    for match in islice(_MONEY_AMOUNT.finditer(text), MAX_HITS):
        phrase = " ".join(match.group().split())
        hits.append(Hit(MONEY, key(MONEY, phrase.lower()), _mask_long_digits(phrase)))
    numbers = [
        m
        for m in _MONEY_NUMBER.finditer(text)
        if (sum(c.isdigit() for c in m.group()) >= 2 or not m.group()[-1].isdigit())
        and not _YEAR.fullmatch(m.group())
    ]
    if numbers:
        starts = [number.start() for number in numbers]
        for word in islice(_MONEY_KEYWORD.finditer(text), MAX_HITS):
            for number in _near(numbers, starts, word.start(), word.end(), _NEAR):
                start, end = min(word.start(), number.start()), max(word.end(), number.end())
                phrase = " ".join(text[start:end].split())
                if len(phrase) > 60:
                    phrase = f"{word.group()} … {number.group()}"
                excerpt = _mask_long_digits(phrase)
                hits.append(Hit(MONEY, key(MONEY, phrase.lower()), excerpt))
                break
    for match in _MONEY_PHRASE.finditer(text):
        phrase = " ".join(match.group().split())
        hits.append(Hit(MONEY, key(MONEY, phrase.lower()), phrase))
    return hits
