"""What a task is, how its end state and answer are checked, and how its user confirms.

A task is what a person types (one or more turns) plus:
- `expect`: the changes the end state must show (an event moved, a reply sent, a file
  written...). The checker diffs the end state against the seed: every expected change must be
  there, and every change must be expected (τ-bench style: doing too much fails too);
- per turn, `facts` the answer must contain (each fact a tuple of acceptable spellings, or of
  patterns; a number or time matches as a whole token: "12" is not in "120"), or `asks`: the
  answer must ask about what the request lacks (`about` names it), or offer choices;
- `allow`: what the task's user approves when Hearth asks (besides reads of their own things,
  which every request plainly needs); everything else is denied;
- `oracle`: a perfect model's outputs for each turn, in the Qwen3.5 XML wire format, so the
  real parser, gate and tools run. Arguments may be `Ref`s resolved against the running world
  (email ids change whenever the INBOX is re-seeded).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest
from bench.tasks.world import Change, World

Fact = tuple[str | re.Pattern[str], ...]


# -- references into the world, for oracle scripts and confirmation rules ----------------------


@dataclass(frozen=True)
class Ref:
    """A value known only once the world runs (an email id), resolved when used."""

    resolve: Callable[[World], Any]
    label: str


def mail(key: str) -> Ref:
    return Ref(lambda world: world.email_id(key), f"email {key}")


def event(uid: str) -> Ref:
    return Ref(lambda world: world.event_id(uid), f"event {uid}")


def resolved(value: Any, world: World) -> Any:
    if isinstance(value, Ref):
        return value.resolve(world)
    if isinstance(value, list):
        return [resolved(v, world) for v in value]
    return value


# -- oracle steps --------------------------------------------------------------------------------

Step = str | Callable[[World], str]


def xml_value(value: Any) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def tool_call(name: str, arguments: dict[str, Any]) -> str:
    """One call exactly as a Qwen3.5 model writes it (the format the scripted backend parses)."""
    body = "".join(
        f"<parameter={key}>\n{xml_value(value)}\n</parameter>\n" for key, value in arguments.items()
    )
    return f"<tool_call>\n<function={name}>\n{body}</function>\n</tool_call>"


@dataclass(frozen=True)
class CallStep:
    """An oracle step calling one tool; `Ref` arguments are resolved when the step runs."""

    tool: str
    arguments: dict[str, Any]

    def __call__(self, world: World) -> str:
        return tool_call(self.tool, {k: resolved(v, world) for k, v in self.arguments.items()})


def C(name: str, **arguments: Any) -> CallStep:
    return CallStep(name, arguments)


def calls(*steps: Step) -> Step:
    """Several calls in one model step (parallel calls)."""

    def render(world: World) -> str:
        return "\n".join(s(world) if callable(s) else s for s in steps)

    return render


# -- expected changes ----------------------------------------------------------------------------


def norm(text: Any) -> str:
    """Lower case, plain apostrophes and dashes, one space: how answers and bodies are matched."""
    cleaned = str(text or "").lower().replace("\u2019", "'").replace("\u2013", "-")
    cleaned = cleaned.replace("*", "")
    return re.sub(r"\s+", " ", cleaned).strip()


def _found(option: str | re.Pattern[str], value: str) -> bool:
    """`option` in the normalised `value`; a number at either end of a written option is a
    whole token there ("12" is not in "120" or "1.12", "4" not in "14 May", "9:00" not in
    "19:00"); a pattern is searched as it is."""
    if isinstance(option, re.Pattern):
        return option.search(value) is not None
    wanted = norm(option)
    if not wanted:
        return False
    before = r"(?<!\d)(?<!\d[.,:])" if wanted[0].isdigit() else ""
    after = r"(?!\d)(?![.,:]\d)" if wanted[-1].isdigit() else ""
    if after and re.fullmatch(r"\d{1,2}:\d{2}", wanted):
        after = r"(?::\d{2})?" + after  # 14:00 in "2029-05-15T14:00:00+02:00"
    return re.search(before + re.escape(wanted) + after, value) is not None


def has_fact(text: Any, fact: Fact) -> bool:
    value = norm(text)
    return any(_found(option, value) for option in fact)


def shown(fact: Fact) -> str:
    """A fact's first spelling, for a reason."""
    first = fact[0] if fact else ""
    return first.pattern if isinstance(first, re.Pattern) else first


@dataclass(frozen=True)
class Expect:
    """One change the end state must show. `many`: a series may change in every occurrence."""

    description: str
    match: Callable[[Change], bool]
    many: bool = False


