"""Address books over CardDAV (RFC 6352) on the calendar account: find, add and change contacts.

The caldav library speaks only CalDAV, so the few CardDAV requests are written here, through
its DAVClient (the same sign-in, timeout, TLS checks and error translation as the calendar:
``connectors.calendar.client.connect``): PROPFIND to find the address books, one REPORT
``addressbook-query`` that returns every card with its ETag, PUT to write a card. A change is
written with ``If-Match`` on the ETag just read, so an edit made meanwhile on the phone is
never overwritten: the server refuses, and the user is told to look again.

The address books are looked for on the calendar's server first; when it holds none, on the
CardDAV service that RFC 6764 discovery finds for the user's domain (caldav's
``discover_carddav``: DNS SRV/TXT, then ``/.well-known/carddav``), because iCloud and Fastmail
serve contacts from other hosts than calendars.

Contact ids are ``<address book id>/<file name>``, stable across edits in other apps.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from ipaddress import ip_address
from typing import Any
from urllib.parse import quote, unquote, urljoin, urlsplit

import vobject
from caldav.discovery import discover_carddav

from connectors.calendar.client import CalendarAccount, connect, translate
from connectors.calendar.errors import CalendarError, CalendarErrorReason
from connectors.folding import fold
from connectors.hostnames import comparable_host
from connectors.others_text import one_line

DAV, CARD = "DAV:", "urn:ietf:params:xml:ns:carddav"
_NS = {"d": DAV, "c": CARD}
MAX_FOUND = 20
MAX_FIELD = 300
_EMAIL = re.compile(r"[^@\s<>\"',;:()\[\]\\]+@[^@\s<>\"',;:()\[\]\\]+\.[^@\s<>\"',;:()\[\]\\.]+")
_PHONE = re.compile(r"\+?[\d\s().\-/]{4,30}")


@dataclass(frozen=True, slots=True)
class Contact:
    """One person or organisation from an address book."""

    contact_id: str
    name: str
    emails: tuple[str, ...]
    phones: tuple[str, ...]
    organisation: str | None
    address_book: str


@dataclass(frozen=True, slots=True)
class _Card:
    href: str
    etag: str | None
    card: Any  # a vobject vCard component
    book_id: str
    book_name: str


def _fail(text: str, reason: CalendarErrorReason = CalendarErrorReason.INVALID_INPUT) -> Exception:
    return CalendarError(reason, text)


# --------------------------------------------------------------------------------------------
# Finding the address books
# --------------------------------------------------------------------------------------------


def propfind(client: Any, url: str, props: str, depth: int) -> Any:
    """One PROPFIND of `props` (XML elements) at `url`, its status checked: the parsed tree."""
    body = (
        f'<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:c="{CARD}">'
        f"<d:prop>{props}</d:prop></d:propfind>"
    )
    response = client.propfind(url, body, depth)
    if response.status not in (200, 207) or response.tree is None:
        raise _fail(
            "The server did not answer as an address book server does.",
            CalendarErrorReason.SERVER_ERROR,
        )
    return response.tree


def _href(tree: Any, path: str, base: str) -> str | None:
    found = tree.find(f".//{path}/d:href", _NS)
    return urljoin(base, found.text.strip()) if found is not None and found.text else None


def _books_at(client: Any, base: str) -> list[tuple[str, str, str]]:
    """(url, id, display name) of every address book the server at `base` holds for the
    signed-in user (none when it serves no address books)."""
    principal = (
        _href(
            propfind(client, base, "<d:current-user-principal/>", 0),
            "d:current-user-principal",
            base,
        )
        or base
    )
    home = (
        _href(
            propfind(client, principal, "<c:addressbook-home-set/>", 0),
            "c:addressbook-home-set",
            base,
        )
        or principal
    )
    tree = propfind(client, home, "<d:resourcetype/><d:displayname/>", 1)
    books = []
    for response in tree.findall("d:response", _NS):
        if response.find(".//d:resourcetype/c:addressbook", _NS) is None:
            continue
        url = urljoin(home, response.findtext("d:href", "", _NS).strip())
        book_id = urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1]
        name = response.findtext(".//d:displayname", "", _NS).strip() or unquote(book_id)
        books.append((url, book_id, name))
    return books


def _is_ip(host: str) -> bool:
    try:
        ip_address(host)
    except ValueError:
        return False
    return True


def discovery_domains(account: CalendarAccount) -> list[str]:
    """Where to look for the account's CardDAV service (RFC 6764), most specific first: the
    domain of the user's address and of a user name that is one, the calendar's host and
    the domain above it (caldav.fastmail.com: fastmail.com; p42-caldav.icloud.com: icloud.com)."""
    found = []
    for address in (account.email, account.username):
        if address and "@" in address:
            found.append(address.rsplit("@", 1)[1])
    try:
        host = urlsplit(account.url.strip()).hostname or ""
    except ValueError:
        host = ""
    if host and not _is_ip(host):  # RFC 6764 is about names: an IP address has no records
        found.append(host)
        labels = host.split(".")
        if len(labels) > 2:
            found.append(".".join(labels[1:]))
    cleaned = (d.strip().strip(".").lower() for d in found)
    return list(dict.fromkeys(d for d in cleaned if d))


# The CardDAV service found for an account (by its calendar address and user name), so that
# discovery runs once per session, not on every contact look-up; that none was found is
# remembered for a while too (the confirmation dialog looks names up before it asks, and
# must not wait for the same DNS and HTTPS round trips each time).
_DISCOVERED: dict[tuple[str, str], str] = {}
_NOT_FOUND: dict[tuple[str, str], float] = {}
NOT_FOUND_FOR_SECONDS = 600.0


def _discover(account: CalendarAccount) -> str | None:
    """The CardDAV address RFC 6764 gives for the account: DNS SRV and TXT records, then the
    domain's ``/.well-known/carddav`` redirect (caldav's discovery: TLS only, and a target
    outside the queried domain is refused, so a spoofed record cannot take the password
    elsewhere). None when no domain names one."""
    key = (account.url.strip(), account.username)
    if key in _DISCOVERED:
        return _DISCOVERED[key]
    if time.monotonic() - _NOT_FOUND.get(key, -NOT_FOUND_FOR_SECONDS) < NOT_FOUND_FOR_SECONDS:
        return None
    for domain in discovery_domains(account):
        try:
            info = discover_carddav(
                domain,
                timeout=max(1, int(account.timeout)),
                ssl_verify_cert=account.verify_tls,  # type: ignore[arg-type]  # a path works too
                require_tls=True,
            )
        except Exception:  # a broken DNS answer for one domain: try the next
            info = None
        if info is not None:
            _DISCOVERED[key] = info.url
            return info.url
    _NOT_FOUND[key] = time.monotonic()
    return None


@contextmanager
def _address_books(account: CalendarAccount) -> Iterator[tuple[Any, list[tuple[str, str, str]]]]:
    """A client signed in where the account's address books are, and those books.

    First the calendar's own server (Nextcloud, Radicale, Baïkal serve both); when it holds
    none, the CardDAV service RFC 6764 discovery finds (iCloud and Fastmail serve contacts
    from other hosts than calendars), signed in with the same user name and password."""
    with connect(account) as client:
        try:
            books = _books_at(client, account.url.strip())
        except Exception as exc:  # a calendar server that does not speak CardDAV: look on
            error = exc if isinstance(exc, CalendarError) else translate(exc, account)
            if error.reason not in (
                CalendarErrorReason.SERVER_ERROR,
                CalendarErrorReason.NOT_FOUND,
            ):
                raise error from exc  # a wrong password, a timeout: the user must hear it
            books = []
        if books:
            yield client, books
            return
    found = _discover(account)
    if found is not None:
        elsewhere = replace(account, url=found)
        with connect(elsewhere) as client:
            books = _books_at(client, found)
            if books:
                yield client, books
                return
    raise CalendarError(
        CalendarErrorReason.NOT_FOUND,
        f"The account “{account.name}” has no address book: none on its calendar server, "
        "and no contacts server was found for it. Create one in your contacts app first (or "
        "check the server address in Hearth's settings).",
        account=account.name,
    )


_QUERY = (
    f'<?xml version="1.0"?><c:addressbook-query xmlns:d="DAV:" xmlns:c="{CARD}">'
    "<d:prop><d:getetag/><c:address-data/></d:prop></c:addressbook-query>"
)


def _cards(client: Any, books: list[tuple[str, str, str]]) -> list[_Card]:
    cards: list[_Card] = []
    for url, book_id, name in books:
        response = client.report(url, _QUERY, 1)
        if response.status not in (200, 207) or response.tree is None:
            raise _fail(
                f"The address book “{name}” could not be read.", CalendarErrorReason.SERVER_ERROR
            )
        for item in response.tree.findall("d:response", _NS):
            data = item.findtext(".//c:address-data", "", _NS)
            if not data.strip():
                continue
            try:
                card = vobject.readOne(data)
            except Exception:  # one broken card must not hide the others
                continue
            href = urljoin(url, item.findtext("d:href", "", _NS).strip())
            etag = item.findtext(".//d:getetag", None, _NS)
            cards.append(_Card(href, etag, card, book_id, name))
    return cards


# --------------------------------------------------------------------------------------------
# vCards
# --------------------------------------------------------------------------------------------


def _values(card: Any, key: str) -> tuple[str, ...]:
    """A field's values as a reader sees them: a shared book holds someone else's words."""
    found = (one_line(line.value) for line in card.contents.get(key, []) if line.value)
    return tuple(value for value in found if value)


def _known_as(card: Any) -> str:
    """A card's nicknames and note, folded: what the user calls the person ("Mum")."""
    return fold(" ".join((*_values(card, "nickname"), *_values(card, "note"))))


