"""Tools the user adds from MCP servers: never more trusted than an email (issue #22).

A server's tools come in through the same `Registry.register` as the built-in ones, with a
declaration made here from what the server says about them. What it says is data, never
instructions or facts:

- every outside tool asks before it runs (its label is at least OUTBOUND: the arguments go
  to another program), and what it returns taints the conversation like a web page;
- the server's annotations may only raise caution: a tool that does not say it only reads
  is DESTRUCTIVE (the protocol's own default), and only a tool that claims to only read may
  be allowed "always", one tool at a time (never a whole server);
- descriptions are cut to a length, stripped of control characters and of the model's
  control tokens before the model sees them, and fingerprinted: the user approves the tools
  as shown in Settings → Tools…, and a tool whose description or schema changes afterwards
  is switched off until the user looks again;
- the secrets a server needs (API keys in environment variables or headers) are in the
  keyring, never in the database.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from secrets import token_hex
from typing import Any, Literal

from app.agent.services.accounts import open_credentials
from app.agent.tools.declarations import BUILTIN_TOOLS, Label, ToolDeclaration
from app.agent.tools.registry import (
    Handler,
    Previewer,
    Registry,
    ToolFailed,
    ToolResult,
    turn_cancel,
)
from app.llm.special_tokens import neutralise
from app.store.database import Database
from app.store.permissions import PermissionStore
from app.store.tool_servers import (
    SECRET_NAME,
    WEB_ADDRESS,
    ToolServer,
    ToolServerStore,
    replace,
)
from connectors.credentials import CredentialError, Credentials, NoSecureKeyring
from connectors.mcp import CallOutcome, McpConnection, McpError, ServerConfig, ServerTool
from connectors.others_text import one_line, visible_text

log = logging.getLogger(__name__)

Keyring = Credentials | NoSecureKeyring | None
Problem = Callable[[str], None]

MAX_DESCRIPTION = 400  # characters of a tool's description the model sees
MAX_FIELD_DESCRIPTION = 160
MAX_TOOLS_PER_SERVER = 40  # more would drown a small model's prompt
_SCHEMA_DEPTH = 4
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,63}")
_TYPES = frozenset({"string", "integer", "number", "boolean", "array", "object", "null"})


@dataclass(frozen=True)
class ServerPreset:
    """A well-known server offered in the Add form (the user still sees and approves its
    tools before the model is told of them)."""

    name: str
    command: str
    url: str
    about: str
    secret_names: tuple[str, ...] = ()


PRESETS: tuple[ServerPreset, ...] = (
    ServerPreset("Time", "uvx mcp-server-time", "", "The time in any time zone, and conversions."),
    ServerPreset(
        "Fetch", "uvx mcp-server-fetch", "", "Reads web pages as text (needs uv installed)."
    ),
    ServerPreset(
        "Memory graph",
        "npx -y @modelcontextprotocol/server-memory",
        "",
        "A knowledge graph of people and things it is told about (needs Node.js).",
    ),
    ServerPreset(
        "Git",
        "uvx mcp-server-git --repository ~/projects/example",
        "",
        "Reads a git repository's history and changes (set the folder).",
    ),
)


@dataclass(frozen=True)
class ToolView:
    """One tool of a server, as Settings → Tools… shows it and the model would see it."""

    name: str  # the server's own name for it
    offered_as: str  # the name the model sees
    description: str  # cleaned and cut, as the model sees it
    risk: str  # plain words
    fingerprint: str
    status: Literal["approved", "new", "changed"]


@dataclass(frozen=True)
class ServerCheck:
    ok: bool
    message: str  # for the user
    tools: tuple[ToolView, ...] = ()


class ToolServersError(Exception):
    """Something the user must hear about a tool server; the text is for them."""


# -- what a server says, made safe to show and to offer -------------------------------------


def clean_text(text: Any, limit: int) -> str:
    """A server's text as the model and the user may see it: one paragraph of printable
    characters, the model's control tokens broken, at most `limit` characters."""
    if not isinstance(text, str):
        return ""
    line = neutralise(one_line(text))  # the rules for all of other people's text
    if len(line) > limit:
        line = line[: limit - 1].rstrip() + "…"
    return line


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.casefold()).strip("_")


def offered_name(server_name: str, tool_name: str) -> str:
    """The model's name for a server's tool: the server's name, "__", the tool's. A slug
    never holds "__" and no built-in name does, so two servers (or a server and a built-in
    tool) never share a name, and a grant never slides to another server's tool."""
    return f"{name_prefix(server_name)}{_slug(tool_name) or 'tool'}"[:64]


