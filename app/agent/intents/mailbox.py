"""Finding messages in the user's mailbox: by the words that name them, listed one a line.

A search for a whole phrase finds nothing when the user's words are not the message's; then
word by word, names first, and the messages most words find win. Shared by the mail steps
and by the questions answered from the user's own things (`lookup`).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from app.agent.intents.english import english_words
from app.agent.intents.glossary import forms_of, in_english
from app.agent.intents.language import asks_for_unread, is_function_word
from app.agent.intents.recognise import POSSESSIVE, any_word_of
from app.agent.intents.router import Doing, HandOver
from app.agent.intents.when import read_when


def _found(record: Any) -> list[dict[str, Any]]:
    if record.status != "ok":
        raise HandOver(f"{record.name}: {record.result}")
    return [m for m in record.result or [] if isinstance(m, dict)]


def search_messages(doing: Doing, words: str, leading: str = "") -> list[dict[str, Any]]:
    """Messages matching the words: the whole phrase first, then any of its longer words
    (`leading`'s first: everyday things the glossary put in English, "garden" of
    "Gartenverein", before a poor translation's long words)."""
    found = _found(doing.call("search_emails", query=words)) if words else []
    if found or not words:
        return found
    # Word by word, names first ("Anna's last email"), then the longest (most telling); the
    # messages found by the most words win, so a word every message has ("from", "mail")
    # decides nothing.
    said = [POSSESSIVE.sub("", w) for w in re.findall(r"[\w@.'-]+", words)]
    # (a stretch of days names no message: "week" finds every "TechWeekly" and "This week"
    # of a newsletter; a weekday may be the one the message says)
    long = dict.fromkeys(
        w
        for w in said
        if (len(w) > 3 or (len(w) == 3 and a_name(w)))
        and not _a_stretch_of_days(w, doing.now)
        and not is_function_word(w)  # "this" finds "This week: …"
    )
    seen: dict[str, dict[str, Any]] = {}
    hits: dict[str, int] = {}
    first = set(leading.split())
    ranked = sorted(long, key=lambda w: (a_name(w), w in first, len(w)), reverse=True)
    # three words at a time, the next three only where those found nothing ("the building
    # management is turning the water off": "water", after "management", "building",
    # "turning")
    for batch in (ranked[:3], ranked[3:6]):
        if seen:
            break
        for word in batch:
            # a long word searched by its stem: "delivery" finds "will be delivered", "seeds"
            # "seed swap"
            query = word if a_name(word) else word[:-2] if len(word) >= 7 else _singular(word)
            found = _found(doing.call("search_emails", query=query))
            if not found and doing.language != "de" and _a_proper_name(word, doing):
                # "the opening hours of the Pergamon museum": no message names it, so none
                # is about it, whatever else of the request's words one holds
                return []
            for message in found:
                key = str(message.get("email_id"))
                seen.setdefault(key, message)
                hits[key] = hits.get(key, 0) + (2 if a_name(word) else 1)  # a name tells most
    most = max(hits.values(), default=0)
    if not seen:
        # "a package coming": the mail's subject says "parcel" (the everyday thing's other
        # names; in the subject, where the message is about it)
        for word in list(long)[:3]:
            for form in forms_of(word)[:3]:
                found = _found(doing.call("search_emails", query=form))
                if titled := [m for m in found if heading_holds(m, [form])]:
                    return titled
    return [message for key, message in seen.items() if hits[key] == most]


def _a_proper_name(word: str, doing: Doing) -> bool:
    """Whether the request writes `word` as a name of its own inside a sentence ("the
    Pergamon museum"): capitalised, not in capitals ("BBQ"), four letters or more, neither
    a day nor a month, nor an everyday thing's word. (German capitalises every noun: not
    asked of a German request.)"""
    if len(word) < 4 or not word[:1].isupper() or word.isupper() or in_english(word):
        return False
    if read_when(word, doing.now) is not None:
        return False
    inside = rf"(?<![.!?¿¡]\s)(?<![.!?¿¡])\b{re.escape(word)}\b"
    return any(m.start() > 0 for m in re.finditer(inside, doing.request.strip()))


def _a_stretch_of_days(word: str, now: datetime) -> bool:
    """Whether `word` names a week, a weekend or a month ("week", "Woche", "semaine")."""
    when = read_when(word, now)
    return when is not None and when.days > 1


def _singular(word: str) -> str:
    """A plural's "s" dropped ("seeds", "class" not): the mail search matches parts of
    words, so the singular finds both."""
    return word[:-1] if len(word) >= 5 and word.endswith("s") and not word.endswith("ss") else word


def a_name(word: str) -> bool:
    """A capitalised word other than "I" ("I'll", "I'm"): likely a name."""
    return word[:1].isupper() and not re.match(r"I(?:['’]|$)", word)


def _summary_line(doing: Doing, message: dict[str, Any]) -> str:
    when = message.get("date")
    day = doing.dated(datetime.fromisoformat(str(when)), "dd") if when else ""
    return f"- {message.get('sender')}: “{message.get('subject')}” {day}".rstrip()


def found_messages(doing: Doing, slots: dict[str, str]) -> list[dict[str, Any]]:
    """The messages `find_emails` means: those matching its words, else the newest ten;
    only those not read yet where the request asks so ("¿tengo algún correo sin leer?")."""
    unread = asks_for_unread(doing.request)
    words = slots.get("about", "")
    if not words:
        return _found(
            doing.call("list_emails", limit=10, **({"unread_only": True} if unread else {}))
        )
    found = search_messages(doing, words)
    if not found and (english := english_words(doing, words)):
        found = search_messages(doing, english)  # "Wasser" asked of an English mailbox
    # ("any unread mail from Sophie?": hers not read yet, if any; else hers)
    return ([m for m in found if m.get("unread")] or found) if unread else found


def listing(doing: Doing, found: list[dict[str, Any]], words: str) -> str:
    """The messages found, one line each (sender, subject, day), or that there are none."""
    if not found and not words and asks_for_unread(doing.request):
        return doing.say("no_unread_email")
    if not found:
        return doing.say("no_email_about", words=words) if words else doing.say("inbox_empty")
    lines = "\n".join(_summary_line(doing, m) for m in found[:10])
    return doing.say("emails_found" if len(found) != 1 else "email_found", n=len(found),
                     lines=lines)  # fmt: skip


def heading_holds(message: dict[str, Any], words: list[str]) -> int:
    """How many of `words` the message's sender and subject hold, each as a word of its own
    (`any_word_of` reads "Tom's" as "Tom")."""
    heading = f"{message.get('sender') or ''} {message.get('subject') or ''}"
    return sum(any_word_of(word, heading) for word in words)
