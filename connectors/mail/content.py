"""Turning raw messages into typed, readable, safe results.

Everything in an email is untrusted: the text goes to a small model as data, the headers to a
confirmation dialog. So:

- HTML is sanitised with nh3 (Rust ammonia) before it is turned into text: scripts, styles,
  images (remote images are tracking pixels), frames, forms and event handlers are removed and
  only http/https/mailto links survive. Nothing here fetches anything: no URL in a message is
  ever requested, not even a ``cid:`` or relative one.
- Text hidden from a human reader (``display:none``, ``font-size:0``, ``opacity:0``, ``hidden``,
  ``aria-hidden``...) is dropped: it is a favourite place for prompt injections. Link
  targets are shown after the link text, so the user and the gate see where a link really
  goes.
- Control characters, bidirectional overrides, invisible "tag" characters and every other
  character a reader never sees (used to smuggle instructions past a reader) are removed
  from text and headers. The rules are the ones every connector uses for other people's
  text (``connectors.others_text``).
- Attachments are only listed (name, type, size); their contents are never parsed, opened or
  written anywhere. File names are cleaned for display (no path separators, no bidi tricks).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from html.parser import HTMLParser

import nh3

from connectors.others_text import HIDING_STYLE_PROPERTIES, hidden_element, one_line, visible_text

MAX_TEXT_CHARS = 100_000  # a small model cannot use more; the caller cuts further
SNIPPET_CHARS = 200
MAX_HEADER_CHARS = 500

_MESSAGE_ID = re.compile(r"<[^<>\s]{1,500}>")
_SPECIALS = re.compile(r'[()<>@,;:\\".\[\]]')


@dataclass(frozen=True, slots=True)
class Attachment:
    """An attachment as listed to the user: never opened, never saved by this connector."""

    filename: str  # cleaned for display; the sender chose it
    content_type: str
    size: int  # bytes, decoded


@dataclass(frozen=True, slots=True)
class EmailSummary:
    """One line of a mail list."""

    email_id: str
    folder: str
    sender: str
    to: tuple[str, ...]
    subject: str
    date: datetime | None  # timezone-aware
    unread: bool
    has_attachments: bool
    snippet: str


@dataclass(frozen=True, slots=True)
class Email:
    """A whole email as text. Untrusted: what an email says is data, never instructions."""

    email_id: str
    folder: str
    sender: str
    reply_to: tuple[str, ...]
    to: tuple[str, ...]
    cc: tuple[str, ...]
    subject: str
    date: datetime | None
    message_id: str  # "" when the message has none
    references: tuple[str, ...]
    text: str
    attachments: tuple[Attachment, ...]
    unread: bool  # as it was before reading (reading does not mark it read by default)
    truncated: bool  # the text (or a huge message) was cut


def parse_message(raw: bytes) -> EmailMessage:
    """Parse raw RFC 5322 bytes; the modern policy decodes headers and tolerates defects."""
    message = BytesParser(policy=policy.default).parsebytes(raw)
    assert isinstance(message, EmailMessage)
    return message


def clean_text(text: str) -> str:
    """Drop control and invisible characters, normalise line ends, squeeze blank lines."""
    return visible_text(text)


def clean_header(value: object, limit: int = MAX_HEADER_CHARS) -> str:
    """One header value as a single safe line."""
    return one_line(value, limit)


def header(message: Message, name: str) -> str:
    """A header's decoded value; malformed headers yield their raw text instead of failing."""
    try:
        value: object = message.get(name)
    except Exception:  # the email package raises odd errors on some malformed headers
        wanted = name.lower()
        value = next((raw for key, raw in message.raw_items() if key.lower() == wanted), "")
    return clean_header(value)


def addresses(message: Message, *names: str) -> tuple[str, ...]:
    """The addresses in the given headers as "Name <addr>" (or "addr") strings."""
    values = [header(message, name) for name in names]
    found: list[str] = []
    for display, address in getaddresses([value for value in values if value]):
        if not address:
            continue
        display = clean_header(display, 100)
        if not display or display == address:
            found.append(address)
            continue
        if _SPECIALS.search(display):  # quote, so the string parses back as one address
            display = '"' + display.replace("\\", "\\\\").replace('"', '\\"') + '"'
        found.append(f"{display} <{address}>")
    return tuple(found)


def message_date(message: Message, fallback: datetime | None = None) -> datetime | None:
    """The Date header as an aware datetime; the server's arrival time if it is missing."""
    value = header(message, "Date")
    parsed: datetime | None = None
    if value:
        try:
            parsed = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            parsed = None
    parsed = parsed or fallback
    if parsed is not None and parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed


def message_ids(value: str) -> tuple[str, ...]:
    """The <id@host> tokens in a Message-ID / References / In-Reply-To value."""
    return tuple(_MESSAGE_ID.findall(value))


def body_parts(message: EmailMessage) -> tuple[EmailMessage | None, EmailMessage | None]:
    """The message's plain-text and HTML body parts (either may be None)."""
    try:
        plain = message.get_body(preferencelist=("plain",))
        html = message.get_body(preferencelist=("html",))
    except Exception:  # malformed MIME structure: treat as no readable body
        return None, None
    return (
        plain if isinstance(plain, EmailMessage) else None,
        html if isinstance(html, EmailMessage) else None,
    )


def body_text(message: EmailMessage) -> str:
    """Readable text: from text/plain if there is one, else from sanitised HTML."""
    plain, html = body_parts(message)
    if plain is not None:
        text = clean_text(_part_text(plain))
        if text or html is None:
            return text
    if html is not None:
        return html_to_text(_part_text(html))
    return ""


