"""Reading mail over IMAP (imapclient): list, search, read, and find a sent message.

Each call opens one connection, does its work and logs out: no connection outlives a tool call,
so a stale or half-broken session can never be reused, and every connect, read and write has
the account's timeout. Reading never changes the mailbox unless asked: folders are opened with
EXAMINE (read-only) and bodies fetched with BODY.PEEK, so an email the assistant read for the
user (say, to summarise "my unread mail") stays unread until the user opens it themselves.
``read_email(..., mark_read=True)`` is for the app when the user opens a message in the window.
"""

from __future__ import annotations

import imaplib
import logging
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import date, datetime
from typing import Any

from imapclient import IMAPClient, SocketTimeout
from imapclient.exceptions import LoginError

from .account import MailAccount
from .content import (
    MAX_TEXT_CHARS,
    Email,
    EmailSummary,
    addresses,
    attachments,
    body_text,
    header,
    message_date,
    message_ids,
    parse_message,
    snippet,
)
from .errors import SETTINGS_HINT, MailError, MailErrorReason, network_error, server_text
from .ids import MAX_FOLDER_LENGTH, EmailRef, make_email_id, parse_email_id

SEEN = b"\\Seen"
DELETED = b"\\Deleted"
ANSWERED = b"\\Answered"
SENT_FLAG = b"\\Sent"
MAX_LIMIT = 100
# The list fetches this much of each message for its snippet (the text part comes first).
SNIPPET_FETCH_BYTES = 32 * 1024
# Larger messages are read only up to here (the rest is mostly attachments) and marked truncated.
MAX_MESSAGE_BYTES = 25 * 1024 * 1024
_QUERY_TOKEN = re.compile(r'(?:(\w+):)?(?:"([^"]*)"?|(\S+))')
_MAX_QUERY_CHARS = 300


