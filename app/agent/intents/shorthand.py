"""Texting shorthand written out before anything reads a request.

People type "can u email jonas", "rdv dem1 stp", "q tengo mñn": the rules that read a request
and the model that recognises it both know the words these stand for, not the shorthand. Only
spellings that mean one thing in all four languages are written out (Spanish "u" is "or"
before an o-word, German "im" and "Grad" are words, French "pq" and Spanish "pq" differ, "dnd"
and "mtn" are English too: left as typed), and so are the "stp", "svp", "porfa" the rules
already know. A name typed in lower case after a title is written as a name ("le cabinet du dr
lee": "Dr Lee"), so it is searched for as one.
"""

from __future__ import annotations

import re

from app.agent.intents.language import is_function_word

# shorthand (whole word, any case) -> the words it stands for
_WRITTEN_OUT: dict[str, str] = {
    # English
    "u": "you",
    "ur": "your",
    "pls": "please",
    "plz": "please",
    "plse": "please",
    "thx": "thanks",
    "thnx": "thanks",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmrow": "tomorrow",
    "2moro": "tomorrow",
    "2morrow": "tomorrow",
    "tomoz": "tomorrow",
    "tonite": "tonight",
    "2nite": "tonight",
    "b4": "before",
    "msg": "message",
    "msgs": "messages",
    "appt": "appointment",
    "appts": "appointments",
    "mtg": "meeting",
    "mtgs": "meetings",
    "bday": "birthday",
    "ppl": "people",
    "abt": "about",
    "cuz": "because",
    "coz": "because",
    "wanna": "want to",
    "gonna": "going to",
    "gotta": "have to",
    "lemme": "let me",
    "gimme": "give me",
    "whats": "what's",
    "whens": "when's",
    "wheres": "where's",
    "whos": "who's",
    "hows": "how's",
    "theres": "there's",
    "ive": "I've",
    "youre": "you're",
    "isnt": "isn't",
    "dont": "don't",
    "cant": "can't",
    "didnt": "didn't",
    "doesnt": "doesn't",
    "rn": "right now",
    "nvm": "never mind",
    "idk": "I don't know",
    "btw": "by the way",
    # German
    "nem": "einem",
    "nen": "einen",
    "ner": "einer",
    "gibts": "gibt es",
    "gehts": "geht es",
    "haste": "hast du",
    "kannste": "kannst du",
    "biste": "bist du",
    "vllt": "vielleicht",
    "vlt": "vielleicht",
    "nix": "nichts",
    # French
    "qd": "quand",
    "rdv": "rendez-vous",
    "dem1": "demain",
    "bcp": "beaucoup",
    "chui": "je suis",
    "chuis": "je suis",
    "jsuis": "je suis",
    "jpeux": "je peux",
    "mnt": "maintenant",
    "pcq": "parce que",
    "qqch": "quelque chose",
    "qqn": "quelqu'un",
    "auj": "aujourd'hui",
    "ajd": "aujourd'hui",
    "aujd": "aujourd'hui",
    "cmt": "comment",
    "avc": "avec",
    # Spanish
    "q": "que",
    "xq": "porque",
    "porq": "porque",
    "xfa": "por favor",
    "xfavor": "por favor",
    "tb": "también",
    "tmb": "también",
    "tmbn": "también",
    "mñn": "mañana",
    "mñna": "mañana",
    "cdo": "cuando",
    "msj": "mensaje",
    "xa": "para",
}

# a whole word: not part of a longer word, an address or a file name ("u.s.", "q.txt", "Q&A")
_WORD = re.compile(
    r"(?<![\w@./'’&-])("
    + "|".join(sorted(map(re.escape, _WRITTEN_OUT), key=len, reverse=True))
    + r")(?![\w@'’&-]|\.\w)",
    re.IGNORECASE,
)
# Spanish "u" is "or" before a word starting with an o sound: "siete u ocho"
_SPANISH_OR = re.compile(r"\s+h?o", re.IGNORECASE)


