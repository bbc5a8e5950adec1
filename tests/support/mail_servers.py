"""Real mail servers on 127.0.0.1 for the mail connector tests: Dovecot (IMAP + LMTP) and aiosmtpd.

Dovecot runs from a standalone config in its own folder, so it never touches the machine's
Dovecot set-up. As root, Dovecot stores mail as ``nobody``, which must be able to walk the whole
path: pytest's own tmp folders are private (0700), so the folder is made with ``mkdtemp`` and
opened to 0755. The SMTP side is an aiosmtpd ``Controller`` with AUTH whose handler passes each
message to Dovecot over LMTP, so a message the connector sends lands in the recipient's INBOX.
The handler can also misbehave on purpose (drop the connection after DATA, or hang) to test
that the connector never sends twice when it cannot know whether a message went out.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import smtplib
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

if TYPE_CHECKING:
    from app.store.accounts import AccountSettings

DATA = Path(__file__).parent / "data"
CERT = DATA / "test-tls-cert.pem"  # self-signed for secure.example, valid until 2126
KEY = DATA / "test-tls-key.pem"
TLS_NAME = "secure.example"
NOBODY_UID = 65534


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    """Wait until something accepts connections on 127.0.0.1:port (servers start async)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@dataclass(frozen=True)
class MailUser:
    """One mailbox: address, password and an optional Dovecot quota rule."""

    email: str
    password: str
    quota: str | None = None  # e.g. "*:storage=4K"


