"""A question of general knowledge, asked after words about the user, that the model took
for a lookup among the user's things.

"random one - my flatmate and I are arguing about this. what temperature does water boil at
in fahrenheit?" is no question about the user's files, however much its first sentence speaks
of them: a small model reads "my" and picks a lookup, and every store is then searched for
boiling water. Code tells it apart from "When does the concert start?" by what the user keeps:
the question's own clause speaks of no one, and nothing of theirs names what it asks about.
Looking is a peek: only code sees what the stores hold, so a general question calls no tool
and nothing anyone else wrote reaches the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from app.agent.intents.english import english_words
from app.agent.intents.file_steps import named_inside, telling_words
from app.agent.intents.language import (
    ASKING_BACK,
    a_question_fragment,
    about_the_users_own,
    asked_before,
    asking_clause,
    asks_a_past_cost,
    asks_for_a_record,
    asks_who_is_right,
    points_back,
    refers_to_someone,
    reported_question,
    sentences,
    speaks_of_a_message,
    speaks_of_the_user,
    the_question,
)
from app.agent.intents.recognise import POSSESSIVE, any_word_of, names_a_time
from app.agent.intents.router import Doing
from connectors.folding import fold

# How many of the question's words are looked for, one search each per store.
_MOST_WORDS = 4
# The calendar looked at: a month back, three ahead.
_DAYS_BEFORE, _DAYS_AFTER = 31, 92
# The fields of a found item that name it (an event's title, an email's subject and sender,
# a file's path, a contact's name, a memory): a word there names one of the user's things.
_HEADINGS = ("title", "summary", "subject", "sender", "from", "name", "path", "fact", "location")
# The noun a definite article names ("the concert", "das Konzert", "la Joconde"): a thing the
# asker has in mind, the user's own when one of their things is called so.
_THE = re.compile(
    r"(?:\b(?:the|der|die|das|den|dem|des|le|la|les|el|los|las|del|al)\s+|\bl')([^\W\d_][\w-]*)"
)


# Words pointing at where the user is ("here", "hier", "ici", "aquí"): the question needs
# what is said around it.
_HERE = re.compile(r"\b(?:here|there|hier|dort|da|ici|la-bas|aqui|alli|alla)\b")


def general_question(doing: Doing, alone: bool = False) -> str | None:
    """The text the model is to answer, when the request's question is general knowledge
    (None when it is not): the question's own clause when it says itself what it asks ("¿A
    cuántos grados hierve el agua a nivel del mar?", not the chatter before it, "Él dice que
    el agua hierve a 90 grados", which a small model repeats), else the whole request ("…:
    capital de Australia, 8 letras. ¿Cuál es?").

    The question, asked apart from what is said before it, is general
    knowledge: its asking clause speaks of no one (not the user, not someone or something
    named before as "she" or "it"), asks for no record of theirs, and nothing they keep
    (memories, contacts, files, documents, mail, the calendar) holds two of its telling words,
    nor is an item of theirs called by a word it names ("the concert"). A question whose
    words find nothing in its own language is looked for once more in English, as the
    lookups do. (A question alone, "How long is the warranty on the dishwasher?", may be of
    the user's though nothing holds it: the lookup says what it found; `alone`: such a
    question too, where the lookup cannot be of it.)"""
    parsed = _asked_apart(doing, alone)
    if parsed is None:
        return None
    asked, clause, told = parsed
    words = _asked_words(asked)
    named = {
        fold(POSSESSIVE.sub("", w))  # "Priya's": Priya
        for w in [*_THE.findall(asked.lower()), *named_inside(asked)]
        if not names_a_time(w, doing.now)  # "el crucigrama del domingo" names no thing
    }
    if asks_who_is_right(clause):
        # who argued ("Sam and I") is not what is asked: their names find nothing to answer
        people = {fold(n) for n in named_inside(asked)}
        words = [w for w in words if fold(w) not in people]
        named = set()
    if _kept_by_the_user(doing, words, named):
        return None
    # The translation's words are the model's: how the user named things is not in them.
    others = _asked_words(english_words(doing, asked))
    if others and _kept_by_the_user(doing, others, set()):
        return None
    return _shown(doing, asked, clause, told)


def question_shown(doing: Doing) -> str | None:
    """What `general_question` shows the model, without looking at what the user keeps:
    for a request already looked up and found in nothing of theirs."""
    parsed = _asked_apart(doing)
    return _shown(doing, *parsed) if parsed is not None else None


def _asked_apart(doing: Doing, alone: bool = False) -> tuple[str, str, str | None] | None:
    """What the request's question asks (its telling part), its asking clause, and the
    question a "do you know?" reports; None if it speaks of the user or someone, asks for a
    record or a past cost, or names nothing (or is all the request says, unless `alone`)."""
    question = the_question(doing.request)
    clause = asking_clause(question)
    if asks_who_is_right(question) and not asks_for_a_record(doing.request):
        # "… she says Pluto is still a planet. Were we actually wrong??": the claim told
        # before is what is asked about, whoever says "we"
        story = doing.request[: doing.request.rfind(question)].strip()
        return (story, clause, None) if _asked_words(story) else None
    if a_question_fragment(question) and any(
        speaks_of_the_user(other) or refers_to_someone(other)
        for other in sentences(doing.request)
        if other.rstrip().endswith("?") and other.strip() != question.strip()
    ):
        # "What did the landlord say in his last email? Something about the heating?": the
        # question before says whose it is
        return None
    told = asked_before(doing.request, clause)
    if told is not None:  # "… quiere saber cuántas patas tiene una araña. ¿me lo dices?"
        clause = told
    if (
        not clause.strip()
        or (clause.strip() == doing.request.strip() and not alone)
        or speaks_of_the_user(clause)
        or refers_to_someone(clause)
        or asks_for_a_record(doing.request)  # "Je dois remplir … Comment s'appelait l'hôtel ?"
        or asks_a_past_cost(clause)
        # "was steht in der mail von den stadtwerken?": a message the user got
        or speaks_of_a_message(clause)
    ):
        return None
    asked = _what_is_asked(doing.request, question, clause)
    if not _asked_words(asked) or about_the_users_own(asked):  # "mi cafetería favorita …"
        return None
    return asked, clause, told


def _shown(doing: Doing, asked: str, clause: str, told: str | None) -> str:
    """The question alone when it says itself what it asks (a reported one asked as one),
    else the whole request."""
    alone = (
        asked == clause
        and not _HERE.search(fold(clause))
        and not points_back(clause)  # "what is that in Fahrenheit?": what, said before
    )
    reported = told is not None or reported_question(the_question(doing.request)) == clause
    if alone and reported:
        # "… asked me how far away the moon is. Do you know?": the question it reports, asked
        # as one (the 0.5B model answered 6 of 8 such right, 1 of 8 shown the whole message)
        return _as_a_question(clause, doing.language)
    return clause.strip() if alone else doing.request


def _as_a_question(clause: str, language: str) -> str:
    """A reported question written as one: "how many bones a grown-up has" → "How many
    bones a grown-up has?"."""
    said = clause.strip().rstrip(".,;:!?").strip()
    said = said[:1].upper() + said[1:]
    return f"¿{said}?" if language == "es" and not said.startswith("¿") else f"{said}?"