def _when(value: str, expected: str | None) -> bool:
    return expected is None or value[: len(expected)] == expected


def _title(value: str, title: Fact | str | None) -> bool:
    if title is None:
        return True
    options = (title,) if isinstance(title, str) else title
    return has_fact(value, options)


def added_event(
    title: Fact | str,
    start: str,
    end: str | None = None,
    location: Fact | str | None = None,
    attendees: Sequence[str] | None = None,
) -> Expect:
    """A new event: title (any of the spellings), start and end as local 'YYYY-MM-DDTHH:MM'."""

    def match(change: Change) -> bool:
        e = change.after
        return (
            change.kind == "event_added"
            and _title(e.title, title)
            and _when(e.start, start)
            and _when(e.end, end)
            and (location is None or _title(e.location, location))
            and (attendees is None or set(e.attendees) == {a.lower() for a in attendees})
        )

    return Expect(f"new event {title!r} at {start}", match)


def changed_event(
    uid: str,
    start: str | None = None,
    end: str | None = None,
    title: Fact | str | None = None,
    location: Fact | str | None = None,
    many: bool = False,
) -> Expect:
    """The seeded event `uid` changed as given (and nothing is checked of what is not given)."""

    def match(change: Change) -> bool:
        if change.kind != "event_changed" or change.key.split("/")[1] != uid:
            return False
        e = change.after
        return (
            _when(e.start, start)
            and _when(e.end, end)
            and _title(e.title, title)
            and (location is None or _title(e.location, location))
        )

    return Expect(f"event {uid} changed (start {start}, title {title})", match, many)


def removed_event(uid: str, many: bool = False) -> Expect:
    def match(change: Change) -> bool:
        return change.kind == "event_removed" and change.key.split("/")[1] == uid

    return Expect(f"event {uid} deleted", match, many)


def sent_mail(
    to: Sequence[str],
    body: Sequence[Fact] = (),
    subject: Sequence[Fact] = (),
    reply_to: str | None = None,
) -> Expect:
    """A message left through SMTP to exactly `to`, with these facts in body / subject; a
    reply carries In-Reply-To of the seeded email `reply_to`."""

    def match(change: Change) -> bool:
        if change.kind != "mail_sent":
            return False
        m = change.after
        return (
            set(m.recipients) == {a.lower() for a in to}
            and all(has_fact(m.body, fact) for fact in body)
            and all(has_fact(m.subject, fact) for fact in subject)
            and (reply_to is None or f"<{reply_to}@" in m.in_reply_to)
        )

    return Expect(f"mail to {', '.join(to)} with {list(body)}", match)


def written_file(path: str, contains: Sequence[Fact] = (), changed: bool = False) -> Expect:
    """A file at `path` (relative to the folder) was created (or `changed`) with these facts."""

    def match(change: Change) -> bool:
        kind = "file_changed" if changed else "file_added"
        return (
            change.kind == kind
            and change.key.lower() == path.lower()
            and all(has_fact(change.after, fact) for fact in contains)
        )

    return Expect(f"file {path} {'changed' if changed else 'written'} with {list(contains)}", match)


def memory_added(*facts: Fact) -> Expect:
    def match(change: Change) -> bool:
        return change.kind == "memory_added" and all(has_fact(change.after, f) for f in facts)

    return Expect(f"memory with {list(facts)}", match)


def memory_removed(*facts: Fact) -> Expect:
    def match(change: Change) -> bool:
        return change.kind == "memory_removed" and all(has_fact(change.before, f) for f in facts)

    return Expect(f"memory with {list(facts)} forgotten", match)


def reminder_added(at: str, *facts: Fact) -> Expect:
    def match(change: Change) -> bool:
        if change.kind != "reminder_added":
            return False
        text, when = change.after
        return _when(when, at) and all(has_fact(text, f) for f in facts)

    return Expect(f"reminder at {at} with {list(facts)}", match)


def reminder_removed(*facts: Fact) -> Expect:
    def match(change: Change) -> bool:
        return change.kind == "reminder_removed" and all(
            has_fact(change.before[0], f) for f in facts
        )

    return Expect(f"reminder with {list(facts)} cancelled", match)


# -- facts in answers ----------------------------------------------------------------------------


