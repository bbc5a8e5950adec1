"""What went wrong with a server, in words for the person using Hearth.

Every McpError message is built here from the exception the SDK raised and from what the
transport watch saw (unreadable output, an HTTP status). Server-supplied text is shortened to
one line, and every env and header value of the configuration is scrubbed from the result.
"""

from __future__ import annotations

import logging
import ssl
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import httpx2
from mcp.shared.exceptions import MCPError
from mcp.types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from pydantic import ValidationError

from .config import McpError, ServerConfig

log = logging.getLogger(__name__)

Phase = Literal["start", "list", "call", "running"]

_HTTP_STATUS_TEXT = {
    401: "refused access (HTTP 401 Unauthorized): check the key or token in its headers",
    403: "refused access (HTTP 403 Forbidden): the key or token is not allowed to use it",
    404: "has no MCP service at that address (HTTP 404 Not Found): check the address",
    405: "does not take MCP requests at that address (HTTP 405): check the address",
    429: "is refusing requests for now (HTTP 429 Too Many Requests): try again later",
}


@dataclass
class Observations:
    """What the transport saw, to explain a failure the SDK reports only vaguely."""

    unreadable_lines: int = 0  # stdout lines (or HTTP bodies) that were not MCP
    http_status: int | None = None  # the last HTTP error status, if any


def redact(text: str, secrets: Sequence[str]) -> str:
    """The text with every secret value replaced (longest first, so no fragment survives)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[hidden]")
    return text


def shorten(text: str, limit: int = 200) -> str:
    """Server-supplied text on one line and bounded, fit to quote in a message."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def mcp_error(config: ServerConfig, message: str) -> McpError:
    """An McpError whose message cannot carry a secret of the configuration."""
    return McpError(redact(message, config.secret_values()))


def quoted(name: str) -> str:
    return f"“{shorten(name, 80)}”"


def seconds(value: float) -> str:
    """How a duration reads in a message: 1 second, 1.5 seconds."""
    return f"{value:g} second" if value == 1 else f"{value:g} seconds"


def failure_text(
    exc: BaseException,
    config: ServerConfig,
    *,
    phase: Phase,
    seen: Observations,
    timeout: float,
    tool: str = "",
) -> str:
    """The message for a failure of `phase` (for a call, of the tool `tool`)."""
    name = quoted(config.name)
    leaves = list(_leaves(exc))
    for leaf in leaves:
        if isinstance(leaf, McpError):
            return leaf.message
    for leaf in leaves:
        if isinstance(leaf, FileNotFoundError) and config.is_stdio:
            return (
                f"Could not start {name}: the program {quoted(config.command)} was not found. "
                "Check that it is installed and that the command is spelled right."
            )
        if isinstance(leaf, PermissionError) and config.is_stdio:
            return (
                f"Could not start {name}: the program {quoted(config.command)} is not allowed "
                "to run (permission denied)."
            )
    status = seen.http_status
    # During a call, a plain 400 usually carries the server's JSON-RPC error, said better below.
    if status is not None and status >= 400 and (phase != "call" or status in _HTTP_STATUS_TEXT):
        detail = _HTTP_STATUS_TEXT.get(status, f"answered with an error (HTTP {status})")
        return f"{name} {detail}."
    for leaf in leaves:
        text = _transport_text(leaf, config, name, phase)
        if text is not None:
            return text
    if seen.unreadable_lines and phase == "start":
        return (
            f"{name} is not an MCP server, or is not set up as one: it printed text that is not "
            "MCP. Check its command and arguments."
        )
    for leaf in leaves:
        text = _protocol_text(leaf, config, name, phase, timeout, tool)
        if text is not None:
            return text
    kinds = ", ".join(sorted({type(leaf).__name__ for leaf in leaves}))
    # Type names only: an exception's text may quote a header or the server's output.
    log.debug("unexpected failure of MCP server %r: %s", config.name, kinds)
    return f"Something went wrong with {name} ({kinds})."


def _transport_text(
    exc: BaseException, config: ServerConfig, name: str, phase: Phase
) -> str | None:
    """Network and process failures: connection refused, broken, timed out."""
    if isinstance(exc, httpx2.ConnectError):
        if _caused_by(exc, ssl.SSLError):
            return (
                f"Could not connect to {name} securely: its certificate or encryption was "
                "refused. Check the address."
            )
        return (
            f"Could not connect to {name}: the address refused the connection or could not "
            "be reached. Check the address and that the server is running."
        )
    if isinstance(exc, httpx2.TimeoutException):
        return f"{name} did not answer in time: the connection timed out."
    if isinstance(exc, httpx2.UnsupportedProtocol | httpx2.InvalidURL):
        return f"Could not connect to {name}: the address is not one Hearth can use."
    if isinstance(exc, httpx2.TransportError):
        return f"{name} stopped unexpectedly: the connection to it broke."
    start_failed = config.is_stdio and phase == "start"
    if isinstance(exc, OSError) and not isinstance(exc, TimeoutError) and start_failed:
        reason = exc.strerror or type(exc).__name__
        program = quoted(config.command)
        return f"Could not start {name}: the program {program} failed to run ({reason})."
    return None


def _protocol_text(
    exc: BaseException, config: ServerConfig, name: str, phase: Phase, timeout: float, tool: str
) -> str | None:
    """Failures the MCP layer reports: closed, timed out, refused, unreadable."""
    if isinstance(exc, MCPError) and exc.code == CONNECTION_CLOSED:
        if phase == "start":
            if config.is_stdio:
                return (
                    f"{name} stopped as soon as it started. Check its command, arguments and "
                    "settings."
                )
            return f"{name} closed the connection before it finished starting."
        return f"{name} stopped unexpectedly."
    if (isinstance(exc, MCPError) and exc.code == REQUEST_TIMEOUT) or isinstance(exc, TimeoutError):
        if phase == "call":
            return (
                f"{name} did not finish {quoted(tool)} within {seconds(timeout)}, so Hearth "
                "stopped the call."
            )
        return f"{name} did not answer within {seconds(timeout)}."
    if isinstance(exc, MCPError):
        said = shorten(exc.message) or f"error {exc.code}"
        if phase == "call":
            return f"{name} could not run {quoted(tool)}: {said}"
        return f"{name} refused: {said}"
    if isinstance(exc, ValidationError | ValueError):
        if phase == "call":
            return f"{name} sent an answer to {quoted(tool)} that Hearth could not read."
        return f"{name} sent something Hearth could not read; it may not be an MCP server."
    if isinstance(exc, RuntimeError) and phase == "call":
        # The SDK checks structured results against the tool's declared output schema.
        return (
            f"{name} sent a result for {quoted(tool)} that does not match what the tool promised."
        )
    return None


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    """The exceptions inside (nested) exception groups, in order."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _leaves(inner)
    else:
        yield exc


def _caused_by(exc: BaseException, kind: type[BaseException]) -> bool:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, kind):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
