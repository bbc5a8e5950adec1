"""A fact an email is asked to give, looked up in the user's own things.

"Answer Priya that it's fine, and mention which book we're discussing", "sag ihr auch, wann
wir uns treffen", "dis-lui à quelle heure ça commence", "dile dónde quedamos": the answer is
not in the request but in the calendar (the book is in the book club's notes) or in a file or
an email. Code finds the one thing the request names and asks the model only to copy the
answer's words from it; an answer the text does not hold is no answer, and the request is
written as before. The confirmation dialog shows the email before anything goes out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.agent.intents.calendar_steps import event_named_shown, free_times_on
from app.agent.intents.english import english_words
from app.agent.intents.file_steps import ok_result, telling_words
from app.agent.intents.glossary import glossed, speaks_of_food
from app.agent.intents.language import (
    asks_for_a_record_number,
    asks_for_free_time,
    points_at_what_is_known,
)
from app.agent.intents.lookup import Source, best_source
from app.agent.intents.mail_body import said_after
from app.agent.intents.recognise import any_word_of, grounded
from app.agent.intents.router import Doing, HandOver
from app.agent.intents.tally import rows_named
from app.store.documents import content_words
from connectors.folding import fold

# Telling the recipient (not asking them: `asking`): "mention", "let her know", "sag ihr",
# "dis-lui", "dile".
_TELL = (
    r"mention(?:ing)?|tell(?:ing)?\s+(?:him|her|them)|let\s+(?:him|her|them)\s+know|"
    r"remind(?:ing)?\s+(?:him|her|them)(?:\s+of)?|include|add|confirm|"
    r"sag(?:e|t)?|schreib(?:e|t)?|erwähn(?:e|t)?|nenn(?:e|t)?|erinnere?|bestätig(?:e|t)?|"
    r"dis|dites|précise[rz]?|rappelle[rz]?|mentionne[rz]?|indique[rz]?|confirme[rz]?|"
    r"dile|diles|menci[oó]na(?:le|les)?|recu[eé]rda(?:le|les)|ind[ií]ca(?:le|les)|"
    r"confirma(?:le|les)?|"
    r"cu[eé]nta(?:le|les)"
)
# What they asked, reported: the email answers it ("Jonas asked me how much we spent",
# "Lena will wissen, wann …", "Paul m'a demandé quand …", "Jonas me ha preguntado cuánto").
_REPORTED = (
    r"asked(?:\s+(?:me|us))?|wants\s+to\s+know|gefragt|will\s+wissen|wollte\s+wissen|"
    r"(?:m'|m’|nous\s+)?a\s+demandé|veut\s+savoir|voudrait\s+savoir|"
    r"(?:me|nos)\s+(?:ha\s+)?pregunt(?:ó|o|a)|ha\s+preguntado|quiere\s+saber"
)
# Telling or reported asking, then within a few words the word that opens what to tell:
# "mention which book", "let her know where", "sag ihr auch, wann", "dis-lui à quelle
# heure", "dile dónde". Spanish "que" without its accent is "that".
_TELLING = re.compile(
    rf"\b(?:{_TELL}|(?P<reported>{_REPORTED}))"
    r"(?:-(?:lui|leur))?(?:[^.?!:]{0,20}?)(?<![\w'’])"
    r"(?P<wh>which|what time|what|where|when|who|how much|how many|welche[nmrs]?|"
    r"um wie ?viel uhr|was|wo|wann|wer|wie ?viel|à quelle heure|quel(?:le)?s?|où|quand|qui|"
    r"combien|a qué hora|qué|cuál(?:es)?|dónde|cuándo|quién|cuánt[oa]s?)(?!\w)",
    re.IGNORECASE,
)
# Telling, or giving, a thing of the user's by its name ("rappelle-lui le numéro de bon de
# commande qu'elle m'a donné", "give him the address", "sag ihr die Nummer", "dale la
# dirección").
_TELLING_A_THING = re.compile(
    rf"\b(?:{_TELL}|give\s+(?:him|her|them)|gib\s+(?:ihm|ihr)|donne[rz]?|da(?:le|les)|"
    r"put|pon(?:le|les)?|mets|mettez|setz(?:e|t)?|"
    r"send|e-?mail|mail|text|schick(?:e|t)?|envoie[rz]?|m[aá]nda(?:le|les)|"
    r"env[ií]a(?:le|les))"
    # to whom, if said: "give him", "send Priya", "mándale a Priya", "envoie à Paul"
    r"(?:-(?:lui|leur))?(?:\s+(?:ihm|ihr|him|her|them|(?:a\s+|à\s+)?(?-i:[A-ZÄÖÜÉ][\w-]+)))?"
    r"\s+(?:also\s+|auch\s+|aussi\s+|"
    r"también\s+)?((?:the|his|her|their|die|den|das|seine|ihre|le|la|l['’]|les|son|sa|ses|el|"
    r"los|las|su|sus)\s*[^.?!,;:]{2,80})",
    re.IGNORECASE,
)
# Where the clause of what to tell ends: a sentence's end, a comma, or "and that …".
_CLAUSE_END = re.compile(r"[.!?;,]|\s(?:and|und|et|y)\s+(?:that|dass|que|qu['’])", re.I)
# Words that lead into telling ("and maybe", "also", "und bitte", "et aussi"): cut with it.
_LEAD_IN = re.compile(
    r"(?:[,;]?\s*\b(?:and|und|et|y|also|maybe|perhaps|please|auch|noch|bitte|vielleicht|"
    r"aussi|peut-être|stp|también|quizás?|por favor|could you|can you)\b)+\s*$",
    re.IGNORECASE,
)

_FACT_PROMPT = (
    "Copy from the text below the words that answer the question: a title, a name, a place, "
    "a day, a time or an amount, exactly as the text writes them. Write only those words. If "
    "the text does not answer the question, write: none"
)


@dataclass(frozen=True)
class Told:
    """What a request asks an email to tell that the request itself does not say."""

    question: str  # as the request says it: "which book we're discussing"
    start: int  # where telling it starts in the request ("And maybe mention …")
    end: int  # where it ends
    reported: bool  # asked by the recipient ("Jonas asked me how much …"): the email answers


# An email asked to carry something from a file of the user's ("reply with the planned and
# spent figures from my budget sheet", "mit den Zahlen aus meiner Budgettabelle", "avec les
# chiffres de mon tableau", "con las cifras de mi hoja de presupuesto"): what it carries.
_CARRYING = re.compile(
    r"\b(?:with|mit|avec|con)\s+((?:the|those|these|both|all|den|die|das|beiden|les|ces|"
    r"el|la|los|las|esas|esos)\b[^.?!,]{2,60}?)\s+(?:from|in|aus|de|du|des|del|en)\s+"
    r"(?:my|our|the|meiner|meinem|unserer|der|dem|mon|ma|mes|notre|mi|mis|nuestra|la|el)\s+\w+",
    re.IGNORECASE,
)


# An email to write with a fact of the user's in it ("un mail avec le nom et l'adresse de
# l'hôtel", "an email with the address of the hotel", "eine Mail mit der Adresse", "un correo
# con la dirección"): what it carries, up to its clause's end.
_MAIL_WITH = re.compile(
    r"\b(?:e-?mail|mail|message|note|line|nachricht|courriel|mot|correo|mensaje)\s+"
    r"(?:with|mit|avec|con)\s+((?:the|his|her|their|my|our|dem|der|den|die|das|seiner|"
    r"ihrer|meiner|le|la|l['’]|les|son|sa|ses|mon|ma|mes|el|los|las|su|sus|mi|mis)\b"
    r"\s*[^.?!;:]{2,80})",
    re.IGNORECASE,
)


# Facts a file gives, carried ("the figures", "die Zahlen", "les chiffres", "las cifras"),
# folded; not things ("the photos", "the slides").
_FACTS = re.compile(
    r"\b(?:figures?|numbers?|amounts?|totals?|dates?|times?|details?|address|codes?|"
    r"references?|betrage|summen?|chiffres?|montants?|numeros?|reference|cifras?|importes?|"
    r"fechas?|direccion|referencia|codigo|names?|namen|nom|noms|nombres?|adresses?|"
    r"direcciones|"
    # German compounds by their last part ("Buchungsnummer", "Lieferadresse")
    r"\w*(?:zahlen|nummer|daten|datum|termine?|adresse|referenz|code))\b"
)


def told_of(request: str) -> Told | None:
    """The question whose answer the request asks to pass on, or None when it asks none."""
    carried = _CARRYING.search(request)
    if carried and _FACTS.search(fold(carried.group(1))):
        # the whole phrase is cut from what to say; what the file gives is all it says
        return Told(carried.group(1), carried.start(), carried.end(), reported=True)
    found = _TELLING.search(request)
    if found is None:
        return _a_thing_told(request) or _carried_by_the_mail(request)
    ended = _CLAUSE_END.search(request, found.end())
    end = ended.start() if ended is not None else len(request)
    question = request[found.start("wh") : end].strip()
    if len(content_words(question)) < 2:  # "tell her when": nothing to look up
        return None
    lead = _LEAD_IN.search(request[: found.start()])
    start = lead.start() if lead is not None else found.start()
    return Told(question, start, end, reported=found.group("reported") is not None)


def _a_thing_told(request: str) -> Told | None:
    """A record or fact of the user's told by its name ("rappelle-lui le numéro de bon de
    commande qu'elle m'a donné"): only one `_FACTS` names, up to its clause's end."""
    found = _TELLING_A_THING.search(request)
    if found is None or not _FACTS.search(fold(found.group(1))):
        return None
    ended = _CLAUSE_END.search(request, found.start(1))
    end = ended.start() if ended is not None else len(request)
    if relative := _RELATIVE.match(request, end):
        end = relative.end()  # "die Bestellnummer, die die Buchhaltung … haben will"
    lead = _LEAD_IN.search(request[: found.start()])
    start = lead.start() if lead is not None else found.start()
    return Told(request[found.start(1) : end].strip(), start, end, reported=False)


