"""Undo, end to end: a change a scripted model made through the agent is reversed by the
card's Undo (`Agent.undo`), through the same gate, against a real Radicale server, real
files in an allowed folder and a real database."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from app.agent.gate.policy import ContextState
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest, deny_everything
from app.agent.turn.loop import Agent, CallRecord
from app.store.database import Database
from app.store.memories import search_memories
from app.store.reminders import ReminderStore
from connectors.calendar import (
    CalendarAccount,
    add_task,
    create_event,
    list_events,
    list_tasks,
    parse_when,
)
from tests.scripting import call, script
from tests.support.radicale_server import (
    RadicaleServer,
    calendar_account,
    module_server,
)

PASSWORD = "alicepw"
WEEK = (parse_when("2026-12-01T00:00"), parse_when("2026-12-08T00:00"))


class Answers:
    """A confirmer that says yes (or no) and keeps what it was shown."""

    def __init__(self, yes: bool = True) -> None:
        self.yes = yes
        self.asked: list[ConfirmationRequest] = []

    def __call__(self, request: ConfirmationRequest) -> ConfirmationAnswer:
        self.asked.append(request)
        return ConfirmationAnswer.approve() if self.yes else ConfirmationAnswer.deny()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RadicaleServer]:
    yield from module_server(tmp_path_factory, "alice", PASSWORD, "Home")


@pytest.fixture
def account(server: RadicaleServer) -> Iterator[CalendarAccount]:
    with calendar_account(server, "alice", PASSWORD, "home") as account:
        yield account


def _one_call(agent: Agent, turn: str, request: str = "Do it") -> CallRecord:
    agent.backend = script(turn, "Done.")
    [record] = agent.run_turn(Conversation(), request).calls
    assert record.status == "ok", record.result
    return record


def _file_agent(folder: Path, confirmer: Any) -> Agent:
    context = ContextState(allowed_folders=[str(folder)])
    return Agent(script(), build_registry(folders=[folder]), context, confirmer=confirmer)


def _titles(account: CalendarAccount) -> list[str]:
    return sorted(e.title for e in list_events(account, *WEEK))


def test_a_created_event_is_undone_and_gone_and_the_undo_asks_as_a_delete(
    account: CalendarAccount,
) -> None:
    answers = Answers()
    agent = Agent(script(), build_registry(calendar=account), confirmer=answers)
    made = _one_call(
        agent,
        call("create_event", title="Book club", start="2026-12-02T15:00", end="2026-12-02T16:00"),
    )
    assert (made.decision, made.answer) == ("allow", None) and _titles(account) == ["Book club"]
    assert made.undo is not None and made.undo.name == "delete_event"
    undone = agent.undo(made)
    # Deleting is destructive: the gate asks, whatever the change it undoes did.
    assert (undone.name, undone.decision, undone.answer) == ("delete_event", "confirm", "approved")
    assert undone.status == "ok" and made.undone
    assert _titles(account) == []
    again = agent.undo(made)  # once only
    assert again.status == "refused" and "already" in str(again.result)


def test_a_refused_undo_changes_nothing_and_can_be_tried_again(account: CalendarAccount) -> None:
    answers = Answers(yes=False)
    agent = Agent(script(), build_registry(calendar=account), confirmer=answers)
    made = _one_call(
        agent, call("create_event", title="Gym", start="2026-12-03T18:00", end="2026-12-03T19:00")
    )
    undone = agent.undo(made)
    assert (undone.answer, undone.status) == ("denied", "refused") and not made.undone
    assert _titles(account) == ["Gym"]
    answers.yes = True
    assert agent.undo(made).status == "ok" and _titles(account) == []


def test_a_moved_event_is_back_at_its_old_time_and_the_undo_asks_again(
    account: CalendarAccount,
) -> None:
    event = create_event(
        account, "Team sync", parse_when("2026-12-02T10:00"), parse_when("2026-12-02T11:00")
    )
    answers = Answers()
    agent = Agent(script(), build_registry(calendar=account), confirmer=answers)
    moved = _one_call(
        agent,
        call(
            "update_event",
            event_id=event.event_id,
            start="2026-12-04T14:00",
            end="2026-12-04T15:00",
            location="Room 2",
        ),
    )
    assert moved.answer == "approved"  # changing an event the user has always asks
    [now] = list_events(account, *WEEK)
    assert now.start == parse_when("2026-12-04T14:00")
    undone = agent.undo(moved)
    assert (undone.name, undone.answer, undone.status) == ("update_event", "approved", "ok")
    assert "2026-12-04" in answers.asked[-1].preview  # the dialog shows before → after
    [back] = list_events(account, *WEEK)
    assert (back.start, back.end) == (
        parse_when("2026-12-02T10:00"),
        parse_when("2026-12-02T11:00"),
    )
    assert back.location is None and back.title == "Team sync"


def test_a_deleted_event_is_back_with_its_own_uid(account: CalendarAccount) -> None:
    event = create_event(
        account,
        "Piano lesson",
        parse_when("2026-12-05T09:00"),
        parse_when("2026-12-05T10:00"),
        description="Bring the Chopin",
    )
    answers = Answers()
    agent = Agent(script(), build_registry(calendar=account), confirmer=answers)
    deleted = _one_call(agent, call("delete_event", event_id=event.event_id))
    assert _titles(account) == []
    assert deleted.undo is not None and deleted.undo.name == "restore_event"
    assert "BEGIN:VCALENDAR" not in str(deleted.result)  # the saved copy never reaches the model
    undone = agent.undo(deleted)
    assert (undone.name, undone.decision, undone.status) == ("restore_event", "confirm", "ok")
    assert "Put back the deleted event “Piano lesson”" in answers.asked[-1].preview
    [back] = list_events(account, *WEEK)
    assert back.event_id == event.event_id
    assert (back.start, back.description) == (parse_when("2026-12-05T09:00"), "Bring the Chopin")


def test_an_event_with_invitations_offers_no_undo(account: CalendarAccount) -> None:
    agent = Agent(script(), build_registry(calendar=account), confirmer=Answers())
    made = _one_call(
        agent,
        call(
            "create_event",
            title="Lunch",
            start="2026-12-02T12:00",
            end="2026-12-02T13:00",
            attendees=["ann@example.org"],
        ),
    )
    assert made.undo is None  # the invitations went out: deleting cannot call them back
    assert agent.undo(made).status == "refused" and _titles(account) == ["Lunch"]


def test_an_added_and_a_ticked_task_are_undone(account: CalendarAccount) -> None:
    answers = Answers()
    agent = Agent(script(), build_registry(calendar=account), confirmer=answers)
    added = _one_call(agent, call("add_task", title="Call the plumber", due="2026-12-03"))
    assert [t.title for t in list_tasks(account)] == ["Call the plumber"]
    undone = agent.undo(added)
    assert (undone.name, undone.decision, undone.status) == ("delete_task", "confirm", "ok")
    assert list_tasks(account) == []

    task = add_task(account, "Pay rent", notes="Transfer by Friday")
    ticked = _one_call(agent, call("complete_task", task_id=task.task_id))
    assert list_tasks(account) == []  # done: no longer open
    undone = agent.undo(ticked)
    assert (undone.name, undone.answer, undone.status) == ("restore_task", "approved", "ok")
    [back] = list_tasks(account)
    assert (back.task_id, back.title, back.notes, back.done) == (
        task.task_id,
        "Pay rent",
        "Transfer by Friday",
        False,
    )


def test_a_written_file_is_removed_and_a_replaced_one_gets_its_text_back(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    answers = Answers()
    agent = _file_agent(folder, answers)
    new = _one_call(agent, call("write_file", path="list.txt", content="eggs\nmilk\n"))
    assert (new.decision, new.undo and new.undo.name) == ("allow", "remove_file")
    assert agent.undo(new).status == "ok"
    assert not (folder / "list.txt").exists()

    (folder / "plan.md").write_text("# Plan\nold line\n")
    replaced = _one_call(
        agent, call("write_file", path="plan.md", content="# Plan\nnew line\n", overwrite=True)
    )
    assert replaced.answer == "approved" and "new line" in (folder / "plan.md").read_text()
    undone = agent.undo(replaced)
    assert (undone.name, undone.answer, undone.status) == ("write_file", "approved", "ok")
    assert (folder / "plan.md").read_text() == "# Plan\nold line\n"


def test_a_new_file_the_user_changed_since_is_left_alone(tmp_path: Path) -> None:
    agent = _file_agent(tmp_path, Answers())
    new = _one_call(agent, call("write_file", path="draft.txt", content="first"))
    (tmp_path / "draft.txt").write_text("first, and the user's own words")
    undone = agent.undo(new)
    assert undone.status == "error" and "changed after Hearth wrote it" in str(undone.result)
    assert (tmp_path / "draft.txt").read_text() == "first, and the user's own words"


def test_a_memory_and_a_reminder_are_undone(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    answers = Answers()
    agent = Agent(script(), build_registry(data=database), confirmer=answers)
    fact = _one_call(agent, call("remember", fact="My bike lock code is on the fridge"))
    assert [m.text for m in search_memories(database, "bike")] != []
    undone = agent.undo(fact)
    assert (undone.name, undone.decision, undone.status) == ("forget", "confirm", "ok")
    assert search_memories(database, "bike") == []

    at = (datetime.now() + timedelta(days=1)).replace(microsecond=0).isoformat()
    reminder = _one_call(agent, call("set_reminder", text="Water the plants", at=at))
    assert [r.text for r in ReminderStore(database).pending()] == ["Water the plants"]
    undone = agent.undo(reminder)
    assert (undone.name, undone.status) == ("cancel_reminder", "ok")
    assert ReminderStore(database).pending() == []


def test_reads_and_sent_mail_offer_no_undo_and_undo_tools_are_never_offered(
    tmp_path: Path,
) -> None:
    registry = build_registry(folders=[tmp_path])
    assert "remove_file" not in registry.names()
    assert "remove_file" not in [spec.name for spec in registry.specs()]
    assert registry.get("remove_file") is not None  # there for Undo, judged by the gate
    agent = _file_agent(tmp_path, deny_everything)
    (tmp_path / "a.txt").write_text("hello")
    read = _one_call(agent, call("read_file", path="a.txt"))
    assert read.undo is None


def test_an_undo_of_a_confirmed_change_asks_again_even_where_the_gate_would_allow(
    tmp_path: Path,
) -> None:
    """The gate only ever raises: a reverse call it would allow (here a new file in a clean
    conversation) still asks when the change it undoes was confirmed, and not otherwise."""
    from app.agent.turn.confirm import Answer
    from app.llm.tools import ToolCall

    answers = Answers()
    agent = _file_agent(tmp_path, answers)
    reverse = ToolCall("write_file", {"path": "back.txt", "content": "as it was"})
    confirmed = CallRecord("write_file", {}, "confirm", answer=Answer.APPROVED, status="ok")
    confirmed.undo = reverse
    undone = agent.undo(confirmed)
    assert (undone.decision, undone.answer, undone.status) == ("confirm", "approved", "ok")
    assert "It undoes a change you confirmed" in undone.reasons
    assert len(answers.asked) == 1

    unasked = CallRecord("write_file", {}, "allow", status="ok")
    unasked.undo = ToolCall("write_file", {"path": "again.txt", "content": "new"})
    assert (agent.undo(unasked).decision, len(answers.asked)) == ("allow", 1)


def test_a_replaced_file_that_was_not_utf8_offers_no_undo_rather_than_a_wrong_one(
    tmp_path: Path,
) -> None:
    (tmp_path / "old.txt").write_bytes("café au lait\n".encode("latin-1"))
    agent = _file_agent(tmp_path, Answers())
    replaced = _one_call(agent, call("write_file", path="old.txt", content="tea\n", overwrite=True))
    assert replaced.undo is None  # writing the old text back as UTF-8 would change its bytes


def test_the_undo_dialog_offers_no_edit(tmp_path: Path) -> None:
    answers = Answers()
    agent = _file_agent(tmp_path, answers)
    new = _one_call(agent, call("write_file", path="n.txt", content="x"))
    agent.undo(new)
    assert answers.asked[-1].tool == "remove_file" and answers.asked[-1].editable == ()


@pytest.mark.parametrize(
    ("name", "result"),
    [
        ("send_email", {"sent": True, "message_id": "<1@x>", "recipients": ["a@example.org"]}),
        ("reply_email", {"sent": True, "recipients": ["a@example.org"]}),
        ("read_webpage", {"url": "https://example.org", "text": "hi"}),
        ("list_events", []),
        ("open_item", {"opened": "notes.txt", "kind": "file"}),
    ],
)
def test_what_cannot_be_undone_has_no_reverse_call(name: str, result: object) -> None:
    from app.agent.tools.undo import reverse_call

    assert reverse_call(name, {}, result, {}) is None


def test_an_undo_tool_is_judged_like_any_call_outside_the_folders_it_is_refused(
    tmp_path: Path,
) -> None:
    from app.llm.tools import ToolCall

    agent = _file_agent(tmp_path, Answers())
    outside = CallRecord("write_file", {}, "allow", status="ok")
    outside.undo = ToolCall("remove_file", {"path": "/etc/hostname.txt", "content": "x"})
    refused = agent.undo(outside)
    assert (refused.decision, refused.status) == ("deny", "refused"), refused.result