def written_out(text: str) -> str:
    """`text` with its texting shorthand written out in full ("can u" → "can you")."""

    def out(match: re.Match[str]) -> str:
        typed = match.group(1)
        if len(typed) > 1 and typed.isupper():
            return typed  # "TB", "RN", "AVC": a name in capitals, not shorthand
        if typed.lower() == "tb" and re.search(r"\d\s*$", text[: match.start()]):
            return typed  # "2 tb": terabytes
        if typed.lower() == "u" and _SPANISH_OR.match(text, match.end()):
            return typed
        words = _WRITTEN_OUT[typed.lower()]
        return words[0].upper() + words[1:] if typed[0].isupper() else words

    return _titled_names(_WORD.sub(out, text))


# The user correcting themselves mid-request, after a break ("…", ",", "-"): "wann der
# Elektriker... ach nein, wann kommt der Klempner?", "email Tom - no wait, email Jonas", "ah
# non, plutôt …", "bueno no, mejor …". What follows is the request.
_CORRECTION = re.compile(
    r"(?:\.{2,}|…|[,;:!?]|\s[-–—])\s*(?:(?:oh|ah|äh|ähm|euh|eh|hm+)\s*,?\s*)?"
    r"(?:no\s*,?\s*wait|wait\s*,?\s*no|actually\s*,?\s*no|scratch that|sorry\s*,?\s*i mean|"
    r"ach\s*,?\s*nein|nee\s*,?\s*warte|nein\s*,?\s*warte|nein\s*,?\s*ich meine|vergiss das|"
    r"non\s*,?\s*attends|enfin\s*,?\s*non|ah\s*,?\s*non|non\s*,?\s*pardon|je veux dire|"
    r"no\s*,?\s*espera|bueno\s*,?\s*no|mejor dicho|quiero decir)\b[\s,:.!-]*",
    re.IGNORECASE,
)


def as_corrected(text: str) -> str:
    """What the user asks after correcting themselves mid-request ("Kannst du nachschauen
    wann der Elektriker... ach nein, wann kommt der Klempner?": "wann kommt der Klempner?");
    `text` itself without such a correction, or with too little on either side of it."""
    found = list(_CORRECTION.finditer(text))
    if not found:
        return text
    after = text[found[-1].end() :]
    before = text[: found[-1].start()]
    if len(after.split()) < 3 or len(before.split()) < 2:
        return text
    # (a whole request again, not a part of the first one: "Mets un rdv mardi… enfin non,
    # mercredi à 10h" keeps its asking words)
    first = after.split()[0].strip("¿¡,").lower()
    whole = first in _ASKING_OPENERS or first == before.split()[0].lower()
    return after if whole else text


# Words a whole request opens with: a question word, or "can you" and the like.
_ASKING_OPENERS = {
    "what", "when", "where", "who", "which", "how", "is", "are", "do", "does", "did", "can",
    "could", "would", "will", "please", "was", "wann", "wo", "wer", "welche", "wie", "ist",
    "hast", "habe", "kannst", "könntest", "bitte", "quand", "où", "qui", "quel", "quelle",
    "comment", "est-ce", "tu", "peux-tu", "pourrais-tu", "qué", "que", "cuándo", "cuando",
    "dónde", "donde", "quién", "cuál", "cómo", "puedes", "podrías", "tengo",
}  # fmt: skip


# A title of address, abbreviated, and the word after it: "dr lee", "mrs. smith", "sra garcía".
_TITLED = re.compile(
    r"(?<![\w@./'’&-])(dr|dra|prof|mr|mrs|ms|mme|mlle|sr|sra|herr)(\.?\s+)([^\W\d_][\w'’-]*)",
    re.IGNORECASE,
)


def _titled_names(text: str) -> str:
    """`text` with a title and the name after it capitalised ("dr lee" → "Dr Lee"); not a
    little word after it ("mr and mrs smith": "Mrs Smith"), nor a street's ("12 dr. ave")."""

    def capitalised(match: re.Match[str]) -> str:
        title, gap, name = match.groups()
        if is_function_word(name) or re.search(r"\d\s*$", text[: match.start()]):
            # ("12 dr. ave": a street)
            return match.group(0)
        return f"{title[0].upper()}{title[1:]}{gap}{name[0].upper()}{name[1:]}"

    return _TITLED.sub(capitalised, text)
