"""Everyday sums asked in a chat, worked out by code: a bill shared among people ("dinner
came to 87 euros and there were 3 of us, how much does everyone owe?"), a percentage of an
amount ("what's a 15% tip on 64 euros?"), a temperature in the other scale ("68 °F in
Celsius?"), a length of hours in minutes ("¿cuántos minutos son 3 horas y media?") and a
measure in another unit ("un pouce ça fait combien de centimètres ?"). A small model's
arithmetic is a guess ("5,000 euros each", an inch of "2.5 cm"); these need no tool, only
the numbers the request gives and the units' own sizes."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from app.agent.intents.language import Language
from app.agent.intents.phrases import say
from app.agent.intents.when import read_duration
from connectors.folding import fold

# Numbers of people written as words, in the four languages (folded).
_COUNTS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "sechs": 6, "sieben": 7, "acht": 8,
    "neun": 9, "zehn": 10, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7,
    "huit": 8, "neuf": 9, "dix": 10, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
    "siete": 7, "ocho": 8, "nueve": 9, "diez": 10,
    # "zu zweit", "zu dritt" …
    "zweit": 2, "dritt": 3, "viert": 4, "funft": 5, "sechst": 6, "siebt": 7,
}  # fmt: skip
_COUNT = r"(\d{1,2}|" + "|".join(sorted(_COUNTS, key=len, reverse=True)) + r")"

# How many share it (folded): "3 of us", "we were 4", "4 people", "split 3 ways", "among 3",
# "zu dritt", "wir waren 4", "4 Personen", "durch 3", "on était 3", "4 personnes",
# "entre 3", "éramos 4", "4 personas".
_SHARED_BY = re.compile(
    rf"\b(?:{_COUNT} (?:of us|of them|people|persons|friends|ways|"
    r"leute|personen|freunde|freundinnen|"
    r"personnes|amis|copains|potes|"
    r"personas|amigos|amigas)|"
    rf"(?:we were|there were|there are|we are|we're|between|among|amongst|by|for) {_COUNT}"
    r"(?! (?:euros?|eur|dollars?|pounds?|francs?|percent|minutes?|hours?|days?))|"
    rf"(?:zu|wir waren|wir sind|durch|unter) {_COUNT}|"
    rf"(?:on etait|on est|nous etions|nous sommes|entre) {_COUNT}(?! (?:euros?|h|heures?))|"
    rf"(?:eramos|somos|entre|para) {_COUNT}(?! (?:euros?|horas?)))\b"
)
# Asking what each one pays (folded).
_EACH = re.compile(
    r"\b(?:each|everyone|everybody|per person|per head|a head|apiece|split|divide|share|"
    r"jede[rnms]?|pro (?:person|kopf|nase)|teilen|aufteilen|geteilt|"
    r"chacun|chacune|par personne|par tete|partager|diviser|"
    r"cada (?:uno|una|quien)|por persona|por cabeza|a cada|dividir|repartir)\b"
)
# An amount of money as people type it: "87 euros", "87€", "€87", "$42.50", "64,90 EUR".
_MONEY = re.compile(
    r"(?P<before>[€$£])\s*(?P<a>\d+(?:[.,]\d{1,2})?)\b"
    r"|\b(?P<b>\d+(?:[.,]\d{1,2})?)\s*(?P<after>€|euros?\b|eur\b|dollars?\b|pounds?\b|"
    r"chf\b|franken\b|francs?\b|\$|£)"
)
# A percentage of an amount: "15% tip on 64 euros", "20 percent of 85", "10 Prozent von 40",
# "15 % de 80", "el 10 por ciento de 50".
_PERCENT = re.compile(
    r"\b(?P<p>\d+(?:[.,]\d+)?)\s*(?:%|percent\b|per cent\b|prozent\b|pour ?cent\b|"
    r"por ?ciento\b)(?:\s+\w+)?\s+(?:of|on|von|auf|de|sur|del|sobre)\s+(?:[€$£]\s*)?"
    r"(?P<of>\d+(?:[.,]\d{1,2})?)"
)

# A tip or service added to a bill, by its percentage (folded): "a 10% tip on top", "10 %
# Trinkgeld", "un pourboire de 10 %", "una propina del 10 %".
_PERCENT_SIGN = r"\s*(?:%|percent\b|per cent\b|prozent\b|pour ?cent\b|por ?ciento\b)"
_TIP = re.compile(
    rf"\b(?P<p>\d+(?:[.,]\d+)?){_PERCENT_SIGN}\s*(?:\w+\s+)?(?:tip|trinkgeld|pourboire|"
    r"propina|service)|\b(?:tip|trinkgeld|pourboire|propina)\s+(?:of\s+|von\s+|de\s+|del\s+)?"
    rf"(?P<q>\d+(?:[.,]\d+)?){_PERCENT_SIGN}"
)

_SYMBOL = {"€": "€", "euro": "€", "euros": "€", "eur": "€", "$": "$", "dollar": "$",
           "dollars": "$", "£": "£", "pound": "£", "pounds": "£"}  # fmt: skip


# A temperature said with its scale ("68 °F", "20 degrees Celsius", "68 Grad Fahrenheit",
# "20 degrés", "68 grados F"), folded, and the scales named.
_TEMPERATURE = re.compile(
    r"(?P<n>-?\d+(?:[.,]\d+)?)\s*(?:°|º|degrees?|grad|degres?|grados?)?\s*"
    r"(?P<scale>fahrenheit|celsius|f|c)\b"
)
_SCALE = re.compile(r"\b(fahrenheit|celsius)\b")
# Asking how many minutes a length is ("how many minutes are 3.5 hours?", "wie viele
# Minuten sind …", "combien de minutes …", "¿cuántos minutos son …?"), folded.
_HOW_MANY_MINUTES = re.compile(
    r"\b(?:how many minutes|wie ?viele minuten|combien de minutes|cuantos minutos)\b"
)
_HOURS = re.compile(r"\b(?:hours?|stunden?|heures?|horas?)\b")


def worked_out(text: str, language: Language) -> str | None:
    """The answer to a sum the request asks, worked out, in its language; None when it asks
    none of these (or gives more than one amount to share: which is the bill?)."""
    folded = fold(text).replace("’", "'")
    if (degrees := _in_the_other_scale(folded, language)) is not None:
        return degrees
    if (measure := _in_another_unit(folded, language)) is not None:
        return measure
    asked = _HOW_MANY_MINUTES.search(folded)
    # (hours said after the question: "… 3 horas y media?", not a minute said before it)
    after = folded[asked.end() :] if asked else ""
    if asked and _HOURS.search(after) and (length := read_duration(after)) is not None:
        minutes = int(length.total_seconds() // 60)
        return say(language, "sum_minutes", minutes=minutes)
    if (percent := _PERCENT.search(folded)) is not None:
        p, of = _decimal(percent["p"]), _decimal(percent["of"])
        if p is None or of is None:
            return None
        unit = _unit(folded, percent["of"])
        return say(language, "sum_percent",
            p=_written(p, language), of=_money(of, unit, language),
            part=_money(of * p / 100, unit, language),
        )  # fmt: skip
    shared = _SHARED_BY.search(folded)
    amounts = list(_MONEY.finditer(folded))
    if shared is None or len(amounts) != 1 or not _EACH.search(folded):
        return None
    n = _count(next(g for g in shared.groups() if g))
    amount = amounts[0]
    total = _decimal(amount["a"] or amount["b"])
    if n is None or n < 2 or total is None:
        return None
    unit = _SYMBOL.get(amount["before"] or amount["after"] or "", amount["after"] or "")
    if (tip := _TIP.search(folded)) is not None and (p := _decimal(tip["p"] or tip["q"])):
        # "138 euros and i wanna add a 10% tip on top": the tip added, then shared
        with_tip = total * (1 + p / 100)
        return say(language, "sum_shared_tip",
            total=_money(total, unit, language), p=_written(p, language),
            with_tip=_money(with_tip, unit, language), n=n,
            each=_money(with_tip / n, unit, language),
        )  # fmt: skip
    return say(
        language,
        "sum_shared",
        total=_money(total, unit, language),
        n=n,
        each=_money(total / n, unit, language),
    )


def _in_the_other_scale(folded: str, language: Language) -> str | None:
    """A temperature in Fahrenheit asked in Celsius, or the other way round (the request
    names both scales, one beside a number); None if it asks no such thing."""
    given = _TEMPERATURE.search(folded)
    named = {m.group(1)[0] for m in _SCALE.finditer(folded)}
    if given is None or (number := _decimal(given["n"])) is None:
        return None
    scale = given["scale"][0]
    other = "c" if scale == "f" else "f"
    if other not in named:
        return None
    converted = (number - 32) * 5 / 9 if scale == "f" else number * 9 / 5 + 32
    rounded = converted.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)

    def degrees(value: Decimal, which: str) -> str:
        whole = value == value.to_integral()
        text = str(value.quantize(Decimal(1))) if whole else str(value)
        return f"{text if language == 'en' else text.replace('.', ',')} °{which.upper()}"

    return say(
        language, "sum_converted", given=degrees(number, scale), other=degrees(rounded, other)
    )


# Units of length, weight, volume and speed, each with its size in the base unit of its kind
# and the names people write in the four languages (folded). A name of one or two letters
# ("m", "in", "mi": also words) counts only right after a number.
_UNITS: dict[str, tuple[str, float, tuple[str, ...]]] = {
    "mm": ("length", 0.001, ("mm", "millimeter", "millimeters", "millimetre", "millimetres",
                             "millimetern", "milimetro", "milimetros")),
    "cm": ("length", 0.01, ("cm", "centimeter", "centimeters", "centimetre", "centimetres",
                            "zentimeter", "zentimetern", "centimetro", "centimetros")),
    "m": ("length", 1.0, ("m", "meter", "meters", "metre", "metres", "metern", "metro",
                          "metros")),
    "km": ("length", 1000.0, ("km", "kilometer", "kilometers", "kilometre", "kilometres",
                              "kilometern", "kilometro", "kilometros")),
    "in": ("length", 0.0254, ("in", "inch", "inches", "zoll", "pouce", "pouces", "pulgada",
                              "pulgadas")),
    "ft": ("length", 0.3048, ("ft", "foot", "feet", "fuss", "pied", "pieds", "pie", "pies")),
    "yd": ("length", 0.9144, ("yd", "yard", "yards", "yarda", "yardas")),
    "mi": ("length", 1609.344, ("mi", "mile", "miles", "meile", "meilen", "milla", "millas")),
    "g": ("weight", 0.001, ("g", "gram", "grams", "gramm", "gramme", "grammes", "gramo",
                            "gramos")),
    "kg": ("weight", 1.0, ("kg", "kilo", "kilos", "kilogram", "kilograms", "kilogramm",
                           "kilogramme", "kilogrammes", "kilogramo", "kilogramos")),
    "lb": ("weight", 0.45359237, ("lb", "lbs", "pound", "pounds", "pfund", "livre", "livres",
                                  "libra", "libras")),
    "oz": ("weight", 0.028349523125, ("oz", "ounce", "ounces", "unze", "unzen", "once",
                                      "onces", "onza", "onzas")),
    "ml": ("volume", 0.001, ("ml", "milliliter", "milliliters", "millilitre", "millilitres",
                             "millilitern", "mililitro", "mililitros")),
    "l": ("volume", 1.0, ("l", "liter", "liters", "litre", "litres", "litern", "litro",
                          "litros")),
    "gal (US)": ("volume", 3.785411784, ("gal", "gallon", "gallons", "gallone", "gallonen",
                                         "galon", "galones")),
    "cup (US)": ("volume", 0.2365882365, ("cup", "cups", "tasse", "tassen", "tasses", "taza",
                                           "tazas")),
    "tbsp": ("volume", 0.01478676478, ("tbsp", "tablespoon", "tablespoons", "essloffel", "el",
                                       "cuillere a soupe", "cuilleres a soupe", "cucharada",
                                       "cucharadas")),
    "tsp": ("volume", 0.00492892159, ("tsp", "teaspoon", "teaspoons", "teeloffel", "tl",
                                      "cuillere a cafe", "cuilleres a cafe", "cucharadita",
                                      "cucharaditas")),
    "km/h": ("speed", 1.0, ("km/h", "kmh", "kph", "stundenkilometer")),
    "mph": ("speed", 1.609344, ("mph",)),
}  # fmt: skip
_UNIT_OF = {name: unit for unit, (_, _, names) in _UNITS.items() for name in names}
_A_UNIT = re.compile(
    r"(?<![\w/])(?:(?P<n>\d+(?:[.,]\d+)?)\s*|(?P<one>an?|one|eine[nm]?|ein|une?|una?|uno)\s+)?"
    rf"(?P<unit>{'|'.join(sorted(map(re.escape, _UNIT_OF), key=len, reverse=True))})(?![\w/])"
)
# Asking for a measure in a unit, said just before the unit asked for (folded): "in", "into",
# "to", "how many", "in wie viel", "combien de", "en", "cuántos".
_ASKED_IN = re.compile(
    r"\b(?:in|into|to|how many|how much|wie ?viele?|umgerechnet|en|combien(?: de| d)?|"
    r"cuant[oa]s?|a)\s*$"
)


def asks_a_measure(text: str) -> bool:
    """Whether `text` asks how many of a unit of measure something is ("un marathon complet
    ça fait combien de km exactement ?"): a question of knowledge, not of money."""
    folded = fold(text).replace("’", "'")
    return any(
        _ASKED_IN.search(folded[: m.start()]) and not m["n"]
        for m in _A_UNIT.finditer(folded)
        if len(m["unit"]) > 1
    ) and not _MONEY.search(folded)


def _in_another_unit(folded: str, language: Language) -> str | None:
    """A measure in another unit of its kind ("how many cm is an inch?", "5 Meilen in
    Kilometern", "combien de centimètres fait un pouce"): one unit with an amount (a number,
    or "a"/"un"), another asked for; None if the request says no such thing."""
    found = [
        m for m in _A_UNIT.finditer(folded)
        if (len(m["unit"]) > 2 and (m["unit"] != "tasse" or m["one"]))  # (not "ma tasse")
        or m["n"] or m["unit"] in ("cm", "mm", "km", "kg", "ml", "lb", "oz", "ft", "yd", "lbs",
                                   "kmh", "kph")
    ]  # fmt: skip
    units = {_UNIT_OF[m["unit"]] for m in found}
    if len(units) != 2 or len({_UNITS[u][0] for u in units}) != 1:
        return None
    given = [m for m in found if m["n"] or m["one"]]
    asked = [m for m in found if _UNIT_OF[m["unit"]] != _UNIT_OF[given[0]["unit"]]] if given else []
    if len({_UNIT_OF[m["unit"]] for m in given}) != 1 or not asked:
        return None
    if any(m["n"] for m in asked) or not _ASKED_IN.search(folded[: asked[0].start()]):
        return None  # two amounts ("is 5 km more than 3 miles?"), or none asked for
    number = _decimal(given[0]["n"]) if given[0]["n"] else Decimal(1)
    if number is None:
        return None
    source, target = _UNIT_OF[given[0]["unit"]], _UNIT_OF[asked[0]["unit"]]
    size = Decimal(str(_UNITS[source][1])) / Decimal(str(_UNITS[target][1]))
    return say(language, "sum_converted",
        given=f"{_measure(number, language)} {source}",
        other=f"{_measure(number * size, language)} {target}",
    )  # fmt: skip


def _measure(number: Decimal, language: Language) -> str:
    """A measure to two decimals, without trailing zeros ("2.54", "8.05", "1")."""
    text = f"{number.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):f}".rstrip("0").rstrip(".")
    return text if language == "en" else text.replace(".", ",")


def _count(word: str) -> int | None:
    return int(word) if word.isdigit() else _COUNTS.get(word)


def _decimal(number: str) -> Decimal | None:
    try:
        return Decimal(number.replace(",", "."))
    except InvalidOperation:
        return None


def _unit(folded: str, number: str) -> str:
    """The currency written beside `number`, as a symbol where it has one."""
    for amount in _MONEY.finditer(folded):
        if (amount["a"] or amount["b"]) == number:
            return _SYMBOL.get(amount["before"] or amount["after"] or "", amount["after"] or "")
    return ""


def _written(number: Decimal, language: Language) -> str:
    """A number as the language writes it: whole if it is, else to the cent."""
    cents = number.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    text = str(cents.quantize(Decimal(1))) if cents == cents.to_integral() else f"{cents:.2f}"
    return text if language == "en" else text.replace(".", ",")


def _money(number: Decimal, unit: str, language: Language) -> str:
    amount = _written(number, language)
    if not unit:
        return amount
    if language == "en" and unit in ("€", "$", "£"):
        return f"{unit}{amount}"
    return f"{amount} {unit}"
