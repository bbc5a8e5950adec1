"""The web connector against servers on 127.0.0.1 that the tests start themselves.

No test sends a packet anywhere but 127.0.0.1: every socket the connector opens goes through
``fetch._create_connection``, which the autouse ``network`` fixture replaces with a recorder that
refuses anything but loopback (or a fake public address it routes to a local server), and the
``socket.socket`` class is jailed the same way for anything else in the process.
"""

from __future__ import annotations

import functools
import gzip
import json
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from connectors.web import (
    USER_AGENT,
    DuckDuckGoEngine,
    WebError,
    WebErrorKind,
    blocked_reason,
    parse_ip_literal,
    read_webpage,
    web_search,
)
from connectors.web import fetch as fetch_module
from connectors.web.extract import html_to_text

DATA = Path(__file__).parent / "data"
# A public-looking address for a fake DNS name. Nothing is ever sent to it: the network fixture
# routes connections for it to a local server (and fails the test on any other non-loopback
# address).
FAKE_PUBLIC_IP = "93.184.215.14"
REAL_CREATE_CONNECTION = socket.create_connection


# --------------------------------------------------------------------------------------------
# Network jail and routing
# --------------------------------------------------------------------------------------------


class OutsideTrafficError(AssertionError):
    """A connection to something other than 127.0.0.1 was attempted."""


def _is_loopback_v4(host: object) -> bool:
    return host == "127.0.0.1"