# A relative clause saying which record is meant, after its comma ("…, die die Buchhaltung
# auf der Überweisung haben will", "…, that she asked for", "…, qu'elle m'a donné", "…, que
# me pidió"): part of what to tell, up to the sentence's end.
_RELATIVE = re.compile(
    r",\s*(?:die|der|das|den|dem|welche\w*|that|which|qu['’]|que|qui|la que|el que|lo que)\b"
    r"[^.?!;]*",
    re.IGNORECASE,
)


def _carried_by_the_mail(request: str) -> Told | None:
    """A fact of the user's the email is to carry ("Tu peux lui envoyer un mail avec le nom et
    l'adresse de l'hôtel ?"): what the email says, as the recipient wants it."""
    found = _MAIL_WITH.search(request)
    if found is None or not _FACTS.search(fold(found.group(1))):
        return None
    ended = _CLAUSE_END.search(request, found.start(1))
    end = ended.start() if ended is not None else len(request)
    return Told(request[found.start(1) : end].strip(), found.start(1), end, reported=True)


# Sending, in the four languages: "send", "schick", "envoie", "envía", "mándale", "share".
_SENDING = re.compile(
    r"\b(?:send|e-?mail|mail|forward|share|schick\w*|send\w*|verschick\w*|weiterleit\w*|"
    r"teil\w*|envoie\w*|envoyer|transf[eè]re\w*|partage\w*|env[ií]a\w*|enviar|m[aá]nda\w*|"
    r"reenv[ií]a\w*|comparte\w*)\b",
    re.IGNORECASE,
)
# A thing of the user's, named after "my" up to how or to whom it goes ("mein Rezept für die
# Gemüselasagne per Mail", "ma recette de lasagnes aux légumes à Anna", "my packing list
# to Tom").
_MY_THING = re.compile(
    r"\b(?:my|mein(?:e[nmrs]?)?|ma|mon|mes|mi|mis)\s+((?:[\w'’-]+\s*?){1,7}?)"
    r"(?=\s+(?:per|par|por|by|via|to|an|à|a|with|mit|avec|con|and|und|et|y|please|bitte|"
    r"s'il|stp|porfa|que|that|dass|so|pour|para)\b|\s*[.,?!;:]|\s*$)",
    re.IGNORECASE,
)
# A thing the user says they keep, named before it ("the vegetable lasagne recipe I saved", "la
# receta de la lasaña que tengo guardada", "la recette que j'ai enregistrée", "das Rezept, das
# ich gespeichert habe").
_SAVED_THING = re.compile(
    r"\b((?:the|la|el|le|les|los|las|die|das|den)\s+(?:[\w'’-]+\s+){0,7}?[\w'’-]+),?\s+"
    r"(?:(?:that\s+)?i(?:\s+have|'ve)?\s+(?:saved|kept|stored)|que\s+tengo\s+guardad[oa]s?|"
    r"que\s+guard[eé]|que\s+j'ai\s+(?:gard|enregistr|sauvegard)[ée]e?s?|"
    r"(?:das|die|den)\s+ich\s+gespeichert\s+habe)\b",
    re.IGNORECASE,
)
# What an email is about, not what it carries ("about my party", "wegen meiner Party").
_ABOUT = re.compile(
    r"\b(?:about|regarding|re|wegen|über|bezüglich|sur|concernant|propos|sobre|acerca)\b",
    re.IGNORECASE,
)
# The most of a file's text an email carries.
_SENT_CHARS = 2000


