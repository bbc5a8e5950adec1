"""The body of an email the user asked to send or answer: their words, in their language.

The model may write the body around what the user asked to say, but a small model adds things
("I've been working on a project…", "Would you like me to schedule a meeting?") or refuses.
So code keeps of a written body only the sentences that hold the user's words (a greeting, a
name, a sign-off and a pleasantry are short and pass), and when what is left no longer says
what the user asked, writes the letter itself: a greeting, what the user said, a sign-off, in
the request's language. When the model gave what to say in other words than the user's (it
translated "dass ich später komme" to "I will come later"), what to say is read from the
request itself: the words after "that", "dass", "que" or a colon.
The confirmation dialog shows the body before anything goes out.
"""

from __future__ import annotations

import re
from datetime import datetime
from email.utils import parseaddr

from app.agent.intents.asking import (
    as_question,
    asked_directly,
    asked_of,
    asked_to_do,
    asked_what,
    opened,
    said_before_asking,
    separated,
    to_you,
)
from app.agent.intents.glossary import glossed
from app.agent.intents.language import about_the_users_own, in_their_language, sentences
from app.agent.intents.recognise import POSSESSIVE, any_word_of, grounded
from app.agent.intents.router import Ask, Doing
from app.agent.intents.when import read_when
from app.store.documents import content_words
from connectors.folding import fold

_BODY_PROMPT = (
    "You write the body of a short, friendly email for the user. Write only the body text: "
    "no subject line, no placeholders like [Name]. Say what the user asked to say, nothing "
    "more. End with a short greeting."
)
# Words that say an email is meant but not which one (four languages, accents folded).
NO_EMAIL_NAMED = {
    "the", "a", "an", "this", "that", "my", "last", "latest", "new", "newest", "email",
    "e-mail", "mail", "emails", "mails", "message", "one", "it", "die", "das", "der", "diese",
    "letzte", "neue", "nachricht", "le", "la", "ce", "cette", "dernier", "courriel",
    "el", "este", "esta", "ultimo", "correo", "mensaje",
}  # fmt: skip
# Words that ask for an email to be written, not what it should say (accents folded).
ASKING_TO_WRITE = {
    "send", "write", "reply", "answer", "tell", "say", "and", "to", "schick", "schicke",
    "sende", "schreib", "schreibe", "antworte", "sag", "sage", "und", "an", "envoie",
    "envoyer", "ecris", "reponds", "dis", "et", "a", "envia", "escribe", "responde",
    "contesta", "di", "dile", "manda", "y", "para", "ein", "eine", "einen", "un", "une",
    "una", "uno", "him", "her", "them", "ihm", "ihr", "lui", "leur", "le", "les",
}  # fmt: skip
# What introduces the words to pass on: "… that I'm late", "…, dass ich später komme",
# "… que son livre est prêt", "diciendo que llego tarde", "Reply to Jamie: Wednesday works".
_SAYING = re.compile(
    r"(?:\b(?:that|saying|to say|(?:and|then|just) say|dass|daß|que)\b|\bqu['’](?=\w)|:(?=\s)"
    # what follows telling them ("… write back and tell him Sam and I would love to come",
    # "sag ihr, wir kommen", "dis-lui qu'on arrive", "dile que sí")
    r"|\b(?:tell|let)\s+(?:him|her|them|(?-i:[A-Z][\w'-]+))(?:\s+know)?(?:,?\s+that\b)?"
    r"|\bsag\s+(?:ihm|ihr|ihnen)"
    r"(?:,?\s+dass\b)?|\bdis-(?:lui|leur)(?:\s+que\b|\s+qu['’])?|\bdiles?(?:\s+que\b)?)\s*,?\s*",
    re.IGNORECASE,
)
# A German subject pronoun opening a "dass" clause, whose verb then comes last; or an
# article before the subject's noun ("dass die Folien fertig sind").
_PRONOUN = {"ich", "wir", "du", "er", "sie", "es", "ihr", "man"}
_ARTICLE = {
    "der", "die", "das", "den", "dem", "ein", "eine", "mein", "meine", "dein", "deine",
    "unser", "unsere", "euer", "eure", "sein", "seine", "ihre",
}  # fmt: skip
# A greeting, a name, a sign-off or a pleasantry ("Looking forward to seeing you!"): short
# sentences any body may hold. A longer one that is not the user's ("I've been working on a
# project for a while now") is made up.
_SHORT_LINE = 6
# (not after a German ordinal: "am Freitag, den 25. Mai" is one sentence)
_SENTENCE = re.compile(
    r"(?<=[.!?])(?<!\d\.)\s+|(?<=\d\.)\s+(?!(?:jan|feb|m[aä]r|apr|mai|jun|jul|aug|sep|okt|nov|dez)"
    r"\w*\b)",
    re.IGNORECASE,
)


