"""The turn's rules (`TurnState`) without a model: what a small model's loops are met with.

Examples first (each rule once, as a user would meet it), then hypothesis over random turns:
whatever a model proposes, step after step, the rules hold."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.agent.turn.state import Next, TurnState
from app.llm.backend import ToolChoice
from app.llm.tools import ToolCall


def _reads(call: ToolCall) -> bool:
    return call.name.startswith(("list", "search", "read"))


def _state(
    max_steps: int = 8, first_choice: ToolChoice = "auto", repeat_guard: bool = True
) -> TurnState:
    return TurnState(max_steps, first_choice, repeat_guard, reads_only=_reads)


SEARCH = ToolCall("search_emails", {"query": "invoice"})
REMIND = ToolCall("set_reminder", {"text": "call Ana", "at": "2029-05-15T17:00"})


def test_the_first_step_gets_the_chosen_tool_choice_and_later_ones_auto() -> None:
    state = _state(first_choice="required", max_steps=3)
    assert [state.next_choice() for _ in range(4)] == ["required", "auto", "auto", None]
    assert state.step == 3


def test_words_without_a_call_end_the_turn() -> None:
    state = _state()
    state.next_choice()
    assert state.after_model([], False, "Hello!") is Next.ANSWERED


def test_a_read_repeated_with_its_result_in_hand_is_not_run_and_the_model_must_answer() -> None:
    state = _state()
    state.next_choice()
    assert state.after_model([SEARCH], False, "") is Next.RUN
    state.ran(SEARCH, "ok")
    state.after_calls(False)
    state.next_choice()
    again = ToolCall(SEARCH.name, dict(SEARCH.arguments))
    assert state.after_model([again], False, "") is Next.REPEATS
    assert state.refusals == ["Already done: the result is above. Answer the user with it now."]
    assert state.next_choice() == "none"
    assert state.after_model([again], False, "") is Next.FROM_RESULTS


def test_a_change_between_two_reads_makes_reading_again_no_loop() -> None:
    state = _state()
    state.next_choice()
    state.after_model([SEARCH], False, "")
    state.ran(SEARCH, "ok")
    state.after_model([REMIND], False, "")
    assert state.why_not_again(SEARCH) == ""


def test_a_change_never_runs_twice_even_without_the_repeat_guard() -> None:
    state = _state(repeat_guard=False)
    state.after_model([REMIND], False, "")
    state.ran(REMIND, "ok")
    assert state.after_model([REMIND], False, "") is Next.REPEATS


def test_a_change_nearly_the_same_is_refused_by_the_repeat_guard_only() -> None:
    reworded = ToolCall("set_reminder", {"text": "Call  ANA", "at": "17:00 today"})
    for guard, expected in ((True, Next.REPEATS), (False, Next.RUN)):
        state = _state(repeat_guard=guard)
        state.after_model([REMIND], False, "")
        state.ran(REMIND, "ok")
        assert state.after_model([reworded], False, "") is expected


@pytest.mark.parametrize("status", ["error", "refused"])
def test_a_call_that_failed_is_not_tried_again_unchanged(status: str) -> None:
    state = _state()
    state.after_model([REMIND], False, "")
    state.ran(REMIND, status)
    assert state.why_not_again(REMIND).startswith("Already tried, and it did not work")
    assert _state(repeat_guard=False).why_not_again(REMIND) == ""


def test_one_malformed_step_gets_a_repair_try_with_every_tool_and_two_end_the_turn() -> None:
    state = _state()
    assert state.after_model([], True, "") is Next.RUN
    assert state.after_calls(True) is False
    assert state.offer_all and state.repaired
    assert state.after_calls(True) is True


def test_a_good_step_between_two_malformed_ones_gives_the_second_its_own_try() -> None:
    state = _state()
    state.after_calls(True)
    state.after_calls(False)
    assert state.after_calls(True) is False
    assert state.offer_all  # once widened, the offer stays wide for the turn


def test_some_repeats_among_new_calls_all_run() -> None:
    state = _state()
    state.after_model([SEARCH], False, "")
    state.ran(SEARCH, "ok")
    assert state.after_model([SEARCH, REMIND], False, "") is Next.RUN


# -- random turns -------------------------------------------------------------------------

NAMES = ["search_emails", "read_email", "set_reminder", "write_file"]


@dataclass(frozen=True)
class Step:
    calls: list[ToolCall]
    malformed: bool
    text: str
    statuses: list[str]
    again: bool  # propose the previous step's calls again (what small models do)


_calls = st.builds(
    ToolCall,
    st.sampled_from(NAMES),
    st.fixed_dictionaries({"a": st.sampled_from(["x", "y"]), "b": st.sampled_from(["1", "2"])}),
)
_steps = st.builds(
    Step,
    st.one_of(st.lists(_calls, min_size=1, max_size=3), st.just([])),
    st.booleans(),
    st.sampled_from(["", "  ", "Done."]),
    st.lists(st.sampled_from(["ok", "error", "refused"]), min_size=3, max_size=3),
    st.booleans(),
)


@pytest.mark.property_based
@settings(max_examples=300, deadline=None)
@given(
    steps=st.lists(_steps, max_size=12),
    max_steps=st.integers(min_value=0, max_value=8),
    guard=st.booleans(),
)
def test_the_rules_hold_over_any_turn(steps: list[Step], max_steps: int, guard: bool) -> None:
    state = _state(max_steps=max_steps, repeat_guard=guard)
    changes: set[tuple[str, str]] = set()
    failed: set[tuple[str, str]] = set()
    reads: set[tuple[str, str]] = set()
    malformed_before = False
    told_to_answer = False  # after a step of repeats only, every step must answer
    offered_all = False
    taken = 0
    previous: list[ToolCall] = []
    for step in steps:
        calls = (
            [ToolCall(c.name, dict(c.arguments)) for c in previous] if step.again else step.calls
        )
        previous = calls
        choice = state.next_choice()
        if choice is None:
            break
        taken += 1
        assert choice == ("none" if told_to_answer else "auto")
        keys = [_key(call) for call in calls]
        # Every call failed before (with the guard), is a change already made, or a read whose
        # result the model has, with no change proposed since.
        known = bool(keys) and all(
            (guard and k in failed) or k in changes or k in reads for k in keys
        )
        action = state.after_model(calls, step.malformed, step.text)
        if told_to_answer:  # once told to answer, calls are never run again
            assert action in (Next.ANSWERED, Next.FROM_RESULTS)
        elif known and not step.malformed:  # nothing runs twice: each is told why
            assert action is Next.REPEATS
        elif calls and not guard:  # without the guard, only the known repeats are refused
            assert action is Next.RUN
        if action is Next.REPEATS:
            told_to_answer = True
            assert len(state.refusals) == len(calls) and all(state.refusals)
            continue
        if action is not Next.RUN:
            break
        if all(_reads(call) for call in calls):
            reads.update(keys)
        else:
            reads.clear()
        for call, status in zip(calls, step.statuses, strict=False):
            state.ran(call, status)
            if status == "ok" and not _reads(call):
                changes.add(_key(call))
            elif status != "ok":
                failed.add(_key(call))
        gave_up = state.after_calls(step.malformed)
        assert gave_up == (step.malformed and malformed_before)
        malformed_before = step.malformed
        offered_all = offered_all or step.malformed
        assert state.offer_all == offered_all
        if gave_up:
            break
    assert taken <= max_steps
    assert state.step == taken


def _key(call: ToolCall) -> tuple[str, str]:
    return call.name, repr(sorted(call.arguments.items()))
