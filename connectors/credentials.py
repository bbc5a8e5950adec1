"""Account passwords in the operating system's password store (the keyring), and nowhere else.

Why here and not in ``app/store``: the keyring is an outside system (Secret Service, KWallet,
macOS Keychain, Windows Credential Locker) reached over IPC, like the mail and calendar servers,
and DESIGN.md lists "credentials" among the connectors. Keeping it out of ``app/store`` also
keeps the rule visible: the database holds settings, never secrets.

Only backends known to encrypt are accepted (an allow-list, so an unknown or plain-text backend
such as ``keyrings.alt``'s ``PlaintextKeyring`` or the ``fail``/``null`` backends is refused
rather than trusted). There is no fallback: without a secure keyring, ``NoSecureKeyring`` says
what to do and nothing is written. Passwords are never logged or put in messages.
"""

from __future__ import annotations

import logging

import keyring
from keyring.backend import KeyringBackend
from keyring.backends.chainer import ChainerBackend
from keyring.errors import KeyringError, PasswordDeleteError

log = logging.getLogger(__name__)

SERVICE = "Hearth"

# Backends that keep secrets encrypted by the operating system. Matched by module, so a
# subclass living elsewhere (keyrings.alt, a user's plug-in) is not trusted by accident.
SECURE_MODULES: frozenset[str] = frozenset(
    {
        "keyring.backends.SecretService",  # GNOME Keyring, KeePassXC, … over D-Bus
        "keyring.backends.libsecret",
        "keyring.backends.kwallet",  # KDE Wallet
        "keyring.backends.macOS",  # Keychain
        "keyring.backends.Windows",  # Credential Locker
    }
)

NO_KEYRING_MESSAGE = (
    "Hearth keeps your email and calendar passwords only in your computer's password store "
    "(the “keyring”), and it could not find a safe one to use{detail}. Your password was not "
    "saved anywhere. On Linux, install “GNOME Keyring” (the gnome-keyring package) or "
    "“KDE Wallet”, sign out and in again, then try once more. On Windows and macOS this "
    "should work as it is: please report it if you see this message there."
)


class NoSecureKeyring(RuntimeError):
    """No encrypted password store is available; Hearth refuses to keep passwords elsewhere."""

    def __init__(self, backend_name: str = "") -> None:
        detail = f" (it found “{backend_name}”, which is not safe)" if backend_name else ""
        super().__init__(NO_KEYRING_MESSAGE.format(detail=detail))
        self.backend_name = backend_name


class CredentialError(RuntimeError):
    """The keyring is secure but the operation failed (locked, refused, D-Bus error)."""


def _name(backend: KeyringBackend) -> str:
    return f"{type(backend).__module__}.{type(backend).__name__}"


def is_secure(backend: KeyringBackend) -> bool:
    """True for a backend from the allow-list (a chainer is judged by its members)."""
    return type(backend).__module__ in SECURE_MODULES


def secure_keyring(backend: KeyringBackend | None = None) -> KeyringBackend:
    """The backend to use, or NoSecureKeyring. A chainer is unwrapped to its best secure
    member, so a plain-text backend ranked above it can never receive a password."""
    chosen = backend if backend is not None else keyring.get_keyring()
    if isinstance(chosen, ChainerBackend):
        secure = [member for member in chosen.backends if is_secure(member)]
        if not secure:
            names = ", ".join(_name(m) for m in chosen.backends) or "no password store at all"
            raise NoSecureKeyring(names)
        return secure[0]  # ChainerBackend keeps its members sorted by priority
    if not is_secure(chosen):
        raise NoSecureKeyring(_name(chosen))
    return chosen


class Credentials:
    """Store, read, change and delete one password per account key (e.g. ``account:3``).

    Construction checks the backend, so holding a ``Credentials`` means the keyring is safe.
    """

    def __init__(self, backend: KeyringBackend | None = None, service: str = SERVICE) -> None:
        self.backend = secure_keyring(backend)
        self.service = service

    @property
    def backend_name(self) -> str:
        return _name(self.backend)

    def store(self, key: str, password: str) -> None:
        """Save (or replace) the password for ``key``."""
        if not password:
            raise ValueError("An empty password is not stored.")
        try:
            self.backend.set_password(self.service, key, password)
        except KeyringError as exc:
            log.warning("keyring refused to store the password for %s: %s", key, type(exc).__name__)
            raise CredentialError(
                f"The password store refused to save the password ({type(exc).__name__}). "
                "If it asked to be unlocked, unlock it and try again."
            ) from None
        log.info("stored the password for %s in %s", key, self.backend_name)

    def read(self, key: str) -> str | None:
        """The password for ``key``, or None if there is none."""
        try:
            return self.backend.get_password(self.service, key)
        except KeyringError as exc:
            log.warning("keyring could not read the password for %s: %s", key, type(exc).__name__)
            raise CredentialError(
                f"The password store could not be read ({type(exc).__name__}). If it is locked, "
                "unlock it and try again."
            ) from None

    def change(self, key: str, password: str) -> None:
        """Replace an existing password (the keyring overwrites in place)."""
        self.store(key, password)

    def delete(self, key: str) -> bool:
        """Remove the password for ``key``; False if there was none."""
        try:
            self.backend.delete_password(self.service, key)
        except PasswordDeleteError:
            return False
        except KeyringError as exc:
            log.warning("keyring could not delete the password for %s: %s", key, type(exc).__name__)
            raise CredentialError(
                f"The password store could not delete the password ({type(exc).__name__})."
            ) from None
        log.info("deleted the password for %s", key)
        return True
