"""What the request plainly says, over what the model took it for: an ordered table of rules.

A small model picks an intent well for the words it was shown, and badly for others; code
reads what a request plainly asks ("remind me", "put it on my list", "tell Maria …") and
decides over the model's choice. Each rule looks at the choice (`Choice`) and either
decides the turn (`Verdict`: another intent, an answer, talk) or lets the next rule look,
after mending the choice if it must (another intent, a slot the model got wrong). The first
rule that decides, decides; what none decides runs as the model chose.

The order, as `RULES` lists it: a fact told ("remember that …"); whether a to-do is done
yet; a page or note asked for by name; a sum or a measure worked out; talk and general
knowledge taken for an intent; a message asked about (its gist, what someone said, a
forward); record numbers and documents; a correction of what is kept; the calendar's days,
events and free time; reminders; lists kept in files; to-dos; contacts; the calendar;
replies and messages to someone; phone numbers and family; cancelling and moving; then a
question taken for a change (a fact to keep, a cancel, a tick-off) changes nothing; talk is
answered; general knowledge is answered plainly. A verb the request says ("put … on my
list", "tell Maria …") comes before what a question asks, so that a rule further down only
ever takes back a change the request did not ask for. Each rule's docstring quotes a request
it was written for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from app.agent.intents.catalog import BY_NAME, JUST_ANSWER, SOMETHING_ELSE
from app.agent.intents.language import (
    ANY_EVENT,
    about_the_users_own,
    answered_by_a_document,
    asking_clause,
    asks_a_past_cost,
    asks_a_question,
    asks_for_a_new_file,
    asks_for_a_phone_number,
    asks_for_a_record,
    asks_for_a_record_number,
    asks_for_a_reminder,
    asks_for_a_translation,
    asks_for_family_details,
    asks_for_free_time,
    asks_for_the_gist,
    asks_for_the_weather,
    asks_how_many_days,
    asks_to_add_a_contact,
    asks_to_book_it,
    asks_to_cancel,
    asks_to_cancel_a_reminder,
    asks_to_correct_what_is_known,
    asks_to_forward,
    asks_to_keep_in_mind,
    asks_to_move,
    asks_to_note_it_down,
    asks_to_open_a_site,
    asks_to_put_in_the_calendar,
    asks_to_put_on_the_todo_list,
    asks_to_tick_off,
    asks_to_write_a_note,
    asks_what_they_said,
    asks_whats_on,
    asks_when_and_more,
    asks_whether_done,
    asks_whether_to_do,
    asks_who_is_right,
    asks_who_someone_is,
    is_function_word,
    kin_recipient,
    laughs_or_sighs,
    list_named,
    names_the_web,
    off_the_calendar,
    remembers_a_fact,
    sentences,
    site_named,
    speaks_of_a_message,
    speaks_of_the_todo_list,
    speaks_of_the_user,
    takes_off_a_list,
    the_question,
    translation_into,
)
from app.agent.intents.recognise import ADDRESS, Recognised, any_word_of, names_a_time
from app.agent.intents.router import (
    LOOKING,
    LOOKUPS,
    HandOver,
    a_todo_named,
    looked_up,
    named_event,
    one_known_name,
)
from app.agent.intents.sums import worked_out
from app.agent.intents.when import days_named, read_duration, read_shift, read_when
from connectors.folding import fold

if TYPE_CHECKING:
    from app.agent.intents.router import Doing


@dataclass
class Choice:
    """The model's choice as the rules see it and mend it: `recognised` (None: no usable
    call) may become another intent or gain a slot; `chosen` stays the model's own pick;
    `fact` is a fact the request tells, if it tells one."""

    doing: Doing
    recognised: Recognised | None
    chosen: str
    fact: str | None

    @property
    def text(self) -> str:
        return self.doing.request

    @property
    def taken(self) -> Recognised:
        """The intent taken so far (after `_no_intent`, always one)."""
        assert self.recognised is not None
        return self.recognised

    @property
    def name(self) -> str:
        return self.taken.intent.name


@dataclass(frozen=True)
class Take:
    """Another intent: its slots filled by the model, `read` by code (over the model's),
    `given` by code where the model leaves them empty."""

    intent: str
    read: dict[str, str] | None = None
    given: dict[str, str] | None = None


@dataclass(frozen=True)
class Run:
    """Another intent, its slots all found by code."""

    intent: str
    slots: dict[str, str]


@dataclass(frozen=True)
class Say:
    """An answer code found."""

    answer: str


@dataclass(frozen=True)
class Talk:
    """A plain answer from the model: `asked`, a general question's own words, shown in
    place of the request; `knowledge`: a question about the world, which may be answered
    through English."""

    asked: str | None = None
    knowledge: bool = False


@dataclass(frozen=True)
class HandBack:
    """No intent fits: the free loop takes the turn."""


Verdict = Take | Run | Say | Talk | HandBack
Rule = Callable[[Choice], Verdict | None]


# -- facts told, and what is asked by name ------------------------------------------------


def _an_appointment_told(choice: Choice) -> Verdict | None:
    """ "Mi hermana viene el jueves a las 10, apúntalo", "j'ai rdv chez l'ophtalmo jeudi
    prochain à 10h30, tu peux le noter ?" (taken for a note): an appointment."""
    if (
        choice.fact is not None
        and (choice.chosen == "add_event" or _names_an_appointment(choice.text))
        and _a_day_and_time(choice.text, choice.doing.now)
    ):
        choice.fact = None
        if choice.chosen != "add_event":
            return Take("add_event")
    return None


def _an_appointment_to_note(choice: Choice) -> Verdict | None:
    """ "ugh I totally forgot I'm at the optician thursday 4pm, can u pop that in?" taken
    for the files, "… apúntalo" for a memory: a day and time to come, noted down, is an
    appointment."""
    if (
        choice.chosen in _NOT_AN_ACT
        and asks_to_note_it_down(choice.text)
        and _a_day_and_time(choice.text, choice.doing.now)
    ):
        return Take("add_event")
    return None


def _new_details_of_someone(choice: Choice) -> Verdict | None:
    """ "can you save 0176 5551234 as priya's new mobile number" taken for a fact to keep or
    a look at her card: the card the address book holds for her gets the new number (the
    dialog shows the old and the new)."""
    from app.agent.intents.personal_steps import tells_new_details

    if (
        choice.chosen in ("remember_fact", "find_contact", JUST_ANSWER, SOMETHING_ELSE)
        and tells_new_details(choice.text)
        and (name := one_known_name(choice.doing))
    ):
        return Take("add_contact", read={"name": name})
    return None


def _a_fact_told(choice: Choice) -> Verdict | None:
    """ "Merk dir, Jonas trinkt keinen Kaffee" taken for a plain answer, "Retiens que Claire
    est allergique aux chats" for a to-do, or no usable call at all: a fact to keep, as the
    user said it (code read it whole); taken for one, the user's words, not the model's
    translation."""
    if choice.fact is None:
        return None
    if choice.chosen not in ("remember_fact", "set_reminder"):
        return Take("remember_fact", read={"fact": choice.fact})
    if choice.recognised is not None and choice.chosen == "remember_fact":
        choice.recognised.slots["fact"] = choice.fact
    return None


def _whether_a_todo_is_done(choice: Choice) -> Verdict | None:
    """ "hab ich die steuerunterlagen schon erledigt?" taken for a fact to keep, or for
    ticking it off: whether the to-do it names is done, from the list with the done ones
    (changes nothing)."""
    if (
        asks_whether_done(choice.text)
        and not asks_to_tick_off(choice.text)
        and a_todo_named(choice.doing, done=True)
    ):
        return Take("list_todos")
    return None


def _an_unsubscribe_page(choice: Choice) -> Verdict | None:
    """ "those newsletters are getting on my nerves. can you bring up the page where I can
    unsubscribe?" taken for a web search: the link their email gives."""
    from app.agent.intents.lookup import unsubscribe_page  # (it imports the router)

    try:
        opened = unsubscribe_page(choice.doing)
    except HandOver:  # the mailbox cannot be read: the request goes on as it was taken
        return None
    return Say(opened) if opened is not None else None


def _a_website_to_open(choice: Choice) -> Verdict | None:
    """ "ábreme la web de la BVG porfa, que quiero mirar los horarios del metro", taken for a
    web search or anything else: the site is opened (the dialog shows its address first).
    The model is never offered this intent (`catalog.BY_RULE`): the request's words choose
    it."""
    if not asks_to_open_a_site(choice.text) or choice.doing.agent.registry.get("open_item") is None:
        return None
    # the site's name as the request writes it (the model is asked only where it names none)
    named = site_named(choice.text)
    return Take("open_website", read={"site": named} if named else None)


def _a_sum(choice: Choice) -> Verdict | None:
    """ "dinner came to 87 euros and there were 3 of us. how much does everyone owe?" taken
    for spending, or the model's own sum ("5,000 euros each"): code divides."""
    if (
        choice.chosen in LOOKING | {SOMETHING_ELSE, JUST_ANSWER}
        and not _asks_for_an_act(choice.text)
        and (sum_ := worked_out(choice.text, choice.doing.language)) is not None
    ):
        return Say(sum_)
    return None


def _a_translation(choice: Choice) -> Verdict | None:
    """ "Dis, comment on dit « je suis en retard, commencez sans moi » en allemand ?" taken for
    a look through the files: the words are translated, a narrow question to the model, no
    tool."""
    asked = asks_for_a_translation(choice.text)
    if asked is None or _asks_for_an_act(choice.text):
        return None
    translated = choice.doing.write(*translation_into(asked[1], asked[0]), exact=True)
    return Say(translated) if translated else None


def _the_weather(choice: Choice) -> Verdict | None:
    """ "what's the weather like in berlin today?" taken for the day's calendar, or the
    model's own guess: only the web knows (the dialog shows the search first). (Taken for
    something else, the loop searches the web itself.)"""
    if (
        choice.chosen in LOOKING | {JUST_ANSWER}
        and asks_for_the_weather(choice.text)
        and not _asks_for_an_act(choice.text)
        and choice.doing.agent.registry.get("web_search") is not None
    ):
        return Take("search_web", read={"query": the_question(choice.text).strip(" ?¿!")})
    return None


def _a_file_taken_for_the_web(choice: Choice) -> Verdict | None:
    """ "find my lisbon itinerary" taken for a web search: the user's file its name holds
    every word of (else the web is searched, the dialog first)."""
    from app.agent.intents.file_steps import named_whole

    if (
        choice.chosen == "search_web"
        and about_the_users_own(choice.text)
        and not names_the_web(choice.text)
        and named_whole(choice.doing, choice.text) is not None
    ):
        return Take("ask_files", read={"about": choice.text})
    return None


# -- talk and knowledge taken for an intent ---------------------------------------------------


def _laughing_or_sighing(choice: Choice) -> Verdict | None:
    """ "uf qué semana llevo, y eso que es martes jaja" taken for Tuesday's calendar: someone
    laughing or sighing who asks nothing is talking; the model answers. So is a message no
    verb of writing asks for ("coucou ! j'ai couru mon premier semi dimanche, je suis
    complètement cassée 😅" taken for a reply)."""
    text = choice.text
    if (
        (
            choice.chosen in LOOKING
            or (
                choice.chosen in ("reply_to_email", "send_email")
                and not _REPLY.search(text)
                and not _MESSAGE.search(text)
            )
        )
        and "?" not in text
        and laughs_or_sighs(text)
        and not _asks_for_an_act(text)
        and not asks_whats_on(text)
    ):
        return Talk()
    return None


def _taken_for_none(choice: Choice) -> bool:
    """No intent of the catalogue taken, or the model's own answer."""
    return choice.recognised is None or choice.chosen in (SOMETHING_ELSE, JUST_ANSWER)


def _a_note_to_write(choice: Choice) -> Verdict | None:
    """ "… can you jot them down in a little note? Call it deliveries.md" taken for nothing
    the catalogue has: a new note, its text looked up where the request says."""
    if _taken_for_none(choice) and (name := asks_to_write_a_note(choice.text)):
        return Take("write_note", read={"name": name, "content": ""})
    return None


def _the_gist_of_a_message(choice: Choice) -> Verdict | None:
    """ "Sophie hat mir wegen einer Rechnung geschrieben … Kannst du mir kurz
    zusammenfassen, worum's geht?" taken for nothing, for the model's own answer, or for a
    look in the files ("Sophie m'a écrit ce matin … Elle veut quoi, en deux mots ?"), or
    naming only who wrote ("was wollte Sophie nochmal genau wegen der Nordwind-Rechnung?
    kurz zusammenfassen bitte"): her email is read and summarised."""
    if (
        (_taken_for_none(choice) or choice.chosen in ("ask_files", "recall_fact", "find_contact"))
        and asks_for_the_gist(choice.text)
        and (speaks_of_a_message(choice.text) or _a_sender_named(choice.doing))
    ):
        return Take("read_email")
    return None


def _who_is_right(choice: Choice) -> Verdict | None:
    """ "Settle something for me: my flatmate swears Sydney is the capital of Australia …
    Who wins?" taken for a reminder or a move, "… 20 degrees here this week - what is that
    in Fahrenheit?" for a reminder (none asked): a question of knowledge."""
    if (
        choice.chosen not in _WRITING
        and (
            asks_who_is_right(choice.text)
            or (choice.chosen == "set_reminder" and "?" in choice.text)
        )
        and not asks_for_a_reminder(choice.text)
        and (general := _general_question(choice.doing)) is not None
    ):
        return Talk(asked=general, knowledge=True)
    return None


def _knowledge_taken_for_something_else(choice: Choice) -> Verdict | None:
    """ "Long night, the neighbours partied till three. Anyway: which planet is the
    biggest?" taken for something the catalogue lacks: a question of general knowledge that
    nothing the user keeps names, and no day's (the weather, the news), is answered plainly,
    not searched for in every store."""
    if choice.recognised is not None and choice.chosen == SOMETHING_ELSE:
        general = _general_question(choice.doing)
        if general is not None and read_when(general, choice.doing.now) is None:
            return Talk(asked=general, knowledge=True)
    return None


def _no_intent(choice: Choice) -> Verdict | None:
    """No intent, or "something else": the free loop, unless the request plainly asks for
    an act code recognises ("Erinner mich bitte dran, dass ich bei der Autoversicherung
    anrufen muss" with no usable call): the rules below decide it."""
    if choice.recognised is None or choice.recognised.intent.name == SOMETHING_ELSE:
        if not _asks_for_an_act(choice.text):
            return HandBack()
        choice.recognised = Recognised(BY_NAME[SOMETHING_ELSE])
    return None


# -- messages, records and documents asked about ---------------------------------------------


def _a_message_taken_for_free_time(choice: Choice) -> Verdict | None:
    """ "… the building management sent round something about the water being off? What
    hours was that?" taken for tomorrow's free time: the message says."""
    text = choice.text
    if (
        choice.chosen in ("find_free_time", "show_calendar")
        and speaks_of_a_message(text)
        and "?" in text
        and not asks_for_free_time(text)
        and not asks_whats_on(text)
    ):
        return Take("find_emails")
    return None


def _a_record_number(choice: Choice) -> Verdict | None:
    """ "C'est quoi le nom de l'hôtel, et tu as le numéro de réservation ?" taken for a
    contact (Sam, named before): a booking's number is in a file or an email."""
    if choice.chosen == "find_contact" and asks_for_a_record_number(choice.text):
        choice.recognised = Recognised(BY_NAME["ask_files"])
    return None


def _a_document(choice: Choice) -> Verdict | None:
    """ "How many things are in my todo.txt?" is about that file, not the to-do list;
    "Lundi j'ai la réunion budget … On a dépassé de combien, d'après mon tableau de budget
    ?" taken for Monday's free time: the spreadsheet answers it."""
    named = _DOCUMENT.search(choice.text) and choice.name in _KEPT_ELSEWHERE
    if named or (answered_by_a_document(choice.text) and choice.name in LOOKING):
        choice.recognised = Recognised(BY_NAME["ask_files"])
    return None


def _a_correction_of_what_is_known(choice: Choice) -> Verdict | None:
    """ "Le Café Rosa a fermé … Mon nouveau QG, c'est le Café Liebling. Tu peux corriger ça
    dans ce que tu sais de moi ?" (taken for moving an event, too): the new fact is kept in
    the user's words, the sentences told (and the one it replaces goes)."""
    text = choice.text
    if not asks_to_correct_what_is_known(text) or choice.chosen == "forget_fact":
        return None
    told = " ".join(t for t in sentences(text) if not asks_to_correct_what_is_known(t))
    read = {"fact": told} if len(told.split()) >= 2 else None
    if choice.chosen != "remember_fact":
        return Take("remember_fact", read=read)
    if read:
        choice.taken.slots["fact"] = told
    return None


# -- the calendar's days, events and free time ------------------------------------------------


def _whats_on_a_day(choice: Choice) -> Verdict | None:
    """ "… what have I actually got on, Saturday and Sunday?" taken for the files, "was hab
    ich am Donnerstag eigentlich alles vor?" for the mail, "dis, j'ai un truc jeudi soir ?
    sam voudrait aller au ciné" for a new event, "can you check if i have anything on the
    22nd" for free time (none asked for): the calendar says."""
    text, chosen = choice.text, choice.chosen
    if (
        chosen in ("ask_files", "recall_fact", "find_contact", "find_emails", "list_todos")
        or (chosen == "add_event" and not asks_to_put_in_the_calendar(text))
        or (
            chosen == "find_free_time"
            and read_duration(text) is None
            and not asks_for_free_time(text)
        )
    ) and (
        asks_whats_on(question := the_question(text))
        and (when := read_when(question, choice.doing.now)) is not None
        and when.day_given
    ):
        return Take("show_calendar", given={"when": question})
    return None


def _when_or_where_an_event_is(choice: Choice) -> Verdict | None:
    """ "¿a qué hora tengo piano hoy?" taken for a contact called Piano, "whens my car being
    serviced again" or "¿cuántos días faltan para el cumpleaños de mamá?" for free time
    (unless a length to find is said, or more is asked than when), "c'est quand déjà mon rdv
    chez le coiffeur ? j'ai complètement oublié l'heure" for forgetting a memory: when or
    where, or how long until, an event the calendar holds under the request's words, the
    calendar says."""
    text, chosen = choice.text, choice.chosen
    if (
        (
            chosen in _NOT_HOLDING_EVENTS | {"forget_fact"}
            or (
                chosen == "find_free_time"
                and read_duration(text) is None
                and not asks_when_and_more(text)
            )
        )
        and (
            _WHEN_WHERE.search(fold(the_question(text)))
            or asks_how_many_days(text)
            or _which_of_two_days(text, choice.doing.now)
        )
        and not asks_for_free_time(text)
        and (event := named_event(choice.doing, whole=True, on_the_day=True)) is not None
    ):
        return Run("show_calendar", {"event": event, "when": ""})
    return None


def _free_time_of_a_length(choice: Choice) -> Verdict | None:
    """ "I need two hours for the tax stuff, somewhere between 9 and 6 on Friday. Tell me
    the options" taken for the files: a length of time to find on a day said is free
    time."""
    text = choice.text
    if (
        choice.chosen in ("ask_files", "recall_fact", "find_contact", "find_emails", "list_todos")
        and asks_for_free_time(text)
        and read_duration(text) is not None
        and (when := read_when(text, choice.doing.now)) is not None
        and when.day_given
        and not speaks_of_a_message(text)
        and not _DOCUMENT.search(text)
    ):
        return Take("find_free_time")
    return None


# -- acts the request plainly asks for ----------------------------------------------------------


def _a_reminder_to_cancel(choice: Choice) -> Verdict | None:
    """ "… So you can scrap that reminder about renewing it" taken for an email, "tu peux
    supprimer le rappel …" for a new one: the reminder is cancelled (the dialog asks
    first)."""
    if asks_to_cancel_a_reminder(choice.text) and choice.name not in (
        "cancel_reminder",
        "list_reminders",
    ):
        return Take("cancel_reminder")
    return None


def _a_reminder(choice: Choice) -> Verdict | None:
    """ "Erinnere mich am Freitag um 8 daran, die Pflanzen zu gießen" taken for free time,
    "Remind me to email Tom at 5" for an email: a new reminder."""
    if asks_for_a_reminder(choice.text) and choice.name not in _REMINDERS:
        return Take("set_reminder")
    return None


def _off_a_list(choice: Choice) -> Verdict | None:
    """ "Nimm den Parmesan von der Einkaufsliste runter" taken for a to-do done or an event
    cancelled: a line of the list's file goes."""
    if takes_off_a_list(choice.text) and choice.name != "add_to_list":
        return Take("add_to_list")
    return None


def _onto_a_list(choice: Choice) -> Verdict | None:
    """ "J'ai oublié deux trucs pour les courses : tu peux ajouter des œufs et du beurre sur
    ma liste ?" taken for a to-do, "schreib bitte noch eier und batterien auf meine
    einkaufsliste" for a new note: the shopping list's file gets the lines."""
    if list_named(choice.text) and (
        choice.name in ("add_todo", "remember_fact")
        or (choice.name == "write_note" and not asks_for_a_new_file(choice.text))
    ):
        return Take("add_to_list")
    return None


def _a_list_kept(choice: Choice) -> Verdict | None:
    """ "what's in my packing list" taken for the to-dos: the list's file, as it is."""
    from app.agent.intents.file_steps import list_kept

    if choice.name == "list_todos" and list_named(choice.text):
        kept = list_kept(choice.doing)
        return Say(kept) if kept is not None else None
    return None


def _a_todo_ticked_off(choice: Choice) -> Verdict | None:
    """ "die Bücher hab ich zurückgebracht, kannst du abhaken" taken for cancelling an event,
    "tu peux le cocher ?" for forgetting: a to-do is done."""
    if asks_to_tick_off(choice.text) and choice.name != "complete_todo":
        return Take("complete_todo")
    return None


def _a_new_todo(choice: Choice) -> Verdict | None:
    """ "Pop 'renew the parking permit' on my to-do list for Friday" taken for an event,
    "Nimm … in meine Aufgaben auf" for a list in a file, "Put cancelling the membership on
    my to-do list" for ticking one off: a new to-do."""
    if asks_to_put_on_the_todo_list(choice.text) and (
        choice.name not in _TODOS
        or (choice.name == "complete_todo" and not asks_to_tick_off(choice.text))
    ):
        return Take("add_todo")
    return None


def _a_new_contact(choice: Choice) -> Verdict | None:
    """ "Anna Schulz ist gar nicht in meinem Adressbuch … Leg sie doch bitte an" taken for
    an email to her, "… trägst du sie bitte ein?" for a look at her card: a new card (its
    address from her mail, where the request says so)."""
    text = choice.text
    if (
        asks_to_add_a_contact(text)
        and choice.chosen != "add_contact"
        and not (_REPLY.search(text) or _MESSAGE.search(text) or asks_to_forward(text))
    ):
        return Take("add_contact")
    return None


def _into_the_calendar(choice: Choice) -> Verdict | None:
    """ "Le cabinet du Dr Lee m'a envoyé un mail …, tu peux le mettre dans mon agenda ?"
    taken for a to-do, "He quedado con Priya para ir al cine el miércoles … ¿Me lo apuntas
    en el calendario?" for free time: a new event (its day copied from the email, if none
    is said)."""
    if asks_to_put_in_the_calendar(choice.text) and (
        choice.name not in _EVENTS
        or (choice.name == "find_free_time" and not asks_for_free_time(choice.text))
    ):
        return Take("add_event")
    return None


def _free_time_to_book(choice: Choice) -> Verdict | None:
    """ "Such mir am Freitag eine freie Stunde am Nachmittag und trag sie … ein" taken for a
    new event with no time: the free time is found first, then booked."""
    text = choice.text
    if (
        choice.name == "add_event"
        and asks_for_free_time(text)
        and asks_to_book_it(text)
        and (when := read_when(text, choice.doing.now)) is not None
        and when.start is None
    ):
        return Take("find_free_time")
    return None


# -- replies and messages to someone ----------------------------------------------------------


def _a_reply(choice: Choice) -> Verdict | None:
    """ "Jamie wants coffee. Reply that Wednesday at 15:00 works": the time made the model
    pick a new event (or a new email), but what is asked for is a reply."""
    if _REPLY.search(choice.text) and choice.name != "reply_to_email":
        return Take("reply_to_email")
    return None


def _a_forward(choice: Choice) -> Verdict | None:
    """ "Forward Tom the email from the bank" taken for reading it: it is sent on."""
    if asks_to_forward(choice.text) and choice.name != "send_email":
        return Take("send_email", given={"to": _a_person(choice.taken)})
    return None


def _what_someone_said(choice: Choice) -> Verdict | None:
    """ "Oye, ¿qué me dijo Tom de la barbacoa?" taken for the model's own answer (which made
    one up): what Tom wrote is in the mail."""
    if choice.chosen in (JUST_ANSWER, SOMETHING_ELSE, "recall_fact") and asks_what_they_said(
        choice.text
    ):
        return Take("find_emails")
    return None


def _an_email_taken_for_a_note(choice: Choice) -> Verdict | None:
    """ "Schreib Priya eine kurze Mail: danke für das Rezept …", "schreib bitte maria klein,
    dass ich … vegetarisch esse" taken for a note called by her name: an email to her."""
    text = choice.text
    if (
        choice.chosen == "write_note"
        and (named := _MESSAGE.search(text))
        and named["name"]
        and (_MAIL_ASKED.search(fold(text)) or _TOLD_THAT.match(text, named.end("name")))
    ):
        return Take("send_email", read={"to": named["name"]})
    return None


def _a_message_to_someone(choice: Choice) -> Verdict | None:
    """ "Tell Maria my dietary requirement: vegetarian" taken for a memory, "Look up Sophie
    and email her that …" for a contact: what is asked for is an email, to the name said
    right after the verb (it decides over the model's), else the one the model's words
    name, else the one the request names ("Priya mentioned she's late … Tell her it's no
    problem"), in lower case too."""
    from app.agent.intents.mail_steps import one_other_reachable

    if (message := _MESSAGE.search(choice.text)) is None or choice.name in _WRITING:
        return None
    if message["name"]:
        return Take("send_email", read={"to": message["name"]})
    to = (
        _a_person(choice.taken)
        or one_other_reachable(choice.doing, "")
        # typed in lower case: "jamie asked if thursday works for coffee - tell him yes"
        or _one_sender_in_lower_case(choice.doing)
    )
    return Take("send_email", given={"to": to})


def _a_phone_number(choice: Choice) -> Verdict | None:
    """ "¿me pasas el móvil de Priya? le quiero escribir por whatsapp" taken for an email,
    "Hast du mal Priyas Handynummer für mich?" for a fact to remember, "whats priyas mobile
    number again?" for the model's own answer (it made one up): what is asked for is her
    number, on her card. (A number given is to be kept.)"""
    if (
        choice.chosen in ("send_email", "reply_to_email", "remember_fact", JUST_ANSWER)
        and asks_for_a_phone_number(choice.text)
        and not re.search(r"\d{3}", choice.text)
    ):
        who = _a_person(choice.taken) or one_known_name(choice.doing)
        return Take("find_contact", given={"who": who})
    return None


def _family_details(choice: Choice) -> Verdict | None:
    """ "Ich will heute Abend Mutti anrufen, hab aber ihre Nummer nicht …" taken for the
    mail: her card (the one noted "Mum")."""
    family = asks_for_family_details(choice.text)
    if family is not None and choice.chosen not in ("find_contact", "add_contact", *_WRITING):
        return Take("find_contact", read={"who": family})
    return None


def _an_email_to_kin(choice: Choice) -> Verdict | None:
    """ "Kannst du meiner Mama eine kurze Mail schicken? Sam und ich …" taken for a new
    event: an email, to the one the request names."""
    kin = kin_recipient(choice.text)
    if kin is not None and _MAIL_ASKED.search(fold(choice.text)) and choice.chosen not in _WRITING:
        return Take("send_email", read={"to": kin})
    return None


def _the_recipient_said(choice: Choice) -> Verdict | None:
    """A new email's recipient said right after the verb of writing ("Schick Priya eine
    kurze Mail: Suppe war super", not "Suppe"), or as kin ("… meiner Mama eine Mail …", not
    "Sam"), over another word of the request the model took."""
    if choice.name != "send_email":
        return None
    if (message := _MESSAGE.search(choice.text)) and message["name"]:
        _said_recipient(choice.taken, message["name"])
    elif (kin := kin_recipient(choice.text)) is not None:
        _said_recipient(choice.taken, kin)
    return None


# -- cancelling and moving ----------------------------------------------------------------


def _an_event_to_cancel(choice: Choice) -> Verdict | None:
    """ "Scrap my dentist appointment today" taken for a new email, "Sag den Zahnarzt heute
    ab" for a new event: the event the calendar holds under its words is cancelled (the
    dialog asks first). A plain question ("Can you remove the background from a photo?") is
    looked at only when it speaks of the user's own."""
    text = choice.text
    if (
        asks_to_cancel(text)
        and choice.name not in _CANCELLING
        and not _a_new_time(choice.taken, text, choice.doing.now)
        and (choice.name != JUST_ANSWER or speaks_of_the_user(text))
        and (event := named_event(choice.doing, whole=True, on_the_day=True)) is not None
    ):
        return Run("cancel_event", {"event": event})
    return None


def _off_the_calendar(choice: Choice) -> Verdict | None:
    """ "Tu peux supprimer le rendez-vous au garage de mon agenda ?" taken for a reminder,
    "Tu peux la virer de mon agenda ?" for a move: what is taken off the calendar is an
    event."""
    if (
        asks_to_cancel(choice.text)
        and choice.name in (_CANCELLING | _EVENTS) - {"cancel_event"}
        and off_the_calendar(choice.text)
    ):
        return Take("cancel_event")
    return None


def _an_event_shifted(choice: Choice) -> Verdict | None:
    """ "das Budgetmeeting am Montag fängt ne halbe Stunde später an, kannst du das ändern?"
    taken for a new event: the event the calendar holds under its words is moved by that
    amount (the dialog asks first)."""
    if (
        read_shift(choice.text) is not None
        and choice.name not in _NOT_A_SHIFT
        # (a clock time said beside is where it is now, not where it goes: "ne stunde später
        # legen? um 4 schaff ichs nicht")
        and (event := named_event(choice.doing, whole=True, on_the_day=True, moving=True))
    ):
        return Run("move_event", {"event": event})
    return None


def _a_todo_moved(choice: Choice) -> Verdict | None:
    """ "repousser ce truc dans ma liste de tâches au vendredi 25" taken for ticking it off
    or a look at the list: the to-do's due day is moved (the dialog asks first); what the
    model leaves out, the request's words name and its asking sentence dates ("… d'ici
    mercredi prochain. Tu peux repousser … au vendredi 25 ?")."""
    text = choice.text
    if (
        choice.name in _TODOS | LOOKING
        and asks_to_move(text)
        and speaks_of_the_todo_list(text)
        and (when := read_when(text, choice.doing.now)) is not None
        and when.day_given
    ):
        return Take("move_event", given={"event": text, "to": the_question(text)})
    return None


def _an_event_moved(choice: Choice) -> Verdict | None:
    """ "Sophie hat gefragt, ob wir unser 1:1 morgen auf 14 Uhr verlegen können …" taken for
    a new event, or for an answer to Sophie the request does not ask for, "… the budget
    meeting at 11 instead": the event the calendar holds under its words is moved to the
    time named, or to a day at the same time ("to friday instead? same time is fine") (the
    dialog asks first)."""
    text, now = choice.text, choice.doing.now
    if (
        (
            choice.name == "add_event"
            or (
                choice.name in ("reply_to_email", "send_email")
                and not _REPLY.search(text)
                and not _MESSAGE.search(text)
            )
        )
        and (asks_to_move(text) or _INSTEAD.search(fold(text)))
        and (when := read_when(text, now)) is not None
        and (when.start_at(now) is not None or (when.day_given and _SAME_TIME.search(fold(text))))
        and (event := named_event(choice.doing, whole=True, on_the_day=True, moving=True))
    ):
        return Run("move_event", {"event": event})
    return None


def _the_event_named(choice: Choice) -> Verdict | None:
    """ "…, así que hoy no hay clase. ¿Me la quitas del calendario?": the model named no
    event (or only a day: "dienstag"), the request names one of the calendar's."""
    if (
        choice.name in ("cancel_event", "move_event")
        and not _names_more_than_a_day(choice.taken.slots.get("event", ""), choice.doing.now)
        and (event := named_event(choice.doing, whole=True, on_the_day=True)) is not None
    ):
        choice.taken.slots["event"] = event
    return None


# -- a question taken for a change, talk, and knowledge ---------------------------------------


def _a_question_taken_for_a_fact(choice: Choice) -> Verdict | None:
    """ "Mi hermana insiste en que vaya a verla este finde. ¿Tengo ya algo comprometido?"
    taken for a fact to keep: a question asking nothing to be kept is no fact; the next
    lookup the choice was close to (a question changes nothing), else a look at what is
    kept."""
    text = choice.text
    if (
        choice.fact is None
        and choice.name == "remember_fact"
        and asks_a_question(text)
        and not asks_to_keep_in_mind(text)
        and not asks_to_correct_what_is_known(text)
    ):
        return Take(next((n for n in choice.taken.close if n in LOOKING), "recall_fact"))
    return None


def _a_question_of_what_to_do(choice: Choice) -> Verdict | None:
    """ "¿tengo que devolver algo a la biblioteca?" taken for cancelling an event: a
    question of what the user has to do, which changes nothing: the to-dos."""
    text = choice.text
    if (
        choice.name in _CANCELLING
        and asks_whether_to_do(text)
        and not asks_to_cancel(text)
        and not asks_to_tick_off(text)
    ):
        return Take("list_todos")
    return None


def _talk_taken_for_a_move(choice: Choice) -> Verdict | None:
    """ "Puh, in two weeks is my piano recital and the nocturne still isn't right …" taken
    for moving an event: the message asks nothing (no question), says no verb of moving or
    cancelling and no new time, and is long or a plain answer was close. An event is moved
    only when the user asks for it. (A cancellation is often told, not asked: "Der
    Zahnarzttermin fällt aus".)"""
    taken, text = choice.taken, choice.text
    if (
        taken.intent.name == "move_event"
        and "?" not in text
        and not asks_to_move(text)
        and not asks_to_cancel(text)
        and not _a_new_time(taken, text, choice.doing.now)
        and (JUST_ANSWER in taken.close or len(text.split()) > _TALK)
    ):
        return Talk()
    return None


def _who_someone_is(choice: Choice) -> Verdict | None:
    """ "who is helen morgan?" taken for general knowledge: the address book's card."""
    if (
        choice.name == JUST_ANSWER
        and asks_who_someone_is(choice.text)
        and (name := one_known_name(choice.doing))
    ):
        return Run("find_contact", {"who": name})
    return None


def _the_models_own_answer(choice: Choice) -> Verdict | None:
    """ "What's the name of my hotel in Lisbon?" taken for a general question: what the mail
    or files plainly hold answers it; else the model answers as asked. (A question apart
    from the words about the user, "… my flatmate and I are arguing about this. what
    temperature does water boil at?", is not theirs.)"""
    if choice.name != JUST_ANSWER:
        return None
    doing, text = choice.doing, choice.text
    of_theirs = (
        about_the_users_own(text)
        or asks_a_past_cost(text)  # "What did … cost?"
        or asks_for_a_record(text)  # "¿Cómo se llamaba el hotel …?"
        # the second of two questions, the message speaking of the user's own ("Wann ist
        # mein nächster Zahnarzttermin? Und wie heißt das Hotel in Lissabon?")
        or (bool(doing.together) and about_the_users_own(doing.together))
    )
    general = _general_question(doing) if of_theirs else None
    if of_theirs and general is None and (found := looked_up(doing)) is not None:
        return Say(found)
    return Talk(asked=general, knowledge=True)


def _a_general_question_taken_for_a_lookup(choice: Choice) -> Verdict | None:
    """ "¿Cuántos lados tiene un hexágono?" taken for a lookup, a plain answer close behind:
    the model kept none of the request's words in the slots, and the request names nothing
    of the user's, nor a day, but asks about two things or more. Looked up, what the user
    keeps would be searched for a hexagon."""
    from app.agent.intents.file_steps import telling_words

    taken, text = choice.taken, choice.text
    if (
        taken.intent.name in LOOKING
        and JUST_ANSWER in taken.close
        and not any(taken.slots.values())
        and not speaks_of_the_user(text)
        and read_when(text, choice.doing.now) is None
        and len(telling_words(text)) >= 2
    ):
        return Talk(knowledge=True)
    return None


def _a_general_question_asked_apart(choice: Choice) -> Verdict | None:
    """ "… what temperature does water boil at in fahrenheit?" taken for a lookup: what the
    user keeps does not name it, the model answers (the question alone, when it says itself
    what it asks). Taken for the calendar, to-dos or spending, only a question saying itself
    what it asks ("Vendredi, j'aimerais bloquer trois heures … Ça rentre ?" needs the
    sentence before it, and is of the calendar after all); an email to read, though the
    request speaks of none ("… 20 degrees here this week - what is that in Fahrenheit?"
    read as "the email from the school")."""
    name, text = choice.name, choice.text
    looking = name in LOOKING - set(LOOKUPS)
    general = (
        _general_question(choice.doing)
        if name in LOOKUPS
        or (looking and _asks_apart_from_the_calendar(text, choice.doing.now))
        or (name == "read_email" and not speaks_of_a_message(text))
        else None
    )
    if general and not (looking and general == text):
        return Talk(asked=general, knowledge=True)
    if (
        general is None
        and looking
        and name != "spending"  # (its steps tell a sum from a general question themselves)
        and len(sentences(text)) == 1
        and _asks_apart_from_the_calendar(text, choice.doing.now)
        and (alone := _general_question(choice.doing, alone=True))
    ):
        # "quel est le plus haut sommet des Alpes ?" taken for the calendar, "what's the
        # longest river in africa?" for the to-dos: a question alone, of no day and nothing
        # of the user's, which nothing they keep holds
        return Talk(asked=alone, knowledge=True)
    return None


RULES: tuple[Rule, ...] = (
    _an_appointment_told,
    _an_appointment_to_note,
    _new_details_of_someone,
    _a_fact_told,
    _whether_a_todo_is_done,
    _an_unsubscribe_page,
    _a_website_to_open,
    _a_sum,
    _a_translation,
    _the_weather,
    _a_file_taken_for_the_web,
    _laughing_or_sighing,
    _a_note_to_write,
    _the_gist_of_a_message,
    _who_is_right,
    _knowledge_taken_for_something_else,
    _no_intent,
    _a_message_taken_for_free_time,
    _a_record_number,
    _a_document,
    _a_correction_of_what_is_known,
    _whats_on_a_day,
    _when_or_where_an_event_is,
    _free_time_of_a_length,
    _a_reminder_to_cancel,
    _a_reminder,
    _off_a_list,
    _onto_a_list,
    _a_list_kept,
    _a_todo_ticked_off,
    _a_new_todo,
    _a_new_contact,
    _into_the_calendar,
    _free_time_to_book,
    _a_reply,
    _a_forward,
    _what_someone_said,
    _an_email_taken_for_a_note,
    _a_message_to_someone,
    _a_phone_number,
    _family_details,
    _an_email_to_kin,
    _the_recipient_said,
    _an_event_to_cancel,
    _off_the_calendar,
    _an_event_shifted,
    _a_todo_moved,
    _an_event_moved,
    _the_event_named,
    _a_question_taken_for_a_fact,
    _a_question_of_what_to_do,
    _talk_taken_for_a_move,
    _who_someone_is,
    _the_models_own_answer,
    _a_general_question_taken_for_a_lookup,
    _a_general_question_asked_apart,
)


def decide(
    doing: Doing, recognised: Recognised | None, chosen: str
) -> tuple[Verdict | None, Recognised | None]:
    """The first decision of `RULES` for the request and the model's choice, and the
    choice as the rules left it (None: none decided, the choice runs)."""
    choice = Choice(doing, recognised, chosen, remembers_a_fact(doing.request))
    for rule in RULES:
        if (decision := rule(choice)) is not None:
            return decision, choice.recognised
    return None, choice.recognised


# -- what the rules read ------------------------------------------------------------------


def _a_sender_named(doing: Doing) -> bool:
    """Whether a name the request writes is someone who wrote to the user (a mail search;
    in a request typed all in lower case, its first words that may be a name)."""
    from app.agent.intents.mail_steps import names_written

    names = sorted(names_written(doing))[:2] or _maybe_names(doing)
    return next(_senders_among(doing, names), None) is not None


def _one_sender_in_lower_case(doing: Doing) -> str:
    """In a request typed in lower case, the one word that may be a name whose person wrote
    to the user ("jamie"), or ""."""
    found = list(_senders_among(doing, _maybe_names(doing)))
    return found[0] if len(found) == 1 else ""


def _maybe_names(doing: Doing) -> list[str]:
    """In a request typed in lower case, its first words that may be a name."""
    from app.agent.intents.personal_steps import lower_case_names

    return lower_case_names(doing)[:3]


def _senders_among(doing: Doing, names: list[str]) -> Iterator[str]:
    """Those of `names` someone who wrote to the user is called, one mail search each, as
    they are asked for."""
    from app.agent.intents.mail_steps import senders_named

    return (name for name in names if senders_named(doing, name))


def _general_question(doing: Doing, alone: bool = False) -> str | None:
    from app.agent.intents.general import general_question

    return general_question(doing, alone)


# A document named by its file name, and the intents that read what is kept elsewhere (the
# to-do list, reminders, memories, the calendar, contacts) or nothing: a question naming a
# document is about it, whichever of those the model took it for.
_DOCUMENT = re.compile(
    r"\b[\w-]+\.(?:txt|md|pdf|docx?|xlsx?|csv|od[tsp]|pptx?|rtf|json|html?)\b", re.I
)
_KEPT_ELSEWHERE = {
    JUST_ANSWER, "list_todos", "list_reminders", "recall_fact", "show_calendar", "find_contact"
}  # fmt: skip


# The intents a request to cancel may rightly be besides cancelling an event: deleting one of
# the other kinds of things. (A move is, when it names a new time.)
_CANCELLING = {"cancel_event", "cancel_reminder", "forget_fact", "complete_todo"}


def _asks_for_an_act(text: str) -> bool:
    """Whether the request plainly asks for one of the acts code recognises whatever the
    model took it for: a reminder, a to-do, an event put in the calendar, something ticked
    off or taken off a list, a contact, a reply, a forward or a message to someone."""
    return any(
        check(text)
        for check in (
            asks_for_a_reminder,
            asks_to_cancel_a_reminder,
            asks_to_put_on_the_todo_list,
            asks_to_tick_off,
            takes_off_a_list,
            asks_to_put_in_the_calendar,
            asks_to_add_a_contact,
            asks_to_forward,
        )
    ) or bool(_REPLY.search(text) or _MESSAGE.search(text))


# Words past which a message that asks nothing is someone talking, not a terse command
# ("the team lunch is at Café Rosa now").
_TALK = 15


def _which_of_two_days(text: str, now: datetime) -> bool:
    """Whether the question asks which of two days something is on ("is my dentist
    appointment today or tomorrow?", "ist das Konzert Freitag oder Samstag?")."""
    question = the_question(text)
    return (
        "?" in question
        and re.search(r"\s(?:or|oder|ou|o)\s", question) is not None
        and len(days_named(question, now)) >= 2
    )


def _asks_apart_from_the_calendar(text: str, now: datetime) -> bool:
    """Whether the request's question says itself what it asks (two telling words), and
    asks no when, where, how much of theirs, and names no day or time ("¿cuál es el océano
    más grande del mundo?" after "hoy ha sido un día de locos"): the calendar, to-dos or
    spending cannot be what it asks ("Passt das?" can)."""
    from app.agent.intents.file_steps import telling_words

    question = the_question(text)
    return (
        len(telling_words(asking_clause(question))) >= 2
        and read_when(question, now) is None
        and not _WHEN_WHERE.search(fold(question))
        and not asks_a_past_cost(question)
    )


# Asking when or where anywhere in a question ("any idea when the delivery is …"), folded.
_WHEN_WHERE = re.compile(
    r"\b(?:when|what time|where|wann|wie ?viel uhr|wo|wohin|quand|quelle heure|ou|"
    r"cuando|que hora|donde|adonde)\b"
)


def _names_an_appointment(text: str) -> bool:
    """Whether `text` has a word for an appointment ("rdv", "Termin", "Zahnarzttermin")."""
    return any(w in ANY_EVENT or w.endswith("termin") for w in re.findall(r"[\w'-]+", fold(text)))


def _a_day_and_time(text: str, now: datetime) -> bool:
    """Whether `text` names a day to come and a clock time on it."""
    when = read_when(text, now)
    return when is not None and when.day_given and when.start is not None and when.day >= now.date()


def _names_more_than_a_day(words: str, now: datetime) -> bool:
    """Whether an event's slot names something besides days and times ("dienstag" names no
    event; "Friseur" and "Tuesday's dentist" do), and besides the verb of cancelling the
    model copied ("löschen") or the word for any event ("den Termin")."""
    return any(
        not names_a_time(w, now)
        and not is_function_word(w)
        and not asks_to_cancel(w)
        and fold(w) not in ANY_EVENT
        for w in re.findall(r"[\w'-]+", words)
    )


def _a_new_time(recognised: Recognised, text: str, now: datetime) -> bool:
    """Whether a move was chosen with a new time or shift ("Cancel the 3pm and move it to
    Thursday"): a move, whatever else the request says. ("Ya no voy al concierto del jueves,
    quítalo" taken for a move names none; nor does "to": "mon agenda" of "tu peux enlever le
    rendez-vous de mon agenda ?": the event is cancelled.)"""
    slots = recognised.slots
    to = slots.get("to", "")
    return recognised.intent.name == "move_event" and bool(
        (to and (read_when(to, now) or read_shift(to))) or slots.get("shift") or read_shift(text)
    )


# The intents a request to be reminded may rightly be: a reminder set, or one already set
# (cancelling it is told from a new one by the reminders there are: `personal_steps`).
_REMINDERS = {"set_reminder", "cancel_reminder", "list_reminders"}
# Intents a request to put something on the to-do list may rightly be.
_TODOS = {"add_todo", "complete_todo", "list_todos"}
# Intents a request to put something in the calendar may rightly be.
_EVENTS = {"add_event", "move_event", "cancel_event", "find_free_time", "set_reminder"}
# What acts on nothing: a lookup, a memory kept, the model's own answer, or no intent.
_NOT_AN_ACT = {"ask_files", "find_emails", "recall_fact", "find_contact", "remember_fact",
               "show_calendar", JUST_ANSWER, SOMETHING_ELSE}  # fmt: skip


# A request asking for a reply: "reply"/"answer" opening it or one of its sentences, in
# its own language ("Antworte ihm, dass …", "Réponds-lui que …", "Contéstale que …").
_REPLY = re.compile(
    r"(?:^|[.!?;]\s*)(?:(?:and|und|et|y)\s+)?(?:please\s+|bitte\s+|s'il te pla[iî]t,?\s+)?"
    r"(?:reply|answer|write back|respond to|get back to (?:her|him|them|(?-i:[A-Z][\w'-]+))|"
    r"antworte|antwortet|antworten sie|schreib(?:t|en sie)?(?:\s+\S+){0,3}?\s+zurück|réponds|"
    r"répondez|responde|respóndele|respondele|contesta|contéstale|contestale)\b"
    # asked, wherever in a sentence (":( can you write back to him"): "Can you reply that …",
    # "Kannst du ihm antworten, dass …", "Tu peux lui répondre qu'on sera là", "¿Le puedes
    # responder que sí?", "¿Puedes contestarle a Tom …?"
    r"|(?<![\w'])(?:(?:can|could|would|will) you\s+(?:please\s+)?(?:reply|write back|respond|"
    r"get back to (?:her|him|them|(?-i:[A-Z][\w'-]+))|"
    # "Can you answer for me?", "Could you answer him that …", not "answer a question"
    r"answer (?:for me|on my behalf|her|him|them|(?-i:[A-Z][\w'-]+)))|"
    r"(?:kannst|könntest|konntest|würdest|wurdest) du\s+(?:\S+\s+){0,4}?(?:antworten|"
    r"zurückschreiben)|(?:tu peux|peux-tu|pourrais-tu|vous pouvez|pouvez-vous)\s+"
    r"(?:lui\s+|leur\s+)?r[ée]pondre|(?:le\s+|les\s+)?(?:puedes|podrías|podrias)\s+"
    r"(?:responder|contestar)(?:le|les)?)\b",
    re.IGNORECASE,
)


# A request asking to write to someone: a verb of telling or writing opening it (or asked
# for: "Could you drop Priya …", "Tu peux dire à Paul …") before a capitalised name ("Tell
# Maria …", "Drop Priya a line", "Schreib Jonas, …", "Dis à Paul que …", "Dile a Lena que
# …"), or "… and email her" after a lookup, or after what the person wants ("Jamie wants
# coffee, tell him Wednesday works", "…, sag ihm, dass …", "jamie asked if thursday works -
# tell him yes").
_MESSAGE = re.compile(
    r"^\s*(?i:please\s+|bitte\s+)?(?i:(?:can|could|would|will) you\s+(?:please\s+)?|"
    r"tu peux\s+|peux-tu\s+|pourrais-tu\s+|(?:me\s+)?puedes\s+|podr[ií]as\s+)?"
    r"(?i:tell|let|e-?mail|mail|write(?: to)?|drop|message|sag(?![^.!?]*\sab\b)|"
    r"schreib\w*|schick\w*|dis [àa]|dire [àa]|[ée]cri(?:s|re) [àa]|[ée]cris-lui|dile a|"
    r"decirle a|escr[ií]bele a|escribirle a|"
    r"escribe a|m[aá]ndale un (?:correo|email|mensaje) a)\s+(?!(?:I|Me|Mir|Mich|Moi)\b)"
    r"(?:(?i:bitte|mal|doch|please|stp|porfa|noch)\s+)*"  # ("schreib bitte maria klein, …")
    r"(?P<name>[A-ZÀ-Ý][\w'-]*)"
    r"|(?i:(?:\b(?:and|und|et|y)|,|[.!?]|\s[-–—])\s+(?:then\s+)?"
    r"(?:(?:e-?mail|mail|write to|tell|text|schreib|sag)\s+(?:her|him|them|ihr|ihm|ihnen)|"
    r"let\s+(?:her|him|them)\s+know|[ée]cris-lui|dis-lui|escr[ií]bele|dile)\b)"
)
# What someone is told, right after their name ("schreib Maria Klein, dass …", "write Tom
# that …", "écris à Léa que …").
_TOLD_THAT = re.compile(r"(?:\s+[A-ZÀ-Ý][\w'-]*)?\s*,?\s*(?:dass|that|que|qu['’])", re.IGNORECASE)
# The same, with the name typed in any case ("escríbele a maria …"): a lower-case name
# there is looked for in the mailbox.
_MESSAGE_ANY_CASE = re.compile(_MESSAGE.pattern, re.IGNORECASE)
# Intents a message to someone may rightly be (writing one, or what goes with a file or the
# web), which the request's "tell"/"email" does not overrule.
_WRITING = {
    "send_email", "reply_to_email", "ask_files", "show_folder", "write_note", "add_to_list",
    "open_file", "spending", "search_web", "add_contact",
}  # fmt: skip
# An email or message asked for anywhere in the request (folded): "eine kurze Mail schicken",
# "send … an email", "un mail", "un correo", "a message".
# The same time of day, kept on another day (folded): "same time", "zur gleichen Zeit",
# "à la même heure", "a la misma hora".
# Lookups that hold no events: asked when or where an event is, they cannot answer.
_NOT_HOLDING_EVENTS = {"find_contact", "recall_fact", "list_todos", "list_reminders", "spending"}
_INSTEAD = re.compile(r"\b(?:instead|stattdessen|lieber|plutot|a la place|en vez|en lugar)\b")
_SAME_TIME = re.compile(r"\bsame time\b|\bgleichen? (?:uhr)?zeit\b|\bmeme heure\b|\bmisma hora\b")
_MAIL_ASKED = re.compile(
    r"\b(?:e-?mail|mail|nachricht|message|courriel|correo|mensaje)\b|\b(?:text|write to)\b"
)
# Intents a request naming an amount later or earlier may rightly be: a move, a message
# about it ("tell Sophie the meeting starts an hour later"), a reminder.
_NOT_A_SHIFT = {"move_event", *_WRITING, *_REMINDERS}


def _said_recipient(recognised: Recognised, name: str) -> None:
    """The name said right after the verb of writing as the new email's recipient, over
    another word of the request the model took ("Schick Priya eine kurze Mail: Suppe war
    super" with the recipient "Suppe"); a typed address, or the name among the model's
    words ("Priya Nair"), is kept."""
    to = recognised.slots.get("to", "")
    if not ADDRESS.search(to) and not any_word_of(name, to):
        recognised.slots["to"] = name


def _a_person(recognised: Recognised) -> str:
    """The person a recognised intent's slots name ("Bob" of find_contact's "who"), or ""."""
    return next(
        (value for name, value in recognised.slots.items()
         if (slot := recognised.intent.slot(name)) is not None and slot.kind == "person"),
        "",
    )  # fmt: skip


def with_names_capitalised(doing: Doing) -> str:
    """The request with the names typed in lower case that the address book holds written
    with capitals, and the one after a verb of writing that the mailbox holds."""
    from app.agent.intents.personal_steps import names_capitalised

    return _recipient_capitalised(doing, names_capitalised(doing))


def _recipient_capitalised(doing: Doing, text: str) -> str:
    """`text` with the name typed in lower case right after a verb of writing written as the
    mail of someone of that name writes it ("escríbele a maria klein que …": "Maria Klein",
    who wrote about the offsite): the rules that find the recipient read capitals. One
    mailbox search, only for such a name."""
    from app.agent.intents.mail_steps import senders_named

    typed = _MESSAGE_ANY_CASE.search(text)
    name = typed["name"] if typed is not None else None
    if typed is None or not name or not name.islower() or is_function_word(name):
        return text
    if re.match(r"[@.+]\w", text[typed.end("name") :]):
        return text  # "Schreib bob@example.test …": an address, written as typed
    spelt = {
        fold(word): word
        for sender in senders_named(doing, name)
        for word in re.findall(r"[^\W\d_][\w'’-]*", str(sender.get("name") or ""))
        if word[:1].isupper()
    }
    # the name's words the sender's name holds, in a row: "maria klein"
    end = start = typed.start("name")
    written = ""
    for word in re.finditer(r"[^\W\d_][\w'’-]*", text[start:]):
        gap = text[end : start + word.start()]
        if gap.strip() or fold(word[0]) not in spelt:
            break
        written += gap + spelt[fold(word[0])]
        end = start + word.end()
    return text[:start] + written + text[end:]
