"""International host names: IDNA 2008 / UTS #46 on the wire, and the same form shown.

Python's own "idna" codec is IDNA 2003: it sent `x@faß.de` to `fass.de`, `βόλος.com` to the
σ spelling and dropped a zero-width joiner, each time a domain other than the one the user
approved. These tests fail on that codec.
"""

from __future__ import annotations

import socket
from typing import Any

import pytest

from connectors.hostnames import HostNameError, ascii_host, display_host, is_international
from connectors.mail import MailAccount, MailError
from connectors.mail.sending import build_message
from connectors.web import WebError, read_webpage

ACCOUNT = MailAccount(
    email="me@example.org",
    imap_host="imap.example.org",
    imap_port=993,
    smtp_host="smtp.example.org",
    smtp_port=465,
    username="me",
    password="secret",
)


@pytest.mark.parametrize(
    ("name", "wire"),
    [
        ("faß.de", "xn--fa-hia.de"),  # IDNA 2003: fass.de
        ("FASS.de", "fass.de"),  # ... which is this other domain
        ("βόλος.com", "xn--nxasmm1c.com"),  # final sigma kept; IDNA 2003: xn--nxasmq6b.com
        ("क्\u200dष.in", "xn--11b2ezcw70k.in"),  # ZWJ after a virama is allowed and kept
        ("Bücher.DE", "xn--bcher-kva.de"),
        ("ｅｘａｍｐｌｅ。com", "example.com"),  # full-width letters and dot mapped
        ("日本語.jp", "xn--wgv71a119e.jp"),
        ("xn--fa-hia.de", "xn--fa-hia.de"),
        ("pаypal.com", "xn--pypal-4ve.com"),  # Cyrillic а: valid, but never shown as Unicode
        ("my_host.example.", "my_host.example."),  # ASCII labels pass, as in browsers
    ],
)
def test_hosts_are_encoded_as_browsers_and_mail_servers_do(name: str, wire: str) -> None:
    assert ascii_host(name) == wire


@pytest.mark.parametrize(
    "name",
    [
        "a\u200db.de",  # ZWJ with no virama before it: IDNA 2003 silently made it ab.de
        "a\u200cb.de",  # ZWNJ likewise
        "xn--zz.de",  # not a valid A-label
        "a..de",
        "ex ample.de",
        "x" * 64 + ".de",
        ("a" * 60 + ".") * 5 + "de",
    ],
)
def test_names_no_server_can_have_are_refused(name: str) -> None:
    with pytest.raises(HostNameError):
        ascii_host(name)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("xn--fa-hia.de", "faß.de"),
        ("FAß.de", "faß.de"),
        ("βόλος.com", "βόλος.com"),
        ("ドメイン名例.jp", "ドメイン名例.jp"),  # Katakana + Han: one Japanese name
        ("москва.рф", "москва.рф"),
        ("pаypal.com", "xn--pypal-4ve.com"),  # Latin + Cyrillic: shown as what is used
        ("xn--pypal-4ve.com", "xn--pypal-4ve.com"),
        ("gοogle.com", "xn--gogle-rce.com"),  # Greek omicron among Latin letters
        ("example.com", "example.com"),
    ],
)
def test_the_user_sees_readable_names_and_never_a_mixed_script_disguise(
    name: str, shown: str
) -> None:
    assert display_host(name) == shown
    assert ascii_host(shown) == ascii_host(name)  # what is shown names what is used


def test_international_means_non_ascii_or_an_a_label() -> None:
    assert is_international("faß.de") and is_international("XN--fa-hia.de")
    assert not is_international("example.com")


@pytest.mark.parametrize(
    ("recipient", "envelope"),
    [
        ("x@faß.de", "x@xn--fa-hia.de"),
        ("Σοφία <sofia@βόλος.com>", "sofia@xn--nxasmm1c.com"),
        ("x@bücher.de", "x@xn--bcher-kva.de"),
    ],
)
def test_mail_goes_to_the_idna2008_domain(recipient: str, envelope: str) -> None:
    message, recipients = build_message(ACCOUNT, [recipient], "Hello", "Hi")
    assert recipients == (envelope,)
    assert envelope in str(message["To"])


@pytest.mark.parametrize("recipient", ["x@a\u200db.de", "x@xn--zz.de", "x@-a.de"])
def test_mail_to_an_invalid_international_domain_is_refused(recipient: str) -> None:
    with pytest.raises(MailError) as error:
        build_message(ACCOUNT, [recipient], "Hello", "Hi")
    assert error.value.reason == "invalid"


@pytest.mark.parametrize(
    ("url", "looked_up"),
    [
        ("https://faß.de/page", "xn--fa-hia.de"),  # IDNA 2003: fass.de, another site
        ("https://βόλος.com/", "xn--nxasmm1c.com"),
        ("http://Bücher.example/", "xn--bcher-kva.example"),
    ],
)
def test_read_webpage_looks_up_the_idna2008_name(url: str, looked_up: str) -> None:
    asked: list[str] = []

    def resolver(host: str) -> list[str]:
        asked.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(WebError) as error:
        read_webpage(url, resolver=resolver)
    assert asked == [looked_up]
    assert error.value.kind == "unknown_host" and looked_up in str(error.value)


@pytest.mark.parametrize("url", ["https://a\u200db.de/", "https://xn--zz.de/"])
def test_read_webpage_refuses_an_invalid_international_name_before_any_lookup(url: str) -> None:
    def resolver(host: str) -> list[str]:
        raise AssertionError(f"looked up {host}")

    with pytest.raises(WebError) as error:
        read_webpage(url, resolver=resolver)
    assert error.value.kind == "bad_url"


def test_mail_servers_are_reached_by_their_idna2008_names() -> None:
    common: dict[str, Any] = {"email": "me@example.org", "username": "me", "password": "pw"}
    account = MailAccount(
        imap_host="imap.faß.de", imap_port=993, smtp_host=" SMTP.Bücher.de", smtp_port=465, **common
    )
    # Python's socket and ssl modules would have looked up imap.fass.de.
    assert (account.imap_host, account.smtp_host) == ("imap.xn--fa-hia.de", "smtp.xn--bcher-kva.de")
    local = MailAccount(
        imap_host="::1",
        imap_port=143,
        smtp_host="127.0.0.1",
        smtp_port=25,
        security="plain",
        **common,
    )
    assert (local.imap_host, local.smtp_host) == ("::1", "127.0.0.1")
    with pytest.raises(MailError) as error:
        MailAccount(
            imap_host="a\u200db.de", imap_port=993, smtp_host="x.de", smtp_port=465, **common
        )
    assert error.value.reason == "invalid" and "server name" in str(error.value)
