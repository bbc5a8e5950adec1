"""Stored account settings + keyring passwords → the connectors' MailAccount / CalendarAccount.

Shared by the window's worker, the ``ask`` command and the accounts dialog's Test connection,
so all three build accounts the same way. A missing password or an unusable keyring does not
stop the assistant: that account's tools are simply not offered and ``problems`` says why.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from app.store.accounts import AccountSettings, AccountStore
from connectors.calendar import CalendarAccount
from connectors.credentials import CredentialError, Credentials, NoSecureKeyring
from connectors.mail import MailAccount, MailError

log = logging.getLogger(__name__)


def mail_account(settings: AccountSettings, password: str) -> MailAccount:
    """Raises MailError (with a message for the user) if the settings are unusable."""
    return MailAccount(
        email=settings.email.strip(),
        imap_host=settings.imap_host.strip(),
        imap_port=int(settings.imap_port),
        smtp_host=settings.smtp_host.strip(),
        smtp_port=int(settings.smtp_port),
        username=(settings.username or settings.email).strip(),
        password=password,
        security=settings.imap_security,  # type: ignore[arg-type]
        smtp_security=settings.smtp_security,  # type: ignore[arg-type]
        display_name=settings.display_name,
        save_sent=settings.save_sent,
    )


def calendar_account(settings: AccountSettings, password: str) -> CalendarAccount:
    return CalendarAccount(
        url=settings.calendar_url.strip(),
        username=(settings.username or settings.email).strip(),
        password=password,
        name=settings.name or "Calendar",
        email=settings.email.strip() or None,
    )


def connector_account(settings: AccountSettings, password: str) -> Any:
    """The connector account for either kind."""
    if settings.kind == "mail":
        return mail_account(settings, password)
    return calendar_account(settings, password)


@dataclass
class ConfiguredAccounts:
    """What the agent can use now: at most one of each kind (the first stored)."""

    mail: MailAccount | None = None
    calendar: CalendarAccount | None = None
    problems: list[str] = field(default_factory=list)  # for a notice / the log, no secrets


def load_accounts(database: Any, credentials: Credentials | None = None) -> ConfiguredAccounts:
    """Read the stored accounts and their passwords. Never raises for a keyring problem."""
    found = ConfiguredAccounts()
    stored = AccountStore(database).list()
    if not stored:
        return found
    if credentials is None:
        try:
            credentials = Credentials()
        except NoSecureKeyring as exc:
            found.problems.append(str(exc))
            log.warning("accounts not used: no secure keyring")
            return found
    for settings in stored:
        if getattr(found, settings.kind) is not None:
            continue  # one account of each kind for now
        try:
            password = credentials.read(settings.secret_ref)
        except CredentialError as exc:
            found.problems.append(f"{settings.name}: {exc}")
            continue
        if not password:
            found.problems.append(
                f"The account “{settings.name}” has no saved password. Add it in Settings → "
                "Accounts…"
            )
            continue
        try:
            setattr(found, settings.kind, connector_account(settings, password))
        except MailError as exc:
            found.problems.append(exc.message)
    for problem in found.problems:
        log.warning("account not used: %s", problem)
    return found
