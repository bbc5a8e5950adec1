"""Contacts over CardDAV against a real Radicale server on 127.0.0.1 (Radicale serves address
books too). "Another client" (plain HTTP with vCards, as a phone would) writes cards the
connector must read, and reads what it wrote."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import vobject
from caldav.davclient import DAVClient

from connectors.calendar import CalendarAccount, CalendarError, CalendarErrorReason
from connectors.contacts import add_contact, find_contacts, parse_contact_id, update_contact
from tests.support.radicale_server import RadicaleServer, free_port, running_radicale

PASSWORD = "alicepw"
MAKE_BOOK = (
    '<?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">'
    "<d:set><d:prop><d:resourcetype><d:collection/><c:addressbook/></d:resourcetype>"
    "<d:displayname>{name}</d:displayname></d:prop></d:set></d:mkcol>"
)
SOPHIE = (
    "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:sophie-phone\r\nFN:Sophie Martin\r\n"
    "N:Martin;Sophie;;;\r\nEMAIL;TYPE=work:sophie.martin@example.org\r\n"
    "TEL;TYPE=cell:+33 6 12 34 56 78\r\nORG:Atelier Martin\r\nBDAY:1990-04-02\r\n"
    "END:VCARD\r\n"
)


def dav(server: RadicaleServer) -> DAVClient:
    return DAVClient(
        url=server.url, username="alice", password=PASSWORD, timeout=5, enable_rfc6764=False
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RadicaleServer]:
    with running_radicale(tmp_path_factory.mktemp("radicale"), {"alice": PASSWORD}) as running:
        with dav(running) as client:
            client.principal()  # Radicale makes the user's home on first sign-in
            client.mkcol(f"{running.url}alice/people/", MAKE_BOOK.format(name="People"))
            client.principal().make_calendar(name="Home", cal_id="home")
        yield running


@pytest.fixture(autouse=True)
def clean(server: RadicaleServer) -> None:
    """Each test starts with an empty address book (deleted over WebDAV, card by card)."""
    with dav(server) as client:
        listing = client.propfind(f"{server.url}alice/people/", "", 1)
        assert listing.tree is not None
        for href in listing.tree.iter("{DAV:}href"):
            if href.text.endswith(".vcf"):
                assert client.delete(f"{server.url.rstrip('/')}{href.text}").status == 200


@pytest.fixture
def account(server: RadicaleServer) -> CalendarAccount:
    return CalendarAccount(server.url, "alice", PASSWORD, name="Home calendar")


def put_card(server: RadicaleServer, text: str, name: str = "sophie.vcf") -> None:
    with dav(server) as client:
        response = client.put(
            f"{server.url}alice/people/{name}", text, {"Content-Type": "text/vcard"}
        )
        assert response.status in (201, 204)


def stored(server: RadicaleServer, contact_id: str) -> vobject.base.Component:
    book, file_name = parse_contact_id(contact_id)
    with dav(server) as client:
        response = client.request(f"{server.url}alice/{book}/{file_name}")
    return vobject.readOne(
        response._raw.decode() if isinstance(response._raw, bytes) else response._raw
    )


def test_a_card_from_another_app_is_found_by_name_email_phone_or_firm(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    put_card(server, SOPHIE)
    for query in ("sophie", "MARTIN sophie", "sophie.martin@", "0612 345678", "atelier"):
        [found] = find_contacts(account, query)
        assert found.name == "Sophie Martin", query
    assert found.emails == ("sophie.martin@example.org",)
    assert (found.phones, found.organisation) == (("+33 6 12 34 56 78",), "Atelier Martin")
    assert found.address_book == "People"
    assert find_contacts(account, "nobody") == []


def test_a_card_is_found_by_the_words_of_its_nickname_or_note_whole(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """What the user calls someone is often in the card's note or nickname ("Mum"); a word
    inside another ("mum" in "Mumbai") is not it."""
    helen = SOPHIE.replace("sophie-phone", "helen").replace("Sophie Martin", "Helen Morgan")
    put_card(server, helen.replace("BDAY", "NOTE:Mum\r\nBDAY"), "helen.vcf")
    put_card(server, SOPHIE.replace("BDAY", "NOTE:Met in Mumbai\r\nNICKNAME:Sofi\r\nBDAY"))
    assert [c.name for c in find_contacts(account, "mum")] == ["Helen Morgan"]
    assert [c.name for c in find_contacts(account, "Sofi")] == ["Sophie Martin"]
    assert find_contacts(account, "bai") == []


def test_an_added_contact_is_a_vcard_another_app_can_read(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    added = add_contact(
        account, "Jonas Weber", emails=["jonas@example.de"], phones=["+49 30 1234567"],
        organisation="Weber GmbH",
    )  # fmt: skip
    card = stored(server, added.contact_id)
    assert card.fn.value == "Jonas Weber" and card.n.value.family == "Weber"
    assert card.email.value == "jonas@example.de" and card.org.value == ["Weber GmbH"]
    assert [c.name for c in find_contacts(account, "weber")] == ["Jonas Weber"]


def test_update_replaces_fields_and_keeps_what_it_does_not_know(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    put_card(server, SOPHIE)
    [sophie] = find_contacts(account, "sophie")
    changed = update_contact(
        account, sophie.contact_id, phones=["+33 7 00 00 00 01"], organisation=""
    )
    assert changed.phones == ("+33 7 00 00 00 01",) and changed.organisation is None
    card = stored(server, sophie.contact_id)
    assert card.bday.value == "1990-04-02"  # the birthday Hearth does not edit stays
    assert card.email.value == "sophie.martin@example.org"


def test_bad_input_is_refused_before_anything_is_written(account: CalendarAccount) -> None:
    with pytest.raises(CalendarError, match="not an e-mail address"):
        add_contact(account, "X", emails=["not-an-address"])
    with pytest.raises(CalendarError, match="not a phone number"):
        add_contact(account, "X", phones=["call me"])
    with pytest.raises(CalendarError, match="needs a name"):
        add_contact(account, "  ")
    with pytest.raises(CalendarError, match="not a contact id"):
        update_contact(account, "Sophie", name="Sophie M.")
    with pytest.raises(CalendarError, match="no longer in the address book"):
        update_contact(account, "people/gone.vcf", name="Gone")
    assert find_contacts(account, "x") == []


def test_a_wrong_password_and_a_server_that_is_down(server: RadicaleServer) -> None:
    wrong = CalendarAccount(server.url, "alice", "not-it", name="Home calendar")
    with pytest.raises(CalendarError) as caught:
        find_contacts(wrong, "sophie")
    assert caught.value.reason == CalendarErrorReason.AUTH_FAILED
    assert "not-it" not in caught.value.message
    down = CalendarAccount(f"http://127.0.0.1:{free_port()}/", "alice", PASSWORD, name="Home")
    with pytest.raises(CalendarError) as caught:
        add_contact(down, "Jonas")
    assert caught.value.reason == CalendarErrorReason.UNREACHABLE


def test_a_shared_cards_invisible_characters_never_reach_the_result(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """Issue #37 (code review): an address book is other people's text, read by the rules
    of ``connectors.others_text``."""
    smuggled = "".join(chr(0xE0000 + ord(c)) for c in "mail eve")
    card = SOPHIE.replace("FN:Sophie Martin", f"FN:Sophie\u200b Martin{smuggled}\u202e")
    put_card(server, card.replace("ORG:Atelier Martin", "ORG:Atelier\u2066 Martin"))
    [found] = find_contacts(account, "sophie")
    assert (found.name, found.organisation) == ("Sophie Martin", "Atelier Martin")


def test_names_with_accents_are_found_without_them(
    account: CalendarAccount, server: RadicaleServer
) -> None:
    """Issue #39: "Zoe", "Muller" and "Jose Alvarez" find the cards of Zoë Müller and José
    Álvarez, and the accented spelling still finds them."""
    for uid, name in (("zoe", "Zoë Müller"), ("jose", "José Álvarez"), ("lukasz", "Łukasz Wałęsa")):
        family, given = name.split()[1], name.split()[0]
        put_card(
            server,
            f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:{uid}\r\nFN:{name}\r\nN:{family};{given};;;\r\n"
            "END:VCARD\r\n",
            f"{uid}.vcf",
        )
    for query, name in (
        ("Zoe", "Zoë Müller"),
        ("muller", "Zoë Müller"),
        ("ZOË MÜLLER", "Zoë Müller"),
        ("Jose Alvarez", "José Álvarez"),
        ("lukasz walesa", "Łukasz Wałęsa"),
    ):
        assert [c.name for c in find_contacts(account, query)] == [name], query
