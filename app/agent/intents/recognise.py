"""Which intent a message is, and its slots: a choice read from the model's probabilities,
then one constrained step for the slots, checked by code.

A local model is asked which intent the message is as a conversation of worked examples
(message, then the intent's name as the reply) ending in the user's message, and each
intent's name is scored as the reply: no generation, every intent compared, only their names
possible. The chosen intent's slots are then written in one step under the call grammar
(`tool_choice="required"`, `only_call`): well-formed by construction. A backend that cannot
score (a server, a script) writes the call to one of the intents as functions instead. The
prompts hold nothing that changes between requests (no date, no history) and so stay in the
model's prompt cache: a request costs only its own words.

Code then keeps only slot values grounded in what the user wrote: a name, a day or an item
the model invented is dropped and, if the steps need it, asked for.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cache
from typing import Any

from app import clock
from app.agent.intents.catalog import (
    AREA_BY_NAME,
    AREAS,
    BY_NAME,
    INTENTS,
    JUST_ANSWER,
    Intent,
    Slot,
)
from app.agent.intents.language import names_the_calendar, only_asks, sentences
from app.agent.intents.when import in_digits, is_part_of_day, read_when
from app.agent.turn.loop import add_stats
from app.llm.backend import (
    GenerationStats,
    ModelBackend,
    SamplingSettings,
    ScoresReplies,
    StepRequest,
    StepResult,
)
from app.store.documents import content_words
from connectors.folding import fold

INTENT_PROMPT = (
    "You sort a user's message into exactly one of the functions below and copy its details. "
    "Call the one function that fits the user's message best. Fill a parameter only with "
    "words the user wrote (keep dates and times in the user's own words, e.g. 'next Tuesday "
    "at 3pm'); leave out what the user did not say. Messages may be in any language."
)


def _example_rows() -> list[tuple[str, str]]:
    """(intent, example) pairs taken in turns (one of each, then the second of each, ...) so
    no intent's examples sit together at the end, where a small model's attention is."""
    rows = []
    for index in range(max(len(intent.examples) for intent in INTENTS)):
        rows += [
            (intent.name, intent.examples[index])
            for intent in INTENTS
            if index < len(intent.examples)
        ]
    return rows


_EXAMPLE_ROWS = _example_rows()

# Classification, not writing: the most likely intent, every time.
RECOGNITION_SAMPLING = SamplingSettings(
    temperature=0.0, top_k=1, top_p=1.0, min_p=0.0, repeat_penalty=1.0, max_tokens=200
)

# Kinds whose values must appear in the user's words (a copied phrase). `text` may be
# reworded a little ("that I'm late" → "I am running late"), so half its own words will do
# (words another slot holds, such as the recipient's name, do not count). A `thing` needs
# one of its words in the request: it may be half translated ("the Jonas meeting" for "das
# Meeting mit Jonas") and is then looked up among the user's real events, emails and to-dos,
# but a value with no word from the request is the model repeating an example.
_COPIED = {"when", "duration", "shift", "person"}
_CHECKED_BY_DATA = {"thing"}


@dataclass
class Recognised:
    intent: Intent
    slots: dict[str, str] = field(default_factory=dict)
    dropped: dict[str, str] = field(default_factory=dict)  # values not found in the request
    stats: GenerationStats = field(default_factory=GenerationStats)
    # The intents the choice was close between (`CLOSE`), this one among them; the steps
    # may find in the user's data that the request is another of them (`router.Instead`).
    close: tuple[str, ...] = ()


def recognition_request(text: str, intents: tuple[Intent, ...] = INTENTS) -> StepRequest:
    """The recognition step for `text` among `intents` (all of them, or one area's)."""
    names = {intent.name for intent in intents}
    shown = [(i, e) for i, e in _EXAMPLE_ROWS if i in names]
    prompt = INTENT_PROMPT + "\n\nExamples of messages and the function each one calls:\n"
    prompt += "\n".join(f'- "{example}" → {name}' for name, example in shown)
    return StepRequest(
        messages=[{"role": "system", "content": prompt}, {"role": "user", "content": text}],
        tools=[intent.spec for intent in intents],
        sampling=RECOGNITION_SAMPLING,
        tool_choice="required",
    )


CHOICE_PROMPT = (
    "You sort a user's message into the one kind of request it is, and answer with that "
    "kind's name alone. Messages may be in any language. The kinds:\n"
)


def choice_request(text: str, intents: tuple[Intent, ...] = INTENTS) -> StepRequest:
    """Which intent `text` is, asked as a reply after worked examples given as turns of
    the conversation (a small model copies a demonstrated answer better than it follows a
    list); the examples end the shared prefix, so a request costs only its own words."""
    names = {intent.name for intent in intents}
    kinds = "\n".join(
        f"- {intent.name}: {intent.description.split(' Example')[0]}" for intent in intents
    )
    messages: list[dict[str, Any]] = [{"role": "system", "content": CHOICE_PROMPT + kinds}]
    for name, example in _EXAMPLE_ROWS:
        if name in names:
            messages += [
                {"role": "user", "content": example},
                {"role": "assistant", "content": name},
            ]
    return StepRequest(
        messages=[*messages, {"role": "user", "content": text}],
        sampling=RECOGNITION_SAMPLING,
        shared_messages=len(messages),
    )


def area_request(text: str) -> StepRequest:
    """The first step of two-stage recognition: which area a message is about."""
    areas = {name: area for area in AREAS for name in area.intents}
    rows = [f'- "{example}" → {areas[name].name}' for name, example in _EXAMPLE_ROWS]
    prompt = (
        "You sort a user's message by what it is about: call the one function that fits. "
        "Messages may be in any language.\n\nExamples:\n" + "\n".join(rows)
    )
    return StepRequest(
        messages=[{"role": "system", "content": prompt}, {"role": "user", "content": text}],
        tools=[area.spec for area in AREAS],
        sampling=RECOGNITION_SAMPLING,
        tool_choice="required",
    )


# A choice this close (log-probability of the best name over the next one's) is asked once
# more among the few best alone, each with its own examples: with no other intents' examples
# in the prompt, the model weighs those few on their own. Measured on the 0.5B model over 173
# requests in four languages (bench/intent_recognition.py's two sets and 72 more written
# apart): 125 right choosing once, 134 asking again below a margin of 1.0 among the best five
# (it changed 24 choices: 13 to the right one, 4 away from it); among the best three, 132.
# Asked again always: 131. A close choice is about one request in five.
# A plain answer chosen first is kept, close or not: asked again, only the close intents'
# examples are shown, and a knowledge question loses to any of theirs (on the same 173 the
# count is the same, 134; of eight knowledge questions in four languages written apart, the
# re-ask turned five plain answers into a calendar, memory or mail lookup).
CLOSE = 1.0
RECONSIDERED = 5


def scored_choice(
    backend: ScoresReplies, text: str, intents: tuple[Intent, ...], cancel: threading.Event
) -> tuple[Intent, tuple[str, ...]] | None:
    """The intent whose name the model finds the most likely reply to `text` after the
    worked examples, only the intents' names allowed; a close call is asked again among the
    few best (`CLOSE`); with the names it was close between. None if cancelled.

    Measured on the 0.5B model (bench/intent_recognition.py, its design set): 41 of 48
    right this way, 27 of 48 scoring the name as the call the model would open after the
    same examples listed in the system prompt. Dividing out the model's prior for each name
    (its scores for messages that say nothing, "contextual calibration") made both worse
    (30 and 23 of 48): kept out."""
    names = [intent.name for intent in intents]
    scores = backend.score_replies(choice_request(text, intents), names, cancel)
    if scores is None:
        return None
    ranked = sorted(names, key=lambda name: scores[name], reverse=True)
    close = tuple(name for name in ranked if scores[ranked[0]] - scores[name] < CLOSE)
    if len(ranked) <= 2 or len(close) == 1 or ranked[0] == JUST_ANSWER:
        return BY_NAME[ranked[0]], close
    few = tuple(intent for intent in intents if intent.name in ranked[:RECONSIDERED])
    # Nothing of this prompt is kept: it is one of many subsets, seldom asked twice.
    again = replace(choice_request(text, few), shared_messages=0)
    among_few = backend.score_replies(again, [intent.name for intent in few], cancel)
    if among_few is None:
        return None
    # Nor does asking again make a plain answer of what was not one first ("Is anything
    # happening on the 24th?": a calendar question; on the 173 requests above, asking again
    # never chose a plain answer the first choice had not).
    kept = [intent for intent in few if intent.name != JUST_ANSWER]
    return max(kept, key=lambda intent: among_few[intent.name]), close


def recognise(
    backend: ModelBackend,
    text: str,
    cancel: threading.Event,
    staged: bool = False,
    scored: bool = True,
) -> Recognised | None:
    """The intent of `text` with its grounded slots; None when the model gave no usable call
    (the caller falls back to the free loop). A backend that can score replies (the local
    runtime) chooses the intent by likelihood (`scored_choice`) and then fills only its
    slots; others choose by writing the call. `staged`: first the area, then the intents of
    that area alone (two short choices instead of one among twenty). `scored=False`: choose
    by writing even where scoring is possible (to compare the two)."""
    if scored and not staged and isinstance(backend, ScoresReplies):
        choice = scored_choice(backend, text, INTENTS, cancel)
        if choice is None:
            return None
        chosen, close = choice
        if not chosen.slots:
            return Recognised(chosen, close=close)
        filled = fill_slots(backend, text, chosen, cancel)
        return replace(filled, close=close) if filled is not None else None
    intents = INTENTS
    area_stats = GenerationStats()
    if staged:
        first = backend.step(area_request(text), lambda _event: None, cancel)
        area_stats = first.stats
        area = AREA_BY_NAME.get(first.calls[0].name) if first.calls else None
        if area is None:
            return None
        intents = tuple(BY_NAME[name] for name in area.intents)
        if len(intents) == 1 and not intents[0].slots:
            return Recognised(intents[0], stats=area_stats)
    result = backend.step(recognition_request(text, intents), lambda _event: None, cancel)
    add_stats(result.stats, area_stats)
    return _grounded(result, text)


def _echoes_its_description(value: str, description: str, text: str) -> bool:
    """Whether `value` holds two words or more of the slot's or intent's own description
    that the request does not say (the model wrote what the slot is for, not what the user
    said)."""
    described = set(_words(description)) - set(_FILLER)
    echoed = {w for w in _words(value) if w in described and len(w) > 2}
    return len({w for w in echoed if not any_word_of(w, text)}) >= 2


def fill_slots(
    backend: ModelBackend, text: str, intent: Intent, cancel: threading.Event
) -> Recognised | None:
    """`intent`'s slots from `text`, in one step held to that intent (`only_call`) under the
    call grammar, kept where grounded; None when the model gave no usable call."""
    request = replace(recognition_request(text), only_call=intent.name)
    return _grounded(backend.step(request, lambda _event: None, cancel), text)


def _grounded(result: StepResult, text: str) -> Recognised | None:
    """The intent the step called, keeping only the slot values grounded in `text`."""
    if not result.calls:
        # A backend without the grammar (a server) may name an intent and leave a slot out:
        # the intent stands, and its steps ask for what is missing.
        named = [p.tool for p in result.problems if p.tool in BY_NAME]
        return Recognised(BY_NAME[named[0]], stats=result.stats) if named else None
    call = result.calls[0]
    intent = BY_NAME.get(call.name)
    if intent is None:
        return None
    recognised = Recognised(intent, stats=result.stats)
    values = {
        name: _without_repeats(" ".join(str(value).split()))
        for name, value in call.arguments.items()
    }
    for name, value in values.items():
        slot = intent.slot(name)
        if slot is None or not value:
            continue
        if slot.kind == "thing" and _echoes_its_description(
            value, f"{slot.description} {intent.description}", text
        ):
            # "Sam's shop or payee, if said" for "the shop or payee, if said", "haircut files,
            # notes or documents" for "… the user's files, notes or documents": the model
            # copied what the slot or intent is, not the user's words (a text's echoed
            # examples are cut below)
            recognised.dropped[name] = value
            continue
        if slot.kind == "person" and _an_address_not_written(value, text):
            # An address the request does not write is the model's: the name the user wrote
            # in it stands ("greta@example.com" for "Schreib Greta"), not a word of something
            # else ("legumes@example.com" for "ma recette de lasagnes aux légumes")
            if said_name := _name_in_address(value, text):
                recognised.slots[name] = said_name
            else:
                recognised.dropped[name] = value
            continue
        if slot.kind == "text" and (
            _an_examples_number(value, text) or not (value := _without_echoed_examples(value, text))
        ):
            recognised.dropped[name] = values[name]
            continue
        # A person's name beside a text ("Hi Tom" to "Tom") is no evidence the text is the
        # user's; words another item slot holds are (the model may put them in both).
        others = " ".join(
            v for n, v in values.items() if n != name and _kind(intent, n) == "person"
        )
        if (slot.kind in _CHECKED_BY_DATA and any_word_of(value, text)) or grounded(
            _without_words_of(value, others) if slot.kind == "text" else value,
            text,
            copied=slot.kind in _COPIED,
        ):
            recognised.slots[name] = value
        elif slot.kind == "person" and (said := said_part(value, text)):
            recognised.slots[name] = said  # "Jonas Ruiz" for "Jonas's number": "Jonas"
        elif _realigns(slot) and not others and grounded(own := _users(value, text), text):
            recognised.slots[name] = own  # "Lunch with Jonas" for "Mittagessen mit Jonas"
        else:
            recognised.dropped[name] = value
    return recognised


def _without_echoed_examples(value: str, text: str) -> str:
    """`value` less the clauses the model took from a worked example, not from `text` ("I'm
    running late, so I need to pay on the 24th" for "say we're paying it on the 24th": the
    example's "I'm running late" is no part of what the user asked to say)."""
    clauses = [c for c in re.split(r"(?<=[,.;:!?])\s+", value) if c.strip()]
    kept = [c for c in clauses if not _echoes_an_example(c, text)]
    if len(kept) == len(clauses):
        return value
    # "so I need to …" after the example's clause: the joining word went with it
    return _JOINING.sub("", " ".join(kept)).strip(" ,;:")


_JOINING = re.compile(
    r"^(?:so|and|but|then|und|also|aber|dann|donc|et|mais|alors|así que|y|pero|entonces)\b\s*",
    re.IGNORECASE,
)


def _an_examples_number(value: str, text: str) -> bool:
    """Whether `value` holds a number of two digits or more that an example the model was
    shown holds and `text` does not ("Priyas Handynummer ist 41" for "Hast du Priyas
    Handynummer?", the 41 of "mi talla de zapato es 41")."""
    said = set(re.findall(r"\d+", in_digits(fold(text))))
    return any(
        number not in said and any(number in example for example in _example_numbers())
        for number in _BARE_NUMBER.findall(value)
    )


# A number standing alone: not a clock time ("19:00", "7pm", "19 Uhr"), which the model may
# write for the user's words ("um sieben abends").
_BARE_NUMBER = re.compile(r"(?<![\d:.])(\d{2,})(?![\d:.]|\s*(?:h\b|uhr\b|am\b|pm\b|o'clock))", re.I)


@cache
def _example_numbers() -> list[set[str]]:
    return [{w for w in words if w.isdigit()} for words in _example_words()]


def _echoes_an_example(clause: str, text: str) -> bool:
    """Whether all of `clause`'s content words are one example's the model was shown, two
    or more of them words `text` does not say."""
    words = [w for w in _words(clause) if w and w not in _FILLER]
    said = _words(text)
    if sum(not _occurs(w, said) for w in words) < 2:
        return False
    return any(set(words) <= example for example in _example_words())


@cache
def _example_words() -> list[set[str]]:
    """The words of each example the model is shown: the worked examples, and those quoted
    in an intent's or a slot's description ("e.g. 'tomorrow at 3pm'")."""
    described = [i.description for i in INTENTS] + [s.description for i in INTENTS for s in i.slots]
    quoted = [q for d in described for q in re.findall(r"(?<!\w)'(.{3,}?)'(?!\w)", d)]
    return [set(_words(e)) for e in [e for _, e in _EXAMPLE_ROWS] + quoted]


def _without_repeats(value: str) -> str:
    """`value` with a part the model wrote again and again said once ("Berlin, Berlin,
    Berlin, …, Bern": "Berlin"; the cut-off last part goes too)."""
    parts = [p.strip() for p in value.split(",")]
    if len(parts) < 3 or len(set(parts)) * 2 > len(parts):
        return value
    # the parts said again; one said once among them is where the model's tokens ran out
    return ", ".join(dict.fromkeys(p for p in parts if p and parts.count(p) > 1))


def _an_address_not_written(value: str, text: str) -> bool:
    """Whether `value` holds an email address `text` does not write in full."""
    written = {a.lower() for a in ADDRESS.findall(text)}
    return any(a.lower() not in written for a in ADDRESS.findall(value))


def _name_in_address(value: str, text: str) -> str:
    """The name `text` writes with a capital that the address in `value` is made of
    ("greta.holm@…" for "Schreib Greta": "Greta"); "" if none."""
    names = {fold(w): w for w in WORD.findall(text) if w[:1].isupper()}
    parts = [p for a in ADDRESS.findall(value) for p in re.split(r"[._+-]", a.split("@")[0])]
    return " ".join(dict.fromkeys(names[fold(p)] for p in parts if fold(p) in names))


def _realigns(slot: Slot) -> bool:
    """A text put back in the user's words when the model translated it: a title. A text
    taken from the whole message instead (`from_request`: a reminder, an email) is not
    cut to a span of it."""
    return slot.kind == "text" and not slot.from_request


def _users(value: str, text: str) -> str:
    """A text the model half translated, in the user's words (`in_users_words`)."""
    return in_users_words(value, text, clock.now())


def said_part(value: str, text: str) -> str:
    """The words of `value` the user wrote (a name the model completed from an example keeps
    the part the user said); "" if none but filler."""
    said = _words(text)
    kept = [w for w in WORD.findall(value) if _occurs(_words(w)[0], said)]
    return " ".join(kept) if any(fold(w) not in _FILLER for w in kept) else ""


def in_users_words(value: str, request: str, now: datetime) -> str:
    """`value` (a title the model wrote) in the user's own words where it translated its
    first words: the words the request holds anchor it there, and the request's words before
    them take the places of the translated ones ("Dinner with Priya" for "Ajoute un déjeuner
    avec Priya": "déjeuner avec Priya"). Day and time words are left out (they are the
    event's when, not its name). The value itself when every word is the user's, when nothing
    anchors it, or when the anchors do not say where the rest belongs (out of the request's
    order, or a translated word after them)."""
    tokens = WORD.findall(request)
    said = [fold(w).strip(".'") for w in tokens]
    words = [fold(POSSESSIVE.sub("", w)).strip(".'") for w in WORD.findall(value)]
    kept = [w for w in words if not names_a_time(w, now)]
    anchors: list[tuple[int, int]] = []  # (place in the value, place in the request)
    foreign_after = False
    for place, word in enumerate(kept):
        if word in _FILLER:
            continue
        at = next((i for i, s in enumerate(said) if _occurs(word, [s])), None)
        if at is None:
            foreign_after = bool(anchors)
            continue
        if anchors and at <= anchors[-1][1]:
            return value
        anchors.append((place, at))
        foreign_after = False
    translated = any(w not in _FILLER and not _occurs(w, said) for w in kept)
    if anchors and not translated:
        # a little word between the user's that the request lacks is translated too
        # ("Reunion with Jonas" of "una reunión con Jonas")
        between = kept[anchors[0][0] + 1 : anchors[-1][0]]
        translated = any(not _occurs(w, said) for w in between)
    if not anchors or not translated or foreign_after:
        return value
    first = anchors[0][1] - anchors[0][0]
    if first < 0:  # more words before the anchors than the request has: another order
        return value
    return " ".join(tokens[first : anchors[-1][1] + 1])


def plan_said(request: str, now: datetime) -> str:
    """What the request says is planned, in the user's own words, for a title the model
    translated ("Apúntame en el calendario una cena con Tom el viernes 25, porfa": "cena con
    Tom"): in the first sentence that says more than how it asks, the words from the first
    that neither asks nor says a day or time up to the day or time after it. Empty when no
    sentence says more than how it asks."""
    for sentence in sentences(request):
        tokens = list(WORD.finditer(sentence))
        timed = _timed([t.group() for t in tokens], now)
        said = [i for i, t in enumerate(tokens) if not timed[i] and not only_asks(t.group())]
        if not said:
            continue
        # "Peux-tu noter dans mon agenda un dîner …": what comes after the calendar, if
        # anything ("Add lunch with Priya to my calendar": what comes before it)
        called = [i for i, t in enumerate(tokens) if names_the_calendar(t.group())]
        start = next((i for i in said if called and i > called[0]), said[0])
        end = next((i for i in range(start, len(tokens)) if timed[i]), len(tokens))
        while end > start and only_asks(tokens[end - 1].group()):
            end -= 1  # "cena con Tom el (viernes)", "lunch with Priya to my calendar (on …)"
        return sentence[tokens[start].start() : tokens[end - 1].end()].strip(".,;:")
    return ""


def _timed(words: list[str], now: datetime) -> list[bool]:
    """Which of `words` say a day or time: numbers, parts of the day, and the words of every
    phrase of up to four that names a day or time and would not without its first or its
    last word ("viernes", "a las ocho", "half past eight"; not "Schwimmen" after "11 Uhr")."""
    timed = [
        any(c.isdigit() for c in w) or is_part_of_day(w) or names_a_time(w, now) for w in words
    ]
    for n in (2, 3, 4):
        for a in range(len(words) - n + 1):
            if (
                names_a_time(" ".join(words[a : a + n]), now)
                and not names_a_time(" ".join(words[a + 1 : a + n]), now)
                and not names_a_time(" ".join(words[a : a + n - 1]), now)
            ):
                timed[a : a + n] = [True] * n
    return timed


POSSESSIVE = re.compile(r"['’]s?$")  # "Anna's", "Chris'"


def names_a_time(word: str, now: datetime) -> bool:
    """A day or clock time ("jeudi", "3pm"); "lunch" names a part of the day and an event."""
    when = read_when(word, now)
    return when is not None and (when.day_given or when.start is not None)


def _kind(intent: Intent, name: str) -> str | None:
    slot = intent.slot(name)
    return slot.kind if slot is not None else None


WORD = re.compile(r"[\w@.'+-]+")
ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")  # an email address as typed
# Words a model adds around a copied phrase ("on", "the", "my"): not evidence either way.
_FILLER = {
    "a", "an", "the", "my", "on", "at", "in", "to", "for", "of", "with", "and", "me", "i",
    "am", "um", "der", "die", "das", "mein", "meine", "le", "la", "les", "mon", "ma", "el",
    "mi", "de", "du", "des", "et", "y", "und", "à",
}  # fmt: skip


def _without_words_of(value: str, others: str) -> str:
    """`value` without the words other slots hold ("Hi Tom" beside to="Tom": "Hi"), or the
    value itself if nothing would be left."""
    taken = {fold(w) for w in WORD.findall(others)}
    kept = [w for w in WORD.findall(value) if fold(w) not in taken]
    return " ".join(kept) or value


def _words(text: str) -> list[str]:
    """`text`'s words folded, without a possessive's ending ("Tom's": "tom", as a longer
    name's ending is left to `_occurs`)."""
    return [POSSESSIVE.sub("", fold(w).strip(".'")) for w in WORD.findall(text)]


def any_word_of(value: str, request: str) -> bool:
    """Whether one content word of `value` occurs in the request."""
    said = _words(request)
    return any(_occurs(w, said) for w in _words(value) if w and w not in _FILLER)


def grounded(value: str, request: str, copied: bool = True) -> bool:
    """Whether `value` comes from the user's words: every content word of a copied value
    (or half of a reworded text's) occurs in the request, up to case, accents and endings."""
    said = _words(request)
    words = [w for w in _words(value) if w and w not in _FILLER]
    if not words:
        return False
    found = sum(1 for w in words if _occurs(w, said))
    return found == len(words) if copied else found * 2 >= len(words)


def _occurs(word: str, said: list[str]) -> bool:
    if word in said:
        return True
    stem = word[:5] if len(word) > 5 else word
    if len(stem) >= 4 and any(s.startswith(stem) for s in said):
        return True  # "dentist's" / "dentist", "Zahnarzttermin" / "Zahnarzt…"
    if len(base := _verb_base(word)) >= 3 and any(
        _verb_base(s) == base and "ing" in (word[-3:], s[-3:]) for s in said
    ):
        return True  # "hike" / "Hiking trip", "dancing" / "dance" (not "soupe" / "soup")
    # The head of a compound: "arzttermin" in "Zahnarzttermin" (a word inside another's
    # middle is a different word: "cita" is not in "recital").
    return len(word) >= 4 and any(s.endswith(word) for s in said)


def _verb_base(word: str) -> str:
    """An English verb's stem as its "-ing" form and its "-e" form share it ("hiking",
    "hike": "hik"); the word itself when it has neither ending."""
    if word.endswith("ing") and len(word) > 5:
        return word[:-3]
    if word.endswith("e") and len(word) >= 4:
        return word[:-1]
    return word


def most_words_of(words: str, items: list[dict[str, Any]], label: str) -> list[dict[str, Any]]:
    """The items whose `label` holds the most of the telling words of `words` (none if no
    item holds any)."""
    telling = [w for w in content_words(words) if len(w) > 3]
    counts = [sum(any_word_of(w, str(i.get(label) or "")) for w in telling) for i in items]
    most = max(counts, default=0)
    return [i for i, n in zip(items, counts, strict=True) if most and n == most]