def file_sent(doing: Doing) -> tuple[str, str] | None:
    """The file of the user's an email is to carry whole ("¿puedes enviar por correo mi
    receta de la lasaña de verduras?"): what the request calls it, with "my", and its text;
    None when the request says what to write ("… that …"), names no thing of the user's, or
    no file plainly is it (a file, not an email, holding two of its telling words, or all of
    fewer, in its language or in English)."""
    request = doing.request.split("\n", 1)[0]  # not the answer to a question after it
    sending = _SENDING.search(request)
    named = _MY_THING.search(request) or _SAVED_THING.search(request)
    # ("… que tengo guardada" says which thing, not what to write)
    unsaid = request[: named.start()] + request[named.end() :] if named else request
    if sending is None or named is None or said_after(unsaid):
        return None
    between = request[min(sending.end(), named.end()) : max(sending.start(), named.start())]
    called = named.group(0) if named.re is _MY_THING else _from_its_article(named)
    if _ABOUT.search(between) or not (words := telling_words(named.group(1))):
        return None  # "email Anna about my birthday party": what it is about, not sent
    try:
        source = best_source(doing, named.group(1))
    except HandOver:  # the folder cannot be read: nothing is sent from it
        return None
    if source is None or not source.path or source.matched < min(2, len(words)):
        return None
    read = ok_result(doing.call("read_file", path=source.path))  # as the file has it
    text = str(read.get("text", "")).strip() if isinstance(read, dict) else ""
    if not text:
        return None
    if len(text) > _SENT_CHARS:
        text = text[: _SENT_CHARS - 1].rsplit("\n", 1)[0] + "\n…"
    return called.strip(), text


