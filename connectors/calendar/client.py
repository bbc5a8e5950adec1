"""The CalDAV connection: one short-lived client per call, and failures turned into CalendarError.

Why per call: a tool call is rare and slow compared with opening a connection, and a fresh client
means no half-broken session survives a network change or a password change. Every request has
the account's timeout, so a dead server costs at most that long, never a hang.

Why errors are translated by type and never by text: the text of a library exception can quote a
URL (and a URL can carry credentials), while the user needs to hear which account failed and
what to do about it.
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from ipaddress import ip_address
from urllib.parse import urlsplit

from caldav.davclient import DAVClient
from caldav.lib import error as dav_error
from caldav.lib.http_sync import requests as http

from .errors import CalendarError, CalendarErrorReason

SETTINGS_HINT = "Check the account in Hearth's settings."


@dataclass(frozen=True, slots=True)
class CalendarAccount:
    """Where a calendar lives and how to sign in. The password never appears in repr or errors.

    ``url`` is the server (or calendar home) address; calendars are found from it. ``email`` is
    the user's own address, written as ORGANIZER on events with attendees (that is how servers
    that send invitations know who invites). ``default_calendar`` (id or name) receives new
    events when no calendar is named. ``allow_plain_http`` permits ``http://`` to a host other
    than this computer, which sends the password unencrypted: off unless the user insists.
    """

    url: str
    username: str
    password: str = field(repr=False)
    name: str = "Calendar"
    email: str | None = None
    default_calendar: str | None = None
    timeout: float = 15.0
    verify_tls: bool | str = True  # or the path of a CA bundle for a self-hosted server
    allow_plain_http: bool = False

    @property
    def host(self) -> str:
        """The server's host (and port), the only part of the address shown in messages."""
        try:
            parts = urlsplit(self.url)
            host = parts.hostname or "?"
            return f"{host}:{parts.port}" if parts.port else host
        except ValueError:
            return "?"


def _fail(
    account: CalendarAccount,
    reason: CalendarErrorReason,
    text: str,
    *,
    status: int | None = None,
) -> CalendarError:
    """A CalendarError tagged with the account it concerns."""
    return CalendarError(reason, text, account=account.name, status=status)


def _cap(text: str) -> str:
    """Upper-case the first letter only (str.capitalize would lower-case the account name)."""
    return text[:1].upper() + text[1:]


def _check_address(account: CalendarAccount) -> None:
    """Refuse addresses we must not use, before any connection is made."""
    where = f"The calendar account “{account.name}”"
    try:
        parts = urlsplit(account.url.strip())
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise _fail(
            account,
            CalendarErrorReason.INVALID_INPUT,
            f"{where} has an address Hearth cannot read. {SETTINGS_HINT}",
        ) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _fail(
            account,
            CalendarErrorReason.INVALID_INPUT,
            f"{where} needs an address starting with https://. {SETTINGS_HINT}",
        )
    if parts.username is not None or parts.password is not None:
        raise _fail(
            account,
            CalendarErrorReason.INVALID_INPUT,
            f"{where} has a user name or password inside its address; put them in the user "
            f"name and password fields instead. {SETTINGS_HINT}",
        )
    if parts.scheme == "http" and not account.allow_plain_http and not _is_loopback(parts.hostname):
        raise _fail(
            account,
            CalendarErrorReason.TLS,
            f"{where} uses http://, which would send your password unencrypted to "
            f"{account.host}. Use its https:// address. {SETTINGS_HINT}",
        )


def _is_loopback(host: str) -> bool:
    """True for this computer (localhost or a loopback address): plain HTTP stays on the box."""
    if host.lower() == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


