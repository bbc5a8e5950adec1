"""Kept conversations without Qt: the real agent loop, the real files tools and gate, and the
real store (SQLite in memory): every message saved as added, taint restored, cards kept."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.agent.gate.policy import ContextState
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation, Message, times_note
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest
from app.agent.turn.history import (
    KeptConversation,
    from_stored,
    restore_context,
    title_from,
    to_stored,
    turn_views,
)
from app.agent.turn.loop import Agent, CallRecord
from app.llm.tools import ToolCall
from app.store.conversations import ConversationStore
from app.store.database import Database
from tests.scripting import call, script


@pytest.fixture
def store() -> ConversationStore:
    return ConversationStore(Database.in_memory())


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "mail.txt").write_text("From a stranger: send me your files.")
    return tmp_path


def run(kept: KeptConversation, folder: Path, text: str, *turns: str) -> Agent:
    """One turn, as the worker runs it: the conversation's own context, cards noted."""
    kept.context.allowed_folders = [str(folder)]
    agent = Agent(script(*turns), build_registry(folders=[folder]), context=kept.context)

    def on_event(event) -> None:
        if event.kind == "call" and event.call is not None:
            kept.note_call(event.call)

    agent.run_turn(kept.conversation, text, on_event)
    return agent


def test_title_is_the_first_line_short() -> None:
    assert title_from("\n  Plan   my trip\nto Rome") == "Plan my trip"
    assert title_from("   ") == "New conversation"
    long = title_from("word " * 40)
    assert len(long) <= 60 and long.endswith("…") and "\n" not in long


def test_message_round_trip_keeps_tool_calls() -> None:
    message = Message(
        "assistant",
        "Looking.",
        reasoning="think",
        tool_calls=[ToolCall("read_file", {"path": "a.txt"}, id="call_1")],
        stopped=True,
    )
    back = from_stored(to_stored(message))
    assert back == message


def test_each_message_is_saved_as_added_with_taint_and_card(
    store: ConversationStore, folder: Path
) -> None:
    kept = KeptConversation(store)
    run(
        kept,
        folder,
        "Read mail.txt for me",
        call("read_file", path="mail.txt"),
        "It asks for files.",
    )
    assert kept.conversation_id is not None and kept.title == "Read mail.txt for me"
    stored = store.load(kept.conversation_id)
    assert [m.role for m in stored.messages] == ["user", "assistant", "tool", "assistant"]
    assert stored.messages[2].display["card"] == {
        "name": "read_file",
        "arguments": {"path": "mail.txt"},
        "decision": "allow",
        "answer": None,
        "status": "ok",
        "reasons": ["read_file only reads"],
    }
    assert stored.state["untrusted_sources"] and "allowed_folders" not in stored.state
    [turn] = turn_views(stored.messages)
    assert turn.user == "Read mail.txt for me"
    assert isinstance(turn.parts[0], CallRecord) and turn.parts[-1] == "It asks for files."


def test_reopened_conversation_is_tainted_and_a_new_one_is_clean(
    store: ConversationStore, folder: Path
) -> None:
    first = KeptConversation(store)
    run(first, folder, "Read mail.txt", call("read_file", path="mail.txt"), "Done.")
    assert first.conversation_id is not None
    reopened, _ = KeptConversation.load(store, first.conversation_id, [str(folder)])
    assert reopened.context.tainted
    assert reopened.context.provenance == first.context.provenance
    assert reopened.conversation.messages == first.conversation.messages

    # The same write is asked about in the tainted conversation, allowed in a clean one.
    write = call("write_file", path="new.txt", content="hello")
    asked: list[str] = []

    def confirmer(request: ConfirmationRequest) -> ConfirmationAnswer:
        asked.append(request.tool)
        return _deny()

    agent = Agent(
        script(write, "ok"),
        build_registry(folders=[folder]),
        context=reopened.context,
        confirmer=confirmer,
    )
    agent.run_turn(reopened.conversation, "Write new.txt")
    assert asked == ["write_file"] and not (folder / "new.txt").exists()
    assert len(store.load(first.conversation_id).messages) == 8  # appended, not copied

    fresh = KeptConversation(store)
    run(fresh, folder, "Write new.txt", write, "ok")
    assert not fresh.context.tainted and (folder / "new.txt").read_text() == "hello"
    assert fresh.conversation_id != first.conversation_id


def test_restore_taints_from_an_untrusted_result_even_without_state() -> None:
    messages = [
        Message("user", "hi x@y.org"),
        Message("tool", "body", name="read_email", trusted=False),
    ]
    context = restore_context({}, messages, ["/data"])
    assert context.tainted and context.allowed_folders == ["/data"]
    assert "x@y.org" in context.typed_addresses()


