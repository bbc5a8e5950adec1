"""The loops small models fall into end with an answer (Agent.repeat_guard): a call that
failed is not tried again unchanged, and a change nearly the same as one made this turn does
not run twice. Real registry, database, parser and gate; a scripted model."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from app.agent.gate.policy import ContextState
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.store.database import Database
from app.store.reminders import ReminderStore
from tests.scripting import call, script


def agent_on(tmp_path: Path, *turns: str, guard: bool = True) -> tuple[Agent, Database]:
    (tmp_path / "data").mkdir()
    database = Database.open(tmp_path / "data")
    agent = Agent(
        script(*turns),
        build_registry(folders=[tmp_path], data=database),
        context=ContextState(allowed_folders=[str(tmp_path)]),
    )
    agent.repeat_guard = guard
    return agent, database


@pytest.mark.parametrize(("guard", "reminders"), [(True, 1), (False, 2)])
def test_a_reminder_set_again_with_the_time_written_differently_runs_once(
    tmp_path: Path, guard: bool, reminders: int
) -> None:
    """With the guard one reminder is set and the model answers; without it (as before the
    guard) the second, nearly identical call runs too."""
    agent, database = agent_on(
        tmp_path,
        call("set_reminder", text="Call the plumber", at="2031-05-15T11:30"),
        call("set_reminder", text="Call the plumber", at="2031-05-15T11:30+02:00"),
        "Done.",
        guard=guard,
    )
    report = agent.run_turn(
        Conversation(), "Remind me to call the plumber", cancel=threading.Event()
    )
    assert len(ReminderStore(database).pending()) == reminders
    assert report.answer == "Done."
    if guard:
        assert [c.name for c in report.calls] == ["set_reminder"]


def test_two_different_reminders_both_run(tmp_path: Path) -> None:
    agent, database = agent_on(
        tmp_path,
        call("set_reminder", text="Call the plumber", at="2031-05-15T11:30"),
        call("set_reminder", text="Water the plants", at="2031-05-15T18:00"),
        "Done.",
    )
    agent.run_turn(Conversation(), "Two reminders please", cancel=threading.Event())
    assert len(ReminderStore(database).pending()) == 2


def test_a_failed_call_is_not_tried_again_unchanged(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere.txt")
    agent, _ = agent_on(
        tmp_path,
        call("read_file", path=missing),
        call("read_file", path=missing),
        "There is no such file.",
    )
    conversation = Conversation()
    report = agent.run_turn(conversation, "Read my nowhere file", cancel=threading.Event())
    assert [c.status for c in report.calls] == ["error"]
    assert "Already tried" in conversation.messages[-2].content
    assert report.answer == "There is no such file."
