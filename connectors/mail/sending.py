"""Sending mail over SMTP (smtplib), exactly once, then filing a copy in Sent.

Why the SMTP dialogue is driven by hand (MAIL, RCPT, DATA, the body, the final reply): to know
the one moment after which the server may have accepted the message. A server accepts only a
complete message, ended by CRLF.CRLF, so any failure until the whole body has left is safely
"not sent". Once it has, a dropped connection or a timeout before the final reply means "maybe
sent": the connector raises reason "uncertain" with the Message-ID and never retries on its own
(a retry could deliver the email twice); ``check_sent`` can then look for the message. Every
recipient must be accepted before DATA: the user approved sending to all of them, so a partial
send is refused instead. Only after the server confirmed is a copy filed in Sent.
"""

from __future__ import annotations

import base64
import re
import smtplib
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage, Message
from email.utils import formataddr, formatdate, getaddresses, make_msgid

from connectors.hostnames import HostNameError, ascii_host

from .account import MailAccount
from .content import addresses, header, message_ids
from .errors import SETTINGS_HINT, MailError, MailErrorReason, network_error, server_text
from .imap import mark_answered, read_headers, save_to_sent

MAX_RECIPIENTS = 50
MAX_SUBJECT_CHARS = 500
MAX_BODY_CHARS = 1_000_000
MAX_REFERENCES = 20
# Servers may scan a message before answering DATA (RFC 5321 allows 10 minutes): wait longer
# for that one reply than for the others, since giving up makes the send "uncertain".
FINAL_REPLY_TIMEOUT_FACTOR = 3
# Sending the message body gets extra time for its size (a slow uplink is not a dead server).
MIN_UPLOAD_BYTES_PER_SECOND = 64 * 1024
# Sent in EHLO instead of the computer's name: no DNS lookup, and the name stays private.
EHLO_NAME = "[127.0.0.1]"
_LOCAL_PART = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$")
_DOMAIN_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


@dataclass(frozen=True, slots=True)
class SentResult:
    """What happened to a message that the SMTP server accepted."""

    message_id: str
    recipients: tuple[str, ...]  # every envelope recipient (To and Cc), bare addresses
    saved_to_sent: bool  # False also when the account has save_sent=False
    sent_folder: str | None = None  # where the copy went
    warning: str | None = None  # why filing the copy failed, for the user


def send_email(
    account: MailAccount,
    to: Sequence[str] | str,
    subject: str,
    body: str,
    cc: Sequence[str] | str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] | None = None,
) -> SentResult:
    """Send a plain-text email once, then file a copy in the Sent folder.

    Raises MailError "uncertain" (with ``message_id``) when the message may have gone out but the
    server's confirmation was lost: do not call again, use ``check_sent`` and ask the user.
    """
    message, recipients = build_message(account, to, subject, body, cc, in_reply_to, references)
    raw = message.as_bytes(policy=policy.SMTP)
    message_id = str(message["Message-ID"])
    _deliver(account, recipients, raw, message_id)
    folder, warning = (None, None)
    if account.save_sent:
        folder, warning = save_to_sent(account, raw)
    return SentResult(
        message_id=message_id,
        recipients=recipients,
        saved_to_sent=folder is not None,
        sent_folder=folder,
        warning=None if warning is None else f"The email was sent, but {_lower1(warning)}",
    )


def reply_email(account: MailAccount, email_id: str, body: str) -> SentResult:
    """Reply to the sender of an email ("Re: " subject, In-Reply-To and References).

    Goes to Reply-To if the email has one, else to From; a reply to one's own sent email goes
    to its original recipients. The original is not quoted: what is sent is exactly the
    ``body`` the user approved. Afterwards the original is flagged as answered.
    """
    ref, original = read_headers(account, email_id)
    recipients = _reply_recipients(account, email_id, original)
    subject = header(original, "Subject")
    if not subject.lower().startswith("re:"):
        subject = f"Re: {subject}".rstrip()
    parent = next(iter(message_ids(header(original, "Message-ID"))), None)
    chain = list(message_ids(header(original, "References")))
    if not chain and parent is None:
        chain = list(message_ids(header(original, "In-Reply-To")))
    if parent is not None:
        chain.append(parent)
    if len(chain) > MAX_REFERENCES:  # keep the thread's root and the latest ones
        chain = chain[:1] + chain[-(MAX_REFERENCES - 1) :]
    result = send_email(
        account,
        list(recipients),
        subject[:MAX_SUBJECT_CHARS],
        body,
        in_reply_to=parent,
        references=chain or None,
    )
    with suppress(MailError):  # cosmetic: the reply went out either way
        mark_answered(account, ref)
    return result


