"""A conversation: what the user, the assistant and the tools said, with no Qt.

The GUI, the `ask` command and the tests all drive the same objects. Messages keep tool calls
as structured data (never as text the model could have forged) and tool results keep their
provenance (trusted or not).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from app import clock
from app.llm.tools import ToolCall

BASE_PROMPT = (
    "You are Hearth, a helpful personal assistant running on the user's own computer. "
    "Answer clearly and briefly. Call a tool only when the request needs one; greetings, "
    "thanks, small talk and general knowledge get a plain answer in words."
)
# Small models guess a recipient, a time or a text rather than ask (issue #20): an email to
# an invented address. One sentence with examples of what to ask about.
ASK_WHEN_MISSING = (
    "If the request lacks something a tool needs (who to write to, what to say, which day "
    "or time), ask the user for it in one short question instead of guessing."
)
SYSTEM_PROMPT = f"{BASE_PROMPT} {ASK_WHEN_MISSING}"
# The user's own words about themselves and how to answer (custom instructions), kept short:
# every turn's prompt carries them.
MAX_INSTRUCTIONS = 1500
INSTRUCTIONS_INTRO = "What the user wants you to know about them and how to answer:"


def system_prompt_for(instructions: str | None) -> str:
    """The system prompt with the user's custom instructions at its end. It stays the same for
    every turn and conversation until the user changes them, so the prompt prefix the model
    has evaluated (and stored) is reused as before; without instructions it is SYSTEM_PROMPT
    to the byte."""
    text = " ".join((instructions or "").split())[:MAX_INSTRUCTIONS]
    return f"{SYSTEM_PROMPT} {INSTRUCTIONS_INTRO} {text}" if text else SYSTEM_PROMPT


def sent_note(moment: datetime) -> str:
    """The date, time and UTC offset a message was sent, in words (transcripts, logs)."""
    local = moment.astimezone()
    offset = local.strftime("%z")
    return f"(sent {local:%A %d %B %Y, %H:%M}, UTC{offset[:3]}:{offset[3:]})"


def today_note(moment: datetime) -> str:
    """The day, for the end of the system prompt: "tomorrow" and "on Friday" get one answer.

    A date inside the user's message made the small models we measured call a tool for a
    mere "hello" (Qwen2.5-Coder-0.5B: every greeting became a call); in the system prompt it
    did not. It changes once a day, so the cached prompt prefix stays valid all day."""
    local = moment.astimezone()
    offset = local.strftime("%z")
    return f"Today is {local:%A %d %B %Y} (times are UTC{offset[:3]}:{offset[3:]})."


def dates_note(moment: datetime) -> str:
    """Last week, this week and next week as dates, after `today_note`: a small model that
    cannot count days ("tomorrow" from the 1st became the 3rd) can look "Friday" or "next
    Monday" up and copy the date. Also changes once a day."""
    today = moment.astimezone().date()
    monday = today - timedelta(days=today.weekday())
    weeks = []
    for name, first in (("last", -7), ("this", 0), ("next", 7)):
        days = [monday + timedelta(days=first + n) for n in range(7)]
        weeks.append(f"{name} week " + ", ".join(_day_entry(day, today) for day in days))
    return "Dates: " + "; ".join(weeks) + "."


def _day_entry(day: date, today: date) -> str:
    mark = {0: " (today)", 1: " (tomorrow)", -1: " (yesterday)"}.get((day - today).days, "")
    return f"{day:%a} {day.isoformat()}{mark}"


# Requests whose answer depends on the time of day, not just the date: "in an hour",
# "in 20 minutes", "now", "later". Only these carry the clock time, after the user's words.
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
    "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50,
}  # fmt: skip
# "two", "forty-five", "12": the amounts of "in two hours" (the clock note and times_note).
_AMOUNT = "|".join([r"\d+", *sorted(_NUMBERS, key=len, reverse=True)])
_NEEDS_CLOCK = re.compile(
    rf"\b(?:in|within|after)\s+(?:{_AMOUNT}|half\s+an?)\s*(?:min|mins|minutes?|hours?|hrs?)\b"
    r"|\bhalf\s+an\s+hour\b|\bnow\b|\blater\b|\bright\s+away\b|\btonight\b",
    re.IGNORECASE,
)


_IN_SO_LONG = re.compile(
    rf"\bin\s+(half\s+an\s+hour|{_AMOUNT})(?:\s*(minutes?|mins?|hours?|hrs?))?\b",
    re.IGNORECASE,
)


