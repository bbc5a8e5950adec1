"""One live session with a server, held open on a private event-loop thread.

The SDK is async and its Client must be entered and left in one task, for as long as the
session lives; the app calls from ordinary threads. So each session gets a thread running its
own asyncio loop, whose main task holds the Client open until close() or until the server goes
away, and each blocking call submits a task to that loop and waits for it, polling the caller's
cancel event. A timeout or cancel cancels the task's anyio scope: the SDK then tells the server
(notifications/cancelled, or an aborted POST) so the session stays usable.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import math
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TypeVar

import anyio
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import CONNECTION_CLOSED, CallToolResult, Implementation

from .config import McpError, ServerConfig, ServerTool
from .listing import list_all_tools
from .messages import Phase, failure_text, mcp_error, quoted, seconds
from .transport import Watch, open_transport

log = logging.getLogger(__name__)

T = TypeVar("T")

# After close() asks the session to end: how long its unshielded goodbyes (an HTTP DELETE) may
# take, and how long close() waits for the thread. The SDK's own stdio teardown (close stdin,
# wait 2 s, SIGTERM, wait 2 s, SIGKILL) is shielded and bounded: about 2 s for a server that
# ignores its stdin, about 4 s for one that ignores SIGTERM too.
CLOSE_GRACE = 3.0
CLOSE_WAIT = 5.0
# How often a waiting caller looks at its cancel event.
POLL_INTERVAL = 0.05
# Past its own deadline, how long a caller waits for the loop to report before giving up on it.
LOOP_MARGIN = 10.0
# How long a call that saw the connection drop waits for the session to say why.
LOST_EXPLAIN_WAIT = 3.0


# The sessions whose thread runs: asked to stop when the app exits, so no server outlives it
# (stdio servers run in their own process group, out of reach of the terminal's signals).
_LIVE: weakref.WeakSet[ServerSession] = weakref.WeakSet()


@atexit.register
def _close_all_at_exit() -> None:
    sessions = list(_LIVE)
    for session in sessions:
        session.request_close()
    deadline = time.monotonic() + CLOSE_WAIT
    for session in sessions:
        session.join(max(0.0, deadline - time.monotonic()))


def _client_info() -> Implementation:
    try:
        app_version = version("hearth-assistant")
    except PackageNotFoundError:
        app_version = "0"
    return Implementation(name="hearth", version=app_version)


class _Abort:
    """The cancel handle of one blocking operation, shared between the caller and the loop."""

    def __init__(self) -> None:
        self.requested = False
        self._scope: anyio.CancelScope | None = None

    def attach(self, scope: anyio.CancelScope) -> None:  # on the loop thread
        self._scope = scope
        if self.requested:
            scope.cancel()

    def request(self) -> None:  # on the loop thread
        self.requested = True
        if self._scope is not None:
            self._scope.cancel()


class ServerSession:
    """A single run of a server: start() once, then calls, then close() (idempotent)."""

    def __init__(
        self,
        config: ServerConfig,
        command: str,
        *,
        start_timeout: float,
        call_timeout: float,
        on_lost: Callable[[ServerSession, str], None],
    ) -> None:
        self._config = config
        self._command = command
        self._start_timeout = start_timeout
        self._call_timeout = call_timeout
        self._on_lost = on_lost
        self._ready: concurrent.futures.Future[list[ServerTool]] = concurrent.futures.Future()
        self._thread = threading.Thread(
            target=self._run, name=f"mcp-{config.name[:40]}", daemon=True
        )
        self._lock = threading.Lock()  # guards _loop, _closing
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        # Loop-thread state, set up in _main.
        self._client: Client | None = None
        self._life: anyio.CancelScope | None = None
        self._wake: anyio.Event | None = None
        self._finished: anyio.Event | None = None
        self._started = False
        self._lost: str | None = None
        self._watch = Watch(self._transport_ended)

    # -- the caller's side (any thread) -------------------------------------------------

    def start(self) -> list[ServerTool]:
        """Connect, handshake and list the tools; raises McpError after cleaning up."""
        _LIVE.add(self)
        self._thread.start()
        try:
            return self._ready.result(timeout=self._start_timeout + CLOSE_WAIT + LOOP_MARGIN)
        except concurrent.futures.TimeoutError:
            self.close()
            raise mcp_error(
                self._config,
                f"{quoted(self._config.name)} did not answer within "
                f"{seconds(self._start_timeout)}.",
            ) from None

    def call_tool(
        self, name: str, arguments: Mapping[str, Any], cancel: threading.Event | None
    ) -> CallToolResult:
        async def op(client: Client) -> CallToolResult:
            return await client.call_tool(name, dict(arguments))

        return self._blocking(
            op, phase="call", timeout=self._call_timeout, tool=name, cancel=cancel
        )

    def list_tools(self) -> list[ServerTool]:
        async def op(client: Client) -> list[ServerTool]:
            return await list_all_tools(client, self._config.name)

        return self._blocking(op, phase="list", timeout=self._start_timeout, tool="", cancel=None)

    def close(self) -> None:
        """End the session and wait (boundedly) for its thread; never raises."""
        self.request_close()
        self.join(CLOSE_WAIT)

    def request_close(self) -> None:
        """Ask the session to end, without waiting."""
        with self._lock:
            self._closing = True
            loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has already ended
                loop.call_soon_threadsafe(self._begin_close)

    def join(self, timeout: float) -> None:
        """Wait up to timeout seconds for the session's thread to end."""
        if self._thread.ident is None or self._thread is threading.current_thread():
            return
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning("MCP server %r is still shutting down in the background", self._config.name)

    def _blocking(
        self,
        op: Callable[[Client], Awaitable[T]],
        *,
        phase: Phase,
        timeout: float,
        tool: str,
        cancel: threading.Event | None,
    ) -> T:
        """Run op on the loop and wait for it, relaying the cancel event."""
        with self._lock:
            loop = self._loop
        abort = _Abort()
        try:
            if loop is None:
                raise RuntimeError("no loop")
            future = asyncio.run_coroutine_threadsafe(
                self._guarded(op, phase=phase, timeout=timeout, tool=tool, abort=abort), loop
            )
        except RuntimeError:
            raise self._gone_error() from None
        give_up_at = time.monotonic() + timeout + LOOP_MARGIN
        cancel_sent_at: float | None = None
        while True:
            done, _ = concurrent.futures.wait([future], timeout=POLL_INTERVAL)
            if done:
                break
            if not self._thread.is_alive():
                if future.done():
                    break
                future.cancel()  # the loop ended before it ran the task
                raise self._gone_error()
            now = time.monotonic()
            if cancel is not None and cancel.is_set() and cancel_sent_at is None:
                cancel_sent_at = now
                try:
                    loop.call_soon_threadsafe(abort.request)
                except RuntimeError:
                    break  # the loop ended: the future is cancelled
            if now > give_up_at or (
                cancel_sent_at is not None and now - cancel_sent_at > LOOP_MARGIN
            ):
                future.cancel()
                raise self._stopped_error(tool, cancelled=cancel_sent_at is not None)
        try:
            return future.result(timeout=0)
        except (concurrent.futures.CancelledError, concurrent.futures.TimeoutError):
            raise self._gone_error() from None

    def _gone_error(self) -> McpError:
        if self._lost is not None:
            return mcp_error(self._config, self._lost)
        return mcp_error(self._config, f"{quoted(self._config.name)} is not running.")

    def _stopped_error(self, tool: str, *, cancelled: bool) -> McpError:
        name = quoted(self._config.name)
        if cancelled:
            return mcp_error(self._config, f"The call to {quoted(tool)} on {name} was stopped.")
        return mcp_error(
            self._config,
            f"{name} did not finish {quoted(tool)} within {seconds(self._call_timeout)}, so "
            "Hearth stopped the call.",
        )

    # -- the loop thread ----------------------------------------------------------------

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # the thread must end quietly whatever happened
            log.warning(
                "MCP server %r: event loop ended with %s", self._config.name, type(exc).__name__
            )
        finally:
            _LIVE.discard(self)
            if not self._ready.done():
                self._ready.set_exception(self._gone_error())

    async def _main(self) -> None:
        life = anyio.CancelScope(deadline=anyio.current_time() + self._start_timeout)
        self._life = life
        self._wake = anyio.Event()
        self._finished = anyio.Event()
        with self._lock:
            if self._closing:
                self._ready.set_exception(self._closed_while_starting())
                return
            self._loop = asyncio.get_running_loop()
        error: Exception | None = None
        try:
            with life:
                transport = open_transport(
                    self._config,
                    self._command,
                    self._watch,
                    read_timeout=max(300.0, self._call_timeout + 30.0),
                )
                async with Client(transport, cache=None, client_info=_client_info()) as client:
                    self._watch.handshake_done = True
                    tools = await list_all_tools(client, self._config.name)
                    life.deadline = math.inf
                    self._client = client
                    self._started = True
                    self._ready.set_result(tools)
                    await self._wake.wait()
                    self._client = None
                    if not self._closing:
                        self._lost = f"{quoted(self._config.name)} stopped unexpectedly."
        except Exception as exc:
            error = exc
        finally:
            self._client = None
        if not self._started:
            self._ready.set_exception(self._start_error(error, timed_out=life.cancelled_caught))
        elif not self._closing:
            if self._lost is None:
                seen = self._watch.seen
                text = failure_text(
                    error or RuntimeError(), self._config, phase="running", seen=seen, timeout=0
                )
                self._lost = mcp_error(self._config, text).message
            log.warning("MCP server %r: %s", self._config.name, self._lost)
            self._on_lost(self, self._lost)
        self._finished.set()

    def _start_error(self, error: Exception | None, *, timed_out: bool) -> McpError:
        if self._closing:
            return self._closed_while_starting()
        seen = self._watch.seen
        if error is None or timed_out:
            error = TimeoutError()
        text = failure_text(
            error, self._config, phase="start", seen=seen, timeout=self._start_timeout
        )
        failure = mcp_error(self._config, text)
        log.warning("MCP server %r did not start: %s", self._config.name, failure.message)
        return failure

    def _closed_while_starting(self) -> McpError:
        return mcp_error(
            self._config, f"{quoted(self._config.name)} was stopped before it finished starting."
        )

    def _transport_ended(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _begin_close(self) -> None:
        if self._wake is not None:
            self._wake.set()
        if self._life is not None:
            if not self._started:
                self._life.cancel()
            else:
                self._life.deadline = min(self._life.deadline, anyio.current_time() + CLOSE_GRACE)

    async def _guarded(
        self,
        op: Callable[[Client], Awaitable[T]],
        *,
        phase: Phase,
        timeout: float,
        tool: str,
        abort: _Abort,
    ) -> T:
        """op under a deadline and the caller's cancel, its failures as McpError."""
        client = self._client
        if client is None:
            raise self._gone_error()
        error: Exception | None = None
        with anyio.CancelScope(deadline=anyio.current_time() + timeout) as scope:
            abort.attach(scope)
            try:
                return await op(client)
            except Exception as exc:
                error = exc
        if error is None or (scope.cancel_called and not self._connection_lost(error)):
            # The scope was cancelled: the caller's cancel, or the deadline.
            if phase == "call":
                raise self._stopped_error(tool, cancelled=abort.requested)
            raise mcp_error(
                self._config,
                f"{quoted(self._config.name)} did not answer within {seconds(timeout)}.",
            )
        if isinstance(error, McpError):
            raise error
        if self._connection_lost(error):
            assert self._finished is not None
            with anyio.move_on_after(LOST_EXPLAIN_WAIT):
                await self._finished.wait()
            if self._closing:
                raise mcp_error(
                    self._config, f"{quoted(self._config.name)} was closed during the call."
                )
            raise mcp_error(
                self._config, self._lost or f"{quoted(self._config.name)} stopped unexpectedly."
            )
        text = failure_text(
            error, self._config, phase=phase, seen=self._watch.seen, timeout=timeout, tool=tool
        )
        raise mcp_error(self._config, text)

    def _connection_lost(self, error: Exception) -> bool:
        if self._closing or (self._wake is not None and self._wake.is_set()):
            return True
        return isinstance(error, MCPError) and error.code == CONNECTION_CLOSED
