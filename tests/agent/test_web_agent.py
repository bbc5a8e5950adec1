"""The web tools through the agent and the gate: a search runs against a saved DuckDuckGo
results page served on 127.0.0.1 (ddgs's real parser), only after the user saw the query;
a fetch of a local address is refused by the gate and never reaches the server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest
from app.agent.turn.loop import Agent
from connectors.web import DuckDuckGoEngine
from tests.scripting import call, script

RESULTS = (Path(__file__).parents[1] / "connectors" / "data" / "ddg_results.html").read_bytes()


class _Handler(BaseHTTPRequestHandler):
    requests: ClassVar[list[str]] = []

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _answer(self) -> None:
        type(self).requests.append(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(RESULTS)))
        self.end_headers()
        self.wfile.write(RESULTS)

    do_GET = do_POST = _answer


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    _Handler.requests = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def test_search_after_confirmation_then_a_local_fetch_is_refused(
    server: ThreadingHTTPServer,
) -> None:
    port = server.server_address[1]
    engine = DuckDuckGoEngine(search_url=f"http://127.0.0.1:{port}/html/", timeout=5)
    shown: list[ConfirmationRequest] = []

    def approve(request: ConfirmationRequest) -> ConfirmationAnswer:
        shown.append(request)
        return ConfirmationAnswer.approve()

    turns = [
        call("web_search", query="train times Lyon"),
        call("read_webpage", url=f"http://127.0.0.1:{port}/secret?d=notes"),
        "Here is what I found.",
    ]
    agent = Agent(script(*turns), build_registry(search_engine=engine), confirmer=approve)
    report = agent.run_turn(Conversation(), "Search the web for train times to Lyon")
    search, fetch = report.calls
    assert (search.decision, search.answer, search.status) == ("confirm", "approved", "ok")
    assert shown[0].preview == "Search the web (DuckDuckGo) for: train times Lyon"
    assert search.result and all({"title", "url", "snippet"} <= set(r) for r in search.result)
    assert agent.context.tainted  # search results are other people's text
    assert (fetch.decision, fetch.status) == ("deny", "refused")
    assert len(shown) == 1  # the refused fetch never reached a dialog
    assert _Handler.requests == ["/html/"]  # one search, no fetch