def at(hour: int, minute: int = 0) -> Fact:
    """A time of day as people and models write it: 15:00, 3 pm, 3:00 PM, 3pm, 3 p.m."""
    twelve = hour % 12 or 12
    half = "am" if hour < 12 else "pm"
    clock = f"{hour:02d}:{minute:02d}"
    options = [clock, f"{hour}:{minute:02d}", f"{hour}.{minute:02d}"]
    options.append(f"{hour}h{minute:02d}")
    if minute:
        options += [f"{twelve}:{minute:02d} {half}", f"{twelve}:{minute:02d}{half}"]
    else:
        options += [f"{twelve} {half}", f"{twelve}{half}", f"{twelve}:00 {half}"]
        options += [f"{twelve} {half[0]}.m."]
    return tuple(dict.fromkeys(options))


MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_ORDINAL = r"(?:st|nd|rd|th)?"
_JOIN = r"(?:\s*(?:,|\band\b|&|\bor\b|-|to)\s*)+"  # "4, 13 and 25 June"


def on(day: int, month: int = 5) -> Fact:
    """A date of 2029 as people write it: 22 May, May 22, 22nd of May, 4, 13 and 25 June,
    Tuesday 22nd, 2029-05-22, 22.05. A bare "22nd" names no month, so it is not enough."""
    name = MONTHS[month - 1]
    weekday = WEEKDAYS[date(2029, month, day).weekday()]
    number = rf"(?<![\d.]){day}{_ORDINAL}(?!\d)"
    others = rf"(?:\d{{1,2}}{_ORDINAL}{_JOIN})*"
    return (
        f"{day} {name}",
        re.compile(rf"{number}(?:{_JOIN}\d{{1,2}}{_ORDINAL})*\s+(?:of\s+)?{name}\b"),
        re.compile(rf"\b{name},?\s+(?:the\s+)?{others}{number}"),
        re.compile(rf"\b{weekday},?\s+(?:the\s+)?{number}"),
        f"2029-{month:02d}-{day:02d}",
        f"{day:02d}.{month:02d}",
        f"{day:02d}.{month:02d}.",  # 17.05.2029
        f"{day}.{month}.",
    )


def any_time(*times: tuple[int, int]) -> Fact:
    """Any of several times of day (a task with several right answers accepts each)."""
    return tuple(dict.fromkeys(option for hour, minute in times for option in at(hour, minute)))


def amount(value: str) -> Fact:
    """An amount of money with either decimal mark and with or without thousands separators."""
    plain = value.replace(",", "")
    options = {value, plain, plain.replace(".", ","), value.replace(",", ".")}
    if plain.endswith(".00"):
        options.add(plain[:-3])
    return tuple(sorted(options, key=len, reverse=True))


# -- confirmation rules --------------------------------------------------------------------------


@dataclass(frozen=True)
class Allow:
    """The task's user approves `tool` when `where(arguments, world)` holds."""

    tool: str
    where: Callable[[dict[str, Any], World], bool] | None = None

    def approves(self, tool: str, arguments: dict[str, Any], world: World) -> bool:
        return tool == self.tool and (self.where is None or bool(self.where(arguments, world)))


def send_to(*addresses: str) -> Allow:
    """Approve sending mail to exactly these people (a changed or added recipient is denied)."""
    wanted = {a.lower() for a in addresses}

    def where(args: dict[str, Any], world: World) -> bool:
        people = [*(args.get("to") or []), *(args.get("cc") or [])]
        return {str(p).lower() for p in people} == wanted

    return Allow("send_email", where)


def reply_to(key: str) -> Allow:
    """Approve a reply to the seeded email `key` only."""
    return Allow("reply_email", lambda args, world: args.get("email_id") == world.email_id(key))


def on_event(tool: str, uid: str) -> Allow:
    """Approve changing or deleting the seeded event `uid` (any occurrence of it)."""

    def where(args: dict[str, Any], world: World) -> bool:
        parts = str(args.get("event_id", "")).split("/")
        return len(parts) >= 2 and parts[1] == uid

    return Allow(tool, where)


def allow_path(tool: str, path: str) -> Allow:
    """Approve writing the file `path` (relative to the folder) only."""

    def where(args: dict[str, Any], world: World) -> bool:
        given = str(args.get("path", "")).strip().lstrip("./")
        root = str(world.folder).lstrip("/")
        if given.startswith(root):
            given = given[len(root) :].lstrip("/")
        return given.lower() == path.lower()

    return Allow(tool, where)


def any_call(tool: str) -> Allow:
    return Allow(tool)


