"""The web connector: search the web and read one page, as plain functions with typed results.

No Qt, no model, no policy: the gate decides whether a call may run; this code makes sure a
call that runs only ever reaches public web sites and returns bounded, readable text.
"""

from connectors.addresses import Resolver, blocked_reason, parse_ip_literal, system_resolver

from .errors import WebError, WebErrorKind
from .fetch import USER_AGENT, WebPage, public_address, read_webpage
from .search import DuckDuckGoEngine, SearchResult, web_search

__all__ = [
    "USER_AGENT",
    "DuckDuckGoEngine",
    "Resolver",
    "SearchResult",
    "WebError",
    "WebErrorKind",
    "WebPage",
    "blocked_reason",
    "parse_ip_literal",
    "public_address",
    "read_webpage",
    "system_resolver",
    "web_search",
]