class _JailedSocket(socket.socket):
    """socket.socket that refuses to connect anywhere but 127.0.0.1."""

    def connect(self, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback_v4(address[0]):
            raise OutsideTrafficError(f"test tried to connect to {address!r}")
        super().connect(address)

    def connect_ex(self, address: Any) -> int:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback_v4(address[0]):
            raise OutsideTrafficError(f"test tried to connect to {address!r}")
        return super().connect_ex(address)


@dataclass
class Network:
    """Records every connection the connector opens; routes fake public addresses locally."""

    attempts: list[tuple[str, int]] = field(default_factory=list)
    routes: dict[tuple[str, int], int] = field(default_factory=dict)  # (ip, port) -> local port

    def route(self, ip: str, port: int, local_port: int) -> None:
        self.routes[(ip, port)] = local_port

    def create_connection(self, address: tuple[str, int], *args: Any, **kwargs: Any) -> Any:
        host, port = address
        self.attempts.append((host, port))
        if (host, port) in self.routes:
            return REAL_CREATE_CONNECTION(("127.0.0.1", self.routes[(host, port)]), *args)
        if not _is_loopback_v4(host):
            raise OutsideTrafficError(f"connector tried to connect to {address!r}")
        return REAL_CREATE_CONNECTION(address, *args, **kwargs)


@pytest.fixture(autouse=True)
def network(monkeypatch: pytest.MonkeyPatch) -> Network:
    net = Network()
    monkeypatch.setattr(fetch_module, "_create_connection", net.create_connection)
    monkeypatch.setattr(socket, "socket", _JailedSocket)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("all_proxy", raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    return net


def fake_dns(table: dict[str, list[str]]) -> Callable[[str], Iterable[str]]:
    """A resolver answering from a table (and recording the names it was asked)."""
    asked: list[str] = []

    def resolve(host: str) -> list[str]:
        asked.append(host)
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return table[host]

    resolve.asked = asked  # type: ignore[attr-defined]
    return resolve


# --------------------------------------------------------------------------------------------
# Local servers
# --------------------------------------------------------------------------------------------


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes = b""


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self.requests: list[Seen] = []
        self.connections: list[Any] = []
        self.stop = threading.Event()
        self.state: dict[str, Any] = {}

    def verify_request(self, request: Any, client_address: Any) -> bool:
        self.connections.append(client_address)  # any TCP connection, even without a request
        return True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hangs up early (timeouts, truncation) is expected here

    @property
    def port(self) -> int:
        return self.server_address[1]


@contextmanager
def serve(
    handler: type[BaseHTTPRequestHandler], tls: ssl.SSLContext | None = None
) -> Iterator[_Server]:
    """Run a threaded HTTP(S) server on 127.0.0.1, port 0, for the length of a test."""
    server = _Server(handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.stop.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def reply(
        self,
        status: int,
        body: bytes = b"",
        content_type: str | None = "text/html; charset=utf-8",
        headers: dict[str, str] | None = None,
    ) -> None:
        self.send_response(status)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)


class CanaryHandler(_Handler):
    """Must never be reached by a refused URL."""

    def do_GET(self) -> None:
        self.server.requests.append(Seen("GET", self.path, dict(self.headers)))
        self.reply(200, b"<title>canary</title><p>secret from the local network</p>")


ARTICLE = (DATA / "article.html").read_bytes()
REDIRECT_CODES = (301, 302, 303, 307, 308)


class PageHandler(_Handler):
    """The test web site: an article, redirects, a huge page, a slow page, errors."""

    def do_GET(self) -> None:
        self.server.requests.append(Seen("GET", self.path, dict(self.headers)))
        path = self.path
        canary = self.server.state.get("canary_port", 9)
        redirects = {
            "/loop": "/loop",
            "/to-canary": f"http://127.0.0.1:{canary}/secret",
            "/to-internal": f"http://internal.test:{canary}/secret",
            "/to-metadata": "http://169.254.169.254/latest/meta-data/",
            "/to-decimal": f"http://2130706433:{canary}/secret",
            "/to-ipv6-mapped": f"http://[::ffff:127.0.0.1]:{canary}/secret",
            "/to-file": "file:///etc/passwd",
            "/to-localhost": f"http://localhost:{canary}/secret",
        }
        if path == "/article":
            self.reply(200, ARTICLE)
        elif path in redirects:
            self.reply(302, b"", headers={"Location": redirects[path]})
        elif path.startswith("/redirect/"):
            left = int(path.rsplit("/", 1)[1])
            target = "/article" if left == 0 else f"/redirect/{left - 1}"
            self.reply(REDIRECT_CODES[left % 5], b"", headers={"Location": target})
        elif path == "/set-cookie":
            self.reply(302, b"", headers={"Location": "/headers", "Set-Cookie": "sid=abc123"})
        elif path == "/headers":
            self.reply(200, json.dumps(dict(self.headers)).encode(), "text/plain; charset=utf-8")
        elif path == "/plain":
            self.reply(200, b"Line one\r\nLine two   \n\n\n\n\nEnd\x00", "text/plain")
        elif path == "/latin1":
            body = "<title>Caf\xe9</title><p>Cr\xe8me br\xfbl\xe9e</p>".encode("latin-1")
            self.reply(200, body, "text/html; charset=ISO-8859-1")
        elif path == "/meta-charset":
            body = '<meta charset="windows-1252"><p>\u201cquoted\u201d</p>'.encode("cp1252")
            self.reply(200, body, "text/html")
        elif path == "/gzip":
            self.reply(200, gzip.compress(ARTICLE), headers={"Content-Encoding": "gzip"})
        elif path == "/huge":
            paragraph = b"<p>Sourdough words for a very long page.</p>\n"
            self.reply(200, b"<title>Huge</title>" + paragraph * 120_000)
        elif path == "/xhtml":
            self.reply(200, ARTICLE, "application/xhtml+xml")
        elif path == "/binary":
            self.reply(200, b"\x89PNG\r\n\x1a\n" + bytes(2000), "image/png")
        elif path == "/no-type":
            self.reply(200, b"<p>no content type</p>", None)
        elif path == "/brotli":
            self.reply(200, b"\x1b\x00", headers={"Content-Encoding": "br"})
        elif path == "/missing":
            self.reply(404, b"<h1>Not found</h1>")
        elif path == "/broken":
            self.reply(500, b"<h1>Oops</h1>")
        elif path == "/no-location":
            self.reply(302, b"")
        elif path == "/slow-body":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            for _ in range(1000):  # one byte every 0.1 s: each read is quick, the total is not
                if self.server.stop.wait(0.1):
                    return
                self.wfile.write(b"x")
                self.wfile.flush()
        elif path == "/slow-headers":
            self.server.stop.wait(5)
        else:
            self.reply(404, b"unknown test path")


@pytest.fixture
def canary() -> Iterator[_Server]:
    with serve(CanaryHandler) as server:
        yield server


@pytest.fixture
def site(canary: _Server) -> Iterator[_Server]:
    with serve(PageHandler) as server:
        server.state["canary_port"] = canary.port
        yield server


def local(server: _Server, path: str) -> str:
    return f"http://127.0.0.1:{server.port}{path}"


def expect_error(kind: WebErrorKind, call: Callable[[], object]) -> WebError:
    with pytest.raises(WebError) as caught:
        call()
    assert caught.value.kind is kind, caught.value
    assert str(caught.value)  # always a message for the user
    return caught.value


# --------------------------------------------------------------------------------------------
# read_webpage: reading (allow_private=True to reach the 127.0.0.1 test site)
# --------------------------------------------------------------------------------------------


def test_reads_title_and_main_text_of_an_article(site: _Server) -> None:
    page = read_webpage(local(site, "/article"), allow_private=True)

    assert page.title == "Feeding a Sourdough Starter | Bread Example"
    assert page.content_type == "text/html"
    assert page.truncated is False
    assert page.url == page.final_url == local(site, "/article")
    assert page.text.splitlines()[:2] == [
        "Feeding a sourdough starter",
        "By A. Baker · 14 March 2024",
    ]
    assert "Feed it equal weights of flour and water once a day." in page.text
    assert "Grey liquid on top: stir it back in or pour it off." in page.text
    for left_out in (
        "analytics",  # <script>
        "font-family",  # <style>
        "Log in",  # <nav>
        "newsletter",  # <aside>
        "you@example.com",  # <form>
        "Privacy",  # <footer>
        "evil.example",  # display:none
        "Another hidden paragraph",  # hidden attribute
        "decorative",  # aria-hidden
    ):
        assert left_out not in page.text


def test_sends_a_fixed_user_agent_and_never_cookies_or_credentials(site: _Server) -> None:
    page = read_webpage(local(site, "/set-cookie"), allow_private=True)

    sent = json.loads(page.text)
    assert sent["User-Agent"] == USER_AGENT
    assert sent["Host"] == f"127.0.0.1:{site.port}"
    assert sent["Accept-Encoding"] == "identity"
    assert not {"Cookie", "Authorization", "Referer"} & set(sent)
    assert page.final_url == local(site, "/headers")


def test_follows_a_chain_of_five_redirects(site: _Server) -> None:
    page = read_webpage(local(site, "/redirect/4"), allow_private=True)

    assert page.url == local(site, "/redirect/4")
    assert page.final_url == local(site, "/article")
    assert page.title.startswith("Feeding a Sourdough Starter")
    paths = [seen.path for seen in site.requests]
    assert paths == [
        "/redirect/4",
        "/redirect/3",
        "/redirect/2",
        "/redirect/1",
        "/redirect/0",
        "/article",
    ]


def test_stops_after_five_redirects(site: _Server) -> None:
    expect_error(
        WebErrorKind.TOO_MANY_REDIRECTS,
        lambda: read_webpage(local(site, "/redirect/5"), allow_private=True),
    )
    assert len(site.requests) == 6
    expect_error(
        WebErrorKind.TOO_MANY_REDIRECTS,
        lambda: read_webpage(local(site, "/loop"), allow_private=True),
    )


def test_plain_text_and_xhtml_are_accepted(site: _Server) -> None:
    plain = read_webpage(local(site, "/plain"), allow_private=True)
    assert (plain.title, plain.text, plain.content_type) == (
        "",
        "Line one\nLine two\n\nEnd",
        "text/plain",
    )

    xhtml = read_webpage(local(site, "/xhtml"), allow_private=True)
    assert xhtml.content_type == "application/xhtml+xml"
    assert "Troubleshooting" in xhtml.text


@pytest.mark.parametrize(
    ("path", "title", "text"),
    [
        ("/latin1", "Café", "Crème brûlée"),
        ("/meta-charset", "", "\u201cquoted\u201d"),
    ],
)
def test_decodes_the_declared_charset(site: _Server, path: str, title: str, text: str) -> None:
    page = read_webpage(local(site, path), allow_private=True)
    assert (page.title, page.text) == (title, text)


def test_gzip_body_is_decoded(site: _Server) -> None:
    page = read_webpage(local(site, "/gzip"), allow_private=True)
    assert "Troubleshooting" in page.text


def test_huge_page_is_cut_at_max_bytes(site: _Server) -> None:
    started = time.monotonic()
    page = read_webpage(local(site, "/huge"), max_bytes=100_000, allow_private=True)

    assert page.truncated is True
    assert page.title == "Huge"
    assert 80_000 < len(page.text.encode()) < 100_000  # 100 kB of HTML, less the tags
    assert time.monotonic() - started < 5


def test_max_bytes_boundary(site: _Server) -> None:
    exact = read_webpage(local(site, "/article"), max_bytes=len(ARTICLE), allow_private=True)
    assert exact.truncated is False
    short = read_webpage(local(site, "/article"), max_bytes=len(ARTICLE) - 1, allow_private=True)
    assert short.truncated is True


def test_gzip_is_capped_after_decompression(site: _Server) -> None:
    page = read_webpage(local(site, "/gzip"), max_bytes=500, allow_private=True)
    assert page.truncated is True


def test_slow_drip_body_hits_the_total_time_limit(site: _Server) -> None:
    started = time.monotonic()
    error = expect_error(
        WebErrorKind.TIMEOUT,
        lambda: read_webpage(local(site, "/slow-body"), timeout=1.0, allow_private=True),
    )
    assert 0.9 < time.monotonic() - started < 3
    assert "took too long" in str(error)


def test_server_that_never_answers_times_out(site: _Server) -> None:
    started = time.monotonic()
    expect_error(
        WebErrorKind.TIMEOUT,
        lambda: read_webpage(local(site, "/slow-headers"), timeout=0.5, allow_private=True),
    )
    assert time.monotonic() - started < 2.5


@pytest.mark.parametrize(
    ("path", "shown"), [("/binary", "image/png"), ("/no-type", "octet-stream")]
)
def test_binary_content_is_refused(site: _Server, path: str, shown: str) -> None:
    error = expect_error(
        WebErrorKind.NOT_HTML, lambda: read_webpage(local(site, path), allow_private=True)
    )
    assert shown in str(error)


def test_unknown_content_encoding_is_refused(site: _Server) -> None:
    expect_error(
        WebErrorKind.BAD_RESPONSE, lambda: read_webpage(local(site, "/brotli"), allow_private=True)
    )


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [("/missing", 404, "does not exist"), ("/broken", 500, "try again later")],
)
def test_http_error_status_is_a_clear_error(
    site: _Server, path: str, status: int, words: str
) -> None:
    error = expect_error(
        WebErrorKind.HTTP_STATUS, lambda: read_webpage(local(site, path), allow_private=True)
    )
    assert error.status == status
    assert str(status) in str(error)
    assert words in str(error)


def test_redirect_without_location_is_a_bad_response(site: _Server) -> None:
    expect_error(
        WebErrorKind.BAD_RESPONSE,
        lambda: read_webpage(local(site, "/no-location"), allow_private=True),
    )


def test_closed_port_is_a_network_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    expect_error(
        WebErrorKind.NETWORK, lambda: read_webpage(f"http://127.0.0.1:{port}/", allow_private=True)
    )


def test_unknown_host_is_reported(network: Network) -> None:
    error = expect_error(
        WebErrorKind.UNKNOWN_HOST,
        lambda: read_webpage("http://no-such-site.test/", resolver=fake_dns({})),
    )
    assert "no-such-site.test" in str(error)
    assert network.attempts == []


def test_a_hanging_dns_lookup_is_bounded_by_the_time_limit() -> None:
    def hang(host: str) -> list[str]:
        time.sleep(3)
        return [FAKE_PUBLIC_IP]

    started = time.monotonic()
    expect_error(
        WebErrorKind.TIMEOUT,
        lambda: read_webpage("http://slow-dns.test/", timeout=0.3, resolver=hang),
    )
    # Well under the 3 s the lookup hangs, with room for a machine starved of CPU.
    assert time.monotonic() - started < 2.5


# --------------------------------------------------------------------------------------------
# read_webpage: the SSRF guard (allow_private=False, as in the product)
# --------------------------------------------------------------------------------------------

BLOCKED_LITERALS = [
    "http://127.0.0.1:{canary}/",
    "http://127.0.0.1:{canary}/secret?x=1#frag",
    "http://[::1]:{canary}/",
    "http://[::ffff:127.0.0.1]:{canary}/",
    "http://[::ffff:7f00:1]:{canary}/",
    "http://[::127.0.0.1]:{canary}/",
    "http://[64:ff9b::7f00:1]:{canary}/",
    "http://[2002:7f00:1::]:{canary}/",
    "http://169.254.169.254/latest/meta-data/iam/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://10.0.0.1/",
    "http://192.168.1.1/admin",
    "http://172.16.0.1/",
    "http://100.64.0.1/",
    "http://0.0.0.0:{canary}/",
    "http://0:{canary}/",
    "http://2130706433:{canary}/",
    "http://0x7f000001:{canary}/",
    "http://0x7f.1:{canary}/",
    "http://0177.0.0.1:{canary}/",
    "http://127.1:{canary}/",
    "http://127.0.0.1.:{canary}/",
    "https://127.0.0.1:{canary}/",
    "http://[fe80::1]/",
    "http://224.0.0.1/",
    "http://[ff02::1]/",
    "http://255.255.255.255/",
    "http://１２７.０.０.１:{canary}/",  # full-width digits
    "http://127。0。0。1:{canary}/",  # ideographic full stops
    "http://[::1%25lo]:{canary}/",  # with a zone id
]


@pytest.mark.parametrize("template", BLOCKED_LITERALS)
def test_local_and_private_addresses_are_refused_before_connecting(
    template: str, canary: _Server, network: Network
) -> None:
    url = template.format(canary=canary.port)
    resolver = fake_dns({})
    error = expect_error(WebErrorKind.BLOCKED_ADDRESS, lambda: read_webpage(url, resolver=resolver))

    assert "public web address" in str(error)
    assert resolver.asked == []  # type: ignore[attr-defined]  # a literal is never "resolved"
    assert network.attempts == []
    assert canary.connections == []


@pytest.mark.parametrize(
    "template",
    [
        "http://localhost:{canary}/",
        "http://LOCALHOST.:{canary}/",
        "http://api.localhost:{canary}/",
        "http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:{canary}/",  # circled letters
    ],
)
def test_localhost_is_refused_whatever_dns_says(
    template: str, canary: _Server, network: Network
) -> None:
    url = template.format(canary=canary.port)
    liar = fake_dns({"localhost": [FAKE_PUBLIC_IP], "api.localhost": [FAKE_PUBLIC_IP]})
    expect_error(WebErrorKind.BLOCKED_ADDRESS, lambda: read_webpage(url, resolver=liar))
    expect_error(WebErrorKind.BLOCKED_ADDRESS, lambda: read_webpage(url))  # the system resolver
    assert network.attempts == []
    assert canary.connections == []


def test_loopback_is_refused_with_the_system_resolver(canary: _Server, network: Network) -> None:
    for url in (f"http://127.0.0.1:{canary.port}/", f"http://2130706433:{canary.port}/"):
        expect_error(WebErrorKind.BLOCKED_ADDRESS, functools.partial(read_webpage, url))
    assert network.attempts == []
    assert canary.connections == []


@pytest.mark.parametrize(
    ("name", "answer"),
    [
        ("example.test", ["127.0.0.1"]),
        ("metadata.test", ["169.254.169.254"]),
        ("mapped.test", ["::ffff:127.0.0.1"]),
        ("ula.test", ["fd12:3456::1"]),
        ("router.test", ["192.168.0.1"]),
        ("mixed.test", [FAKE_PUBLIC_IP, "10.0.0.1"]),  # one bad address taints the name
        ("mixed6.test", [FAKE_PUBLIC_IP, "::1"]),
    ],
)
def test_names_resolving_to_private_addresses_are_refused(
    name: str, answer: list[str], canary: _Server, network: Network
) -> None:
    resolver = fake_dns({name: answer})
    url = f"http://{name}:{canary.port}/secret"
    expect_error(WebErrorKind.BLOCKED_ADDRESS, lambda: read_webpage(url, resolver=resolver))
    assert resolver.asked == [name]  # type: ignore[attr-defined]
    assert network.attempts == []
    assert canary.connections == []


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("file:///etc/passwd", WebErrorKind.BAD_SCHEME),
        ("ftp://x/", WebErrorKind.BAD_SCHEME),
        ("data:text/html,<h1>hi</h1>", WebErrorKind.BAD_SCHEME),
        ("javascript:alert(1)", WebErrorKind.BAD_SCHEME),
        ("gopher://127.0.0.1:70/", WebErrorKind.BAD_SCHEME),
        ("ws://example.test/", WebErrorKind.BAD_SCHEME),
        ("127.0.0.1", WebErrorKind.BAD_SCHEME),
        ("//127.0.0.1/", WebErrorKind.BAD_SCHEME),
        ("http://user:pw@example.test/", WebErrorKind.BAD_URL),
        ("http://example.test@127.0.0.1/", WebErrorKind.BAD_URL),
        ("http:///nohost", WebErrorKind.BAD_URL),
        ("http://1.2.3.4.5/", WebErrorKind.BAD_URL),
        ("http://0x1g.1/", WebErrorKind.BAD_URL),
        ("http://256.1.1.1/", WebErrorKind.BAD_URL),
        ("http://exa mple.test/", WebErrorKind.BAD_URL),
        ("http://%31%32%37.0.0.1/", WebErrorKind.BAD_URL),
        ("http://example.test:99999/", WebErrorKind.BAD_URL),
        ("http://[not-ipv6]/", WebErrorKind.BAD_URL),
    ],
)
def test_other_schemes_and_malformed_urls_are_refused(
    url: str, kind: WebErrorKind, network: Network
) -> None:
    resolver = fake_dns({"example.test": [FAKE_PUBLIC_IP]})
    expect_error(kind, lambda: read_webpage(url, resolver=resolver))
    assert resolver.asked == []  # type: ignore[attr-defined]
    assert network.attempts == []


