"""The calendar intents' steps: look the events up, compute the times, call the tools.

Times come from `when` (the user's words against the message's sending time); an event named
in words is found among the real events by its title, place and notes. Two different events
that fit equally well are offered as a numbered choice; occurrences of one repeating event
resolve to the next one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from typing import Any

from app.agent.intents.english import english_words
from app.agent.intents.file_steps import names_in, telling_words
from app.agent.intents.glossary import glossed
from app.agent.intents.language import (
    ANY_EVENT,
    TITLES,
    asking_clause,
    asks_a_time_or_place,
    asks_for_free_time,
    asks_how_many_days,
    asks_to_book_it,
    asks_to_move,
    asks_to_put_in_the_calendar,
    asks_when_and_more,
    asks_when_or_where,
    is_function_word,
    the_question,
)
from app.agent.intents.lookup import answer_from_things, length_beside, when_from_things
from app.agent.intents.phrases import counted
from app.agent.intents.recognise import (
    ADDRESS,
    WORD,
    any_word_of,
    grounded,
    most_words_of,
    names_a_time,
)
from app.agent.intents.router import (
    Ask,
    Before,
    Doing,
    FoundNothing,
    HandOver,
    Instead,
    Steps,
    outcome,
)
from app.agent.intents.tally import asks_how_many
from app.agent.intents.when import (
    SOONEST_DAYS,
    When,
    days_named,
    days_until,
    is_part_of_day,
    next_weekday_said,
    periods_named,
    read_anchored,
    read_duration,
    read_shift,
    read_when,
    without_a_length,
)
from app.store.documents import content_words
from connectors.folding import fold

DEFAULT_LENGTH = timedelta(hours=1)
# Where "when is my dentist appointment?" looks: a little back, a good way ahead.
_LOOK_BACK = timedelta(days=7)
_LOOK_AHEAD = timedelta(days=120)
# A whole day searched for a free slot: waking hours.
_DAY_HOURS = (8, 18)


def iso(moment: datetime) -> str:
    """A local time as the calendar tools take it."""
    return moment.strftime("%Y-%m-%dT%H:%M")


def _when(doing: Doing, slots: dict[str, str], name: str = "when") -> When | None:
    """The slot's day and time; what the model left out of the slot is taken from the
    request when the rest agrees: a clock time when it names the same day ("am Donnerstag"
    from "... am Donnerstag um 19 Uhr ..."), a day when it names the same time ("16h" from
    "... vendredi 16h")."""
    phrase = slots.get(name)
    when = read_when(phrase, doing.now) if phrase else None
    if when is None and phrase and name == "when":
        when = _read_around(phrase, doing)
    if when is None or name != "when":
        return when
    whole = read_when(doing.request, doing.now)
    if whole is None:
        return when
    if when.start is None and whole.start is not None and whole.day == when.day:
        return whole
    if when.start is None and when.part is None and whole.part and whole.day == when.day:
        return whole  # "jeudi 24" copied from "le jeudi 24 après le boulot"
    if _twelve_hours_apart(when, whole):
        return whole  # "from 7 to 8" copied without the request's "am"
    if not when.day_given and whole.day_given and whole.start in (None, when.start):
        return replace(whole, start=when.start, end=when.end or whole.end)
    if _same_weekday_elsewhere(when, whole):
        # "Friday evening" copied from "last Friday evening": the request's Friday
        return whole if when.start is None else replace(whole, start=when.start, end=when.end)
    return when


def _read_around(phrase: str, doing: Doing) -> When | None:
    """The day the words around `phrase` in the request name, when the model copied too
    little of it to say one: a number ("24" of "le jeudi 24 en fin de journée")."""
    if not re.search(r"\d", phrase):
        return None  # "a qué hora" names no day, whatever is said after it
    words = doing.request.split()
    copied = phrase.split()
    for at in range(len(words) - len(copied) + 1):
        if [fold(w).strip(".,;:!?") for w in words[at : at + len(copied)]] == [
            fold(w) for w in copied
        ]:
            around = " ".join(words[max(0, at - 2) : at + len(copied) + 4])
            when = read_when(around, doing.now)
            return when if when is not None and when.day_given else None
    return None


def _same_weekday_elsewhere(slot: When, whole: When) -> bool:
    """The slot names the request's weekday on another date: the model left out the word
    that placed it ("last", "after next", "en huit")."""
    return (
        slot.day_given
        and whole.day_given
        and slot.days == whole.days == 1
        and slot.day != whole.day
        and slot.day.weekday() == whole.day.weekday()
    )


def _twelve_hours_apart(slot: When, whole: When) -> bool:
    """The same day and clock time but for the morning or afternoon the request says."""
    if slot.start is None or whole.start is None or slot.day != whole.day:
        return False
    apart = (slot.start.hour - whole.start.hour) % 24
    return apart == 12 and slot.start.minute == whole.start.minute


def events_between(doing: Doing, start: datetime, end: datetime) -> list[dict[str, Any]]:
    """The calendar's events between `start` and `end` (the steps hand over if it cannot say)."""
    record = doing.call("list_events", start=iso(start), end=iso(end))
    if record.status != "ok":
        raise HandOver(f"list_events: {record.result}")
    return [e for e in record.result or [] if isinstance(e, dict)]


def _time_span(doing: Doing, event: dict[str, Any]) -> str:
    start = datetime.fromisoformat(str(event["start"]))
    end = datetime.fromisoformat(str(event["end"]))
    if event.get("all_day"):
        return doing.say("all_day")
    return f"{start:%H:%M}–{end:%H:%M}"


def _line(
    doing: Doing, event: dict[str, Any], with_day: bool = False, described: bool = False
) -> str:
    """An event on one line; `described`: its description below it, shortened."""
    start = datetime.fromisoformat(str(event["start"]))
    day = f"{doing.dated(start, 'dd')}, " if with_day else ""
    where = f" ({event['location']})" if event.get("location") else ""
    title = event.get("title") or doing.say("no_title")
    about = " ".join(str(event.get("description") or "").split())
    if len(about) > _ABOUT_CHARS:
        about = about[: _ABOUT_CHARS - 1].rstrip() + "…"
    below = f"\n  {about}" if described and about else ""
    return f"- {day}{_time_span(doing, event)} {title}{where}{below}"


# A description shown below an event, at most: the meeting point and time, not the agenda.
_ABOUT_CHARS = 160
# Days listed with their events' descriptions, when the question asks a time or a place,
# at most this many events ("On a rendez-vous à quelle heure à la gare samedi ?": the
# hike's "Meet at the station at 8:30" answers it, its title alone does not).
_DESCRIBED_UP_TO = 4


def _described(doing: Doing, events: list[dict[str, Any]]) -> bool:
    return len(events) <= _DESCRIBED_UP_TO and asks_a_time_or_place(doing.request)


def _day_and_time(doing: Doing, event: dict[str, Any]) -> str:
    """When and where an event is, for an answer that already names it ("Fri 18 May,
    14:00–15:00 (Room 2)"): `_line` without the title."""
    start = datetime.fromisoformat(str(event["start"]))
    where = f" ({event['location']})" if event.get("location") else ""
    return f"{doing.dated(start, 'dd')}, {_time_span(doing, event)}{where}"


def _day_words(doing: Doing, window: tuple[datetime, datetime]) -> str:
    start, end = window
    if end - start <= timedelta(days=1) and start.date() == (end - timedelta(seconds=1)).date():
        return doing.dated(start, "day")
    last = end - timedelta(seconds=1)
    return doing.say("day_range", start=start, last=last)