def name_prefix(server_name: str) -> str:
    """What every model-facing name of this server's tools starts with."""
    return f"{(_slug(server_name) or 'server')[:24]}__"


def grant_key(identity: str, server_name: str, tool_name: str) -> str:
    """What an "always allow" for this tool is stored under: the model's name for it (for
    the Permissions list) and a digest of the server's identity (its stored ``secret_ref``,
    never reused) with the tool's own, exact name. Names the model sees are slugs, and
    "Clock" and "Clock!" both make ``clock__now``; a grant keyed by the slug alone would
    slide from one server (or one tool) to the other."""
    digest = hashlib.sha256(f"{identity}\n{tool_name}".encode()).hexdigest()[:12]
    return f"{offered_name(server_name, tool_name)}#{digest}"


def fingerprint(tool: ServerTool) -> str:
    """What the user approved: the tool's name, description, schema and hints, exactly as the
    server sent them (a change anywhere switches the tool off until the user looks)."""
    facts = {
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "schema": tool.input_schema,
        "hints": [tool.read_only_hint, tool.destructive_hint, tool.open_world_hint],
    }
    text = json.dumps(facts, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _clean_property(schema: Any, depth: int) -> dict[str, Any]:
    """The parts of a property's JSON schema a call grammar needs, with the server's words
    cleaned; anything else (defaults, examples, references, vendor keys) is dropped."""
    if not isinstance(schema, Mapping) or depth > _SCHEMA_DEPTH:
        return {}
    kept: dict[str, Any] = {}
    kind = schema.get("type")
    if isinstance(kind, str) and kind in _TYPES:
        kept["type"] = kind
    elif isinstance(kind, list) and kind and all(k in _TYPES for k in kind):
        kept["type"] = [k for k in kind if isinstance(k, str)]
    if "description" in schema:
        kept["description"] = clean_text(schema["description"], MAX_FIELD_DESCRIPTION)
    enum = schema.get("enum")
    if isinstance(enum, list) and 0 < len(enum) <= 50:
        kept["enum"] = [
            clean_text(v, 100) if isinstance(v, str) else v
            for v in enum
            if isinstance(v, str | int | float | bool) or v is None
        ]
    for bound in ("minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"):
        value = schema.get(bound)
        if isinstance(value, int | float) and not isinstance(value, bool):
            kept[bound] = value
    form = schema.get("format")
    if isinstance(form, str) and re.fullmatch(r"[a-z][a-z0-9-]{0,30}", form):
        kept["format"] = form
    if isinstance(schema.get("items"), Mapping):
        kept["items"] = _clean_property(schema["items"], depth + 1)
    if isinstance(schema.get("properties"), Mapping):
        properties, required = _clean_properties(schema, depth + 1)
        kept["properties"] = properties
        if required:
            kept["required"] = list(required)
    return kept


def _clean_properties(schema: Mapping[str, Any], depth: int) -> tuple[dict[str, Any], list[str]]:
    properties = schema.get("properties") or {}
    if not isinstance(properties, Mapping):
        raise ValueError("its argument list is not a JSON object")
    bad = [str(name)[:40] for name in properties if not _NAME.fullmatch(str(name))]
    if bad:
        raise ValueError(f"it has arguments with names the model cannot use ({bad[0]!r})")
    cleaned = {str(name): _clean_property(value, depth) for name, value in properties.items()}
    required = schema.get("required") or []
    if not isinstance(required, list):
        required = []
    return cleaned, [name for name in required if isinstance(name, str) and name in cleaned]


def _label(tool: ServerTool) -> Label:
    """Annotations may only raise caution. The protocol's default for a tool that does not
    say it only reads is "may destroy", and so is ours; a read-only claim still asks."""
    if tool.read_only_hint is True and tool.destructive_hint is not True:
        return Label.OUTBOUND
    if tool.destructive_hint is False:
        return Label.OUTBOUND
    return Label.DESTRUCTIVE


def risk_text(tool: ServerTool) -> str:
    """What the panel says about a tool's risk, in plain words."""
    if _label(tool) == Label.DESTRUCTIVE:
        return (
            "Asks you every time. The server does not say this tool only reads, "
            "so treat it as able to change or delete things."
        )
    if tool.read_only_hint is True:
        return (
            "Asks you every time (you may allow it always). The server says it only reads; "
            "that is its claim, not something Hearth can check."
        )
    return "Asks you every time. The server says it changes things but deletes nothing."


def declaration(server_name: str, tool: ServerTool, identity: str = "") -> ToolDeclaration:
    """The tool as the agent offers it and the gate judges it; ValueError when its schema
    cannot be offered safely (the panel says why). `identity` is the server's stored
    ``secret_ref``: its standing grants are keyed by it (`grant_key`)."""
    name = offered_name(server_name, tool.name)
    if name in BUILTIN_TOOLS:
        raise ValueError(f"its name {name!r} is a built-in tool's")
    schema = tool.input_schema if isinstance(tool.input_schema, Mapping) else {}
    properties, required = _clean_properties(schema, 1)
    description = clean_text(tool.description or tool.title or tool.name, MAX_DESCRIPTION)
    label = _label(tool)
    return ToolDeclaration(
        name,
        description,
        properties,
        tuple(required),
        label,
        untrusted_result=True,
        standing="tool" if label == Label.OUTBOUND and tool.read_only_hint is True else "never",
        grant_key=grant_key(identity, server_name, tool.name),
    )


def tool_views(server: ToolServer, tools: Sequence[ServerTool]) -> tuple[ToolView, ...]:
    views = []
    for tool in tools[:MAX_TOOLS_PER_SERVER]:
        mark = fingerprint(tool)
        approved = server.approved.get(tool.name)
        status: Literal["approved", "new", "changed"] = (
            "new" if approved is None else "approved" if approved == mark else "changed"
        )
        try:
            description = declaration(server.name, tool).description
        except ValueError as exc:
            description = f"(cannot be offered: {exc})"
        views.append(
            ToolView(
                clean_text(tool.name, 64),
                offered_name(server.name, tool.name),
                description,
                risk_text(tool),
                mark,
                status,
            )
        )
    return tuple(views)


# -- settings: saved in the database, secrets in the keyring --------------------------------


def parse_command(text: str) -> tuple[str, tuple[str, ...]]:
    """A command line as the user typed it: the program and its arguments."""
    try:
        parts = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"The command cannot be read ({exc}); check its quotes.") from exc
    if not parts:
        raise ValueError("Enter the command that starts the server.")
    return parts[0], tuple(parts[1:])


