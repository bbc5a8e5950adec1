"""In front of the free loop: recognise the intent, fill its slots, let code do the steps.

A turn goes: recognise (one constrained model step) → if a slot is missing, ask and keep the
intent pending for the next message → else run the intent's steps. Every tool call the steps
make goes through the agent's own `_handle_call`: the gate, the confirmation dialog, the audit
log and the conversation's labels see exactly what the free loop would show them. "Just
answer" is a model step with no tools at all; "something else", a call the model could not
make, or steps that cannot go on hand the turn to the free loop.

Before the steps run, `handle` sets what the model took the request for beside what the
request plainly says, and the first rule that fits decides, in this order: the answer to a
pending question; a fact told ("remember that …"); whether a to-do is done yet; a page or
note asked for by name; a sum or a measure worked out; a message asked about (its gist, what
someone said, a forward); record numbers and documents; a correction of what is kept; free
time; reminders; lists kept in files; to-dos; contacts; the calendar; replies and messages
to someone; phone numbers and family; cancelling and moving; then a question taken for a
change (a fact to keep, a cancel, a tick-off) changes nothing; talk is answered; general
knowledge is answered plainly. A verb the request says ("put … on my list", "tell Maria …")
comes before what a question asks, so that a rule further down only ever takes back a change
the request did not ask for. Each rule's comment quotes a request it was written for.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from itertools import count
from typing import TYPE_CHECKING, Any

from app import clock
from app.agent.gate import Decision, Label, decide
from app.agent.intents import phrases
from app.agent.intents.catalog import BY_NAME, JUST_ANSWER, SOMETHING_ELSE, Intent
from app.agent.intents.knowledge import (
    ANSWER_PLAINLY,
    REPLY_PLAINLY,
    knowledge_question,
    refused,
    through_english,
)
from app.agent.intents.language import (
    ANY_EVENT,
    DEFAULT,
    Language,
    about_the_users_own,
    answered_by_a_document,
    asked_again,
    asking_clause,
    asks_a_past_cost,
    asks_a_question,
    asks_for_a_new_file,
    asks_for_a_phone_number,
    asks_for_a_record,
    asks_for_a_record_number,
    asks_for_a_reminder,
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
    asks_when_or_where,
    asks_whether_done,
    asks_whether_to_do,
    asks_who_is_right,
    asks_who_someone_is,
    is_function_word,
    kin_recipient,
    language_of_talk,
    laughs_or_sighs,
    list_named,
    names_the_web,
    off_the_calendar,
    person_answered,
    points_at_what_is_known,
    remembers_a_fact,
    sentences,
    separate_questions,
    speaks_of_a_message,
    speaks_of_the_todo_list,
    speaks_of_the_user,
    takes_off_a_list,
    the_question,
)
from app.agent.intents.recognise import (
    ADDRESS,
    Recognised,
    any_word_of,
    choice_request,
    fill_slots,
    grounded,
    in_users_words,
    names_a_time,
    plan_said,
    recognise,
    recognition_request,
)
from app.agent.intents.shorthand import written_out
from app.agent.intents.sums import worked_out
from app.agent.intents.when import (
    days_named,
    read_duration,
    read_relative,
    read_shift,
    read_when,
)
from app.agent.tools.declarations import BUILTIN_TOOLS
from app.agent.turn.loop import AgentEvent, CallRecord, TurnReport, add_stats
from app.llm.backend import (
    ModelBackend,
    ScoresReplies,
    StepRequest,
    StreamEvent,
)
from app.llm.tools import ToolCall
from connectors.folding import fold

if TYPE_CHECKING:
    from app.agent.turn.chat import Conversation
    from app.agent.turn.loop import Agent

log = logging.getLogger(__name__)

_CALL_IDS = count(1)


class Ask(Exception):
    """The steps need the user to say more: the question, and what it fills."""

    def __init__(self, question: str, slot: str, choices: list[Any] | None = None) -> None:
        super().__init__(question)
        self.question = question
        self.slot = slot
        self.choices = choices or []


def numbered(question: str, slot: str, choices: list[tuple[Any, str]]) -> Ask:
    """`question` with the first six `choices` (key, label) as a numbered list; the answer
    ("2", "the second", words of a label) fills `slot` with that choice's key."""
    shown = choices[:6]
    listing = "\n".join(f"{n}. {label}" for n, (_, label) in enumerate(shown, 1))
    return Ask(f"{question}\n{listing}", slot, shown)


class HandOver(Exception):
    """The steps cannot do this after all: the free loop takes the turn."""


class Instead(Exception):
    """What the user's data shows the request is another intent's after all (a reminder to
    cancel that no reminder is, with a time: a new one): its slots are filled from the
    request and its steps run. Raised before the steps change anything."""

    def __init__(self, intent: str, read: dict[str, str] | None = None) -> None:
        super().__init__(intent)
        self.intent = intent
        self.read = read  # slots code found, over the model's (`IntentRouter._instead`)


class FoundNothing(Exception):
    """The steps looked and nothing the user keeps holds what the request names; `answer`
    says so. Another lookup the model's choice was close to is tried before it is said
    ("What's the guest wifi called?" taken for a contact is in a note; "¿Qué me escribió
    Jonas?" taken for a memory is in the mail). Raised before anything is changed."""

    def __init__(self, answer: str) -> None:
        super().__init__(answer)
        self.answer = answer


# The intents that only look something up among the user's things: one that finds nothing
# passes the request to another of them the choice was close to (`FoundNothing`).
_LOOKUPS = ("ask_files", "find_emails", "find_contact", "recall_fact")
# How many other lookups are tried: each costs a slot-filling step.
_SECOND_LOOKS = 2


@dataclass
class Pending:
    """An intent waiting for the user's answer to one question."""

    intent: Intent
    slots: dict[str, str]
    slot: str
    choices: list[Any] = field(default_factory=list)
    request: str = ""
    # The request's language: the answer to the question is answered in it too.
    language: Language = DEFAULT


_NEVER_MIND = re.compile(
    r"^\s*(never ?mind|forget it|cancel|stop|no thanks|lass (es|mal)|vergiss es|abbrechen|"
    r"laisse tomber|annule[rz]?|olvidalo|cancela|dejalo)\b",
    re.IGNORECASE,
)