@pytest.fixture
def public_site(site: _Server, network: Network) -> _Server:
    """The test site as if it were the public host public.test (FAKE_PUBLIC_IP, port 80)."""
    network.route(FAKE_PUBLIC_IP, 80, site.port)
    return site


def test_public_name_is_fetched_from_the_checked_address(
    public_site: _Server, network: Network
) -> None:
    resolver = fake_dns({"public.test": [FAKE_PUBLIC_IP]})
    page = read_webpage("http://public.test/article", resolver=resolver)

    assert page.title.startswith("Feeding a Sourdough Starter")
    assert page.final_url == "http://public.test/article"
    assert resolver.asked == ["public.test"]  # type: ignore[attr-defined]
    assert network.attempts == [(FAKE_PUBLIC_IP, 80)]  # the checked IP, not the name
    assert public_site.requests[0].headers["Host"] == "public.test"


def test_each_redirect_hop_is_resolved_and_checked_again(
    public_site: _Server, network: Network
) -> None:
    resolver = fake_dns({"public.test": [FAKE_PUBLIC_IP]})
    page = read_webpage("http://public.test/redirect/2", resolver=resolver)

    assert page.final_url == "http://public.test/article"
    assert resolver.asked == ["public.test"] * 4  # type: ignore[attr-defined]
    assert network.attempts == [(FAKE_PUBLIC_IP, 80)] * 4


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/to-canary", WebErrorKind.BLOCKED_ADDRESS),
        ("/to-internal", WebErrorKind.BLOCKED_ADDRESS),
        ("/to-metadata", WebErrorKind.BLOCKED_ADDRESS),
        ("/to-decimal", WebErrorKind.BLOCKED_ADDRESS),
        ("/to-ipv6-mapped", WebErrorKind.BLOCKED_ADDRESS),
        ("/to-localhost", WebErrorKind.BLOCKED_ADDRESS),
        ("/to-file", WebErrorKind.BAD_SCHEME),
    ],
)
def test_redirects_into_the_local_network_are_refused(
    path: str, kind: WebErrorKind, public_site: _Server, canary: _Server, network: Network
) -> None:
    resolver = fake_dns({"public.test": [FAKE_PUBLIC_IP], "internal.test": ["127.0.0.1"]})
    expect_error(kind, lambda: read_webpage(f"http://public.test{path}", resolver=resolver))

    assert [seen.path for seen in public_site.requests] == [path]
    assert network.attempts == [(FAKE_PUBLIC_IP, 80)]  # the first hop only
    assert canary.connections == []


