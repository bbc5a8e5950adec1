"""A mail account's settings, and the TLS rules every connection follows.

The product connects with implicit TLS or STARTTLS and checks certificates. "plain" exists only
for a mail server on this computer (a local bridge such as Proton Bridge, or the test servers):
it is refused for any other host, so a typo in the settings can never send a password in clear
text across a network.
"""

from __future__ import annotations

import ipaddress
import ssl
from dataclasses import dataclass, field
from typing import Literal

from connectors.email_address import is_email_address
from connectors.hostnames import HostNameError, ascii_host

from .errors import SETTINGS_HINT, MailError, MailErrorReason

Security = Literal["tls", "starttls", "plain"]
SECURITY_CHOICES: frozenset[str] = frozenset({"tls", "starttls", "plain"})


def is_loopback_host(host: str) -> bool:
    """True for names and addresses that can only mean this computer (no DNS lookup)."""
    name = host.strip().lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


def _network_host(host: str, email: str) -> str:
    """A server name as sockets and TLS get it: IDNA 2008 for international names (Python's
    socket and ssl modules would encode them as IDNA 2003, mail.faß.de as mail.fass.de)."""
    host = host.strip()
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    else:
        return host
    try:
        return ascii_host(host)
    except HostNameError as exc:
        raise MailError(
            MailErrorReason.INVALID,
            f"The server name {host!a} of {email} is not valid ({exc}). {SETTINGS_HINT}",
            account=email,
        ) from exc


@dataclass(frozen=True, slots=True)
class MailAccount:
    """Where and how to reach one mailbox. The password never appears in ``repr``."""

    email: str
    imap_host: str
    imap_port: int
    smtp_host: str
    smtp_port: int
    username: str
    password: str = field(repr=False)
    security: Security = "tls"
    # SMTP often differs from IMAP (IMAP 993 TLS + SMTP 587 STARTTLS); None means "as IMAP".
    smtp_security: Security | None = None
    display_name: str = ""  # the name shown in From:
    timeout: float = 20.0  # seconds, for connecting and for every read or write
    ca_file: str | None = None  # PEM CA trusted instead of the system CAs (self-hosted)
    save_sent: bool = True  # False for providers that file sent mail themselves (Gmail)

    def __post_init__(self) -> None:
        if not is_email_address(self.email):
            raise MailError(
                MailErrorReason.INVALID,
                f"'{self.email}' is not an email address. {SETTINGS_HINT}",
                account=self.email,
            )
        for what, port in (("IMAP", self.imap_port), ("SMTP", self.smtp_port)):
            if not 0 < port < 65536:
                raise MailError(
                    MailErrorReason.INVALID,
                    f"The {what} port {port} of {self.email} is not a valid port. {SETTINGS_HINT}",
                    account=self.email,
                )
        if not self.timeout > 0:
            raise MailError(
                MailErrorReason.INVALID,
                f"The timeout of {self.email} must be positive.",
                account=self.email,
            )
        for name in ("imap_host", "smtp_host"):  # frozen: set once, here
            object.__setattr__(self, name, _network_host(getattr(self, name), self.email))
        for what, host, security in (
            ("IMAP", self.imap_host, self.security),
            ("SMTP", self.smtp_host, self.outgoing_security),
        ):
            if security not in SECURITY_CHOICES:
                raise MailError(
                    MailErrorReason.INVALID,
                    f"The {what} security setting of {self.email} must be TLS or STARTTLS "
                    f"(got {security!r}). {SETTINGS_HINT}",
                    account=self.email,
                )
            if security == "plain" and not is_loopback_host(host):
                raise MailError(
                    MailErrorReason.TLS,
                    f"Hearth will not send the password of {self.email} unencrypted to the "
                    f"{what} server {host}. Choose TLS or STARTTLS for it (an unencrypted "
                    f"connection is only allowed to a mail server on this computer). "
                    f"{SETTINGS_HINT}",
                    account=self.email,
                )

    @property
    def outgoing_security(self) -> Security:
        """The security used for SMTP."""
        return self.smtp_security or self.security

    def ssl_context(self) -> ssl.SSLContext:
        """A certificate- and host-name-checking TLS context (1.2 or newer)."""
        context = ssl.create_default_context(cafile=self.ca_file)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        return context
