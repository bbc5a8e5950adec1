"""read_webpage: fetch one public web page and return its readable text.

The fetch is built on ``http.client`` so that Hearth, not a library, decides where the TCP
connection goes: the host name is resolved once, every address is checked by the SSRF guard, and
the socket is opened to the checked address (the original name only travels in the Host header
and in TLS SNI / certificate checking). There is therefore no second DNS lookup an attacker's
name server could answer differently (DNS rebinding). Redirects are followed by hand so every
hop gets the same scheme and address checks.
"""

from __future__ import annotations

import codecs
import http.client
import socket
import ssl
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from email.message import Message
from ipaddress import IPv6Address
from urllib.parse import quote, urljoin, urlsplit, urlunsplit

from connectors import hostnames
from connectors.addresses import (
    IPAddress,
    Resolver,
    blocked_reason,
    is_localhost_name,
    parse_ip_literal,
    system_resolver,
)
from connectors.encodings import legacy_encodings

from .errors import WebError, WebErrorKind, shorten
from .extract import html_to_text, plain_to_text, sniff_html_charset

USER_AGENT = "Hearth/0.1 (personal assistant; reads one page at the user's request)"
ACCEPTED_TYPES = frozenset({"text/html", "text/plain", "application/xhtml+xml"})
MAX_REDIRECTS = 5
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_CHUNK = 64 * 1024
# Characters left as they are when a URL's path or query is percent-encoded for the request line.
_PATH_SAFE = "/%:@!$&'()*+,;=-._~"
_QUERY_SAFE = _PATH_SAFE + "?"

# The one place a socket is opened; tests replace it to route a fake public address to a local
# test server and to prove that a refused URL never reaches it.
_create_connection: Callable[..., socket.socket] = socket.create_connection


def _default_ssl_context() -> ssl.SSLContext:
    """Certificate-checking TLS context (a function so tests can trust their own test CA)."""
    return ssl.create_default_context()


@dataclass(frozen=True, slots=True)
class WebPage:
    """A page's readable text. Untrusted: whatever a web page says is data, never instructions."""

    url: str  # the address asked for
    final_url: str  # the address the text came from, after redirects
    title: str
    text: str
    truncated: bool  # True when the page was cut at max_bytes
    content_type: str  # e.g. "text/html"


@dataclass(frozen=True, slots=True)
class _Target:
    """A URL that passed the checks, with the addresses the connection may use."""

    url: str
    scheme: str
    host: str  # ASCII (IDNA) host name or IP literal, without brackets
    port: int
    addresses: tuple[str, ...]
    request_path: str
    host_header: str


def read_webpage(
    url: str,
    *,
    max_bytes: int = 2_000_000,
    timeout: float = 15,
    allow_private: bool = False,
    resolver: Resolver | None = None,
    redirect_check: Callable[[str], str | None] | None = None,
) -> WebPage:
    """Read a public web page and return its title and readable text.

    Only http and https; no cookies, no credentials, a fixed User-Agent; at most ``max_bytes``
    of body (then ``truncated`` is set) and ``timeout`` seconds in total, redirects included.
    ``allow_private`` lifts the address guard and exists only for tests against 127.0.0.1: the
    product never sets it. ``resolver`` replaces the system DNS lookup (for tests).
    ``redirect_check`` sees every redirect target before it is followed and returns why it
    may not be (then nothing more is fetched), or None: the app passes one when a standing
    "always allow" for one host let the read through, so a redirect cannot take the request
    (and the data in its address) to a host the user never allowed.
    Raises WebError with a message for the user on any failure.
    """
    if max_bytes < 1:
        raise ValueError("max_bytes must be positive")
    deadline = time.monotonic() + timeout
    lookup = resolver or system_resolver
    current = url
    for _hop in range(MAX_REDIRECTS + 1):
        target = _check_url(current, lookup, allow_private=allow_private, deadline=deadline)
        with _open_response(target, deadline) as (response, timer_fired):
            if response.status in _REDIRECTS:
                location = response.getheader("Location")
                if not location:
                    raise WebError(
                        WebErrorKind.BAD_RESPONSE,
                        f"{shorten(target.url)} answered with a redirect but said not where to. "
                        "Try the address again later or another source.",
                        status=response.status,
                    )
                current = urljoin(target.url, location.strip())
                problem = redirect_check(current) if redirect_check is not None else None
                if problem is not None:
                    raise WebError(
                        WebErrorKind.REDIRECT_NOT_COVERED,
                        f"{shorten(target.url)} redirected to {shorten(current)}, and Hearth did "
                        f"not follow it: {problem}. Ask for that address to see it first.",
                    )
                continue
            return _read_page(url, target, response, max_bytes, deadline, timer_fired)
    raise WebError(
        WebErrorKind.TOO_MANY_REDIRECTS,
        f"{shorten(url)} redirected more than {MAX_REDIRECTS} times, so Hearth stopped following "
        "it. Try a more direct address for the page.",
    )


