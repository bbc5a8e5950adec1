"""Payment card numbers: 13 to 19 digits in groups, a card's first digit, the Luhn check."""

from __future__ import annotations

import re

from app.agent.gate.detectors.base import PAYMENT_CARD, Hit, key


def luhn_valid(digits: str) -> bool:
    """The Luhn mod-10 check every payment card number carries."""
    if not digits.isascii() or not digits.isdigit():
        return False
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if index % 2:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


# Digit groups joined by any separator that is not a letter or digit, up to three of them
# ("4111 1111", "4111-1111", "4111.1111", "4111/1111", "4111_1111", "4111 : 1111"). Dates and
# times are masked with "#" first, so a "#" run longer than three ends a number. "%" is left
# to the percent-decoded reading ("4111%201111" is 4111 1111 there, not 4111201111 here).
_SEPARATOR = r"(?:[^\w#%]|_)"
CARD_RUN = re.compile(r"(?<!\d)\d(?:" + _SEPARATOR + r"{0,3}\d)+(?!\d)")
CARD_RUN_SPELLED = re.compile(r"(?<!\d)\d(?:" + _SEPARATOR + r"{0,4}\d)+(?!\d)")
_GROUP_SPLIT = re.compile(r"\D+", re.ASCII)
_CARD_FIRST_DIGITS = frozenset("23456")  # Mastercard 2/5, Amex/JCB/Diners 3, Visa 4, Discover 6


def _card_number_ok(digits: str) -> bool:
    return (
        13 <= len(digits) <= 19
        and digits[0] in _CARD_FIRST_DIGITS
        and len(set(digits)) > 1
        and luhn_valid(digits)
    )


def card_hits(text: str, pattern: re.Pattern[str] | None = None, how: str = "") -> list[Hit]:
    """Every Luhn-valid 13-19 digit window, on group boundaries, of each run of digits.

    Windows matter when a card is glued to another number ("call 555 1234 4111 1111 ...")
    or split across fields that are joined; groups keep the windows few.
    """
    hits: list[Hit] = []
    for run in (pattern or CARD_RUN).finditer(text):
        groups = [g for g in _GROUP_SPLIT.split(run.group()) if g]
        if sum(len(g) for g in groups) < 13:
            continue
        phone_prefix = text[run.start() - 1 : run.start()] == "+"
        index = 0
        while index < len(groups):
            total, found_end, found_digits = 0, -1, ""
            for end in range(index, len(groups)):
                total += len(groups[end])
                if total > 19:
                    break
                digits = "".join(groups[index : end + 1])
                if total >= 13 and _card_number_ok(digits):
                    if index == 0 and phone_prefix and total <= 15:
                        continue  # "+49 151 2345 6789" is an international phone number
                    found_end = end  # keep the longest valid window from this start
                    found_digits = digits
            if found_end >= 0:
                excerpt = f"card number{how} ending {found_digits[-4:]}"
                hits.append(Hit(PAYMENT_CARD, key(PAYMENT_CARD, found_digits), excerpt))
                index = found_end + 1
            else:
                index += 1
    return hits