def test_dns_rebinding_cannot_move_the_connection(
    public_site: _Server, canary: _Server, network: Network
) -> None:
    """A name server that answers public first and 127.0.0.1 after: it is asked only once."""
    answers = iter([[FAKE_PUBLIC_IP], ["127.0.0.1"], ["127.0.0.1"]])
    asked: list[str] = []

    def rebinding(host: str) -> list[str]:
        asked.append(host)
        return next(answers)

    page = read_webpage("http://public.test/article", resolver=rebinding)

    assert page.title.startswith("Feeding a Sourdough Starter")
    assert asked == ["public.test"]
    assert network.attempts == [(FAKE_PUBLIC_IP, 80)]
    assert canary.connections == []


# --------------------------------------------------------------------------------------------
# HTTPS: connect to the checked IP, SNI and certificate for the original name
# --------------------------------------------------------------------------------------------

SUPPORT_DATA = Path(__file__).parents[1] / "support" / "data"  # the test servers' certificate
CERT = SUPPORT_DATA / "test-tls-cert.pem"  # self-signed for secure.example, valid until 2126
KEY = SUPPORT_DATA / "test-tls-key.pem"


@pytest.fixture
def tls_site(network: Network) -> Iterator[_Server]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(CERT, KEY)
    names: list[str | None] = []
    context.sni_callback = lambda sock, name, ctx: names.append(name)
    with serve(PageHandler, tls=context) as server:
        server.state["sni"] = names
        network.route(FAKE_PUBLIC_IP, 443, server.port)
        yield server