class Doing:
    """What an intent's steps may do in one turn: call tools through the gate, ask the model
    a narrow question, read the clock of the message, and say things in the language of the
    request (`say`, `question`)."""

    def __init__(
        self,
        agent: Agent,
        conversation: Conversation,
        request: str,
        emit: Callable[[AgentEvent], None],
        cancel: threading.Event,
        report: TurnReport,
        language: Language = DEFAULT,
    ) -> None:
        self.agent = agent
        self.conversation = conversation
        self.request = request
        self.emit = emit
        self.cancel = cancel
        self.report = report
        # Decided once a turn from the user's request (`IntentRouter.handle`).
        self.language = language
        # Slots filled with the user's whole message (`Slot.from_request`).
        self.from_request: set[str] = set()
        # Slots the user filled by picking one of a numbered question's choices.
        self.chosen: set[str] = set()
        # The intents the model's choice was close between (`Recognised.close`).
        self.close: tuple[str, ...] = ()
        # Another lookup is running after the first found nothing (`FoundNothing`).
        self.looking_again = False
        # Texts of this turn the model put into English (`english.english_words`), by text.
        self.english: dict[str, str] = {}
        # The whole message, when `request` is one of two questions it asks together
        # (`IntentRouter._each_question`): what the model is asked to answer from a text.
        self.together = ""
        sent = [m.sent_at for m in conversation.messages if m.role == "user" and m.sent_at]
        self.now: datetime = sent[-1].astimezone() if sent else clock.now()

    def say(self, key: str, /, **values: Any) -> str:
        """The phrase `key` (`phrases.PHRASES`) in the request's language, facts filled in."""
        return phrases.say(self.language, key, **values)

    def question(self, english: str) -> str:
        """A slot's question (`Slot.question`) in the request's language."""
        return phrases.question(self.language, english)

    def users_title(self, title: str) -> str:
        """A title the model wrote, in the user's words where it translated them ("Lunch
        with Priya" for "un déjeuner avec Priya"): an English request's own rewording is
        the user's language already."""
        return title if self.language == "en" else in_users_words(title, self.request, self.now)

    def dated(self, moment: date, spec: str) -> str:
        """A day or month in the request's language (`phrases.dated`: "day", "dd", "wd",
        "month")."""
        return phrases.dated(self.language, moment, spec)

    def call(self, tool: str, /, **arguments: Any) -> CallRecord:
        """Run one tool call exactly as the free loop would: it is the assistant's call in the
        conversation, and the gate decides it."""
        arguments = {k: v for k, v in arguments.items() if v not in (None, "", [])}
        if self.agent.registry.get(tool) is None:
            raise HandOver(f"the tool {tool} is not set up")
        call = ToolCall(tool, arguments, id=f"intent-{next(_CALL_IDS)}")
        self.conversation.add("assistant", "", tool_calls=[call])
        record = self.agent._handle_call(call, self.conversation, self.emit)
        self.report.calls.append(record)
        return record

    def peek(self, tool: str, /, untrusted: bool = False, **arguments: Any) -> Any:
        """A read whose result only code sees, to choose the steps ("does any memory hold the
        question's words?"): nothing reaches the model or the conversation, so a general
        question is neither shown a lookup nor labelled private by one. Only a built-in read
        the gate allows without asking; None for anything else, or when the read fails.
        `untrusted`: the caller may read what others wrote (mail, files, invitations), as it
        only counts words in it and passes none of it on."""
        found = self.agent.registry.get(tool)
        rule = BUILTIN_TOOLS.get(tool)
        if found is None or rule is None or rule.label != Label.READ:
            return None
        if rule.untrusted_result and not untrusted:
            return None
        verdict = decide(tool, arguments, self.agent.context, self.agent.registry.rules(),
                         self.agent.permissions.active())  # fmt: skip
        if verdict.decision != Decision.ALLOW:
            return None
        try:
            return found.handler(dict(arguments)).content
        except Exception:  # a store that cannot be read: the steps go on as without it
            log.warning("peeking at %s failed", tool, exc_info=True)
            return None

    def write(self, system: str, user: str, stream: bool = False, exact: bool = False) -> str:
        """A narrow question to the model (a summary, an email's body): no tools, no
        history, only what it needs. `exact`: its most likely words, not a sample (a
        translation has one right answer: sampled, the 0.5B model translated the same
        German question two ways in one turn, "necks" for "Beine" in one)."""
        sampling = self.agent.sampling
        if exact:
            sampling = replace(sampling, temperature=0.0, top_k=1, top_p=1.0, min_p=0.0)
        request = StepRequest(
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            sampling=sampling,
            tool_choice="none",
        )

        def forward(event: StreamEvent) -> None:
            if stream and event.kind == "text":
                self.emit(AgentEvent("text", event.text))

        result = self.agent.backend.step(request, forward, self.cancel)
        add_stats(self.report.stats, result.stats)
        self.report.steps += 1
        return result.text.strip()

    def _scores(self, system: str, user: str, replies: list[str]) -> dict[str, float] | None:
        """The model's score of each of `replies` to one narrow question (one step); None
        where the model cannot be asked that way (a server, a script)."""
        backend = self.agent.backend
        if not isinstance(backend, ScoresReplies):
            return None
        request = StepRequest(
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            sampling=self.agent.sampling,
        )
        scores = backend.score_replies(request, replies, self.cancel)
        self.report.steps += 1
        return scores or None

    def pick(self, question: str, options: list[str]) -> int | None:
        """A narrow choice for the model: which of `options` (numbered from 1) the user's
        message means, or None for none of them. Read from the model's probabilities over
        the numbers alone ("0" for none), asked twice, the list in both orders: a small model
        favours a place in a list, so only an item it picks in both orders counts. None too
        where the model cannot be asked that way (a server, a script): the steps then ask
        the user."""
        if not options:
            return None
        picks = []
        replies = [str(n) for n in range(len(options) + 1)]
        for order in (list(range(len(options))), list(reversed(range(len(options))))):
            listing = "\n".join(f"{n}. {options[i]}" for n, i in enumerate(order, 1))
            asked = (
                f"{question}\n\n{listing}\n0. none of these\n\nThe user's message: {self.request}"
            )
            scores = self._scores(_PICK_PROMPT, asked, replies)
            if scores is None:
                return None
            best = int(max(replies, key=lambda reply: scores[reply]))
            picks.append(order[best - 1] + 1 if best else None)
        log.info("picked %s of %d in the two orders", picks, len(options))
        return picks[0] if picks[0] == picks[1] else None

    def judge(self, question: str, options: list[str]) -> int | None:
        """The 1-based number of the one option the model says "yes" of, asked of each alone
        (`question` about "this fact"), when its "yes" leads its "no" by more than any
        other's does by `_JUDGED_APART`; None if none leads, two are close, or the model
        cannot be asked so. Asked alone, no option has a place in a list to be chosen for."""
        leads = []
        for option in options:
            asked = f"The user's message: {self.request}\n\nThis fact: {option}\n\n{question}"
            scores = self._scores(_JUDGE_PROMPT, asked, ["yes", "no"])
            if scores is None:
                return None
            leads.append(scores["yes"] - scores["no"])
        if not leads:
            return None
        log.info("judged yes-no leads %s", [round(lead, 2) for lead in leads])
        best = max(range(len(options)), key=lambda i: leads[i])
        others = [lead for i, lead in enumerate(leads) if i != best]
        if leads[best] <= 0 or (others and leads[best] - max(others) < _JUDGED_APART):
            return None
        return best + 1


def outcome(doing: Doing, record: Any, done: str) -> str:
    """The answer for a change: what was done, or why not, in the tool's own words."""
    if record.status == "ok":
        return done
    if record.answer == "denied":
        return doing.say("not_done")
    return doing.say("failed", result=record.result)


_PICK_PROMPT = (
    "Answer with one number alone: the item the user's message means, in any language, or 0 "
    "when it means none of them."
)
_JUDGE_PROMPT = "Answer yes or no alone."
# How much likelier "yes" must be for the one item judged than for any other (log-probability
# margins): a small model says much the same of every item.
_JUDGED_APART = 1.0

Steps = Callable[[Doing, dict[str, str]], str]


def _looked_up(doing: Doing, asked_for: bool = False) -> str | None:
    """The answer from the email or file plainly holding the request's words, if one does.
    `asked_for`: a lookup missing a slot; a question of when or where is then also the
    calendar event holding its words ("l'appel avec Lena, c'est prévu quand ?"), or what a
    dated email or file holding one of them says ("el paquete de Kiezbuch… ¿sabes qué día
    me lo traen?"), and any question what memories plainly hold, before the slot is asked
    for."""
    from app.agent.intents.calendar_steps import event_asked_about, shown
    from app.agent.intents.lookup import answer_from_things
    from app.agent.intents.personal_steps import remembered_plainly

    when = asked_for and asks_when_or_where(doing.request)
    looks: list[Callable[[], str | None]] = [
        lambda: shown(doing, e) if when and (e := event_asked_about(doing)) else None,
        lambda: answer_from_things(doing, doing.request, plainly=True),
        lambda: answer_from_things(doing, doing.request, dated=True) if when else None,
        # "mi cafetería favorita… ¿cuál era?": a memory
        lambda: remembered_plainly(doing) if asked_for else None,
    ]
    for look in looks:
        try:
            if (found := look()) is not None:
                return found
        except HandOver:  # that store cannot be read: the next may answer
            continue
    return None


def _unsubscribe_page(doing: Doing) -> str | None:
    from app.agent.intents.lookup import unsubscribe_page  # (it imports this module)

    try:
        return unsubscribe_page(doing)
    except HandOver:  # the mailbox cannot be read: the request goes on as it was taken
        return None


def read_just_before(doing: Doing) -> dict[str, Any] | None:
    """The one email the turn before this one read (its id, sender and subject), the one a
    reply "to her" answers; None if that turn read none, or several."""
    messages = doing.conversation.messages
    asked = [i for i, m in enumerate(messages) if m.role == "user"]
    if len(asked) < 2:
        return None
    read = {
        str(call.arguments.get("email_id"))
        for message in messages[asked[-2] : asked[-1]]
        for call in message.tool_calls or []
        if call.name == "read_email" and call.arguments.get("email_id")
    }
    if len(read) != 1:
        return None
    email_id = read.pop()
    found = doing.peek("read_email", untrusted=True, email_id=email_id)
    if not isinstance(found, dict):
        return None
    return {"email_id": email_id, "sender": found.get("from"), "subject": found.get("subject")}


def _names_no_one(request: str) -> bool:
    from app.agent.intents.personal_steps import names_no_one

    return names_no_one(request)


def _named_by_an_address(request: str, address: bool) -> str:
    """The name the request writes that the one address it types spells (`address`: that
    address, where it spells one), or ""."""
    from app.agent.intents.personal_steps import named_by_address

    typed = list(dict.fromkeys(ADDRESS.findall(request)))
    name = named_by_address(request, typed) if len(typed) == 1 else ""
    return typed[0] if name and address else name


def _a_sender_named(doing: Doing) -> bool:
    """Whether a name the request writes is someone who wrote to the user (a mail search;
    in a request typed all in lower case, its first words that may be a name)."""
    from app.agent.intents.mail_steps import names_written, senders_named
    from app.agent.intents.personal_steps import lower_case_names

    names = sorted(names_written(doing))[:2] or lower_case_names(doing)[:3]
    return any(senders_named(doing, name) for name in names)


def _names_capitalised(doing: Doing) -> str:
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