def public_address(url: str, resolver: Resolver | None = None, timeout: float = 10) -> str:
    """The address, checked as `read_webpage` checks it before connecting (http(s), no
    credentials, a valid host that resolves only to public addresses), for handing it to
    another program; WebError with a message for the user otherwise."""
    target = _check_url(
        url, resolver or system_resolver, allow_private=False, deadline=time.monotonic() + timeout
    )
    return target.url


def _check_url(url: str, resolver: Resolver, *, allow_private: bool, deadline: float) -> _Target:
    """Parse and check one URL (scheme, host, every resolved address) before any connection."""
    shown = shorten(url)
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise WebError(
            WebErrorKind.BAD_URL,
            f"{shown} is not a valid web address ({exc}). Check the address and try again.",
        ) from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        what = f"{scheme}:" if scheme else "an address without http:// or https://"
        raise WebError(
            WebErrorKind.BAD_SCHEME,
            f"Hearth only reads http:// and https:// web pages, and {shown} is {what}. "
            "Give a web address that starts with https://.",
        )
    if parts.username is not None or parts.password is not None:
        raise WebError(
            WebErrorKind.BAD_URL,
            f"{shown} contains a user name or password. Hearth never sends credentials to web "
            "sites; give the address without the part before '@'.",
        )
    raw_host = parts.hostname or ""
    if not raw_host:
        raise WebError(
            WebErrorKind.BAD_URL, f"{shown} has no host name. Check the address and try again."
        )
    host = _ascii_host(raw_host, shown, bracketed="[" in parts.netloc)
    port = port or (443 if scheme == "https" else 80)

    try:
        literal = parse_ip_literal(host)
    except ValueError as exc:
        raise WebError(
            WebErrorKind.BAD_URL,
            f"{shown} has a numeric host that is not a valid address. Check the address.",
        ) from exc
    if literal is not None:
        addresses: tuple[IPAddress, ...] = (literal,)
        host = literal.compressed
    elif is_localhost_name(host) and not allow_private:
        raise _blocked(shown, host, "this computer")
    else:
        addresses = _resolve(host, resolver, shown, deadline)

    if not allow_private:
        for address in addresses:
            reason = blocked_reason(address)
            if reason is not None:
                raise _blocked(shown, address.compressed, reason)

    host_in_header = f"[{host}]" if ":" in host else host
    default_port = 443 if scheme == "https" else 80
    host_header = host_in_header if port == default_port else f"{host_in_header}:{port}"
    path = quote(parts.path, safe=_PATH_SAFE) or "/"
    query = quote(parts.query, safe=_QUERY_SAFE)
    request_path = f"{path}?{query}" if query else path
    clean_url = urlunsplit((scheme, host_header, path, query, ""))
    return _Target(
        url=clean_url,
        scheme=scheme,
        host=host,
        port=port,
        addresses=tuple(a.compressed for a in addresses),
        request_path=request_path,
        host_header=host_header,
    )