def show(doing: Doing, slots: dict[str, str]) -> str:
    """A day or period listed, or, when one event is asked about, when it is."""
    event = slots.get("event", "")
    named = [w for w in event.split() if read_when(w, doing.now) is None]
    asked_day = read_when(doing.request, doing.now)
    counting = asks_how_many(doing.request) and asked_day
    also = ""
    if (named or _an_event_id(event)) and not counting:
        if asked_day is None or not asked_day.day_given or _an_event_id(event):
            return find(doing, slots)  # "when is the dentist?", "tomorrow's 1:1", a choice
        if _held_by_an_event(doing, event):
            return _when_is(doing, slots)  # what `find` would do after the same look
        # Words no event holds beside a day the request names ("What does my Saturday look
        # like?", "What time is my flight on Sunday?"): that day, and what the mail or files
        # plainly hold of the question
        found = answer_from_things(doing, doing.request, plainly=True)
        also = f"\n\n{found}" if found else ""
    if not slots.get("when") and read_when(doing.request, doing.now) is None:
        # Neither a day nor an event in the slots, none in the request: "What time is my
        # flight to Lisbon?" with nothing copied. What the request names is looked for in
        # the calendar, then in what the mail or files plainly hold; else today is shown.
        asked = telling_words(doing.request)
        if asked and _held_by_an_event(doing, " ".join(asked)):
            return _when_is(doing, {**slots, "event": " ".join(asked)})
        if (held := event_asked_about(doing)) is not None:
            return shown(doing, held)  # its words spread over its title and guests
        # (Plainly held takes two words: "What's on my calendar?" looks nothing up.)
        if len(asked) > 1 and (answer := answer_from_things(doing, doing.request, plainly=True)):
            return answer
    when = _when(doing, slots)
    if when is None and slots.get("when"):
        # No day in it ("a qué hora sale mi vuelo"): what the mail or files plainly hold
        # answers, else the user is asked which day.
        answer = answer_from_things(doing, doing.request, plainly=True)
        if answer is not None:
            return answer
        raise Ask(doing.say("which_day"), "when")
    if when is None:
        when = When(doing.now.date())
    window = when.window(doing.now)
    events = events_between(doing, *window)
    several_days = window[1] - window[0] > timedelta(days=1)
    said = _day_words(doing, window)
    if when.part is not None or (when.start is not None and when.end is not None):
        said += f", {window[0]:%H:%M}–{window[1]:%H:%M}"
    due = due_in(doing, window)
    if not events:
        return doing.say("calendar_empty", said=said) + due + also
    count = _counted(doing, events)
    described = _described(doing, events)
    lines = "\n".join(_line(doing, e, several_days, described) for e in events)
    return count + doing.say("calendar_has", said=said, lines=lines) + due + also


def _counted(doing: Doing, events: list[dict[str, Any]]) -> str:
    """For "how many stand-ups do I have next week?": how many of the listed events hold the
    question's words, said first ("" for any other question, or when none holds them)."""
    if not asks_how_many(doing.request):
        return ""
    named = most_words_of(_without_days(doing.request, doing.now), events, "title")
    if not named:
        return ""
    titles = ", ".join(dict.fromkeys(str(e.get("title")) for e in named))
    return doing.say("calendar_counted", count=counted(doing.language, len(named)), title=titles)


def due_in(doing: Doing, window: tuple[datetime, datetime]) -> str:
    """The open to-dos due inside `window`, as a paragraph for a day's answer ("" if none, or
    no task list): "what do I have tomorrow?" is one question about the calendar and the
    to-do list alike, whichever of the two the model took it for."""
    if doing.agent.registry.get("list_tasks") is None:
        return ""
    record = doing.call("list_tasks", due_before=iso(window[1]))
    if record.status != "ok" or not isinstance(record.result, list):
        return ""
    first = window[0].date().isoformat()
    tasks = [
        t for t in record.result
        if isinstance(t, dict) and t.get("due") and str(t["due"])[:10] >= first
    ]  # fmt: skip
    if not tasks:
        return ""
    lines = "\n".join(f"- {t.get('title')}" + doing.say("due_note", due=t["due"]) for t in tasks)
    return "\n\n" + doing.say("todos_due_then", lines=lines)


def next_event(doing: Doing, words: str) -> dict[str, Any] | None:
    """The next event holding the most of `words` ("the dentist"); None if no upcoming
    event holds any, or there is no calendar."""
    if doing.agent.registry.get("list_events") is None:
        return None
    # (a word of time names no event: "the water off this week" is not "Weekend at the lake")
    words = " ".join(w for w in words.split() if not names_a_time(w, doing.now)) or words
    named = most_words_of(words, events_between(doing, doing.now, doing.now + _LOOK_AHEAD), "title")
    return min(named, key=lambda e: datetime.fromisoformat(str(e["start"])), default=None)


def busy_in(doing: Doing, window: tuple[datetime, datetime], key: str = "busy_then") -> str:
    """What is already in the calendar inside `window`, as a paragraph ("" if nothing, or no
    calendar): an answer about free time says what fills the rest ("am I free on Friday
    afternoon?"), the to-dos due on a day what else is on then."""
    if doing.agent.registry.get("list_events") is None:
        return ""
    events = events_between(doing, *window)
    if not events:
        return ""
    several_days = window[1] - window[0] > timedelta(days=1)
    described = _described(doing, events)
    lines = "\n".join(_line(doing, e, several_days, described) for e in events)
    return "\n\n" + doing.say(key, lines=lines)


def event_text(event: dict[str, Any]) -> str:
    """An event's title, place and notes: what words naming it may be in."""
    return " ".join(str(event.get(k) or "") for k in ("title", "location", "description"))


def _score(words: str, event: dict[str, Any]) -> float:
    text = event_text(event)
    title = str(event.get("title") or "")
    if grounded(words, title):
        return 2.0
    if grounded(words, text):
        return 1.5
    if grounded(words, text, copied=False):
        return 1.0
    return 1.0 if _titled(words, event) else 0.0


def _titled(words: str, event: dict[str, Any]) -> bool:
    """The event's whole title among the words, which hold more ("push my haircut to Friday
    at 10"), or a compound written apart ("Friday's hair cut" of "Haircut")."""
    title = str(event.get("title") or "")
    return bool(title.strip()) and grounded(title, _with_compounds(words))


def _with_compounds(words: str) -> str:
    """`words` and each two neighbours written as one ("hair cut": also "haircut")."""
    said = words.split()
    return " ".join([*said, *(a + b for a, b in itertools.pairwise(said))])


_A_WEEK = timedelta(days=7)


def _scored(
    events: list[dict[str, Any]], named: str, english: str
) -> list[tuple[float, dict[str, Any]]]:
    """Each event with how well it holds the user's words or their English ones."""
    return [(max(_score(named, e), _score(english, e) if english else 0.0), e) for e in events]


def find_event(
    doing: Doing,
    slots: dict[str, str],
    slot: str = "event",
    not_found: Callable[[bool], None] | None = None,
) -> dict[str, Any]:
    """The one event the user's words name, or a question. `not_found`: called when no
    event holds the words, before the nearest are offered, or when the best holds only some
    of them (with True: something else may hold them all); it may answer by raising."""
    words = slots.get(slot, "")
    # (an event picked from choices is looked for around now, whatever day was said)
    when = None if _an_event_id(words) else _when(doing, slots) or _day_in(words, doing)
    if when is not None and when.day_given:
        start, end = when.window(doing.now)
        if when.start is not None:  # "the 3pm meeting": that day, whatever its length
            start = datetime.combine(when.day, time(0), tzinfo=doing.now.tzinfo)
            end = start + timedelta(days=1)
    else:
        start, end = doing.now - _LOOK_BACK, doing.now + _LOOK_AHEAD
    events = events_between(doing, start, end)
    chosen = [e for e in events if e.get("event_id") == words]
    if chosen:
        return chosen[0]
    named = _without_days(words, doing.now)
    scored = _scored(events, named, "")
    best = max((s for s, _ in scored), default=0.0)
    if best == 0.0 and words != doing.request:
        # The model's words name no event, but the request names one whole ("I can't make
        # the team lunch on Friday, take it off my calendar", the model copying the last
        # words): that one.
        scored = [(1.0 if _titled(doing.request, e) else 0.0, e) for e in events]
        best = max((s for s, _ in scored), default=0.0)
    if best == 0.0 and (things := glossed(doing.request)):
        # … or names it in its language ("Kannst du meinen Haarschnitt auf halb sechs
        # schieben?", the model's words "grad angerufen"): the event "Haircut"
        scored = [(1.0 if _titled(things, e) else 0.0, e) for e in events]
        best = max((s for s, _ in scored), default=0.0)
    english = ""
    if best == 0.0 and events and (english := english_words(doing, named)):
        # "la visite du plombier" of the event "Plumber": its words in English
        scored = _scored(events, named, english)
        best = max(s for s, _ in scored)
    if best == 0.0 and when is not None and when.day_given and next_weekday_said(doing.request):
        # "vendredi prochain" said on a Tuesday: the event named is on the Friday after
        later = events_between(doing, start + _A_WEEK, end + _A_WEEK)
        english = english or (english_words(doing, named) if later else "")
        scored_later = _scored(later, named, english)
        if max((s for s, _ in scored_later), default=0.0) > 0.0:
            events, scored = later, scored_later
            best = max(s for s, _ in scored)
    if best == 0.0 and when is not None and when.day_given:
        # "Sam a réparé le robinet ce week-end ! … le plombier n'a plus besoin de venir la
        # semaine prochaine": the event is in another stretch of days the request names
        for other in _other_periods(doing, when):
            elsewhere = events_between(doing, *other.window(doing.now))
            if elsewhere and not english:  # none on the day read ("hier soir"): asked now
                english = english_words(doing, named)
            scored_there = _scored(elsewhere, named, english)
            if max((s for s, _ in scored_there), default=0.0) > 0.0:
                events, scored = elsewhere, scored_there
                best = max(s for s, _ in scored)
                break
    if best == 0.0 and (most := _most_named(doing, events)) is not None:
        return most  # "give the jazz thing at the Philharmonie a miss", copied whole
    if best == 0.0 and (most := _most_named(doing, events, in_english=True)) is not None:
        return most  # "Das Jazzkonzert nächste Woche …": "jazz concert" in its English
    if best < 1.5 and not_found is not None and words.strip():
        not_found(best > 0.0)  # "the car insurance" beside "Car service": the to-do?
    if best == 0.0:
        if when is not None and when.start is not None:
            at = [e for e in events if _starts_at(e, when.start)]
            if len(at) == 1:
                return at[0]
        return _picked(doing, words, events, slot, (start, end) if when is not None else None)
    matches = [e for s, e in scored if s == best]
    upcoming = [e for e in matches if datetime.fromisoformat(str(e["end"])) >= doing.now]
    matches = upcoming or matches
    titles = {fold(str(e.get("title") or "")) for e in matches}
    if len(titles) == 1:
        return matches[0]  # one event, or the next occurrence of a repeating one
    raise _which_of(doing, matches[:6], slot)