def _from_its_article(saved: re.Match[str]) -> str:
    """A saved thing's name from its article: "la receta de la lasaña" of "le prometí la
    receta de la lasaña que tengo guardada" (Spanish "le" is no article, but a pronoun)."""
    named = saved.group(1)
    spanish = re.search(r"\bque\s+(?:tengo|guard)", saved.group(0), re.I)
    articles = r"la|el|los|las" if spanish else r"the|la|le|les|die|das|den"
    first = re.search(rf"\b(?:{articles})\s", named, re.I)
    return named[first.start() :] if first else named


def with_fact(doing: Doing, message: str) -> tuple[str, str]:
    """`message` without the words asking to tell something, and the line that tells it
    ("Which book we're discussing: The Remains of the Day."); (`message`, "") when the
    request asks nothing of the kind or nothing the user keeps answers it. The message is
    "" when the fact is all there is to say: they asked it, and the request says nothing
    after "that" ("Jonas asked me how much we spent … send him the figures")."""
    told = told_of(doing.request)
    if told is None:
        return message, ""
    answer = _looked_up(doing, told)
    if not answer:
        return message, ""
    in_message = told_of(message)
    if in_message is not None:  # the whole request, or the model's copy of it
        message = f"{message[: in_message.start]}{message[in_message.end :]}".strip(" ,;")
    elif grounded(told.question, message, copied=False):
        # the model's words hold the asking to tell, turned ("tell me when I'm free"): the
        # request's own, less it
        message = f"{doing.request[: told.start]}{doing.request[told.end :]}".strip(" ,;")
    if told.reported and not said_after(doing.request[told.end :]):
        message = ""
    message = _without_where_it_is(message)
    line = told.question[:1].upper() + told.question[1:].rstrip(" ?")
    return message, f"{line}: {answer.rstrip('.')}."


# The most memories judged (one model step each).
_MOST_KEPT = 9


