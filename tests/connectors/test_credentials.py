"""Passwords in a real Secret Service (private dbus-daemon + gnome-keyring), and refusal of
every backend that would keep them in plain text or nowhere."""

from __future__ import annotations

import gc
import logging
import socket
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail, null
from keyring.backends.chainer import ChainerBackend

from app.store.accounts import AccountSettings, AccountStore
from app.store.database import Database
from app.ui.accounts_dialog import AccountsService
from connectors.credentials import SERVICE, Credentials, NoSecureKeyring, secure_keyring
from tests.support.secret_service import SecretService, running_secret_service

PASSWORD = "Tr0ub4dor&3-hearth-secret"


def files_containing(root: Path, secret: str) -> list[Path]:
    """Every file under root whose bytes hold the secret (as UTF-8 or UTF-16)."""
    needles = [secret.encode(), secret.encode("utf-16-le")]
    return [
        path
        for path in root.rglob("*")
        if path.is_file() and any(n in path.read_bytes() for n in needles)
    ]


def test_store_read_change_delete(
    secret_service: SecretService, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    credentials = Credentials()
    assert credentials.backend_name == "keyring.backends.SecretService.Keyring"
    credentials.store("mail-1", PASSWORD)
    # A second, independent client sees it: it really is in the Secret Service.
    fresh = type(secret_service.backend)()
    assert fresh.get_password(SERVICE, "mail-1") == PASSWORD
    assert credentials.read("mail-1") == PASSWORD
    credentials.change("mail-1", PASSWORD + "-new")
    assert credentials.read("mail-1") == PASSWORD + "-new"
    assert credentials.delete("mail-1") is True
    assert credentials.read("mail-1") is None
    assert credentials.delete("mail-1") is False
    assert PASSWORD not in caplog.text
    # gnome-keyring encrypts its files: the password is nowhere in clear on disk.
    assert secret_service.keyring_dir.is_dir()
    credentials.store("mail-2", PASSWORD)
    assert files_containing(secret_service.home, PASSWORD) == []
    credentials.delete("mail-2")


def test_empty_password_is_not_stored(secret_service: SecretService) -> None:
    with pytest.raises(ValueError):
        Credentials().store("mail-1", "")


class PlaintextKeyring(null.Keyring):
    """Stands in for keyrings.alt's PlaintextKeyring (we never install that package)."""

    __module__ = "keyrings.alt.file"


@pytest.mark.parametrize("backend", [fail.Keyring(), null.Keyring(), PlaintextKeyring()])
def test_insecure_backends_are_refused(backend: keyring.backend.KeyringBackend) -> None:
    with pytest.raises(NoSecureKeyring) as error:
        Credentials(backend)
    message = str(error.value)
    assert "password store" in message and "was not saved anywhere" in message
    assert "GNOME Keyring" in message  # says what to do


def test_chainer_without_a_secure_member_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ChainerBackend, "backends", [PlaintextKeyring(), fail.Keyring()])
    with pytest.raises(NoSecureKeyring, match=r"keyrings\.alt\.file\.PlaintextKeyring"):
        secure_keyring(ChainerBackend())


def test_chainer_is_unwrapped_to_its_secure_member(
    secret_service: SecretService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain-text backend ranked first in a chain never receives the password."""
    monkeypatch.setattr(ChainerBackend, "backends", [PlaintextKeyring(), secret_service.backend])
    assert secure_keyring(ChainerBackend()) is secret_service.backend


def test_fail_backend_refuses_and_nothing_is_written_anywhere(
    secret_service: SecretService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Saving an account with the `fail` backend selected: the settings are kept, the password
    goes nowhere (not the keyring, not the database, not a file, not the log)."""
    caplog.set_level(logging.DEBUG)
    keyring.set_keyring(fail.Keyring())  # the fixture restores the Secret Service afterwards
    data = tmp_path / "data"
    data.mkdir()
    service = AccountsService(data)
    saved: list[tuple[bool, str]] = []
    service.saved.connect(lambda ok, message: saved.append((ok, message)))
    settings = AccountSettings(
        kind="calendar", name="Home", username="alice", calendar_url="https://dav.example.org/"
    )
    service.save(settings, PASSWORD)
    service.close()
    assert saved and saved[0][0] is False
    assert "NOT saved" in saved[0][1] and "GNOME Keyring" in saved[0][1]
    database = Database.open(data)
    stored = AccountStore(database).saved()
    database.close()
    assert [a.name for a in stored] == ["Home"]
    assert secret_service.backend.get_password(SERVICE, stored[0].secret_ref) is None
    assert files_containing(data, PASSWORD) == []
    assert files_containing(secret_service.home, PASSWORD) == []
    assert PASSWORD not in caplog.text


def _peer(sock: socket.socket) -> str:
    try:
        return str(sock.getpeername()) if sock.family == socket.AF_UNIX else ""
    except OSError:
        return ""


def test_starting_the_private_service_leaves_no_socket_to_its_bus_open() -> None:
    """The start waits for gnome-keyring-daemon by probing it, usually several times: a probe
    that fails must close its connection (keyring's own backend leaves it open, and the
    sockets then warn in whichever later test the garbage collector runs)."""
    gc.disable()  # else a leaked socket might be freed, with a warning, before we look
    try:
        with running_secret_service() as service:
            bus = service.env["DBUS_SESSION_BUS_ADDRESS"]
            left_open = [
                peer
                for obj in gc.get_objects()
                if isinstance(obj, socket.socket)
                and obj.fileno() != -1
                and (peer := _peer(obj))
                and peer in bus
            ]
    finally:
        gc.enable()
    assert left_open == []
