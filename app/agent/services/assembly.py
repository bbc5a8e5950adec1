"""Putting an agent together: one recipe for the window's worker and the ``ask`` command.

Both used to assemble the tools, the gate's context, the audit log and the standing
permissions themselves, and the copies could drift (a tool offered in the window but not on
the command line). Here the data folder's database decides memory, reminders, accounts,
audit and permissions; the caller decides only the model, the folders and who confirms.

    agent = build_agent(model, database=Database.open(folder), folders=[Path("~/Notes")],
                        confirmer=deny_everything)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app.agent.gate import ContextState, StoredPermissions
from app.agent.tools.registry import Registry
from app.agent.tools.toolbox import build_registry
from app.agent.turn.confirm import Confirmer, deny_everything
from app.agent.turn.loop import Agent
from app.llm.backend import ModelBackend, SamplingSettings
from app.store.database import Database
from app.store.permissions import PermissionStore

if TYPE_CHECKING:  # the MCP stack loads only when the user has tool servers
    from app.agent.tools.tool_servers import RunningServers


def session_tools(
    folders: Sequence[Path],
    database: Database | None,
    on_problem: Callable[[str], None] | None = None,
    tool_servers: RunningServers | None = None,
) -> Registry:
    """The tools for these folders and this database, with the stored mail and calendar
    accounts (passwords from the keyring) and the approved tools of the running tool
    servers. An account or tool that cannot be used is left out and `on_problem` hears why
    (no secrets in it); the window calls this again after a change."""
    registry = _own_tools(folders, database, on_problem)
    if tool_servers is not None:
        tool_servers.register(registry, on_problem)
    return registry


def start_tool_servers(
    database: Database, on_problem: Callable[[str], None] | None = None
) -> RunningServers | None:
    """The enabled tool servers of Settings → Tools…, started (blocking: never on the GUI
    thread); None when there are none, and then the MCP stack (a second and more to
    import) is not even loaded."""
    from app.store.tool_servers import ToolServerStore

    if not any(server.enabled for server in ToolServerStore(database).saved()):
        return None
    from app.agent.tools.tool_servers import RunningServers

    servers = RunningServers.stored(database)
    servers.start(on_problem)
    return servers


def _own_tools(
    folders: Sequence[Path],
    database: Database | None,
    on_problem: Callable[[str], None] | None,
) -> Registry:
    if database is None:
        return build_registry(folders=list(folders))
    # Imported here: the accounts module loads caldav and the mail stack, and the window
    # imports this module at start.
    from app.agent.services.accounts import load_accounts

    accounts = load_accounts(database)
    if on_problem is not None:
        for problem in accounts.problems:
            on_problem(problem)
    return build_registry(
        folders=list(folders), data=database, calendar=accounts.calendar, mail=accounts.mail
    )


def build_agent(
    model: ModelBackend,
    *,
    database: Database | None,
    folders: Sequence[Path] = (),
    confirmer: Confirmer = deny_everything,
    sampling: SamplingSettings | None = None,
    on_problem: Callable[[str], None] | None = None,
    tool_servers: RunningServers | None = None,
    intents: bool | None = None,
) -> Agent:
    """An agent on `model` with the session's tools; with a database, every call goes to its
    audit log and "always allow" grants are kept in it. Without one (tests, a window with no
    data folder) the agent has files and web only and forgets its grants at exit.

    `intents` puts the intents in front of the free loop (None: on, except for a scripted
    backend whose script does not ask for them: scripts written for the loop stay valid)."""
    audit = permissions = None
    if database is not None:
        audit = database.audit_log()
        permissions = StoredPermissions(PermissionStore(database))
    agent = Agent(
        model,
        session_tools(folders, database, on_problem, tool_servers),
        context=ContextState(allowed_folders=[str(path) for path in folders]),
        confirmer=confirmer,
        audit=audit,
        sampling=sampling,
        permissions=permissions,
        select_tools=True,  # each request gets the tools of its topics (issue #20's table)
    )
    if intents if intents is not None else getattr(model, "intents", True):
        from app.agent.intents.router import IntentRouter

        agent.front = IntentRouter()
    return agent