def _organisation(card: Any) -> str | None:
    lines = card.contents.get("org", [])
    if not lines:
        return None
    value = lines[0].value
    text = " ".join(value) if isinstance(value, list) else str(value)
    return one_line(text) or None


def _contact(found: _Card) -> Contact:
    name = _values(found.card, "fn")
    file_name = found.href.rstrip("/").rsplit("/", 1)[-1]
    return Contact(
        contact_id=f"{found.book_id}/{file_name}",
        name=name[0] if name else "(no name)",
        emails=_values(found.card, "email"),
        phones=_values(found.card, "tel"),
        organisation=_organisation(found.card),
        address_book=found.book_name,
    )


def _clean(value: str, what: str) -> str:
    text = " ".join(str(value).split())
    if len(text) > MAX_FIELD:
        raise _fail(f"The {what} is longer than {MAX_FIELD} characters.")
    return text


def _emails(values: Iterable[str]) -> list[str]:
    out = []
    for raw in values:
        address = str(raw).strip()
        if not _EMAIL.fullmatch(address):
            raise _fail(f"{address[:80]!r} is not an e-mail address.")
        out.append(address)
    return out


def _phones(values: Iterable[str]) -> list[str]:
    out = []
    for raw in values:
        number = " ".join(str(raw).split())
        if not _PHONE.fullmatch(number) or sum(c.isdigit() for c in number) < 3:
            raise _fail(f"{number[:40]!r} is not a phone number.")
        out.append(number)
    return out