class _NoTrace(logging.Filter):
    """Drops imapclient's DEBUG trace: it logs every command and reply, so search words,
    headers and message bodies (personal data) would reach the app's logs. imapclient already
    redacts LOGIN; this keeps contents out too. Its INFO and WARNING records still pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.DEBUG


for _name in ("imapclient.imapclient", "imapclient.imaplib"):
    if not any(isinstance(item, _NoTrace) for item in logging.getLogger(_name).filters):
        logging.getLogger(_name).addFilter(_NoTrace())


@contextmanager
def imap_session(account: MailAccount) -> Iterator[IMAPClient]:
    """A logged-in IMAP connection; every failure inside becomes a MailError."""
    client = _connect(account)
    try:
        _login(client, account)
        yield client
    except MailError:
        raise
    except (OSError, EOFError, imaplib.IMAP4.error) as exc:
        raise _translate(exc, account) from None
    finally:
        with suppress(Exception):
            client.logout()
        with suppress(Exception):
            client.shutdown()


def _connect(account: MailAccount) -> IMAPClient:
    """Open the connection (implicit TLS, STARTTLS, or plain on loopback only)."""
    timeout = SocketTimeout(connect=account.timeout, read=account.timeout)
    try:
        client = IMAPClient(
            account.imap_host,
            account.imap_port,
            ssl=account.security == "tls",
            ssl_context=account.ssl_context() if account.security == "tls" else None,
            timeout=timeout,
        )
    except (OSError, EOFError, imaplib.IMAP4.error) as exc:
        raise _translate(exc, account) from None
    client.normalise_times = False  # keep the server's time zones: aware datetimes
    if account.security != "starttls":
        return client
    try:
        if not client.has_capability("STARTTLS"):
            raise MailError(
                MailErrorReason.TLS,
                f"The IMAP server {account.imap_host}:{account.imap_port} of {account.email} "
                "does not offer STARTTLS, so Hearth did not send the password. Choose TLS "
                f"(usually port 993) instead. {SETTINGS_HINT}",
                account=account.email,
            )
        client.starttls(account.ssl_context())
    except BaseException as exc:
        with suppress(Exception):
            client.shutdown()
        if isinstance(exc, (OSError, EOFError, imaplib.IMAP4.error)):
            raise _translate(exc, account) from None
        raise
    return client


def _login(client: IMAPClient, account: MailAccount) -> None:
    """LOGIN, or AUTHENTICATE PLAIN when the credentials are not ASCII (LOGIN cannot carry it)."""
    try:
        if account.username.isascii() and account.password.isascii():
            client.login(account.username, account.password)
        else:
            client.plain_login(account.username, account.password)
    except LoginError as exc:
        raise MailError(
            MailErrorReason.AUTH_FAILED,
            f"The IMAP server {account.imap_host} refused the sign-in for {account.email} "
            f"({server_text(exc, account.password)}). Check the user name and password; some "
            f"providers need an app password. {SETTINGS_HINT}",
            account=account.email,
        ) from None


def _translate(exc: BaseException, account: MailAccount) -> MailError:
    """Map socket and IMAP failures onto reasons."""
    translated = network_error(
        exc,
        account=account.email,
        service="IMAP",
        host=account.imap_host,
        port=account.imap_port,
        timeout=account.timeout,
    )
    if translated is not None:
        return translated
    text = server_text(exc, account.password)
    if "OVERQUOTA" in text.upper() or "quota" in text.lower():
        return MailError(
            MailErrorReason.QUOTA,
            f"The mailbox of {account.email} is full ({text}). Delete some mail (and empty "
            "the trash), then try again.",
            account=account.email,
        )
    return MailError(
        MailErrorReason.SERVER_ERROR,
        f"The IMAP server of {account.email} refused the request ({text}).",
        account=account.email,
    )


# -- folders -----------------------------------------------------------------------------------


def _check_folder(folder: object, account: MailAccount) -> str:
    if (
        not isinstance(folder, str)
        or not folder.strip()
        or len(folder) > MAX_FOLDER_LENGTH
        or not folder.isprintable()
    ):
        raise MailError(
            MailErrorReason.INVALID,
            f"{repr(folder)[:80]} is not a folder name. Use INBOX or a folder of {account.email}.",
            account=account.email,
        )
    return folder.strip()


def _select(
    client: IMAPClient,
    account: MailAccount,
    folder: str,
    *,
    readonly: bool = True,
    missing: MailErrorReason = MailErrorReason.MAILBOX_MISSING,
) -> int:
    """Open a folder (read-only by default) and return its UIDVALIDITY."""
    try:
        info = client.select_folder(folder, readonly=readonly)
    except imaplib.IMAP4.abort:
        raise
    except imaplib.IMAP4.error:
        if client.folder_exists(folder):
            raise
        names = [str(item[2]) for item in client.list_folders()][:30]
        what = "The folder" if missing == MailErrorReason.MAILBOX_MISSING else "The email's folder"
        raise MailError(
            missing,
            f"{what} '{folder}' does not exist in the mailbox of {account.email}. Its folders "
            f"are: {', '.join(names) or '(none)'}.",
            account=account.email,
        ) from None
    return int(info[b"UIDVALIDITY"])


def find_sent_folder(client: IMAPClient) -> str | None:
    """The folder marked \\Sent (RFC 6154 SPECIAL-USE), else a folder with a usual name."""
    found = client.find_special_folder(SENT_FLAG)
    return str(found) if found else None


# -- listing and searching ---------------------------------------------------------------------


def list_emails(
    account: MailAccount, folder: str = "INBOX", unread_only: bool = False, limit: int = 20
) -> list[EmailSummary]:
    """The newest emails in a folder (newest first), optionally only the unread ones."""
    folder = _check_folder(folder, account)
    limit = _check_limit(limit, account)
    criteria: list[Any] = ["NOT", "DELETED"]
    if unread_only:
        criteria.append("UNSEEN")
    with imap_session(account) as client:
        uidvalidity = _select(client, account, folder)
        uids = _newest_first(client, criteria)[:limit]
        return _summaries(client, folder, uidvalidity, uids)


def search_emails(
    account: MailAccount,
    query: str,
    folder: str = "INBOX",
    since: date | str | None = None,
    limit: int = 20,
) -> list[EmailSummary]:
    """Emails matching ``query`` (newest first).

    Each word or "quoted phrase" must appear in the sender, the subject or the text (IMAP
    ``OR FROM/SUBJECT/TEXT``). Filters: ``from:``, ``to:``, ``subject:``, ``is:unread``,
    ``is:read``, ``is:flagged``. ``since`` (a date or "YYYY-MM-DD") keeps emails that arrived on
    or after that day.
    """
    folder = _check_folder(folder, account)
    limit = _check_limit(limit, account)
    criteria = ["NOT", "DELETED", *search_criteria(query, account)]
    if since is not None:
        criteria += ["SINCE", _check_since(since, account)]
    with imap_session(account) as client:
        uidvalidity = _select(client, account, folder)
        uids = _newest_first(client, criteria)[:limit]
        return _summaries(client, folder, uidvalidity, uids)


def search_criteria(query: str, account: MailAccount) -> list[Any]:
    """Translate a search query into IMAP SEARCH criteria (see ``search_emails``)."""
    if (
        not isinstance(query, str)
        or not query.strip()
        or len(query) > _MAX_QUERY_CHARS
        or not query.isprintable()
    ):
        raise MailError(
            MailErrorReason.INVALID,
            f"Give a few words to search for (at most {_MAX_QUERY_CHARS} characters) in the "
            f"mail of {account.email}.",
            account=account.email,
        )
    criteria: list[Any] = []
    for match in _QUERY_TOKEN.finditer(query):
        key, quoted, bare = match.groups()
        value = quoted if quoted is not None else bare or ""
        key = (key or "").lower()
        if key in ("from", "to", "subject") and value:
            criteria += [key.upper(), value.encode()]
        elif key == "is" and value.lower() in ("unread", "unseen", "new"):
            criteria.append("UNSEEN")
        elif key == "is" and value.lower() in ("read", "seen"):
            criteria.append("SEEN")
        elif key == "is" and value.lower() in ("flagged", "starred"):
            criteria.append("FLAGGED")
        else:
            term = match.group(0).replace('"', "") if key else value
            if term.strip():
                # Flat prefix notation (OR takes two keys), and bytes: imapclient encodes
                # str in nested lists as ASCII and breaks literals inside parentheses.
                word = term.encode()
                criteria += ["OR", "FROM", word, "OR", "SUBJECT", word, "TEXT", word]
    if not criteria:
        raise MailError(
            MailErrorReason.INVALID,
            f"Give a few words to search for in the mail of {account.email}.",
            account=account.email,
        )
    return criteria


def _check_limit(limit: object, account: MailAccount) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise MailError(
            MailErrorReason.INVALID,
            f"The number of emails to show must be a whole number from 1 to {MAX_LIMIT}.",
            account=account.email,
        )
    return min(limit, MAX_LIMIT)


def _check_since(since: date | str, account: MailAccount) -> date:
    if isinstance(since, datetime):
        return since.date()
    if isinstance(since, date):
        return since
    try:
        return date.fromisoformat(str(since).strip()[:10])
    except ValueError:
        raise MailError(
            MailErrorReason.INVALID,
            f"{str(since)[:40]!r} is not a date; use the form 2024-05-31.",
            account=account.email,
        ) from None


def _newest_first(client: IMAPClient, criteria: list[Any]) -> list[int]:
    """Matching UIDs, newest arrival first (server-side SORT when offered, else by UID)."""
    charset = None if _ascii(criteria) else "UTF-8"
    if client.has_capability("SORT"):
        return [int(uid) for uid in client.sort(["REVERSE", "ARRIVAL"], criteria, "UTF-8")]
    return sorted((int(uid) for uid in client.search(criteria, charset)), reverse=True)


def _ascii(criteria: object) -> bool:
    if isinstance(criteria, list):
        return all(_ascii(item) for item in criteria)  # (nested lists are not used)
    if isinstance(criteria, (bytes, str)):
        return criteria.isascii()
    return True


def _summaries(
    client: IMAPClient, folder: str, uidvalidity: int, uids: Sequence[int]
) -> list[EmailSummary]:
    if not uids:
        return []
    partial = f"BODY.PEEK[]<0.{SNIPPET_FETCH_BYTES}>".encode()
    data = client.fetch(list(uids), [b"FLAGS", b"INTERNALDATE", b"BODYSTRUCTURE", partial])
    result = []
    for uid in uids:  # the server's answer is unordered: keep the sorted order
        item = data.get(uid)
        if not item:
            continue  # expunged meanwhile
        message = parse_message(_body_bytes(item))
        flags = item.get(b"FLAGS", ())
        result.append(
            EmailSummary(
                email_id=make_email_id(folder, uidvalidity, uid),
                folder=folder,
                sender=", ".join(addresses(message, "From")),
                to=addresses(message, "To"),
                subject=header(message, "Subject"),
                date=message_date(message, _internal_date(item)),
                unread=SEEN not in flags,
                has_attachments=_has_attachments(item.get(b"BODYSTRUCTURE")),
                snippet=snippet(body_text(message)),
            )
        )
    return result


def _body_bytes(item: dict[bytes, Any]) -> bytes:
    """The BODY[] (or partial BODY[]<0>) bytes of a FETCH answer."""
    for key, value in item.items():
        if isinstance(key, bytes) and key.startswith(b"BODY[") and isinstance(value, bytes):
            return value
    return b""


def _internal_date(item: dict[bytes, Any]) -> datetime | None:
    value = item.get(b"INTERNALDATE")
    return value if isinstance(value, datetime) else None


def _has_attachments(structure: Any, *, in_related: bool = False) -> bool:
    """BODYSTRUCTURE says there is an attachment (same rules as ``content.attachments``)."""
    if not isinstance(structure, tuple) or not structure:
        return False
    if isinstance(structure[0], list):  # multipart: ([parts], subtype, ...)
        related = _lower(structure[1]) == "related" if len(structure) > 1 else False
        return any(_has_attachments(part, in_related=related) for part in structure[0])
    if isinstance(structure[0], tuple):  # a raw multipart imapclient did not wrap
        return any(_has_attachments(part) for part in structure if isinstance(part, tuple))
    maintype, subtype = _lower(structure[0]), _lower(structure[1] if len(structure) > 1 else b"")
    if (maintype, subtype) == ("message", "rfc822"):
        return True
    params = _params(structure[2] if len(structure) > 2 else None)
    disposition, disposition_params = "", {}
    for field in structure[7:]:
        if (
            isinstance(field, tuple)
            and len(field) == 2
            and isinstance(field[0], bytes)
            and _lower(field[0]) in ("attachment", "inline")
        ):
            disposition, disposition_params = _lower(field[0]), _params(field[1])
            break
    if disposition == "attachment":
        return True
    content_id = structure[3] if len(structure) > 3 else None
    if in_related and content_id:
        return False
    named = "name" in params or any(key.startswith("filename") for key in disposition_params)
    return named or not (maintype == "text" or disposition == "inline")


def _lower(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("ascii", "replace").lower()
    return str(value or "").lower()


def _params(value: object) -> dict[str, object]:
    if not isinstance(value, tuple):
        return {}
    return {_lower(value[i]): value[i + 1] for i in range(0, len(value) - 1, 2)}


# -- reading -----------------------------------------------------------------------------------


def read_email(account: MailAccount, email_id: str, *, mark_read: bool = False) -> Email:
    """One whole email as text; attachments listed, not opened.

    Does not mark the email as read unless ``mark_read`` (see the module docstring).
    """
    ref = parse_email_id(email_id, account=account.email)
    with imap_session(account) as client:
        _open_ref(client, account, ref, readonly=not mark_read)
        meta = client.fetch([ref.uid], [b"FLAGS", b"RFC822.SIZE", b"INTERNALDATE"]).get(ref.uid)
        if not meta or DELETED in meta.get(b"FLAGS", ()):
            raise _gone(account, ref)
        size = int(meta.get(b"RFC822.SIZE", 0))
        truncated = size > MAX_MESSAGE_BYTES
        item = b"BODY.PEEK[]" if not truncated else f"BODY.PEEK[]<0.{MAX_MESSAGE_BYTES}>".encode()
        data = client.fetch([ref.uid], [item]).get(ref.uid)
        if not data:
            raise _gone(account, ref)
        if mark_read:
            client.add_flags([ref.uid], [SEEN])
    message = parse_message(_body_bytes(data))
    text = body_text(message)
    if len(text) > MAX_TEXT_CHARS:
        text, truncated = text[:MAX_TEXT_CHARS], True
    return Email(
        email_id=str(ref),
        folder=ref.folder,
        sender=", ".join(addresses(message, "From")),
        reply_to=addresses(message, "Reply-To"),
        to=addresses(message, "To"),
        cc=addresses(message, "Cc"),
        subject=header(message, "Subject"),
        date=message_date(message, _internal_date(meta)),
        message_id=next(iter(message_ids(header(message, "Message-ID"))), ""),
        references=message_ids(header(message, "References")),
        text=text,
        attachments=attachments(message),
        unread=SEEN not in meta.get(b"FLAGS", ()),
        truncated=truncated,
    )


def read_headers(account: MailAccount, email_id: str) -> tuple[EmailRef, Any]:
    """The parsed header of one email (for replies), checked like ``read_email``."""
    ref = parse_email_id(email_id, account=account.email)
    with imap_session(account) as client:
        _open_ref(client, account, ref, readonly=True)
        data = client.fetch([ref.uid], [b"FLAGS", b"BODY.PEEK[HEADER]"]).get(ref.uid)
        if not data or DELETED in data.get(b"FLAGS", ()):
            raise _gone(account, ref)
    return ref, parse_message(_body_bytes(data))


def mark_answered(account: MailAccount, ref: EmailRef) -> None:
    """Flag the original as answered after a reply, as mail programs do (best effort)."""
    with imap_session(account) as client:
        if _select(client, account, ref.folder, readonly=False) == ref.uidvalidity:
            client.add_flags([ref.uid], [ANSWERED])


def _open_ref(client: IMAPClient, account: MailAccount, ref: EmailRef, *, readonly: bool) -> None:
    """Select the email's folder and refuse the id if the folder was rebuilt since."""
    uidvalidity = _select(
        client, account, ref.folder, readonly=readonly, missing=MailErrorReason.NOT_FOUND
    )
    if uidvalidity != ref.uidvalidity:
        raise MailError(
            MailErrorReason.NOT_FOUND,
            f"The email {ref} is no longer valid: the server renumbered the folder "
            f"'{ref.folder}' of {account.email} since it was listed. List or search the "
            "emails again to get current ids.",
            account=account.email,
        )