def _what_is_asked(request: str, question: str, clause: str) -> str:
    """Where the question names what it asks about: its asking clause; else the rest of the
    question ("j'ai un gros blanc, c'est quoi déjà ?"); else the sentence before it ("…: capital
    de Australia, 8 letras. ¿Cuál es?")."""
    for said in (clause, question):
        if _asked_words(said):
            return said
    before = sentences(request[: request.rfind(question)])
    return before[-1] if before else ""


def _asked_words(text: str) -> list[str]:
    return [w for w in telling_words(text) if fold(w) not in ASKING_BACK][:_MOST_WORDS]


def _kept_by_the_user(doing: Doing, words: list[str], named: set[str]) -> bool:
    """Whether a thing of the user's holds two of `words` (one if there is one), or one in its
    heading that the question names ("the concert"). The stores are looked at one after
    another, and no further once one answers."""
    need = min(2, len(words))  # one word of several in a text may be chance ("white")
    held: dict[str, set[str]] = {}  # by item: the words it holds
    for items, word in _peeks(doing, words):
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            key = str(item.get("email_id") or item.get("path") or item.get("uid") or item)
            text = " ".join(str(v) for v in item.values() if isinstance(v, str))
            heading = " ".join(str(item.get(k) or "") for k in _HEADINGS)
            # a search's word counts for what it found, though the result shows only a line
            found = held.setdefault(key, set())
            found.update(w for w in words if w == word or any_word_of(w, text))
            if len(found) >= need or any(
                fold(w) in named and any_word_of(w, heading) for w in found
            ):
                return True
    return False


def _peeks(doing: Doing, words: list[str]) -> Iterator[tuple[Any, str | None]]:
    """What each store holds of `words` (and the word searched for, where one was), read by
    code alone: memories, document passages and the calendar by all the words, then
    contacts, files and mail word by word."""
    query = " ".join(words)
    yield doing.peek("recall", query=query), None
    yield doing.peek("search_documents", query=query, untrusted=True), None
    start = doing.now.date() - timedelta(days=_DAYS_BEFORE)
    end = doing.now.date() + timedelta(days=_DAYS_AFTER)
    yield doing.peek("list_events", start=start.isoformat(), end=end.isoformat(),
                     untrusted=True), None  # fmt: skip
    for word in words:
        yield doing.peek("find_contact", query=word, untrusted=True), word
        yield doing.peek("search_files", query=word, untrusted=True), word
        yield doing.peek("search_emails", query=word, untrusted=True), word