def reply_recipients(account: MailAccount, email_id: str) -> tuple[str, ...]:
    """Whom ``reply_email`` would send a reply to (read from the email's header)."""
    _, original = read_headers(account, email_id)
    return _reply_recipients(account, email_id, original)


def _reply_recipients(account: MailAccount, email_id: str, original: Message) -> tuple[str, ...]:
    recipients = addresses(original, "Reply-To") or addresses(original, "From")
    own = account.email.lower()
    if recipients and all(_bare(item).lower() == own for item in recipients):
        recipients = addresses(original, "To") or recipients
    if not recipients:
        raise MailError(
            MailErrorReason.INVALID,
            f"The email {email_id} of {account.email} has no sender address to reply to.",
            account=account.email,
        )
    return tuple(recipients)


# -- building ----------------------------------------------------------------------------------


def build_message(
    account: MailAccount,
    to: Sequence[str] | str,
    subject: str,
    body: str,
    cc: Sequence[str] | str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] | None = None,
) -> tuple[EmailMessage, tuple[str, ...]]:
    """The message and its envelope recipients; MailError "invalid" for anything malformed."""
    to_list = _recipients(to, "To", account)
    cc_list = _recipients(cc, "Cc", account) if cc else []
    if not to_list:
        _invalid(account, "An email needs at least one recipient in To.")
    envelope: list[str] = []
    for address in to_list + cc_list:
        if address.addr_spec.lower() not in (item.lower() for item in envelope):
            envelope.append(address.addr_spec)
    if len(envelope) > MAX_RECIPIENTS:
        _invalid(account, f"An email from Hearth can go to at most {MAX_RECIPIENTS} people.")
    if not isinstance(subject, str) or len(subject) > MAX_SUBJECT_CHARS:
        _invalid(account, f"The subject must be text of at most {MAX_SUBJECT_CHARS} characters.")
    if "\r" in subject or "\n" in subject or not subject.isprintable():
        _invalid(account, "The subject must be one line without control characters.")
    if not isinstance(body, str) or len(body) > MAX_BODY_CHARS:
        _invalid(account, f"The text must be at most {MAX_BODY_CHARS} characters.")
    threading = [in_reply_to] if in_reply_to else []
    for value in [*threading, *(references or [])]:
        if not isinstance(value, str) or message_ids(value) != (value.strip(),):
            _invalid(account, f"{str(value)[:80]!r} is not a Message-ID (like <id@host>).")

    message = EmailMessage(policy=policy.SMTP)
    message["From"] = formataddr((account.display_name, account.email))
    message["To"] = tuple(to_list)
    if cc_list:
        message["Cc"] = tuple(cc_list)
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=True)
    # The domain is given: make_msgid would otherwise ask DNS for this computer's name.
    message["Message-ID"] = make_msgid(domain=account.email.rsplit("@", 1)[1])
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to.strip()
    if references:
        message["References"] = " ".join(item.strip() for item in references)
    message.set_content(body.replace("\r\n", "\n").replace("\r", "\n"))
    return message, tuple(envelope)


def _recipients(
    value: Sequence[str] | str | None, field: str, account: MailAccount
) -> list[Address]:
    """One Address per entry; an entry holding two addresses or none is refused."""
    entries = [value] if isinstance(value, str) else list(value or [])
    result = []
    for entry in entries:
        if not isinstance(entry, str) or "\r" in entry or "\n" in entry:
            _invalid(account, f"{str(entry)[:80]!r} in {field} is not an email address.")
        parsed = getaddresses([entry])
        if len(parsed) != 1 or not _valid_address(parsed[0][1]):
            _invalid(
                account,
                f"{entry[:80]!r} in {field} is not one email address (like name@example.com).",
            )
        name, addr = parsed[0]
        local, domain = addr.rsplit("@", 1)
        result.append(Address(display_name=name, username=local, domain=ascii_host(domain)))
    return result


def _valid_address(addr: str) -> bool:
    """A plain ASCII local part and a host name (IDN allowed, IDNA 2008 as mail servers use
    it): what every server accepts."""
    if addr.count("@") != 1:
        return False
    local, domain = addr.split("@")
    if not _LOCAL_PART.match(local) or local.startswith(".") or ".." in local:
        return False
    try:
        ascii_domain = ascii_host(domain)
    except HostNameError:
        return False
    labels = ascii_domain.split(".")
    return len(labels) >= 2 and all(_DOMAIN_LABEL.match(label) for label in labels)


