"""The tool_servers table (migration 0006) and ToolServerStore: settings and approvals,
never a secret's value."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect

from app.store.database import Database
from app.store.tool_servers import ToolServer, ToolServerStore, replace


def test_migration_0006_upgrade_downgrade(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    columns = {c["name"] for c in inspect(database.engine).get_columns("tool_servers")}
    assert {"name", "command", "url", "enabled", "secret_names_json", "approved_json"} <= columns
    ToolServerStore(database).add(ToolServer("Weather", command="uvx mcp-weather"))
    database.downgrade("0005")
    assert "tool_servers" not in inspect(database.engine).get_table_names()
    assert "accounts" in inspect(database.engine).get_table_names()
    database.upgrade()
    assert ToolServerStore(database).saved() == []
    database.close()


def test_add_update_approve_remove(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    store = ToolServerStore(database)
    local = store.add(ToolServer("Weather", command="uvx mcp-weather", secret_names=("API_KEY",)))
    remote = store.add(ToolServer("Notes", url="https://notes.example/mcp"))
    assert local.id is not None and local.secret_ref.startswith("tools-")
    assert local.secret_ref != remote.secret_ref
    assert [s.name for s in store.saved()] == ["Weather", "Notes"]
    assert store.get(local.id) == local and local.secret_names == ("API_KEY",)

    approved = store.approve(local.id, {"forecast": "f1"})
    approved = store.approve(local.id, {"alerts": "a1", "forecast": "f2"})
    assert dict(approved.approved) == {"forecast": "f2", "alerts": "a1"}
    off = store.update(replace(approved, enabled=False))
    assert not off.enabled and off.secret_ref == local.secret_ref

    removed = store.remove(local.id)
    assert removed is not None and removed.secret_ref == local.secret_ref
    assert store.remove(local.id) is None
    assert [s.name for s in store.saved()] == ["Notes"]
    database.close()


def test_names_are_unique_in_any_case(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    store = ToolServerStore(database)
    first = store.add(ToolServer("Weather", command="a"))
    other = store.add(ToolServer("Notes", command="b"))
    with pytest.raises(ValueError, match="already a tool server"):
        store.add(ToolServer("weather", command="c"))
    with pytest.raises(ValueError, match="already a tool server"):
        store.update(replace(other, name="WEATHER"))
    assert store.update(replace(first, name="weather")).name == "weather"
    database.close()


@pytest.mark.parametrize(
    ("name", "command", "url"),
    [("", "a", ""), ("x", "", ""), ("x", "a", "https://b.example/"), ("x", " ", " ")],
)
def test_a_server_is_a_command_or_an_address(name: str, command: str, url: str) -> None:
    with pytest.raises(ValueError):
        ToolServer(name, command=command, url=url)


def test_approvals_cannot_be_changed_behind_the_store(tmp_path: Path) -> None:
    server = ToolServer("W", command="a", approved={"t": "1"})
    with pytest.raises(TypeError):
        server.approved["t"] = "2"  # type: ignore[index]
    assert ToolServer("W", command="a").describe() == "W (a)"
    assert ToolServer("W", url="https://x.example/" + "p" * 80).describe().endswith("…)")