def _most_named(
    doing: Doing, events: list[dict[str, Any]], in_english: bool = False
) -> dict[str, Any] | None:
    """The one event (its next occurrence) holding two or more of the request's telling
    words in its title, place or notes, more than any other ("Sam's come down with
    something, so we'll give the jazz thing at the Philharmonie a miss": "Concert: Jazz
    Quartet" at the Philharmonie); None if none, or several tie. `in_english`: the words of
    the request's English ("Jazzkonzert": "jazz concert"), when it is in another language."""
    said = english_words(doing, doing.request) if in_english and events else doing.request
    if not said:
        return None
    asked = [w for w in telling_words(said) if read_when(w, doing.now) is None]
    counted_words = [(sum(any_word_of(w, event_text(e)) for w in asked), e) for e in events]
    most = max((n for n, _ in counted_words), default=0)
    best = [e for n, e in counted_words if n == most]
    if most < 2 or len({fold(str(e.get("title") or "")) for e in best}) != 1:
        return None
    upcoming = [e for e in best if datetime.fromisoformat(str(e["end"])) >= doing.now]
    return (upcoming or best)[0]


def _day_beside(doing: Doing, events: list[dict[str, Any]]) -> bool:
    """Whether the request names a day in the clause that names the event ("cancel yoga
    tonight pls"), not only in another ("… came over on Sunday …, so we don't need the
    plumber")."""
    for clause in re.split(r"[,.;:!?]|\b(?:so|and|und|et|y)\b", doing.request):
        when = read_when(clause, doing.now)
        if when and when.day_given and _titles_in(events, _without_days(clause, doing.now), True):
            return True
    return False


def _picked(
    doing: Doing,
    words: str,
    events: list[dict[str, Any]],
    slot: str,
    window: tuple[datetime, datetime] | None,
) -> dict[str, Any]:
    """No event has the user's words (they may name it in another language: "plombier" for
    "Plumber visit"): the model picks among the nearest events, or the user does. With no
    day in the model's words, the events of the days the request names are the choices
    ("am Donnerstag klappt die Inspektion nicht … am Montag": Thursday's and Monday's)."""
    around = events_between(doing, doing.now - _LOOK_BACK, doing.now + _LOOK_AHEAD)
    titled = _titles_in(around, _without_days(doing.request, doing.now), whole=True)
    if len(titled) == 1:
        # the request names one event whole, whatever day it names ("Sam's dad came over
        # on Sunday and sorted out the tap, so we don't need the plumber coming round":
        # "Plumber visit", not Sunday's event): its next occurrence
        named = [e for e in around if fold(str(e.get("title") or "")) in titled]
        days = set(days_named(doing.request, doing.now))  # of one that repeats, that day's
        on_the_day = [e for e in named if _start(e).astimezone(doing.now.tzinfo).date() in days]
        upcoming = [e for e in named if datetime.fromisoformat(str(e["end"])) >= doing.now]
        if not on_the_day and upcoming and window is not None and _day_beside(doing, named):
            # "cancel yoga tonight" with yoga on Thursdays: not Thursday's unasked; the days
            # it is on are the choices
            said = doing.say("event_not_found_on", words=words, days=_day_words(doing, window))
            raise _which_of(doing, upcoming[:3], slot, said)
        return (on_the_day or upcoming or named)[0]
    named_days = set(days_named(doing.request, doing.now)) if window is None else set()
    on_those_days = [
        e for e in events if _start(e).astimezone(doing.now.tzinfo).date() in named_days
    ]
    nearest = sorted(on_those_days or events, key=lambda e: abs(_start(e) - doing.now))[:8]
    nearest.sort(key=_start)
    asked = [w for w in telling_words(doing.request) if read_when(w, doing.now) is None]
    holding = [e for e in nearest if any(any_word_of(w, event_text(e)) for w in asked)]
    if len(holding) == 1:
        # One of them holds a word of the request where the model's words name none ("Das
        # Autohaus hat angerufen …": the car service at "AutoHaus Schmidt")
        return holding[0]
    lines = [f"{e.get('title')} {_line(doing, e, True)}" for e in nearest]
    # one event alone is no choice: a small model "picks" it whatever it is
    picked = (
        doing.pick(f"Which calendar event does “{words}” mean?", lines) if len(lines) > 1 else None
    )
    if picked is not None:
        return nearest[picked - 1]
    said = (
        doing.say("event_not_found_on", words=words, days=_day_words(doing, window))
        if window is not None
        else doing.say("event_not_found", words=words)
    )
    if not nearest:
        raise Ask(f"{said}. {doing.say('which_event')}", slot)
    raise _which_of(doing, nearest, slot, said)


def _which_of(doing: Doing, events: list[dict[str, Any]], slot: str, said: str = "") -> Ask:
    """The numbered question of which of `events` is meant, after `said` (what was not
    found); each choice answers with the event's id."""
    choices = [(e["event_id"], f"{e.get('title')} {_line(doing, e, True)}") for e in events]
    listing = "\n".join(f"{n}. {_line(doing, e, True)[2:]}" for n, e in enumerate(events, 1))
    opening = f"{said}. " if said else ""
    return Ask(f"{opening}{doing.say('which_one')}\n{listing}", slot, choices)


def _start(event: dict[str, Any]) -> datetime:
    """An event's start, an all-day one's at midnight local time (comparable with now)."""
    start = datetime.fromisoformat(str(event["start"]))
    return start if start.tzinfo is not None else start.astimezone()


# An event's id as list_events gives it ("calendar/uid", an occurrence's "/recurrence"): what
# a numbered choice puts in the slot. Its digits must not be read as a day or a time ("…-1d89-
# 4492…" reads as one), which would narrow the search to some other day or list today instead.
_EVENT_ID = re.compile(r"[^\s/]+/[^\s/]{8,}(?:/[^\s/]+)?")


def _an_event_id(words: str) -> bool:
    return _EVENT_ID.fullmatch(words.strip()) is not None


def _starts_at(event: dict[str, Any], at: time) -> bool:
    start = datetime.fromisoformat(str(event["start"]))
    return (start.hour, start.minute) == (at.hour, at.minute)


def _day_in(words: str, doing: Doing) -> When | None:
    """A day inside the event's own words ("tomorrow's 1:1"): used to narrow the search; not
    one it is moved to ("klempner to Monday at 10", "Zahnarzt auf Freitag")."""
    words = _MOVED_TO.split(words, maxsplit=1)[0]
    when = read_when(words, doing.now) if words else None
    return when if when is not None and when.day_given else None


# Where an event's words go on to the day it is moved to ("… to Monday", "… auf Freitag",
# "… à lundi", "… al lunes", "… para el viernes").
_MOVED_TO = re.compile(r"\s(?:to|till|until|auf|nach|à|au|al|para|hasta)\s", re.IGNORECASE)


def _without_days(words: str, now: datetime) -> str:
    """The event's words without the day words and the words that joined them ("tomorrow's
    1:1" → "1:1", "corte de pelo del viernes" → "corte de pelo")."""
    kept = [w for w in words.split() if read_when(w, now) is None]
    while len(kept) > 1 and is_function_word(kept[-1]) and kept != words.split():
        kept.pop()
    return " ".join(kept) or words


def find(doing: Doing, slots: dict[str, str]) -> str:
    """When the event asked about is. Words no event holds ("my flight to Lisbon") may be
    about something an email or a file holds (the airline's confirmation): those are asked
    first, before the nearest events are offered."""
    words = slots.get("event", "")
    if not _an_event_id(words) and not _held_by_an_event(doing, words):
        answer = answer_from_things(doing, doing.request)
        if answer is not None:
            return answer
    return _when_is(doing, slots)


class _Answered(Exception):
    """A question of when something is, answered from what the mail or files hold."""

    def __init__(self, answer: str) -> None:
        super().__init__(answer)
        self.answer = answer