def _invalid(account: MailAccount, text: str) -> None:
    raise MailError(MailErrorReason.INVALID, text, account=account.email)


def _bare(address: str) -> str:
    return getaddresses([address])[0][1]


def _lower1(text: str) -> str:
    return text[:1].lower() + text[1:]


# -- SMTP --------------------------------------------------------------------------------------


def _deliver(account: MailAccount, recipients: Sequence[str], raw: bytes, message_id: str) -> None:
    """One SMTP session: connect, secure, authenticate, MAIL/RCPT/DATA. Never retried."""
    smtp = _connect(account)
    data_started = awaiting_reply = False
    try:
        _authenticate(smtp, account)
        code, reply = smtp.mail(account.email)
        if code != 250:
            raise _refused(account, code, reply, "refused the sender address")
        refused: list[str] = []
        reason = MailErrorReason.SERVER_ERROR
        for recipient in recipients:
            code, reply = smtp.rcpt(recipient)
            if code not in (250, 251):
                refused.append(f"{recipient} ({server_text(reply, account.password, 80)})")
                if _reason_for(code, reply) == MailErrorReason.QUOTA:
                    reason = MailErrorReason.QUOTA
        if refused:
            raise MailError(
                reason,
                f"Nothing was sent: the mail server of {account.email} refused "
                f"{', '.join(refused)}. Check the address and try again.",
                account=account.email,
            )
        code, reply = smtp.docmd("DATA")
        if code != 354:
            raise _refused(account, code, reply, "refused to take the message")
        payload = _dot_stuffed(raw)
        data_started = True
        # A failure while sending leaves the end marker (the last bytes) unsent: the server
        # cannot have accepted the message. Only a lost final reply is "uncertain".
        _set_timeout(smtp, account.timeout + len(payload) / MIN_UPLOAD_BYTES_PER_SECOND)
        smtp.send(payload)
        awaiting_reply = True
        _set_timeout(smtp, account.timeout * FINAL_REPLY_TIMEOUT_FACTOR)
        code, reply = smtp.getreply()
        if code != 250:
            raise _refused(account, code, reply, "did not accept the message")
    except MailError:
        raise
    except (OSError, smtplib.SMTPException) as exc:
        if awaiting_reply:
            raise _uncertain(account, message_id, exc) from None
        raise _not_sent(_translate(exc, account)) from None
    finally:
        # After a broken DATA phase the server may hang: no QUIT, just close.
        _close(smtp, polite=not data_started)


def check_sending(account: MailAccount) -> None:
    """Connect to the SMTP server, secure the session and sign in, then leave without sending:
    a wrong port or password shows up when the account is tested, not mid-task."""
    smtp = _connect(account)
    try:
        _authenticate(smtp, account)
    except (OSError, smtplib.SMTPException) as exc:
        raise _translate(exc, account) from None
    finally:
        _close(smtp)


def _set_timeout(smtp: smtplib.SMTP, seconds: float) -> None:
    if smtp.sock is not None:
        smtp.sock.settimeout(seconds)


def _not_sent(error: MailError) -> MailError:
    """The same error, saying plainly that the message did not go out."""
    if error.message.startswith("Nothing was sent"):
        return error
    return MailError(error.reason, f"Nothing was sent. {error.message}", account=error.account)


def _connect(account: MailAccount) -> smtplib.SMTP:
    """Connect and secure the session (implicit TLS, STARTTLS, or plain on loopback only)."""
    security = account.outgoing_security
    smtp: smtplib.SMTP | None = None
    try:
        if security == "tls":
            smtp = smtplib.SMTP_SSL(
                account.smtp_host,
                account.smtp_port,
                local_hostname=EHLO_NAME,
                timeout=account.timeout,
                context=account.ssl_context(),
            )
        else:
            smtp = smtplib.SMTP(
                account.smtp_host,
                account.smtp_port,
                local_hostname=EHLO_NAME,
                timeout=account.timeout,
            )
        smtp.ehlo()
        if security == "starttls":
            if not smtp.has_extn("starttls"):
                raise MailError(
                    MailErrorReason.TLS,
                    f"The SMTP server {account.smtp_host}:{account.smtp_port} of "
                    f"{account.email} does not offer STARTTLS, so Hearth did not send the "
                    f"password. Choose TLS (usually port 465) instead. {SETTINGS_HINT}",
                    account=account.email,
                )
            smtp.starttls(context=account.ssl_context())
            smtp.ehlo()
        return smtp
    except BaseException as exc:
        if smtp is not None:
            _close(smtp, polite=False)
        if isinstance(exc, (OSError, smtplib.SMTPException)):
            raise _translate(exc, account) from None
        raise


