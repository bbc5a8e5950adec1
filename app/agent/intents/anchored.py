"""Times set by something else's: an amount before or after a thing the calendar, mail or
files date ("eine Stunde vor dem Zahnarzt", "the evening before the pickup"), or the day a
sentence before names, pointed back at ("When is my parcel coming? … that morning at 9").

Shared by reminders, to-dos and new events: code finds the thing (an event by its words, or
the day and time the email or file holding them gives) and counts from it.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any, NamedTuple

from app.agent.intents.calendar_steps import event_text, events_between, next_event, shown
from app.agent.intents.english import english_words
from app.agent.intents.file_steps import telling_words
from app.agent.intents.language import asks_for_a_reminder, names_by_a_pronoun, sentences
from app.agent.intents.lookup import when_from_things
from app.agent.intents.recognise import any_word_of
from app.agent.intents.router import Doing
from app.agent.intents.when import read_anchored, read_when, said_beside
from connectors.folding import fold

# A day said without a time: the morning.
MORNING = time(9, 0)

# Words that join a time and what it is about ("at", "um", "a las", "to", "daran", "de"),
# accents folded.
JOINING = {
    "to", "that", "about", "at", "on", "in", "of", "for", "um", "daran", "dass", "an", "zu",
    "a", "las", "la", "de", "que", "pour", "para", "el", "le", "al", "en", "et", "and", "und",
    "y", "dans", "o'clock", "dran", "bitte", "please", "mal", "stp",
    # a time said roughly ("a eso de las 7", "so gegen acht", "vers 7h", "around 7")
    "eso", "sobre", "hacia", "gegen", "so", "ungefahr", "etwa", "vers", "environ", "around",
    "circa", "ca",
    # before or after what the sentences around name ("eine Stunde vorher, dass ich …")
    "before", "beforehand", "vorher", "davor", "zuvor", "avant", "auparavant", "antes",
    "after", "afterwards", "nachher", "danach", "apres", "despues",
    # the German clause's subject and its "still" ("…, dass ich noch Wasser abfülle")
    "ich", "noch",
}  # fmt: skip


def relative_time(doing: Doing, phrase: str, besides: str = "") -> tuple[datetime, str, str] | None:
    """The moment an amount before or after something named ("30 minutes before the water
    is turned off", "eine Stunde vor dem Zahnarzt"): the next event holding its words (and
    that event, shown, and its title), else the time the email or file holding them gives
    (and "", ""); None
    if neither, or if it is past. `besides`: what the reminder or to-do is, said after what
    it is before."""
    relative = read_anchored(phrase)
    if relative is None:
        return None
    offset, named = relative
    if (what := fold(besides).strip(" .")) and f" {what}" in f" {named}":
        # "the evening before the pharmacy pickup deadline to get my prescription": what to
        # be reminded of or to do is not what it is before
        kept = named[: f" {named}".index(f" {what}")].split()
        while kept and kept[-1] in JOINING:
            kept.pop()
        named = " ".join(kept) if telling_words(" ".join(kept)) else named
    if names_by_a_pronoun(named):
        # "The water's off tomorrow. Remind me 15 minutes before it goes off": what "it" is,
        # the sentences beside the one asking say
        around = [s for s in sentences(doing.request) if not asks_for_a_reminder(s)]
        named = f"{' '.join(around) or doing.request} {named}"
    day, anchor, event, said = dated(doing, named)
    if whole_days(offset) and day is not None:
        # Whole days before or after: at the time said beside ("at 7pm the evening before
        # the pickup"), else the part of the day's ("the evening before"), else the thing's
        # own time, else the morning (a day the email gives without a time)
        said_at = time_said_beside(phrase, doing) or time_said_beside(doing.request, doing)
        # (an all-day event starts at midnight: no time to be reminded at)
        at = said_at or (
            anchor.timetz() if anchor is not None and anchor.time() != time(0) else MORNING
        )
        anchor = datetime.combine(day + offset, at.replace(tzinfo=None), tzinfo=doing.now.tzinfo)
        offset = timedelta(0)
    if anchor is None or anchor + offset <= doing.now:
        return None
    if event is None:
        # (the text's own words for when, shown: "when exactly are they turning the water
        # off? … half an hour before" is answered beside the reminder)
        return anchor + offset, said, ""
    return anchor + offset, shown(doing, event), str(event.get("title") or "")


class Dated(NamedTuple):
    """When something named is: its day and time (None: not known), the event that holds
    it, or the words of the email or file that say it."""

    day: date | None
    at: datetime | None
    event: dict[str, Any] | None
    said: str = ""


def dated(doing: Doing, named: str) -> Dated:
    """The day and time of what `named` names: the next event holding its words (in English
    too: "la barbacoa" of "Barbecue at Tom's"), with that event; else the day and time the
    email or file holding them gives; else the one event of the day the request names;
    none of these if none (`Dated` of Nones)."""
    event = next_event(doing, named)
    # named by no event in the user's own words: the one event of the day the request names
    # may be it ("Samstag geht's wandern. Erinner mich … bevor wir uns treffen"), read once
    by_the_day = event is None and doing.agent.registry.get("list_events") is not None
    on_the_day = None
    if by_the_day:
        english = english_words(doing, named)
        event = next_event(doing, english) if english else None
        if event is not None and not _holds_the_names(event, english, doing.request):
            event = None  # "Meet with Dr. Lee" is not the "Budget meeting"
        if event is not None and (on_the_day := _the_one_event_of_the_day_said(doing)):
            # the English found one on another day than the one the request names
            # ("treffen": Monday's "Budget meeting")
            event = None if _start(event) != _start(on_the_day) else event
    if event is not None:
        start = datetime.fromisoformat(str(event["start"]))
        return Dated(start.date(), start, event)
    said = when_from_things(doing, named, about=named)
    when = read_when(said, doing.now) if said else None
    if (when is None or not when.day_given) and by_the_day:
        # nothing the user keeps dates it either: the one event of that day
        on_the_day = on_the_day or _the_one_event_of_the_day_said(doing)
        if on_the_day is not None:
            return Dated(_start(on_the_day).date(), _start(on_the_day), on_the_day)
    if when is None or not when.day_given:
        return Dated(None, None, None)
    return Dated(when.day, when.start_at(doing.now), None, str(said))


def _the_one_event_of_the_day_said(doing: Doing) -> dict[str, Any] | None:
    """The one event on the one day the request names (today's or later); None if it names
    none, or that day holds none or several."""
    said = read_when(doing.request, doing.now)
    if said is None or not said.day_given or said.days != 1 or said.day < doing.now.date():
        return None
    start = datetime.combine(said.day, time(0), tzinfo=doing.now.tzinfo)
    held = events_between(doing, start, start + timedelta(days=1))
    return held[0] if len(held) == 1 else None


def _start(event: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(str(event["start"]))


def _holds_the_names(event: dict[str, Any], english: str, request: str) -> bool:
    """Whether the event found by the English words holds each name they kept from the
    request as written ("Lee" of "Meet with Dr. Lee" for "le rendez-vous chez le Dr Lee";
    "Tom" of "Tom's barbecue"): a name is not translated, and an event holding only the
    other words ("meet") is another."""
    said = {w.strip(".,;:!?") for w in re.findall(r"[\w.'’-]+", request)}
    names = [
        name
        for w in english.split()[1:]  # not the first word, capital as a sentence's
        if w[:1].isupper()
        and len(name := re.sub(r"['’]s$", "", w.strip(".,;:!?"))) > 2
        and name in said
    ]
    return all(any_word_of(name, event_text(event)) for name in names)


def time_said_beside(text: str, doing: Doing) -> time | None:
    """The clock time, else the start of the part of the day, that the sentence of `text`
    saying days before or after something gives beside it ("at 7pm the evening before the
    pickup": 19:00; "la noche anterior": 18:00); None if it gives none."""
    for sentence in sentences(text):
        relative = read_anchored(sentence)
        if relative is None:
            continue
        beside = read_when(said_beside(sentence, relative[1]), doing.now)
        if beside is not None and beside.start is not None:
            return beside.start
        if beside is not None and beside.part is not None:
            return time(beside.part[0])
    return None


def whole_days(offset: timedelta) -> bool:
    return offset % timedelta(days=1) == timedelta(0)