def _fill(
    card: Any,
    name: str | None,
    emails: Sequence[str] | None,
    phones: Sequence[str] | None,
    organisation: str | None,
) -> None:
    """Replace the given fields of a vCard (None leaves a field as it is)."""
    if name is not None:
        for key in ("fn", "n"):
            for line in list(card.contents.get(key, [])):
                card.remove(line)
        card.add("fn").value = name
        parts = name.rsplit(" ", 1)
        family, given = (parts[1], parts[0]) if len(parts) == 2 else (parts[0], "")
        card.add("n").value = vobject.vcard.Name(family=family, given=given)
    for key, values in (("email", emails), ("tel", phones)):
        if values is None:
            continue
        for line in list(card.contents.get(key, [])):
            card.remove(line)
        for value in values:
            card.add(key).value = value
    if organisation is not None:
        for line in list(card.contents.get("org", [])):
            card.remove(line)
        if organisation:
            card.add("org").value = [organisation]


# --------------------------------------------------------------------------------------------
# The operations
# --------------------------------------------------------------------------------------------


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def find_contacts(account: CalendarAccount, query: str) -> list[Contact]:
    """Contacts whose name, e-mail, phone number or organisation contains ``query``
    (ignoring case and accents: "Zoe Muller" finds "Zoë Müller"; a phone number by its
    digits), or whose nickname or note holds its words whole ("Mum" in the note of Helen
    Morgan's card), sorted by name, at most ``MAX_FOUND``."""
    wanted = fold(" ".join(str(query).split()))
    if not wanted:
        raise _fail("Say whom to look for: a name, an e-mail address, a phone number or a firm.")
    # A number as dialled at home (06 12...) matches its international form (+33 6 12...).
    dialled = _digits(wanted).lstrip("0")
    digits = dialled if len(dialled) >= 4 else None
    with _address_books(account) as (client, books):
        cards = [(_contact(c), _known_as(c.card)) for c in _cards(client, books)]
    found = []
    for contact, known_as in cards:
        text = fold(" ".join((contact.name, *contact.emails, contact.organisation or "")))
        by_phone = digits is not None and any(digits in _digits(p) for p in contact.phones)
        by_note = all(re.search(rf"\b{re.escape(w)}\b", known_as) for w in wanted.split())
        if all(word in text for word in wanted.split()) or by_phone or by_note:
            found.append(contact)
    found.sort(key=_by_name)
    return found[:MAX_FOUND]