def known_of_the_user(doing: Doing, about: str = "") -> str:
    """The memory the request points at instead of saying it ("Kannst du ihr kurz antworten?
    Du weißt ja, was bei mir gilt": "Alex is vegetarian."), the one kept that the model says
    it is, asked of each alone, for what the email replied to asks (`about`); "" when the
    request points at nothing, none is kept or none stands out."""
    if not points_at_what_is_known(doing.request) or doing.agent.registry.get("recall") is None:
        return ""
    kept = doing.peek("recall", query="")
    facts = (
        [str(m["fact"]) for m in kept if isinstance(m, dict) and m.get("fact")]
        if isinstance(kept, list)
        else []
    )
    facts = facts[:_MOST_KEPT]
    if speaks_of_food(f"{doing.request} {about}"):
        # what is eaten, asked about ("dietary requirements") or pointed at ("you know what
        # I eat"): the memories on it, the one there is taken as it is
        on_food = [fact for fact in facts if speaks_of_food(fact)]
        if len(on_food) == 1:
            doing.call("recall", query=on_food[0])
            return on_food[0]
        facts = on_food or facts
    asked = f"{about}\n\nIs this fact what the user means?".strip()
    picked = doing.judge(asked, facts)
    if not picked:
        return ""
    fact = facts[picked - 1]
    doing.call("recall", query=fact)  # the lookup made, as the user sees it
    return fact


def _looked_up(doing: Doing, told: Told) -> str:
    """The answer's words from the event the request names, else from the file or email
    holding the question's telling words; "" when none holds an answer."""
    if asks_for_free_time(told.question) and (free := free_times_on(doing, told.question)):
        return free  # "sag ihm, wann ich am Donnerstag Zeit habe": the calendar's free times
    if remembered := _remembered(doing, told):
        return remembered  # "mi cafetería favorita … Pon el nombre del sitio"
    try:
        event = event_named_shown(doing, in_english=True)
        if event and (answer := _copied(doing, told, event)):
            return answer
        # no event named, or none holding the answer ("email Tom the booking number for my
        # Lisbon hotel": the trip's event names Lisbon, the itinerary holds the number)
        source = _source(doing, told)
        if source is None:
            return ""
        if source.path and (rows := _rows_asked(doing, source, told.question)):
            return "; ".join(rows)  # a table's rows, as they are: no model step
    except HandOver:  # the calendar, folder or mailbox cannot be read: nothing is told
        return ""
    return _copied(doing, told, source.text)


# A memory saying what a thing of the user's is ("Alex's favourite café is Café Rosa"): what
# it is.
_DEFINED = re.compile(r"^.+?\s(?:is|are|ist|sind|est|sont|es|son)\s+(.+?)\.?$")


def _remembered(doing: Doing, told: Told) -> str:
    """What the one memory holding two of the rest of the request's telling words (or of
    their English: "mi cafetería favorita", "favourite café") says of what the question
    asks: what the thing is called, where or its number, as the memory says what it is
    (Café Rosa); else the model's copy from it. "" if no one memory holds them."""
    if doing.agent.registry.get("recall") is None:
        return ""
    rest = f"{doing.request[: told.start]} {doing.request[told.end :]}"
    english = glossed(rest)
    query = f"{rest} {english}".strip()
    words = list(dict.fromkeys([*telling_words(rest), *english.split()]))
    found = doing.peek("recall", query=query)
    facts = (
        [str(i.get("fact")) for i in found if isinstance(i, dict)]
        if isinstance(found, list)
        else []
    )
    kept = [f for f in facts if sum(any_word_of(w, f) for w in words) >= 2]
    if len(kept) != 1:
        return ""
    doing.call("recall", query=query)  # the lookup made, as the user sees it
    asked = {fold(w) for w in re.findall(r"[\w'’-]+", told.question)}  # "le nom"
    if asked & _ASKED_OF and (what := _DEFINED.match(kept[0])):
        return what.group(1)
    return _copied(doing, told, kept[0])


def _copied(doing: Doing, told: Told, text: str) -> str:
    """The model's copy of the answer from `text`; else the one number the text writes
    after the record the question names ("booking 55120" for "the booking number", where the
    small model wrote "none"); "" when the text holds neither."""
    answer = doing.write(_FACT_PROMPT, f"{text}\n\nQuestion: {told.question}").strip()
    if _holds_an_answer(answer, text, doing.request):
        return answer
    return _record_number(told.question, text) if asks_for_a_record_number(told.question) else ""