@contextmanager
def connect(account: CalendarAccount) -> Iterator[DAVClient]:
    """A DAVClient for one call; any failure inside the block becomes a CalendarError."""
    _check_address(account)
    client: DAVClient | None = None
    try:
        client = DAVClient(
            url=account.url.strip(),
            username=account.username,
            password=account.password,
            timeout=account.timeout,  # type: ignore[arg-type]  # float works; the hint says int
            ssl_verify_cert=account.verify_tls,
            enable_rfc6764=False,  # no DNS SRV/TXT look-ups: the address is the address
        )
        yield client
    except CalendarError:
        raise
    except Exception as exc:
        raise translate(exc, account) from exc
    finally:
        if client is not None:
            client.close()


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and what it wraps (causes, contexts, urllib3 ``reason``, exception args)."""
    seen: list[BaseException] = []
    todo: list[BaseException] = [exc]
    while todo and len(seen) < 20:
        item = todo.pop(0)
        if any(item is s for s in seen):
            continue
        seen.append(item)
        for nxt in (item.__cause__, item.__context__, getattr(item, "reason", None), *item.args):
            if isinstance(nxt, BaseException):
                todo.append(nxt)
    return seen


_TIMEOUT_NAMES = frozenset(
    {"Timeout", "ConnectTimeout", "ReadTimeout", "ReadTimeoutError", "ConnectTimeoutError"}
)


def translate(exc: BaseException, account: CalendarAccount) -> CalendarError:
    """Map a caldav / HTTP library exception to a CalendarError with a message for the user."""
    where = f"the calendar server for “{account.name}” ({account.host})"
    status = getattr(exc, "status", None)
    status = status if isinstance(status, int) else None
    if isinstance(exc, dav_error.AuthorizationError):
        return _fail(
            account,
            CalendarErrorReason.AUTH_FAILED,
            f"Hearth could not sign in to {where}: it refused the user name "
            f"“{account.username}” or the password. The password may have changed. "
            f"{SETTINGS_HINT}",
            status=status or 401,
        )
    if isinstance(exc, dav_error.NotFoundError) or status in (404, 410):
        return _fail(
            account,
            CalendarErrorReason.NOT_FOUND,
            f"What Hearth asked for is no longer on {where}: it may have been deleted or moved. "
            "List the calendars or events again.",
            status=status or 404,
        )
    if isinstance(exc, dav_error.ETagMismatchError | dav_error.ScheduleTagMismatchError):
        return _fail(
            account,
            CalendarErrorReason.CONFLICT,
            f"The event changed on {where} while Hearth was editing it, so nothing was saved. "
            "List the events again and retry.",
            status=status or 412,
        )
    if isinstance(exc, dav_error.DAVError):
        shown = f" (HTTP {status})" if status else ""
        return _fail(
            account,
            CalendarErrorReason.SERVER_ERROR,
            f"{_cap(where)} answered with an error{shown}. Try again later; if it keeps "
            "happening, check the calendar in its own app or website.",
            status=status,
        )
    chain = _chain(exc)
    if any(isinstance(e, http.exceptions.SSLError | ssl.SSLError) for e in chain):
        return _fail(
            account,
            CalendarErrorReason.TLS,
            f"Hearth could not make a secure connection to {where}: its certificate was not "
            f"accepted, or it does not speak HTTPS at that address. {SETTINGS_HINT}",
        )
    if any(
        isinstance(e, socket.gaierror) or type(e).__name__ == "NameResolutionError" for e in chain
    ):
        return _fail(
            account,
            CalendarErrorReason.UNKNOWN_HOST,
            f"Hearth could not find {where}: the name does not resolve. Check that you are "
            f"online and that the address is spelled right. {SETTINGS_HINT}",
        )
    if any(
        isinstance(e, http.exceptions.Timeout | TimeoutError) or type(e).__name__ in _TIMEOUT_NAMES
        for e in chain
    ):
        return _fail(
            account,
            CalendarErrorReason.TIMEOUT,
            f"{_cap(where)} did not answer within {account.timeout:g} seconds. "
            "Try again in a moment.",
        )
    if any(isinstance(e, http.exceptions.ConnectionError | OSError) for e in chain):
        return _fail(
            account,
            CalendarErrorReason.UNREACHABLE,
            f"Hearth could not connect to {where}. Check that you are online and that the "
            "server is running, then try again.",
        )
    return _fail(
        account,
        CalendarErrorReason.SERVER_ERROR,
        f"{_cap(where)} sent an answer Hearth could not understand. Try again later; if "
        "it keeps happening, check the calendar in its own app or website.",
    )