def _when_is(doing: Doing, slots: dict[str, str]) -> str:
    """When and where one event is, with its notes: where to meet, what to bring or the
    dial-in are often written there ("Meet at the station at 8:30"); how many days are left,
    where that is asked. An event holding only some of the words, where the request names
    something no event holds and the mail or files plainly do ("how many days until my
    lisbon trip?": not the "Hiking trip"), is none: what those hold answers."""

    def elsewhere(partly: bool) -> None:
        if not partly:
            return
        events = events_between(doing, doing.now - _LOOK_BACK, doing.now + _LOOK_AHEAD)

        def held(word: str) -> bool:  # (in the user's words or the glossary's English)
            said = [word, *filter(None, [glossed(word)])]
            return any(_score(w, e) > 0 for w in said for e in events)

        lacking = [
            w for w in telling_words(doing.request)
            if fold(w) not in ANY_EVENT and read_when(w, doing.now) is None and not held(w)
        ]  # fmt: skip
        answer = answer_from_things(doing, doing.request, plainly=True) if lacking else None
        if answer is not None and any(any_word_of(w, answer) for w in lacking):
            raise _Answered(answer)

    try:
        event = find_event(doing, slots, not_found=elsewhere)
    except _Answered as answered:
        return answered.answer
    days = (datetime.fromisoformat(str(event["start"])).date() - doing.now.date()).days
    if asks_how_many_days(doing.request) and days > 1:
        return f"{doing.say('days_until', n=days)}\n{shown(doing, event)}"
    return shown(doing, event)


def shown(doing: Doing, event: dict[str, Any]) -> str:
    """One event: its title, day, time and place, and its notes, shortened."""
    notes = " ".join(str(event.get("description") or "").split())
    shown = notes if len(notes) <= _NOTES else notes[: _NOTES - 1].rsplit(" ", 1)[0] + "…"
    return f"{event.get('title')}: {_day_and_time(doing, event)}" + (f"\n{shown}" if notes else "")


# An event's notes shown with it, at most (longer ones are cut at a word).
_NOTES = 240


def _held_by_an_event(doing: Doing, words: str) -> bool:
    """Whether an event around now has the user's words in its title, place or notes, or
    their English ("zahnarzttermin": the event "Dentist")."""
    events = events_between(doing, doing.now - _LOOK_BACK, doing.now + _LOOK_AHEAD)
    words = _without_days(words, doing.now)
    things = glossed(words)
    # ("klempner": "plumber", held by the "Plumber visit")
    return any(_score(words, e) > 0 or (things and _score(things, e) >= 2.0) for e in events)


def add(doing: Doing, slots: dict[str, str]) -> str:
    """A new event. No day in the user's words ("Tom invited me to a barbecue, add it"): the
    day and time are copied from the email or file the request is about, if one is; the
    dialog shows them before anything is added."""
    slots["title"] = _named_beside_the_asking(doing, slots["title"])
    given = read_when(slots["when"], doing.now) if slots.get("when") else None
    # no day, or only a stretch of days ("d'après leur newsletter ça passe la semaine
    # prochaine"): the day in the text, if it holds one
    vague = given is not None and given.start is None and given.days > 1
    # (a "when" naming no time, "offsite" of "Maria wrote about the offsite. Put it in my
    # calendar.", is none)
    from_a_text = ""
    if (given is None or vague) and (
        phrase := when_from_things(doing, slots["title"], read_by_code=True)
    ):
        slots["when"] = from_a_text = phrase  # kept for the question that follows, if missing
    when = _when(doing, slots)
    if when is None or not when.day_given:
        # "Add 'pack the car' the evening before the hiking trip at 7pm", "When is Tom's
        # barbecue? Block 10 to 11 that morning to buy charcoal": counted from the day and
        # time the calendar, mail or files give it
        when = _anchored(doing, slots) or when
    if when is None:
        raise Ask(doing.say("when_event"), "when")
    start = when.start_at(doing.now)
    if start is None and when.days > 1 and _DAYS_SPANNED.search(slots.get("when", "")):
        # "the offsite will be on 12-13 June": the days named, all day
        return _add_days(doing, slots, when)
    if start is None:  # the answer ("at 3") is added to the day said ("Friday")
        raise Ask(doing.say("what_time_on", day=when.day), "when")
    # A length the model left out is read from the request ("a 30-minute call"), not from
    # its time ("in two hours" is when).
    # (a "when" that is the whole request, filled by code where the model left it out, leaves
    # the request whole)
    when_words = slots.get("when", "")
    whole = when_words.strip() == doing.request.strip()
    said = doing.request.replace(when_words, " ") if when_words and not whole else doing.request
    # (the model's length first where the request says it: "1 hour" for "geht ungefähr zwei
    # Stunden" is the model's own)
    duration = slots.get("duration", "")
    models = _a_length(duration, when, doing.now)
    length = (
        (models if grounded(duration, doing.request) else None)
        or _a_length(said, when, doing.now)
        # the text's sentence read whole: "… at 13:00 (about 30 minutes) …"
        or (length_beside(from_a_text, when.start) if from_a_text and when.start else None)
        or models
        or DEFAULT_LENGTH
    )
    end = (
        datetime.combine(when.day, when.end, tzinfo=doing.now.tzinfo)
        if when.end is not None
        else start + length
    )
    # Addresses the user typed are the people invited ("with Jonas (jonas@work.example)");
    # the dialog says invitations will be sent, and the title stays as the user named it.
    invited = list(dict.fromkeys(ADDRESS.findall(doing.request)))
    title = _without_the_asking(doing.users_title(slots["title"]), doing.request, doing.now)
    if not invited:
        title = with_whom(title, doing.request, doing.now)
    title = _title(without_a_length(title), slots.get("when", ""), doing.now)
    record = doing.call(
        "create_event",
        title=title,
        start=iso(start),
        end=iso(end),
        location=_a_new_events_place(_said_place(doing, slots), doing.now, title),
        **({"attendees": invited} if invited else {}),
    )
    return outcome(doing, record, doing.say("event_added", title=title, start=start, end=end))


def _anchored(doing: Doing, slots: dict[str, str]) -> When | None:
    """A new event's day and time said from something else's (`anchored.relative_time`),
    by the model's "when" or the request; None if neither says one."""
    from app.agent.intents.anchored import relative_time  # (it imports this module)

    for phrase in (slots.get("when", ""), doing.request):
        if read_anchored(phrase) and (found := relative_time(doing, phrase, slots["title"])):
            return When(found[0].date(), start=found[0].time())
    return None


# Days named from one to another ("12-13 June", "vom 12. bis 14. Juni", "du 12 au 13 juin",
# "del 12 al 13 de junio"): a stretch of whole days, not a week or month to find a time in.
_DAYS_SPANNED = re.compile(
    r"\b\d{1,2}\.?\s*(?:-|–|—|to|until|till|bis|au|al|a|y)\s*(?:the\s+)?\d{1,2}(?:\.|st|nd|rd|th)?"
    r"(?!\s*(?::|h\b|uhr|am|pm|o'clock))",
    re.IGNORECASE,
)


def _add_days(doing: Doing, slots: dict[str, str], when: When) -> str:
    """An all-day event over the days `when` spans (the dialog shows them first)."""
    last = when.day + timedelta(days=when.days - 1)
    title = _title(doing.users_title(slots["title"]), slots.get("when", ""), doing.now)
    record = doing.call(
        "create_event",
        title=title,
        start=when.day.isoformat(),
        end=last.isoformat(),
        location=_a_new_events_place(slots.get("location") or "", doing.now, title),
    )
    return outcome(doing, record, doing.say("days_added", title=title, start=when.day, end=last))


def _said_place(doing: Doing, slots: dict[str, str]) -> str:
    """The model's place for a new event if its words are the request's (or the time's copied
    from a text): "my photos folder" for "put the photo walk on the 27th in my calendar" is
    its own."""
    location = slots.get("location") or ""
    said = f"{doing.request} {slots.get('when', '')}"
    return location if grounded(location, said) else ""


def _a_new_events_place(location: str, now: datetime, title: str = "") -> str | None:
    """The model's place for a new event, unless it names only when ("Vormittag" of "am
    Donnerstagvormittag", "tomorrow at 3") or is the title again ("Kino mit Sam"): that is
    no place. None when there is none."""
    if title and fold(location).strip() and fold(location).strip() in fold(title):
        return None
    if all(
        is_function_word(w) or names_a_time(w, now) or is_part_of_day(w) or w.isdigit()
        for w in content_words(location)
    ):
        return None
    return location.strip()


# "lunch with Tom", "déjeuner avec Priya", "Essen mit Jonas", "comida con Lena".
_WITH = {"with", "avec", "mit", "con"}
_AND = {"and", "und", "et", "y", "&"}