def _comparable(address: str) -> str:
    """An e-mail address as two spellings of one mailbox compare: case-folded, the domain as
    the mail server gets it (``comparable_host``)."""
    local, at, domain = address.strip().rpartition("@")
    if not at:
        return address.strip().casefold()
    return f"{local.casefold()}@{comparable_host(domain)}"


def contacts_by_email(account: CalendarAccount, addresses: Iterable[str]) -> dict[str, Contact]:
    """The contact holding each of ``addresses`` (bare addresses), read in one pass over the
    address books; an address no card holds is left out. Where two cards hold the same
    address, the first by name wins."""
    wanted = {_comparable(a): a for a in addresses if "@" in a}
    if not wanted:
        return {}
    with _address_books(account) as (client, books):
        contacts = sorted((_contact(c) for c in _cards(client, books)), key=_by_name)
    found: dict[str, Contact] = {}
    for contact in contacts:
        for email in contact.emails:
            original = wanted.get(_comparable(email))
            if original is not None and original not in found:
                found[original] = contact
    return found


def _by_name(contact: Contact) -> tuple[str, str]:
    return fold(contact.name), contact.name


def add_contact(
    account: CalendarAccount,
    name: str,
    emails: Sequence[str] = (),
    phones: Sequence[str] = (),
    organisation: str | None = None,
    address_book: str | None = None,
) -> Contact:
    """Add a contact to ``address_book`` (id or name) or the first address book."""
    clean_name = _clean(name, "name")
    if not clean_name:
        raise _fail("A contact needs a name.")
    card = vobject.vCard()
    card.add("uid").value = str(uuid.uuid4())
    _fill(
        card,
        clean_name,
        _emails(emails),
        _phones(phones),
        _clean(organisation, "organisation") if organisation else None,
    )
    with _address_books(account) as (client, books):
        chosen = books[0]
        if address_book:
            wanted = address_book.strip().casefold()
            matches = [b for b in books if wanted in (b[1].casefold(), b[2].casefold())]
            if not matches:
                names = ", ".join(f"“{b[2]}”" for b in books)
                raise _fail(
                    f"There is no address book “{address_book[:80]}”; there are: {names}.",
                    CalendarErrorReason.NOT_FOUND,
                )
            chosen = matches[0]
        url, book_id, book_name = chosen
        href = urljoin(url if url.endswith("/") else url + "/", quote(card.uid.value) + ".vcf")
        headers = {"Content-Type": "text/vcard; charset=utf-8", "If-None-Match": "*"}
        response = client.put(href, card.serialize(), headers)
        _check_written(response.status, clean_name)
        return _contact(_Card(href, None, card, book_id, book_name))


