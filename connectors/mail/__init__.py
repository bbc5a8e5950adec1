"""Mail connector: read mail over IMAP (imapclient) and send it over SMTP (smtplib).

Plain functions and typed results; no Qt, no model, no policy (the gate decides whether a call
may run; this code makes sure a call that runs does exactly one thing, safely):

    account = MailAccount("me@example.com", "imap.example.com", 993, "smtp.example.com", 465,
                          "me@example.com", password_from_keyring, security="tls")
    list_emails(account, unread_only=True)          # newest first, nothing marked read
    search_emails(account, "invoice from:bob", since=date(2024, 5, 1))
    read_email(account, "INBOX:1712345678:42")      # text only; attachments listed
    send_email(account, ["bob@example.com"], "Hi", "Hello Bob")
    reply_email(account, "INBOX:1712345678:42", "Thanks!")

Failures raise ``MailError`` with a message for the user and a stable ``reason``. A send whose
outcome is unknown raises reason "uncertain" and is never retried: see ``check_sent``.
Passwords never appear in messages, reprs or logs, and imaplib/smtplib debug output stays off.
"""

from .account import MailAccount, Security, is_loopback_host
from .content import Attachment, Email, EmailSummary, html_to_text, sanitize_html
from .errors import MailError, MailErrorReason
from .ids import EmailRef, make_email_id, parse_email_id
from .imap import check_sent, list_emails, read_email, search_emails
from .sending import (
    SentResult,
    build_message,
    check_sending,
    reply_email,
    reply_recipients,
    send_email,
)

__all__ = [
    "Attachment",
    "Email",
    "EmailRef",
    "EmailSummary",
    "MailAccount",
    "MailError",
    "MailErrorReason",
    "Security",
    "SentResult",
    "build_message",
    "check_sending",
    "check_sent",
    "html_to_text",
    "is_loopback_host",
    "list_emails",
    "make_email_id",
    "parse_email_id",
    "read_email",
    "reply_email",
    "reply_recipients",
    "sanitize_html",
    "search_emails",
    "send_email",
]