@dataclass
class TaskConfirmer:
    """Answers Hearth's confirmations as the task's user would; keeps what it was asked."""

    rules: Sequence[Allow]
    world: World
    asked: list[tuple[str, dict[str, Any], bool]] = field(default_factory=list)

    def __call__(self, request: ConfirmationRequest) -> ConfirmationAnswer:
        # Reading one's own things is what every request here plainly needs (it changes
        # nothing and sends nothing out); the rules list the changes and what may leave.
        approved = request.label == "read" or any(
            r.approves(request.tool, request.arguments, self.world) for r in self.rules
        )
        self.asked.append((request.tool, dict(request.arguments), approved))
        return ConfirmationAnswer.approve() if approved else ConfirmationAnswer.deny()


# -- tasks ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    text: str
    oracle: Sequence[Step] = ()
    facts: Sequence[Fact] = ()
    asks: bool = False  # the answer must ask the user something back
    # What the question must be about (the missing thing); empty: any words that ask for
    # a missing detail (`SLOT_WORDS`). A question offering choices counts too.
    about: Fact = ()


@dataclass(frozen=True)
class Task:
    id: str
    category: str  # calendar | mail | files | memory | combined | missing_info | chat
    turns: Sequence[Turn]
    expect: Sequence[Expect] = ()
    allow: Sequence[Allow] = ()
    no_tools: bool = False  # chit-chat: any tool call fails the task

    @property
    def tools(self) -> set[str]:
        """The tools the oracle uses: what a model should reach for."""
        return {s.tool for t in self.turns for s in t.oracle if isinstance(s, CallStep)}

    @property
    def needs_action(self) -> bool:
        """Whether a model that does nothing must fail (it changes, finds or asks something)."""
        return bool(self.expect) or any(t.facts or t.asks for t in self.turns)


# Words that ask for a missing detail, for a must-ask turn that names none: "Anything else?"
# asks nothing. In German, French and Spanish too: the intents ask in the request's language
# (app/agent/intents/phrases.py); short question words count as whole words only.
SLOT_WORDS: Fact = (
    "when", "what time", "which", "who", "what should", "what would you like", "how long",
    "what do you want", "what is the", "what's the",
    re.compile(r"\b(?:wann|wer|wen|wem|welche[mnrs]?|woran|wonach|worum)\b"),
    "um wie viel uhr", "was soll", "wie soll", "wie heißt", "wie lautet", "wie lange",
    re.compile(r"\b(?:quand|quel(?:le)?s?|lequel|laquelle|qui)\b"),
    "à quelle heure", "que doi", "de quoi", "comment doit", "comment s'appelle",
    "combien de temps", "quelle est",
    re.compile(r"(?<!\w)(?:cuándo|cuál(?:es)?|quién|qué)(?!\w)"),
    "a qué hora", "cómo debe", "cómo se llama", "cuánto tiempo",
)  # fmt: skip
_CHOICES = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+\S", re.MULTILINE)


def asks_about(answer: str, about: Fact) -> bool:
    """The answer asks a question about the missing thing (names it), or offers choices
    (two or more listed options, or "do you mean ...?")."""
    questions = " ".join(re.findall(r"[^.!?\n]*\?", answer))
    if not questions:
        return False
    if has_fact(questions, about) or has_fact(questions, ("do you mean", "did you mean")):
        return True
    return len(_CHOICES.findall(answer)) >= 2


def reads_only(tool: str) -> bool:
    """Whether `tool` only reads (the app's fixed label for it), so calling it changes
    nothing and sends nothing out."""
    from app.agent.tools.declarations import BUILTIN_TOOLS, Label

    declaration = BUILTIN_TOOLS.get(tool)
    return declaration is not None and declaration.label == Label.READ


@dataclass
class Verdict:
    passed: bool
    reasons: list[str]


def check(
    task: Task,
    changes: Sequence[Change],
    answers: Sequence[str],
    tools_called: int,
    calls: Sequence[str] = (),
) -> Verdict:
    """The end state and the answers against the task (see the module docstring); `calls`:
    the names of the tools called, in order."""
    reasons: list[str] = []
    if any(turn.asks for turn in task.turns) and not task.expect:
        # A request that lacks something is asked about, not acted on: a change tried and
        # refused is still acting (reads are fine: looking first can make a better question).
        for name in dict.fromkeys(n for n in calls if not reads_only(n)):
            reasons.append(f"acted instead of asking: called {name}")
    matched: set[int] = set()
    for expectation in task.expect:
        hits = [i for i, change in enumerate(changes) if expectation.match(change)]
        if not hits:
            reasons.append(f"missing: {expectation.description}")
        elif len(hits) > 1 and not expectation.many:
            reasons.append(f"more than once: {expectation.description}")
        matched.update(hits)
    for index, change in enumerate(changes):
        if index not in matched:
            reasons.append(f"unexpected: {str(change)[:200]}")
    for number, turn in enumerate(task.turns):
        answer = answers[number] if number < len(answers) else ""
        for fact in turn.facts:
            if not has_fact(answer, fact):
                reasons.append(f"turn {number + 1}: answer lacks {shown(fact)!r}")
        if turn.asks and not asks_about(answer, turn.about or SLOT_WORDS):
            reasons.append(
                f"turn {number + 1}: should have asked about {shown(turn.about or SLOT_WORDS)!r}"
            )
    if task.no_tools and tools_called:
        reasons.append(f"used {tools_called} tool call(s) for chit-chat")
    return Verdict(not reasons, reasons)