def _list_kept(doing: Doing) -> str | None:
    from app.agent.intents.file_steps import list_kept

    return list_kept(doing) if list_named(doing.request) else None


def _note_named_by(text: str, request: str) -> str:
    from app.agent.intents.file_steps import note_named_by

    return note_named_by(text, request)


def _a_file_named_whole(doing: Doing) -> bool:
    from app.agent.intents.file_steps import named_whole

    return named_whole(doing, doing.request) is not None


def _one_reachable(doing: Doing) -> str:
    from app.agent.intents.mail_steps import one_other_reachable

    return one_other_reachable(doing, "") or ""


def _names_a_todo(doing: Doing, done: bool = False) -> bool:
    from app.agent.intents.personal_steps import names_a_todo

    return names_a_todo(doing, done)


def _one_known_name(doing: Doing) -> str:
    """The one name the request writes that a card of the address book holds, or ""."""
    from app.agent.intents.personal_steps import one_name_in_contacts

    return one_name_in_contacts(doing)


def _event_named(
    doing: Doing, whole: bool = False, on_the_day: bool = False, moving: bool = False
) -> str | None:
    """The title of the one calendar event the request names, if it names one."""
    from app.agent.intents.calendar_steps import event_named

    try:
        return event_named(doing, whole, on_the_day, moving)
    except HandOver:
        return None


# A look at the user's data before an intent's slots are asked for: the name of the intent
# the request is after all (`Instead`), or None.
Before = Callable[[Doing], str | None]


def _steps() -> tuple[dict[str, Steps], dict[str, Before]]:
    from app.agent.intents import (
        calendar_steps,
        file_steps,
        lookup,
        mail_steps,
        money_steps,
        moves,
        personal_steps,
        web_steps,
    )

    steps = {
        **calendar_steps.STEPS,
        **mail_steps.STEPS,
        **personal_steps.STEPS,
        **file_steps.STEPS,
        **lookup.STEPS,
        **money_steps.STEPS,
        **moves.STEPS,
        **web_steps.STEPS,
    }
    return steps, {**calendar_steps.BEFORE, **personal_steps.BEFORE}