def times_note(content: str, moment: datetime) -> str:
    """ "in two hours is 2029-05-15T11:30" for each "in N minutes/hours" in `content` ("" for
    none), resolved by code from the sending time: small models get the addition wrong."""
    resolved = []
    for match in _IN_SO_LONG.finditer(content):
        amount, unit = match.group(1).casefold(), (match.group(2) or "").casefold()
        if amount.startswith("half"):
            delta = timedelta(minutes=30)
        elif not unit:
            continue  # "in 2029", "in a minute or so" without a unit: not a duration
        else:
            number = int(amount) if amount.isdigit() else _NUMBERS[amount]
            hours = unit.startswith("h")
            delta = timedelta(hours=number) if hours else timedelta(minutes=number)
        at = (moment.astimezone() + delta).strftime("%Y-%m-%dT%H:%M")
        resolved.append(f"{match.group(0)} is {at}")
    return "; ".join(resolved)


def clock_note(content: str, moment: datetime) -> str:
    """ " (it is 09:30 now)" when `content` needs the time of day to be understood, else ""."""
    if not _NEEDS_CLOCK.search(content):
        return ""
    return f" (it is {moment.astimezone():%H:%M} now)"


@dataclass
class Message:
    role: str  # "user" | "assistant" | "tool"
    content: str = ""
    reasoning: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_call_id: str = ""  # for role "tool": which call this answers
    name: str = ""  # for role "tool": the tool's name
    trusted: bool = True  # False for email bodies, web pages, file contents, ...
    stopped: bool = False  # the user pressed Stop while this reply was written
    # For role "user": when it was sent, so "tomorrow at 3" or "in an hour" has one answer.
    sent_at: datetime | None = None

    def for_template(self, sent_notes: bool = True, times: bool = True) -> dict[str, Any]:
        """The OpenAI-style message that chat templates understand (`sent_notes`: with the
        sending time the model is told; off for transcripts that show what the user typed;
        `times`: with "in two hours" resolved to a date and time)."""
        content = self.content
        if sent_notes and self.role == "user" and self.sent_at is not None:
            note = clock_note(content, self.sent_at)  # " (it is 09:30 now)" or ""
            resolved = times_note(content, self.sent_at) if times else ""
            if resolved:
                note = f"{note[:-1]}; {resolved})" if note else f" ({resolved})"
            content += note
        message: dict[str, Any] = {"role": self.role, "content": content}
        if self.reasoning:
            message["reasoning_content"] = self.reasoning
        if self.tool_calls:
            message["tool_calls"] = [call.to_openai() for call in self.tool_calls]
        if self.role == "tool":
            message["tool_call_id"] = self.tool_call_id
            message["name"] = self.name
        return message


@dataclass
class Conversation:
    messages: list[Message] = field(default_factory=list)
    system_prompt: str = SYSTEM_PROMPT
    # Times resolved by code: three weeks of dates after today's (`dates_note`) and "in two
    # hours" as a date and time (`times_note`); off for the benchmark's ablation.
    times: bool = True
    # Called with each message as it is added (the GUI saves it there and then, so a crash
    # loses nothing the agent has already said). Not part of the conversation's value.
    on_add: Callable[[Message], None] | None = field(default=None, repr=False, compare=False)
    # An intent waiting for the answer to the question the last reply asked
    # (`app.agent.intents.router.Pending`); kept while the conversation is open.
    pending_intent: Any = field(default=None, repr=False, compare=False)
    # Files attached to the next user message (paths); the agent reads them as it takes the
    # message (app.agent.turn.attachments) and empties the list.
    attachments: list[str] = field(default_factory=list, repr=False, compare=False)

    def add(self, role: str, content: str = "", **fields: Any) -> Message:
        if role == "user":
            fields.setdefault("sent_at", clock.now())
        message = Message(role, content, **fields)
        self.messages.append(message)
        if self.on_add is not None:
            self.on_add(message)
        return message

    def for_template(self, sent_notes: bool = True) -> list[dict[str, Any]]:
        """The messages for a chat template. With `sent_notes` the system prompt ends with
        the day of the latest user message (so a reopened conversation renders the same),
        and messages that need the clock carry their sending time."""
        system = self.system_prompt
        if sent_notes:
            sent = [m.sent_at for m in self.messages if m.role == "user" and m.sent_at]
            moment = sent[-1] if sent else clock.now()
            system = f"{system} {today_note(moment)}"
            if self.times:
                system = f"{system} {dates_note(moment)}"
        rendered = [{"role": "system", "content": system}]
        rendered += [m.for_template(sent_notes, self.times) for m in self.messages]
        return rendered