@pytest.fixture
def trust_test_cert(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        fetch_module, "_default_ssl_context", lambda: ssl.create_default_context(cafile=CERT)
    )


@pytest.mark.usefixtures("trust_test_cert")
def test_https_goes_to_the_checked_ip_with_sni_and_host_of_the_name(
    tls_site: _Server, network: Network
) -> None:
    resolver = fake_dns({"secure.example": [FAKE_PUBLIC_IP]})
    page = read_webpage("https://secure.example/article", resolver=resolver)

    assert page.title.startswith("Feeding a Sourdough Starter")
    assert page.final_url == "https://secure.example/article"
    assert network.attempts == [(FAKE_PUBLIC_IP, 443)]
    assert tls_site.state["sni"] == ["secure.example"]
    assert tls_site.requests[0].headers["Host"] == "secure.example"


@pytest.mark.usefixtures("trust_test_cert")
def test_https_certificate_for_another_name_is_refused(tls_site: _Server) -> None:
    resolver = fake_dns({"other.example": [FAKE_PUBLIC_IP]})
    error = expect_error(
        WebErrorKind.TLS, lambda: read_webpage("https://other.example/article", resolver=resolver)
    )
    assert "other.example" in str(error)
    assert tls_site.requests == []


@pytest.mark.usefixtures("trust_test_cert")
def test_https_to_an_ip_literal_checks_the_certificate_against_the_ip(tls_site: _Server) -> None:
    url = f"https://127.0.0.1:{tls_site.port}/article"
    error = expect_error(WebErrorKind.TLS, lambda: read_webpage(url, allow_private=True))
    assert "127.0.0.1" in str(error)
    assert tls_site.state["sni"] == [None]  # no SNI for an address
    assert tls_site.requests == []


