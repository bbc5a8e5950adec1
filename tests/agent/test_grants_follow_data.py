"""Standing grants after private reads, and host grants as narrow as the user understood them
(issue #16). Several conversations on one data folder with a restart between them, grants
stored the way the dialog stores them, a calendar account with its password in a real Secret
Service, and every byte of network traffic on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from app.agent.gate.permissions import StoredPermissions
from app.agent.gate.policy import ContextState
from app.agent.services.accounts import load_accounts
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import Answer, ConfirmationAnswer, ConfirmationRequest, deny_everything
from app.agent.turn.loop import Agent, TurnReport
from app.store.accounts import AccountSettings, AccountStore
from app.store.database import Database
from app.store.permissions import PermissionStore
from connectors.credentials import Credentials
from connectors.web import DuckDuckGoEngine
from connectors.web import fetch as fetch_module
from tests.scripting import call, script
from tests.support.radicale_server import RadicaleServer
from tests.test_ask_accounts import PASSWORD as CALENDAR_PASSWORD
from tests.test_ask_accounts import radicale  # noqa: F401 (a fixture)

RESULTS = (Path(__file__).parents[1] / "connectors" / "data" / "ddg_results.html").read_bytes()
PASSWORD = "Tr0ub4dor&3"
NEWS_IP, OTHER_IP = "93.184.215.14", "93.184.215.15"  # routed to local servers below


@dataclass
class Site:
    """An HTTP server on 127.0.0.1 that records every request and answers from `pages`."""

    port: int
    hits: list[str] = field(default_factory=list)
    pages: dict[str, tuple[int, dict[str, str], bytes]] = field(default_factory=dict)


@pytest.fixture
def sites() -> Iterator[Callable[[], Site]]:
    servers: list[ThreadingHTTPServer] = []

    def start() -> Site:
        site = Site(0)

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                site.hits.append(self.path)
                status, headers, body = site.pages.get(
                    self.path.split("?")[0], (200, {"Content-Type": "text/html"}, RESULTS)
                )
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_POST = do_GET

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        site.port = server.server_address[1]
        return site

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """No name lookup leaves this machine: anything but loopback is recorded and refused."""
    tried: list[str] = []
    real = socket.getaddrinfo

    def jailed(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host in ("127.0.0.1", b"127.0.0.1", "localhost"):
            return real(host, *args, **kwargs)
        tried.append(str(host))
        raise socket.gaierror(socket.EAI_NONAME, "blocked by the test")

    monkeypatch.setattr(socket, "getaddrinfo", jailed)
    return tried


def always(request: ConfirmationRequest) -> ConfirmationAnswer:
    """The user ticks "always" in the dialog (so the grant is stored as the dialog stores it)."""
    assert request.standing_offer, request
    return ConfirmationAnswer(Answer.APPROVED, always=True)


def approve(request: ConfirmationRequest) -> ConfirmationAnswer:
    return ConfirmationAnswer.approve()


@dataclass
class Home:
    """One data folder; each `conversation` opens the database afresh (a restart)."""

    data: Path
    search: Site
    calendar: bool = False
    asked: list[ConfirmationRequest] = field(default_factory=list)

    def conversation(
        self, turns: list[str], text: str, confirmer: Callable[..., ConfirmationAnswer]
    ) -> TurnReport:
        database = Database.open(self.data)
        try:
            accounts = load_accounts(database) if self.calendar else None
            engine = DuckDuckGoEngine(search_url=f"http://127.0.0.1:{self.search.port}/html/")
            registry = build_registry(
                data=database,
                calendar=accounts.calendar if accounts else None,
                search_engine=engine,
            )

            def confirm(request: ConfirmationRequest) -> ConfirmationAnswer:
                self.asked.append(request)
                return confirmer(request)

            agent = Agent(
                script(*turns),
                registry,
                context=ContextState(),
                confirmer=confirm,
                audit=database.audit_log(),
                permissions=StoredPermissions(PermissionStore(database)),
            )
            return agent.run_turn(Conversation(), text)
        finally:
            database.close()


def outcome(report: TurnReport) -> list[tuple[str, str, str | None, str]]:
    return [(c.name, c.decision, c.answer, c.status) for c in report.calls]


def grant_web_search(home: Home) -> None:
    """A clean conversation where the user ticks "Always allow web_search"."""
    report = home.conversation(
        [call("web_search", query="weather in Lyon"), "Sunny."], "Weather in Lyon?", always
    )
    assert outcome(report) == [("web_search", "confirm", "approved", "ok")]
    database = Database.open(home.data)
    assert [(g.tool, g.scope) for g in PermissionStore(database).grants()] == [("web_search", None)]
    database.close()
    home.search.hits.clear()


# -- 2. private data does not leave under a standing grant ---------------------------------------


@pytest.mark.parametrize(
    "spelling",
    ["Tr0ub4dor 3", "tr0ub4dor.3 forum", "VHIwdWI0ZG9yJjM=", "Ge0ho4qbe&3"],
    ids=["spaced", "dotted", "base64", "rot13"],
)
def test_a_recalled_password_does_not_leave_under_a_search_grant(
    tmp_path: Path, sites: Callable[[], Site], lookups: list[str], spelling: str
) -> None:
    home = Home(tmp_path, sites())
    grant_web_search(home)
    saved = home.conversation(
        [call("remember", fact=f"bank password: {PASSWORD}"), "Saved."],
        f"Remember my bank password is {PASSWORD}",
        approve,  # the detectors see a password: the user saw and approved the memory
    )
    assert outcome(saved) == [("remember", "confirm", "approved", "ok")]

    # A later conversation, clean: a fooled model recalls it and searches with it.
    leak = home.conversation(
        [call("recall", query="bank"), call("web_search", query=spelling), "Done."],
        "What do I know about my bank?",
        deny_everything,
    )
    assert outcome(leak) == [
        ("recall", "allow", None, "ok"),
        ("web_search", "confirm", "denied", "refused"),
    ]
    reasons = " ".join(leak.calls[1].reasons)
    assert "this conversation has read your memories" in reasons
    assert "private data detected" in reasons  # the token finding, whatever the spelling
    assert PASSWORD not in reasons
    assert home.search.hits == [] and lookups == []
    # The activity list keeps the refused query hidden: it carries private data.
    database = Database.open(home.data)
    [row] = [
        r for r in database.audit_log().recent() if r.tool == "web_search" and r.answer == "denied"
    ]
    database.close()
    assert json.loads(row.arguments_json) == {"query": "[redacted]"}


def test_splitting_over_conversations_asks_every_time(
    tmp_path: Path, sites: Callable[[], Site], lookups: list[str]
) -> None:
    home = Home(tmp_path, sites())
    grant_web_search(home)
    home.conversation(
        [call("remember", fact="locker combination 90-14-62"), "Saved."],
        "Remember my locker combination is 90-14-62",
        approve,
    )
    for half in ("90 14", "62"):  # too short for any detector, and no token of its own
        report = home.conversation(
            [call("recall", query="locker"), call("web_search", query=f"lockers {half}"), "ok"],
            "Anything about my locker?",
            deny_everything,
        )
        assert outcome(report)[1] == ("web_search", "confirm", "denied", "refused")
    assert home.search.hits == [] and lookups == []


def test_a_clean_conversation_still_uses_the_grant(
    tmp_path: Path, sites: Callable[[], Site], lookups: list[str]
) -> None:
    """The control: a grant still covers what it was given for."""
    home = Home(tmp_path, sites())
    grant_web_search(home)
    both = "\n".join(
        [call("web_search", query="trains to Lyon"), call("web_search", query="hotels")]
    )
    report = home.conversation(
        [both, "Found some."], "Trains to Lyon and a hotel?", deny_everything
    )
    # Two searches in one step are no batch of changes: the grant covers the first; its
    # results are other people's text, so the second asks like any call after them.
    assert outcome(report) == [
        ("web_search", "allow", None, "ok"),
        ("web_search", "confirm", "denied", "refused"),
    ]
    assert len(home.search.hits) == 1 and lookups == []


@pytest.mark.usefixtures("secret_service")  # the calendar password is in a real keyring
def test_a_calendar_read_makes_a_granted_search_ask(
    tmp_path: Path, sites: Callable[[], Site], request: pytest.FixtureRequest
) -> None:
    """find_free_time reads the user's calendar without anyone else's text in it: private,
    not untrusted. Before issue #16 a search grant covered the next search regardless."""
    server: RadicaleServer = request.getfixturevalue("radicale")
    data = tmp_path / "data"
    data.mkdir()
    database = Database.open(data)
    account = AccountStore(database).add(
        AccountSettings(kind="calendar", name="Family", username="alice", calendar_url=server.url)
    )
    database.close()
    Credentials().store(account.secret_ref, CALENDAR_PASSWORD)
    home = Home(data, sites(), calendar=True)
    grant_web_search(home)
    report = home.conversation(
        [
            call(
                "find_free_time",
                start="2030-01-07T09:00",
                end="2030-01-07T17:00",
                **{"duration_minutes": 60},
            ),
            call("web_search", query="free 2030-01-07 09:00"),
            "Done.",
        ],
        "When am I free on Monday?",
        deny_everything,
    )
    assert outcome(report) == [
        ("find_free_time", "allow", None, "ok"),
        ("web_search", "confirm", "denied", "refused"),
    ]
    assert "your calendar" in " ".join(report.calls[1].reasons)
    assert home.search.hits == []