@dataclass
class Dovecot:
    """A private Dovecot instance (IMAP, IMAPS, LMTP) on loopback ports."""

    root: Path
    users: Mapping[str, MailUser]
    imap_port: int = field(default_factory=free_port)
    imaps_port: int = field(default_factory=free_port)
    lmtp_port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def config(self) -> Path:
        return self.root / "dovecot.conf"

    def home(self, email: str) -> Path:
        return self.root / "home" / email.split("@")[0]

    def write_config(self) -> None:
        """Write the users file and a config that only listens on 127.0.0.1."""
        (self.root / "home").mkdir(mode=0o755)
        lines = []
        for user in self.users.values():
            home = self.home(user.email)
            home.mkdir(mode=0o700)
            # Mail is stored as nobody (see the module docstring).
            os.chown(home, NOBODY_UID, NOBODY_UID)
            extra = f"userdb_quota_rule={user.quota}" if user.quota else ""
            lines.append(
                f"{user.email}:{{PLAIN}}{user.password}:{NOBODY_UID}:{NOBODY_UID}::{home}::{extra}"
            )
        users_file = self.root / "users"
        users_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        for name in ("run", "state"):
            (self.root / name).mkdir(mode=0o755)
        self.config.write_text(
            f"""
protocols = imap lmtp
listen = 127.0.0.1
base_dir = {self.root}/run
state_dir = {self.root}/state
instance_name = hearth-test-{self.imap_port}
log_path = {self.root}/dovecot.log
ssl = yes
ssl_cert = <{CERT}
ssl_key = <{KEY}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
first_valid_uid = 1
mail_location = maildir:~/Maildir
mail_plugins = $mail_plugins quota
protocol imap {{
  mail_plugins = $mail_plugins imap_quota
}}
plugin {{
  quota = maildir:User quota
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {users_file}
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {users_file}
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.imaps_port}
    ssl = yes
  }}
}}
# No growing delay after the wrong-password tests (Dovecot's brute-force penalty per IP).
service anvil {{
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {self.lmtp_port}
  }}
}}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox Sent {{
    special_use = \\Sent
    auto = subscribe
  }}
  mailbox Drafts {{
    special_use = \\Drafts
    auto = subscribe
  }}
  mailbox Trash {{
    special_use = \\Trash
    auto = subscribe
  }}
}}
""",
            encoding="utf-8",
        )

    def start(self) -> None:
        if shutil.which("dovecot") is None:
            raise RuntimeError(
                "Dovecot is not installed: apt-get install -y dovecot-imapd dovecot-lmtpd"
            )
        self.write_config()
        command = ["dovecot", "-F", "-c", str(self.config)]
        if shutil.which("setpriv"):  # if pytest itself is killed, Dovecot goes with it
            command = ["setpriv", "--pdeathsig", "TERM", *command]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            for port in (self.imap_port, self.imaps_port, self.lmtp_port):
                wait_for_port(port)
        except OSError:
            self.stop()
            raise RuntimeError(f"Dovecot did not start:\n{self.log()}") from None

    def stop(self) -> None:
        """Stop the master process; it takes its children (imap, auth, lmtp) with it."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)
        if self.process.stderr is not None:
            self.process.stderr.close()
        self.process = None

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else "(no log)"


Mode = Literal["relay", "drop_after_delivery", "drop_before_delivery", "hang"]


class LmtpRelay:
    """aiosmtpd handler: hands each message to Dovecot over LMTP, or misbehaves on request.

    ``deliveries`` counts messages handed to Dovecot; ``data_commands`` counts completed DATA
    phases the server received (a client that retried would show 2).
    """

    def __init__(self, lmtp_port: int) -> None:
        self.lmtp_port = lmtp_port
        self.mode: Mode = "relay"
        self.hang_seconds = 3.0
        self.deliveries = 0
        self.data_commands = 0
        self.logins: list[str] = []  # AUTH attempts (user names), successful or not
        self._lock = threading.Lock()

    def reset(self, mode: Mode = "relay") -> None:
        with self._lock:
            self.mode = mode
            self.deliveries = 0
            self.data_commands = 0
            self.logins.clear()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        with self._lock:
            self.data_commands += 1
            mode = self.mode
        if mode == "drop_before_delivery":
            _drop(server)
            return "250 never seen by the client"
        if mode == "hang":
            await asyncio.sleep(self.hang_seconds)
            return "451 4.3.0 too late"
        reply = await asyncio.get_running_loop().run_in_executor(None, self._deliver, envelope)
        if mode == "drop_after_delivery":
            _drop(server)
        return reply

    def _deliver(self, envelope: Envelope) -> str:
        """Pass the message on over LMTP; turn LMTP refusals into the SMTP reply.

        One LMTP transaction per recipient: LMTP answers DATA once per recipient, which
        smtplib.LMTP does not read, so a multi-recipient transaction would desynchronise it.
        """
        content = envelope.original_content or envelope.content or b""
        assert isinstance(content, bytes)
        try:
            with smtplib.LMTP("127.0.0.1", self.lmtp_port, timeout=10) as lmtp:
                for recipient in envelope.rcpt_tos:
                    lmtp.sendmail(envelope.mail_from or "", [recipient], content)
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()))
            return f"{code} {text.decode(errors='replace')}"
        except smtplib.SMTPResponseException as exc:
            error = exc.smtp_error
            said = error.decode(errors="replace") if isinstance(error, bytes) else error
            return f"{exc.smtp_code} {said}"
        with self._lock:
            self.deliveries += 1
        return "250 2.0.0 delivered"


def _drop(server: SMTP) -> None:
    """Cut the connection without a reply (the client's final response is lost)."""
    transport: Any = server.transport
    if transport is not None:
        transport.abort()


def _authenticator(users: Mapping[str, MailUser], relay: LmtpRelay) -> Any:
    def authenticate(
        server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
    ) -> AuthResult:
        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login = auth_data.login.decode("utf-8", "replace")
        relay.logins.append(login)
        user = users.get(login)
        ok = user is not None and auth_data.password.decode("utf-8", "replace") == user.password
        return AuthResult(success=ok, handled=False)

    return authenticate


@dataclass
class SmtpServer:
    """aiosmtpd on 127.0.0.1 with AUTH (plain text allowed: loopback only), relaying to LMTP."""

    users: Mapping[str, MailUser]
    relay: LmtpRelay
    starttls: bool = False  # offer STARTTLS with the secure.example test certificate
    implicit_tls: bool = False
    port: int = field(default_factory=free_port)
    controller: Controller | None = None

    def start(self) -> None:
        kwargs: dict[str, Any] = {}
        if self.starttls or self.implicit_tls:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(CERT, KEY)
            kwargs["tls_context" if self.starttls else "ssl_context"] = context
        with warnings.catch_warnings():  # "AUTH without TLS": on purpose, loopback only
            warnings.simplefilter("ignore", UserWarning)
            self.controller = Controller(
                self.relay,
                hostname="127.0.0.1",
                port=self.port,
                server_hostname="mail.example.test",  # no getfqdn(): it may ask DNS
                authenticator=_authenticator(self.users, self.relay),
                auth_required=True,
                auth_require_tls=False,
                **kwargs,
            )
            self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


def make_root() -> Path:
    """A test folder that ``nobody`` can walk (pytest's tmp folders are private)."""
    root = Path(tempfile.mkdtemp(prefix="hearth-mail-"))
    root.chmod(0o755)
    return root


def remove_root(root: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)


def account_settings(
    dovecot: Dovecot, smtp: SmtpServer, email: str, name: str, **extra: Any
) -> AccountSettings:
    """A mail account as the app stores it, on these servers without TLS (loopback only)."""
    from app.store.accounts import AccountSettings

    return AccountSettings(
        kind="mail",
        name=name,
        email=email,
        **extra,
        imap_host="127.0.0.1",
        imap_port=dovecot.imap_port,
        imap_security="plain",
        smtp_host="127.0.0.1",
        smtp_port=smtp.port,
        smtp_security="plain",
    )
