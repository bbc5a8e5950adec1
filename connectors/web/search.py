"""web_search: DuckDuckGo results through ddgs's DuckDuckGo engine.

Why the engine and not ``DDGS().text(backend="duckduckgo")``: DDGS turns an empty page, a
rate-limit answer (DuckDuckGo sends 202 or 403 with a challenge page) and any other HTTP error
into the same ``DDGSException("No results found.")``, and it has no public way to change the
search URL. Driving ddgs's own ``Duckduckgo`` engine (the very class the "duckduckgo" backend
resolves to) keeps ddgs's request and its real HTML parsing, pins the one backend with no
fan-out to other engines, tells rate limiting apart from an empty answer, and lets tests point
``search_url`` at a local server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import primp
from ddgs.engines.duckduckgo import Duckduckgo
from ddgs.exceptions import DDGSException, TimeoutException
from ddgs.results import TextResult

from connectors.others_text import one_line

from .errors import WebError, WebErrorKind, shorten

MAX_RESULTS_LIMIT = 10  # one DuckDuckGo HTML page; more would need a second request
MAX_QUERY_CHARS = 500
# Statuses DuckDuckGo's HTML endpoint answers when it throttles a client (duckduckgo_search
# treated the same set as its RatelimitException).
RATE_LIMIT_STATUSES = frozenset({202, 301, 400, 403, 418, 429})
# Markers of the bot-challenge page that DuckDuckGo sometimes serves with a 200.
_CHALLENGE_MARKERS = ("anomaly-modal", "challenge-form", "captcha")


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One search hit. Untrusted: title and snippet are written by whoever runs the site."""

    title: str
    url: str
    snippet: str


class DuckDuckGoEngine(Duckduckgo):
    """ddgs's DuckDuckGo HTML engine with a settable search URL and the last HTTP status.

    ``search_url`` defaults to DuckDuckGo's own endpoint; tests pass the URL of a local server
    that serves a saved results page, and ddgs's real request and parsing code runs against it.
    Not thread-safe: use one instance per search (web_search does).
    """

    def __init__(self, search_url: str | None = None, *, timeout: int = 10) -> None:
        super().__init__(proxy=None, timeout=timeout)
        if search_url is not None:
            self.search_url = search_url
        self.last_status: int | None = None
        self.last_text: str = ""

    def request(self, *args: Any, **kwargs: Any) -> Any:
        """Same as ddgs's request, but remembers the status and body it threw away."""
        response = self.http_client.request(*args, **kwargs)
        self.last_status = response.status_code
        self.last_text = response.text if response.status_code == 200 else ""
        return self.last_text or None


def web_search(
    query: str, max_results: int = 5, *, engine: DuckDuckGoEngine | None = None
) -> list[SearchResult]:
    """Search the web with DuckDuckGo and return up to ``max_results`` (1 to 10) hits.

    ``engine`` is for tests (a DuckDuckGoEngine pointed at a local server). Raises WebError:
    "rate_limited" when DuckDuckGo throttles us, "no_results" when it answers with none.
    """
    query = " ".join(query.split())
    if not query:
        raise WebError(WebErrorKind.INVALID_QUERY, "The search is empty: say what to search for.")
    if len(query) > MAX_QUERY_CHARS:
        raise WebError(
            WebErrorKind.INVALID_QUERY,
            f"The search is too long ({len(query)} characters, at most {MAX_QUERY_CHARS}). "
            "Use a few key words instead.",
        )
    try:
        limit = max(1, min(int(max_results), MAX_RESULTS_LIMIT))
    except (TypeError, ValueError) as exc:
        raise WebError(
            WebErrorKind.INVALID_QUERY,
            f"max_results must be a whole number from 1 to {MAX_RESULTS_LIMIT}.",
        ) from exc
    engine = engine or DuckDuckGoEngine()
    try:
        raw = engine.search(query)
    except TimeoutException as exc:
        raise WebError(
            WebErrorKind.TIMEOUT,
            "The search engine took too long to answer. Try again in a moment.",
        ) from exc
    except DDGSException as exc:
        raise _request_error(exc) from exc

    status = engine.last_status
    if raw is None and status is not None and status != 200:
        if status in RATE_LIMIT_STATUSES:
            raise _rate_limited(status)
        raise WebError(
            WebErrorKind.HTTP_STATUS,
            f"The search engine answered with an error ({status}). Try again later.",
            status=status,
        )
    results = _clean(raw or [], limit)
    if not results:
        page = engine.last_text.lower()
        if any(marker in page for marker in _CHALLENGE_MARKERS):
            raise _rate_limited(status)
        raise WebError(
            WebErrorKind.NO_RESULTS,
            f"The search for {shorten(query, 80)!r} found nothing. Try other words. (If every "
            "search finds nothing, DuckDuckGo may be limiting requests: wait a few minutes.)",
        )
    return results


def _clean(raw: list[TextResult], limit: int) -> list[SearchResult]:
    """Keep real web results: an http(s) address and a title, no duplicates, in page order."""
    results: list[SearchResult] = []
    seen: set[str] = set()
    for item in raw:
        url = _unwrap_redirect(item.href)
        if not one_line(item.title) or urlsplit(url).scheme not in ("http", "https") or url in seen:
            continue
        seen.add(url)
        # Titles and snippets are the sites' words: read as a reader sees them.
        title, snippet = one_line(item.title), one_line(item.body)
        results.append(SearchResult(title=title, url=url, snippet=snippet))
        if len(results) >= limit:
            break
    return results


def _unwrap_redirect(href: str) -> str:
    """DuckDuckGo may wrap a hit as //duckduckgo.com/l/?uddg=<target>&rut=...: keep the target.

    ddgs has already percent-decoded the whole href, so the target runs up to "&rut=".
    """
    if href.startswith("//"):
        href = "https:" + href
    parts = urlsplit(href)
    if parts.hostname in ("duckduckgo.com", "html.duckduckgo.com") and parts.path == "/l/":
        target = href.split("uddg=", 1)[-1].split("&rut=", 1)[0]
        return unquote(target)
    return href


def _rate_limited(status: int | None) -> WebError:
    return WebError(
        WebErrorKind.RATE_LIMITED,
        "DuckDuckGo is limiting searches from this computer for now. Wait a few minutes and "
        "try again.",
        status=status,
    )


def _request_error(exc: DDGSException) -> WebError:
    """Map ddgs's wrapped transport errors to kinds the user can act on."""
    cause = exc.__cause__
    if isinstance(cause, primp.TimeoutError):
        return WebError(
            WebErrorKind.TIMEOUT, "The search engine took too long to answer. Try again later."
        )
    if isinstance(cause, primp.DNSError):
        return WebError(
            WebErrorKind.UNKNOWN_HOST,
            "Could not find the search engine's server. Check the internet connection.",
        )
    if isinstance(cause, primp.ConnectError):
        return WebError(
            WebErrorKind.NETWORK,
            "Could not connect to the search engine. Check the internet connection and try again.",
        )
    return WebError(
        WebErrorKind.NETWORK,
        f"The search failed ({shorten(str(exc), 160)}). Check the internet connection and try "
        "again.",
    )
