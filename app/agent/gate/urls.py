"""Which web addresses the gate lets a call name, and what a standing host grant covers.

`check_url` is the first, lexical line against SSRF: a URL whose host is this machine, the
local network or a cloud metadata service is refused before anything runs. Literal
addresses, in every old spelling browsers accept, are judged by the one parser and table of
`connectors.addresses`, which the web connector uses again on every address a name resolves
to and on every redirect. Names are judged here only by what they say (`localhost`,
`printer.local`, a single label); what they resolve to is the connector's check.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any
from urllib.parse import unquote, urlsplit

from app.agent.gate.arguments import quoted
from connectors.addresses import blocked_reason, parse_ip_literal
from connectors.hostnames import comparable_host

__all__ = ["check_url", "host_grant_problem", "host_of"]

_BLOCKED_SUFFIXES = (
    ".localhost", ".local", ".internal", ".intranet", ".lan", ".home", ".corp", ".localdomain",
    ".home.arpa", ".arpa",
)  # fmt: skip
_BLOCKED_HOSTS = frozenset(
    {"localhost", "metadata", "metadata.goog", "metadata.google.internal", "instance-data"}
)
_HOST_FORBIDDEN = re.compile(r"[\s%/\\?#@:\[\]<>^|\"'`{}*]")


def _host_problem(host: str) -> str | None:
    """Literal addresses and names that reach this machine or the local network."""
    host = unquote(host)
    host = unicodedata.normalize("NFKC", host).casefold()
    host = host.translate({0x3002: ".", 0xFF0E: ".", 0xFF61: "."})
    if not host:
        return "the URL has no host"
    if ":" in host:  # only IPv6 literals get here with a colon (urlsplit took the port off)
        try:
            address = parse_ip_literal(host)
        except ValueError:
            address = None
        if address is None:
            return "the URL has a malformed IPv6 host"
        what = blocked_reason(address)
        return f"the URL host is {what} ({address})" if what else None
    if host.endswith("."):
        host = host[:-1]
    if not host or host.startswith(".") or ".." in host or _HOST_FORBIDDEN.search(host):
        return "the URL has a malformed host"
    if any(ord(c) < 32 for c in host):
        return "the URL has a malformed host"
    try:
        ipv4 = parse_ip_literal(host)  # 2130706433, 0x7f.1, 0177.0.0.1, 127.1 ...
    except ValueError:
        return "the URL has a malformed numeric host"
    if ipv4 is not None:
        what = blocked_reason(ipv4)
        return f"the URL host is {what} ({ipv4})" if what else None
    if host in _BLOCKED_HOSTS or host.endswith(_BLOCKED_SUFFIXES):
        return f"the URL host {quoted(host)} is a local network name"
    if "." not in host:
        return f"the URL host {quoted(host)} is a single-label name (it resolves locally)"
    return None


def check_url(url: Any) -> str | None:
    """Why `url` may not be fetched, or None. The first line only: the connector re-checks
    the addresses a name resolves to, and every redirect."""
    if not isinstance(url, str):
        return "a URL must be text"
    text = url.strip("".join(chr(c) for c in range(0x21)))
    text = re.sub(r"[\t\n\r]", "", text)  # browsers drop these anywhere in a URL
    if any(ord(c) < 0x20 or c == "\x7f" or c.isspace() for c in text):
        return "the URL contains spaces or control characters"
    if "\\" in text:
        return "the URL contains a backslash"
    scheme_match = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", text)
    if not scheme_match:
        return "the URL has no scheme (only http and https are fetched)"
    scheme = scheme_match.group(1).lower()
    if scheme not in ("http", "https"):
        return f"the URL scheme {quoted(scheme)} is not allowed (only http and https)"
    if not text[scheme_match.end() :].startswith("//"):
        return "the URL is malformed"
    try:
        parts = urlsplit(text)
        _ = parts.port  # raises ValueError for a bad port
        hostname = parts.hostname
    except ValueError:
        return "the URL is malformed"
    if "@" in parts.netloc:
        return "the URL carries a user name or password"
    return _host_problem(hostname or "")


def host_of(url: str) -> str | None:
    """The host a URL names, as a grant compares it: the name the request will use (IDNA
    2008, so faß.de is xn--fa-hia.de and not fass.de), no final dot."""
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    return comparable_host(host).rstrip(".") if host else None


def host_grant_problem(url: str, hosts: set[str] | frozenset[str]) -> str | None:
    """Why a host grant for `hosts` does not cover `url`, or None if it does: the exact host
    (no subdomain), http or https on the default port, no credentials, no query string.
    Used by the gate and again, by the web tool, for every redirect of a granted call."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return "the address is malformed"
    host = host_of(url)
    if parts.scheme.lower() not in ("http", "https") or host is None:
        return "the address is not an http or https page"
    if host not in {comparable_host(h).rstrip(".") for h in hosts}:
        return f"{quoted(host)} is not the host the permission is for"
    if port is not None and port != {"http": 80, "https": 443}[parts.scheme.lower()]:
        return "the address uses another port"
    if parts.username is not None or parts.password is not None:
        return "the address carries a user name or password"
    if parts.query:
        return "the address has a query string (data sent to the site)"
    return None