def _authenticate(smtp: smtplib.SMTP, account: MailAccount) -> None:
    """AUTH with the account's password; UTF-8 credentials go as AUTH PLAIN by hand."""
    try:
        if account.username.isascii() and account.password.isascii():
            smtp.login(account.username, account.password)
            return
        # smtplib encodes credentials as ASCII; RFC 4616 PLAIN is UTF-8.
        token = f"\0{account.username}\0{account.password}".encode()
        code, reply = smtp.docmd("AUTH", "PLAIN " + base64.b64encode(token).decode("ascii"))
        if code != 235:
            raise smtplib.SMTPAuthenticationError(code, reply)
    except smtplib.SMTPAuthenticationError as exc:
        raise MailError(
            MailErrorReason.AUTH_FAILED,
            f"The SMTP server {account.smtp_host} refused the sign-in for {account.email} "
            f"({server_text(exc.smtp_error, account.password)}). Check the user name and "
            f"password; some providers need an app password. {SETTINGS_HINT}",
            account=account.email,
        ) from None
    except smtplib.SMTPNotSupportedError:
        raise MailError(
            MailErrorReason.AUTH_FAILED,
            f"The SMTP server {account.smtp_host}:{account.smtp_port} of {account.email} does "
            "not offer a way to sign in on this connection (some servers allow it only after "
            f"STARTTLS or on another port). {SETTINGS_HINT}",
            account=account.email,
        ) from None


def _dot_stuffed(raw: bytes) -> bytes:
    """The DATA payload: CRLF line ends, leading dots doubled, ended by CRLF.CRLF (RFC 5321)."""
    data = re.sub(rb"\r\n|\r|\n", b"\r\n", raw)
    data = re.sub(rb"(?m)^\.", b"..", data)
    if not data.endswith(b"\r\n"):
        data += b"\r\n"
    return data + b".\r\n"


def _reason_for(code: int, reply: bytes) -> MailErrorReason:
    text = reply.decode("utf-8", "replace").lower()
    if code == 552 or code == 452 or "quota" in text or "mailbox full" in text:
        return MailErrorReason.QUOTA
    return MailErrorReason.SERVER_ERROR


def _refused(account: MailAccount, code: int, reply: bytes, what: str) -> MailError:
    """A definite refusal: the server answered, so nothing was sent."""
    reason = _reason_for(code, reply)
    advice = (
        "The mailbox is full or the message is too large."
        if reason == MailErrorReason.QUOTA
        else "Try again later."
    )
    return MailError(
        reason,
        f"Nothing was sent: the mail server of {account.email} {what} ({code} "
        f"{server_text(reply, account.password)}). {advice}",
        account=account.email,
    )


def _uncertain(account: MailAccount, message_id: str, exc: BaseException) -> MailError:
    return MailError(
        MailErrorReason.UNCERTAIN,
        f"The connection to the mail server of {account.email} broke after the email was "
        f"handed over ({server_text(exc, account.password, 80) or type(exc).__name__}), so it "
        "may or may not have been sent. Hearth did not send it again. Check the Sent folder "
        "(or ask Hearth to check) before sending it once more.",
        account=account.email,
        message_id=message_id,
    )


def _translate(exc: BaseException, account: MailAccount) -> MailError:
    translated = network_error(
        exc,
        account=account.email,
        service="SMTP",
        host=account.smtp_host,
        port=account.smtp_port,
        timeout=account.timeout,
    )
    if translated is not None:
        return translated
    if isinstance(exc, smtplib.SMTPResponseException):
        reply = exc.smtp_error
        reply = reply if isinstance(reply, bytes) else reply.encode("utf-8", "replace")
        return _refused(account, exc.smtp_code, reply, "refused the request")
    return MailError(
        MailErrorReason.SERVER_ERROR,
        f"Nothing was sent: the SMTP server of {account.email} failed "
        f"({server_text(exc, account.password)}).",
        account=account.email,
    )


def _close(smtp: smtplib.SMTP, *, polite: bool = True) -> None:
    """QUIT if the connection still works (ends an unsent transaction), then close."""
    try:
        if polite and smtp.sock is not None:
            smtp.quit()
    except (OSError, smtplib.SMTPException):
        pass
    finally:
        smtp.close()
