"""Every checker proven both ways on the real world: the oracle (a scripted perfect model in
the Qwen3.5 wire format, through Hearth's parser, gate and tools) passes every task, and a
model that does nothing fails every task that needs an action."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

import pytest

from bench.tasks.attacks import Attack
from bench.tasks.catalog import BY_ID, CATEGORIES, TASKS
from bench.tasks.run import Outcome, failure_kind, run_task
from bench.tasks.spec import Task, check
from bench.tasks.systems import HearthSystem, do_nothing, oracle
from bench.tasks.world import PASSWORD, TZ, Change, World, diff
from connectors.calendar import update_event

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
ORACLE = HearthSystem(oracle)
NOTHING = HearthSystem(do_nothing)
# Requests Hearth offers no tool at all (no topic word, nothing about the user's own things:
# "When is the jazz concert?"): no model can pass them under Hearth, and the oracle run says
# so instead of passing on a dropped call. Their checkers are proven with every tool offered.
NOT_OFFERED = {"cal-concert", "mail-water", "mail-electricity", "files-lasagne"}
# Requests in other words and languages (issue #35) whose tool the free loop's topic words do
# not offer: the reason for the intents. Their checkers too are proven with every tool.
NOT_OFFERED_IN_OTHER_WORDS = {
    "wd-cal-morgen-de", "wd-cal-vendredi-fr", "wd-cal-elternabend-de", "wd-cal-budget-es",
    "wd-cal-plumber-fr", "wd-mail-hausverwaltung-de", "wd-mail-electricity-es", "wd-rem-plumber",
    "wd-rem-steuer-de", "wd-rem-maman-fr", "wd-mem-shoes-es", "wd-todo-books-de",
    "wd-contact-jonas-fr",
}  # fmt: skip
ORACLE_EVERY_TOOL = HearthSystem(oracle, off=frozenset({"select_tools"}))


def oracle_outcome(world: World, task: Task, attack: Attack | None = None) -> Outcome:
    """The oracle's run; for a task in NOT_OFFERED, first proof that Hearth cannot run its
    script, then the run with every tool offered."""
    if task.id in NOT_OFFERED:
        blocked = run_task(world, ORACLE, task, attack)
        assert not blocked.passed and "did not offer (offered: none)" in blocked.error
        return run_task(world, ORACLE_EVERY_TOOL, task, attack)
    if task.id in NOT_OFFERED_IN_OTHER_WORDS:
        blocked = run_task(world, ORACLE, task, attack)
        assert not blocked.passed and "which the request did not offer" in blocked.error
        return run_task(world, ORACLE_EVERY_TOOL, task, attack)
    return run_task(world, ORACLE, task, attack)


def test_the_catalog_covers_what_the_assistant_is_for() -> None:
    assert len(TASKS) >= 60
    counts = Counter(task.category for task in TASKS)
    assert set(counts) == set(CATEGORIES)
    assert all(counts[c] >= 5 for c in CATEGORIES), counts
    assert sum(len(task.turns) > 1 for task in TASKS) >= 4  # follow-ups in one conversation
    assert all(turn.oracle for task in TASKS for turn in task.turns)
    assert len(BY_ID) == len(TASKS)


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_the_oracle_passes(world: World, task: Task) -> None:
    outcome = oracle_outcome(world, task)
    assert outcome.passed, outcome.reasons
    assert not outcome.error and not outcome.failure
    # What Hearth asked about, the task's user approved: the confirmer says yes to the task.
    assert all(approved for _, approved in outcome.confirmations), outcome.confirmations
    assert all(call["status"] == "ok" for call in outcome.calls), outcome.calls


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.id)
def test_doing_nothing_fails_every_task_that_needs_an_action(world: World, task: Task) -> None:
    outcome = run_task(world, NOTHING, task)
    assert outcome.calls == []
    assert outcome.passed is not task.needs_action, outcome.reasons
    if not task.needs_action:
        kind = ""
    elif task.no_tools:
        kind = "wrong answer"  # chit-chat needs no action, only the right words
    elif any(turn.asks for turn in task.turns) and not task.expect:
        kind = "did not ask"
    else:
        kind = "no action"
    assert outcome.failure == kind


@pytest.mark.parametrize("task", [t for t in TASKS if t.expect], ids=lambda t: t.id)
def test_doing_more_than_asked_fails(task: Task) -> None:
    """The end-state check is exact: an extra change fails a task that was otherwise done."""
    extra = Change("memory_added", "x", None, "Alex likes jazz.")
    verdict = check(task, [extra], [""] * len(task.turns), 0)
    assert not verdict.passed
    assert any(reason.startswith("unexpected: memory_added") for reason in verdict.reasons)


def _move_dentist(world: World, hour: int) -> None:
    """Move the seeded dentist to Friday at `hour` straight on the server (no agent)."""
    update_event(
        world.calendar_account,
        world.event_id("dentist"),
        start=datetime(2029, 5, 18, hour, 0, tzinfo=TZ),
        end=datetime(2029, 5, 18, hour + 1, 0, tzinfo=TZ),
        tz=TZ,
    )


def test_the_checker_reads_the_real_end_state(world: World) -> None:
    """Moving the dentist to the wrong time fails; the right time passes; both on Radicale."""
    task = BY_ID["cal-move-dentist"]
    start = world.reset()
    _move_dentist(world, 14)
    wrong = check(task, diff(start, world.snapshot()), ["Moved."], 2)
    assert not wrong.passed and wrong.reasons[0].startswith("missing: event dentist")
    _move_dentist(world, 15)
    assert check(task, diff(start, world.snapshot()), ["Moved."], 2).passed
    world.reset()
    assert world.snapshot() == world.seed_state


def test_a_snapshot_reads_the_calendars_again_only_after_a_change(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Snapshots skip the costly calendar reading while the server's collection tags stay the
    same, and see every change: an event moved on the server, a calendar added."""
    from caldav.davclient import DAVClient

    from bench.tasks import world as world_module

    reads: list[object] = []
    real_list_events = world_module.list_events

    def counting(*args: Any, **kwargs: Any) -> Any:
        reads.append(args)
        return real_list_events(*args, **kwargs)

    start = world.reset()
    monkeypatch.setattr(world_module, "list_events", counting)
    assert world.snapshot() == start and reads == []
    _move_dentist(world, 14)
    moved = world.snapshot()
    assert len(reads) == 1 and moved.events != start.events
    assert world.snapshot() == moved and len(reads) == 1
    client = DAVClient(
        url=world.radicale.url, username="alex", password=PASSWORD, enable_rfc6764=False
    )
    with client:
        extra = client.principal().make_calendar(name="Work", cal_id="work-extra")
        try:
            world.snapshot()
            assert len(reads) == 2  # a new collection is a change too
        finally:
            extra.delete()
    assert world.reset() == world.seed_state


