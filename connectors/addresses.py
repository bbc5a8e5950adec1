"""The SSRF guard: which hosts and addresses Hearth may connect to (one table for all).

A web page (or a prompt-injected model) can ask Hearth to read any URL. Reading one on the
user's own machine or network (the local model server, a router's admin page, a cloud metadata
service) would leak it to the model and on to wherever the model sends it next. So only public
unicast addresses are allowed, and the check is made on the resolved address that the
connection then actually uses, never on the name alone.

Python's own ``ipaddress.is_global`` is not enough on its own: on 3.11.7 it calls
``::ffff:127.0.0.1``, ``::127.0.0.1``, ``64:ff9b::7f00:1`` and ``2002:7f00:1::`` global, and
multicast global. Hence the explicit tables and the unwrapping of embedded IPv4 addresses.

Two checks share this one parser and one table: the policy gate judges the address a URL
names literally (before anything runs), the web connector every address a name resolves to
and every redirect (when it connects). Standard library only, so the gate can import it.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Iterable
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address

IPAddress = IPv4Address | IPv6Address

# Host name -> IP address strings. Injectable so tests can make a name point anywhere.
Resolver = Callable[[str], Iterable[str]]

# AWS/GCP/Azure, ECS task metadata, Alibaba, Oracle, the AWS IPv6 endpoint. Most also fall
# in a blocked network below; named here so the refusal says what they are.
CLOUD_METADATA = frozenset(
    ip_address(a)
    for a in ("169.254.169.254", "169.254.170.2", "100.100.100.200", "192.0.0.192", "fd00:ec2::254")
)

_BLOCKED_V4: tuple[tuple[IPv4Network, str], ...] = tuple(
    (IPv4Network(net), why)
    for net, why in (
        ("0.0.0.0/8", "an unspecified address"),
        ("10.0.0.0/8", "a private network address"),
        ("100.64.0.0/10", "a carrier-grade NAT address"),
        ("127.0.0.0/8", "this computer (loopback)"),
        ("169.254.0.0/16", "a link-local address"),
        ("172.16.0.0/12", "a private network address"),
        ("192.0.0.0/24", "a reserved address"),
        ("192.0.2.0/24", "a documentation address"),
        ("192.88.99.0/24", "a reserved relay address"),
        ("192.168.0.0/16", "a private network address"),
        ("198.18.0.0/15", "a benchmarking address"),
        ("198.51.100.0/24", "a documentation address"),
        ("203.0.113.0/24", "a documentation address"),
        ("224.0.0.0/4", "a multicast address"),
        ("240.0.0.0/4", "a reserved address"),
    )
)

_BLOCKED_V6: tuple[tuple[IPv6Network, str], ...] = tuple(
    (IPv6Network(net), why)
    for net, why in (
        ("::/128", "an unspecified address"),
        ("::1/128", "this computer (loopback)"),
        ("::/96", "an IPv4-compatible address"),
        ("64:ff9b:1::/48", "a local NAT64 address"),
        ("100::/64", "a discard address"),
        ("2001::/23", "a reserved address"),
        ("2001:db8::/32", "a documentation address"),
        ("3fff::/20", "a documentation address"),
        ("5f00::/16", "a segment-routing address"),
        ("fc00::/7", "a private network address"),
        ("fe80::/10", "a link-local address"),
        ("fec0::/10", "a site-local address"),
        ("ff00::/8", "a multicast address"),
    )
)

_NAT64 = IPv6Network("64:ff9b::/96")


def blocked_reason(ip: IPAddress) -> str | None:
    """Why Hearth must not connect to ``ip``, or None if it is a public unicast address."""
    if isinstance(ip, IPv6Address):
        embedded = _embedded_ipv4(ip)
        if embedded is not None:
            # The packet ends up at the IPv4 address inside, so that is the one to judge.
            return blocked_reason(embedded)
        ip = ip if ip.scope_id is None else IPv6Address(ip.compressed.split("%", 1)[0])
        table: Iterable[tuple[IPv4Network | IPv6Network, str]] = _BLOCKED_V6
    else:
        table = _BLOCKED_V4
    if ip in CLOUD_METADATA:
        return "the cloud metadata service"
    for network, why in table:
        if ip in network:
            return why
    if ip.is_multicast:
        return "a multicast address"
    if ip.is_reserved:  # IPv6 space not handed out (4000::/3 ...): nothing public lives there
        return "a reserved address"
    if not ip.is_global:
        return "not a public address"
    return None


def _embedded_ipv4(ip: IPv6Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 form really reaches (mapped, 6to4, NAT64), if any."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64:
        return IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


_LEGACY_PART = re.compile(r"0[xX][0-9a-fA-F]*|[0-9]+")


def parse_ip_literal(host: str) -> IPAddress | None:
    """The address a URL host names directly, including the old IPv4 spellings.

    ``2130706433``, ``0x7f000001``, ``0x7f.1``, ``0177.0.0.1`` and ``127.1`` all mean
    127.0.0.1 to browsers (the WHATWG URL standard) and to the C library's resolver, so they must
    be judged as that address and never handed to a resolver as if they were names.
    Returns None for a real host name; raises ValueError for a number that is no address.
    """
    try:
        return ip_address(host)
    except ValueError:
        pass
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()  # "127.0.0.1." is still an address
    if not _LEGACY_PART.fullmatch(parts[-1]):
        return None  # the last label is not a number: an ordinary host name
    if len(parts) > 4 or not all(_LEGACY_PART.fullmatch(p) for p in parts):
        raise ValueError(f"{host!r} is neither an IP address nor a host name")
    numbers = [_legacy_number(p) for p in parts]
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        raise ValueError(f"{host!r} is out of range for an IPv4 address")
    value = numbers[-1]
    for index, number in enumerate(numbers[:-1]):
        value += number << (8 * (3 - index))
    return IPv4Address(value)


def _legacy_number(part: str) -> int:
    """One dotted part in C ``inet_aton`` notation: 0x.. hex, 0.. octal, else decimal."""
    if part[:2].lower() == "0x":
        return int(part[2:] or "0", 16)
    if len(part) > 1 and part.startswith("0"):
        if not set(part) <= set("01234567"):
            raise ValueError(f"{part!r} is not an octal number")
        return int(part, 8)
    return int(part)


def is_localhost_name(host: str) -> bool:
    """``localhost`` and ``*.localhost`` always mean this machine (RFC 6761), whatever DNS says."""
    name = host.rstrip(".").lower()
    return name == "localhost" or name.endswith(".localhost")


def system_resolver(host: str) -> list[str]:
    """Resolve a host name with the operating system, once, to every address it returns."""
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    addresses: list[str] = []
    for info in infos:
        address = str(info[4][0])
        if address not in addresses:
            addresses.append(address)
    return addresses
