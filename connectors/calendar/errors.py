"""One error type for the calendar connector, with a reason the caller can branch on.

The message is written for the person using Hearth: which calendar account, what went wrong and
what to do. The reason is for code (the tool layer, the audit log, tests). Neither ever holds the
password: messages are built here from the account's name and host, never from the text of a
library exception (which may quote a URL with credentials in it).
"""

from __future__ import annotations

from enum import StrEnum


class CalendarErrorReason(StrEnum):
    """Why a calendar call failed (a StrEnum, so ``reason == "auth_failed"`` also works)."""

    AUTH_FAILED = "auth_failed"  # the server refused the user name or password (401 / 403)
    UNREACHABLE = "unreachable"  # no connection: server down, connection refused or reset
    TIMEOUT = "timeout"  # connected (or tried to) but no answer within the time limit
    TLS = "tls"  # certificate or TLS handshake failure
    UNKNOWN_HOST = "unknown_host"  # the server's name does not resolve
    NOT_FOUND = "not_found"  # the calendar or the event is gone (deleted, renamed, moved)
    CONFLICT = "conflict"  # the event changed on the server while we were editing it
    SERVER_ERROR = "server_error"  # the server answered, but with an error or nonsense
    INVALID_INPUT = "invalid_input"  # bad arguments: an unknown time, end before start, ...


class CalendarError(Exception):
    """A calendar call that failed, with a message meant for the user."""

    def __init__(
        self,
        reason: CalendarErrorReason,
        message: str,
        *,
        account: str | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.account = account  # the account's display name, when the error concerns one
        self.status = status  # the HTTP status, when there was one

    def __repr__(self) -> str:
        return f"CalendarError({self.reason.value!r}, {self.message!r})"
