"""McpConnection: one configured server, kept open, used from ordinary (non-GUI) threads.

This is the blocking, thread-safe face of a ServerSession: it keeps the state the app shows
(stopped, starting, running, failed and why), the last tool listing, and turns results into
bounded text. It knows nothing of the policy gate or the UI.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any, Literal

from .config import CallOutcome, McpError, ServerConfig, ServerTool
from .messages import mcp_error, quoted
from .quiet import quiet_sdk_logs
from .results import outcome_from_result
from .session import ServerSession
from .transport import resolve_command

log = logging.getLogger(__name__)

State = Literal["stopped", "starting", "running", "failed"]


class McpConnection:
    """One server kept open on a private asyncio event-loop thread; every public method is
    blocking, thread-safe and meant to be called from a non-GUI thread."""

    def __init__(
        self,
        config: ServerConfig,
        *,
        start_timeout: float = 30.0,
        call_timeout: float = 120.0,
        max_result_chars: int = 20_000,
    ) -> None:
        quiet_sdk_logs()
        self._config = config
        self._start_timeout = start_timeout
        self._call_timeout = call_timeout
        self._max_result_chars = max_result_chars
        self._lock = threading.Lock()  # guards the fields below
        self._start_lock = threading.Lock()  # one start() at a time; close() never waits on it
        self._session: ServerSession | None = None
        self._state: State = "stopped"
        self._problem: str | None = None
        self._tools: list[ServerTool] = []

    def __repr__(self) -> str:
        return f"McpConnection({self._config.name!r}, state={self._state!r})"

    @property
    def config(self) -> ServerConfig:
        return self._config

    @property
    def tools(self) -> list[ServerTool]:
        """The last listing ([] before start)."""
        with self._lock:
            return list(self._tools)

    @property
    def state(self) -> State:
        with self._lock:
            return self._state

    @property
    def problem(self) -> str | None:
        """Why the server failed or stopped unexpectedly (the McpError text), else None."""
        with self._lock:
            return self._problem

    def start(self) -> list[ServerTool]:
        """Connect (spawning the program for stdio), handshake and list the tools.

        Already running: returns the listing. Stopped or failed: starts afresh (a restart picks
        up a changed server). Raises McpError; everything started is cleaned up by then.
        """
        with self._start_lock:
            with self._lock:
                if self._state == "running" and self._session is not None:
                    return list(self._tools)
                previous, self._session = self._session, None
            if previous is not None:
                previous.close()
            command = ""
            if self._config.is_stdio:
                found = resolve_command(self._config)
                if found is None:
                    error = mcp_error(
                        self._config,
                        f"Could not start {quoted(self._config.name)}: the program "
                        f"{quoted(self._config.command.strip())} was not found. Check that it is "
                        "installed and that the command is spelled right.",
                    )
                    self._set(state="failed", problem=error.message)
                    raise error
                command = found
            session = ServerSession(
                self._config,
                command,
                start_timeout=self._start_timeout,
                call_timeout=self._call_timeout,
                on_lost=self._lost,
            )
            with self._lock:
                self._session, self._state, self._problem = session, "starting", None
            log.info("starting MCP server %r", self._config.name)
            try:
                tools = session.start()
            except McpError as exc:
                session.close()
                with self._lock:
                    if self._session is session:  # else close() ran meanwhile: stay stopped
                        self._session, self._state, self._problem = None, "failed", exc.message
                raise
            with self._lock:
                if self._session is not session:
                    closed = True
                else:
                    closed = False
                    self._state, self._tools = "running", tools
            if closed:
                session.close()
                raise mcp_error(
                    self._config,
                    f"{quoted(self._config.name)} was stopped before it finished starting.",
                )
            log.info("MCP server %r is running with %d tools", self._config.name, len(tools))
            return list(tools)

    def refresh_tools(self) -> list[ServerTool]:
        """List the tools again (raises McpError)."""
        session = self._running_session()
        tools = session.list_tools()
        with self._lock:
            if self._session is session:
                self._tools = tools
        return list(tools)

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any],
        cancel: threading.Event | None = None,
    ) -> CallOutcome:
        """Call a tool and wait for its result, at most call_timeout seconds.

        A result the server marks as failed (isError) is returned, not raised. Raises McpError
        when the server is not running, the call times out, `cancel` is set while waiting, or
        the server goes away during the call (state becomes "failed").
        """
        session = self._running_session()
        result = session.call_tool(name, arguments, cancel)
        return outcome_from_result(result, self._max_result_chars)

    def close(self) -> None:
        """Stop the server (idempotent, never raises, returns within about 5 s)."""
        with self._lock:
            session, self._session = self._session, None
            self._state, self._problem = "stopped", None
        if session is not None:
            try:
                session.close()
            except Exception as exc:  # close must never raise
                log.warning("closing MCP server %r: %s", self._config.name, type(exc).__name__)
            log.info("stopped MCP server %r", self._config.name)

    def _running_session(self) -> ServerSession:
        with self._lock:
            session, state, problem = self._session, self._state, self._problem
        if state == "running" and session is not None:
            return session
        name = quoted(self._config.name)
        if state == "failed" and problem:
            raise McpError(problem)
        if state == "starting":
            raise mcp_error(self._config, f"{name} is still starting.")
        raise mcp_error(self._config, f"{name} is not running.")

    def _set(self, *, state: State, problem: str | None) -> None:
        with self._lock:
            self._state, self._problem = state, problem

    def _lost(self, session: ServerSession, message: str) -> None:
        """The session ended by itself (called on its loop thread)."""
        with self._lock:
            if self._session is session and self._state == "running":
                self._state, self._problem = "failed", message