class IntentRouter:
    """The agent's front desk (`Agent.front`): handles a turn or leaves it to the loop."""

    def __init__(self, staged: bool = False) -> None:
        self.steps, self.before = _steps()
        # Recognition in two steps, the area first (`recognise`); bench/intent_recognition.py
        # measures which way a model does better.
        self.staged = staged
        self.last: Recognised | None = None  # for tests and the benchmark's failure kinds
        # The question of two asked in one message that this turn is answering now, if so
        # (`_each_question`); a plain answer then answers the whole message instead.
        self.part: str | None = None
        self.whole = False

    def warm(self, backend: ModelBackend, cancel: threading.Event) -> int | None:
        """Evaluate the recognition prompts' shared parts (kept as checkpoints): the first
        request then costs only its own words. The tokens computed, or None if cancelled."""
        warm = getattr(backend, "warm", None)
        if warm is None:
            return 0
        computed = 0
        for request in (choice_request("…"), recognition_request("…")):
            done = warm(request, cancel)
            if done is None:
                return None
            computed += done
        return computed

    def handle(
        self,
        agent: Agent,
        conversation: Conversation,
        text: str,
        emit: Callable[[AgentEvent], None],
        cancel: threading.Event,
        report: TurnReport,
    ) -> bool:
        text = written_out(text)  # "can u … tmrw": the words the rules and the model know
        pending: Pending | None = getattr(conversation, "pending_intent", None)
        conversation.pending_intent = None
        if pending is not None and _a_new_request(pending, text, clock.now()):
            pending = None  # a whole new request, not the answer: recognise it afresh
        # An answer to a question ("2", "Friday", a name) keeps the request's language.
        earlier = [m.content for m in conversation.messages if m.role == "user"][:-1]
        language = pending.language if pending else language_of_talk(earlier, text)
        doing = Doing(agent, conversation, text, emit, cancel, report, language)
        if pending is None:
            text = doing.request = _names_capitalised(doing)  # "email jonas": Jonas
        if self.part is not None:  # "… her?" of "When is Mum's birthday, and … for her?"
            doing.together = [m.content for m in conversation.messages if m.role == "user"][-1]
        if pending is not None and not _NEVER_MIND.search(text):
            slots = dict(pending.slots)
            if pending.choices:
                slots[pending.slot] = _answer_choice(text, pending.choices)
                doing.chosen.add(pending.slot)
            elif (slot := pending.intent.slot(pending.slot)) and slot.kind == "when":
                # "Friday", asked the time, then "at 3": Friday at 3.
                slots[pending.slot] = f"{slots.get(pending.slot, '')} {text.strip()}".strip()
            elif told := _when_told_instead(pending, text, doing.now):
                # asked what it is, told when ("ah sí, a las ocho y media"): the time, and
                # what it is still asked
                slots[told] = f"{slots.get(told, '')} {text.strip()}".strip()
            elif slot and slot.kind == "person" and (who := person_answered(text)):
                slots[pending.slot] = who  # "A Anna, la de la cena del viernes pasado"
            else:
                slots[pending.slot] = text.strip()
            return self._run(doing, pending.intent, slots, f"{pending.request}\n{text}")
        if pending is not None:
            return self._say(doing, doing.say("left_it"), "answered")
        if self.part is None and (parts := separate_questions(text)):
            return self._each_question(agent, conversation, parts, emit, cancel, report)
        # "Rappelle-moi, l'appel avec Lena, c'est prévu quand ?" asks when the call is: the
        # model is shown the question without the "remind me" that would make it a reminder
        asked = asked_again(text) or text
        recognised = recognise(agent.backend, asked, cancel, staged=self.staged)
        report.steps += 1
        self.last = recognised
        if recognised is not None:
            add_stats(report.stats, recognised.stats)
        if cancel.is_set():
            report.stop_reason = "cancelled"
            return True
        fact = remembers_a_fact(text)
        chosen = recognised.intent.name if recognised is not None else SOMETHING_ELSE
        if (
            fact is not None
            and (chosen == "add_event" or _names_an_appointment(text))
            and _a_day_and_time(text, doing.now)
        ):
            # "Mi hermana viene el jueves a las 10, apúntalo", "j'ai rdv chez l'ophtalmo
            # jeudi prochain à 10h30, tu peux le noter ?" (taken for a note): an appointment
            fact = None
            if chosen != "add_event":
                return self._instead(doing, BY_NAME["add_event"], text)
        if (
            chosen in _NOT_AN_ACT
            and asks_to_note_it_down(text)
            and _a_day_and_time(text, doing.now)
        ):
            # "ugh I totally forgot I'm at the optician thursday 4pm, can u pop that in?"
            # taken for the files, "… apúntalo" for a memory: a day and time to come, noted
            # down, is an appointment
            return self._instead(doing, BY_NAME["add_event"], text)
        if fact is not None and chosen not in ("remember_fact", "set_reminder"):
            # "Merk dir, Jonas trinkt keinen Kaffee" taken for a plain answer, "Retiens que
            # Claire est allergique aux chats" for a to-do, or no usable call at all: a fact
            # to keep, as the user said it (code read it whole)
            return self._instead(doing, BY_NAME["remember_fact"], text, read={"fact": fact})
        if fact is not None and recognised is not None and chosen == "remember_fact":
            recognised.slots["fact"] = fact  # the user's words, not the model's translation
        if (
            asks_whether_done(text)
            and not asks_to_tick_off(text)
            and _names_a_todo(doing, done=True)
        ):
            # "hab ich die steuerunterlagen schon erledigt?" taken for a fact to keep, or for
            # ticking it off: whether the to-do it names is done, from the list with the
            # done ones (changes nothing)
            return self._instead(doing, BY_NAME["list_todos"], text)
        if (opened := _unsubscribe_page(doing)) is not None:
            # "those newsletters are getting on my nerves. can you bring up the page where I
            # can unsubscribe?" taken for a web search: the link their email gives
            return self._say(doing, opened, "answered")
        if (
            chosen != "open_website"
            and asks_to_open_a_site(text)
            and agent.registry.get("open_item") is not None
        ):
            # "ábreme la web de la BVG porfa, que quiero mirar los horarios del metro" taken
            # for a web search: the site is opened (the dialog shows its address first)
            return self._instead(doing, BY_NAME["open_website"], text)
        if (
            chosen in _LOOKING | {SOMETHING_ELSE, JUST_ANSWER}
            and not _asks_for_an_act(text)
            and (sum_ := worked_out(text, doing.language)) is not None
        ):
            # "dinner came to 87 euros and there were 3 of us. how much does everyone owe?"
            # taken for spending, or the model's own sum ("5,000 euros each"): code divides
            return self._say(doing, sum_, "answered")
        if (
            chosen in _LOOKING | {JUST_ANSWER}  # (the loop searches the web itself)
            and asks_for_the_weather(text)
            and not _asks_for_an_act(text)
            and agent.registry.get("web_search") is not None
        ):
            # "what's the weather like in berlin today?" taken for the day's calendar, or the
            # model's own guess: only the web knows (the dialog shows the search first)
            return self._instead(doing, BY_NAME["search_web"], text,
                                 read={"query": the_question(text).strip(" ?¿!")})  # fmt: skip
        if (
            chosen == "search_web"
            and about_the_users_own(text)
            and not names_the_web(text)
            and _a_file_named_whole(doing)
        ):
            # "find my lisbon itinerary" taken for a web search: the user's file its name
            # holds every word of (else the web is searched, the dialog first)
            return self._instead(doing, BY_NAME["ask_files"], text, read={"about": text})
        if (
            (
                chosen in _LOOKING
                # a message no verb of writing asks for ("coucou ! j'ai couru mon premier
                # semi dimanche, je suis complètement cassée 😅" taken for a reply)
                or (
                    chosen in ("reply_to_email", "send_email")
                    and not _REPLY.search(text)
                    and not _MESSAGE.search(text)
                )
            )
            and "?" not in text
            and laughs_or_sighs(text)
            and not _asks_for_an_act(text)
            and not asks_whats_on(text)
        ):
            # "uf qué semana llevo, y eso que es martes jaja" taken for Tuesday's calendar:
            # someone laughing or sighing who asks nothing is talking; the model answers
            return self._chat(agent, conversation, emit, cancel, report)
        # no intent of the catalogue taken, or the model's own answer
        taken_for_none = recognised is None or chosen in (SOMETHING_ELSE, JUST_ANSWER)
        if taken_for_none and (name := asks_to_write_a_note(text)):
            # "… can you jot them down in a little note? Call it deliveries.md" taken for
            # nothing the catalogue has: a new note, its text looked up where the request says
            return self._instead(doing, BY_NAME["write_note"], text,
                                 read={"name": name, "content": ""})  # fmt: skip
        if (
            (taken_for_none or chosen in ("ask_files", "recall_fact", "find_contact"))
            and asks_for_the_gist(text)
            and (speaks_of_a_message(text) or _a_sender_named(doing))
        ):
            # "Sophie hat mir wegen einer Rechnung geschrieben … Kannst du mir kurz
            # zusammenfassen, worum's geht?" taken for nothing, for the model's own answer,
            # or for a look in the files ("Sophie m'a écrit ce matin … Elle veut quoi, en deux
            # mots ?"), or naming only who wrote ("was wollte Sophie nochmal genau wegen der
            # Nordwind-Rechnung? kurz zusammenfassen bitte"): her email is read and summarised
            return self._instead(doing, BY_NAME["read_email"], text)
        if (
            chosen not in _WRITING
            and (asks_who_is_right(text) or (chosen == "set_reminder" and "?" in text))
            and not asks_for_a_reminder(text)
            and (general := _general_question(doing)) is not None
        ):
            # "Settle something for me: my flatmate swears Sydney is the capital of
            # Australia … Who wins?" taken for a reminder or a move, "… 20 degrees here this
            # week - what is that in Fahrenheit?" for a reminder (none asked): a question of
            # knowledge
            return self._chat(agent, conversation, emit, cancel, report, asked=general,
                              doing=doing)  # fmt: skip
        if recognised is not None and chosen == SOMETHING_ELSE:
            general = _general_question(doing)
            if general is not None and read_when(general, doing.now) is None:
                # "Long night, the neighbours partied till three. Anyway: which planet is the
                # biggest?" taken for something the catalogue lacks: a question of general
                # knowledge that nothing the user keeps names, and no day's (the weather,
                # the news), is answered plainly, not searched for in every store
                return self._chat(agent, conversation, emit, cancel, report, asked=general,
                                  doing=doing)  # fmt: skip
        if recognised is None or recognised.intent.name == SOMETHING_ELSE:
            if not _asks_for_an_act(text):
                return False
            # "Erinner mich bitte dran, dass ich bei der Autoversicherung anrufen muss" with no
            # usable call: what the request plainly asks for decides (the rules below)
            recognised = Recognised(BY_NAME[SOMETHING_ELSE])
        if (
            chosen in ("find_free_time", "show_calendar")
            and speaks_of_a_message(text)
            and "?" in text
            and not asks_for_free_time(text)
            and not asks_whats_on(text)
        ):
            # "… the building management sent round something about the water being off?
            # What hours was that?" taken for tomorrow's free time: the message says
            return self._instead(doing, BY_NAME["find_emails"], text)
        if chosen == "find_contact" and asks_for_a_record_number(text):
            # "C'est quoi le nom de l'hôtel, et tu as le numéro de réservation ?" taken for a
            # contact (Sam, named before): a booking's number is in a file or an email
            recognised = Recognised(BY_NAME["ask_files"])
        if _DOCUMENT.search(text) and recognised.intent.name in _KEPT_ELSEWHERE:
            # "How many things are in my todo.txt?" is about that file, not the to-do list
            recognised = Recognised(BY_NAME["ask_files"])
        elif answered_by_a_document(text) and recognised.intent.name in _LOOKING:
            # "Lundi j'ai la réunion budget … On a dépassé de combien, d'après mon tableau de
            # budget ?" taken for Monday's free time: the spreadsheet answers it
            recognised = Recognised(BY_NAME["ask_files"])
        if asks_to_correct_what_is_known(text) and chosen != "forget_fact":
            # "Le Café Rosa a fermé … Mon nouveau QG, c'est le Café Liebling. Tu peux corriger
            # ça dans ce que tu sais de moi ?" (taken for moving an event, too): the new fact
            # is kept in the user's words, the sentences told (and the one it replaces goes)
            told = " ".join(t for t in sentences(text) if not asks_to_correct_what_is_known(t))
            read = {"fact": told} if len(told.split()) >= 2 else None
            if chosen != "remember_fact":
                return self._instead(doing, BY_NAME["remember_fact"], text, read=read)
            if read and recognised is not None:
                recognised.slots["fact"] = told
        if (
            chosen in ("ask_files", "recall_fact", "find_contact", "find_emails", "list_todos")
            or (chosen == "add_event" and not asks_to_put_in_the_calendar(text))
            # ("can you check if i have anything on the 22nd": no free time asked for)
            or (
                chosen == "find_free_time"
                and read_duration(text) is None
                and not asks_for_free_time(text)
            )
        ) and (
            asks_whats_on(question := the_question(text))
            and (when := read_when(question, doing.now)) is not None
            and when.day_given
        ):
            # "… what have I actually got on, Saturday and Sunday?" taken for the files, "was
            # hab ich am Donnerstag eigentlich alles vor?" for the mail, "dis, j'ai un truc
            # jeudi soir ? sam voudrait aller au ciné" for a new event: the calendar says
            return self._instead(doing, BY_NAME["show_calendar"], text,
                                 given={"when": question})  # fmt: skip
        if (
            (
                chosen in _NOT_HOLDING_EVENTS
                # (free time: unless a length to find is said, or more is asked than when)
                or (
                    chosen == "find_free_time"
                    and read_duration(text) is None
                    and not asks_when_and_more(text)
                )
            )
            and (
                _WHEN_WHERE.search(fold(the_question(text)))
                or asks_how_many_days(text)
                or _which_of_two_days(text, doing.now)
            )
            and not asks_for_free_time(text)
            and (event := _event_named(doing, whole=True, on_the_day=True)) is not None
        ):
            # "¿a qué hora tengo piano hoy?" taken for a contact called Piano, "whens my car
            # being serviced again" or "¿cuántos días faltan para el cumpleaños de mamá?" for
            # free time: when or where, or how long until, an event the calendar holds under
            # the request's words, the calendar says
            return self._run(doing, BY_NAME["show_calendar"], {"event": event, "when": ""}, text,
                             instead=True)  # fmt: skip
        if (
            chosen in ("ask_files", "recall_fact", "find_contact", "find_emails", "list_todos")
            and asks_for_free_time(text)
            and read_duration(text) is not None
            and (when := read_when(text, doing.now)) is not None
            and when.day_given
            and not speaks_of_a_message(text)
            and not _DOCUMENT.search(text)
        ):
            # "I need two hours for the tax stuff, somewhere between 9 and 6 on Friday. Tell
            # me the options" taken for the files: a length of time to find on a day said is
            # free time
            return self._instead(doing, BY_NAME["find_free_time"], text)
        if asks_to_cancel_a_reminder(text) and recognised.intent.name not in (
            "cancel_reminder",
            "list_reminders",
        ):
            # "… So you can scrap that reminder about renewing it" taken for an email, "tu
            # peux supprimer le rappel …" for a new one: the reminder is cancelled (the
            # dialog asks first)
            return self._instead(doing, BY_NAME["cancel_reminder"], text)
        if asks_for_a_reminder(text) and recognised.intent.name not in _REMINDERS:
            # "Erinnere mich am Freitag um 8 daran, die Pflanzen zu gießen" taken for free
            # time, "Remind me to email Tom at 5" for an email: a new reminder
            return self._instead(doing, BY_NAME["set_reminder"], text)
        if takes_off_a_list(text) and recognised.intent.name != "add_to_list":
            # "Nimm den Parmesan von der Einkaufsliste runter" taken for a to-do done or an
            # event cancelled: a line of the list's file goes
            return self._instead(doing, BY_NAME["add_to_list"], text)
        if list_named(text) and (
            recognised.intent.name in ("add_todo", "remember_fact")
            or (recognised.intent.name == "write_note" and not asks_for_a_new_file(text))
        ):
            # "J'ai oublié deux trucs pour les courses : tu peux ajouter des œufs et du beurre
            # sur ma liste ?" taken for a to-do, "schreib bitte noch eier und batterien auf
            # meine einkaufsliste" for a new note: the shopping list's file gets the lines
            return self._instead(doing, BY_NAME["add_to_list"], text)
        if recognised.intent.name == "list_todos" and (kept := _list_kept(doing)) is not None:
            # "what's in my packing list" taken for the to-dos: the list's file, as it is
            return self._say(doing, kept, "answered")
        if asks_to_tick_off(text) and recognised.intent.name != "complete_todo":
            # "die Bücher hab ich zurückgebracht, kannst du abhaken" taken for cancelling an
            # event, "tu peux le cocher ?" for forgetting: a to-do is done
            return self._instead(doing, BY_NAME["complete_todo"], text)
        if asks_to_put_on_the_todo_list(text) and (
            recognised.intent.name not in _TODOS
            # "Put cancelling the membership on my to-do list" taken for ticking one off
            or (recognised.intent.name == "complete_todo" and not asks_to_tick_off(text))
        ):
            # "Pop 'renew the parking permit' on my to-do list for Friday" taken for an
            # event, "Nimm … in meine Aufgaben auf" for a list in a file: a new to-do
            return self._instead(doing, BY_NAME["add_todo"], text)
        if (
            asks_to_add_a_contact(text)
            and chosen != "add_contact"
            and not (_REPLY.search(text) or _MESSAGE.search(text) or asks_to_forward(text))
        ):
            # "Anna Schulz ist gar nicht in meinem Adressbuch … Leg sie doch bitte an" taken
            # for an email to her, "… trägst du sie bitte ein?" for a look at her card: a new
            # card (its address from her mail, where the request says so)
            return self._instead(doing, BY_NAME["add_contact"], text)
        if asks_to_put_in_the_calendar(text) and (
            recognised.intent.name not in _EVENTS
            or (recognised.intent.name == "find_free_time" and not asks_for_free_time(text))
        ):
            # "Le cabinet du Dr Lee m'a envoyé un mail …, tu peux le mettre dans mon agenda ?"
            # taken for a to-do, "He quedado con Priya para ir al cine el miércoles … ¿Me lo
            # apuntas en el calendario?" for free time: a new event (its day copied from the
            # email, if none is said)
            return self._instead(doing, BY_NAME["add_event"], text)
        if (
            recognised.intent.name == "add_event"
            and asks_for_free_time(text)
            and asks_to_book_it(text)
            and (when := read_when(text, doing.now)) is not None
            and when.start is None
        ):
            # "Such mir am Freitag eine freie Stunde am Nachmittag und trag sie … ein" taken
            # for a new event with no time: the free time is found first, then booked
            return self._instead(doing, BY_NAME["find_free_time"], text)
        if _REPLY.search(text) and recognised.intent.name != "reply_to_email":
            # "Jamie wants coffee. Reply that Wednesday at 15:00 works": the time made the
            # model pick a new event (or a new email), but what is asked for is a reply
            return self._instead(doing, BY_NAME["reply_to_email"], text)
        if asks_to_forward(text) and recognised.intent.name != "send_email":
            # "Forward Tom the email from the bank" taken for reading it: it is sent on
            return self._instead(doing, BY_NAME["send_email"], text, {"to": _a_person(recognised)})
        if chosen in (JUST_ANSWER, SOMETHING_ELSE, "recall_fact") and asks_what_they_said(text):
            # "Oye, ¿qué me dijo Tom de la barbacoa?" taken for the model's own answer (which
            # made one up): what Tom wrote is in the mail
            return self._instead(doing, BY_NAME["find_emails"], text)
        if (
            chosen == "write_note"
            and (named := _MESSAGE.search(text))
            and named["name"]
            and (_MAIL_ASKED.search(fold(text)) or _TOLD_THAT.match(text, named.end("name")))
        ):
            # "Schreib Priya eine kurze Mail: danke für das Rezept …", "schreib bitte maria
            # klein, dass ich … vegetarisch esse" taken for a note called by her name: an
            # email to her
            return self._instead(doing, BY_NAME["send_email"], text, read={"to": named["name"]})
        if (message := _MESSAGE.search(text)) and recognised.intent.name not in _WRITING:
            # "Tell Maria my dietary requirement: vegetarian" taken for a memory, "Look up
            # Sophie and email her that …" for a contact: what is asked for is an email, to
            # the name the request gives if the model's words leave it out
            if message["name"]:  # said right after the verb: it decides over the model's
                return self._instead(doing, BY_NAME["send_email"], text,
                                     read={"to": message["name"]})  # fmt: skip
            # ("Priya mentioned she's late … Tell her it's no problem": the one named)
            to = _a_person(recognised) or _the_one_named(doing)
            return self._instead(doing, BY_NAME["send_email"], text, {"to": to})
        if (
            chosen in ("send_email", "reply_to_email", "remember_fact", JUST_ANSWER)
            and asks_for_a_phone_number(text)
            and not re.search(r"\d{3}", text)  # a number given is to be kept
        ):
            # "¿me pasas el móvil de Priya? le quiero escribir por whatsapp" taken for an
            # email, "Hast du mal Priyas Handynummer für mich?" for a fact to remember, "whats
            # priyas mobile number again?" for the model's own answer (it made one up): what
            # is asked for is her number, on her card
            who = _a_person(recognised) or _one_known_name(doing)
            return self._instead(doing, BY_NAME["find_contact"], text, {"who": who})
        family = asks_for_family_details(text)
        if family is not None and chosen not in ("find_contact", "add_contact", *_WRITING):
            # "Ich will heute Abend Mutti anrufen, hab aber ihre Nummer nicht …" taken for
            # the mail: her card (the one noted "Mum")
            return self._instead(doing, BY_NAME["find_contact"], text, read={"who": family})
        kin = kin_recipient(text)
        if kin is not None and _MAIL_ASKED.search(fold(text)) and chosen not in _WRITING:
            # "Kannst du meiner Mama eine kurze Mail schicken? Sam und ich …" taken for a
            # new event: an email, to the one the request names
            return self._instead(doing, BY_NAME["send_email"], text, read={"to": kin})
        if recognised.intent.name == "send_email" and message and message["name"]:
            _said_recipient(recognised, message["name"])
        elif recognised.intent.name == "send_email" and kin is not None:
            _said_recipient(recognised, kin)  # "… meiner Mama eine Mail …", not "Sam"
        if (
            asks_to_cancel(text)
            and recognised.intent.name not in _CANCELLING
            and not _a_new_time(recognised, text, doing.now)
            # a plain question ("Can you remove the background from a photo?") is looked
            # at only when it speaks of the user's own ("Scrap my dentist appointment")
            and (recognised.intent.name != JUST_ANSWER or speaks_of_the_user(text))
            and (event := _event_named(doing, whole=True, on_the_day=True)) is not None
        ):
            # "Scrap my dentist appointment today" taken for a new email, "Sag den Zahnarzt
            # heute ab" for a new event: the event the calendar holds under its words is
            # cancelled (the dialog asks first)
            return self._run(doing, BY_NAME["cancel_event"], {"event": event}, text, instead=True)
        if (
            asks_to_cancel(text)
            and recognised.intent.name in (_CANCELLING | _EVENTS) - {"cancel_event"}
            and off_the_calendar(text)
        ):
            # "Tu peux supprimer le rendez-vous au garage de mon agenda ?" taken for a
            # reminder, "Tu peux la virer de mon agenda ?" for a move: what is taken off the
            # calendar is an event
            return self._instead(doing, BY_NAME["cancel_event"], text)
        if (
            read_shift(text) is not None
            and recognised.intent.name not in _NOT_A_SHIFT
            and (event := _event_named(doing, whole=True, on_the_day=True)) is not None
        ):
            # "das Budgetmeeting am Montag fängt ne halbe Stunde später an, kannst du das
            # ändern?" taken for a new event: the event the calendar holds under its words
            # is moved by that amount (the dialog asks first)
            return self._run(doing, BY_NAME["move_event"], {"event": event}, text, instead=True)
        if (
            recognised.intent.name in _TODOS | _LOOKING
            and asks_to_move(text)
            and speaks_of_the_todo_list(text)
            and (when := read_when(text, doing.now)) is not None
            and when.day_given
        ):
            # "repousser ce truc dans ma liste de tâches au vendredi 25" taken for ticking it
            # off or a look at the list: the to-do's due day is moved (the dialog asks first);
            # what the model leaves out, the request's words name and its asking sentence
            # dates ("… d'ici mercredi prochain. Tu peux repousser … au vendredi 25 ?")
            given = {"event": text, "to": the_question(text)}
            return self._instead(doing, BY_NAME["move_event"], text, given=given)
        if (
            (
                recognised.intent.name == "add_event"
                or (
                    recognised.intent.name in ("reply_to_email", "send_email")
                    and not _REPLY.search(text)
                    and not _MESSAGE.search(text)
                )
            )
            # ("… the budget meeting at 11 instead": a time in place of the one it has)
            and (asks_to_move(text) or _INSTEAD.search(fold(text)))
            and (when := read_when(text, doing.now)) is not None
            # a time, or a day at the same time ("to friday instead? same time is fine")
            and (
                when.start_at(doing.now) is not None
                or (when.day_given and _SAME_TIME.search(fold(text)))
            )
            and (event := _event_named(doing, whole=True, on_the_day=True, moving=True))
        ):
            # "Sophie hat gefragt, ob wir unser 1:1 morgen auf 14 Uhr verlegen können …"
            # taken for a new event, or for an answer to Sophie the request does not ask for:
            # the event the calendar holds under its words is moved to the time named (the
            # dialog asks first)
            return self._run(doing, BY_NAME["move_event"], {"event": event}, text, instead=True)
        if (
            recognised.intent.name in ("cancel_event", "move_event")
            and not _names_more_than_a_day(recognised.slots.get("event", ""), doing.now)
            and (event := _event_named(doing, whole=True, on_the_day=True)) is not None
        ):
            # "…, así que hoy no hay clase. ¿Me la quitas del calendario?": the model named no
            # event (or only a day: "dienstag"), the request names one of the calendar's
            recognised.slots["event"] = event
        if (
            fact is None
            and recognised.intent.name == "remember_fact"
            and asks_a_question(text)
            and not asks_to_keep_in_mind(text)
            and not asks_to_correct_what_is_known(text)
        ):
            # "Mi hermana insiste en que vaya a verla este finde. ¿Tengo ya algo comprometido?"
            # taken for a fact to keep: a question asking nothing to be kept is no fact; the
            # next lookup the choice was close to (a question changes nothing), else a look
            # at what is kept
            other = next((n for n in recognised.close if n in _LOOKING), "recall_fact")
            return self._instead(doing, BY_NAME[other], text)
        if (
            recognised.intent.name in _CANCELLING
            and asks_whether_to_do(text)
            and not asks_to_cancel(text)
            and not asks_to_tick_off(text)
        ):
            # "¿tengo que devolver algo a la biblioteca?" taken for cancelling an event: a
            # question of what the user has to do, which changes nothing: the to-dos
            return self._instead(doing, BY_NAME["list_todos"], text)
        if _talk_taken_for_a_change(recognised, text, doing.now):
            return self._chat(agent, conversation, emit, cancel, report)
        if (
            recognised.intent.name == JUST_ANSWER
            and asks_who_someone_is(text)
            and (name := _one_known_name(doing))
        ):
            # "who is helen morgan?" taken for general knowledge: the address book's card
            return self._run(doing, BY_NAME["find_contact"], {"who": name}, text, instead=True)
        if recognised.intent.name == JUST_ANSWER:
            # "What's the name of my hotel in Lisbon?" taken for a general question: what
            # the mail or files plainly hold answers it; else the model answers as asked.
            of_theirs = (
                about_the_users_own(text)
                or asks_a_past_cost(text)  # "What did … cost?"
                or asks_for_a_record(text)  # "¿Cómo se llamaba el hotel …?"
                # the second of two questions, the message speaking of the user's own ("Wann
                # ist mein nächster Zahnarzttermin? Und wie heißt das Hotel in Lissabon?")
                or (bool(doing.together) and about_the_users_own(doing.together))
            )
            # (a question apart from the words about the user, "… my flatmate and I are
            # arguing about this. what temperature does water boil at?", is not theirs)
            general = _general_question(doing) if of_theirs else None
            if of_theirs and general is None and (found := _looked_up(doing)) is not None:
                return self._say(doing, found, "answered")
            return self._chat(agent, conversation, emit, cancel, report, asked=general, doing=doing)
        if _a_general_question(recognised, text, doing.now):
            return self._chat(agent, conversation, emit, cancel, report, doing=doing)
        looking = recognised.intent.name in _LOOKING - set(_LOOKUPS)
        general = (
            _general_question(doing)
            if recognised.intent.name in _LOOKUPS
            or (looking and _asks_apart_from_the_calendar(text, doing.now))
            # an email to read, though the request speaks of none ("… 20 degrees here this
            # week - what is that in Fahrenheit?" read as "the email from the school")
            or (recognised.intent.name == "read_email" and not speaks_of_a_message(text))
            else None
        )
        # (taken for the calendar, to-dos or spending, only a question saying itself what it
        # asks: "Vendredi, j'aimerais bloquer trois heures … Ça rentre ?" needs the sentence
        # before it, and is of the calendar after all)
        if general and not (looking and general == text):
            # "… what temperature does water boil at in fahrenheit?" taken for a lookup: what
            # the user keeps does not name it, the model answers (the question alone, when it
            # says itself what it asks)
            return self._chat(agent, conversation, emit, cancel, report, asked=general, doing=doing)
        doing.close = recognised.close
        return self._run(doing, recognised.intent, recognised.slots, text, recognised.dropped)

    def _each_question(
        self,
        agent: Agent,
        conversation: Conversation,
        parts: list[str],
        emit: Callable[[AgentEvent], None],
        cancel: threading.Event,
        report: TurnReport,
    ) -> bool:
        """Two questions asked in one message ("When is Mum's birthday, and what gift ideas
        do I have for her?"), each answered as if asked alone, the answers one after the
        other. One that needs asking back, or the model's own answer to the whole, ends it
        there; the first handed to the loop hands it the whole message."""
        answers: list[str] = []
        try:
            for part in parts:
                self.part, self.whole = part, False
                if not self.handle(agent, conversation, part, emit, cancel, report):
                    if not answers:
                        return False
                    break
                answers.append(report.answer)
                if self.whole or report.stop_reason != "answered" or cancel.is_set():
                    break
                emit(AgentEvent("text", "\n\n"))
        finally:
            self.part, self.whole = None, False
        if len(answers) > 1:
            report.answer = "\n\n".join(answers)
        return True

    def _run(
        self,
        doing: Doing,
        intent: Intent,
        slots: dict[str, str],
        request: str,
        dropped: dict[str, str] | None = None,
        instead: bool = False,
    ) -> bool:
        steps = self.steps.get(intent.name)
        if steps is None:
            return False
        doing.request = request  # with a question answered: the request and the answer
        check = self.before.get(intent.name)
        if not instead and check is not None and (other := check(doing)) is not None:
            log.info("intent %s is %s after all", intent.name, other)
            if other == JUST_ANSWER:  # nothing of the user's to act on: a plain answer
                return self._chat(doing.agent, doing.conversation, doing.emit, doing.cancel,
                                  doing.report, asked=_question_shown(doing),
                                  doing=doing)  # fmt: skip
            return self._instead(doing, BY_NAME[other], request)
        for slot in intent.slots:
            if slots.get(slot.name) or slot.name not in (dropped or {}):
                continue
            if slot.from_request:
                slots[slot.name] = request  # said, but not in the user's words: theirs
                doing.from_request.add(slot.name)
            elif slot.cut_from_request:
                slots[slot.name] = plan_said(request, doing.now)  # empty: asked below
        # a question's own day, before one said around it ("my pharmacy order has to be
        # picked up by saturday … what have I got on this friday?": Friday; "… hier soir …
        # plus besoin du plombier la semaine prochaine, tu peux annuler ?": next week); a
        # change reads the whole request ("Lunch at 1pm. Can you put it in on Friday?")
        asked = the_question(request) if intent.name in _OWN_DAY else request
        for slot in intent.slots:
            if slot.kind != "when" or not slot.read_request or slots.get(slot.name):
                continue
            said = next((t for t in dict.fromkeys((asked, request))
                         if read_when(t, doing.now) or read_relative(t)), None)  # fmt: skip
            if said is not None:
                slots[slot.name] = said
        if intent.name == "send_email" and asks_to_forward(request) and not slots.get("message"):
            # a forward says nothing of its own: the email forwarded is the message
            slots["message"] = request
            doing.from_request.add("message")
        for slot in intent.slots:
            if slot.kind == "person" and not slots.get(slot.name):
                # left out, but the request types an address that spells a name it writes
                # ("Tom's … from now on he's tom.becker@posteo.example"): that person (a
                # recipient: the address itself)
                slots[slot.name] = _named_by_an_address(request, slot.name == "to")
            if slot.kind == "person" and slot.name != "to" and not slots.get(slot.name):
                # left out, but the request writes one name of someone the user knows
                # ("Tom's got a new phone … sort that out in my contacts"): that one (a
                # recipient is never guessed)
                slots[slot.name] = _one_known_name(doing)
            if intent.name == "add_contact" and slot.name == "name" and not slots.get("name"):
                # "Jamie isn't in my address book yet - can you add them? use the email
                # address they wrote to me from": the one name written that the mail knows
                slots["name"] = _one_reachable(doing)
            if intent.name == "add_to_list" and slot.name == "list" and not slots.get("list"):
                # left out, but the request names the list by its kind ("a la lista de
                # equipaje": the packing list)
                slots["list"] = list_named(request)
            if slot.name == "message" and points_at_what_is_known(request):
                # "… Du weißt ja, was bei mir gilt": what is kept says it (the steps)
                slots.setdefault(slot.name, "")
                continue
            if (
                intent.name == "reply_to_email"
                and slot.name == "which"
                and not slots.get("which")
                and read_just_before(doing) is not None
            ):
                continue  # "… And reply that …": the email just read (the steps)
            if (
                intent.name == "write_note"
                and slot.name == "name"
                and not slots.get("name")
                and grounded(content := slots.get("content", ""), request)
            ):
                # "eine kurze Notiz anlegen: Einkauf Milch, Eier, Brot": named by its first
                # words, as a notes app names a note by its first line
                slots["name"] = _note_named_by(content, request)
                continue
            if slot.required and not slots.get(slot.name):
                if doing.looking_again:  # a second look asks nothing: it found nothing
                    raise FoundNothing("")
                if intent.looks_up and (found := _looked_up(doing, asked_for=True)) is not None:
                    return self._say(doing, found, "answered")
                if intent.name == "find_contact" and not instead and _names_no_one(request):
                    # "where did I put the notes from the car service?" taken for a contact:
                    # no one is asked about, the files are
                    log.info("intent %s names no one: the files", intent.name)
                    return self._instead(doing, BY_NAME["ask_files"], request)
                pending = Pending(intent, slots, slot.name, request=request,
                                  language=doing.language)  # fmt: skip
                return self._ask(doing, pending, doing.question(slot.question))
        try:
            answer = steps(doing, slots)
        except Ask as question:
            pending = Pending(
                intent, slots, question.slot, question.choices, request, doing.language
            )
            return self._ask(doing, pending, question.question)
        except Instead as other:
            if other.intent == JUST_ANSWER:  # nothing of the user's: a plain answer
                # (a question reported before "do you know?" asked as the one it reports)
                return self._chat(doing.agent, doing.conversation, doing.emit, doing.cancel,
                                  doing.report, after_lookups=True,
                                  asked=_question_shown(doing), doing=doing)  # fmt: skip
            if instead and not (intent.name == "find_free_time" and other.read):
                # once: the second intent's steps do not send it on again (but the free
                # time found is booked, with the slots code read: the new event's steps
                # then run as a second intent's)
                return self._handed_over(doing, intent, f"it is {other.intent} after all")
            log.info("intent %s is %s after all", intent.name, other.intent)
            return self._instead(doing, BY_NAME[other.intent], request, read=other.read)
        except HandOver as why:
            return self._handed_over(doing, intent, str(why))
        except FoundNothing as nothing:
            if doing.looking_again:
                raise
            return self._look_again(doing, intent, request, nothing.answer)
        return self._say(doing, answer, "answered")

    def _look_again(self, doing: Doing, intent: Intent, request: str, nothing: str) -> bool:
        """The other lookups the choice was close to, in the model's order, until one finds
        something; then the email or file that plainly holds the request's words ("What's the
        plumber's phone number?": no contact, but a note about the plumber); then the one
        calendar event the request names whole; else what the first said when it found
        nothing."""
        others = [n for n in doing.close if n in _LOOKUPS and n != intent.name][:_SECOND_LOOKS]
        doing.looking_again = True
        try:
            for other in others:
                log.info("intent %s found nothing; looking as %s", intent.name, other)
                try:
                    return self._instead(doing, BY_NAME[other], request)
                except FoundNothing:
                    continue
        finally:
            doing.looking_again = False
        # The files are looked at plainly unless a lookup searched them (one that searched
        # only the mail, "find_emails", has not: "wann ich zuletzt gegen Tetanus geimpft
        # wurde" is in a file)
        if "ask_files" not in {intent.name, *others} and (found := _looked_up(doing)) is not None:
            return self._say(doing, found, "answered")
        if intent.name != "show_calendar" and (event := _event_named(doing, whole=True)):
            # "¿A qué hora tengo hoy el dentista?" taken for a contact: today's Dentist (its
            # whole title named: "What did Tom say?" is not about "Lunch with Tom")
            return self._run(doing, BY_NAME["show_calendar"], {"event": event}, request,
                             instead=True)  # fmt: skip
        if intent.name != "list_todos" and _names_a_todo(doing):
            # "je dois rendre les livres à la bibliothèque quand déjà ?" taken for a memory:
            # the open to-do holding its words ("Return the library books", due Thursday)
            return self._run(doing, BY_NAME["list_todos"], {}, request, instead=True)
        return self._say(doing, nothing, "answered")

    def _handed_over(self, doing: Doing, intent: Intent, why: str) -> bool:
        """The free loop takes the turn, unless the steps already called a tool: then the
        user is told it was not finished (the loop would not know what was done)."""
        log.info("intent %s handed over to the loop: %s", intent.name, why)
        return bool(doing.report.calls) and self._say(
            doing, doing.say("not_finished"), "handed_over"
        )

    def _instead(
        self,
        doing: Doing,
        intent: Intent,
        request: str,
        given: dict[str, str] | None = None,
        read: dict[str, str] | None = None,
    ) -> bool:
        """Run `intent` for the request another intent's steps passed on (`Instead`);
        `given`: slots code read from the request, for those the model leaves empty; `read`:
        slots code read where the request plainly says them ("Schick Priya …": Priya), which
        decide over the model's."""
        filled = None
        if not all(slot.name in (read or {}) for slot in intent.slots):  # else nothing to fill
            filled = fill_slots(doing.agent.backend, request, intent, doing.cancel)
            doing.report.steps += 1
        if filled is not None:
            add_stats(doing.report.stats, filled.stats)
        slots, dropped = (filled.slots, filled.dropped) if filled else ({}, {})
        if filled is not None and filled.intent is not intent:
            slots, dropped = {}, {}  # a backend without `only_call` named another intent
        slots = {**{k: v for k, v in (given or {}).items() if v}, **slots, **(read or {})}
        doing.from_request.clear()
        return self._run(doing, intent, slots, request, dropped, instead=True)

    def _ask(self, doing: Doing, pending: Pending, question: str) -> bool:
        doing.conversation.pending_intent = pending
        return self._say(doing, question, "asked")

    def _say(self, doing: Doing, answer: str, reason: str) -> bool:
        doing.emit(AgentEvent("text", answer))
        doing.conversation.add("assistant", answer)
        doing.report.answer = answer
        doing.report.stop_reason = reason
        return True

    def _chat(
        self,
        agent: Agent,
        conversation: Conversation,
        emit: Callable[[AgentEvent], None],
        cancel: threading.Event,
        report: TurnReport,
        after_lookups: bool = False,
        asked: str | None = None,
        doing: Doing | None = None,
    ) -> bool:
        """A plain answer: the model with the conversation and no tools to call.
        `after_lookups`: the steps looked something up first and found nothing that answers;
        the model sees the conversation up to the request only (shown a lookup's empty
        result, a small model answered nothing). `asked`: a general question's own words,
        shown in place of the request (`general.general_question`). `doing`: the turn, when a
        question about the world asked in German, French or Spanish may be answered through
        English (`knowledge`)."""
        if self.part is not None:
            # one of two questions asked together, for the model to answer: it answers the
            # message as the user wrote it, and the other is not asked again
            self.whole, asked = True, None
            if doing is not None:
                doing.request = [m.content for m in conversation.messages if m.role == "user"][-1]
        if doing is not None and (
            question := knowledge_question(doing.request, doing.language, asked)
        ):
            answer = through_english(
                doing.write, question, doing.language, conversation.system_prompt,
                translate=lambda system, text, stream: doing.write(system, text, stream, True),
            )  # fmt: skip
            if answer:
                stopped = cancel.is_set()
                conversation.add("assistant", answer, stopped=stopped)
                report.answer = answer
                report.stop_reason = "cancelled" if stopped else "answered"
                return True
        shown = conversation
        last = max(i for i, m in enumerate(conversation.messages) if m.role == "user")
        if after_lookups:
            shown = replace(conversation, messages=conversation.messages[: last + 1], on_add=None)
        if asked and asked != conversation.messages[last].content:
            # a general question answered apart from the chatter around it
            messages = list(shown.messages)
            messages[last] = replace(messages[last], content=asked)
            shown = replace(shown, messages=messages, on_add=None)
        result = agent._model_step(shown, emit, cancel, report, "none")
        stopped = cancel.is_set() or result.stats.stop_reason == "cancelled"
        text = result.text
        if doing is not None and not stopped and refused(text):
            # "I apologize, but I can't assist with that request." for "who wrote it?" or for
            # "Puh, endlich ist der Montag rum": the question asked once more, alone, under
            # a plain instruction (talk: replied to), shown below the refusal
            question = asked or the_question(doing.request)
            plainly = ANSWER_PLAINLY if question.endswith("?") else REPLY_PLAINLY
            emit(AgentEvent("text", "\n\n"))
            again = doing.write(plainly, question, stream=True)
            text = again if again and not refused(again) else text
            stopped = cancel.is_set()
        conversation.add("assistant", text, reasoning=result.reasoning, stopped=stopped)
        report.answer = text.strip()
        report.steps += 1
        report.stop_reason = "cancelled" if stopped else "answered"
        return True


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