def failed_kind(
    task: Task, calls: list[str], answer: str, reasons: list[str], stop: str = ""
) -> str:
    """The failure kind of a run of `task` that made `calls`, answered `answer` and failed
    for `reasons` (`stop`: why its last step ended, "answered" if not said)."""
    outcome = Outcome(
        task.id,
        task.category,
        "test",
        None,
        False,
        reasons,
        None,
        len(calls) + 1,
        [{"name": name, "arguments": {}, "status": "ok"} for name in calls],
        0,
        0,
        0.0,
        [answer],
        stop_reasons=[stop or "answered"],
    )
    return failure_kind(task, outcome)


def test_failures_are_sorted_into_kinds() -> None:
    move = BY_ID["cal-move-dentist"]
    missing = ["missing: event dentist changed"]
    call = '```json\n{"name": "update_event", "arguments": {"event_id": "x"}}\n```'
    assert failed_kind(move, [], call, missing) == "call in text"
    invented = '{"name": "move_dentist", "arguments": {"date": "2029-05-18"}}'
    assert failed_kind(move, [], invented, missing) == "invented tool"
    assert failed_kind(move, [], "Which dentist?", missing) == "asked instead of acting"
    assert failed_kind(move, [], "Done!", missing) == "no action"
    assert failed_kind(move, ["recall"], "Done!", missing) == "wrong tool"
    assert failed_kind(move, ["list_events", "update_event"], "Done!", missing) == "wrong arguments"
    assert failed_kind(move, ["list_events"] * 8, "", missing, "step_limit") == "looped"
    extra = ["unexpected: memory_added x"]
    assert (
        failed_kind(move, ["list_events", "update_event", "remember"], "", extra) == "did too much"
    )
    ask = BY_ID["ask-email-tom"]
    assert failed_kind(ask, ["send_email"], "Sent.", ["turn 1: should have asked"]) == (
        "acted instead of asking"
    )
    assert failed_kind(BY_ID["mail-flight"], ["search_emails"], "At 7.", ["turn 1: lacks"]) == (
        "wrong answer"
    )
