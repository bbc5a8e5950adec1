"""`python -m app ask --data-dir D` uses the calendar account stored in D, with its password
from the (real, private) Secret Service, found by keyring's own detection in a new process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.store.accounts import AccountSettings, AccountStore
from app.store.database import Database
from connectors.credentials import Credentials
from tests.scripting import call
from tests.support.ask_command import ask_process, write_script
from tests.support.radicale_server import (
    RadicaleServer,
    running_radicale_with_calendar,
)
from tests.support.secret_service import SecretService

PASSWORD = "ask-alice-pw-4412"


@pytest.fixture
def radicale(tmp_path: Path) -> Iterator[RadicaleServer]:
    with running_radicale_with_calendar(tmp_path / "radicale", "alice", PASSWORD) as server:
        yield server


def ask(tmp_path: Path, data: Path, turns: list[str]) -> dict:
    script = write_script(tmp_path, turns)
    options = ("--script", str(script), "--confirm", "deny", "--json", "What's on my calendar?")
    done = ask_process(data, *options, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_ask_uses_the_stored_calendar_account(
    tmp_path: Path, secret_service: SecretService, radicale: RadicaleServer
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    database = Database.open(data)
    account = AccountStore(database).add(
        AccountSettings(kind="calendar", name="Family", username="alice", calendar_url=radicale.url)
    )
    database.close()
    Credentials().store(account.secret_ref, PASSWORD)
    turns = [call("list_events", start="2030-01-01T00:00", end="2030-01-02T00:00"), "Free."]
    transcript = ask(tmp_path, data, turns)
    [listed] = transcript["tool_calls"]
    assert listed["name"] == "list_events" and listed["status"] == "ok", listed
    assert PASSWORD not in json.dumps(transcript)


def test_ask_without_accounts_offers_no_calendar(tmp_path: Path) -> None:
    data = tmp_path / "data"
    turns = [call("list_events", start="2030-01-01", end="2030-01-02"), "ok"]
    transcript = ask(tmp_path, data, turns)
    assert transcript["tool_calls"] == []  # no account, so no calendar tools to call
    tool_reply = next(m for m in transcript["messages"] if m["role"] == "tool")
    assert "Unknown tool 'list_events'" in tool_reply["content"]
