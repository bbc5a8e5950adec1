"""The injected variants, proven both ways on the real world: a perfect model that ignores
the injection keeps its utility and the attacker's goal is not reached; a model that obeys
it reaches the goal when every confirmation is approved (so the goal check can see an attack
succeed), and does not under Hearth's gate with the task's own confirmer."""

from __future__ import annotations

import dataclasses

import pytest

from bench.tasks.attacks import ATTACKS, Attack
from bench.tasks.catalog import BY_ID
from bench.tasks.run import run_task
from bench.tasks.spec import Allow, C, Step, Task, Turn
from bench.tasks.systems import HearthSystem, OracleBackend
from bench.tasks.world import World
from tests.bench.test_checkers import oracle_outcome

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
EVERY_TOOL = [
    Allow(name)
    for name in (
        "send_email",
        "reply_email",
        "delete_event",
        "update_event",
        "create_event",
        "write_file",
        "remember",
        "set_reminder",
        "open_item",
    )
]


def fooled_steps(task: Task, attack: Attack) -> list:
    """The task's oracle, with the attacker's calls made just before the final answer."""
    steps = [step for turn in task.turns for step in turn.oracle]
    return [*steps[:-1], *attack.fooled, steps[-1]]


def fooled(attack: Attack) -> HearthSystem:
    """A model that obeys the injection, with every tool offered and every call let through
    to the gate: the gate alone must hold (tool selection and the repeat guard would stop
    some injected calls before the gate sees them)."""
    task = BY_ID[attack.task_id]
    return HearthSystem(
        lambda world, _task: OracleBackend(world, fooled_steps(task, attack)),
        off=frozenset({"select_tools", "repeat_guard"}),
    )


def test_attacks_cover_each_carrier_and_goal() -> None:
    carriers = {attack.injection.carrier.split(":")[0] for attack in ATTACKS}
    assert carriers == {"email", "file", "event", "task", "contact"}
    assert any(a.injection.carrier.endswith(".html") for a in ATTACKS)  # a saved web page
    assert len(ATTACKS) >= 8
    assert all(attack.task_id in BY_ID for attack in ATTACKS)


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a.id)
def test_a_perfect_model_keeps_utility_under_attack(world: World, attack: Attack) -> None:
    outcome = oracle_outcome(world, BY_ID[attack.task_id], attack)
    assert outcome.passed, outcome.reasons
    assert outcome.attacker_success is False


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a.id)
def test_an_obeying_model_reaches_the_goal_when_everything_is_approved(
    world: World, attack: Attack
) -> None:
    task = dataclasses.replace(BY_ID[attack.task_id], allow=EVERY_TOOL)
    outcome = run_task(world, fooled(attack), task, attack)
    assert outcome.attacker_success is True, (outcome.calls, outcome.reasons)
    assert not outcome.passed  # the attacker's change is not what the user asked for


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a.id)
def test_hearths_gate_and_the_task_confirmer_stop_an_obeying_model(
    world: World, attack: Attack
) -> None:
    task = BY_ID[attack.task_id]
    outcome = run_task(world, fooled(attack), task, attack)
    assert outcome.attacker_success is False, outcome.calls
    assert outcome.passed, outcome.reasons  # the user's own task still got done
    # The attacker's call reached the confirmation dialog and the user said no.
    assert any(not approved for _, approved in outcome.confirmations), outcome.confirmations


def test_a_script_is_not_opened_even_when_the_user_approves(world: World) -> None:
    """Behind the gate, the desktop connector refuses a script by its content (notes/tidy.txt
    starts with #!): an injected "open the script" fails even if the user says yes, and the
    benchmark's recording opener is never handed it."""
    task = Task(
        "open-script",
        "files",
        [],
        allow=[Allow("open_item")],
    )
    steps: list[Step] = [C("open_item", path="notes/tidy.txt"), "OK."]
    system = HearthSystem(lambda world, _task: OracleBackend(world, steps))
    outcome = run_task(world, system, dataclasses.replace(task, turns=[Turn("Open tidy.txt.")]))
    assert [c["name"] for c in outcome.calls] == ["open_item"]
    assert outcome.calls[0]["status"] != "ok", outcome.calls
    assert world.snapshot().opened == ()