def _part_text(part: EmailMessage) -> str:
    """Decode a text part, tolerating unknown charsets and broken transfer encodings."""
    try:
        content = part.get_content()
        if isinstance(content, str):
            return content
    except (LookupError, UnicodeError, ValueError, AssertionError, KeyError):
        pass
    payload = part.get_payload(decode=True)
    return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""


# -- HTML --------------------------------------------------------------------------------------

_ALLOWED_TAGS = frozenset(nh3.ALLOWED_TAGS) - {"img", "map", "area"}
# Removed together with their content (nh3 would otherwise keep the inner text).
_DROP_WITH_CONTENT = frozenset(
    {
        "script",
        "style",
        "title",
        "head",
        "noscript",
        "template",
        "svg",
        "math",
        "iframe",
        "object",
        "embed",
        "frameset",
        "audio",
        "video",
        "canvas",
        "form",
        "button",
        "select",
        "textarea",
    }
)


def sanitize_html(html: str) -> str:
    """Sanitise email HTML with nh3: no images, scripts, styles, frames or non-web links."""
    return nh3.clean(
        html,
        tags=set(_ALLOWED_TAGS - _DROP_WITH_CONTENT),
        clean_content_tags=set(_DROP_WITH_CONTENT),
        # Only what the text conversion needs: link targets and the "is it hidden" hints.
        attributes={"a": {"href"}, "*": {"style", "hidden", "aria-hidden"}},
        filter_style_properties=set(HIDING_STYLE_PROPERTIES),
        url_schemes={"http", "https", "mailto"},
        url_relative="deny",  # relative and cid: URLs mean nothing outside a browser
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )


def html_to_text(html: str) -> str:
    """Sanitise, then convert to plain text (hidden text dropped, link targets shown)."""
    parser = _HtmlText()
    parser.feed(sanitize_html(html))
    parser.close()
    lines = (line.strip() for line in clean_text(parser.text()).split("\n"))
    return "\n".join(line for line in lines if line)


_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "caption", "dd", "details", "div",
        "dl", "dt", "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6",
        "header", "hgroup", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary",
        "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    }
)  # fmt: skip
_VOID = frozenset({"br", "hr", "wbr", "col"})


class _HtmlText(HTMLParser):
    """Collects visible text of sanitised HTML, one line per block element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._parts: list[str] = []
        self._stack: list[tuple[str, bool]] = []  # (tag, hides its content)
        self._links: list[tuple[str, int]] = []  # (href, index of the first part of its text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS:
            self._parts.append("\n")
        if tag == "li":
            self._parts.append("- ")
        if tag in ("td", "th"):
            self._parts.append(" ")
        if tag in _VOID:
            return
        values = {name: value or "" for name, value in attrs}
        self._stack.append((tag, hidden_element(values)))
        if tag == "a":
            self._links.append((values.get("href", ""), len(self._parts)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS:
            self._parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._stack) - 1, -1, -1):
            if self._stack[index][0] == tag:
                del self._stack[index:]
                break
        else:
            return  # a stray end tag closes nothing
        if tag == "a" and self._links:
            href, start = self._links.pop()
            label = "".join(self._parts[start:]).strip()
            target = href.removeprefix("mailto:")
            if href and not self._hidden() and target not in label:
                self._parts.append(f" ({href})" if label else href)
        if tag in _BLOCKS:
            self._parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden():
            self._parts.append(data.replace("\n", " "))

    def _hidden(self) -> bool:
        return any(hidden for _, hidden in self._stack)

    def text(self) -> str:
        return "".join(self._parts)


# -- attachments -------------------------------------------------------------------------------

_UNSAFE_NAME = re.compile(r"[/\\\x00-\x1f\x7f]+")


def display_filename(name: str | None, fallback: str) -> str:
    """A sender-chosen file name made safe to show: one path-free line, no tricks, capped."""
    cleaned = clean_header(_UNSAFE_NAME.sub("_", name or ""), 150)
    cleaned = cleaned.strip(" .")
    return cleaned or fallback


def attachments(message: EmailMessage) -> tuple[Attachment, ...]:
    """List the attachments (never their contents): files, forwarded emails, unnamed binaries."""
    plain, html = body_parts(message)
    skip = {id(part) for part in (plain, html) if part is not None}
    return tuple(_walk_attachments(message, skip, in_related=False))


def _walk_attachments(part: Message, skip: set[int], *, in_related: bool) -> Iterator[Attachment]:
    content_type = part.get_content_type()
    if content_type == "message/rfc822":
        inner = part.get_payload()
        size = 0
        if isinstance(inner, list) and inner and isinstance(inner[0], Message):
            size = len(inner[0].as_bytes())
        yield Attachment(
            display_filename(part.get_filename(), "forwarded message.eml"), content_type, size
        )
        return
    if part.is_multipart():
        related = content_type == "multipart/related"
        subs = part.iter_parts() if isinstance(part, EmailMessage) else part.get_payload()
        for sub in subs:
            if isinstance(sub, Message):  # a multipart's payload is its parts
                yield from _walk_attachments(sub, skip, in_related=related)
        return
    if id(part) in skip:
        return
    disposition = part.get_content_disposition()
    filename = part.get_filename()
    if disposition != "attachment":
        if in_related and part.get("Content-ID"):
            return  # a picture the HTML embeds (a logo), not a file the sender attached
        if not filename and (part.get_content_maintype() == "text" or disposition == "inline"):
            return  # an extra text part (list footers) or an inline part without a name
    payload = part.get_payload(decode=True)
    size = len(payload) if isinstance(payload, bytes) else 0
    yield Attachment(display_filename(filename, "unnamed attachment"), content_type, size)


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The start of the text on one line."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
