"""Known providers' server settings, so a user picks "Fastmail" instead of typing host names.

Plain data (no Qt): the accounts dialog fills its fields from a preset and shows its ``hint``.
Ports and security follow each provider's published settings; "tls" is implicit TLS (993/465),
"starttls" upgrades a plain connection (587). Where a provider has no CalDAV that accepts a
password (Google, Microsoft) the calendar URL is left out and the hint says so.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    """One provider's settings. ``calendar_url`` may hold ``{host}`` for a self-hosted server."""

    key: str
    label: str
    imap_host: str = ""
    imap_port: int = 993
    imap_security: str = "tls"
    smtp_host: str = ""
    smtp_port: int = 465
    smtp_security: str = "tls"
    app_password: bool = False  # the provider refuses the normal password for IMAP/SMTP/CalDAV
    calendar_url: str = ""
    save_sent: bool = True  # False where the provider files sent mail itself
    hint: str = ""

    @property
    def has_mail(self) -> bool:
        return bool(self.imap_host) or self.key == "other"

    @property
    def has_calendar(self) -> bool:
        return bool(self.calendar_url) or self.key == "other"

    def calendar_url_for(self, host: str = "") -> str:
        """The CalDAV address, with ``{host}`` filled in for self-hosted servers."""
        return self.calendar_url.replace("{host}", host.strip() or "HOST")


PRESETS: tuple[Preset, ...] = (
    Preset(
        "gmail",
        "Gmail",
        imap_host="imap.gmail.com",
        smtp_host="smtp.gmail.com",
        app_password=True,
        save_sent=False,
        hint="Gmail needs an app password: turn on 2-Step Verification in your Google "
        "account, then create one under Security → App passwords and paste it here. "
        "Google Calendar needs a Google sign-in that Hearth does not support yet.",
    ),
    Preset(
        "outlook",
        "Outlook.com / Hotmail",
        imap_host="outlook.office365.com",
        smtp_host="smtp-mail.outlook.com",
        smtp_port=587,
        smtp_security="starttls",
        app_password=True,
        hint="Outlook.com may refuse passwords from other apps and ask for a Microsoft sign-in, "
        "which Hearth does not support yet. If Test connection says the password was refused, "
        "try an app password from account.microsoft.com → Security. Outlook calendars are not "
        "available over CalDAV.",
    ),
    Preset(
        "icloud",
        "iCloud",
        imap_host="imap.mail.me.com",
        smtp_host="smtp.mail.me.com",
        smtp_port=587,
        smtp_security="starttls",
        app_password=True,
        calendar_url="https://caldav.icloud.com/",
        hint="iCloud needs an app-specific password: create one at account.apple.com → "
        "Sign-In and Security → App-Specific Passwords. Your user name is your Apple ID "
        "email address.",
    ),
    Preset(
        "fastmail",
        "Fastmail",
        imap_host="imap.fastmail.com",
        smtp_host="smtp.fastmail.com",
        app_password=True,
        calendar_url="https://caldav.fastmail.com/dav/",
        hint="Fastmail needs an app password: create one in Settings → Privacy & Security → "
        "App passwords (allow mail and/or calendars). Your user name is your full address.",
    ),
    Preset(
        "yahoo",
        "Yahoo Mail",
        imap_host="imap.mail.yahoo.com",
        smtp_host="smtp.mail.yahoo.com",
        app_password=True,
        hint="Yahoo needs an app password: create one in Account Info → Account Security → "
        "Generate app password.",
    ),
    Preset(
        "nextcloud",
        "Nextcloud (calendar)",
        calendar_url="https://{host}/remote.php/dav",
        hint="Use your Nextcloud's address in place of HOST. An app password (Settings → "
        "Security → Devices & sessions) is safer than your login password.",
    ),
    Preset(
        "other",
        "Other",
        smtp_port=587,
        smtp_security="starttls",
        hint="Enter the settings your provider publishes for IMAP, SMTP or CalDAV.",
    ),
)

BY_KEY: dict[str, Preset] = {preset.key: preset for preset in PRESETS}


def presets_for(kind: str) -> list[Preset]:
    """The presets that offer ``kind`` ("mail" or "calendar"), "Other" last."""
    if kind == "mail":
        return [p for p in PRESETS if p.has_mail]
    return [p for p in PRESETS if p.has_calendar]
