"""Reminder and memory tools through the agent and the gate, on a real SQLite database:
set_reminder stores what the notifier will show (a past time is refused plainly),
list/cancel work, and recall ranks with FTS5 and is not confused by FTS syntax."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, deny_everything
from app.agent.turn.loop import Agent
from app.store.database import Database
from app.store.reminders import ReminderStore
from tests.scripting import call, script


def local(delta: timedelta) -> str:
    return (datetime.now() + delta).replace(microsecond=0).isoformat()


def test_set_and_list_reminders_without_asking_cancel_asks(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    tomorrow = local(timedelta(days=1))
    turns = [
        call("set_reminder", text="Water the plants", at=tomorrow),
        call("set_reminder", text="Too late", at=local(-timedelta(hours=1))),
        call("list_reminders"),
        "Done.",
    ]
    registry = build_registry(data=database)
    assert {"set_reminder", "list_reminders", "cancel_reminder"} <= set(registry.names())
    agent = Agent(script(*turns), registry, confirmer=deny_everything)
    report = agent.run_turn(Conversation(), "Remind me tomorrow to water the plants")
    first, past, listing = report.calls
    assert (first.decision, first.status) == ("allow", "ok")  # the user's own, low risk
    assert first.result["text"] == "Water the plants" and first.result["at"].startswith(
        tomorrow[:16]
    )
    assert past.status == "error" and "in the past" in str(past.result)
    assert [r["text"] for r in listing.result] == ["Water the plants"]
    stored = ReminderStore(database).pending()
    assert [r.text for r in stored] == ["Water the plants"]

    # Cancelling deletes, and deleting always asks (issue #16): refused, then approved.
    agent.backend = script(call("cancel_reminder", reminder_id=stored[0].id), "Not cancelled.")
    report = agent.run_turn(Conversation(), "Cancel it")
    assert (report.calls[0].decision, report.calls[0].status) == ("confirm", "refused")
    assert [r.text for r in ReminderStore(database).pending()] == ["Water the plants"]
    agent.confirmer = lambda request: ConfirmationAnswer.approve()
    agent.backend = script(call("cancel_reminder", reminder_id=stored[0].id), "Cancelled.")
    report = agent.run_turn(Conversation(), "Cancel it")
    assert (report.calls[0].decision, report.calls[0].answer, report.calls[0].status) == (
        "confirm",
        "approved",
        "ok",
    )
    assert ReminderStore(database).pending() == []
    database.close()


def test_recall_ranks_with_fts_and_forget_updates_the_index(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    turns = [
        call("remember", fact="The plumber is Marco, phone 0612"),
        call("remember", fact="The plumber comes on Friday; plumber invoices go to Anna"),
        call("recall", query="plumber Friday"),
        call("recall", query='") OR * NEAR('),
        "Noted.",
    ]
    agent = Agent(script(*turns), build_registry(data=database), confirmer=deny_everything)
    report = agent.run_turn(Conversation(), "Remember the plumber details")
    recall, odd = report.calls[2:]
    assert [m["memory_id"] for m in recall.result] == [2, 1]
    assert odd.status == "ok" and odd.result == "Nothing remembered matches."

    agent = Agent(
        script(call("forget", memory_id=2), call("recall", query="plumber"), "Ok."),
        build_registry(data=database),
        confirmer=lambda _request: ConfirmationAnswer.approve(),
    )
    report = agent.run_turn(Conversation(), "Forget the second one")
    forget, recall = report.calls
    assert (forget.decision, forget.status) == ("confirm", "ok")
    assert [m["memory_id"] for m in recall.result] == [1]
    database.close()