def body(doing: Doing, to: str, message: str, question: str, all_said: bool = True) -> str:
    """The body for `message`, the words of the slot (the user's whole request where the
    model gave them in other words); asks `question` when the request says nothing.
    `all_said`: what follows "that" is all the user asks to say (no fact told beside it)."""
    asked, _ = question_for(doing)
    if asked:
        # "… to ask if she is free on Saturday": asked of Priya, written to her; what the
        # request says before asking ("thank her for the risotto") is written before it
        before = _said_beside(said_before_asking(doing.request), to)
        if before:
            request = (f"To: {to}\nThe user's request: {before}\n"
                       "Write the body in the language of the request."
                       f"{in_their_language(doing.language)}")  # fmt: skip
            if told := _written(doing, to, request, before, what_to_say(before, to)):
                return with_paragraph(told, asked)
        return letter(doing, to, asked)
    if "message" in doing.from_request:
        said = said_after(message)
        if said:  # "Envoie un mail à Priya pour lui dire que son livre est prêt"
            return _kept_or_letter(doing, to, said)
        if not what_to_say(message, to):  # "Send an email to Tom.": nothing to say in it
            raise Ask(doing.question(question), "message")
        # No "that": the body is written from the whole request, in its language, and must
        # keep to it.
        told = _told_before(doing, message)
        asked = (f"To: {to}\nThe user's request: {message}{told}\n"
                 "Write the body in the language of the request."
                 f"{in_their_language(doing.language)}")  # fmt: skip
        kept = _written(doing, to, asked, message + told, what_to_say(message, to))
        if not kept:
            raise Ask(doing.question(question), "message")
        return kept
    # The model's words copied from what the request tells before what to say ("Priya wrote
    # that she's running late. Answer her that it's fine": "I'm running late. It's fine.")
    said = said_after(doing.request)
    if said and not grounded(message, said):
        # the model's own words for what the user said ("Send dessert on Friday" of "Tell
        # Anna I'll bring dessert on Friday"): the user's
        message = said
    elif said and (kept := kept_to(message, said, to)):
        # (the model's copy holding only part of it, "I ramène the dessert" of "Réponds à
        # Anna que vendredi ça me va, je ramène le dessert": the user's words whole)
        message = kept if grounded(said, kept) or not all_said else said
    return _kept_or_letter(doing, to, _AND_THAT.sub(lambda m: f" {m.group(1)} ", message))


def question_for(doing: Doing) -> tuple[str, str]:
    """The question the request asks to pass on, said to its recipient: as the email's
    sentence ("I wanted to ask whether you are free on Saturday.") and as a subject line
    ("You are free on Saturday?"); ("", "") when it asks none (`asking`)."""
    language = doing.language
    if content_words(asked := asked_of(doing.request)):
        turned = to_you(asked, language)
        return doing.say("asking", question=turned), as_question(turned, language)
    opening, rest = asked_what(doing.request)
    if opening and content_words(rest):
        turned = to_you(rest, language, wh=True)
        sentence = doing.say("asking_what", question=opened(opening, turned))
        return sentence, asked_directly(opening, turned, language)
    if content_words(to_do := asked_to_do(doing.request)):
        # "ask him to send me the slides": "Could you send me the slides?"
        turned = to_you(to_do, language)
        return doing.say("asking_to", request=turned), turned[:1].upper() + turned[1:]
    return "", ""


