"""Email ids that stay valid across sessions: folder, UIDVALIDITY and UID in one string.

An IMAP UID names a message only together with its folder and the folder's UIDVALIDITY: when a
server rebuilds a folder it changes UIDVALIDITY and old UIDs may then name *other* messages.
So the id carries all three, reads ``INBOX:1712345678:42`` (short, so a small model copies it
faithfully and a person can read it in the confirmation dialog), and is refused with "not_found"
when the folder's UIDVALIDITY no longer matches, instead of opening the wrong email.
The folder comes first and may itself contain ``:``; the last two fields are always numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import MailError, MailErrorReason

MAX_FOLDER_LENGTH = 500


@dataclass(frozen=True, slots=True)
class EmailRef:
    """Where one message lives on the server."""

    folder: str
    uidvalidity: int
    uid: int

    def __str__(self) -> str:
        return make_email_id(self.folder, self.uidvalidity, self.uid)


def make_email_id(folder: str, uidvalidity: int, uid: int) -> str:
    """Encode a message's address as an email id."""
    return f"{folder}:{uidvalidity}:{uid}"


def parse_email_id(email_id: str, *, account: str = "") -> EmailRef:
    """Decode an email id; a malformed one is "not_found" (models sometimes invent ids)."""
    folder, uidvalidity, uid = "", 0, 0
    if isinstance(email_id, str):
        parts = email_id.strip().rsplit(":", 2)
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            folder, uidvalidity, uid = parts[0], int(parts[1]), int(parts[2])
    valid = (
        folder
        and len(folder) <= MAX_FOLDER_LENGTH
        and folder.isprintable()
        and 0 < uidvalidity < 2**32
        and 0 < uid < 2**32
    )
    if not valid:
        shown = repr(email_id)[:80]
        raise MailError(
            MailErrorReason.NOT_FOUND,
            f"{shown} is not an email id of {account or 'this account'}. Ids look like "
            "'INBOX:1712345678:42'; list or search the emails to get current ids.",
            account=account,
        )
    return EmailRef(folder, uidvalidity, uid)