def _check_written(status: int, name: str) -> None:
    if status == 412:
        raise _fail(
            f"The contact “{name}” was changed in another app while Hearth was "
            "editing it, so nothing was saved. Look it up again and retry.",
            CalendarErrorReason.CONFLICT,
        )
    if status not in (200, 201, 204):
        raise _fail(
            f"The server did not save the contact “{name}” (HTTP {status}).",
            CalendarErrorReason.SERVER_ERROR,
        )


def parse_contact_id(contact_id: str) -> tuple[str, str]:
    parts = contact_id.strip().split("/") if isinstance(contact_id, str) else []
    if len(parts) != 2 or not all(parts):
        raise _fail(
            f"{str(contact_id)[:80]!r} is not a contact id. Use a contact_id exactly "
            "as find_contact returned it."
        )
    return parts[0], parts[1]


def _card(client: Any, books: list[tuple[str, str, str]], book_id: str, file_name: str) -> _Card:
    cards = [
        c
        for c in _cards(client, books)
        if c.book_id == book_id and c.href.rstrip("/").rsplit("/", 1)[-1] == file_name
    ]
    if not cards:
        raise _fail(
            "That contact is no longer in the address book: it may have been "
            "deleted in another app. Look it up again.",
            CalendarErrorReason.NOT_FOUND,
        )
    return cards[0]


def get_contact(account: CalendarAccount, contact_id: str) -> Contact:
    """One contact as it is stored now (read only): what a change would replace, for its
    before/after preview."""
    book_id, file_name = parse_contact_id(contact_id)
    with _address_books(account) as (client, books):
        return _contact(_card(client, books, book_id, file_name))


def update_contact(
    account: CalendarAccount,
    contact_id: str,
    *,
    name: str | None = None,
    emails: Sequence[str] | None = None,
    phones: Sequence[str] | None = None,
    organisation: str | None = None,
) -> Contact:
    """Change a contact: a given field replaces the old one (all its e-mail addresses, all
    its phone numbers); an empty organisation removes it. Written only if nobody changed
    the card since it was read."""
    book_id, file_name = parse_contact_id(contact_id)
    if name is None and emails is None and phones is None and organisation is None:
        raise _fail("Nothing to change: give a new name, e-mail addresses, phones or firm.")
    new_name = _clean(name, "name") if name is not None else None
    if new_name == "":
        raise _fail("A contact needs a name.")
    new_emails = _emails(emails) if emails is not None else None
    new_phones = _phones(phones) if phones is not None else None
    new_org = _clean(organisation, "organisation") if organisation is not None else None
    with _address_books(account) as (client, books):
        found = _card(client, books, book_id, file_name)
        _fill(found.card, new_name, new_emails, new_phones, new_org)
        headers = {"Content-Type": "text/vcard; charset=utf-8"}
        if found.etag:
            headers["If-Match"] = found.etag
        response = client.put(found.href, found.card.serialize(), headers)
        _check_written(response.status, _contact(found).name)
        return _contact(found)
