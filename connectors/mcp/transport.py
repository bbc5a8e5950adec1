"""The byte pipe to one server (a child process or an HTTP address), watched.

The SDK's transports do the protocol work; this module adds what Hearth needs around them:
the server's stderr goes nowhere (servers may print their environment there), HTTP requests
carry the configured headers and their error statuses are noted, and a watch on the incoming
stream notices when the server goes away while idle and when a program prints text that is
not MCP at all, so a wrong command fails fast instead of waiting out the start timeout.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING

import anyio
import httpx2
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.message import SessionMessage

from .config import ServerConfig
from .messages import Observations

if TYPE_CHECKING:
    # The SDK's (read stream, write stream) pair, as its public `Transport` type yields it.
    from mcp.client._transport import TransportStreams

# A server that prints more lines than this that are not MCP before the handshake is not an
# MCP server (a stray banner line or two is tolerated, as the SDK does).
MAX_UNREADABLE_BEFORE_HANDSHAKE = 20

# Connecting to an HTTP server; reading waits longer, as a response stream stays open while a
# tool runs (the call timeout bounds each call).
HTTP_CONNECT_TIMEOUT = 30.0


class Watch:
    """What the transport saw, shared with the session that uses it."""

    def __init__(self, on_end: Callable[[], None]) -> None:
        self.seen = Observations()
        self.handshake_done = False  # set by the session once initialize/discover succeeded
        self._on_end = on_end

    def ended(self) -> None:
        self._on_end()


def resolve_command(config: ServerConfig) -> str | None:
    """The program to run, found on the PATH the server will get; None when there is none.

    A path to an existing file that is not executable is returned as is, so the spawn
    reports the real reason (permission denied) rather than "not found".
    """
    command = config.command.strip()
    search_path = config.env.get("PATH") or os.environ.get("PATH") or os.defpath
    found = shutil.which(command, path=search_path)
    if found is not None:
        return found
    if os.path.dirname(command) and os.path.exists(command):
        return command
    return None


def open_transport(
    config: ServerConfig, command: str, watch: Watch, *, read_timeout: float
) -> AbstractAsyncContextManager[TransportStreams]:
    """The SDK transport for the config, wrapped in the watch. `command` is the resolved
    program (ignored for an HTTP server)."""
    if config.is_stdio:
        return _watched(_stdio(config, command), watch)
    return _watched(_http(config, watch.seen, read_timeout), watch)


@asynccontextmanager
async def _stdio(config: ServerConfig, command: str) -> AsyncIterator[TransportStreams]:
    params = StdioServerParameters(
        command=command, args=list(config.args), env=dict(config.env) or None
    )
    # The server's stderr is discarded: it may echo its environment (our secrets) and must
    # reach neither the user's terminal nor the logs.
    with open(os.devnull, "w", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            yield read, write


@asynccontextmanager
async def _http(
    config: ServerConfig, seen: Observations, read_timeout: float
) -> AsyncIterator[TransportStreams]:
    async def note_status(response: httpx2.Response) -> None:
        # Only MCP requests (POST) count; a 405 to the optional GET stream is normal.
        if response.request.method == "POST":
            seen.http_status = response.status_code if response.status_code >= 400 else None

    client = httpx2.AsyncClient(
        headers=dict(config.headers),
        timeout=httpx2.Timeout(HTTP_CONNECT_TIMEOUT, read=read_timeout),
        event_hooks={"response": [note_status]},
    )
    async with client, streamable_http_client(config.url, http_client=client) as (read, write):
        yield read, write


@asynccontextmanager
async def _watched(
    inner: AbstractAsyncContextManager[TransportStreams], watch: Watch
) -> AsyncIterator[TransportStreams]:
    """Relays the incoming stream through a task that counts unreadable lines and notices the
    end of the stream (the server exited or closed the connection)."""
    async with inner as (read, write):
        relay_send, relay_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def relay() -> None:
            try:
                async with relay_send:
                    async for item in read:
                        if isinstance(item, Exception):
                            watch.seen.unreadable_lines += 1
                            if (
                                not watch.handshake_done
                                and watch.seen.unreadable_lines > MAX_UNREADABLE_BEFORE_HANDSHAKE
                            ):
                                break  # not an MCP server: end the stream, the handshake fails
                        await relay_send.send(item)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                return  # the session closed its end: we are shutting down
            watch.ended()

        async with anyio.create_task_group() as tg:
            tg.start_soon(relay)
            try:
                yield relay_receive, write
            finally:
                tg.cancel_scope.cancel()
                relay_receive.close()