def with_whom(title: str, request: str, now: datetime) -> str:
    """The title with the people the request names right after it ("un déjeuner avec Priya"
    taken as "dejeuner": "déjeuner avec Priya"), in the request's spelling: who an event is
    with is what a person looks for in the calendar (a day after the name is not part of it).
    The title itself when the words are not the request's in a row, or no name follows them."""
    found = list(WORD.finditer(request))
    tokens = [m.group(0) for m in found]
    said = [fold(t).strip(".'") for t in tokens]
    words = [fold(w).strip(".'") for w in WORD.findall(title)]
    n = len(words)
    at = next((i for i in range(len(said) - n + 1) if said[i : i + n] == words), None)
    if not words or at is None:
        return title
    end = at + n
    if end >= len(said) or said[end] not in _WITH:
        return title

    def a_name(i: int) -> bool:
        """A capitalised word, no day, in the same clause ("with Tom, Anna joins": Tom)."""
        if i >= len(tokens) or not tokens[i][:1].isupper() or names_a_time(tokens[i], now):
            return False
        between = request[found[i - 1].end() : found[i].start()] + tokens[i - 1][-1:]
        return not re.search(r"[,.;:!?]", between)

    names = end + 1
    while a_name(names) or (names < len(said) and said[names] in _AND and a_name(names + 1)):
        names += 1
    if names == end + 1:
        return title
    return " ".join(tokens[at:names])


def _a_length(phrase: str, when: When | None, now: datetime) -> timedelta | None:
    """How long `phrase` says, unless it only says the clock time already read as the event's
    ("à 10h" is ten o'clock, not ten hours long)."""
    length = read_duration(phrase)
    if length is None or when is None or when.start is None:
        return length
    said = read_when(phrase, now)
    clock = timedelta(hours=when.start.hour, minutes=when.start.minute)
    # ("starts at quarter past nine and runs for two hours": a length beside the time)
    the_time = said is not None and said.start == when.start and said.end is None
    if the_time and length in (clock, timedelta(hours=when.start.hour)):
        return None
    # ("in two hours" is when, not how long)
    start = when.start_at(now)
    return None if start is not None and abs(start - now - length) < _A_MINUTE else length


_A_MINUTE = timedelta(minutes=1)


# Where the clauses of a request part ("nicht um vier, erst um halb sechs", "not at 4 but
# at 5:30", "pas à 16h mais à 17h30", "no a las cuatro sino a las cinco"), folded.
_CLAUSES = re.compile(r"[,;!?]|[.:](?!\d)|\b(?:but|aber|sondern|mais|sino|pero)\b")  # not "10:00"


def _another_time(doing: Doing, start: datetime) -> tuple[str, When] | None:
    """The one clock time the request's clauses say that is not the event's (`start`), with
    its clause; else the one day they say without a time that is not the event's weekday
    ("Der Klempner schafft es am Freitag doch nicht, er kommt lieber am Montag"); None if
    none, or more than one."""
    found: dict[time, tuple[str, When]] = {}
    days: dict[date, tuple[str, When]] = {}
    for clause in _CLAUSES.split(fold(doing.request)):
        when = read_when(clause, doing.now)
        if when is not None and when.start is not None and when.start != start.time():
            found.setdefault(when.start, (clause, when))
        elif (
            when is not None
            and when.start is None
            and when.day_given
            and when.day.weekday() != start.weekday()
        ):
            days.setdefault(when.day, (clause, when))
    if len(found) == 1:
        return next(iter(found.values()))
    return next(iter(days.values())) if not found and len(days) == 1 else None


# Said of a change, not of something new (folded): "put the appointment on Friday instead".
_INSTEAD = re.compile(r"\b(?:instead|stattdessen|lieber|plutot|a la place|en (?:su )?lugar)\b")


def _a_change(doing: Doing) -> str | None:
    """Taken for a new event in a close call with changing one: a request without a clock
    time that names an event on the day it says (or says no day) changes that event ("The
    plumber needs two hours, not one"). Looked at before the new event's title is asked. A
    request to put something in the calendar ("… un intercambio de semillas del club de
    jardinería … ¿me lo apuntas en el calendario?") asks for a new one, whatever event shares
    a word with it ("Book club")."""
    if "move_event" not in doing.close or (
        asks_to_put_in_the_calendar(doing.request) and not _INSTEAD.search(fold(doing.request))
    ):
        return None
    return "move_event" if event_named(doing) else None


def event_named(
    doing: Doing, whole: bool = False, on_the_day: bool = False, moving: bool = False
) -> str | None:
    """The title of the one event already in the calendar the request speaks of: no clock
    time in it, and that event's title (half its words or more; `whole`: all of them, or of
    the request's English when it is in another language) named in it, on the day the
    request says if it says one. `on_the_day`: when the request names a day, also the one
    event that day holding the most of its words, or of its English. `moving`: the clock time
    is where the event goes ("unser 1:1 morgen auf 14 Uhr verlegen"), the day where it is.
    None if none or several, or no calendar is set up."""
    if doing.agent.registry.get("list_events") is None:
        return None
    when = read_when(doing.request, doing.now)
    if when is not None and moving:
        when = replace(when, start=None, end=None, part=None)
    if when is not None and when.start is not None:
        return None  # a new time: a new event, or a move the model would have named
    found = _named_within(doing, when, whole, on_the_day)
    if found is None and on_the_day and when is not None and when.day_given:
        # "Freitag wird das nix mit dem Friseur … auf Dienstag in einer Woche verschieben?":
        # the day read is the new one; the event is on another day the request names ("Sam a
        # réparé le robinet ce week-end ! … le plombier … la semaine prochaine": next week)
        for other in _other_periods(doing, when):
            if found := _named_within(doing, other, whole, True):
                break
    if found is None and moving and when is not None and when.day_given:
        # "push my dentist thing to friday instead": the day is where it goes, and no other
        # is said: the one event around now its whole title names
        found = _named_within(doing, None, whole, False)
    return found


def _other_periods(doing: Doing, when: When) -> list[When]:
    """The days or stretches of days the request names besides the one `when` read, in the
    order it names them: where else an event it names may be."""
    named = periods_named(doing.request, doing.now)
    return [p for p in named if (p.day, p.days) != (when.day, when.days)]


def _named_within(doing: Doing, when: When | None, whole: bool, on_the_day: bool) -> str | None:
    """`event_named` on the day `when` says (or around today if it says none)."""
    if when is not None and when.day_given:
        start, end = when.window(doing.now)
    else:
        start, end = doing.now - _LOOK_BACK, doing.now + _LOOK_AHEAD
    events = events_between(doing, start, end)
    said = _without_days(doing.request, doing.now)
    named = _titles_in(events, said, whole)
    english = ""
    if not named and whole and events and (english := english_words(doing, doing.request)):
        named = _titles_in(events, english, whole)  # "den Zahnarzt" of the event "Dentist"
    if not named and on_the_day and when is not None and when.day_given:
        # "Ya no voy al concierto del jueves 24, quítalo": that Thursday's "Concert: Jazz
        # Quartet", one of its words named (in the request's English)
        # (the English without its day words: "ce week-end" is no "Lake weekend")
        held = most_words_of(f"{said} {_without_days(english, doing.now)}", events, "title")
        named = {fold(title): title for e in held if (title := str(e.get("title") or ""))}
    if not named and on_the_day and when is not None:
        # "Dr Weber's office just rang - they've pushed me back by an hour this afternoon":
        # the one event that day held at the person or place named ("Dentist", at "Dr. Weber,
        # Hauptstraße 5")
        names = " ".join(n for n in names_in(doing.request) if fold(n) not in _TITLE_WORDS)
        held = most_words_of(names, events, "location") if names else []
        named = {fold(title): title for e in held if (title := str(e.get("title") or ""))}
    return next(iter(named.values())) if len(named) == 1 else None


# Words before a name, which name no place ("Dr", "Frau", "Mme").
_TITLE_WORDS = {fold(t) for t in (*TITLES, "Doctor", "Doktor", "Docteur", "Herr", "Frau",
                                  "Madame", "Monsieur", "Señor", "Señora")}  # fmt: skip


def event_named_shown(doing: Doing, in_english: bool = False) -> str | None:
    """The one event the request names whole, shown with its day and time ("Mum's birthday:
    Sun 20 May, all day"), its next occurrence if it repeats; None if none or several.
    `in_english`: also named by the request's English ("Chorprobe" of "Choir rehearsal");
    else not looked for in English, where a question a text answered needs no more."""
    if doing.agent.registry.get("list_events") is None:
        return None
    around = events_between(doing, doing.now - _LOOK_BACK, doing.now + _LOOK_AHEAD)
    named = _titles_in(around, _without_days(doing.request, doing.now), whole=True)
    if not named and in_english and around and (english := english_words(doing, doing.request)):
        named = _titles_in(around, _without_days(english, doing.now), whole=True)
    if len(named) != 1:
        return None
    events = [e for e in around if fold(str(e.get("title") or "")) in named]
    upcoming = [e for e in events if datetime.fromisoformat(str(e["end"])) >= doing.now]
    return shown(doing, (upcoming or events)[0]) if events else None


