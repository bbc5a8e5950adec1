"""A website opened by its name, end to end: a scripted model picks the intent and writes what
it knows; code checks the address against the name, searches a saved DuckDuckGo results page
served on 127.0.0.1 where the model's address is not the site's, and hands the address to a
recording `xdg-open` only after the dialog showed it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.agent.intents.language import asks_to_open_a_site, site_named
from app.agent.intents.router import IntentRouter
from app.agent.intents.web_steps import names_the_site, written_address
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.scripted import ScriptedBackend
from connectors.web import DuckDuckGoEngine
from tests.agent.test_intents import Answers
from tests.agent.test_web_agent import _Handler
from tests.agent.test_web_agent import server as results_server
from tests.scripting import call
from tests.support.opener import recording_opener

__all__ = ["results_server"]  # the web tests' local results page, shared

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xdg-open")

# Nothing listens on the discard port: a search there fails as offline.
_OFFLINE = DuckDuckGoEngine(search_url="http://127.0.0.1:9/html/", timeout=2)


@pytest.fixture
def opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return recording_opener(tmp_path, monkeypatch)


def _agent(turns: list[str], answers: Answers, engine: DuckDuckGoEngine) -> Agent:
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
    agent = Agent(backend, build_registry(search_engine=engine), confirmer=answers)
    agent.front = IntentRouter()
    return agent


@pytest.mark.parametrize(
    ("request_", "taken_for", "site", "known", "url"),
    [("ábreme la web de la BVG porfa, que quiero mirar los horarios del metro",
      call("search_web", query="horarios del metro"), "BVG", "www.bvg.de", "https://www.bvg.de"),
     ("open the BBC website", call("open_file", which="BBC website"), "BBC",
      "https://www.bbc.co.uk/", "https://www.bbc.co.uk"),
     ("Öffne mir bitte die Seite der Deutschen Bahn", call("just_answer"), "Deutschen Bahn",
      "bahn.de", "https://bahn.de")],
)  # fmt: skip
def test_a_website_named_is_opened_at_the_address_the_model_knows_for_its_name(
    opened: Path, request_: str, taken_for: str, site: str, known: str, url: str
) -> None:
    """Taken for a search, a file or the model's own answer: the site is opened, at the
    address the model knows for the name the request writes, its name being the site's;
    nothing is searched."""
    answers = Answers()
    agent = _agent([taken_for, known], answers, _OFFLINE)  # the site's name read by code
    report = agent.run_turn(Conversation(), request_)
    backend = agent.backend
    assert isinstance(backend, ScriptedBackend)
    assert backend.requests[-1].messages[-1]["content"] == site  # what the model was asked
    assert [(d.tool, d.arguments) for d in answers.seen] == [("open_item", {"url": url})]
    assert opened.read_text().split() == [url], report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for", "url"),
    [("ábreme la web de la BVG porfa, que quiero mirar los horarios del metro",
      call("show_folder"), "https://www.bvg.de"),
     ("Öffne mir bitte die Seite der Deutschen Bahn", call("search_web", query=""),
      "https://bahn.de")],
)  # fmt: skip
def test_a_site_the_model_leaves_unnamed_is_the_one_the_request_names(
    opened: Path, request_: str, taken_for: str, url: str
) -> None:
    """The model named no site: the name beside the request's word for it is the site's
    ("la web de la BVG": "BVG"), and nothing is asked."""
    answers = Answers()
    known = url.split("://")[1]
    agent = _agent([taken_for, known], answers, _OFFLINE)
    report = agent.run_turn(Conversation(), request_)
    assert opened.read_text().split() == [url], report.answer


def test_an_address_whose_name_is_not_the_sites_is_not_opened_the_first_result_named_so_is(
    opened: Path, results_server: object
) -> None:
    """The model's address names another site ("www.bakery.example" for "Bread Example"):
    the web is searched (the dialog shows the search), and the first result whose name is
    the site's is opened."""
    port = results_server.server_address[1]  # type: ignore[attr-defined]
    engine = DuckDuckGoEngine(search_url=f"http://127.0.0.1:{port}/html/", timeout=5)
    answers = Answers()
    agent = _agent([call("open_website", site="Bread Example"), "www.bakery.example"], answers,
                   engine)  # fmt: skip
    agent.run_turn(Conversation(), "open the Bread Example website")
    assert [d.tool for d in answers.seen] == ["web_search", "open_item"]
    assert _Handler.requests == ["/html/"]
    assert opened.read_text().split() == ["https://bread.example"]


def test_a_site_no_address_is_known_for_is_asked_and_the_answer_opened(opened: Path) -> None:
    """Offline, with the model's address another site's: nothing is opened, the address is
    asked for; the user's answer is opened."""
    answers = Answers()
    agent = _agent([call("open_website", site="Kiezbuch"), "www.amazon.de"], answers, _OFFLINE)
    conversation = Conversation()
    first = agent.run_turn(conversation, "open the Kiezbuch website")
    assert first.stop_reason == "asked" and "Kiezbuch" in first.answer
    assert not opened.exists()
    agent.run_turn(conversation, "kiezbuch.de")
    assert opened.read_text().split() == ["https://kiezbuch.de"]


@pytest.mark.parametrize(
    ("host", "site", "named"),
    [("www.bvg.de", "la BVG", True),
     ("www.bbc.co.uk", "the BBC", True),
     ("bahn.de", "Deutsche Bahn", True),
     ("www.db.de", "die Deutsche Bahn", True),  # initials
     ("www.sncf-connect.com", "le site de la SNCF", True),
     ("www.google.com", "BVG", False),
     ("bvg.example-phish.com", "BVG", False),  # the name is the label before the ending
     ("www.de", "BVG", False)],
)  # fmt: skip
def test_an_address_is_the_sites_when_its_name_holds_a_word_of_it_or_its_initials(
    host: str, site: str, named: bool
) -> None:
    assert names_the_site(host, site) is named


@pytest.mark.parametrize(
    ("text", "url"),
    [("open bvg.de please", "https://bvg.de"),
     ("geh auf https://www.bahn.de/buchung", "https://www.bahn.de"),
     ("http://example.org", "http://example.org"),
     ("open rechnung.pdf", None),  # a file's name
     ("write to tom@bvg.de", None),  # an email's address
     ("the BVG", None)],
)  # fmt: skip
def test_a_written_address_is_its_host_and_a_file_or_email_is_none(
    text: str, url: str | None
) -> None:
    assert written_address(text) == url


@pytest.mark.parametrize(
    ("text", "name"),
    [("ábreme la web de la BVG porfa, que quiero mirar los horarios del metro", "BVG"),
     ("open the BBC website", "BBC"),
     ("pull up amazon's homepage", "amazon"),
     ("Öffne mir bitte die Seite der Deutschen Bahn", "Deutschen Bahn"),
     ("ouvre le site de la SNCF", "SNCF"),
     ("open my CV", "")],
)  # fmt: skip
def test_the_sites_name_is_read_beside_the_word_for_a_site(text: str, name: str) -> None:
    assert site_named(text) == name


@pytest.mark.parametrize(
    ("text", "asks"),
    [("ábreme la web de la BVG porfa", True),
     ("pull up amazon's homepage", True),
     ("ouvre le site de la SNCF", True),
     ("abre la página de Renfe", True),
     ("öffne Seite 3 von bericht.pdf", False),
     ("open my CV", False),
     ("search the web for trains", False)],
)  # fmt: skip
def test_asking_to_open_a_site_is_told_from_a_file_or_a_search(text: str, asks: bool) -> None:
    assert asks_to_open_a_site(text) is asks