# Words that ask for a short email, not what it says ("tu pourrais lui écrire un petit
# mot", "could you write her a quick note"), accents folded; beside those `what_to_say`
# leaves out already (NO_EMAIL_NAMED, ASKING_TO_WRITE).
_A_NOTE = {
    "petit", "mot", "quick", "note", "short", "line", "brief", "kurze", "kurz", "paar",
    "zeilen", "rapide", "courte", "mensajito", "notita", "breve", "linea", "tu", "you", "du",
    "vous", "could", "can", "would", "pourrais", "pourriez", "peux", "kannst", "konntest",
    "podrias", "puedes", "ecrire", "schreiben", "escribir", "escribirle", "envoyer",
}  # fmt: skip


def _said_beside(before: str, to: str) -> str:
    """What a request says before it asks its question, without the sentences that only ask
    for the email ("Tu pourrais lui écrire un petit mail pour lui"): "" when nothing else."""
    kept = [
        said
        for said in sentences(before)
        if len([w for w in content_words(what_to_say(said, to)) if fold(w) not in _A_NOTE]) >= 2
    ]
    return " ".join(kept)


def with_paragraph(body: str, added: str) -> str:
    """A written body with `added` (a question, a fact) as a paragraph of its own before
    the sign-off (its last paragraph, when short), else at its end."""
    paragraphs = body.split("\n\n")
    if len(paragraphs) >= 2 and len(paragraphs[-1].split()) <= _SHORT_LINE:
        return "\n\n".join([*paragraphs[:-1], added, paragraphs[-1]])
    return f"{body}\n\n{added}"


def _kept_or_letter(doing: Doing, to: str, said: str) -> str:
    told = _told_before(doing, said)
    asked = f"To: {to}\nWhat to say: {said}{told}{in_their_language(doing.language, True)}"
    return _written(doing, to, asked, said + told, said) or letter(doing, to, said)


def _written(doing: Doing, to: str, asked: str, allowed: str, must_hold: str) -> str:
    """The model's body for `asked`, less the sentences that are not `allowed`'s words
    (`kept_to`); "" when what is left no longer holds most of `must_hold`, or turns round
    what the user says (`keeps_the_stance`)."""
    written = doing.write(_BODY_PROMPT, asked)
    if _repeats_itself(written):
        return ""  # the small model caught in a loop ("Cher Sophie, …" sixteen times)
    kept = kept_to(written, allowed, to)
    if (
        not kept
        or not keeps_the_stance(kept, allowed)
        or not _keeps_the_when(kept, allowed, doing.now)
    ):
        return ""
    return kept if grounded(must_hold, kept, copied=False) else ""


def _repeats_itself(written: str) -> bool:
    """Whether a paragraph of the model's text comes again, or its greeting does."""
    paragraphs = [" ".join(p.split()) for p in written.split("\n\n") if p.strip()]
    # (an opening's, not a closing's: "Best regards," before the name is no greeting)
    greetings = [
        p for p in paragraphs if p.endswith(",") and len(p.split()) <= 4 and _OPENING.match(fold(p))
    ]
    return len(set(paragraphs)) < len(paragraphs) or len(greetings) > 1


# A letter's opening words (folded): "Hi", "Dear", "Hallo", "Liebe", "Bonjour", "Cher",
# "Hola", "Querida".
_OPENING = re.compile(
    r"(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|hallo|liebe[rs]?|sehr geehrte\w*|"
    r"guten (?:morgen|tag|abend)|bonjour|bonsoir|salut|chere?s?|hola|querid[oa]s?|estimad[oa]s?|"
    r"buen(?:os|as) \w+)\b"
)