def _titles_in(events: list[dict[str, Any]], said: str, whole: bool) -> dict[str, str]:
    """The titles of `events` the words name (by their folded spelling; `whole`: every word
    but one saying only that it is a visit or an appointment, "Plumber visit" of "der
    Klempner", or the everyday things' English)."""
    said = f"{said} {glossed(said)}" if whole else said
    return {
        fold(title): title
        for event in events
        if grounded(_without_any_visit(title := str(event.get("title") or "")), said, copied=whole)
    }


def _without_any_visit(title: str) -> str:
    """`title` without the words saying it is a visit or an appointment, unless that is all."""
    kept = [w for w in title.split() if fold(w) not in ANY_EVENT]
    return " ".join(kept) if kept else title


def _named_beside_the_asking(doing: Doing, title: str) -> str:
    """A title that only asks to put something in the calendar ("Trag den bitte in meinen
    Kalender ein" of "Die Praxis Dr. Lee hat mir wegen einem Termin geschrieben – trag den
    bitte in meinen Kalender ein"): the names the rest of the request writes with capitals
    ("Praxis Dr. Lee Termin"), by which the text holding its day is found; else `title`."""
    if not asks_to_put_in_the_calendar(title):
        return title
    clauses = re.split(r"\s*(?:[,;:!?–—]|\s-\s|\.\s)\s*", doing.request)
    rest = " ".join(c for c in clauses if not asks_to_put_in_the_calendar(c))
    words = re.findall(r"[^\W\d_][\w'’.-]*", rest)
    named = [
        w.rstrip(".")
        for i, w in enumerate(words)
        if w[0].isupper() and not is_function_word(w.rstrip(".")) and (i or len(words) == 1)
    ]
    named = [w for w in named if not names_a_time(w, doing.now)]
    return " ".join(dict.fromkeys(named)) if named else title


def _without_the_asking(title: str, request: str, now: datetime) -> str:
    """A title that is the whole request ("Trag mir für Samstag um 11 Uhr Schwimmen ein"):
    without the words at either end that ask, or say the day or time ("Schwimmen")."""
    if fold(title.strip(" .!?")) != fold(request.strip(" .!?")):
        return title
    words = title.strip(" .!?").split()

    def asking(word: str) -> bool:
        bare = word.strip(".,;:!?¿¡")
        return (
            len(bare) <= 2
            or any(c.isdigit() for c in bare)
            or is_function_word(bare)
            or is_function_word(bare.split("-")[0])  # "Mets-moi"
            or names_a_time(bare, now)
        )

    while words and asking(words[0]):
        words.pop(0)
    while words and (asking(words[-1]) or names_a_time(" ".join(words[-2:]), now)):
        words.pop()  # (two words: "à midi")
    return " ".join(words) or title


def _title(text: str, when: str, now: datetime) -> str:
    """The event's title without the day and time the model copied into it too."""
    text = without_when(text, when, now)
    return text[:1].upper() + text[1:]


def without_when(text: str, when: str, now: datetime) -> str:
    """A title or a to-do without the day and time phrase the model copied into it too
    ("call grandma on Sunday", when "Sunday": "call grandma")."""
    text = text.strip().strip(".")
    if when and when.strip() and when.strip() in text and when.strip() != text:
        text = text.replace(when.strip(), " ")
        text = re.sub(rf"\s+\b({_LINKS})\s*$", "", " ".join(text.split()), flags=re.I)
    # The day in other words ("on Sunday" beside "for Sunday"): day and time words and the
    # little words before them, from the end.
    words, cut = text.split(), 0
    while len(words) > 1 and (names_a_time(words[-1], now) or _LINK.fullmatch(words[-1])):
        cut += names_a_time(words.pop(), now)
    return " ".join(words) if cut else text


# Words that join a title or an event to a time: "on", "at", "am", "um", "à", "a las", "to"...
_LINKS = r"on the|on|at|for|by|to|the|am|um|an|auf|nach|le|à|a|au|pour|el|a las|al|para"
_LINK = re.compile(rf"(?:{_LINKS})", re.I)
_TARGET = re.compile(r"\s(?:to|until|till|for|auf|nach|zu|à|au|a|al|a las|para|pour)\s", re.I)


def _target_time(doing: Doing) -> str | None:
    """The new time of a move, from what follows a "to" in the request ("… to Thursday at
    10", "… auf Donnerstag 14 Uhr", "… à jeudi 10h", "… al jueves a las 10")."""
    for marker in _TARGET.finditer(doing.request):
        rest = doing.request[marker.end() :]
        if read_when(rest, doing.now) is not None:
            return rest
    return None


def _a_question(
    otherwise: Callable[[bool], None] | None,
) -> Callable[[bool], None]:
    """A `not_found` for a when or where question taken for a move: no event holds its words,
    so it is a question about something else ("when's the seed swap?", the club's email)."""

    def not_found(partly: bool) -> None:
        if not partly:
            raise Instead("show_calendar")
        if otherwise is not None:
            otherwise(partly)

    return not_found


def move(
    doing: Doing, slots: dict[str, str], not_found: Callable[[bool], None] | None = None
) -> str:
    """Move an event, or change its length or place ("the plumber needs two hours", "the car
    service is at the Kreuzberg garage now"): one `update_event` with what changed.
    `not_found`: as `find_event`'s."""
    no_shift = read_shift(slots.get("shift", "")) is None and read_shift(doing.request) is None
    if slots.get("shift") and no_shift:
        # "same time" copied as a shift names no amount: the new time is read from the
        # request ("… to Thursday, same time": Thursday, at the time it has)
        slots.pop("shift")
    length = _a_length(slots.get("length", ""), _when(doing, slots, "to"), doing.now)
    if read_shift(doing.request) is not None:
        length = None  # "back by 30 minutes": the amount is the move's, not a new length
    place = _new_place(doing, slots)
    new_time = slots.get("to") and _when(doing, slots, "to") is not None
    if not (new_time or slots.get("shift") or slots.get("length") or place):
        # The model filled nothing of the change ("now" is no time): a new length or place
        # in the request itself ("the plumber needs two hours", "… is at AutoHaus Schmidt
        # now").
        if read_shift(doing.request) is None and _target_time(doing) is None:
            length = read_duration(_without_days(doing.request, doing.now))
        place = "" if length else _place_in(doing.request, slots.get("event", ""), doing.now)
        if length or place:
            slots.pop("to", None)
    asked_day = read_when(doing.request, doing.now)  # the request's own day and time
    if (
        not (slots.get("to") or slots.get("shift") or length or place)
        and asks_when_or_where(doing.request)
        and not (asked_day is not None and asked_day.day_given)
    ):
        # "when's the seed swap?" taken for a move that names no change and no day, about
        # something no event holds: a question. (One that names a day goes on as before: the
        # event that day is shown, "Where do we meet for the hike on Saturday?")
        not_found = _a_question(not_found)
    if not slots.get("to") and not slots.get("shift"):
        # The model left the new time out: read it from the request itself, a shift
        # ("back by 30 minutes") or what follows a "to" ("... to Thursday at 10").
        if read_shift(doing.request) is not None:
            slots["shift"] = doing.request
        elif not (length or place) and (target := _target_time(doing)) is not None:
            slots["to"] = target
    event = find_event(doing, slots, not_found=not_found)
    start = datetime.fromisoformat(str(event["start"]))
    end = datetime.fromisoformat(str(event["end"]))
    if end < doing.now and (asked_day is None or not asked_day.day_given):
        # "Schieb das Mittagessen mit Tom eine Stunde nach hinten": the only one was last
        # week; a day gone by is not moved unless the request names it
        return doing.say("event_past", title=event.get("title"), at=start.date())
    shift = None
    if slots.get("shift"):
        # The model may copy the amount alone ("media hora", "de 15 minutes") and leave the
        # verb that gives the direction ("Retrasa …", "Avance …"): the request has both.
        shift = read_shift(slots["shift"]) or read_shift(doing.request)
    if shift is None and slots.get("to") and _when(doing, slots, "to") is None:
        # "back by half an hour" written where the new time belongs
        shift = read_shift(slots["to"]) or read_shift(doing.request)
    if shift is not None:
        new_start, new_end = start + shift, end + shift
    elif slots.get("to") or not (length or place):
        to = _when(doing, slots, "to")
        if to is None and asked_day is not None and asked_day.start not in (None, start.time()):
            # "Could my haircut on Friday be at half five instead?": no "to", but a time the
            # event does not have yet is the new one
            slots["to"], to = doing.request, asked_day
        where_it_is = (
            to is not None
            and to.start == start.time()
            and (not to.day_given or to.day == start.date())
        )
        if (to is None or where_it_is) and (other := _another_time(doing, start)) is not None:
            # "die schaffen Freitag nicht um vier, erst um halb sechs": of the clock times
            # said, the one the event does not have is the new one
            slots["to"], to = other
        if to is None:
            asked = asking_clause(the_question(doing.request))
            if asks_when_or_where(asked) and not asks_to_move(doing.request):
                # "Prepare me for the Nordwind client call: when is it, and what's their
                # delivery plan?" taken for a move: a question, answered (with the rest it
                # asks, from the mail or files)
                raise Instead("ask_files" if asks_when_and_more(doing.request) else "show_calendar")
            if "cancel_event" in doing.close:
                # No new time anywhere, and the choice was close to cancelling: "I can't make
                # the team lunch, take it off my calendar" (the deletion asks first)
                raise Instead("cancel_event")
            slots["event"] = str(event["event_id"])
            raise Ask(doing.say("move_to_when", title=event.get("title")), "to")
        day = (
            _in_the_events_week(doing, slots["to"], to.day, start) if to.day_given else start.date()
        )
        clock = to.start or start.timetz().replace(tzinfo=None)
        new_start = datetime.combine(day, clock, tzinfo=start.tzinfo)
        new_end = (
            datetime.combine(day, to.end, tzinfo=start.tzinfo)
            if to.end
            else new_start + (end - start)
        )
    else:
        new_start, new_end = start, end
    if length:
        new_end = new_start + length
    changes: dict[str, Any] = {}
    if (new_start, new_end) != (start, end):
        changes = {"start": iso(new_start), "end": iso(new_end)}
    if place:
        changes["location"] = place
    if not changes:
        # A "move" to when and where it already is ("Where and when do we meet for the hike
        # on Saturday?" taken for one): a question about the event, answered.
        return shown(doing, event)
    record = doing.call(
        "update_event", event_id=event["event_id"], **changes, **_alone(doing, event)
    )
    title = event.get("title")
    if new_start != start:
        done = doing.say("event_moved", title=title, start=new_start, end=new_end)
    elif new_end != end:
        done = doing.say("event_changed", title=title, start=new_start, end=new_end)
    else:
        done = ""
    if place:
        done = " ".join(filter(None, (done, doing.say("event_placed", title=title, place=place))))
    return outcome(doing, record, done)


