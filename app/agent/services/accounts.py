"""The account lifecycle without Qt: save, test and remove an account, and turn stored
settings + keyring passwords into the connectors' MailAccount / CalendarAccount.

Shared by the window's worker, the ``ask`` command and the accounts dialog (whose service only
runs these on its thread and relays the answers), so the rules about secrets live in one place:
the keyring name is minted here, the password goes to the keyring before the settings go to
the database, and it never goes anywhere else. A missing password or an unusable keyring does
not stop the assistant: that account's tools are simply not offered and ``problems`` says why.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from app.store.accounts import AccountSettings, AccountStore, replace
from app.store.database import Database
from connectors.calendar import CalendarAccount, CalendarError, list_calendars
from connectors.credentials import CredentialError, Credentials, NoSecureKeyring
from connectors.mail import MailAccount, MailError, check_sending, list_emails

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
    stored = AccountStore(database).saved()
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


# -- the lifecycle: what Settings → Accounts… does, without Qt ------------------------------------


class AccountsError(Exception):
    """The database could not be read or written; the message is meant for the user."""


@dataclass(frozen=True)
class SavedAccount:
    """What `save_account` did: the stored settings and what became of the password."""

    account: AccountSettings  # with its id and keyring name
    in_keyring: bool  # a password for it is in the keyring (new, or kept when editing)
    message: str  # for the user: "Saved “Work”." and why the password was not, if it was not


@dataclass(frozen=True)
class AccountCheck:
    """The answer of Test connection."""

    ok: bool
    message: str  # for the user; never holds the password


def open_credentials() -> Credentials | NoSecureKeyring:
    """The keyring, or why there is no safe one (returned, not raised: callers report it)."""
    try:
        return Credentials()
    except NoSecureKeyring as exc:
        return exc


def stored_accounts(database: Database) -> tuple[list[AccountSettings], str]:
    """The stored accounts and a keyring problem to show beside them ("" if none)."""
    try:
        accounts = AccountStore(database).saved()
    except Exception as exc:  # a broken database must reach the user
        log.exception("could not read the accounts")
        raise AccountsError(f"Hearth could not read your accounts: {exc}") from exc
    credentials = open_credentials()
    return accounts, str(credentials) if isinstance(credentials, NoSecureKeyring) else ""


def new_secret_ref(kind: str) -> str:
    """A random keyring name, so a re-created database never meets an old password."""
    return f"{kind}-{secrets.token_hex(8)}"


def save_account(
    database: Database,
    settings: AccountSettings,
    password: str,
    credentials: Credentials | NoSecureKeyring | None = None,
) -> SavedAccount:
    """The password (if given) to the keyring first, then the settings to the database.

    A keyring that refuses keeps the settings and says the password was NOT saved: it is then
    nowhere, not in the database or a file. Raises AccountsError if the database write fails.
    """
    if not settings.secret_ref:
        settings = replace(settings, secret_ref=new_secret_ref(settings.kind))
    in_keyring = False
    note = ""
    if password:
        keyring = open_credentials() if credentials is None else credentials
        if isinstance(keyring, Credentials):
            try:
                keyring.store(settings.secret_ref, password)
                in_keyring = True
            except CredentialError as exc:
                note = f" The password was NOT saved: {exc}"
        else:
            note = f" The password was NOT saved. {keyring}"
    else:
        in_keyring = settings.id is not None  # editing: the stored password stays
    store = AccountStore(database)
    try:
        stored = store.add(settings) if settings.id is None else store.update(settings)
    except Exception as exc:
        log.exception("could not save an account")
        raise AccountsError(f"Hearth could not save the account: {exc}") from exc
    return SavedAccount(stored, in_keyring, f"Saved “{settings.name}”.{note}")


def test_account(
    settings: AccountSettings,
    password: str,
    credentials: Credentials | NoSecureKeyring | None = None,
) -> AccountCheck:
    """Sign in once with these settings (the stored password if none is typed); say plainly
    what failed. Never raises: an unexpected error is still an answer for the user."""
    if not password and settings.secret_ref:
        keyring = open_credentials() if credentials is None else credentials
        if isinstance(keyring, Credentials):
            try:
                password = keyring.read(settings.secret_ref) or ""
            except CredentialError as exc:
                return AccountCheck(False, str(exc))
    if not password:
        return AccountCheck(False, "Enter the password first.")
    try:
        account = connector_account(settings, password)
        if settings.kind == "mail":
            emails = list_emails(account, limit=1)
            check_sending(account)  # signs in to SMTP too; sends nothing
            return AccountCheck(
                True,
                f"Connected: signed in to {settings.imap_host} as "
                f"{settings.username or settings.email} and read the inbox "
                f"({'it has mail' if emails else 'it is empty'}), and signed in to "
                f"{settings.smtp_host} for sending (nothing was sent).",
            )
        calendars = list_calendars(account)
        names = ", ".join(c.name for c in calendars[:5]) or "none yet"
        return AccountCheck(True, f"Connected: found {len(calendars)} calendar(s): {names}.")
    except (MailError, CalendarError) as exc:
        return AccountCheck(False, exc.message)
    except Exception as exc:  # unexpected: still a plain answer, never a crash
        log.warning("account test failed unexpectedly: %s", type(exc).__name__)
        return AccountCheck(False, f"The test failed: {type(exc).__name__}: {exc}")


test_account.__test__ = False  # type: ignore[attr-defined]  # not a pytest test when imported


def remove_account(
    database: Database,
    account_id: int,
    credentials: Credentials | NoSecureKeyring | None = None,
) -> str:
    """Forget the account and delete its password; returns a problem for the user or ""."""
    try:
        removed = AccountStore(database).remove(account_id)
    except Exception as exc:
        log.exception("could not remove an account")
        raise AccountsError(f"Hearth could not remove the account: {exc}") from exc
    if removed is None:
        return ""
    keyring = open_credentials() if credentials is None else credentials
    if isinstance(keyring, Credentials):
        try:
            keyring.delete(removed.secret_ref)
        except CredentialError as exc:
            return f"The account was removed, but its password was not: {exc}"
    return ""