def _keeps_the_when(written: str, said: str, now: datetime) -> bool:
    """Whether a written body says the day and time the user's words say, where they say
    one (the model wrote "on Monday at 16h" for "mercredi à 16h"), read in any of the
    languages."""
    asked = read_when(said, now)
    if asked is None or (not asked.day_given and asked.start is None):
        return True
    flat = " ".join(written.split())
    # one of its sentences says it (split as German dates keep theirs whole, "am 24. Mai",
    # and at every point, "… at 12:30. I love this café …")
    for sentence in [*sentences(flat), *re.split(r"(?<=[.!?])\s+", flat)]:
        told = read_when(sentence, now)
        if told is None:
            continue
        same_day = not asked.day_given or (told.day_given and told.day == asked.day)
        if same_day and (asked.start is None or told.start == asked.start):
            return True
    return False


# Saying no ("can't", "nicht", "pas", "no"), speaking as the user ("I", "wir", "on",
# "nosotros") and speaking to the reader ("you", "du", "vous", "usted"), in words folded:
# a body the model wrote must not drop the user's "no" nor put what the user says of
# themselves in the reader's mouth ("Sam and I can't make it": "sorry to hear you're
# unable to make it").
_NO = re.compile(
    r"n't\b|\b(?:not|no|never|cannot|unable|nicht|kein\w*|nie|niemals|pas|jamais|"
    r"nunca|tampoco|ni)\b"
)
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i'll|i've|i'd|we|we're|we'll|we've|me|us|my|our|ich|wir|mich|mir|uns|mein\w*|"
    r"unser\w*|je|j'\w+|nous|on|moi|mon|ma|mes|notre|nos|yo|nosotros|nosotras|mi|mis|"
    r"nuestr\w+)\b"
)
_OTHER_PERSON = re.compile(
    r"\b(?:you|you're|you'll|your|he|she|him|her|his|they|them|their|du|dich|dir|dein\w*|"
    r"er|ihn|ihm|tu|te|toi|ton|ta|tes|vous|votre|vos|il|elle|lui|leur|usted|ustedes|tus|"
    r"ella|su|sus)\b"
)
_TO_THE_READER = re.compile(
    r"\b(?:you|you're|you'll|you've|your|du|dich|dir|dein\w*|tu|te|toi|vous|usted)\b"
)
_THANKS = re.compile(r"\b(?:thank you|see you|danke dir|merci a vous|merci a toi|gracias a ti)\b")


def keeps_the_stance(written: str, said: str) -> bool:
    """Whether a written body says "no" where the user's words do, and, where the user's
    words speak only of themselves, speaks to the reader in no longer sentence (but a
    "thank you"): the model may turn "we can't make it" into "you can't"."""
    text, words = fold(written), fold(said)
    if _NO.search(words) and not _NO.search(text):
        return False
    if not _FIRST_PERSON.search(words) or _OTHER_PERSON.search(words):
        return True
    return not any(
        _TO_THE_READER.search(_THANKS.sub(" ", sentence))
        for line in text.splitlines()
        for sentence in _SENTENCE.split(line.strip())
        if len(sentence.split()) > _SHORT_LINE
    )


def kept_to(written: str, said: str, to: str) -> str:
    """`written` without its sentences that are not the user's: each longer one must hold
    mostly the words of `said` (or the recipient's name); short ones (a greeting, a name, a
    sign-off, a pleasantry) stay. Lines left empty go; "" when nothing of `said` is left."""
    allowed = f"{said} {to}"
    lines = []
    for line in written.strip().splitlines():
        if _A_GAP.fullmatch(line.strip()):
            continue  # "[Your Name]": a gap for the user to fill, not a line to send
        kept = [
            s
            for s in _SENTENCE.split(line.strip())
            if s
            and (len(s.split()) <= _SHORT_LINE or grounded(s, allowed, copied=False))
            and not (_OFFER_OF_HELP.search(fold(s)) and not grounded(s, allowed, copied=False))
        ]
        if kept or not line.strip():
            lines.append(" ".join(kept))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