def _gone(account: MailAccount, ref: EmailRef) -> MailError:
    return MailError(
        MailErrorReason.NOT_FOUND,
        f"The email {ref} is no longer in the folder '{ref.folder}' of {account.email}: it was "
        "moved or deleted. List or search the emails again to get current ids.",
        account=account.email,
    )


# -- sent mail ---------------------------------------------------------------------------------


def save_to_sent(account: MailAccount, raw: bytes) -> tuple[str | None, str | None]:
    """APPEND a sent message to the Sent folder, marked read.

    Returns (folder, None) on success or (None, why) on failure: by now the message has gone
    out, so a failure here must not look like a failed send (the user might send it again).
    """
    try:
        with imap_session(account) as client:
            folder = find_sent_folder(client) or "Sent"
            if not client.folder_exists(folder):
                client.create_folder(folder)
            client.append(folder, raw, flags=[SEEN], msg_time=datetime.now().astimezone())
            return folder, None
    except MailError as exc:
        return None, exc.message


def check_sent(account: MailAccount, message_id: str) -> bool:
    """Whether a copy of the message with this Message-ID is in Sent or the INBOX.

    For after an "uncertain" send. True means it went out. False means no copy was found, which
    is not proof it did not go out: Hearth files a copy in Sent only after the server confirmed
    the send, so a copy exists only if the provider files sent mail itself (Gmail, Outlook) or
    the account sent the message to itself (then it is in the INBOX).
    """
    ids = message_ids(message_id or "")
    if len(ids) != 1 or ids[0] != message_id.strip():
        raise MailError(
            MailErrorReason.INVALID,
            f"{message_id[:80]!r} is not a Message-ID (it looks like <id@host>).",
            account=account.email,
        )
    with imap_session(account) as client:
        folders = [find_sent_folder(client) or "Sent", "INBOX"]
        for folder in folders:
            if not client.folder_exists(folder):
                continue
            client.select_folder(folder, readonly=True)
            if client.search(["HEADER", "Message-ID", ids[0]]):
                return True
    return False