def _secret_key(server: ToolServer, name: str) -> str:
    return f"{server.secret_ref}:{name}"


def stored_servers(database: Database) -> list[ToolServer]:
    try:
        return ToolServerStore(database).saved()
    except Exception as exc:  # a broken database must reach the user
        log.exception("could not read the tool servers")
        raise ToolServersError(f"Hearth could not read your tool servers: {exc}") from exc


def save_server(
    database: Database,
    server: ToolServer,
    secrets: Mapping[str, str],
    credentials: Keyring = None,
) -> ToolServer:
    """The secrets to the keyring first (a value of "" keeps the stored one), then the
    settings to the database. A keyring that refuses: nothing is saved, and the user hears
    why (a secret is then nowhere, not in a file)."""
    bad = [name for name in (*server.secret_names, *secrets) if not SECRET_NAME.fullmatch(name)]
    if bad:
        raise ToolServersError(f"“{bad[0]}” cannot be the name of a variable or header.")
    if server.command:
        try:
            parse_command(server.command)
        except ValueError as exc:
            raise ToolServersError(str(exc)) from exc
    elif not WEB_ADDRESS.match(server.url.strip()):
        raise ToolServersError("The address must start with http:// or https://.")
    store = ToolServerStore(database)
    twin = next(
        (
            other
            for other in store.saved()
            if other.id != server.id
            and other.name.casefold() != server.name.casefold()  # the store says "already"
            and name_prefix(other.name) == name_prefix(server.name)
        ),
        None,
    )
    if twin is not None:  # the model could not tell their tools apart
        raise ToolServersError(
            f"“{server.name}” would give its tools the same names as “{twin.name}”'s. "
            "Choose a name that differs in its letters or digits, not only in punctuation."
        )
    if not server.secret_ref:
        server = replace(server, secret_ref=_new_ref())
    names = tuple(dict.fromkeys([*server.secret_names, *secrets]))
    typed = {name: value for name, value in secrets.items() if value}
    if typed:
        keyring = open_credentials() if credentials is None else credentials
        if isinstance(keyring, NoSecureKeyring):
            raise ToolServersError(f"The secrets were NOT saved, nor the server. {keyring}")
        try:
            for name, value in typed.items():
                keyring.store(_secret_key(server, name), value)
        except CredentialError as exc:
            raise ToolServersError(f"The secrets were NOT saved, nor the server: {exc}") from exc
    server = replace(server, secret_names=names)
    before = store.get(server.id) if server.id is not None else None
    try:
        saved = store.add(server) if server.id is None else store.update(server)
    except ValueError as exc:
        raise ToolServersError(str(exc)) from exc
    except Exception as exc:
        log.exception("could not save a tool server")
        raise ToolServersError(f"Hearth could not save the tool server: {exc}") from exc
    if before is not None:  # a secret the user took out of the form leaves the keyring too
        _forget_secrets(before, [n for n in before.secret_names if n not in names], credentials)
    return saved