# An assistant's offer of help, which the small model ends a letter with ("Wie kann ich
# Ihnen helfen?" after "ich komme am Samstag zur Grillparty"), folded: never the user's.
_OFFER_OF_HELP = re.compile(
    r"\bhow (?:can|may) i (?:help|assist)|\bwie kann ich (?:ihnen|dir|euch) helfen|"
    r"\bcomment (?:puis-je|je peux|pourrais-je) (?:vous|t')\s*aider|"
    r"\ben que (?:puedo|te puedo|le puedo|podria) ayudar|\banything else i can do|"
    r"\bkann ich (?:sonst )?noch (?:etwas|was) fur (?:sie|dich) tun"
)
# A line that is only a gap for the user to fill ("[Your Name]", "<name>").
_A_GAP = re.compile(r"\[[^\]]*\]|<[^>]*>")


def letter(doing: Doing, to: str, said: str) -> str:
    """A short email written by code: a greeting, the user's words, a sign-off."""
    name, address = parseaddr(to)
    first = (name or ("" if "@" in (address or to) else to)).split()
    text = said.strip()
    text = text[:1].upper() + text[1:]
    if text[-1:] not in ".!?":
        text += "."
    if first:
        return doing.say("letter", name=first[0], text=text)
    return doing.say("letter_unnamed", text=text)


def said_after(request: str) -> str:
    """What a request asks to pass on, in its own words: what follows its first "that",
    "dass", "que" or colon ("Schreib Tom, dass ich morgen nicht kann" → "ich kann morgen
    nicht"); "" when it has none or nothing follows."""
    found = _saying(request)
    if found is None:
        return ""
    # (the "?" of "Peux-tu écrire à Bob que … ?" is the request's, not what it says)
    said = request[found.end() :].strip().rstrip(" .!?")
    if len(content_words(said)) < 1:
        return ""
    # "… que ya revisé la factura y que está todo bien": the second "that" joins, unsaid;
    # each German "dass" clause put in a sentence's order
    german = fold(found.group(0)).strip(" ,").endswith(("dass", "daß"))  # "sag ihm, dass"
    parts = _AND_THAT.split(said)
    clauses, joins = parts[::2], parts[1::2]
    if german:
        clauses = [_main_clause(clause) for clause in clauses]
    joined = clauses[0]
    for join, clause in zip(joins, clauses[1:], strict=False):
        joined += f" {join} {clause}"
    return joined


# A verb reporting what someone else wrote or said, just before "that" ("Priya wrote that
# she's late", "Tom meint, dass", "elle a écrit que", "dice que"), accents folded: what follows
# is their news, not what to say, when the request says "that" again later.
_REPORTED = re.compile(
    r"\b(?:wrote|writes|said|says|told me|mentioned|mentions|thinks|heard|"
    r"schrieb|schreibt|geschrieben|sagt|sagte|gesagt|meint|meinte|"
    r"ecrit|dit|m'a dit|pense|escribio|escribe|dice|dijo|comenta|cuenta)\s*,?\s*$"
)


def own_words(message: str, request: str) -> str:
    """What the model gave to say, less the asking it copied with it ("Antworte Bob, dass
    ich mich freue": "ich freue mich"); `message` when it is not the request's own words or
    says nothing after "that"."""
    said = said_after(message)
    return said if said and grounded(message, request) else message


_AND_THAT = re.compile(r"\s+(and|und|et|y)\s+(?:that\s+|dass\s+|daß\s+|que\s+|qu['’])", re.I)


def _saying(request: str) -> re.Match[str] | None:
    """The first "that", "dass", "que" or colon introducing what to say: not one reporting
    another's words ("Priya wrote that she's late. Answer her that it's fine": the second)."""
    found = list(_SAYING.finditer(request))
    for match in found[:-1]:
        if not _REPORTED.search(fold(request[: match.start()])):
            return match
    return found[-1] if found else None