# The intents that only look something of the user's up.
_LOOKING = {*_LOOKUPS, "show_calendar", "find_free_time", "list_todos", "list_reminders",
            "spending"}  # fmt: skip
# The intents whose day is the asking sentence's first: the lookups and a cancellation.
_OWN_DAY = {*_LOOKING, "cancel_event"}


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


def _a_general_question(recognised: Recognised, text: str, now: datetime) -> bool:
    """ "¿Cuántos lados tiene un hexágono?" taken for a lookup, a plain answer close behind:
    the model kept none of the request's words in the slots, and the request names nothing
    of the user's, nor a day, but asks about two things or more. Looked up, what the user
    keeps would be searched for a hexagon."""
    from app.agent.intents.file_steps import telling_words

    return (
        recognised.intent.name in _LOOKING
        and JUST_ANSWER in recognised.close
        and not any(recognised.slots.values())
        and not speaks_of_the_user(text)
        and read_when(text, now) is None
        and len(telling_words(text)) >= 2
    )


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


def _talk_taken_for_a_change(recognised: Recognised, text: str, now: datetime) -> bool:
    """ "Puh, in two weeks is my piano recital and the nocturne still isn't right …" taken
    for moving an event: the message asks nothing (no question), says no verb of moving or
    cancelling and no new time, and is long or a plain answer was close. An event is moved
    only when the user asks for it. (A cancellation is often told, not asked: "Der
    Zahnarzttermin fällt aus".)"""
    return (
        recognised.intent.name == "move_event"
        and "?" not in text
        and not asks_to_move(text)
        and not asks_to_cancel(text)
        and not _a_new_time(recognised, text, now)
        and (JUST_ANSWER in recognised.close or len(text.split()) > _TALK)
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


def _question_shown(doing: Doing) -> str | None:
    from app.agent.intents.general import question_shown

    return question_shown(doing)


def _general_question(doing: Doing) -> str | None:
    from app.agent.intents.general import general_question

    return general_question(doing)


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
# …"), or "… and email her" after a lookup, or after what the
# person wants ("Jamie wants coffee, tell him Wednesday works", "…, sag ihm, dass …").
_MESSAGE = re.compile(
    r"^\s*(?i:please\s+|bitte\s+)?(?i:(?:can|could|would|will) you\s+(?:please\s+)?|"
    r"tu peux\s+|peux-tu\s+|pourrais-tu\s+|(?:me\s+)?puedes\s+|podr[ií]as\s+)?"
    r"(?i:tell|let|e-?mail|mail|write(?: to)?|drop|message|sag(?![^.!?]*\sab\b)|"
    r"schreib\w*|schick\w*|dis [àa]|dire [àa]|[ée]cri(?:s|re) [àa]|[ée]cris-lui|dile a|"
    r"decirle a|escr[ií]bele a|escribirle a|"
    r"escribe a|m[aá]ndale un (?:correo|email|mensaje) a)\s+(?!(?:I|Me|Mir|Mich|Moi)\b)"
    r"(?:(?i:bitte|mal|doch|please|stp|porfa|noch)\s+)*"  # ("schreib bitte maria klein, …")
    r"(?P<name>[A-ZÀ-Ý][\w'-]*)"
    r"|(?i:(?:\b(?:and|und|et|y)|,|[.!?])\s+(?:then\s+)?(?:(?:e-?mail|mail|write to|tell|text|"
    r"schreib|sag)\s+(?:her|him|them|ihr|ihm|ihnen)|let\s+(?:her|him|them)\s+know|"
    r"[ée]cris-lui|dis-lui|escr[ií]bele|dile)\b)"
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


def _the_one_named(doing: Doing) -> str:
    """The one name the request writes that can be written to ("Priya mentioned she's late
    … Tell her it's no problem": Priya), or ""."""
    from app.agent.intents.mail_steps import one_other_reachable

    return one_other_reachable(doing, "") or ""


def _a_person(recognised: Recognised) -> str:
    """The person a recognised intent's slots name ("Bob" of find_contact's "who"), or ""."""
    return next(
        (value for name, value in recognised.slots.items()
         if (slot := recognised.intent.slot(name)) is not None and slot.kind == "person"),
        "",
    )  # fmt: skip


def _when_told_instead(pending: Pending, text: str, now: datetime) -> str | None:
    """The intent's `when` slot still to fill when the answer to what something is says only
    a day or time ("a las ocho y media de la noche"); None otherwise."""
    slot = pending.intent.slot(pending.slot)
    if slot is None or slot.kind != "text" or plan_said(text, now):
        return None
    when = read_when(text, now)
    if when is None or not (when.day_given or when.start is not None):
        return None
    return next((s.name for s in pending.intent.slots if s.kind == "when"), None)


def _a_new_request(pending: Pending, text: str, now: datetime) -> bool:
    """Whether the reply to a question about a day, a person or an item is rather a new
    request: a long message that offers none of the choices. A time asked for and said at
    length ("oh right - let's say the thursday, 3 in the afternoon. an hour should do it")
    is the answer, unless it asks for something new itself."""
    slot = pending.intent.slot(pending.slot)
    if pending.choices:
        # "Sag mal, woher kam Chopin eigentlich? …" to "Which entry do you mean? 1. …": a
        # long message naming none of the choices by number, place or words
        return len(text.split()) > 8 and not _names_a_choice(text, pending.choices)
    if slot is None or slot.kind == "text":
        return False
    if slot.kind == "person" and person_answered(text):
        return False  # "A Anna, la de la cena del viernes pasado": who, and who she is
    if slot.kind == "when" and (when := read_when(text, now)) is not None and when.start:
        asks_anew = (
            asks_to_put_in_the_calendar(text)
            or asks_for_a_reminder(text)
            or asks_to_cancel(text)
            or asks_to_put_on_the_todo_list(text)
            or "?" in text
        )
        if not asks_anew:
            return False
    return len(text.split()) > 8


_ORDINALS = {
    "first": 0, "1st": 0, "erste": 0, "ersten": 0, "premier": 0, "premiere": 0, "primero": 0,
    "primera": 0, "second": 1, "2nd": 1, "zweite": 1, "zweiten": 1, "deuxieme": 1,
    "segundo": 1, "segunda": 1, "third": 2, "3rd": 2, "dritte": 2, "troisieme": 2,
    "tercero": 2, "tercera": 2, "last": -1, "letzte": -1, "dernier": -1, "ultimo": -1,
}  # fmt: skip


def _names_a_choice(text: str, choices: list[Any]) -> bool:
    """Whether `text` names one of the offered choices: its number, its place in the list
    ("the second") or a word of it."""
    folded = fold(text)
    return bool(
        any(1 <= int(n) <= len(choices) for n in re.findall(r"\b(\d{1,2})\b", folded))
        or any(re.search(rf"\b{word}\b", folded) for word in _ORDINALS)
        or any(any_word_of(str(label), text) for _, label in choices)
    )


def _answer_choice(text: str, choices: list[Any]) -> str:
    """Which of the offered choices the answer names ("2", "the second", words of its
    title), as that choice's key; the answer itself when it names none."""
    folded = fold(text)
    number = re.search(r"\b(\d{1,2})\b", folded)
    if number and 1 <= int(number.group(1)) <= len(choices):
        return str(choices[int(number.group(1)) - 1][0])
    for word, index in _ORDINALS.items():
        if re.search(rf"\b{word}\b", folded):
            return str(choices[index][0])
    for key, label in choices:
        if grounded(text, str(label), copied=False):
            return str(key)
    return text.strip()