def _forget_secrets(server: ToolServer, names: Sequence[str], credentials: Keyring) -> str:
    """Delete these secrets of the server from the keyring; a problem for the user or ""."""
    if not names:
        return ""
    keyring = open_credentials() if credentials is None else credentials
    if isinstance(keyring, NoSecureKeyring):
        return f"its secrets could not be deleted: {keyring}"
    try:
        for name in names:
            keyring.delete(_secret_key(server, name))
    except CredentialError as exc:
        log.warning("a tool server's secret was not deleted: %s", type(exc).__name__)
        return f"its secrets were not deleted: {exc}"
    return ""


def _new_ref() -> str:
    return f"tools-{token_hex(8)}"


def approve_tools(database: Database, server_id: int, tools: Iterable[ToolView]) -> ToolServer:
    """The user has seen these tools as they are now: offer them to the model."""
    try:
        return ToolServerStore(database).approve(
            server_id, {tool.name: tool.fingerprint for tool in tools}
        )
    except Exception as exc:
        log.exception("could not approve tools")
        raise ToolServersError(f"Hearth could not save your approval: {exc}") from exc


def remove_server(database: Database, server_id: int, credentials: Keyring = None) -> str:
    """Forget the server, its secrets and its tools' "always allow" grants; returns a
    problem for the user or ""."""
    try:
        removed = ToolServerStore(database).remove(server_id)
        if removed is None:
            return ""
        keys = {grant_key(removed.secret_ref, removed.name, name) for name in removed.approved}
        legacy = name_prefix(removed.name)  # grants from before keys (they cover nothing now)
        permissions = PermissionStore(database)
        for grant in permissions.grants():
            if grant.tool in keys or ("#" not in grant.tool and grant.tool.startswith(legacy)):
                permissions.revoke(grant.id)
    except Exception as exc:
        log.exception("could not remove a tool server")
        raise ToolServersError(f"Hearth could not remove the tool server: {exc}") from exc
    problem = _forget_secrets(removed, removed.secret_names, credentials)
    return f"The server was removed, but {problem}" if problem else ""


def server_config(server: ToolServer, credentials: Keyring = None) -> ServerConfig:
    """How to reach the server, with its secrets read from the keyring. A secret that cannot
    be read is left out (the server says what it misses); ToolServersError for a command
    that cannot be read."""
    values: dict[str, str] = {}
    if server.secret_names:
        keyring = open_credentials() if credentials is None else credentials
        if isinstance(keyring, Credentials):
            for name in server.secret_names:
                try:
                    value = keyring.read(_secret_key(server, name))
                except CredentialError:
                    value = None
                if value:
                    values[name] = value
    if server.url:
        return ServerConfig(server.name, url=server.url.strip(), headers=values)
    try:
        program, arguments = parse_command(server.command)
    except ValueError as exc:
        raise ToolServersError(str(exc)) from exc
    program = os.path.expanduser(program)
    arguments = tuple(os.path.expanduser(a) if a.startswith("~") else a for a in arguments)
    return ServerConfig(server.name, command=program, args=arguments, env=values)


def check_server(
    server: ToolServer, credentials: Keyring = None, timeout: float = 30.0
) -> ServerCheck:
    """Start the server, list its tools, stop it. Blocking: never on the GUI thread. Never
    raises: whatever goes wrong is an answer for the user."""
    try:
        connection = McpConnection(server_config(server, credentials), start_timeout=timeout)
    except (ToolServersError, ValueError) as exc:
        return ServerCheck(False, str(exc))
    try:
        tools = connection.start()
    except McpError as exc:
        return ServerCheck(False, str(exc))
    except Exception as exc:  # unexpected: still a plain answer, never a crash
        log.warning("checking a tool server failed unexpectedly: %s", type(exc).__name__)
        return ServerCheck(False, f"The check failed: {type(exc).__name__}")
    finally:
        connection.close()
    views = tool_views(server, tools)
    more = len(tools) - len(views)
    extra = f" Only the first {len(views)} are used ({more} more)." if more > 0 else ""
    return ServerCheck(True, f"Connected: {len(tools)} tool(s).{extra}", views)


# -- a session's running servers ---------------------------------------------------------------