# A place named after "at", "bei", "à", "en"...: its words written with capitals, as names are.
_PLACE = re.compile(
    r"\b(?:at|in|bei|im|am|à|au|chez|en|dans)\s+((?:[A-ZÄÖÜÉ][\w'’&.-]*)(?:\s+[A-ZÄÖÜÉ][\w'’&.-]*)*)"
)


# Words after "in" that name no place: where the event is kept ("Kannst du das im Kalender
# ändern?", German writing every noun with a capital), or how things stand ("in Ordnung").
_NO_PLACE = re.compile(
    r"^(?:calendar|diary|schedule|kalender|terminkalender|calendrier|agenda|calendario|"
    r"ordnung)$"
)


def _a_place(words: str) -> bool:
    return not any(_NO_PLACE.match(word) for word in fold(words).split())


def _place_in(request: str, event: str, now: datetime) -> str:
    """A new place the request names ("at AutoHaus Schmidt Kreuzberg now"), not a time, the
    calendar itself or the event's own words; "" if none."""
    own = set(fold(event).split())
    for found in _PLACE.finditer(request):
        place = found.group(1)
        new = read_when(place, now) is None and not set(fold(place).split()) <= own
        if new and _a_place(place):
            return place
    return ""


def _new_place(doing: Doing, slots: dict[str, str]) -> str:
    """The event's new place, unless the model only copied the event's own words or a time
    into it ("move the dentist to Thursday": the dentist is the event, not its place), or
    wrote words the user never did ("el centro de la peluquería" for "Mi cita en la
    peluquería, ¿la puedes retrasar media hora?")."""
    place = slots.get("place", "").strip()
    words = set(fold(place).split())
    others = set(fold(" ".join((slots.get("event", ""), slots.get("to", "")))).split())
    if not words or words <= others or read_when(place, doing.now) is not None:
        return ""
    if not grounded(place, doing.request):
        return ""
    return place if _a_place(place) else ""


def _in_the_events_week(doing: Doing, phrase: str, day: date, event_start: datetime) -> date:
    """A weekday named for an event in a later week is that weekday of the event's own week
    ("move Monday's budget meeting to Wednesday", said the week before: the Wednesday after
    it, not tomorrow); any other day ("tomorrow", "the 16th") stays as read."""
    monday = event_start.date() - timedelta(days=event_start.weekday())
    if day >= monday:
        return day
    again = read_when(phrase, datetime.combine(monday, time(0), tzinfo=doing.now.tzinfo))
    if (
        again is not None
        and again.day_given
        and monday <= again.day < monday + timedelta(days=7)
        and (again.day - day).days % 7 == 0
    ):
        return again.day
    return day


# Words saying a change is to every occurrence of a repeating event, not the one meant.
_EVERY = re.compile(
    r"\b(?:every|all|always|each|series|alle[nms]?|jede[nmrs]?|immer|tou(?:s|tes)|chaque|"
    r"toujours|tod[oa]s|cada|siempre)\b",
    re.IGNORECASE,
)


def _alone(doing: Doing, event: dict[str, Any]) -> dict[str, bool]:
    """The argument that changes one occurrence of a repeating event alone ("move tonight's
    piano lesson to 7"), unless the request speaks of every one of them."""
    if event.get("recurring") and not _EVERY.search(doing.request):
        return {"only_this_occurrence": True}
    return {}


def cancel(doing: Doing, slots: dict[str, str]) -> str:
    event = find_event(doing, slots)
    record = doing.call("delete_event", event_id=event["event_id"], **_alone(doing, event))
    return outcome(
        doing,
        record,
        doing.say("event_cancelled", title=event.get("title"), when=_day_and_time(doing, event)),
    )


def place_of(doing: Doing, words: str) -> dict[str, Any] | None:
    """The next event (or the latest) whose title holds `words` or their English and that
    has a place ("la dirección de la consulta del dentista": "Dentist" at "Dr. Weber,
    Hauptstraße 5"); None if none. The address book keeps no street addresses; the
    calendar's places often are."""
    if doing.agent.registry.get("list_events") is None:
        return None
    events = events_between(doing, doing.now - _LOOK_BACK, doing.now + _LOOK_AHEAD)
    said = [w for w in (words, glossed(words)) if w]
    placed = [
        e for e in events
        if e.get("location") and any(_titled(w, e) or _score(w, e) >= 2.0 for w in said)
    ]  # fmt: skip
    upcoming = [e for e in placed if datetime.fromisoformat(str(e["end"])) >= doing.now]
    return next(iter(upcoming or placed[::-1]), None)