def _ascii_host(host: str, shown: str, *, bracketed: bool) -> str:
    """The host as the network sees it: IDNA for international names, no stray characters."""
    if bracketed:
        try:
            return IPv6Address(host).compressed
        except ValueError as exc:
            raise WebError(
                WebErrorKind.BAD_URL, f"{shown} has an invalid IPv6 address. Check the address."
            ) from exc
    try:
        ascii_host = hostnames.ascii_host(host)  # IDNA 2008: faß.de is xn--fa-hia.de
    except hostnames.HostNameError as exc:
        raise WebError(
            WebErrorKind.BAD_URL, f"{shown} has an invalid host name ({exc}). Check the address."
        ) from exc
    if not ascii_host or any(not (c.isalnum() or c in "-._") for c in ascii_host):
        raise WebError(
            WebErrorKind.BAD_URL, f"{shown} has an invalid host name. Check the address."
        )
    return ascii_host


def _resolve(host: str, resolver: Resolver, shown: str, deadline: float) -> tuple[IPAddress, ...]:
    """Resolve once, within the time limit (a lookup can hang for a long time on a bad network)."""
    outcome: list[list[str] | BaseException] = []

    def run() -> None:
        try:
            outcome.append(list(resolver(host)))
        except BaseException as exc:  # handed back to the caller's thread
            outcome.append(exc)

    worker = threading.Thread(target=run, name="hearth-dns", daemon=True)
    worker.start()
    worker.join(max(0.0, deadline - time.monotonic()))
    if not outcome:
        raise _timeout(shown)
    result = outcome[0]
    if isinstance(result, socket.gaierror):
        if result.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)):
            raise _unknown_host(shown, host) from result
        raise WebError(
            WebErrorKind.NETWORK,
            f"Could not look up {host} ({result.strerror}). Check the internet connection "
            "and try again.",
        ) from result
    if isinstance(result, BaseException):
        raise WebError(
            WebErrorKind.NETWORK,
            f"Could not look up {host} ({result}). Check the internet connection and try again.",
        ) from result
    addresses: list[IPAddress] = []
    for text in result:
        address = parse_ip_literal(text)
        if address is None:
            raise WebError(
                WebErrorKind.NETWORK, f"Looking up {host} gave a strange answer ({text!r})."
            )
        addresses.append(address)
    if not addresses:
        raise _unknown_host(shown, host)
    return tuple(addresses)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to one already-checked IP address; never resolves a name."""

    def connect(self) -> None:
        self.sock = _create_connection((self.host, self.port), self.timeout)


class _PinnedHTTPSConnection(_PinnedHTTPConnection):
    """TLS to a checked IP, with SNI and certificate checking for the original host name."""

    def __init__(
        self, ip: str, port: int, *, server_hostname: str, context: ssl.SSLContext, timeout: float
    ) -> None:
        super().__init__(ip, port, timeout=timeout)
        self._server_hostname = server_hostname
        self._tls_context = context

    def connect(self) -> None:
        super().connect()
        # An IP literal is checked against the certificate's IP entries and sent without SNI.
        self.sock = self._tls_context.wrap_socket(self.sock, server_hostname=self._server_hostname)


class _Watchdog:
    """Enforces the total time limit, even against a server that drips one byte at a time.

    Socket timeouts only bound each single wait; when the deadline passes, this shuts the
    current socket down so whatever read is blocked returns at once.
    """

    def __init__(self, deadline: float) -> None:
        self.fired = threading.Event()
        self.conn: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        with self._lock:
            self.fired.set()
            sock = self.conn.sock if self.conn is not None else None
            if sock is not None:
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._timer.cancel()


@contextmanager
def _open_response(
    target: _Target, deadline: float
) -> Iterator[tuple[http.client.HTTPResponse, threading.Event]]:
    """Connect to a checked address, send the GET, yield the response; always close."""
    watchdog = _Watchdog(deadline)
    conn: _PinnedHTTPConnection | None = None
    try:
        last_error: OSError | None = None
        for ip in target.addresses:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or watchdog.fired.is_set():
                raise _timeout(target.url)
            conn = _make_connection(target, ip, remaining)
            watchdog.conn = conn
            try:
                conn.connect()
                break
            except Exception as exc:
                conn.close()
                if watchdog.fired.is_set() or isinstance(exc, TimeoutError):
                    raise _timeout(target.url) from exc
                if isinstance(exc, ssl.SSLError | ssl.CertificateError):
                    raise _tls_error(target, exc) from exc
                if not isinstance(exc, OSError):
                    raise
                conn, last_error = None, exc
        if conn is None:
            raise WebError(
                WebErrorKind.NETWORK,
                f"Could not connect to {target.host} ({_os_reason(last_error)}). Check the "
                "internet connection, or try again later: the site may be down.",
            ) from last_error
        try:
            conn.request(
                "GET",
                target.request_path,
                headers={
                    "Host": target.host_header,
                    "User-Agent": USER_AGENT,
                    "Accept": "text/html,application/xhtml+xml,text/plain;q=0.9",
                    "Accept-Encoding": "identity",
                    "Connection": "close",
                },
            )
            response = conn.getresponse()
        except Exception as exc:
            raise _transport_error(target, exc, watchdog.fired) from exc
        yield response, watchdog.fired
    finally:
        watchdog.cancel()
        if conn is not None:
            conn.close()


def _make_connection(target: _Target, ip: str, timeout: float) -> _PinnedHTTPConnection:
    if target.scheme == "https":
        return _PinnedHTTPSConnection(
            ip,
            target.port,
            server_hostname=target.host,
            context=_default_ssl_context(),
            timeout=timeout,
        )
    return _PinnedHTTPConnection(ip, target.port, timeout=timeout)


def _read_page(
    url: str,
    target: _Target,
    response: http.client.HTTPResponse,
    max_bytes: int,
    deadline: float,
    fired: threading.Event,
) -> WebPage:
    """Check status and type, stream at most max_bytes of body, and extract the text."""
    status = response.status
    if not 200 <= status < 300:
        raise _status_error(target, status, response.reason)
    header = Message()
    header["Content-Type"] = response.getheader("Content-Type") or "application/octet-stream"
    # Not Message.get_content_type(): it turns a malformed type into text/plain.
    content_type = header["Content-Type"].split(";", 1)[0].strip().lower()
    if content_type not in ACCEPTED_TYPES:
        raise WebError(
            WebErrorKind.NOT_HTML,
            f"{shorten(target.url)} is not a web page Hearth can read (it is {content_type}). "
            "Hearth reads HTML and plain-text pages only; open this one in a browser instead.",
        )
    encoding = (response.getheader("Content-Encoding") or "identity").strip().lower()
    decompressor = None
    if encoding in ("gzip", "x-gzip"):
        decompressor = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif encoding == "deflate":
        decompressor = zlib.decompressobj()
    elif encoding != "identity":
        raise WebError(
            WebErrorKind.BAD_RESPONSE,
            f"{shorten(target.url)} was sent in an encoding Hearth does not read ({encoding}).",
        )

    body = bytearray()
    truncated = False
    try:
        while True:
            if time.monotonic() >= deadline:
                raise _timeout(target.url)
            chunk = response.read1(_CHUNK)
            if not chunk:
                if fired.is_set():  # the watchdog's shutdown looks like an end of file
                    raise _timeout(target.url)
                break
            if decompressor is not None:
                # max_length caps the output, so a small "zip bomb" cannot blow up in memory.
                chunk = decompressor.decompress(chunk, max_bytes + 1 - len(body))
            body += chunk
            if len(body) > max_bytes:
                del body[max_bytes:]
                truncated = True
                break
    except WebError:
        raise
    except Exception as exc:
        raise _transport_error(target, exc, fired) from exc

    charset = header.get_param("charset")
    text_charset = charset if isinstance(charset, str) else None
    if text_charset is None and content_type != "text/plain":
        text_charset = sniff_html_charset(bytes(body))
        if text_charset and text_charset.lower().startswith("utf-16"):
            text_charset = "utf-8"  # a <meta> readable as ASCII cannot be UTF-16 (WHATWG rule)
    if text_charset is None and not _is_utf8(bytes(body), complete=not truncated):
        # No charset declared and not UTF-8: an old page in a legacy code page.
        text_charset = next(iter(legacy_encodings(bytes(body), complete=not truncated)), None)
    decoded = bytes(body).decode(_codec(text_charset), errors="replace")
    if content_type == "text/plain":
        title, text = "", plain_to_text(decoded)
    else:
        title, text = html_to_text(decoded)
    return WebPage(
        url=url,
        final_url=target.url,
        title=title,
        text=text,
        truncated=truncated,
        content_type=content_type,
    )


def _is_utf8(data: bytes, *, complete: bool) -> bool:
    try:
        codecs.getincrementaldecoder("utf-8")("strict").decode(data, final=complete)
    except UnicodeDecodeError:
        return False
    return True


def _codec(charset: str | None) -> str:
    """A Python codec for a declared charset; UTF-8 when it is missing or unknown."""
    if charset:
        try:
            return codecs.lookup(charset.strip().strip("'\"")).name
        except LookupError:
            pass
    return "utf-8"


def _blocked(shown: str, address: str, reason: str) -> WebError:
    return WebError(
        WebErrorKind.BLOCKED_ADDRESS,
        f"Hearth will not open {shown}: it points to {reason} ({address}), not a public web "
        "site. Pages on this computer or your local network cannot be read; give a public "
        "web address.",
    )


def _unknown_host(shown: str, host: str) -> WebError:
    return WebError(
        WebErrorKind.UNKNOWN_HOST,
        f"Could not find the site {host} for {shown}. Check the spelling of the address, or "
        "check the internet connection.",
    )


def _timeout(shown: str) -> WebError:
    return WebError(
        WebErrorKind.TIMEOUT,
        f"{shorten(shown)} took too long to answer, so Hearth gave up. Try again later, or try "
        "another source.",
    )


def _tls_error(target: _Target, exc: ssl.SSLError | ssl.CertificateError) -> WebError:
    detail = getattr(exc, "verify_message", None) or exc.reason or str(exc)
    return WebError(
        WebErrorKind.TLS,
        f"The secure connection to {target.host} could not be verified ({detail}). Hearth did "
        "not read the page; the site may be misconfigured or someone may be intercepting "
        "the connection.",
    )


def _status_error(target: _Target, status: int, reason: str) -> WebError:
    hints = {
        401: "the page needs a login, which Hearth does not do",
        403: "the site refused access",
        404: "the page does not exist; check the address",
        410: "the page has been removed",
        429: "the site is limiting requests; try again later",
    }
    hint = hints.get(status) or (
        "the site has a problem; try again later" if status >= 500 else "try another source"
    )
    return WebError(
        WebErrorKind.HTTP_STATUS,
        f"{shorten(target.url)} answered {status} {reason}".rstrip() + f": {hint}.",
        status=status,
    )


def _transport_error(target: _Target, exc: Exception, fired: threading.Event) -> WebError:
    """Turn a failure during the request or body into a WebError with the right kind."""
    if fired.is_set() or isinstance(exc, TimeoutError):
        return _timeout(target.url)
    if isinstance(exc, ssl.SSLError):
        return _tls_error(target, exc)
    if isinstance(exc, http.client.LineTooLong) or "more than 100 headers" in str(exc):
        return WebError(
            WebErrorKind.TOO_LARGE,
            f"{shorten(target.url)} sent oversized headers, so Hearth stopped reading it.",
        )
    if isinstance(exc, http.client.HTTPException | zlib.error):
        return WebError(
            WebErrorKind.BAD_RESPONSE,
            f"{shorten(target.url)} sent a broken answer ({type(exc).__name__}). Try again "
            "later, or try another source.",
        )
    if isinstance(exc, OSError):
        return WebError(
            WebErrorKind.NETWORK,
            f"The connection to {target.host} failed ({_os_reason(exc)}). Check the internet "
            "connection and try again.",
        )
    return WebError(
        WebErrorKind.BAD_RESPONSE,
        f"Reading {shorten(target.url)} failed ({type(exc).__name__}). Try another source.",
    )


def _os_reason(exc: OSError | None) -> str:
    if exc is None:
        return "no address to connect to"
    return exc.strerror or str(exc) or type(exc).__name__
