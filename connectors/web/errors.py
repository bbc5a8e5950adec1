"""One error type for the web connector, with a kind the caller can branch on.

The message is written for the person using Hearth (what failed, what to do); the kind is for
code (the tool layer, the audit log, tests) so nobody has to parse the wording.
"""

from __future__ import annotations

from enum import StrEnum


class WebErrorKind(StrEnum):
    """Why a search or a page read failed."""

    BAD_URL = "bad_url"  # not a web address we can read (malformed, user name/password, ...)
    BAD_SCHEME = "bad_scheme"  # anything but http:// and https://
    BLOCKED_ADDRESS = "blocked_address"  # loopback, private, link-local, metadata, ...
    UNKNOWN_HOST = "unknown_host"  # the name does not resolve
    NETWORK = "network"  # no connection (network down, refused, reset)
    TLS = "tls"  # certificate or TLS handshake failure
    TIMEOUT = "timeout"  # the total time limit ran out
    TOO_LARGE = "too_large"  # a response part we cannot cut (headers) is too big
    TOO_MANY_REDIRECTS = "too_many_redirects"
    REDIRECT_NOT_COVERED = "redirect_not_covered"  # a redirect the caller's check refused
    HTTP_STATUS = "http_status"  # 4xx / 5xx and other statuses we do not follow
    NOT_HTML = "not_html"  # a content type that is not a readable page
    BAD_RESPONSE = "bad_response"  # a malformed or undecodable HTTP response
    INVALID_QUERY = "invalid_query"  # empty or absurd search query
    RATE_LIMITED = "rate_limited"  # the search engine refused us for now
    NO_RESULTS = "no_results"  # the search engine answered with nothing


class WebError(Exception):
    """A search or page read that failed, with a message meant for the user."""

    def __init__(self, kind: WebErrorKind, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status  # the HTTP status, when there was one

    def __repr__(self) -> str:
        return f"WebError({self.kind.value!r}, {self.message!r})"


def shorten(text: str, limit: int = 120) -> str:
    """Quote a URL in a message without letting a page-supplied address flood the dialog."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
