"""CardDAV from the right host (issue #39, item 7): when the calendar's server holds no address
book, the contacts are found where RFC 6764 discovery points (caldav's ``discover_carddav``),
as for iCloud and Fastmail, whose contacts live on other hosts than their calendars.

Two real Radicale servers: the calendar one on a free loopback port over HTTP, with no address
book; the contacts one over HTTPS on 127.0.0.1:443 (the well-known URI is https://domain/, so
the port is fixed), whose ``/.well-known/carddav`` redirects to its root. The user's address
is alice@localhost: discovery asks DNS for ``_carddavs._tcp.localhost`` (no such record),
then follows the domain's well-known redirect.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from caldav.davclient import DAVClient
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from connectors.calendar import CalendarAccount, CalendarError, CalendarErrorReason
from connectors.contacts import add_contact, carddav, find_contacts
from tests.connectors.test_contacts import MAKE_BOOK, SOPHIE
from tests.support.radicale_server import running_radicale

PASSWORD = "alicepw"


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1 that is its own authority, and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


def port_443_is_free() -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers bind
        try:
            probe.bind(("127.0.0.1", 443))
        except OSError:
            return False
    return True


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """(the calendar server's address, the contacts server's certificate)."""
    if not port_443_is_free():
        pytest.skip("127.0.0.1:443 is taken (or not ours to bind): the well-known URI needs it")
    base = tmp_path_factory.mktemp("discovery")
    cert, key = self_signed(base)
    users = {"alice": PASSWORD}
    with (
        running_radicale(base / "calendar", users) as calendar_server,
        running_radicale(base / "contacts", users, port=443, tls=(cert, key)),
    ):
        with DAVClient(
            url=calendar_server.url, username="alice", password=PASSWORD, enable_rfc6764=False
        ) as client:
            client.principal().make_calendar(name="Home", cal_id="home")
        contacts_url = "https://localhost/"
        with DAVClient(
            url=contacts_url,
            username="alice",
            password=PASSWORD,
            ssl_verify_cert=str(cert),
            enable_rfc6764=False,
        ) as client:
            client.principal()
            client.mkcol(f"{contacts_url}alice/people/", MAKE_BOOK.format(name="People"))
            response = client.put(
                f"{contacts_url}alice/people/sophie.vcf", SOPHIE, {"Content-Type": "text/vcard"}
            )
            assert response.status in (201, 204)
        yield calendar_server.url, cert


def account(calendar_url: str, cert: Path, email: str | None) -> CalendarAccount:
    carddav._DISCOVERED.clear()
    carddav._NOT_FOUND.clear()
    return CalendarAccount(
        calendar_url, "alice", PASSWORD, name="Home", email=email, verify_tls=str(cert)
    )


def test_contacts_are_found_where_the_well_known_uri_points(
    servers: tuple[str, Path],
) -> None:
    calendar_url, cert = servers
    mine = account(calendar_url, cert, "alice@localhost")
    [found] = find_contacts(mine, "sophie")
    assert (found.name, found.address_book) == ("Sophie Martin", "People")
    added = add_contact(mine, "Zoë Müller", emails=["zoe@example.org"])
    assert added.address_book == "People"
    assert [c.name for c in find_contacts(mine, "zoe")] == ["Zoë Müller"]
    assert {(calendar_url, "alice"): "https://localhost/"} == carddav._DISCOVERED


def test_without_a_domain_to_ask_the_user_hears_there_is_no_address_book(
    servers: tuple[str, Path],
) -> None:
    calendar_url, cert = servers
    with pytest.raises(CalendarError) as caught:
        find_contacts(account(calendar_url, cert, None), "sophie")
    assert caught.value.reason is CalendarErrorReason.NOT_FOUND
    assert "no address book" in str(caught.value)


def test_a_failed_discovery_is_not_repeated_at_once(
    servers: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The confirmation dialog looks names up before it asks: an account whose domain names
    no contacts server must not cost the DNS and HTTPS round trips on every look-up."""
    calendar_url, cert = servers
    nowhere = account(calendar_url, cert, "alice@nowhere.invalid")
    asked: list[str] = []
    monkeypatch.setattr(carddav, "discover_carddav", lambda domain, **_: asked.append(domain))
    for _ in range(3):
        with pytest.raises(CalendarError, match="no address book"):
            find_contacts(nowhere, "sophie")
    assert asked == ["nowhere.invalid"]


def test_the_domains_asked() -> None:
    icloud = CalendarAccount(
        "https://p42-caldav.icloud.com/", "me@icloud.com", "pw", email="me@example.org"
    )
    assert carddav.discovery_domains(icloud) == [
        "example.org",
        "icloud.com",
        "p42-caldav.icloud.com",
    ]
    local = CalendarAccount("http://127.0.0.1:5232/", "alice", "pw")
    assert carddav.discovery_domains(local) == []