def event_asked_about(doing: Doing) -> dict[str, Any] | None:
    """The one event around now a when or where question naming no day is about: the one
    holding the most of its telling words in its title, place, notes or guests (two at
    least, or the only one holding any, in its title): "l'appel avec Lena de chez Nordwind,
    c'est prévu quand ?" is "Client call: Nordwind" with lena@nordwind.example. None if not
    one, or when the question asks more than when ("…, and what gift ideas …?")."""
    if doing.agent.registry.get("list_events") is None or not asks_when_or_where(doing.request):
        return None
    if asks_when_and_more(doing.request):
        return None  # "When is Mum's birthday, and what gift ideas …?": the lookup shows both
    asked = [w for w in telling_words(doing.request) if read_when(w, doing.now) is None]
    events = events_between(doing, doing.now - _LOOK_BACK, doing.now + _LOOK_AHEAD)

    def counted(words: list[str]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for event in events:
            text = f"{event_text(event)} {' '.join(map(str, event.get('attendees') or []))}"
            title = fold(str(event.get("title") or ""))
            counts[title] = max(counts.get(title, 0), sum(any_word_of(w, text) for w in words))
        return counts

    counts = counted(asked)
    if events and not any(counts.values()) and (english := english_words(doing, doing.request)):
        # "wann ist nochmal der Zahnarzt?" of the calendar's "Dentist": its English words
        asked = [w for w in telling_words(english) if read_when(w, doing.now) is None]
        counts = counted(asked)
    most = max(counts.values(), default=0)
    best = [title for title, n in counts.items() if n == most]
    alone = most == 1 and sum(1 for n in counts.values() if n) == 1
    # One word alone names it only in its title ("water" in a hike's notes, "Bring water",
    # is no answer to "When is the water turned off?")
    if (
        not most
        or len(best) > 1
        or (most < 2 and not (alone and any_word_of(" ".join(asked), best[0])))
    ):
        return None
    held = [e for e in events if fold(str(e.get("title") or "")) == best[0]]
    upcoming = [e for e in held if datetime.fromisoformat(str(e["end"])) >= doing.now]
    return (upcoming or held)[0]


def free_slot(doing: Doing, slots: dict[str, str]) -> str:
    when = _when(doing, slots)
    asked = the_question(doing.request)
    # ("… bloque-moi ça demain ou jeudi, là où ça rentre ?" asks for room, not a place)
    of_a_thing = (
        asks_a_time_or_place(asked)
        and not asks_for_free_time(asked)
        and not asks_to_book_it(doing.request)
    )
    if (when is None or of_a_thing) and (answer := _asked_of_things(doing)) is not None:
        # No day in what the model copied ("When is the water turned off?" taken for free
        # time), or a question of when a thing is, a day said around it ("someone wants to
        # meet next week … when was my check-up at Dr Lee's again?"): the one event it names
        # ("…, c'est prévu quand ?"), else what the mail or files plainly hold, else a
        # question of when or where looked up whole ("el paquete de Kiezbuch… ¿sabes qué
        # día me lo traen?"); else free time on the day, or the day is asked.
        return answer
    # "antes del viernes", "bis Freitag": each day up to it in turn, today from now on
    # (unless the asking sentence names another day to look at: "… avant lundi. Tu peux me
    # bloquer ça demain ?")
    until = days_until(asked, doing.now) or (
        days_until(doing.request, doing.now) if when is None else []
    )
    if until and when is not None and when.day not in (until[-1], until[-1] + timedelta(1)):
        until = []
    if when is None and not until and asks_to_book_it(doing.request):
        # "Búscame media hora libre … y apúntamela en el calendario": no day said, the
        # soonest free time is booked (the dialog asks first)
        until = [doing.now.date() + timedelta(days=n) for n in range(SOONEST_DAYS)]
    if when is None and not until:
        if slots.get("when"):  # words that name no day ("someday")
            raise Ask(doing.say("which_day_look"), "when")
        if doing.looking_again:  # a second look asks nothing
            raise FoundNothing("")
        raise Ask(doing.question(_WHICH_DAY), "when")
    length = read_duration(slots.get("duration", "")) or read_duration(doing.request)
    length = length or DEFAULT_LENGTH
    minutes = int(length.total_seconds() // 60)
    # "demain ou jeudi, là où ça rentre": the other days the asking sentence names, in turn,
    # when the first has no room
    if until:
        days = [When(day) for day in until]
    elif when is not None:
        days = [when, *(p for p in periods_named(asked, doing.now) if p.day != when.day)]
    when = days[0]
    found: list[dict[str, Any]] = []
    for day in days:
        start, end = _free_window(doing, day)
        start = max(start, doing.now.replace(second=0, microsecond=0))  # not in the past
        if start >= end:
            continue
        record = doing.call("find_free_time", start=iso(start), end=iso(end),
                            duration_minutes=minutes)  # fmt: skip
        if record.status != "ok":
            return outcome(doing, record, "")
        found = [s for s in record.result or [] if isinstance(s, dict)]
        if day.part is not None and day.days > 1:
            # "one afternoon next week": the afternoons of the week, not its first free hour
            found = _within_part_of_day(found, day.part, length)
        if found:
            when = day
            break
    whole_days = when.part is None and when.start is None
    window = _free_window(doing, when)  # where it was found, else the first day asked
    # A day asked about without hours: all it holds, evening too ("Hab ich am Donnerstag was
    # vor?" is as much what's on as when it is free).
    busy = (
        busy_in(doing, _whole(window, doing), "busy_that_day")
        if whole_days
        else busy_in(doing, window)
    )
    if not found:
        return doing.say("no_free", minutes=minutes, days=_day_words(doing, window)) + busy
    first = found[0]
    start = datetime.fromisoformat(str(first["start"]))
    if asks_to_book_it(doing.request):
        # "… find me an hour I'm free that day and block it": the first free time is the
        # new event's (the dialog asks first)
        at = f"{start.day} {_MONTHS[start.month - 1]} {start.year} at {start:%H:%M}"
        raise Instead("add_event", read={"when": at, "duration": f"{minutes} minutes"})
    others = ", ".join(
        f"{doing.dated(datetime.fromisoformat(str(s['start'])), 'wd')} "
        f"{datetime.fromisoformat(str(s['start'])):%H:%M}–"
        f"{datetime.fromisoformat(str(s['end'])):%H:%M}"
        for s in found[1:4]
    )
    more = doing.say("other_free", others=others) if others else ""
    # (said as a stretch of the clock, "13:00–16:00", as people read free time)
    end = start + timedelta(minutes=minutes)
    return doing.say("first_free", minutes=minutes, start=start, end=end, more=more) + busy


def _within_part_of_day(
    found: list[dict[str, Any]], part: tuple[int, int], length: timedelta
) -> list[dict[str, Any]]:
    """The free stretches `found` cut to the part of their day (`part`, hours from-to),
    those still long enough (the calendar gives a working day's at most)."""
    kept = []
    for stretch in found:
        start = datetime.fromisoformat(str(stretch["start"]))
        end = datetime.fromisoformat(str(stretch["end"]))
        day = start.replace(hour=0, minute=0, second=0, microsecond=0)
        start = max(start, day + timedelta(hours=part[0]))
        end = min(end, day + timedelta(hours=part[1]))
        if end - start >= length:
            kept.append({**stretch, "start": start.isoformat(), "end": end.isoformat()})
    return kept


# Asked when a free time is looked for and no day is said.
_WHICH_DAY = "Which day?"


def _free_window(doing: Doing, when: When) -> tuple[datetime, datetime]:
    """Where free time is looked for on the days `when` names: the working day of each, or
    the part of the day or hours it says."""
    if when.part is None and when.start is None:
        day = datetime.combine(when.day, time(0), tzinfo=doing.now.tzinfo)
        window = (day + timedelta(hours=_DAY_HOURS[0]), day + timedelta(hours=_DAY_HOURS[1]))
        return (window[0], window[1] + timedelta(days=max(when.days - 1, 0)))
    window = when.window(doing.now)
    if when.start is not None and when.end is None:
        window = (window[0], window[0].replace(hour=_DAY_HOURS[1]))
    return window


def free_times_on(doing: Doing, phrase: str) -> str:
    """The free times of the day `phrase` names, within its hours if it names some ("wann ich
    am Donnerstag Zeit habe": "Thursday 17 May 12:00–18:00"), as a fact an email may give; ""
    if it names no day or the calendar cannot say."""
    when = read_when(phrase, doing.now)
    if when is None or not when.day_given or doing.agent.registry.get("find_free_time") is None:
        return ""
    if when.part is None and when.start is None:
        day = datetime.combine(when.day, time(0), tzinfo=doing.now.tzinfo)
        window = (day + timedelta(hours=_DAY_HOURS[0]), day + timedelta(hours=_DAY_HOURS[1]))
    else:
        window = when.window(doing.now)
    record = doing.call("find_free_time", start=iso(window[0]), end=iso(window[1]),
                        duration_minutes=_SHORTEST_FREE)  # fmt: skip
    if record.status != "ok":
        return ""
    spans = [
        (datetime.fromisoformat(str(s["start"])), datetime.fromisoformat(str(s["end"])))
        for s in record.result or []
        if isinstance(s, dict)
    ]
    day_said = doing.dated(spans[0][0], "day") if spans else ""
    return f"{day_said} " + ", ".join(f"{a:%H:%M}–{b:%H:%M}" for a, b in spans[:4]) if spans else ""


# Month names as `read_when` reads them, whatever the machine's locale.
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
# The shortest free time worth telling someone of, in minutes.
_SHORTEST_FREE = 30


def _asked_of_things(doing: Doing) -> str | None:
    """The answer to a question of when or where from the one event it names, or from the
    email or file holding its words; None if nothing holds them."""
    if (event := event_asked_about(doing)) is not None:
        return shown(doing, event)
    # of the texts holding its words, one with a day answers "when …?" (the parcel service's
    # "will be delivered on Thursday 17 May", not the shop's "your order has shipped")
    when = asks_a_time_or_place(doing.request)
    answer = answer_from_things(doing, doing.request, dated=True) if when else None
    return answer or answer_from_things(doing, doing.request, plainly=True)


def _whole(window: tuple[datetime, datetime], doing: Doing) -> tuple[datetime, datetime]:
    """The whole days `window` falls on, midnight to midnight."""
    start = datetime.combine(window[0].date(), time(0), tzinfo=doing.now.tzinfo)
    end = datetime.combine(window[1].date() + timedelta(days=1), time(0), tzinfo=doing.now.tzinfo)
    return start, end


STEPS: dict[str, Steps] = {
    "show_calendar": show,
    "add_event": add,
    "cancel_event": cancel,
    "find_free_time": free_slot,
}


def _a_count(doing: Doing) -> str | None:
    """ "How many … ?" taken for free time: a question the calendar's listing answers."""
    return "show_calendar" if asks_how_many(doing.request) else None


BEFORE: dict[str, Before] = {"add_event": _a_change, "find_free_time": _a_count}
