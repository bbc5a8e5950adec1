"""In front of the free loop: recognise the intent, fill its slots, let code do the steps.

A turn goes: recognise (one constrained model step) → if a slot is missing, ask and keep the
intent pending for the next message → else run the intent's steps. Every tool call the steps
make goes through the agent's own `_handle_call`: the gate, the confirmation dialog, the audit
log and the conversation's labels see exactly what the free loop would show them. "Just
answer" is a model step with no tools at all; "something else", a call the model could not
make, or steps that cannot go on hand the turn to the free loop.

Before the steps run, what the request plainly says is set beside what the model took it for:
the rules of `rules`, in their order; the first that decides, decides (another intent, an
answer, talk), else the model's choice runs. A pending question's answer comes first.
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
    DEFAULT,
    Language,
    asked_again,
    asks_for_a_reminder,
    asks_to_cancel,
    asks_to_forward,
    asks_to_put_in_the_calendar,
    asks_to_put_on_the_todo_list,
    asks_when_or_where,
    language_of_talk,
    list_named,
    person_answered,
    points_at_what_is_known,
    separate_questions,
    the_question,
    todo_said_around,
)
from app.agent.intents.recognise import (
    ADDRESS,
    Recognised,
    any_word_of,
    choice_request,
    fill_slots,
    grounded,
    in_users_words,
    plan_said,
    recognise,
    recognition_request,
)
from app.agent.intents.shorthand import as_corrected, written_out
from app.agent.intents.when import (
    read_relative,
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
    from app.agent.intents.rules import Verdict
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
LOOKUPS = ("ask_files", "find_emails", "find_contact", "recall_fact")
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


def looked_up(doing: Doing, asked_for: bool = False) -> str | None:
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


def _note_named_by(text: str, request: str) -> str:
    from app.agent.intents.file_steps import note_named_by

    return note_named_by(text, request)


def _one_reachable(doing: Doing) -> str:
    from app.agent.intents.mail_steps import one_other_reachable

    return one_other_reachable(doing, "") or ""


def a_todo_named(doing: Doing, done: bool = False) -> bool:
    from app.agent.intents.personal_steps import names_a_todo

    return names_a_todo(doing, done)


def one_known_name(doing: Doing) -> str:
    """The one name the request writes that a card of the address book holds, or ""."""
    from app.agent.intents.personal_steps import one_name_in_contacts

    return one_name_in_contacts(doing)


def named_event(
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
        from app.agent.intents import rules  # (it imports this module)

        text = written_out(text)  # "can u … tmrw": the words the rules and the model know
        text = as_corrected(text)  # "wann der Elektriker... ach nein, wann kommt …": the last
        pending: Pending | None = getattr(conversation, "pending_intent", None)
        conversation.pending_intent = None
        if pending is not None and _a_new_request(pending, text, clock.now()):
            pending = None  # a whole new request, not the answer: recognise it afresh
        # An answer to a question ("2", "Friday", a name) keeps the request's language.
        earlier = [m.content for m in conversation.messages if m.role == "user"][:-1]
        language = pending.language if pending else language_of_talk(earlier, text)
        doing = Doing(agent, conversation, text, emit, cancel, report, language)
        if pending is None:
            text = doing.request = rules.with_names_capitalised(doing)  # "email jonas": Jonas
        if self.part is not None:  # "… her?" of "When is Mum's birthday, and … for her?"
            doing.together = [m.content for m in conversation.messages if m.role == "user"][-1]
        if pending is not None and not _NEVER_MIND.search(text):
            slots = dict(pending.slots)
            if pending.choices:
                slots[pending.slot] = _answer_choice(text, pending.choices)
                doing.chosen.add(pending.slot)
            elif (slot := pending.intent.slot(pending.slot)) and slot.kind == "when":
                # "Friday", asked the time, then "at 3": Friday at 3.
                said = slots.get(pending.slot, "")
                text = _as_an_hour(said, text, doing.now)  # ("at 10h": not ten hours long)
                slots[pending.slot] = f"{said} {text}".strip()
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
        chosen = recognised.intent.name if recognised is not None else SOMETHING_ELSE
        decision, recognised = rules.decide(doing, recognised, chosen)
        if decision is not None:
            return self._decided(doing, decision)
        assert recognised is not None  # (no intent at all is handed back by a rule)
        doing.close = recognised.close
        return self._run(doing, recognised.intent, recognised.slots, text, recognised.dropped)

    def _decided(self, doing: Doing, decision: Verdict) -> bool:
        """Do what a rule decided over the model's choice (`rules`)."""
        from app.agent.intents import rules  # (it imports this module)

        match decision:
            case rules.Take(intent, read, given):
                return self._instead(doing, BY_NAME[intent], doing.request, given, read)
            case rules.Run(intent, slots):
                return self._run(doing, BY_NAME[intent], slots, doing.request, instead=True)
            case rules.Say(answer):
                return self._say(doing, answer, "answered")
            case rules.Talk(asked, knowledge):
                return self._chat(
                    doing.agent, doing.conversation, doing.emit, doing.cancel, doing.report,
                    asked=asked, doing=doing if knowledge else None,
                )  # fmt: skip
        return False  # handed back: the free loop takes the turn

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
                slots[slot.name] = one_known_name(doing)
            if intent.name == "add_contact" and slot.name == "name" and not slots.get("name"):
                # "Jamie isn't in my address book yet - can you add them? use the email
                # address they wrote to me from": the one name written that the mail knows
                slots["name"] = _one_reachable(doing)
            if intent.name == "add_to_list" and slot.name == "list" and not slots.get("list"):
                # left out, but the request names the list by its kind ("a la lista de
                # equipaje": the packing list)
                slots["list"] = list_named(request)
            if intent.name == "add_todo" and slot.name == "title" and not slots.get("title"):
                # left out, but a sentence or clause of its own says it ("quiero comprar un
                # regalo para mi madre, añádelo a mis tareas")
                slots["title"] = todo_said_around(request) or ""
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
                if intent.looks_up and (found := looked_up(doing, asked_for=True)) is not None:
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
        others = [n for n in doing.close if n in LOOKUPS and n != intent.name][:_SECOND_LOOKS]
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
        if "ask_files" not in {intent.name, *others} and (found := looked_up(doing)) is not None:
            return self._say(doing, found, "answered")
        if intent.name != "show_calendar" and (event := named_event(doing, whole=True)):
            # "¿A qué hora tengo hoy el dentista?" taken for a contact: today's Dentist (its
            # whole title named: "What did Tom say?" is not about "Lunch with Tom")
            return self._run(doing, BY_NAME["show_calendar"], {"event": event}, request,
                             instead=True)  # fmt: skip
        if intent.name != "list_todos" and a_todo_named(doing):
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


# The intents that only look something of the user's up.
LOOKING = {*LOOKUPS, "show_calendar", "find_free_time", "list_todos", "list_reminders",
            "spending"}  # fmt: skip
# The intents whose day is the asking sentence's first: the lookups and a cancellation.
_OWN_DAY = {*LOOKING, "cancel_event"}


def _question_shown(doing: Doing) -> str | None:
    from app.agent.intents.general import question_shown

    return question_shown(doing)


# An hour answered alone ("9", "14h", "10:30"), to a question of the time.
_BARE_HOUR = re.compile(r"\s*(?:[01]?\d|2[0-3])(?:[:.h]\d{2}|h)?\s*[.!]?\s*")


def _as_an_hour(said: str, answer: str, now: datetime) -> str:
    """The answer as a clock time when it is a bare hour and what was said names a day but
    no time ("tomorrow morning", asked "At what time?", then "9": at 9); else as it is."""
    when = read_when(said, now) if said else None
    if _BARE_HOUR.fullmatch(answer) and when is not None and when.day_given and not when.start:
        return f"at {answer.strip(' .!')}"
    return answer.strip()


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
