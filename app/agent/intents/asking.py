"""A question the user asks to pass on, turned to the person it is for.

"Email Priya to ask if she is free on Saturday", "Envoie un mail à Priya pour lui demander si
elle est libre samedi", "Frag Jonas per Mail, ob er am Freitag Zeit hat", "Escríbele a Lena
para preguntarle si viene": the question is the clause after "if / whether / si / ob", said
of the person ("she is free"). Written to them, it speaks to them ("you are free"): the
subject pronoun, the verb's person and the possessives change, word by word, for the common
forms of the four languages. Code does this, not the model: asked to write the email, a small
model answered in English or wrote of Priya in the third person to Priya.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from app.agent.intents.language import Language

# Asking, then (maybe after "her" or "by email") the word that opens the question.
_ASKING_VERB = (
    r"\b(?:ask(?:ing|s)?|fragen?|frag|fragt|demande[rz]?|demandant|pregunt(?:ar|a|ando)"
    r"(?:le|les)?|preg[uú]ntale)\b"
)
_ASKING = re.compile(
    _ASKING_VERB + r"(?:[^.?!]|\.(?=\w))*?(?:\b(?:if|whether|ob|si)\b|\bs['’](?=ils?\b))\s*",
    re.IGNORECASE,
)
# Asking, then (a few words on) the word that opens a question of what, when, where …
# ("ask her what she'd like", "frag ihn, wann er kommt", "demande-lui ce qui lui ferait
# plaisir", "pregúntale qué le apetece"). Spanish "que" without its accent is "that".
_ASKING_WH = re.compile(
    _ASKING_VERB + r"[^.?!]{0,30}?(?<![\w'’])(what|when|where|which|who|how|why|was|wann|wo|wohin|"
    r"welche[nmrs]?|wer|wie|warum|ce qu['’]|ce que|ce qui|quand|où|quel(?:le)?s?|comment|"
    r"pourquoi|qué|cuándo|dónde|cuál(?:es)?|cómo|quién|por qué)(?:(?<=['’])|(?!\w))\s*",
    re.IGNORECASE,
)
_WORD = re.compile(r"[\w'’-]+|[^\w\s]+")
# Asking someone to do something ("ask him to send me the slides", "bitte sie, mir die Folien
# zu schicken", "demande-lui de m'envoyer les slides", "pídele que me mande las fotos"): what
# follows is what they are asked to do.
_ASKING_TO = re.compile(
    r"\b(?:ask|tell)(?:ing|s)?\s+(?:him|her|them|[\w'’-]+(?:\s+[A-Z][\w'’-]*)?)\s+to\s+|"
    r"\b(?:bitte|bitt\w*)\s+(?:ihn|sie|[A-ZÄÖÜ][\w'’-]*),?\s+(?=[^.?!]*\bzu\s+\w+)|"
    r"\b(?:demande[rz]?|dis|dire)(?:-lui|-leur|\s+à\s+[\w'’-]+)?\s+(?:de\s+|d['’](?=\w))|"
    r"\b(?:p[ií]de(?:le|les)?|pedirle|pedirles|dile|decirle)\s+(?:a\s+[\w'’-]+\s+)?que\s+",
    re.IGNORECASE,
)


def asked_of(request: str) -> str:
    """The question a request asks to pass on, as it says it ("she is free on Saturday"),
    or "" when it asks none."""
    found = _ASKING.search(request)
    if found is None:
        return ""
    return request[found.end() :].strip().rstrip(".?!¿¡ ").strip()


def asked_what(request: str) -> tuple[str, str]:
    """A question of what, when, where … a request asks to pass on, as its opening word and
    the rest as it says it (("what", "she'd like for her birthday")); ("", "") when it asks
    none, or asks whether (`asked_of`)."""
    found = None if asked_of(request) else _ASKING_WH.search(request)
    if found is None:
        return "", ""
    rest = request[found.end() :].strip().rstrip(".?!¿¡ ").strip()
    return (found.group(1), rest) if rest else ("", "")


def asked_to_do(request: str) -> str:
    """What a request asks someone to do, as it says it ("send me the slides from Monday"
    of "email Jonas and ask him to send me the slides from Monday? he said …"; the German
    "zu" before the verb left out), or "" when it asks nothing of them."""
    found = _ASKING_TO.search(request)
    if found is None or asked_of(request):
        return ""
    rest = re.split(r"[.?!]", request[found.end() :], maxsplit=1)[0].strip(" ,")
    return re.sub(r"\bzu\s+(\w+)\s*$", r"\1", rest)


def said_before_asking(request: str) -> str:
    """The words of a request before it asks its question ("Envoie un mot à Anna pour la
    remercier pour son risotto. Et demande-lui si …": up to "Et"); "" when it asks none."""
    found = _ASKING.search(request) or _ASKING_WH.search(request) or _ASKING_TO.search(request)
    if found is None:
        return ""
    before = request[: found.start()]
    return re.sub(r"(?:\s*(?:\b(?:and|und|et|y)\b|[.,;]))+\s*$", "", before, flags=re.I).strip()


def asked_directly(opening: str, clause: str, language: Language) -> str:
    """A question of what, when … turned to the recipient (`to_you`) as a direct question,
    for a subject line ("wann", "du morgen kommst" → "Wann kommst du morgen?", "ce qui",
    "te ferait plaisir" → "Qu'est-ce qui te ferait plaisir?")."""
    words = clause.split()
    if language == "de" and len(words) > 1 and words[-1].isalpha() and words[-1].islower():
        verb, prefix = separated(words[-1])  # "ankommt": "kommt … an"
        words = [verb, *words[:-1], *([prefix] if prefix else [])]
    if language == "fr":
        opening = re.sub(r"^ce qu", "qu'est-ce qu", opening, flags=re.IGNORECASE)
    text = opened(opening, " ".join(words))
    text = text[:1].upper() + text[1:] + "?"
    return f"¿{text}" if language == "es" else text


# Separable prefixes of German verbs: "dass ich später ankomme" → "ich komme später an".
SEPARABLE = ("zurück", "mit", "an", "auf", "aus", "ab", "ein", "vor", "weg", "nach", "los")


def separated(verb: str) -> tuple[str, str]:
    """A German verb without its separable prefix, and the prefix ("ankommt": "kommt",
    "an"); the verb and "" when it has none."""
    prefix = next((p for p in SEPARABLE if verb.startswith(p) and len(verb) > len(p) + 3), "")
    return (verb[len(prefix) :], prefix) if prefix else (verb, "")


def opened(opening: str, clause: str) -> str:
    """A question's opening word and its rest, an elision undone before a consonant ("ce
    qu'" and "tu veux": "ce que tu veux")."""
    if opening.endswith(("'", "’")) and not re.match(r"[aeiouyhéèêà]", clause, re.IGNORECASE):
        opening = opening[:-1] + "e"
    glue = "" if opening.endswith(("'", "’")) else " "
    return f"{opening}{glue}{clause}"


def to_you(clause: str, language: Language, wh: bool = False) -> str:
    """`clause`, said of someone, said to them instead ("she is free" → "you are free",
    "elle est libre" → "tu es libre", "er Zeit hat" → "du Zeit hast", "está libre" →
    "estás libre"). `wh`: the rest of a question of what, when … (`asked_what`), whose
    Spanish verb may have the thing after it for subject ("cuándo llega su tren")."""
    words = _WORD.findall(clause)
    if language == "es":
        return _joined(_spanish(words, wh))
    turned = {"en": _english, "de": _german, "fr": _french}[language](words)
    return _joined(turned)


def as_question(clause: str, language: Language) -> str:
    """A clause turned to the recipient (`to_you`) as a direct question, for a subject line:
    German puts the verb of its "ob" clause first ("du am Freitag Zeit hast" → "Hast du am
    Freitag Zeit?"), Spanish opens with "¿"."""
    words = clause.split()
    if language == "de" and len(words) > 1 and words[-1].isalpha() and words[-1].islower():
        words = [words[-1], *words[:-1]]
    text = " ".join(words)
    text = text[:1].upper() + text[1:] + "?"
    return f"¿{text}" if language == "es" else text


def _joined(words: list[str]) -> str:
    text = ""
    for word in words:
        glued = not text or re.fullmatch(r"[,.;:!?)]+", word) or text.endswith(("'", "’"))
        text += word if glued else f" {word}"
    return text


def _swap(word: str, table: dict[str, str]) -> str | None:
    """`word` from `table`, keeping a capital first letter; None if it is not there."""
    found = table.get(word.lower())
    if found is None:
        return None
    return found[:1].upper() + found[1:] if word[:1].isupper() else found


# -- English ---------------------------------------------------------------------------------------

_EN_SUBJECT = {"she": "you", "he": "you", "they": "you", "she's": "you're", "he's": "you're",
               "they're": "you're", "she'll": "you'll", "he'll": "you'll", "she'd": "you'd",
               "he'd": "you'd"}  # fmt: skip
_EN_VERB = {"is": "are", "was": "were", "has": "have", "does": "do", "doesn't": "don't",
            "isn't": "aren't", "wasn't": "weren't", "hasn't": "haven't"}  # fmt: skip
_EN_OTHER = {"him": "you", "them": "you", "his": "your", "their": "your", "hers": "yours",
             "herself": "yourself", "himself": "yourself", "themselves": "yourself"}  # fmt: skip
_EN_AFTER_OBJECT = {"to", "for", "with", "about", "at", "on", "in", "from", "by", "and", "or"}


def _english(words: list[str]) -> list[str]:
    out: list[str] = []
    verb_next = False
    for i, word in enumerate(words):
        lower = word.lower()
        if verb_next and (swapped := _swap(word, _EN_VERB)) is not None:
            out.append(swapped)
        elif verb_next and re.fullmatch(r"[a-z]+[^s]s", lower):
            out.append(_without_s(word))  # "wants" → "want"
        elif (swapped := _swap(word, _EN_SUBJECT)) is not None:
            out.append(swapped)
            verb_next = swapped.lower() == "you"
            continue
        elif lower == "her":
            following = words[i + 1].lower() if i + 1 < len(words) else ""
            out.append("you" if not following[:1].isalpha() or following in _EN_AFTER_OBJECT
                       else "your")  # fmt: skip
        else:
            out.append(_swap(word, _EN_OTHER) or word)
        verb_next = False
    return out


def _without_s(verb: str) -> str:
    """An English verb's third person ending taken off ("goes" → "go", "wants" → "want")."""
    if re.search(r"(?:ch|sh|ss|x|o)es$", verb):
        return verb[:-2]
    return verb[:-1]


# -- German: the conjugated verb of an "ob" clause comes last --------------------------------------

_DE_SUBJECT = {"sie", "er"}
_DE_VERB = {"ist": "bist", "hat": "hast", "kann": "kannst", "will": "willst", "muss": "musst",
            "darf": "darfst", "soll": "sollst", "wird": "wirst", "weiß": "weißt", "mag": "magst",
            "möchte": "möchtest", "war": "warst", "hatte": "hattest", "könnte": "könntest",
            "würde": "würdest"}  # fmt: skip
_DE_OTHER = {"sein": "dein", "seine": "deine", "seinen": "deinen", "seinem": "deinem",
             "seiner": "deiner", "seines": "deines", "ihm": "dir", "ihn": "dich",
             "sich": "dich"}  # fmt: skip
_DE_HER = {"ihr": "dein", "ihre": "deine", "ihren": "deinen", "ihrem": "deinem",
           "ihrer": "deiner", "ihres": "deines"}  # fmt: skip


def _german(words: list[str]) -> list[str]:
    out = list(words)
    subject = next((i for i, w in enumerate(out) if w.lower() in _DE_SUBJECT), None)
    if subject is None:
        # another subject ("wann ihr Zug ankommt"): the person's possessive and object
        return [
            _DE_HER[w.lower()]
            if w.lower() in _DE_HER and i + 1 < len(out) and out[i + 1][:1].isupper()
            else _DE_OTHER.get(w, w)
            for i, w in enumerate(out)
        ]
    out[subject] = "du"
    last = max((i for i, w in enumerate(out) if w[:1].isalpha()), default=subject)
    if last > subject and out[last][:1].islower():
        out[last] = _german_verb(out[last])
    for i, word in enumerate(out):
        if i == subject:
            continue
        following = out[i + 1] if i + 1 < len(out) else ""
        if word.lower() in _DE_HER and following[:1].isupper():
            out[i] = _DE_HER[word.lower()]  # "ihr Zug" → "dein Zug"
        else:
            out[i] = _DE_OTHER.get(word, word)
    return out


def _german_verb(verb: str) -> str:
    if verb in _DE_VERB:
        return _DE_VERB[verb]
    if re.search(r"(?:[dt]et|chnet|gnet)$", verb):
        return verb[:-1] + "st"  # "arbeitet" → "arbeitest"
    if re.search(r"(?:s|ß|z|x)t$", verb):
        return verb  # "sitzt", "heißt": the same
    return verb[:-1] + "st" if verb.endswith("t") else verb


# -- French ----------------------------------------------------------------------------------------

_FR_VERB = {"est": "es", "a": "as", "peut": "peux", "veut": "veux", "vient": "viens",
            "sait": "sais", "fait": "fais", "va": "vas", "doit": "dois", "prend": "prends",
            "met": "mets", "dit": "dis", "voit": "vois", "sort": "sors", "part": "pars",
            "était": "étais", "avait": "avais", "pourrait": "pourrais", "voudrait": "voudrais",
            "serait": "serais", "aurait": "aurais"}  # fmt: skip
_FR_SKIP = {"ne", "n'", "me", "m'", "le", "la", "les", "l'", "y", "en", "se", "s'", "lui",
            "leur", "te", "t'"}  # fmt: skip
_FR_OTHER = {"son": "ton", "sa": "ta", "ses": "tes", "se": "te", "s'": "t'",
             "elle-même": "toi-même", "lui-même": "toi-même"}  # fmt: skip


def _french(words: list[str]) -> list[str]:
    out = [part for w in words for part in _elided(w)]  # "qu'elle" → "qu'", "elle"
    subject = next((i for i, w in enumerate(out) if w.lower() in {"elle", "il"}), None)
    if subject is None:
        # another subject ("ce qui lui ferait plaisir"): the person is "lui" and "son"
        return [_swap(w, _FR_TO_YOU) or w for w in out]
    out[subject] = "tu"
    _turn_from(out, subject + 1, _FR_SKIP, _FR_OTHER, _FR_VERB, _french_verb, {"son", "sa", "ses"})
    return out


_FR_TO_YOU = {"lui": "te", "son": "ton", "sa": "ta", "ses": "tes"}


def _elided(word: str) -> list[str]:
    """A French word with an elided "que" before a subject pronoun, in two ("qu'elle")."""
    found = re.fullmatch(r"(qu['’])(elle|il)", word, re.IGNORECASE)
    return [found.group(1), found.group(2)] if found else [word]


def _french_verb(verb: str) -> str:
    if re.search(r"(?:e|a|d)$", verb):
        return verb + "s"  # "aime" → "aimes", "viendra" → "viendras", "rend" → "rends"
    return verb[:-1] + "s" if verb.endswith("it") else verb  # "finit" → "finis"


def _turn_from(
    out: list[str],
    start: int,
    skip: set[str],
    other: dict[str, str],
    irregular: dict[str, str],
    regular: Callable[[str], str],
    possessive: set[str],
) -> None:
    """From `start`, the pronouns before the verb turned (`other`), the verb put in the second
    person (`irregular`, else `regular`), and the possessives after it turned: French and
    Spanish alike."""
    verb = start
    while verb < len(out) and out[verb].lower() in skip:
        out[verb] = other.get(out[verb].lower(), out[verb])
        verb += 1
    if verb < len(out):
        out[verb] = irregular.get(out[verb].lower()) or regular(out[verb])
    for i in range(verb + 1, len(out)):
        if out[i].lower() in possessive:
            out[i] = other[out[i].lower()]


# -- Spanish: the subject is seldom said, the verb says it -----------------------------------------

_ES_VERB = {"es": "eres", "está": "estás", "esta": "estás", "ha": "has", "va": "vas",
            "puede": "puedes", "quiere": "quieres", "tiene": "tienes", "viene": "vienes",
            "sabe": "sabes", "hace": "haces", "era": "eras", "estaba": "estabas"}  # fmt: skip
_ES_SKIP = {"él", "ella", "no", "le", "la", "lo", "les", "las", "los", "me", "te", "nos", "se"}
_ES_OTHER = {"su": "tu", "sus": "tus", "se": "te", "él": "tú", "ella": "tú"}


def _spanish(words: list[str], wh: bool = False) -> list[str]:
    out = list(words)
    before = next((i for i, w in enumerate(out) if w.lower() not in _ES_SKIP), len(out))
    after = out[before + 1].lower() if before + 1 < len(out) else ""
    if any(w.lower() in ("le", "les") for w in out[:before]) or (wh and after in _ES_THE):
        # "qué le apetece": the thing pleases them, the verb stays; "le" is "te"; so in
        # "cuándo llega su tren": the train arrives
        return [("te" if i < before and w.lower() in ("le", "les") else
                 _ES_OTHER.get(w.lower(), w)) for i, w in enumerate(out)]  # fmt: skip
    _turn_from(out, 0, _ES_SKIP, _ES_OTHER, _ES_VERB, _spanish_verb, {"su", "sus"})
    return out


_ES_THE = {"el", "la", "los", "las", "su", "sus", "mi", "mis", "un", "una"}


def _spanish_verb(verb: str) -> str:
    if re.search(r"[aeáé]$", verb) and verb.isalpha():
        return verb + "s"  # "llega" → "llegas", "vendrá" → "vendrás"
    return verb