def named_before(words: str) -> str:
    """What names the email in words that also say what to answer: the part before "saying",
    "that", "dass", "que" or a colon ("Anna's last email saying I'll bring the wine" →
    "Anna's last email"); all of `words` when nothing comes before."""
    found = _SAYING.search(words)
    before = words[: found.start()].strip(" ,") if found is not None else ""
    return before if content_words(before) else words


def _main_clause(clause: str) -> str:
    """A German "dass" clause with a pronoun or article-and-noun subject in the order of a
    sentence of its own: its verb, which comes last, after the subject ("ich später komme" →
    "ich komme später", "die Folien fertig sind" → "die Folien sind fertig"; a separable
    prefix goes to the end: "ich später ankomme" → "ich komme später an")."""
    parts = clause.split(",")
    for end in range(1, len(parts)):
        # "ich mich freue, und …": the first clause alone, up to its verb ("wir am
        # Donnerstag, den 24. Mai überweisen, und …": the date's comma is inside it)
        if (said := parts[end - 1].split()) and said[-1].isalpha() and said[-1].islower():
            return f"{_main_clause(','.join(parts[:end]))},{','.join(parts[end:])}"
    words = clause.split()
    joined = [i for i, w in enumerate(words) if w in ("und", "oder") and words[i - 1].islower()]
    if joined and words[0].lower() in _PRONOUN and words[-1].islower() and joined[-1] > 1:
        # two verbs of one subject ("ich am Samstag zum Grillen komme und Salat mitbringe"):
        # each in a sentence's order ("ich komme … und bringe Salat mit")
        at = joined[-1]
        rest = words[at + 1 :]
        if rest[0].lower() in _PRONOUN:
            second = _main_clause(" ".join(rest))
        else:
            verb, prefix = separated(rest[-1])
            second = " ".join([verb, *rest[:-1], *([prefix] if prefix else [])])
        return f"{_main_clause(' '.join(words[:at]))} {words[at]} {second}"
    if len(words) >= 3 and words[0].lower() in _PRONOUN:
        subject = 1
    elif len(words) >= 4 and words[0].lower() in _ARTICLE and words[1][:1].isupper():
        subject = 2  # "die Folien fertig sind" → "die Folien sind fertig"
    else:
        return clause
    if not words[-1].islower():
        return clause
    verb, prefix = separated(words[-1])
    return " ".join([*words[:subject], verb, *words[subject:-1], *([prefix] if prefix else [])])


def what_to_say(request: str, to: str) -> str:
    """The words of a request that say what the email should say: not the recipient's
    name, not the asking to write ("Send an email to Tom." says nothing)."""
    named = {fold(w) for w in re.findall(r"[\w'-]+", to)}
    return " ".join(
        w
        for w in re.findall(r"[\w'-]+", request)
        if (f := fold(POSSESSIVE.sub("", w))) not in NO_EMAIL_NAMED | ASKING_TO_WRITE
        and f not in named
    )


def _told_before(doing: Doing, message: str) -> str:
    """What the user asked Hearth to remember that the message refers to ("my favourite
    café": "Alex's favourite café is Café Rosa"), for the body's writer: the memories holding
    two of its telling words. "" when it speaks of nothing of the user's, or none does."""
    if not about_the_users_own(message) or doing.agent.registry.get("recall") is None:
        return ""
    # the everyday things it names in English too: memories are often kept in it ("mi
    # cafetería favorita": "Alex's favourite café is Café Rosa")
    english = glossed(message)
    record = doing.call("recall", query=f"{message} {english}".strip())
    if record.status != "ok" or not isinstance(record.result, list):
        return ""
    words = [w for w in content_words(message) if len(w) > 3] + english.split()
    facts = [str(i.get("fact")) for i in record.result if isinstance(i, dict)]
    kept = [f for f in facts if sum(any_word_of(w, f) for w in dict.fromkeys(words)) >= 2]
    lines = "".join(f"\n- {fact}" for fact in kept[:3])
    return (
        f"\nWhat the user told you before (use it where the request means it):{lines}"
        if kept
        else ""
    )