class RunningServers:
    """The enabled servers of a session, started off the GUI thread and closed at its end."""

    def __init__(
        self,
        servers: Sequence[ToolServer],
        credentials: Keyring = None,
        *,
        start_timeout: float = 30.0,
        call_timeout: float = 120.0,
    ) -> None:
        self.servers = [s for s in servers if s.enabled]
        self._credentials = credentials
        self._start_timeout = start_timeout
        self._call_timeout = call_timeout
        self.connections: dict[str, McpConnection] = {}  # server name → running connection

    @classmethod
    def stored(cls, database: Database, credentials: Keyring = None) -> RunningServers:
        return cls(stored_servers(database), credentials)

    def start(self, on_problem: Problem | None = None) -> None:
        """Start every enabled server at once and wait for them (at most the start timeout
        and a little more); one that fails is left out and `on_problem` hears why."""
        tell = on_problem or (lambda _text: None)
        credentials = self._credentials
        if credentials is None and any(s.secret_names for s in self.servers):
            credentials = open_credentials()
        pool = ThreadPoolExecutor(
            max_workers=max(1, len(self.servers)), thread_name_prefix="tool-server-start"
        )
        pending: list[tuple[ToolServer, McpConnection, Future[list[ServerTool]]]] = []
        for server in self.servers:
            try:
                config = server_config(server, credentials)
            except ToolServersError as exc:
                tell(f"The tool server “{server.name}” was not started: {exc}")
                continue
            connection = McpConnection(
                config, start_timeout=self._start_timeout, call_timeout=self._call_timeout
            )
            pending.append((server, connection, pool.submit(connection.start)))
        for server, connection, future in pending:
            try:
                future.result(timeout=self._start_timeout + 10)
            except McpError as exc:
                why = str(exc)
            except TimeoutError:
                why = "it did not start in time"
            except Exception as exc:  # a bug must not leave the session waiting
                log.exception("a tool server failed to start")
                why = f"it failed to start ({type(exc).__name__})"
            else:
                self.connections[server.name] = connection
                continue
            tell(f"The tool server “{server.name}” is not available: {why}")
            connection.close()
        pool.shutdown(wait=False)

    def register(self, registry: Registry, on_problem: Problem | None = None) -> None:
        """Offer the model each approved, unchanged tool of the running servers."""
        tell = on_problem or (lambda _text: None)
        for server in self.servers:
            connection = self.connections.get(server.name)
            if connection is None:
                continue
            changed, unseen = [], 0
            for tool in connection.tools[:MAX_TOOLS_PER_SERVER]:
                approved = server.approved.get(tool.name)
                if approved is None:
                    unseen += 1
                    continue
                if approved != fingerprint(tool):
                    changed.append(clean_text(tool.name, 64))
                    continue
                try:
                    declared = declaration(server.name, tool, server.secret_ref)
                    if registry.get(declared.name) is not None:
                        raise ValueError(f"another tool is already called {declared.name!r}")
                    registry.register(
                        declared,
                        _handler(connection, server.name, tool.name),
                        _preview(server.name, tool.name),
                    )
                except ValueError as exc:
                    tell(f"The tool “{clean_text(tool.name, 64)}” of “{server.name}” is off: {exc}")
            if changed:
                tell(
                    f"“{server.name}” changed {', '.join(changed)} since you approved "
                    f"{'it' if len(changed) == 1 else 'them'}: switched off until you look "
                    "at them in Settings → Tools…"
                )
            if unseen:
                tell(
                    f"“{server.name}” offers {unseen} tool(s) you have not looked at yet: "
                    "see Settings → Tools…"
                )

    def close(self) -> None:
        for connection in self.connections.values():
            connection.close()
        self.connections.clear()


def _handler(connection: McpConnection, server_name: str, tool_name: str) -> Handler:
    source = f"the tool server “{server_name}”"

    def run(arguments: dict[str, Any]) -> ToolResult:
        try:
            outcome: CallOutcome = connection.call(tool_name, arguments, cancel=turn_cancel.get())
        except McpError as exc:
            raise ToolFailed(str(exc)) from exc
        if outcome.is_error:
            said = clean_text(outcome.text, 1000) or "no reason given"
            raise ToolFailed(f"{server_name} says the call failed: {said}", untrusted_source=source)
        text = visible_text(outcome.text, layout=True)  # no characters a reader never sees
        text += "\n[the result was cut here]" if outcome.truncated else ""
        return ToolResult(text, trusted=False, source=source)

    return run


def _preview(server_name: str, tool_name: str) -> Previewer:
    shown = clean_text(tool_name, 64)

    def preview(arguments: dict[str, Any]) -> str:
        listing = json.dumps(arguments, ensure_ascii=False, indent=2, default=str)
        return f"Runs “{shown}” on your tool server “{server_name}” with:\n{listing}"

    return preview
