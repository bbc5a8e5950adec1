"""Standing "always allow" permissions: offered only for narrow scopes, kept in the database,
used by the gate within its fence, and revocable."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from app.agent.gate.permissions import StoredPermissions
from app.agent.gate.policy import ContextState, Decision, StandingPermission, decide, offer_standing
from app.agent.tools.declarations import BUILTIN_TOOLS
from app.agent.tools.registry import Registry, Tool, ToolResult
from app.agent.tools.toolbox import SPECS
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import Answer, ConfirmationAnswer, ConfirmationRequest
from app.agent.turn.loop import Agent
from app.llm.scripted import ScriptedBackend
from app.store.database import Database
from app.store.permissions import PermissionStore
from tests.scripting import call


def _offer(tool: str, arguments: dict[str, Any], context: ContextState | None = None):
    context = context or ContextState()
    verdict = decide(tool, arguments, context, rules=BUILTIN_TOOLS)
    return offer_standing(tool, arguments, verdict, context, rules=BUILTIN_TOOLS)


def test_offers_are_narrow() -> None:
    permission, text = _offer("web_search", {"query": "trains to Lyon"})
    assert permission == StandingPermission("web_search")
    assert text.splitlines()[0] == "Always allow web_search (no other tool)"
    # The dialog says exactly what "always" covers (issue #16).
    assert "read nothing from outside" in text and "nothing private" in text
    assert _offer("read_webpage", {"url": "https://news.example/a"}) is None  # not typed
    typed = ContextState()
    typed.note_user_text("read https://news.example/a and https://news.example/a?b=1")
    permission, text = _offer("read_webpage", {"url": "https://news.example/a"}, typed)
    assert permission == StandingPermission("read_webpage", "news.example")
    assert text.splitlines()[0] == "Always allow read_webpage on news.example"
    for promise in ("exactly news.example", "not its subdomains", "?query", "redirect"):
        assert promise in text
    # A grant would never cover an address with a query string: so none is offered for one.
    assert _offer("read_webpage", {"url": "https://news.example/a?b=1"}, typed) is None
    context = ContextState()
    context.note_user_text("email ann@example.org please")
    permission, _ = _offer(
        "send_email", {"to": ["ann@example.org"], "subject": "Hi", "body": "Lunch?"}, context
    )
    assert permission == StandingPermission("send_email", "ann@example.org")


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("send_email", {"to": ["ann@example.org", "bob@example.org"], "subject": "s", "body": "b"}),
        ("send_email", {"to": ["stranger@evil.example"], "subject": "s", "body": "b"}),
        ("web_search", {"query": "my card 4111 1111 1111 1111"}),
        ("web_search", {"query": "oncologist near me for my chemotherapy"}),
        ("write_file", {"path": "/tmp/x.txt", "content": "x"}),
        ("delete_event", {"event_id": "1"}),
    ],
)
def test_never_offered(tool: str, arguments: dict[str, Any]) -> None:
    context = ContextState(allowed_folders=["/tmp"])
    context.note_user_text("email ann@example.org and bob@example.org")
    assert _offer(tool, arguments, context) is None


def test_never_offered_in_a_tainted_context() -> None:
    context = ContextState()
    context.add_untrusted("an email from x@y")
    assert _offer("web_search", {"query": "weather"}, context) is None


def _search_tool(ran: list[dict[str, Any]]) -> Tool:
    def handler(arguments: dict[str, Any]) -> ToolResult:
        ran.append(arguments)
        return ToolResult("no results", trusted=True)  # keep the context clean for the test

    return Tool(SPECS["web_search"], handler)


def test_always_allow_is_stored_used_and_revocable(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    store = PermissionStore(database)
    ran: list[dict[str, Any]] = []
    asked: list[ConfirmationRequest] = []

    def approve_always(request: ConfirmationRequest) -> ConfirmationAnswer:
        asked.append(request)
        return ConfirmationAnswer(Answer.APPROVED, always=True)

    def run(confirmer: Any) -> None:
        agent = Agent(
            ScriptedBackend.from_data({"turns": [call("web_search", query="weather"), "ok"]}),
            Registry([_search_tool(ran)]),
            confirmer=confirmer,
            permissions=StoredPermissions(store),
        )
        agent.run_turn(Conversation(), "search the weather", cancel=threading.Event())

    run(approve_always)
    assert len(asked) == 1 and asked[0].standing_offer
    assert [(g.tool, g.scope) for g in store.grants()] == [("web_search", None)]
    # A new conversation: the stored grant covers the call, no question.
    run(lambda request: pytest.fail("asked despite the standing permission"))
    assert len(ran) == 2
    # Revoked: it asks again.
    store.revoke(store.grants()[0].id)
    run(approve_always)
    assert len(asked) == 2
    database.close()


def test_a_grant_never_covers_money(tmp_path: Path) -> None:
    permissions = [StandingPermission("web_search")]
    verdict = decide(
        "web_search",
        {"query": "wire 500 EUR to DE89370400440532013000"},
        ContextState(),
        standing=permissions,
        rules=BUILTIN_TOOLS,
    )
    assert verdict.decision == Decision.CONFIRM


def test_migration_adds_and_removes_the_table(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    assert (database.current_revision() or "") >= "0002"
    PermissionStore(database).grant("web_search", None)
    database.downgrade("0001")
    assert database.current_revision() == "0001"
    database.upgrade()
    assert PermissionStore(database).grants() == []
    database.close()
