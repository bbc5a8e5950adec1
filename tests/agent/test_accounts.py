"""The account lifecycle below the UI (`app.agent.services.accounts`): save, test and remove
against a real Secret Service and a real Radicale, and `build_agent`, the one recipe the
window's worker and `ask` use. No Qt here: this is what the accounts dialog's service runs
on its thread."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from keyring.backends import fail

from app.agent.gate.permissions import MemoryPermissions, StoredPermissions
from app.agent.services.accounts import (
    AccountCheck,
    remove_account,
    save_account,
    stored_accounts,
    test_account,
)
from app.agent.services.assembly import build_agent, session_tools
from app.agent.turn.confirm import deny_everything
from app.llm.scripted import ScriptedBackend
from app.store.accounts import AccountSettings, AccountStore, replace
from app.store.database import Database
from connectors.credentials import SERVICE, Credentials, NoSecureKeyring
from tests.support.radicale_server import running_radicale_with_calendar
from tests.support.secret_service import SecretService

PASSWORD = "lifecycle-Secret-pw-5173"


def calendar_settings(url: str = "https://dav.example.org/") -> AccountSettings:
    return AccountSettings(kind="calendar", name="Family", username="alice", calendar_url=url)


def no_keyring() -> NoSecureKeyring:
    """What opening the keyring gives on a computer with no safe password store."""
    with pytest.raises(NoSecureKeyring) as refused:
        Credentials(fail.Keyring())
    return refused.value


def test_the_check_function_is_not_collected_as_a_test() -> None:
    assert test_account.__test__ is False  # type: ignore[attr-defined]


def test_save_mints_a_keyring_name_and_keeps_the_password_there_only(
    database: Database, secret_service: SecretService, tmp_path: Path
) -> None:
    saved = save_account(database, calendar_settings(), PASSWORD)
    assert saved.in_keyring and saved.message == "Saved “Family”."
    account = saved.account
    assert account.id is not None and re.fullmatch(r"calendar-[0-9a-f]{16}", account.secret_ref)
    assert secret_service.backend.get_password(SERVICE, account.secret_ref) == PASSWORD
    assert AccountStore(database).saved() == [account]

    # Editing without typing a password keeps the stored one (and the keyring name).
    edited = save_account(database, replace(account, name="Home"), "")
    assert edited.in_keyring and edited.account.secret_ref == account.secret_ref
    assert edited.account.name == "Home"
    assert secret_service.backend.get_password(SERVICE, account.secret_ref) == PASSWORD
    # Typing a new one replaces it under the same name.
    save_account(database, edited.account, PASSWORD + "-new")
    assert secret_service.backend.get_password(SERVICE, account.secret_ref) == PASSWORD + "-new"

    for path in (tmp_path / "data").iterdir():
        assert PASSWORD.encode() not in path.read_bytes()


def test_without_a_safe_keyring_the_settings_are_kept_and_the_password_nowhere(
    database: Database, secret_service: SecretService, tmp_path: Path
) -> None:
    saved = save_account(database, calendar_settings(), PASSWORD, credentials=no_keyring())
    assert saved.in_keyring is False
    assert "NOT saved" in saved.message and "GNOME Keyring" in saved.message
    assert [a.name for a in AccountStore(database).saved()] == ["Family"]
    assert secret_service.backend.get_password(SERVICE, saved.account.secret_ref) is None
    for path in (tmp_path / "data").iterdir():
        assert PASSWORD.encode() not in path.read_bytes()
    accounts, problem = stored_accounts(database)
    assert [a.name for a in accounts] == ["Family"] and problem == ""  # this keyring is fine


def test_remove_forgets_the_account_and_its_password(
    database: Database, secret_service: SecretService
) -> None:
    account = save_account(database, calendar_settings(), PASSWORD).account
    assert account.id is not None
    assert remove_account(database, account.id) == ""
    assert AccountStore(database).saved() == []
    assert secret_service.backend.get_password(SERVICE, account.secret_ref) is None
    assert remove_account(database, account.id) == ""  # already gone: nothing to say


def test_test_connection_against_a_real_calendar_server(
    database: Database, secret_service: SecretService, tmp_path: Path
) -> None:
    with running_radicale_with_calendar(tmp_path / "dav", "alice", PASSWORD) as radicale:
        settings = calendar_settings(radicale.url)
        assert test_account(settings, "") == AccountCheck(False, "Enter the password first.")
        refused = test_account(settings, "not-the-password")
        assert not refused.ok and "not-the-password" not in refused.message
        connected = test_account(settings, PASSWORD)
        assert connected == AccountCheck(True, "Connected: found 1 calendar(s): Family.")
        # Editing a saved account: the stored password is read from the keyring for the test.
        stored = save_account(database, settings, PASSWORD).account
        assert test_account(stored, "").ok
        without_keyring = test_account(stored, "", credentials=no_keyring())
        assert without_keyring.message == "Enter the password first."


def test_build_agent_uses_the_stored_accounts_audit_and_grants(
    database: Database, secret_service: SecretService, tmp_path: Path
) -> None:
    save_account(database, calendar_settings(), PASSWORD)  # used only when a tool runs
    folder = tmp_path / "notes"
    folder.mkdir()
    backend = ScriptedBackend.from_file(_script(tmp_path))
    agent = build_agent(backend, database=database, folders=[folder], confirmer=deny_everything)
    names = agent.registry.names()
    assert {"list_events", "list_folder", "remember", "set_reminder"} <= set(names)
    assert agent.context.allowed_folders == [str(folder)]
    assert isinstance(agent.permissions, StoredPermissions)
    assert agent.confirmer is deny_everything

    # Without a database: files and the web only, grants kept in memory.
    bare = build_agent(backend, database=None, folders=[folder])
    assert "list_folder" in bare.registry.names() and "remember" not in bare.registry.names()
    assert isinstance(bare.permissions, MemoryPermissions)


def test_an_account_that_cannot_be_used_is_left_out_and_said_why(
    database: Database, secret_service: SecretService
) -> None:
    AccountStore(database).add(calendar_settings())  # stored, but no password in the keyring
    problems: list[str] = []
    registry = session_tools([], database, problems.append)
    assert "list_events" not in registry.names()
    assert problems == [
        "The account “Family” has no saved password. Add it in Settings → Accounts…"
    ]


def _script(tmp_path: Path) -> Path:
    path = tmp_path / "script.json"
    path.write_text('{"format": "qwen3.5", "turns": ["Hello."]}')
    return path