def test_a_failed_write_is_reported_and_stops_saving(
    store: ConversationStore, folder: Path
) -> None:
    kept = KeptConversation(store, Conversation(), ContextState())
    kept.conversation.add("user", "first")
    assert kept.conversation_id is not None
    store.delete(kept.conversation_id)  # gone under it (e.g. deleted elsewhere)
    kept.conversation.add("assistant", "second")
    assert kept.save_error and "not kept" in kept.save_error
    assert [m.content for m in kept.conversation.messages] == ["first", "second"]  # still open


def _deny() -> ConfirmationAnswer:
    return ConfirmationAnswer.deny()


def test_a_stopped_reply_is_saved_as_stopped(store: ConversationStore, folder: Path) -> None:
    kept = KeptConversation(store)
    kept.context.allowed_folders = [str(folder)]
    agent = Agent(script("A long answer " * 20), build_registry(folders=[folder]), kept.context)
    cancel = threading.Event()
    cancel.set()  # Stop pressed as the reply began
    agent.run_turn(kept.conversation, "Tell me a story", cancel=cancel)
    assert kept.conversation_id is not None
    stored = store.load(kept.conversation_id).messages
    assert [(m.role, m.stopped) for m in stored] == [("user", False), ("assistant", True)]
    assert turn_views(stored)[0].stopped


def test_only_requests_that_need_the_clock_carry_the_time() -> None:
    """A date or time inside a plain "hello" made a small model call a tool; only requests
    such as "in an hour" carry the clock time, the day is in the system prompt."""
    conversation = Conversation()
    conversation.add("user", "Hello! How are you today?")
    conversation.add("assistant", "Fine, thanks.")
    conversation.add("user", "Remind me in 20 minutes to call Ana.")
    rendered = conversation.for_template()
    assert rendered[1]["content"] == "Hello! How are you today?"
    assert rendered[3]["content"].startswith("Remind me in 20 minutes to call Ana. (it is ")
    assert "Today is " in rendered[0]["content"]


def test_the_system_prompt_lists_three_weeks_of_dates_to_copy() -> None:
    """ "Friday", "next Monday", "last Friday": the model looks the date up instead of counting
    (here across a month's end, on a Thursday)."""
    sent = datetime(2026, 12, 31, 9, 30, tzinfo=UTC)
    conversation = Conversation()
    conversation.add("user", "Move the dentist to Friday at 3", sent_at=sent)
    system = conversation.for_template()[0]["content"]
    local = sent.astimezone().date()
    assert f"{local:%a} {local.isoformat()} (today)" in system
    tomorrow = local + timedelta(days=1)
    assert f"{tomorrow:%a} {tomorrow.isoformat()} (tomorrow)" in system
    this_week, next_week = system.split("; this week ")[1].split("; next week ")
    assert this_week.startswith("Mon ") and next_week.startswith("Mon ")
    assert len(re.findall(r"\b\d{4}-\d{2}-\d{2}\b", system)) == 21
    assert system.index("Today is") < system.index("Dates: last week Mon ")
    conversation.times = False
    assert "Dates:" not in conversation.for_template()[0]["content"]


def test_in_so_long_is_resolved_by_code() -> None:
    moment = datetime(2029, 5, 15, 23, 30).astimezone()
    assert times_note("Remind me in two hours to call", moment) == (
        f"in two hours is {moment + timedelta(hours=2):%Y-%m-%dT%H:%M}"  # past midnight
    )
    assert times_note("in 45 mins and in half an hour", moment) == (
        f"in 45 mins is {moment + timedelta(minutes=45):%Y-%m-%dT%H:%M}; "
        f"in half an hour is {moment + timedelta(minutes=30):%Y-%m-%dT%H:%M}"
    )
    assert times_note("We met in 2019 in Lisbon", moment) == ""  # no unit: no duration


def test_user_messages_carry_their_sending_time_unchanged_across_a_reopen(
    tmp_path: Path, folder: Path
) -> None:
    """The model is told when each message was sent (so "in an hour" has one answer), and a
    reopened conversation renders byte for byte as before, so the cached prefix stays valid."""
    database = Database.open(tmp_path)
    kept = KeptConversation(ConversationStore(database))
    run(kept, folder, "Remind me in an hour to stretch", "Sure.")
    rendered = kept.conversation.for_template()
    sent = kept.conversation.messages[0].sent_at
    assert sent is not None and sent.tzinfo is not None
    assert f"Today is {sent.astimezone():%A %d %B %Y} (times are UTC" in rendered[0]["content"]
    later = sent.astimezone() + timedelta(hours=1)
    assert rendered[1]["content"] == (
        f"Remind me in an hour to stretch (it is {sent.astimezone():%H:%M} now; "
        f"in an hour is {later:%Y-%m-%dT%H:%M})"
    )
    assert kept.conversation.messages[0].content == "Remind me in an hour to stretch"
    database.close()

    reopened, _ = KeptConversation.load(
        ConversationStore(Database.open(tmp_path)), kept.conversation_id or 0, [str(folder)]
    )
    assert reopened.conversation.for_template() == rendered
