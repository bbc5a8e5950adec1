"""The plain data of the MCP connector: what the user configured, what a server claims, what a
call returned, and the one error type.

Kept free of the SDK so the rest of the app (gate, UI, storage) can use these types without
importing the MCP stack. Env and header values are secrets: they are kept out of repr() and out
of every message built here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


class McpError(Exception):
    """A server that could not be started, reached or used, with a message for the user.

    The message names the server and says plainly what went wrong; it never carries a
    traceback, nor any env or header value of the server's configuration.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __repr__(self) -> str:
        return f"McpError({self.message!r})"


@dataclass(frozen=True, repr=False)
class ServerConfig:
    """One MCP server as the user set it up: a program to run (stdio) or an address (HTTP)."""

    name: str  # the user's name for the server, used in messages
    command: str = ""  # stdio: the program, looked up on PATH ...
    args: tuple[str, ...] = ()  # ... and its arguments
    url: str = ""  # or: a streamable-HTTP address, http:// or https://
    # Extra environment for a stdio server, and extra HTTP headers (e.g. Authorization).
    # The values are secrets; hash=False keeps them out of hash() as well as repr().
    env: Mapping[str, str] = field(default_factory=dict, hash=False)
    headers: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        # Copies, so a caller who later changes their dict does not change a frozen config.
        object.__setattr__(self, "args", tuple(self.args))
        object.__setattr__(self, "env", dict(self.env))
        object.__setattr__(self, "headers", dict(self.headers))
        command, url = self.command.strip(), self.url.strip()
        if command and url:
            raise ValueError(
                "A server is either a program to run or a web address, not both: "
                "fill in only one of them."
            )
        if not command and not url:
            raise ValueError("Give the server a program to run or a web address.")
        if url:
            parts = urlsplit(url)
            if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
                raise ValueError("The server's address must start with http:// or https://.")
        for mapping, what in ((self.env, "environment variable"), (self.headers, "header")):
            for key, value in mapping.items():
                if (
                    not isinstance(key, str)
                    or not isinstance(value, str)
                    or not key
                    or any(char in key + value for char in "\r\n\0")
                ):
                    raise ValueError(f"Every {what} needs a name and a value, each on one line.")

    @property
    def is_stdio(self) -> bool:
        """Whether Hearth runs the server as a program (else it connects to an address)."""
        return bool(self.command.strip())

    def secret_values(self) -> list[str]:
        """The env and header values (and the credentials of "Bearer <token>" style values),
        longest first, to scrub from any text that might reach the user or the logs."""
        found: set[str] = set()
        for value in (*self.env.values(), *self.headers.values()):
            parts = value.split()
            for candidate in (value, parts[-1] if len(parts) == 2 else ""):
                if len(candidate.strip()) >= 4:
                    found.add(candidate)
        return sorted(found, key=len, reverse=True)

    def __repr__(self) -> str:
        env = {key: "***" for key in self.env}
        headers = {key: "***" for key in self.headers}
        return (
            f"ServerConfig(name={self.name!r}, command={self.command!r}, args={self.args!r}, "
            f"url={self.url!r}, env={env!r}, headers={headers!r})"
        )


@dataclass(frozen=True)
class ServerTool:
    """A tool as the server describes it. Everything here is the server's claim: data, not
    trusted (the description may well try to instruct the model)."""

    name: str
    description: str  # "" when absent
    input_schema: Mapping[str, Any] = field(hash=False)  # the tool's inputSchema, a plain dict
    title: str | None = None
    read_only_hint: bool | None = None  # from annotations, None when absent
    destructive_hint: bool | None = None
    open_world_hint: bool | None = None


@dataclass(frozen=True)
class CallOutcome:
    """What a tool call returned, as text for the model."""

    text: str  # text blocks joined by blank lines, other blocks as "[an image, image/png]" etc.
    is_error: bool  # the server said the call failed (isError)
    truncated: bool  # text was cut to the connection's max_result_chars
