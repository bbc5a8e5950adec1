"""Provider presets, and stored settings + keyring passwords → connector accounts."""

from __future__ import annotations

from pathlib import Path

import keyring
from keyring.backends import fail

from app.agent.services.accounts import load_accounts
from app.store.accounts import AccountSettings, AccountStore
from app.store.database import Database
from connectors.credentials import Credentials
from connectors.presets import BY_KEY, PRESETS, presets_for
from tests.support.secret_service import SecretService


def test_presets_are_complete() -> None:
    assert {"gmail", "outlook", "icloud", "fastmail", "yahoo", "nextcloud", "other"} <= set(BY_KEY)
    for preset in PRESETS:
        if preset.imap_host:
            assert preset.imap_security in {"tls", "starttls"}
            assert preset.smtp_host and preset.smtp_security in {"tls", "starttls"}
            assert (preset.smtp_port, preset.smtp_security) in {(465, "tls"), (587, "starttls")}
        if preset.app_password:
            assert "app" in preset.hint.lower() and "password" in preset.hint.lower()
    assert BY_KEY["icloud"].calendar_url == "https://caldav.icloud.com/"
    assert BY_KEY["fastmail"].calendar_url == "https://caldav.fastmail.com/dav/"
    assert BY_KEY["nextcloud"].calendar_url_for("c.example") == "https://c.example/remote.php/dav"
    assert [p.key for p in presets_for("calendar")] == ["icloud", "fastmail", "nextcloud", "other"]
    assert "nextcloud" not in [p.key for p in presets_for("mail")]


def test_load_accounts_builds_connector_accounts(
    tmp_path: Path, secret_service: SecretService
) -> None:
    database = Database.open(tmp_path)
    store = AccountStore(database)
    mail = store.add(
        AccountSettings(
            kind="mail",
            name="Work",
            email="me@example.org",
            imap_host="imap.fastmail.com",
            smtp_host="smtp.fastmail.com",
        )
    )
    calendar = store.add(
        AccountSettings(
            kind="calendar", name="Home", calendar_url="https://c.example/", username="me"
        )
    )
    found = load_accounts(database)
    assert found.mail is None and found.calendar is None  # no passwords yet
    assert len(found.problems) == 2 and all("no saved password" in p for p in found.problems)
    credentials = Credentials()
    credentials.store(mail.secret_ref, "mail-pw")
    credentials.store(calendar.secret_ref, "cal-pw")
    found = load_accounts(database)
    assert found.problems == []
    assert found.mail is not None and found.mail.password == "mail-pw"
    assert found.mail.username == "me@example.org" and "mail-pw" not in repr(found.mail)
    assert found.calendar is not None and found.calendar.password == "cal-pw"
    assert found.calendar.name == "Home"
    keyring.set_keyring(fail.Keyring())
    refused = load_accounts(database)
    assert refused.mail is None and refused.calendar is None
    assert "password store" in refused.problems[0]
    database.close()