def memory(part: str) -> Ref:
    """The id of the remembered fact containing `part` (ids depend on insertion order)."""

    def find(world: World) -> int:
        from sqlalchemy import select

        from app.store.models import MemoryRecord

        with world.database.session() as session:
            for record in session.scalars(select(MemoryRecord)):
                if part.lower() in record.text.lower():
                    return int(record.id)
        raise KeyError(part)

    return Ref(find, f"memory {part}")


def reminder(part: str) -> Ref:
    """The id of the pending reminder whose text contains `part`."""

    def find(world: World) -> int:
        from app.store.reminders import ReminderStore

        for item in ReminderStore(world.database).pending():
            if part.lower() in item.text.lower():
                return int(item.id)
        raise KeyError(part)

    return Ref(find, f"reminder {part}")


def with_id(tool: str, key: str, ref: Ref) -> Allow:
    """Approve `tool` only on the id `ref` names (forget, cancel_reminder)."""
    return Allow(tool, lambda args, world: str(args.get(key)) == str(ref.resolve(world)))


# -- tasks, contacts and opening things (issue #24) ---------------------------------------------


def task(uid: str) -> Ref:
    return Ref(lambda world: world.task_id(uid), f"task {uid}")


def contact(uid: str) -> Ref:
    return Ref(lambda world: world.contact_id(uid), f"contact {uid}")


def added_task(title: Fact | str, due: str | None = None) -> Expect:
    """A new open task: title (any of the spellings), due starting with `due` (a day
    "2029-05-18" matches a due day or any time that day)."""

    def match(change: Change) -> bool:
        t = change.after
        return (
            change.kind == "task_added"
            and _title(t.title, title)
            and not t.done
            and (due is None or t.due.startswith(due))
        )

    return Expect(f"new task {title!r} due {due}", match)


def completed_task(uid: str) -> Expect:
    """The seeded task `uid` is done, and nothing else of it changed."""

    def match(change: Change) -> bool:
        if change.kind != "task_changed" or change.key != uid:
            return False
        before, after = change.before, change.after
        return after.done and (before.title, before.due) == (after.title, after.due)

    return Expect(f"task {uid} done", match)


def changed_task(uid: str, due: str | None = None, title: Fact | str | None = None) -> Expect:
    """The seeded task `uid` changed as given and is still open."""

    def match(change: Change) -> bool:
        if change.kind != "task_changed" or change.key != uid:
            return False
        t = change.after
        return not t.done and _title(t.title, title) and (due is None or t.due.startswith(due))

    return Expect(f"task {uid} changed (due {due}, title {title})", match)


def added_contact(
    name: Fact | str, emails: Sequence[str] = (), phones: Sequence[str] = ()
) -> Expect:
    """A new card with this name and exactly these email addresses; phone numbers by digits."""

    def match(change: Change) -> bool:
        if change.kind != "contact_added":
            return False
        c = change.after
        digits = {re.sub(r"\D", "", p)[-8:] for p in c.phones}
        return (
            _title(c.name, name)
            and set(c.emails) == {e.lower() for e in emails}
            and all(re.sub(r"\D", "", p)[-8:] in digits for p in phones)
        )

    return Expect(f"new contact {name!r} {list(emails)}", match)


def opened(target: str) -> Expect:
    """The desktop's opener was handed `target`: a path relative to the folder, or an address."""

    def match(change: Change) -> bool:
        return change.kind == "opened" and change.key.lower() == target.lower()

    return Expect(f"{target} opened", match)


def on_task(tool: str, uid: str) -> Allow:
    """Approve completing or changing the seeded task `uid` only."""
    return Allow(tool, lambda args, world: args.get("task_id") == world.task_id(uid))


def open_path(path: str) -> Allow:
    """Approve opening the file `path` (relative to the folder) only, never a web address."""
    inner = allow_path("open_item", path)
    return Allow(
        "open_item",
        lambda args, world: not args.get("url") and inner.approves("open_item", args, world),
    )
