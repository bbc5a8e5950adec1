"""The rules of one turn that make a small model usable, as a small pure state object.

A small model repeats a call whose result it already has, retries what failed, makes the same
change twice with other words, and writes calls nobody can read. `TurnState` holds what the
turn has seen (what ran, what failed, whether the last step was malformed) and says what must
happen next: which tool choice and which tools the next step gets, whether the model's step
runs, is sent back as a repeat, or ends the turn. It knows no model, gate or conversation (a
call is a name and arguments; whether it only reads is a function it is given), so the loop
only sequences model step → gate → confirmation → tool, and the rules are tested alone
(tests/agent/test_turn_state.py, with hypothesis).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from app.agent.gate import argument_hash
from app.llm.backend import ToolChoice
from app.llm.tools import ToolCall


class Next(Enum):
    """What a model step leads to."""

    RUN = "run"  # the calls go to the gate, one by one
    REPEATS = "repeats"  # every call repeats what the turn did: each is told why, not run
    ANSWERED = "answered"  # words and no call: the turn ends with them
    FROM_RESULTS = "from_results"  # told to answer, it still did not: the results answer


def _never_reads(_call: ToolCall) -> bool:
    return False


@dataclass
class TurnState:
    """One turn's rules. The loop asks `next_choice` before each model step, `after_model`
    after it, `ran` after each call, and `after_calls` once the step's calls ran."""

    max_steps: int
    first_choice: ToolChoice = "auto"
    # Beyond identical calls: no retry of a call that failed, no second change nearly the
    # same as one made this turn.
    repeat_guard: bool = True
    reads_only: Callable[[ToolCall], bool] = _never_reads
    step: int = 0
    must_answer: bool = False  # the model looped on a call: its next step answers in words
    offer_all: bool = False  # after a malformed call, every tool (it may have wanted another)
    repaired: bool = False  # the last step was malformed and got its repair try
    reads: set[str] = field(default_factory=set)  # reads run since the last change
    changes: set[str] = field(default_factory=set)  # changes that ran: never twice
    written: list[ToolCall] = field(default_factory=list)  # ... nor nearly the same change
    failed: set[str] = field(default_factory=set)  # failed or refused: not again (guard)
    refusals: list[str] = field(default_factory=list)  # with REPEATS: why, call by call

    def next_choice(self) -> ToolChoice | None:
        """Start the next step: its tool choice, or None when the step limit is reached."""
        if self.step >= self.max_steps:
            return None
        self.step += 1
        if self.must_answer:
            return "none"
        return self.first_choice if self.step == 1 else "auto"

    def after_model(self, calls: Sequence[ToolCall], malformed: bool, text: str) -> Next:
        """What the model's step leads to; with RUN the calls count as proposed."""
        if self.must_answer and (calls or malformed or not text.strip()):
            return Next.FROM_RESULTS  # still no words: answer with what the tools brought
        if not calls and not malformed:
            return Next.ANSWERED
        signatures = [argument_hash(call.name, call.arguments) for call in calls]
        why = [self.why_not_again(c, s) for c, s in zip(calls, signatures, strict=True)]
        if calls and not malformed and all(why):
            self.refusals = why
            self.must_answer = True
            return Next.REPEATS
        if all(self.reads_only(call) for call in calls):
            self.reads.update(signatures)
        else:
            self.reads.clear()  # something may change: reading again is no loop
        return Next.RUN

    def ran(self, call: ToolCall, status: str) -> None:
        """Note how one call ended ("ok", "error", "refused")."""
        signature = argument_hash(call.name, call.arguments)
        if status == "ok" and not self.reads_only(call):
            self.changes.add(signature)
            self.written.append(call)
        elif status in ("error", "refused"):
            self.failed.add(signature)

    def after_calls(self, malformed: bool) -> bool:
        """The step's calls ran: True when the turn must give up, two malformed steps in a
        row. One malformed step gets a repair try with every tool offered."""
        if not malformed:
            self.repaired = False  # the repair worked: a later slip gets its own try
            return False
        if self.repaired:
            return True
        self.repaired = self.offer_all = True
        return False

    def why_not_again(self, call: ToolCall, signature: str | None = None) -> str:
        """Why `call` must not run again this turn ("" when it may run)."""
        signature = signature or argument_hash(call.name, call.arguments)
        if self.repeat_guard and signature in self.failed:
            return (
                "Already tried, and it did not work (see above). Tell the user what happened, "
                "or ask them what they want."
            )
        if signature in self.reads or signature in self.changes:
            return "Already done: the result is above. Answer the user with it now."
        if self.repeat_guard and any(_nearly_the_same(call, e) for e in self.written):
            return (
                f"Already done: {call.name} ran in this turn with nearly the same arguments "
                "(see above). Answer the user now."
            )
        return ""


def _nearly_the_same(call: ToolCall, earlier: ToolCall) -> bool:
    """The same tool with at least half of its argument values unchanged: a reminder set
    again with the time written differently, an email sent again with a reworded body."""
    if call.name != earlier.name:
        return False
    keys = set(call.arguments) | set(earlier.arguments)
    same = sum(
        1 for key in keys if _normal(call.arguments.get(key)) == _normal(earlier.arguments.get(key))
    )
    return bool(keys) and same * 2 >= len(keys)


def _normal(value: Any) -> str:
    return " ".join(str(value).casefold().split()) if value is not None else ""
