"""One error type for the mail connector, with a stable reason the caller can branch on.

The message is written for the person using Hearth: it names the account, says what went wrong
and what to do. The reason is for code (the tool layer, the audit log, tests), so nobody parses
the wording. No message ever contains the account's password: server replies are quoted only
after ``server_text`` has cut them short and blanked the password out.
"""

from __future__ import annotations

import imaplib
import smtplib
import socket
import ssl
from enum import StrEnum

SETTINGS_HINT = "Check the account in Settings → Mail."


class MailErrorReason(StrEnum):
    """Why a mail operation failed (a StrEnum, so ``reason == "auth_failed"`` works)."""

    AUTH_FAILED = "auth_failed"  # user name or password refused
    UNREACHABLE = "unreachable"  # no connection (refused, reset, network down)
    TIMEOUT = "timeout"  # the server did not answer in time
    TLS = "tls"  # certificate, handshake, STARTTLS missing, or an insecure setting refused
    UNKNOWN_HOST = "unknown_host"  # the server name does not resolve
    MAILBOX_MISSING = "mailbox_missing"  # the folder does not exist
    QUOTA = "quota"  # mailbox full or message too large
    NOT_FOUND = "not_found"  # the email id is unknown, stale or the message was deleted
    UNCERTAIN = "uncertain"  # the message may or may not have been sent: never retried
    SERVER_ERROR = "server_error"  # the server refused the request for another reason
    INVALID = "invalid"  # bad arguments (an address, a subject with line breaks, a query)


class MailError(Exception):
    """A mail operation that failed, with a message meant for the user."""

    def __init__(
        self,
        reason: MailErrorReason,
        message: str,
        *,
        account: str = "",
        message_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.account = account  # the account's address, never its password
        # For "uncertain": the Message-ID to pass to check_sent() later.
        self.message_id = message_id

    def __repr__(self) -> str:
        return f"MailError({self.reason.value!r}, {self.message!r})"


def server_text(raw: object, secret: str = "", limit: int = 200) -> str:
    """A server reply made safe to quote: decoded, one line, short, without the password."""
    if isinstance(raw, bytes):
        text = raw.decode("utf-8", "replace")
    elif isinstance(raw, BaseException):
        text = str(raw)
    else:
        text = str(raw)
    # imaplib wraps replies as "b'...'" in its messages.
    if text.startswith(("b'", 'b"')) and text.endswith(("'", '"')):
        text = text[2:-1]
    if secret and len(secret) >= 3:
        text = text.replace(secret, "***")
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def network_error(
    exc: BaseException, *, account: str, service: str, host: str, port: int, timeout: float
) -> MailError | None:
    """Translate a socket-level failure into a MailError, or None if it is not one.

    ``service`` is "IMAP" or "SMTP": users often have the two on different servers, so the
    message says which one failed.
    """
    where = f"the {service} server {host}:{port} of {account}"
    if isinstance(exc, socket.gaierror):
        return MailError(
            MailErrorReason.UNKNOWN_HOST,
            f"Hearth could not find the {service} server '{host}' for {account}: the name does "
            f"not resolve. Check the server name (and that you are online). {SETTINGS_HINT}",
            account=account,
        )
    # smtplib reports a read timeout as "SMTPServerDisconnected" raised while handling it.
    timed_out = isinstance(exc, smtplib.SMTPServerDisconnected) and isinstance(
        exc.__context__, TimeoutError
    )
    if timed_out or isinstance(exc, (TimeoutError, socket.timeout)):
        return MailError(
            MailErrorReason.TIMEOUT,
            f"{_cap(where)} did not answer within {timeout:g} seconds. Try again later; if it "
            f"keeps happening, check the server name and port. {SETTINGS_HINT}",
            account=account,
        )
    if isinstance(exc, (ssl.SSLError, ssl.CertificateError)):
        detail = getattr(exc, "verify_message", None) or getattr(exc, "reason", None) or exc
        return MailError(
            MailErrorReason.TLS,
            f"Hearth could not make a secure connection to {where} "
            f"({server_text(detail)}). Check that the security setting (TLS or STARTTLS) "
            f"matches the port, and that the server's certificate is valid. {SETTINGS_HINT}",
            account=account,
        )
    if isinstance(exc, ConnectionRefusedError):
        return MailError(
            MailErrorReason.UNREACHABLE,
            f"Hearth could not connect to {where}: the connection was refused. Check the "
            f"server name and port. {SETTINGS_HINT}",
            account=account,
        )
    if isinstance(exc, (OSError, smtplib.SMTPServerDisconnected, imaplib.IMAP4.abort, EOFError)):
        return MailError(
            MailErrorReason.UNREACHABLE,
            f"Hearth lost or could not open the connection to {where} "
            f"({server_text(exc)}). Check that you are online and try again.",
            account=account,
        )
    return None


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