# -- 3. a host grant is that host, and redirects are checked against it ----------------------


@pytest.fixture
def routed(monkeypatch: pytest.MonkeyPatch, sites: Callable[[], Site]) -> tuple[Site, Site]:
    """news.example and other.example, each a local server behind a fake public address."""
    news, other = sites(), sites()
    routes = {NEWS_IP: news.port, OTHER_IP: other.port}
    real = socket.create_connection

    def connect(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        host, _port = address
        if host not in routes:
            raise OSError(f"the test allows no connection to {host}")
        return real(("127.0.0.1", routes[host]), *args, **kwargs)

    names = {"news.example": [NEWS_IP], "other.example": [OTHER_IP]}

    def resolve(host: str) -> list[str]:
        if host not in names:
            raise socket.gaierror(socket.EAI_NONAME, "blocked by the test")
        return names[host]

    monkeypatch.setattr(fetch_module, "_create_connection", connect)
    monkeypatch.setattr(fetch_module, "system_resolver", resolve)
    page = b"<html><head><title>News</title></head><body><p>Today's news.</p></body></html>"
    news.pages["/today"] = (200, {"Content-Type": "text/html"}, page)
    news.pages["/moved"] = (302, {"Location": "http://news.example/today"}, b"")
    news.pages["/out"] = (302, {"Location": "http://other.example/collect?d=notes"}, b"")
    news.pages["/sub"] = (302, {"Location": "http://www.news.example/today"}, b"")
    return news, other


def grant_news(home: Home) -> None:
    report = home.conversation(
        [call("read_webpage", url="http://news.example/today"), "Read."],
        "Read http://news.example/today",
        always,
    )
    assert outcome(report) == [("read_webpage", "confirm", "approved", "ok")]
    database = Database.open(home.data)
    grants = [(g.tool, g.scope) for g in PermissionStore(database).grants()]
    database.close()
    assert grants == [("read_webpage", "news.example")]


@pytest.mark.parametrize("path", ["/out", "/sub"])
def test_a_granted_read_does_not_follow_a_redirect_off_its_host(
    tmp_path: Path, sites: Callable[[], Site], routed: tuple[Site, Site], path: str
) -> None:
    news, other = routed
    home = Home(tmp_path, sites())
    grant_news(home)
    report = home.conversation(
        [call("read_webpage", url=f"http://news.example{path}"), "Read."],
        "What's new?",
        deny_everything,
    )
    [read] = report.calls
    assert (read.decision, read.status) == ("allow", "error")
    assert "did not follow" in str(read.result)
    assert other.hits == [] and news.hits.count("/today") == 1  # only the granting read


def test_a_granted_read_follows_a_redirect_on_its_own_host(
    tmp_path: Path, sites: Callable[[], Site], routed: tuple[Site, Site]
) -> None:
    _news, _other = routed
    home = Home(tmp_path, sites())
    grant_news(home)
    report = home.conversation(
        [call("read_webpage", url="http://news.example/moved"), "Read."],
        "What's new?",
        deny_everything,
    )
    assert outcome(report) == [("read_webpage", "allow", None, "ok")]
    assert report.calls[0].result["url"] == "http://news.example/today"


@pytest.mark.parametrize(
    "url",
    [
        "http://www.news.example/today",  # a subdomain
        "http://news.example/today?d=notes",  # a query string
        "http://news.example:8080/today",  # another port
    ],
)
def test_a_host_grant_covers_only_that_host_without_a_query(
    tmp_path: Path, sites: Callable[[], Site], routed: tuple[Site, Site], url: str
) -> None:
    news, _other = routed
    home = Home(tmp_path, sites())
    grant_news(home)
    report = home.conversation([call("read_webpage", url=url), "Read."], "News?", deny_everything)
    assert outcome(report) == [("read_webpage", "confirm", "denied", "refused")]
    assert news.hits == ["/today"]  # only the granting read


def test_a_read_the_user_approved_follows_its_redirect(
    tmp_path: Path, sites: Callable[[], Site], routed: tuple[Site, Site]
) -> None:
    """Redirect checks apply to what a grant let through unseen; an address the user saw and
    approved in the dialog is followed as before."""
    _news, other = routed
    home = Home(tmp_path, sites())
    report = home.conversation(
        [call("read_webpage", url="http://news.example/out"), "Read."],
        "Read http://news.example/out",
        approve,
    )
    assert outcome(report) == [("read_webpage", "confirm", "approved", "ok")]
    assert other.hits == ["/collect?d=notes"]
