"""Steps for the user's own things: reminders, memories, to-dos and contacts.

Each is one lookup or one change with its arguments resolved by code (a reminder's time from
the user's words, a to-do found among the open ones by its title).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from typing import Any

from app.agent.intents.anchored import (
    JOINING,
    MORNING,
    dated,
    relative_time,
    whole_days,
)
from app.agent.intents.calendar_steps import (
    busy_in,
    iso,
    place_of,
    without_when,
)
from app.agent.intents.catalog import BY_NAME, JUST_ANSWER
from app.agent.intents.english import english_words
from app.agent.intents.file_steps import (
    FILE_NAME,
    files_named,
    named_inside,
    names_in,
    read_text,
    telling_words,
)
from app.agent.intents.general import general_question
from app.agent.intents.glossary import forms_of, glossed
from app.agent.intents.language import (
    ASKING_BACK,
    ASKING_MEMORY,
    asking_clause,
    asks_a_past_cost,
    asks_for_a_reminder,
    asks_to_tick_off,
    asks_where,
    asks_whether_done,
    contact_queries,
    is_function_word,
    kin_words,
    refers_to_someone,
    reported_question,
    sentences,
    speaks_of_a_reminder,
    speaks_of_the_user,
    speaks_of_us,
    the_question,
    todo_said_around,
    without_remind_me,
    without_the_list,
)
from app.agent.intents.lookup import answer_from_things
from app.agent.intents.mail_steps import names_written, senders_named
from app.agent.intents.recognise import (
    ADDRESS,
    POSSESSIVE,
    any_word_of,
    grounded,
    most_words_of,
    names_a_time,
    said_part,
)
from app.agent.intents.router import (
    Ask,
    Before,
    Doing,
    FoundNothing,
    HandOver,
    Instead,
    Steps,
    numbered,
    outcome,
)
from app.agent.intents.when import (
    When,
    days_named,
    in_digits,
    read_anchored,
    read_deadline,
    read_relative,
    read_when,
    without_parts_of_day,
    without_the_day_before,
)
from app.store.documents import content_words
from connectors.folding import fold


def _items(record: Any) -> list[dict[str, Any]]:
    if record.status != "ok":
        raise HandOver(f"{record.name}: {record.result}")
    return [item for item in record.result or [] if isinstance(item, dict)]


def reminder(doing: Doing, slots: dict[str, str]) -> str:
    when = _said_in_full(doing, slots["when"]) or read_when(slots["when"], doing.now)
    if (
        when is None
        and (said := read_when(doing.request, doing.now)) is not None
        and (said.start is not None or said.part is not None)
    ):
        # the model's "vorher" for "erinner mich bitte morgen um halb neun, dass ich vorher
        # …": the request's own day and time
        when = said
    if (
        when is not None
        and not when.day_given
        and (said := read_when(doing.request, doing.now)) is not None
        and said.day_given
    ):
        # "erinner mich bitte übermorgen um sechs abends dran …": the model's "sechs abends"
        # without the day the request names, and maybe without its clock time
        when = replace(when, day=said.day, day_given=True, start=when.start or said.start)
    relative = read_anchored(doing.request)
    if when is None or (
        relative is not None
        # an amount before something, or whole days before it at a time of the day said
        # ("at 7pm the evening before the pickup")
        and (when.start is None or (not when.day_given and whole_days(relative[0])))
    ):
        # The slot's phrase, then the request's: the model may shorten what is named ("the
        # gas is off" for "the gas is shut off"), and the request's words find the email. A
        # day without a time is what the event is on ("Wann ist diese Woche Chorprobe?
        # Erinner mich eine Stunde vorher").
        what = slots["what"]
        before = relative_time(doing, slots["when"], what) or relative_time(
            doing, doing.request, what
        )
        if before is not None:
            moment, event, title = before
            text = _what_to_remind(doing, _said_after_the_thing(what.strip()))
            if relative is not None and relative[1] == "it" and (todo := _to_do_said(doing)):
                # "die hausverwaltung hat geschrieben, dass das wasser abgestellt wird.
                # erinner mich ne stunde vorher, dass ich noch wasser abfülle": the model's
                # "wasser abgestellt wird" is what it is before; the asking sentence says
                # what to do
                text = todo
            if not grounded(text, doing.request) and (then := _to_do_after_before(doing)):
                # the model's own words ("my flight to Lisbon leaves on Friday morning" of
                # "… put a reminder the evening before to pack"): what follows "before"
                text = then
            if title and (_names_only_the_thing(text, doing.request) or _only_the_time(text)):
                # "Samedi on part en randonnée. Rappelle-moi une heure avant le départ": what
                # is left names only what it is before ("départ"): the event's title says it
                text = title
            # the event it is set from, shown: its day and time answer "when is it?" asked
            # beside ("Wann ist Buchclub? Erinner mich zwei Stunden vorher")
            done = _set_reminder(doing, text, moment)
            return done + (f"\n\n{event}" if event else "")
        if when is None or relative is not None:
            # before something nothing the user keeps dates: not at the time said beside it
            # today ("at 7pm the evening before the pickup"), nor on a day read from its
            # amount ("dos días antes": not in two days)
            raise Ask(doing.say("when_remind"), "when")
    at = when.start_at(doing.now)
    if at is None:
        if when.part is not None:
            at = datetime.combine(when.day, time(when.part[0]), tzinfo=doing.now.tzinfo)
        elif when.day > doing.now.date():
            at = datetime.combine(when.day, MORNING, tzinfo=doing.now.tzinfo)  # (a day alone)
        else:
            raise Ask(doing.say("what_time_on", day=when.day), "when")
    if at <= doing.now and not when.day_given:
        at += timedelta(days=1)  # "at 6" said at seven in the evening: tomorrow
    elif at <= doing.now:
        at = _a_later_day_beside(doing, at) or at
    what = slots["what"].strip()
    if asks_for_a_reminder(what) and _what_to_remind(doing, what) == what:
        # only "remind me", asked when and told "tomorrow at 9 to call the insurance": what
        # to do is in the answer, after its time
        told = _what_to_remind(doing, f"remind me {in_digits(slots['when'])}")
        what = told if told and not asks_for_a_reminder(told) else what
    if _only_when(what, doing.now):
        # the model's "morgen um halb neun" for "erinner mich bitte morgen um halb neun, dass
        # ich vorher noch ein paar Flaschen abfülle": what to do, from the sentence asking
        told = _what_to_remind(doing, in_digits(_asking_sentence(doing) or doing.request))
        what = told if not _only_when(told, doing.now) else what
    elif doing.language != "en":
        # the model's translation ("sort out the poubelles" of "rappelle-moi demain à 8h de
        # sortir les poubelles"): the user's words; none of theirs at all ("call mum" of
        # "…, dass ich Mama anrufen muss"): what the asking sentence says to do
        what = doing.users_title(what)
        if not grounded(what, doing.request) and (told := _to_do_said(doing)):
            # (nor only some: "mama's birthday" of "… in 2 Stunden daran, Mama anzurufen")
            what = told
    return _set_reminder(doing, what, at)


def _said_in_full(doing: Doing, phrase: str) -> When | None:
    """The day and time of the model's phrase read on with the words that follow it in the
    request, when those give the time it cut off ("mañana a las 9" of "… mañana a las 9 y
    media: …", "morgen" of "für morgen um 8: …"); a phrase of its own ("9 AM") with the hour
    of the request's one time but not its minutes: the request's. None if neither."""
    phrase = phrase.strip()
    copied = re.search(re.escape(phrase), doing.request, re.IGNORECASE) if phrase else None
    cut = read_when(phrase, doing.now)
    if copied is not None:
        after = re.split(r"[:;,.!?]\s", doing.request[copied.end() :] + " ", maxsplit=1)[0]
        full = read_when(f"{phrase} {' '.join(after.split()[:4])}", doing.now)
    elif cut is not None and cut.start is not None:
        full = read_when(doing.request, doing.now)
    else:
        return None
    if full is None or full.start is None:
        return None
    if cut is not None and cut.day_given and cut.day != full.day:
        return None
    if copied is not None and (cut is None or cut.start is None):
        return full
    if cut is not None and cut.start is not None and cut.start.hour == full.start.hour:
        return full if cut.start != full.start else None
    return None


def _to_do_said(doing: Doing) -> str:
    """What the sentence asking for the reminder says to do, less the asking, the time and
    the words joining them ("Remind me an hour before to fill the kettle": "fill the
    kettle"); "" when it says nothing more ("Erinner mich eine halbe Stunde vorher")."""
    asking = _asking_sentence(doing)
    if not asking:
        return ""
    told = _what_to_remind(doing, asking)
    # (two telling words at least: not the "eine" left of "eine halbe Stunde vorher")
    return "" if asks_for_a_reminder(told) or len(telling_words(told)) < 2 else told


# What to do, said right after "before" or "after" ("the evening before to pack", "la
# veille pour faire ma valise", "am Abend vorher, um zu packen", "la noche antes para hacer la
# maleta").
_AFTER_BEFORE = re.compile(
    r"\b(?:before|beforehand|after|afterwards|vorher|davor|nachher|danach|avant|apres|"
    r"la veille|antes|despues)\s*,?\s*(?:to|so (?:that )?i can|um(?: zu)?|damit ich|pour|"
    r"afin de|para)\s+(?P<what>(?:(?!\s[-–—]\s)[^.,;!?])+)",
    re.IGNORECASE,
)


def _to_do_after_before(doing: Doing) -> str:
    """What the request says to do right after "before" or "after" ("… the evening before
    to pack": "pack"), in its own spelling; "" if it says nothing there."""
    found = _AFTER_BEFORE.search(fold(doing.request))
    if found is None or len(fold(doing.request)) != len(doing.request):
        return ""
    what = doing.request[found.start("what") : found.end("what")].strip()
    return re.sub(r"^zu\s+", "", what) if telling_words(what) else ""


def _asking_sentence(doing: Doing) -> str:
    """The last sentence of the request asking for a reminder; "" if none does."""
    asking = [s for s in sentences(doing.request) if asks_for_a_reminder(s)]
    return asking[-1] if asking else ""


def _only_when(text: str, now: datetime) -> bool:
    """Whether a reminder's text says only when it goes off ("morgen um halb neun", "tomorrow
    at 8"): no telling word besides the day, the clock time and the words joining them."""
    if read_when(text, now) is None:
        return False
    rest = in_digits(without_parts_of_day(text))
    return not [
        w
        for w in telling_words(rest)
        if fold(w) not in JOINING and not _CLOCK.fullmatch(w) and not names_a_time(w, now)
    ]


def _a_later_day_beside(doing: Doing, at: datetime) -> datetime | None:
    """`at`'s clock time on the one day still to come that the request names in the sentence
    saying that time, when the day read is past: a request may say why with a day gone by
    ("waiting since yesterday … nudge me on Friday at half twelve": Friday, not yesterday).
    None when no sentence names exactly one such day beside that time."""
    for sentence in sentences(doing.request):
        said = read_when(sentence, doing.now)
        if said is None or said.start != at.time():
            continue
        later = [
            moment
            for day in days_named(sentence, doing.now)
            if (moment := datetime.combine(day, said.start, tzinfo=doing.now.tzinfo)) > doing.now
        ]
        if len(later) == 1:
            return later[0]
    return None


# An amount of time from now ("in two hours", "dans deux heures"); a clock time's number and
# unit ("6", "8h", "pm", "Uhr").
_FROM_NOW = re.compile(
    r"\b(?:in|dans|en|dentro de)?\s*(?:half\s+)?(?:\S+\s+)?(?:\w+-)?(?:hours?|minutes?|mins?|"
    r"stunden?|minuten?|"
    r"heures?|horas?|minutos?)\b",
    re.IGNORECASE,
)
_CLOCK = re.compile(r"\d{1,2}(?:[:.h]\d{2})?(?:h|uhr|am|pm)?|am|pm|uhr|h", re.IGNORECASE)


def _what_to_remind(doing: Doing, what: str) -> str:
    """A reminder's text that still asks for the reminder (the whole request, where the
    model's was not the user's, or the model's copy of it) less the "remind me", the time
    and the words that joined them ("Avísame mañana a las 9 de llamar al seguro": "llamar al
    seguro"); `what` itself if it asks for none, or if nothing else is left."""
    if not asks_for_a_reminder(what):
        return what
    rest = _FROM_NOW.sub(" ", without_parts_of_day(without_the_day_before(without_remind_me(what))))
    rest = _DAY_OF_THE_MONTH.sub(" ", rest)  # "el día 30"
    kept = [
        w
        for w in rest.split()
        if not _CLOCK.fullmatch(w.strip(",.")) and not names_a_time(w.strip(",."), doing.now)
    ]
    while kept and fold(kept[-1].strip(",.")) in JOINING:
        kept.pop()
    while kept and fold(kept[0].strip(",.")) in JOINING:
        kept.pop(0)
    if kept and re.match(r"(?:d|l|qu)['’]\w", kept[0], re.IGNORECASE):
        kept[0] = re.split(r"['’]", kept[0], maxsplit=1)[1]  # "d'appeler" → "appeler"
    text = " ".join(kept).strip(" ,.?!")
    return text if content_words(text) else what


# A day of the month said with the word for day ("el día 30"): a time, not what
# to be reminded of.
_DAY_OF_THE_MONTH = re.compile(r"\b(?:el\s+)?d[ií]a\s+\d{1,2}\b", re.IGNORECASE)


def _said_after_the_thing(what: str) -> str:
    """What to be reminded of, where `what` says it after the time before something ("la
    veille du rendez-vous chez le Dr Lee à 20h de préparer ma carte": "préparer ma carte");
    `what` itself when no telling word follows what is named."""
    relative = read_relative(what)
    if relative is None or relative[1] == "it":
        return what
    named = relative[1].split()
    words = what.split()
    folded = [fold(w).strip(",.;:!?") for w in words]
    for i in range(len(words) - len(named) + 1):
        if folded[i : i + len(named)] != named:
            continue
        rest = [w for w in words[i + len(named) :] if not _CLOCK.fullmatch(w.strip(",."))]
        while rest and fold(rest[0].strip(",.")) in JOINING | {"a", "um", "at", "las"}:
            rest.pop(0)
        if rest and re.match(r"(?:d|l|qu)['’]\w", rest[0], re.IGNORECASE):
            rest[0] = re.split(r"['’]", rest[0], maxsplit=1)[1]  # "d'appeler" → "appeler"
        text = " ".join(rest).strip(" ,.?!")
        return text if telling_words(text) else what
    return what


def _names_only_the_thing(text: str, request: str) -> bool:
    """Whether a relative reminder's text names only what it is before or after: no telling
    word besides those of the thing the request's relative phrase names ("départ" of "une
    heure avant le départ")."""
    relative = read_relative(request)
    if relative is None:
        return False
    thing = {fold(w) for w in relative[1].split()}
    return all(fold(w) in thing for w in telling_words(text))


def _only_the_time(text: str) -> bool:
    """Whether a reminder's text says no more than how long before or after ("please a
    Stunde vorher", the model's half-translated "bitte eine Stunde vorher")."""
    rest = _FROM_NOW.sub(" ", text)
    return not [w for w in telling_words(rest) if fold(w) not in JOINING]


def _set_reminder(doing: Doing, what: str, at: datetime) -> str:
    what = _without_a_time_before_a_colon(_what_to_remind(doing, what), doing.now)
    record = doing.call("set_reminder", text=what, at=iso(at))
    return outcome(doing, record, doing.say("reminder_set", at=at, what=what))


def _without_a_time_before_a_colon(text: str, now: datetime) -> str:
    """A reminder's text without the end of its time before a colon ("media: llenar unas
    botellas" of "a las 9 y media: llenar unas botellas", "8: Müll rausbringen")."""
    head, colon, rest = text.partition(":")
    if not colon or not rest.strip() or re.match(r"\d", rest):  # "9:30" is a time
        return text
    words = [fold(w) for w in re.findall(r"[\w']+", head)]
    if all(w in JOINING | _TIME_LEFTOVERS or _CLOCK.fullmatch(w) or names_a_time(w, now)
           for w in words):  # fmt: skip
        return rest.strip()
    return text


# The words of a clock time said in words that a time cut short leaves ("y media", "halb").
_TIME_LEFTOVERS = {
    "media", "halb", "half", "demie", "quart", "cuarto", "quarter", "past", "y", "et",
    "viertel", "nach", "vor", "menos", "moins", "heure", "heures", "uhr",
}  # fmt: skip


def remember(doing: Doing, slots: dict[str, str]) -> str:
    fact = slots["fact"].strip()
    old = _no_longer_true(doing, fact)
    record = doing.call("remember", fact=fact)
    done = outcome(doing, record, doing.say("remembered", fact=fact))
    if record.status != "ok" or old is None:
        return done
    # the memory the new fact replaces goes (the dialog asks first)
    gone = doing.call("forget", memory_id=old["memory_id"])
    return f"{done}\n{outcome(doing, gone, doing.say('forgotten', fact=old.get('fact')))}"


# A fact told as changed (folded): "now", "no longer", "not … anymore", "actually",
# "nicht mehr", "jetzt", "inzwischen", "ne … plus", "désormais", "maintenant", "ya no",
# "ahora", "al final".
_CHANGED_FACT = re.compile(
    r"\b(?:now|anymore|any more|no longer|actually|changed|nicht mehr|kein\w* \w+ mehr|jetzt|"
    r"inzwischen|mittlerweile|ab sofort|neuerdings|ne \w+ plus|n'\w+ plus|plus (?:de|d')|"
    r"desormais|maintenant|en fait|a change|ya no|ahora|al final|en realidad|cambi\w*|"
    # asked to correct it ("corrige ça dans ce que tu sais de moi")
    r"correct\w*|update\w*|korrigier\w*|aktualisier\w*|berichtig\w*|"
    r"mets a jour|mettre a jour|mise a jour|actualiz\w*|corrig\w*)\b"
)
# What a fact is of, before its verb ("Alex's favourite café" of "… is Café Rosa"), less the
# one it belongs to ("my", "Alex's").
_SUBJECT = re.compile(r"^(?:(?:my|our)\s+|[\w'’-]+['’]s?\s+)?(.+?)\s+(?:is|are)\b", re.I)


def _no_longer_true(doing: Doing, fact: str) -> dict[str, Any] | None:
    """The kept memory a fact told as changed replaces ("my favourite café is now Café
    Luna": "Alex's favourite café is Café Rosa"; "je ne suis plus végétarien, je mange du
    poisson": "Alex is vegetarian"): the one saying what the same thing is, else the one the
    model says it is, asked of each alone, among those sharing a thing of the request (in
    English too); None when the request tells no change or none stands out."""
    if not _CHANGED_FACT.search(fold(doing.request)) or doing.agent.registry.get("forget") is None:
        return None
    english = english_words(doing, doing.request)
    # the request's words ("le Café Rosa a fermé"), in English too ("vegetarian")
    words = list(dict.fromkeys([*telling_words(doing.request), *english.split()]))
    if not words:
        return None
    kept = _peeked(doing, "recall", query=" ".join(words)) or []
    names = {fold(w) for w in re.findall(r"\b[A-ZÀ-Ý][\w'’-]*", f"{doing.request} {english}")}
    held = [
        m for m in kept if m.get("memory_id") and _shares_a_thing(words, names, str(m.get("fact")))
    ]
    subject = _SUBJECT.match(fact)
    same = [
        m for m in held
        if subject and (theirs := _SUBJECT.match(str(m.get("fact"))))
        and fold(theirs.group(1)) == fold(subject.group(1))
    ]  # fmt: skip
    if len(same) == 1:
        return same[0]
    # the one fact holding two things the request names ("le Café Rosa a fermé": "Alex's
    # favourite café is Café Rosa"), no model step
    named = [m for m in held if sum(any_word_of(w, str(m.get("fact"))) for w in words) >= 2]
    if len(named) == 1:
        return named[0]
    shown = held[:9]
    picked = doing.judge(_NO_LONGER_TRUE, [str(m.get("fact")) for m in shown])
    return shown[picked - 1] if picked else None


def _shares_a_thing(words: list[str], names: set[str], fact: str) -> bool:
    """Whether a kept fact holds two of `words`, or one that is no name (`names`: those
    written with a capital: "vegetarian" is none): one name alone ("Sam" of "Alex's partner
    is Sam") is not what a new fact is about."""
    held = [w for w in words if any_word_of(w, fact)]
    return len(held) >= 2 or any(fold(w) not in names for w in held)


# The narrow question `_no_longer_true` asks the model of each fact alone.
_NO_LONGER_TRUE = "Does the user's message say this fact is no longer true?"


def recall(doing: Doing, slots: dict[str, str]) -> str:
    about = slots.get("about") or doing.request
    personal = speaks_of_the_user(doing.request)
    if not personal and asks_a_past_cost(doing.request):
        # "Was hat der letzte Service am Auto gekostet?": what something cost the user, which
        # their files and mail hold, not a memory nor general knowledge
        raise Instead("ask_files")
    if _asks_apart_of_memories(doing):
        # "My partner insists Sydney is the capital of Australia. Which city is it?": what the
        # question asks no memory holds, whatever the sentences before said of the user
        raise Instead(_not_remembered(doing))
    if not personal and not _holding_words_of(doing, doing.peek("recall", query=about)):
        # A question that speaks of nothing of the user's and whose words no memory holds
        # ("Wie viele Beine hat eine Spinne?"): not looked up in front of the user.
        raise Instead(_not_remembered(doing))
    record = doing.call("recall", query=about)
    facts = _facts(_items(record))
    if not personal:
        # Only a memory holding the user's own words is about it, not one the model's words
        # found ("Alex's …").
        facts = _holding_words_of(doing, facts)
    if not facts and (_a_day_named(doing) or not personal):
        raise Instead(_not_remembered(doing))
    if not facts:
        raise FoundNothing(doing.say("nothing_remembered", about=about))
    held = _holding_words_of(doing, facts)
    if held and _only_names_held(doing, held):
        # "Erinnerst du dich, wo Sam allergisch drauf ist?": "Alex's partner is Sam" holds the
        # name, not what is asked of Sam; another lookup may hold it
        raise FoundNothing(doing.say("nothing_remembered", about=about))
    # those holding a word of the request, not others the search found by meaning beside them
    listed = doing.say("remembered_list", lines="\n".join(f"- {f}" for f in (held or facts)[:8]))
    if not held:
        # Memories the search found by meaning, none holding a word of the request ("what I
        # eat": "Alex is vegetarian"), unless another lookup finds what it names.
        raise FoundNothing(listed)
    return listed


def _only_names_held(doing: Doing, held: list[str]) -> bool:
    """Whether the memories holding words of the request hold only the names it says, none
    of what it asks of them, in its words or in English ("Erinnerst du dich, wo Sam
    allergisch drauf ist?": "Alex's partner is Sam" holds "Sam" alone)."""
    names = {fold(n) for n in names_in(doing.request)}

    def asked(text: str) -> list[str]:
        return [
            w for w in telling_words(text)
            if fold(w) not in names and fold(w) not in ASKING_MEMORY | ASKING_BACK
            and not is_function_word(w)
        ]  # fmt: skip

    def holds_any(words: list[str]) -> bool:
        return any(any_word_of(w, fact) for w in words for fact in held)

    words = asked(doing.request)
    if not names or not words or holds_any(words):
        return False
    english = english_words(doing, doing.request)
    return not holds_any(asked(english)) if english else True


def remembered_plainly(doing: Doing) -> str | None:
    """What memories plainly hold of a question about the user's own that a lookup could not
    ask ("Quiero quedar en mi cafetería favorita pero no me sale el nombre, ¿cuál era?":
    "Alex's favourite café is Café Rosa."): those holding two of its telling words or more,
    in its own words or in English. None if none, or no memories are kept."""
    if doing.agent.registry.get("recall") is None or not speaks_of_the_user(doing.request):
        return None
    # the English only when the user's own words found nothing (a model step)
    for words in (doing.request, None):
        words = english_words(doing, doing.request) if words is None else words
        telling = telling_words(words) if words else []
        query = " ".join(telling)

        def plain(found: list[dict[str, Any]] | None, telling: list[str] = telling) -> list[str]:
            return [f for f in _facts(found) if sum(any_word_of(w, f) for w in telling) >= 2]

        if len(telling) >= 2 and plain(_peeked(doing, "recall", query=query)):
            record = doing.call("recall", query=query)  # the lookup made, as the user sees
            held = plain(_items(record) if isinstance(record.result, list) else [])
            if held:
                return doing.say("remembered_list", lines="\n".join(f"- {f}" for f in held[:8]))
    return None


def _holding_words_of(doing: Doing, found: Any) -> list[str]:
    """The memories among `found` (a recall's facts or its items) holding a word of the
    user's request."""
    return [f for f in _facts(found) if any_word_of(doing.request, f)]


def _facts(found: Any) -> list[str]:
    """The memories a recall found (its items or their facts); none from its text saying
    nothing matched, or from a read that could not be made (None)."""
    if not isinstance(found, list):
        return []
    return [str(i.get("fact")) if isinstance(i, dict) else str(i) for i in found]


def _asks_apart_of_memories(doing: Doing) -> bool:
    """Whether the request's question, a sentence apart from those before it and not of the
    user, names things no memory holds ("My partner insists Sydney is the capital of
    Australia. I'm pretty sure that's wrong. Which city is it?"): general knowledge, however
    much the sentences before speak of the user."""
    question = the_question(doing.request)
    clause = asking_clause(question)
    if clause == doing.request.strip() or speaks_of_the_user(clause) or speaks_of_us(clause):
        return False
    if reported_question(question):
        # "My neighbour keeps asking me when the water is off": no sentence apart, and every
        # store, not the memories alone, tells whether it is general ("Ma fille m'a demandé
        # combien de continents il y a, tu sais ?" is)
        return general_question(doing) is not None
    asked = [w for w in telling_words(question) if fold(w) not in ASKING_BACK]
    found = doing.peek("recall", query=question)  # a text when nothing matches
    if not asked or found is None:
        return False
    return not any(any_word_of(" ".join(asked), f) for f in _facts(found))


def _not_remembered(doing: Doing) -> str:
    """Where a question nothing remembered answers goes: a day's question to the calendar
    ("Qu'est-ce que j'ai samedi ?"), one naming someone of the address book to their card
    ("Was weißt du über Jonas?": not the model's guess of a famous Jonas), any other to the
    model's own answer."""
    if _a_day_named(doing):
        return "show_calendar"
    return "find_contact" if one_name_in_contacts(doing) else JUST_ANSWER


def _due(doing: Doing, slots: dict[str, str]) -> str | None:
    when = read_when(slots["due"], doing.now) if slots.get("due") else None
    if when is None:
        return None
    at = when.start_at(doing.now)
    return iso(at) if at is not None else when.day.isoformat()


def _due_before_or_after(doing: Doing, slots: dict[str, str]) -> str | None:
    """A due day or time said from something the calendar or mail dates ("para el día antes
    de la barbacoa": the day before the barbecue Tom's email dates); None if none is."""
    for phrase in (slots.get("due", ""), doing.request):
        relative = read_relative(phrase)
        found = relative_time(doing, phrase, slots.get("title", ""))
        if relative is None or found is None:
            continue
        at = found[0]
        return at.date().isoformat() if whole_days(relative[0]) else iso(at)
    return None


def _due_by(doing: Doing, slots: dict[str, str]) -> str | None:
    """A due day said by a thing the calendar or mail dates, not a day ("vor dem Grillfest",
    "avant la réunion budget", "before Tom's barbecue"): that thing's day; None if none."""
    for phrase in (slots.get("due", ""), doing.request):
        named = read_deadline(phrase, doing.now)
        if named and (day := dated(doing, named)[0]) is not None and day >= doing.now.date():
            return day.isoformat()
    return None


def _a_day_named(doing: Doing) -> date | None:
    """The day the request names, if it names one ("samedi", "last Friday")."""
    when = read_when(doing.request, doing.now)
    return when.day if when is not None and when.day_given else None


# A word of "by when" left at a to-do's end once its day is taken out (folded or not).
_UNTIL_LEFT = re.compile(
    r"[\s,]+(?:by|until|till|before|due|for|on|bis|vor|zum|für|am|avant|pour|jusqu'au|d'ici|"
    r"para|antes del?|hasta)\s*$",
    re.IGNORECASE,
)


def todo_add(doing: Doing, slots: dict[str, str]) -> str:
    said = slots["title"]
    if "title" in doing.from_request:
        # the model's title was not the user's words (translated): the sentence that says
        # the to-do apart from the one asking to add it, else the question
        said = todo_said_around(doing.request) or ""
        if not said and (slot := BY_NAME["add_todo"].slot("title")) is not None:
            raise Ask(doing.question(slot.question), "title")
    title = without_when(doing.users_title(said), slots.get("due", ""), doing.now)
    title = without_the_list(title) or title  # "buy stamps to my to-do list"
    around = todo_said_around(doing.request) if "title" not in doing.from_request else None
    if around and refers_to_someone(title) and not grounded(around, title):
        # "pour répondre à lui": to whom, the sentence before says ("Maria attend mes
        # restrictions alimentaires …"), kept beside it
        title = f"{title[:1].upper()}{title[1:]}: {around}"
    due = _due(doing, slots) or _due_before_or_after(doing, slots) or _due_by(doing, slots)
    if due:  # "Fahrradlicht reparieren bis" of "… bis Sonntag": the day's word goes with it
        title = _UNTIL_LEFT.sub("", title) or title
    record = doing.call("add_task", title=title, due=due)
    done = (
        doing.say("todo_added_due", title=title, due=due)
        if due
        else doing.say("todo_added", title=title)
    )
    return outcome(doing, record, done)


def todo_list(doing: Doing, slots: dict[str, str]) -> str:
    """The open to-dos; with a day or period ("this week"), those due by its end, and what the
    calendar holds then: a day's question is about both, whichever the model took it for."""
    said = read_when(doing.request, doing.now)
    if said is not None and said.day_given and said.window(doing.now)[1] <= doing.now:
        raise Instead("show_calendar")  # "What did I do last Friday evening?": the calendar
    due = _due(doing, slots)
    when = read_when(slots["due"], doing.now) if due is not None else None
    before, window = None, None
    if when is not None:  # "due by Friday": up to the end of that day; "this week": its end
        window = when.window(doing.now)
        at = when.start_at(doing.now)
        before = iso(at) if at is not None and when.days == 1 else iso(window[1])
    done = asks_whether_done(doing.request)  # "have I sent the tax papers yet?"
    tasks = _items(doing.call("list_tasks", due_before=before, **({"done": True} if done else {})))
    # the to-dos the request names, in its words or as the glossary says them ("¿tengo que
    # devolver algo a la biblioteca?": "Return the library books"), else all
    named = most_words_of(doing.request, tasks, "title") or most_words_of(
        glossed(doing.request), tasks, "title"
    )
    if done and named:
        return "\n".join(_done_or_not(doing, t) for t in named)
    tasks = named or [t for t in tasks if not t.get("done")]
    calendar = busy_in(doing, window, "calendar_then") if window is not None else ""
    if not tasks:
        empty = doing.say("no_todos_due", due=due) if due else doing.say("no_todos")
        return empty + calendar
    lines = "\n".join(
        f"- {t.get('title')}" + (doing.say("due_note", due=t.get("due")) if t.get("due") else "")
        for t in tasks
    )
    return doing.say("todos", lines=lines) + calendar


def _done_or_not(doing: Doing, task: dict[str, Any]) -> str:
    """Whether a to-do is done, said with its title (and its due day, if still open)."""
    if task.get("done"):
        return doing.say("todo_is_done", title=task.get("title"))
    due = doing.say("due_note", due=task.get("due")) if task.get("due") else ""
    return doing.say("todo_is_open", title=task.get("title"), due=due)


def names_a_todo(doing: Doing, done: bool = False) -> bool:
    """Whether an open to-do (or, with `done`, one done) holds two of the request's telling
    words, in its words or as the glossary says them in English ("je dois rendre les livres
    à la bibliothèque quand déjà ?": "Return the library books"). Only code looks."""
    # (words counted, none passed on)
    found = doing.peek("list_tasks", untrusted=True, **({"done": True} if done else {}))
    tasks = [t for t in found if isinstance(t, dict)] if isinstance(found, list) else []
    said = [telling_words(doing.request), telling_words(glossed(doing.request))]
    if done:  # "did I already pay the rent?": half the words that are not of being done
        said = [[w for w in words if fold(w) not in _OF_BEING_DONE] for words in said]
    return any(
        (held := sum(any_word_of(w, str(t.get("title") or "")) for w in words)) >= 2
        or (done and held and held * 2 >= len(words))
        for t in tasks
        for words in said
    )


# The words of asking whether something is done (folded), which name no to-do.
_OF_BEING_DONE = {"already", "yet", "done", "finished", "schon", "bereits", "erledigt", "fertig",
                  "deja", "fait", "fini", "ya", "hecho", "hecha"}  # fmt: skip


def todo_done(doing: Doing, slots: dict[str, str]) -> str:
    tasks = _items(doing.call("list_tasks"))
    day = _a_day_named(doing)
    if (
        day is not None
        and not asks_to_tick_off(doing.request)  # "returned them yesterday, tick it off"
        and not most_words_of(doing.request, tasks, "title")
        and not any(str(t.get("due") or "")[:10] == day.isoformat() for t in tasks)
    ):
        raise Instead("show_calendar")  # "What did I do last Friday evening?": no to-do named
    task = _choose(doing, tasks, "task_id", "title", slots, "no_todo_like", intent="complete_todo",
                   like=lambda words, title: grounded(words, title, copied=False))  # fmt: skip
    record = doing.call("complete_task", task_id=task["task_id"])
    return outcome(doing, record, doing.say("todo_done", title=task.get("title")))


def contact(doing: Doing, slots: dict[str, str]) -> str:
    if _CHANGED.search(fold(doing.request)) and (
        ADDRESS.search(doing.request) or _phones_in(doing.request)
    ):
        raise Instead("add_contact")  # "Tom's got a new number, 0176 …": his card changes
    # "Tom's" of "whats his mobile" is Tom; "Mama" may be the card noted "Mum"
    who = " ".join(POSSESSIVE.sub("", w) for w in slots["who"].split()) or slots["who"]
    found: list[dict[str, Any]] = []
    tried = _queries_for(who)
    # "le cabinet dentaire" of the card "Zahnarztpraxis Dr. Weber": the thing in its other
    # languages, after the words as said
    others = [f for w in who.split() for f in forms_of(w) if f not in tried]
    for query in dict.fromkeys([*tried, *others]):
        record = doing.call("find_contact", query=query)
        found = _items(record) if isinstance(record.result, list) else []
        if found:
            break
    if not found and (facts := _remembered(doing, who)):
        # "What's my locker number?": no one of that name, but a memory holds it
        return doing.say("remembered_list", lines="\n".join(f"- {f}" for f in facts[:8]))
    if not found and _ASKS_AN_ADDRESS.search(fold(doing.request)):
        # "C'est quoi l'adresse mail de Lena déjà ?": no card, but she writes to the user
        senders = next((p for q in tried if (p := senders_named(doing, q))), [])
        if senders:
            return "\n".join(doing.say("writes_from", name=p["name"], address=p["emails"][0])
                             for p in senders[:3])  # fmt: skip
    if not found:
        raise FoundNothing(doing.say("no_contact", who=who))
    lines = []
    for person in found[:5]:
        details = [*person.get("emails", []), *person.get("phones", [])]
        lines.append(f"- {person.get('name')}: {', '.join(details) or doing.say('no_details')}")
    card = "\n".join(lines)
    street = asks_where(doing.request) and not _ASKS_AN_ADDRESS.search(fold(doing.request))
    if street and (event := place_of(doing, who)) is not None:
        # "¿cuál es la dirección de la consulta del dentista?": cards keep no street; the
        # calendar's event there does
        card += "\n\n" + doing.say("place_in_calendar", title=event.get("title"),
                                    place=event.get("location"))  # fmt: skip
    names = " ".join([who, *(str(p.get("name")) for p in found[:5])])
    if len(_besides_a_card(doing.request, names)) >= _ASKS_MORE:
        # "sophie keeps chasing me about the nordwind invoice.. whats the PO number finance
        # wanted?": the card, and what the mail or files plainly hold of the rest
        also = answer_from_things(doing, doing.request, plainly=True)
        return f"{card}\n\n{also}" if also else card
    return card


# Words of a contact question that a card answers, in four languages (accents folded, word
# starts): the request's other words, beside the person's name, ask for more than a card.
_CARD_WORDS = re.compile(
    r"(?:number|phone|mobile|cell|e-?mail|mail|address|contact|reach|call|detail|"
    r"telefon|handy|nummer|adress|erreich|anruf|kontakt|numero|portable|courriel|telephon|"
    r"joindre|appel|correo|movil|celular|direcci|llam)"
)
_ASKS_MORE = 3


def names_no_one(request: str) -> bool:
    """Whether a request taken for a contact's details, the person left out (no name
    written that a card holds), asks for no one's ("where did I put the notes from the car
    service? some txt file I think"): no family word, no word of a card."""
    return not kin_words(request) and not any(_CARD_WORDS.match(w) for w in fold(request).split())


# Asking for an email address ("e-mail", "Mailadresse", "courriel", "correo"), folded.
_ASKS_AN_ADDRESS = re.compile(r"e-?mail|mail|courriel|correo")


def _queries_for(who: str) -> list[str]:
    """What the address book is searched for, in order: the words, then the name without the
    card's words around it and a German genitive "s" ("Priyas Nummer": "Priyas", then
    "Priya"; "le portable de Tom": "Tom"), each with its family words."""
    kept = [w for w in who.split() if not _CARD_WORDS.match(fold(w)) and not is_function_word(w)]
    named = " ".join([w for w in kept if w[:1].isupper()] or kept) or who  # "de Tom": "Tom"
    bare = [named[:-1]] if re.fullmatch(r"[A-ZÀ-Þ]\w+[^s]s", named) else []
    return list(dict.fromkeys(q for w in (who, named, *bare) for q in contact_queries(w)))


def _besides_a_card(request: str, names: str) -> list[str]:
    """The request's telling words that are neither the person's name nor a card's."""
    return [
        word
        for word in telling_words(request)
        if not any_word_of(word, names) and not _CARD_WORDS.match(fold(word))
    ]


def _remembered(doing: Doing, words: str) -> list[str]:
    """The memories holding a word of `words`, if memories are kept."""
    if doing.agent.registry.get("recall") is None:
        return []
    record = doing.call("recall", query=words)
    if record.status != "ok" or not isinstance(record.result, list):
        return []
    facts = [str(i.get("fact")) for i in record.result if isinstance(i, dict)]
    return [fact for fact in facts if any_word_of(words, fact)]


def _told_of_another_thing(doing: Doing) -> str | None:
    """ "Finally finished The Remains of the Day last night, just in time for book club"
    taken for a to-do done: a plain answer when the message neither asks anything nor to
    tick something off, names by name something no to-do holds, and no to-do holds two of
    its telling words (or of their English) but the one "book" of "Return the library
    books". German is left out: it writes every noun with a capital."""
    request = doing.request
    if doing.language == "de" or "?" in request or asks_to_tick_off(request):
        return None
    names = [n for n in named_inside(request) if not is_function_word(n)]
    found = doing.peek("list_tasks", untrusted=True)  # words counted, none passed on
    items = found if isinstance(found, list) else []
    titles = [str(t.get("title")) for t in items if isinstance(t, dict)]
    if not names or not titles or any(any_word_of(n, t) for n in names for t in titles):
        return None
    said = f"{request} {glossed(request)}"
    if any(sum(any_word_of(w, said) for w in telling_words(t)) >= 2 for t in titles):
        return None  # two words of a to-do's title said: it may be that to-do
    return JUST_ANSWER


def _a_memory(doing: Doing) -> str | None:
    """A contact's detail asked for that a memory holds, every telling word of the question
    in it ("What's my locker number?": "My gym locker number is 112"): the memory's
    question. Looked at before the person's name is asked."""
    telling = [w for w in content_words(doing.request) if len(w) > 3]
    if len(telling) < 2:
        return None
    facts = _remembered(doing, " ".join(telling))
    whole = [f for f in facts if all(any_word_of(w, f) for w in telling)]
    return "recall_fact" if whole else None


def _choose(
    doing: Doing,
    items: list[dict[str, Any]],
    key: str,
    label: str,
    slots: dict[str, str],
    none_like: str,
    like: Callable[[str, str], bool] = any_word_of,
    intent: str = "",
) -> Any:
    """The one item the user's words name; several: a numbered question, whose answer comes
    back as `slots["chosen"]` (the item's key) beside the words, which find the items again.
    `none_like`: the phrase said when nothing is `like` the words (when the words were the
    user's whole message, `intent`'s own question is asked instead). Words that are an
    item's key (the model copied an id) name that item."""
    words = slots["which"]
    if doing.language == "en" and (said := said_part(words, doing.request)):
        # only the words the user wrote: "tick off the insurance task" for "… those library
        # books … tick that one off" names no insurance (elsewhere the model's words may be
        # a translation of theirs)
        words = said
    keys = {str(slots.get("chosen", "")).strip(), slots["which"].strip()}
    chosen = [i for i in items if str(i.get(key)) in keys]
    chosen = chosen or [i for i in items if like(words, str(i.get(label)))]
    if len(chosen) != 1:
        # None alike, or several: those holding the most of the words, if any hold one
        # ("I've paid the rent, tick it off" names "Pay rent for June" by one word).
        chosen = most_words_of(words, chosen or items, label) or chosen
    if not chosen and (english := english_words(doing, words)):
        # "die Bücher in die Bibliothek" of the to-do "Return library books"
        chosen = most_words_of(english, items, label)
    # The model's words name nothing ("the tâche courses as faite"): family as the user
    # calls them ("… pour l'anniversaire de maman, tu peux marquer la tâche comme faite ?":
    # "Buy a birthday present for Mum"), else the request's own words, do.
    if not chosen and (kin := kin_words(doing.request)):
        chosen = [i for i in items if any(any_word_of(k, str(i.get(label))) for k in kin)]
    if not chosen and words != doing.request:
        chosen = most_words_of(doing.request, items, label)
    if not chosen and (things := glossed(doing.request)):
        # "J'ai fini de réparer la lumière du vélo": the everyday things it names in English
        # ("light bike"), of "Fix the bike light"
        chosen = most_words_of(things, items, label)
    if not chosen and doing.language != "en" and (english := english_words(doing, doing.request)):
        # "supprime le rappel pour le passeport": the request in English names "Renew
        # passport"
        chosen = most_words_of(english, items, label)
    shown = items[:9]  # one digit each
    if not chosen and (picked := doing.pick(_WHICH_ITEM, [str(i.get(label)) for i in shown])):
        # no word of theirs in any language names one ("Hab endlich das Fahrradlicht
        # repariert" of "Fix the bike light"): the one the model picks in both orders
        chosen = [shown[picked - 1]]
    slot = BY_NAME[intent].slot("which") if intent else None
    if not chosen and slot is not None and "which" in doing.from_request:
        raise Ask(doing.question(slot.question), "which")  # the whole message named nothing
    if not chosen:
        raise Ask(doing.say(none_like, words=words), "which")
    if len(chosen) > 1:
        choices = [(i[key], str(i.get(label))) for i in chosen]
        raise numbered(doing.say("which_one"), "chosen", choices)
    return chosen[0]


# The narrow question `_choose` asks the model when no words name an item.
_WHICH_ITEM = "Which of these items is the user's message about?"


def forget(doing: Doing, slots: dict[str, str]) -> str:
    words = slots["which"]
    if (seen := _peeked(doing, "recall", query=words)) is not None:
        _a_new_reminder(doing, seen, "fact")
    record = doing.call("recall", query=words)
    facts = _items(record) if isinstance(record.result, list) else []
    if seen is None:  # code could not look first: the lookup's own result decides
        _a_new_reminder(doing, facts, "fact")
    if not facts:
        return doing.say("nothing_remembered", about=words)
    fact = _choose(doing, facts, "memory_id", "fact", slots, "no_memory_like",
                   intent="forget_fact")  # fmt: skip
    done = doing.call("forget", memory_id=fact["memory_id"])
    return outcome(doing, done, doing.say("forgotten", fact=fact.get("fact")))


def _peeked(doing: Doing, tool: str, **arguments: Any) -> list[dict[str, Any]] | None:
    """What code alone sees of a read (`Doing.peek`), for telling a new reminder taken for
    a cancel from the cancel: a request that is a new reminder then leaves no lookup in the
    conversation, and nothing read that could make its own words untrusted. None when code
    could not look (then the steps' own lookup decides)."""
    found = doing.peek(tool, **arguments)
    if isinstance(found, list):
        return [item for item in found if isinstance(item, dict)]
    # A store with nothing in it says so in words ("Nothing remembered matches."): empty.
    return [] if isinstance(found, str) else None


def _reminders(doing: Doing) -> list[dict[str, Any]]:
    record = doing.call("list_reminders")
    return _items(record) if isinstance(record.result, list) else []


def reminders_list(doing: Doing, slots: dict[str, str]) -> str:
    pending = _reminders(doing)
    if not pending:
        return doing.say("no_reminders")
    lines = "\n".join(
        f"- {doing.dated(datetime.fromisoformat(str(r['at'])), 'dd')} "
        f"{datetime.fromisoformat(str(r['at'])):%H:%M}: {r.get('text')}"
        for r in pending
    )
    return doing.say("reminders", lines=lines)


def _a_new_reminder(
    doing: Doing,
    items: list[dict[str, Any]],
    label: str,
    reminders: Sequence[dict[str, Any]] = (),
) -> None:
    """A request taken for cancelling a reminder or forgetting a fact that names a time of
    day (or an amount before or after something, asking to be reminded), while none of
    `items` holds its words and no reminder is set then, asks for a new reminder
    ("Rappelle-moi de sortir les poubelles ce soir", "don't let me forget to water the
    plants at 7pm"): `Instead`, before anything is changed."""
    when = read_when(doing.request, doing.now)
    # an amount before or after something ("Recuérdame dos días antes de la fecha límite
    # para cancelar el gimnasio") is a time too
    relative = read_relative(doing.request) is not None
    if not relative and (when is None or (when.start is None and when.part is None)):
        return
    if most_words_of(doing.request, items, label):
        return
    if asks_for_a_reminder(doing.request):
        raise Instead("set_reminder")  # "Rappelle-moi demain à 8h de …": whatever is then
    if when is None or (when.start is None and when.part is None):
        return
    start, end = when.window(doing.now)
    if when.start is not None:
        start = end = when.start_at(doing.now) or start
    for reminder in reminders:
        at = datetime.fromisoformat(str(reminder.get("at")))
        if start <= at.astimezone(doing.now.tzinfo) <= end:
            return
    raise Instead("set_reminder")


def reminder_cancel(doing: Doing, slots: dict[str, str]) -> str:
    if (seen := _peeked(doing, "list_reminders")) is not None:
        _a_new_reminder(doing, seen, "text", seen)
    pending = _reminders(doing)
    if seen is None:  # code could not look first: the listing's own result decides
        _a_new_reminder(doing, pending, "text", pending)
    if not speaks_of_a_reminder(doing.request) and not most_words_of(
        doing.request, pending, "text"
    ):
        # "cancel my 1:1 with sophie tomorrow": no reminder named, nor one holding its words:
        # an event (asked which, if none holds them either)
        raise Instead("cancel_event", read={"event": slots["which"], "when": ""})
    if not pending:
        return doing.say("no_reminders")
    reminder = _choose(doing, pending, "reminder_id", "text", slots, "no_reminder_like",
                       intent="cancel_reminder")  # fmt: skip
    record = doing.call("cancel_reminder", reminder_id=reminder["reminder_id"])
    return outcome(doing, record, doing.say("reminder_cancelled", text=reminder.get("text")))


def move_todo(doing: Doing, slots: dict[str, str], wholly: bool = False) -> str | None:
    """A to-do's new due day, when what is moved is one ("push the car insurance task back to
    the 28th"): one open to-do holds the words (`wholly`: all of them), and there is a day to
    move it to. None otherwise."""
    to = read_when(slots.get("to", ""), doing.now)
    if doing.agent.registry.get("list_tasks") is None or to is None or not to.day_given:
        return None
    record = doing.call("list_tasks")
    if record.status != "ok":
        return None
    words, tasks = slots.get("event", ""), _items(record)
    named = _named(words, tasks, "title", wholly)
    if not named and (english := english_words(doing, words)):
        named = _named(english, tasks, "title", wholly)  # "l'assurance auto": "car insurance"
    due = _due(doing, {"due": slots["to"]})
    if len(named) != 1 or due is None:
        return None
    task = named[0]
    changed = doing.call("update_task", task_id=task["task_id"], due=due)
    return outcome(doing, changed, doing.say("todo_due_moved", title=task.get("title"), due=due))


def _named(words: str, items: list[dict[str, Any]], label: str, wholly: bool) -> list[Any]:
    """The items holding the most of `words` (`wholly`: only those holding all of them)."""
    named = most_words_of(words, items, label)
    return [i for i in named if grounded(words, str(i.get(label) or ""))] if wholly else named


def move_reminder(doing: Doing, slots: dict[str, str], wholly: bool = False) -> str | None:
    """A reminder at a new time, when what is moved is one ("move my passport reminder to
    1 June at 9"): one pending reminder holds the words, and there is a time to move it to.
    The new one is set before the old one is cancelled, so a refusal loses nothing. None
    otherwise."""
    to = read_when(slots.get("to", ""), doing.now)
    if doing.agent.registry.get("list_reminders") is None or to is None:
        return None
    named = _named(slots.get("event", ""), _reminders(doing), "text", wholly)
    if len(named) != 1:
        return None
    old = named[0]
    before = datetime.fromisoformat(str(old["at"]))
    at = to.start_at(doing.now)
    if at is None:  # a day alone: the same time of day as before
        at = datetime.combine(to.day, before.astimezone(doing.now.tzinfo).timetz())
    text = str(old.get("text"))
    record = doing.call("set_reminder", text=text, at=iso(at))
    if record.status != "ok":
        return outcome(doing, record, "")
    cancelled = doing.call("cancel_reminder", reminder_id=old["reminder_id"])
    return outcome(doing, cancelled, doing.say("reminder_set", at=at, what=text))


# A phone number as people write one: a + or a digit, then digits with spaces, dashes,
# dots, slashes or brackets between, seven digits at least.
_PHONE = re.compile(r"(?<![\w@.])\+?\(?\d[\d\s./()-]{5,}\d(?![\w@])")


def _phones_in(text: str) -> list[str]:
    """The phone numbers `text` types (seven digits or more), as typed."""
    found = _PHONE.findall(text)
    return [" ".join(p.split()) for p in found if sum(ch.isdigit() for ch in p) >= 7]


def tells_new_details(request: str) -> bool:
    """Whether `request` types an email address or a phone number said to be someone's new
    one ("save 0176 5551234 as priya's new mobile number", "Tom hat eine neue Adresse: …")."""
    typed = bool(ADDRESS.search(request) or _phones_in(request))
    return typed and bool(_CHANGED.search(fold(request)))


def contact_add(doing: Doing, slots: dict[str, str]) -> str:
    """The name from the model; the addresses and numbers read by code from the user's own
    words, exactly as typed."""
    emails = ADDRESS.findall(doing.request)
    phones = _phones_in(doing.request)
    # The model may copy the address or number as the name: they are not one; nor is a
    # name said over and over ("Anna Schulz Anna Schulz …") more than once.
    name = _once(" ".join(_PHONE.sub(" ", ADDRESS.sub(" ", slots["name"])).split()).strip(" ,;:"))
    name = _the_name_before_the_rest(name)
    name = _as_written(name or named_by_address(doing.request, emails), doing.request, doing.now)
    spelt = named_by_address(doing.request, emails)
    if len(name.split()) == 1 and len(spelt.split()) > 1 and fold(name) in fold(spelt).split():
        name = spelt  # "Brandt" of "Add Lukas Brandt …: lukas.brandt@…": the whole name
    if not name:
        raise Ask(doing.say("person_name"), "name")
    if (emails or phones) and _CHANGED.search(fold(doing.request)):
        card = _the_card(doing, name)
        if card is not None:
            # "Tom has a new email address: …": his card changed (the dialog shows the old
            # and the new), not a second Tom
            changes = {"emails": emails} if emails else {}
            changes |= {"phones": phones} if phones else {}
            record = doing.call("update_contact", contact_id=card["contact_id"], **changes)
            said = ", ".join([*emails, *phones])
            return outcome(doing, record, doing.say("contact_changed", name=card.get("name"),
                                                    details=said))  # fmt: skip
    if not emails and not phones and (line := _line_of_a_named_file(doing, name)):
        # "Mail und Handynr. stehen in der contacts.csv": what the file's one line holding
        # the name gives, and the name as the file writes it when the request does too
        # ("Schulz" copied from "Anna Schulz fehlt …": "Anna Schulz")
        emails, phones = ADDRESS.findall(line), _phones_in(ADDRESS.sub(" ", line))
        written = re.split(r"[,;\t|]", line)[0].strip(' "')
        if set(_letters(name)) <= set(_letters(written)) and grounded(written, doing.request):
            name = written
    if not emails and _THEIR_MAIL.search(fold(doing.request)):
        # "Ihre Mailadresse findest du in ihren Mails an mich": the one sender of that name
        # (the dialog shows the address before the card is made)
        wrote = [p for p in senders_named(doing, name) if grounded(name, str(p.get("name")))]
        emails = [str(wrote[0]["emails"][0])] if len(wrote) == 1 else []
    if name == name.lower():  # "add jamie to my contacts": a name is written "Jamie"
        name = " ".join(w[:1].upper() + w[1:] for w in name.split())
    record = doing.call("add_contact", name=name, emails=emails, phones=phones)
    said = ", ".join([*emails, *phones])
    done = (
        doing.say("contact_added_details", name=name, details=said)
        if said
        else doing.say("contact_added", name=name)
    )
    return outcome(doing, record, done)


# The little words inside a family name ("Ludwig van Beethoven", "Ana de la Cruz").
_NAME_PARTICLES = {"von", "van", "der", "den", "de", "del", "la", "le", "da", "di", "du", "dos"}


def _line_of_a_named_file(doing: Doing, name: str) -> str:
    """The one line holding every word of `name` in the file the request names by its file
    name ("… stehen in der contacts.csv"); "" if it names none, or no line or several hold
    the name."""
    request = ADDRESS.sub(" ", doing.request)  # (an address is no file name)
    if not name or not FILE_NAME.search(request):
        return ""
    for path in files_named(doing, request)[:1]:
        wanted = set(_letters(name))
        lines = [
            line
            for line in read_text(doing, path).splitlines()
            if wanted <= set(_letters(ADDRESS.sub(" ", line)))  # (not "Lena Sommerfeld")
        ]
        if len(lines) == 1:
            return lines[0]
    return ""


def _letters(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]+", fold(text))


def _the_name_before_the_rest(name: str) -> str:
    """The capitalised words a name starts with, when the model went on past it with the
    request's words ("Jonas Weber to my contacts, his number is"): "Jonas Weber"."""
    words = name.split()
    kept: list[str] = []
    for word in words:
        if not (word[:1].isupper() or (kept and word in _NAME_PARTICLES)):
            break
        kept.append(word)
    while kept and kept[-1] in _NAME_PARTICLES:
        kept.pop()
    rest = words[len(kept) :]
    return " ".join(kept).strip(" ,;:") if kept and len(rest) >= 2 else name


# Words saying someone's address or number is another now (folded): "new", "changed",
# "update", "neue", "geändert", "nouvelle", "a changé", "mets à jour", "nuevo", "cambió".
_CHANGED = re.compile(
    r"\b(?:changed?|updated?|swap|replace|switch\w*|geandert|andert|aendern|aktualisier\w*|"
    r"ersetz\w*|mets? a jour|mettre a jour|remplace[rz]?|change[rz]?|cambi\w*|actualiz\w*|"
    r"reemplaz\w*|"
    # a new address or number ("a new email address", "eine neue Handynummer", "sa nouvelle
    # adresse", "su nuevo móvil"), not a new person ("my new colleague Lena")
    r"(?:new|neue[nrs]?|nouvel(?:le)?|nouveau|nuev[oa])\s+(?:\w+\s+)?(?:e-?mail|mail\w*|"
    r"address|number|mobile|phone|\w*nummer|handy|adresse|numero|portable|correo|direccion|"
    r"movil|telefono)|"
    # the old one gone ("from now on he's …", "the old address won't work anymore")
    r"from now on|anymore|no longer|ab jetzt|nicht mehr|desormais|ne \w+ plus|ya no|"
    r"a partir de ahora)\b"
)


def _the_card(doing: Doing, name: str) -> dict[str, Any] | None:
    """The one contact whose name holds all of `name`'s words ("Tom": "Tom Becker"); None if
    none or several."""
    record = doing.call("find_contact", query=name)
    cards = [c for c in _items(record) if c.get("contact_id")]
    named = [c for c in cards if grounded(name, str(c.get("name") or ""))]
    return named[0] if len(named) == 1 else None


# The user's mail spoken of, where a new card's address is to be found (folded).
_THEIR_MAIL = re.compile(r"\b(?:e-?mails?|mails?|courriels?|correos?|mensajes?|nachrichten)\b")


def _once(name: str) -> str:
    """A name the model wrote several times over, once ("Anna Schulz Anna Schulz")."""
    words = name.split()
    for size in range(1, len(words) // 2 + 1):
        if len(words) % size == 0 and words == words[:size] * (len(words) // size):
            return " ".join(words[:size])
    return name


def _as_written(name: str, request: str, now: datetime) -> str:
    """`name` in the order and spelling the request writes its words together ("Haddad
    Karim" of "… neighbour from downstairs, Karim Haddad - …": "Karim Haddad"); else as
    it is."""
    words = name.split()
    if not words:
        return name
    said = re.findall(r"[^\W\d_][\w'’-]*", request)
    wanted = sorted(fold(w) for w in words)
    for start in range(len(said) - len(words) + 1):
        run = said[start : start + len(words)]
        if len(words) > 1 and sorted(fold(w) for w in run) == wanted:
            return " ".join(run)
    # a first name the request writes with the family name after it ("Anna Schulz ist gar
    # nicht in meinem Adressbuch"): the whole name
    whole = re.search(rf"\b{re.escape(name)}\s+([A-ZÄÖÜÉ][a-zäöüßéèáíóúñ-]+)\b", request)
    if (
        len(words) == 1
        and whole
        and not is_function_word(whole.group(1))
        and read_when(whole.group(1), now) is None  # "Anna Montag": a day
    ):
        return f"{name} {whole.group(1)}"
    if (
        len(words) == 1
        and _typed_in_lower_case(request)
        and (lower := _family_name_after(name, request, now))
    ):
        # all typed in lower case ("kannst du jamie clarke bei meinen kontakten anlegen?"):
        # capitals say nothing, the word after the first name is the family name
        return f"{name} {lower}".title()
    # a family name the request writes with the first name before it ("Weirdly Anna Schulz
    # isn't in my contacts": "Anna Schulz", not "Schulz")
    first = re.search(rf"\b([A-ZÄÖÜÉ][a-zäöüßéèáíóúñ-]+)\s+{re.escape(name)}\b", request)
    if (
        len(words) == 1
        and first
        and not is_function_word(first.group(1))
        and read_when(first.group(1), now) is None
        and first.start() > 0  # not the sentence's first word alone ("Weirdly Schulz …")
        and not re.search(r"[.!?]\s*$", request[: first.start()])
    ):
        return f"{first.group(1)} {name}"
    return name


# Words saying what is given of someone, not a name ("jamie mail ist …", "sam phone …").
_DETAIL_WORDS = re.compile(
    r"(?:e-?mail\w*|mail\w*|address\w*|adresse\w*|phone\w*|number|nummer|handy\w*|mobile?|"
    r"tel\w*|numero|portable|correo|movil|contacts?|kontakt\w*|stp|pls|plz|svp|porfa|"
    r"favor)"
)


def _family_name_after(name: str, request: str, now: datetime) -> str:
    """The word after `name` in a request typed all in lower case, when it can be a family
    name: letters only, no little word, day, or word for an address or number."""
    after = re.search(rf"\b{re.escape(name.lower())}\s+([^\W\d_][\w'-]+)\b", request)
    if after is None:
        return ""
    word = after.group(1)
    if (
        len(word) < 2
        or is_function_word(word)
        or read_when(word, now) is not None
        or _DETAIL_WORDS.fullmatch(fold(word))
    ):
        return ""
    return word


def one_name_in_contacts(doing: Doing) -> str:
    """The one name the request writes that a card of the address book holds ("Tom" of
    "Tom's got a new phone", the card "Tom Becker"); "" if none or several. Only code reads
    the cards."""
    held: dict[str, set[str]] = {}  # each name held, and the cards holding it
    for name in names_written(doing) or lower_case_names(doing):
        found = doing.peek("find_contact", untrusted=True, query=name)
        cards = found if isinstance(found, list) else []
        holding = {
            str(c.get("name")) for c in cards
            if isinstance(c, dict) and grounded(name, str(c.get("name") or ""))
        }  # fmt: skip
        if holding:
            held[name] = holding
    if len(held) > 1 and len(set.intersection(*held.values())) == 1:
        # first and family name written apart ("who is helen morgan?"): one card, both
        return " ".join(sorted(held, key=lambda n: fold(doing.request).find(fold(n))))
    return next(iter(held)) if len(held) == 1 else ""


def lower_case_names(doing: Doing) -> list[str]:
    """In a request typed in lower case (`_typed_in_lower_case`), the words that may be a
    name ("priyas" of "whats priyas mobile number again?": "priya" too), a few at most:
    capitals say nothing there."""
    if not _typed_in_lower_case(doing.request):
        return []
    words = [
        POSSESSIVE.sub("", w)  # "priya's": "priya"
        for w in re.findall(r"\b[^\W\d_][\w'’-]{2,}", doing.request)
        if not is_function_word(w) and not names_a_time(w, doing.now)
    ]
    stems = [w[:-1] for w in words if w.endswith("s") and len(w) > 4]  # "priyas": "priya"
    return list(dict.fromkeys(stems + words))[:_LOOKED_AT]


def _typed_in_lower_case(text: str) -> bool:
    """Whether `text` writes no word inside a sentence with a capital and then small
    letters: a sentence's first word ("Can you …", a phone's capital) and a word in capitals
    ("PO", "TB") say nothing of how names are typed."""
    inside = re.sub(r"(?:^|[.!?]\s+)\W*[\w'’-]+", " ", text)
    return not any(
        w[0].isupper() and not w.isupper() for w in re.findall(r"[^\W\d_][\w'’-]*", inside)
    )


def names_capitalised(doing: Doing) -> str:
    """A request typed in lower case with the names its address book holds written as
    the cards write them ("can you email jonas" → "… Jonas", "priyas" → "Priya's"): the rules
    that find a person, and the model, read capitals. The request's first word is left (a
    verb like "mark" may be someone's name). Only code reads the cards."""
    text = doing.request
    first = re.match(r"\W*([^\W\d_][\w'’-]*)", text)
    for word in lower_case_names(doing):
        if first is not None and fold(first.group(1)).startswith(fold(word)):
            continue
        found = doing.peek("find_contact", untrusted=True, query=word)
        if found is None:
            break  # no address book (or it failed): nothing more to ask of it
        cards = found if isinstance(found, list) else []
        names = " ".join(str(c.get("name") or "") for c in cards if isinstance(c, dict))
        spelt = next((n for n in names.split() if fold(n) == fold(word)), "")
        if spelt:  # "priyas": "Priya's", the possessive the rules read
            # (not inside an address typed: "jamie@example.test")
            text = re.sub(rf"(?<![@.])\b{re.escape(word)}s\b(?![@.]\w)", f"{spelt}'s", text)
            text = re.sub(rf"(?<![@.])\b{re.escape(word)}(?=(?:['’]s)?\b)(?![@.]\w)", spelt, text)
    return text


# The words of a lower-case request looked up in the address book, at most.
_LOOKED_AT = 6


def named_by_address(request: str, emails: list[str]) -> str:
    """The person's name as the request writes it, where their address spells it
    ("Lukas Brandt" for lukas.brandt@example.de); "" if the address names no words of it."""
    for address in emails:
        parts = {fold(p) for p in re.split(r"[._+-]+", address.split("@")[0]) if len(p) > 1}
        said = [POSSESSIVE.sub("", w) for w in re.findall(r"[^\W\d_][\w'’-]*",
                                                         ADDRESS.sub(" ", request))]  # fmt: skip
        words = [w for w in said if fold(w) in parts]  # "Tom's" of tom.becker@…: Tom
        if words:
            return " ".join(dict.fromkeys(words))
    return ""


STEPS: dict[str, Steps] = {
    "set_reminder": reminder,
    "remember_fact": remember,
    "recall_fact": recall,
    "add_todo": todo_add,
    "list_todos": todo_list,
    "complete_todo": todo_done,
    "find_contact": contact,
    "forget_fact": forget,
    "list_reminders": reminders_list,
    "cancel_reminder": reminder_cancel,
    "add_contact": contact_add,
}

BEFORE: dict[str, Before] = {"find_contact": _a_memory, "complete_todo": _told_of_another_thing}