# The kinds of records a number belongs to, by the English stem a text writes them with, and
# their forms in the four languages (folded).
_RECORDS = {
    "booking": ("booking", "buchung", "reservation", "reservierung", "reserva"),
    "order": ("order", "bestell", "auftrag", "commande", "pedido"),
    "customer": ("customer", "kunden", "client", "cliente"),
    "ticket": ("ticket", "billet", "billete"),
    "membership": ("membership", "mitglied", "adhesion", "socio"),
}


def _record_number(question: str, text: str) -> str:
    """The one number or code written within a few words after the record `question` names
    ("booking 55120", "Order no. 7781"); "" if none or several."""
    asked = fold(question)
    kinds = [k for k, forms in _RECORDS.items() if any(f in asked for f in forms)]
    found = {
        m.group(1)
        for kind in kinds
        for form in _RECORDS[kind]
        for m in re.finditer(
            rf"\b{form}\w*\b[^\n\d]{{0,25}}?\b([A-Z]{{0,4}}-?\d[\w-]{{2,}})", text, re.I
        )
    }
    return found.pop() if len(found) == 1 else ""


def _source(doing: Doing, told: Told) -> Source | None:
    """The file or email holding the question's telling words (two, or all of fewer, in
    its language or in English), else the one the rest of the request names ("… in the
    budget sheet": budget-2029.csv) if it holds them."""
    question = told.question
    # what is asked of the thing ("le nom et l'adresse de l'hôtel") is not written beside it
    # ("hotel Casa do Rio, Rua da Prata 12"): the thing's words are those looked for
    wanted = min(2, len([w for w in telling_words(question) if fold(w) not in _ASKED_OF]))
    source = best_source(doing, question)
    if source is not None and source.matched >= wanted:
        return source
    rest = f"{question}. {doing.request[: told.start]} {doing.request[told.end :]}"
    source = best_source(doing, rest)
    if source is None:
        return None
    words = telling_words(f"{question} {english_words(doing, question)}")
    return source if sum(any_word_of(w, source.text) for w in words) >= wanted else None


# What a question asks of a thing, in the four languages (folded): a text giving it need
# not name it.
_ASKED_OF = {
    "name", "names", "address", "addresses", "number", "nom", "noms", "adresse", "adresses",
    "numero", "namen", "nummer", "nombre", "nombres", "direccion", "direcciones",
}  # fmt: skip
# Where the user says the fact is, to the assistant ("it's in my itinerary", "Normalement tout
# est dans mon itinéraire", "steht alles in meinem Reiseplan", "está en mi carpeta"), folded:
# no words for the recipient.
_WHERE_IT_IS = re.compile(
    r"(?:^|(?<=[.!?,;]))\s*(?:\w+\s+)?(?:it'?s|it is|they'?re|they are|everything'?s|"
    r"all of (?:it|that)(?:'s| is)|tout est|c'est|(?:das |es |alles )?steht(?: alles)?|"
    r"(?:todo )?esta)\s+(?:all\s+|alles\s+)?(?:in|on|dans|sur|im|en)\s+(?:my|mon|ma|mes|"
    r"meine[mnr]?|mi|mis)\b[^.?!]*[.?!]?"
)


def _without_where_it_is(message: str) -> str:
    """`message` without the sentence telling the assistant where the fact is."""
    folded = fold(message)
    if len(folded) != len(message):  # ("ß" folded to "ss"): the places differ
        return message
    for found in reversed(list(_WHERE_IT_IS.finditer(folded))):
        message = message[: found.start()] + message[found.end() :]
    return message.strip(" ,;")


def _rows_asked(doing: Doing, source: Source, question: str) -> list[str]:
    """The rows of the table the question names ("viajes": the row "travel"), by its words
    or their English."""
    table = source.text.split("\n", 1)[-1]
    return (
        rows_named(table, question)
        or rows_named(table, english_words(doing, question))
        or rows_named(table, doing.request)  # "Sophie asked about the travel line. …"
        or rows_named(table, english_words(doing, doing.request))
    )


def _holds_an_answer(answer: str, text: str, request: str) -> bool:
    """Whether the model's words are copied from the text, and say something the request
    does not ("none", a sentence of its own or the question's words back are no answer)."""
    words = content_words(answer)
    if not words or len(answer) > 120 or answer.strip(" .").lower() == "none":
        return False
    return grounded(answer, text) and any(not any_word_of(w, request) for w in words)