def test_https_untrusted_certificate_is_refused(tls_site: _Server) -> None:
    resolver = fake_dns({"secure.example": [FAKE_PUBLIC_IP]})
    expect_error(
        WebErrorKind.TLS, lambda: read_webpage("https://secure.example/article", resolver=resolver)
    )
    assert tls_site.requests == []


# --------------------------------------------------------------------------------------------
# web_search: ddgs's DuckDuckGo engine against a saved results page served locally
# --------------------------------------------------------------------------------------------


class SearchHandler(_Handler):
    """Plays html.duckduckgo.com/html/: answers POSTs as the test's ``mode`` says."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        self.server.requests.append(Seen("POST", self.path, dict(self.headers), body))
        mode = self.server.state.get("mode", "results")
        if mode == "results":
            self.reply(200, (DATA / "ddg_results.html").read_bytes())
        elif mode == "empty":
            self.reply(200, (DATA / "ddg_no_results.html").read_bytes())
        elif mode == "challenge":
            self.reply(self.server.state["status"], (DATA / "ddg_challenge.html").read_bytes())
        elif mode == "slow":
            self.server.stop.wait(4)
        else:
            self.reply(int(mode), b"<h1>error</h1>")


@pytest.fixture
def ddg() -> Iterator[_Server]:
    with serve(SearchHandler) as server:
        yield server


def engine_for(server: _Server, timeout: int = 5) -> DuckDuckGoEngine:
    return DuckDuckGoEngine(search_url=f"http://127.0.0.1:{server.port}/html/", timeout=timeout)


def test_search_results_are_parsed_by_ddgs(ddg: _Server) -> None:
    results = web_search("sourdough  starter", max_results=10, engine=engine_for(ddg))

    assert [r.url for r in results] == [
        "https://bread.example/guides/starter",
        "https://wiki.example/wiki/Sourdough?section=starter&lang=en",  # unwrapped from /l/?uddg=
        "https://forum.example/t/starter-smells-like-nail-polish/8812",
        "https://bakery.example/blog/rye-starter",
    ]  # the ad (duckduckgo.com/y.js) is dropped by ddgs's own post-processing
    first = results[0]
    assert first.title == "How to Make a Sourdough Starter from Scratch & Keep It Alive"
    assert first.snippet.startswith("Mix equal weights of flour and water, cover loosely")
    assert all(r.title and r.snippet for r in results)

    (request,) = ddg.requests
    assert (request.method, request.path) == ("POST", "/html/")
    assert parse_qs(request.body.decode())["q"] == ["sourdough starter"]


@pytest.mark.parametrize(("asked", "got"), [(2, 2), (1, 1), (0, 1), (-3, 1), (5, 4), (50, 4)])
def test_search_respects_max_results(ddg: _Server, asked: int, got: int) -> None:
    results = web_search("sourdough starter", max_results=asked, engine=engine_for(ddg))
    assert len(results) == got


def test_search_with_no_hits_is_no_results(ddg: _Server) -> None:
    ddg.state["mode"] = "empty"
    error = expect_error(
        WebErrorKind.NO_RESULTS, lambda: web_search("qqqxxyzzy0815", engine=engine_for(ddg))
    )
    assert "qqqxxyzzy0815" in str(error)


@pytest.mark.parametrize("status", [429, 403, 202])
def test_search_rate_limit_statuses_are_rate_limited(ddg: _Server, status: int) -> None:
    ddg.state.update(mode="challenge", status=status)
    error = expect_error(
        WebErrorKind.RATE_LIMITED, lambda: web_search("sourdough", engine=engine_for(ddg))
    )
    assert error.status == status
    assert "Wait a few minutes" in str(error)


def test_search_challenge_page_with_200_is_rate_limited(ddg: _Server) -> None:
    ddg.state.update(mode="challenge", status=200)
    expect_error(WebErrorKind.RATE_LIMITED, lambda: web_search("sourdough", engine=engine_for(ddg)))


def test_search_server_error_is_an_http_status_error(ddg: _Server) -> None:
    ddg.state["mode"] = "503"
    error = expect_error(
        WebErrorKind.HTTP_STATUS, lambda: web_search("sourdough", engine=engine_for(ddg))
    )
    assert error.status == 503


def test_search_refuses_a_max_results_that_is_no_number(ddg: _Server) -> None:
    bad: Any = "many"
    expect_error(
        WebErrorKind.INVALID_QUERY,
        lambda: web_search("sourdough", max_results=bad, engine=engine_for(ddg)),
    )
    assert ddg.requests == []


@pytest.mark.parametrize("query", ["", "   \n\t", "x" * 501])
def test_search_refuses_empty_or_huge_queries(ddg: _Server, query: str) -> None:
    expect_error(WebErrorKind.INVALID_QUERY, lambda: web_search(query, engine=engine_for(ddg)))
    assert ddg.requests == []


def test_search_with_the_server_down_is_a_network_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    engine = DuckDuckGoEngine(search_url=f"http://127.0.0.1:{port}/html/", timeout=5)
    expect_error(WebErrorKind.NETWORK, lambda: web_search("sourdough", engine=engine))


def test_search_timeout_is_reported(ddg: _Server) -> None:
    ddg.state["mode"] = "slow"
    started = time.monotonic()
    expect_error(WebErrorKind.TIMEOUT, lambda: web_search("sourdough", engine=engine_for(ddg, 1)))
    assert time.monotonic() - started < 3.5


def test_default_engine_is_ddgs_duckduckgo_html_endpoint() -> None:
    from ddgs.engines import ENGINES

    engine = DuckDuckGoEngine()
    assert isinstance(engine, ENGINES["text"]["duckduckgo"])
    assert engine.search_url == "https://html.duckduckgo.com/html/"
    assert engine.search_method == "POST"


# --------------------------------------------------------------------------------------------
# The pieces on their own: address rules and text extraction
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    ["2130706433", "0x7f000001", "0x7f.1", "0177.0.0.1", "127.1", "0x7F.0.0.1", "127.0.0.1."],
)
def test_old_ipv4_spellings_mean_loopback(host: str) -> None:
    address = parse_ip_literal(host)
    assert address is not None
    assert str(address) == "127.0.0.1"
    assert blocked_reason(address) == "this computer (loopback)"


@pytest.mark.parametrize("host", ["example.com", "xn--caf-dma.example", "0x7f.example"])
def test_host_names_are_not_addresses(host: str) -> None:
    assert parse_ip_literal(host) is None


@pytest.mark.parametrize(
    "text",
    ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "64:ff9b::808:808", "::ffff:8.8.8.8"],
)
def test_public_addresses_pass(text: str) -> None:
    address = parse_ip_literal(text)
    assert address is not None
    assert blocked_reason(address) is None


@pytest.mark.parametrize(
    ("html", "title", "text"),
    [
        ("<title>T</title><h1>Heading</h1><p>a<br>b", "T", "Heading\na\nb"),
        ("<h1>Only  heading</h1><p>x", "Only heading", "Only heading\nx"),
        ("<p hidden>secret<p>visible", "", "visible"),
        ("<div>menu</div><main><p>inside</p></main><div>after</div>", "", "inside"),
        ("<p>&amp; &lt;tag&gt; &#x263A;&nbsp;ok</p>", "", "& <tag> \u263a ok"),
        ("<script>var s = '</p><p>not text';</script><p>text</p>", "", "text"),
        ("<ul><li>one<li>two</ul><table><tr><td>c1<td>c2</table>", "", "one\ntwo\nc1\nc2"),
        ("<p>stray</b></div> end tags</p>", "", "stray end tags"),  # nothing lost, as browsers
        ("", "", ""),
    ],
)
def test_html_to_text(html: str, title: str, text: str) -> None:
    assert html_to_text(html) == (title, text)
