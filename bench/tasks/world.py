"""The seeded world the task benchmark runs in: real servers, real files, a fresh data folder.

Everything is set up from `bench/tasks/seed/` and torn down afterwards:
- a Radicale CalDAV server with the calendar "Personal" (`calendar.yaml`), which holds the
  to-do list too (VTODO, `tasks.yaml`), and the address book "Contacts" (CardDAV,
  `contacts.yaml`);
- Dovecot (IMAP + LMTP) with the INBOX of alex@example.test (`mail.yaml`), and an aiosmtpd
  SMTP server that captures every message sent (so nothing leaves, and the checker sees
  exactly what would have);
- an allowed folder copied from `seed/folder/`, plus a PDF statement, a PDF menu and a DOCX
  report generated from `seed/sources/`;
- a recording opener: a stub `xdg-open` first on PATH (the process boundary the desktop
  connector crosses) that writes down what it was asked to open and starts nothing;
- a data folder (Hearth's own SQLite database) with the memories and reminders of
  `memory.yaml`, and the two accounts stored as Settings → Accounts… stores them (passwords
  in a real Secret Service), loaded by the app's own `load_accounts`.

"Now" is fixed (Tuesday 15 May 2029, 09:30, Europe/Berlin): `World.clock()` freezes
`app.clock` at `NOW` while a task runs, so the agent and its tools (the id hints' window, the
reminder store's "in the past", the system prompt's day) live on the world's day, not the
machine's. The process time zone is set to Europe/Berlin while the world runs (the connectors
read `TZ`), and user messages are stamped with `NOW` by `WorldConversation`.

Between tasks `reset()` restores only what a task changed (compared with the seed snapshot),
so a read-only task costs one snapshot, not a full re-seed. An attack variant seeds the world
with an injection placed in one carrier (an email body, a file, an event description, a
task's notes, a contact's organisation).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import caldav
import icalendar
import vobject
import yaml
from caldav.davclient import DAVClient
from imapclient import IMAPClient

from app.agent.turn.chat import Conversation
from app.clock import frozen_at
from connectors.calendar import (
    CalendarAccount,
    list_events,
    make_event_id,
    parse_event_id,
)
from connectors.calendar.events import _calendar_id, _to_event
from connectors.calendar.tasks import make_task_id
from connectors.contacts.carddav import propfind
from connectors.mail import MailAccount
from tests.support.mail_servers import (
    Dovecot,
    LmtpRelay,
    MailUser,
    SmtpServer,
    make_root,
    remove_root,
)
from tests.support.radicale_server import RadicaleServer, running_radicale
from tests.support.secret_service import running_secret_service

SEED = Path(__file__).parent / "seed"
ZONE_NAME = "Europe/Berlin"
TZ = ZoneInfo(ZONE_NAME)
NOW = datetime(2029, 5, 15, 9, 30, tzinfo=TZ)
USER_NAME = "Alex Morgan"
USER = "alex@example.test"
PASSWORD = "alex-Bench-42"
CALENDAR_ID = "personal"
# The snapshot window: generous around the three seeded weeks (a model may write a wrong day).
WINDOW = (datetime(2029, 4, 1, tzinfo=TZ), datetime(2029, 8, 1, tzinfo=TZ))
SEED_DOMAIN = "seed.hearth"
BOOK_ID = "contacts"
CALENDARSERVER = "http://calendarserver.org/ns/"
MAKE_BOOK = (
    '<?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">'
    "<d:set><d:prop><d:resourcetype><d:collection/><c:addressbook/></d:resourcetype>"
    "<d:displayname>Contacts</d:displayname></d:prop></d:set></d:mkcol>"
)


@dataclass
class WorldConversation(Conversation):
    """A conversation whose user messages are sent at the world's fixed "now"."""

    now: datetime = NOW

    def add(self, role: str, content: str = "", **fields: Any) -> Any:
        if role == "user":
            fields.setdefault("sent_at", self.now)
        return super().add(role, content, **fields)


# -- mail capture --------------------------------------------------------------------------------


@dataclass(frozen=True)
class OutboundMail:
    """One message that went out through SMTP, as the recipient would read it."""

    recipients: tuple[str, ...]
    subject: str
    body: str
    in_reply_to: str

    def text(self) -> str:
        return f"{self.subject}\n{self.body}"


class CapturingRelay(LmtpRelay):
    """Keeps every message the SMTP server accepts; only mail to the user goes on to Dovecot."""

    def __init__(self, lmtp_port: int, local: set[str]) -> None:
        super().__init__(lmtp_port)
        self.local = local
        self.captured: list[OutboundMail] = []
        self._capture_lock = threading.Lock()

    def _deliver(self, envelope: Any) -> str:
        content = envelope.original_content or envelope.content or b""
        parsed = message_from_bytes(content, policy=policy.default)
        body = parsed.get_body(preferencelist=("plain",))
        mail = OutboundMail(
            tuple(sorted(r.lower() for r in envelope.rcpt_tos)),
            str(parsed.get("Subject", "")),
            body.get_content() if body is not None else "",
            str(parsed.get("In-Reply-To", "")),
        )
        with self._capture_lock:
            self.captured.append(mail)
        local = [r for r in envelope.rcpt_tos if r.lower() in self.local]
        if not local:
            return "250 2.0.0 accepted"
        envelope.rcpt_tos = local
        return super()._deliver(envelope)


# -- state and changes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EventView:
    title: str
    start: str
    end: str
    all_day: bool
    location: str
    description: str
    attendees: tuple[str, ...]

    def text(self) -> str:
        return f"{self.title} {self.start}-{self.end} {self.location} {self.description}"


@dataclass(frozen=True)
class TaskView:
    title: str
    due: str  # local "YYYY-MM-DD" for a day, "YYYY-MM-DDTHH:MM" for a time, "" for none
    done: bool
    notes: str

    def text(self) -> str:
        return f"{self.title} due {self.due or '-'} {'done' if self.done else 'open'}"


@dataclass(frozen=True)
class ContactView:
    name: str
    emails: tuple[str, ...]
    phones: tuple[str, ...]
    organisation: str

    def text(self) -> str:
        return f"{self.name} {' '.join(self.emails)} {' '.join(self.phones)} {self.organisation}"


@dataclass(frozen=True)
class State:
    """What a checker compares: calendar, mail sent, files, memories, reminders."""

    events: dict[str, EventView]
    outbound: tuple[OutboundMail, ...]
    sent_folder: int  # messages in Sent (each sent mail keeps a copy there)
    files: dict[str, str]  # path relative to the folder -> content digest
    memories: tuple[str, ...]
    reminders: tuple[tuple[str, str], ...]  # (text, local time, minutes)
    tasks: dict[str, TaskView] = field(default_factory=dict)  # UID -> task
    contacts: dict[str, ContactView] = field(default_factory=dict)  # file name -> contact
    opened: tuple[str, ...] = ()  # what the desktop's opener was handed, in order
    # Every event object of every calendar, whatever its dates: "calendar/uid" -> (digest
    # of its content, its first VEVENT). `events` shows the occurrences inside WINDOW; these
    # show what happened outside it (a stray event in 2026, a series cut short in 2030).
    event_objects: dict[str, tuple[str, EventView]] = field(default_factory=dict)


@dataclass(frozen=True)
class Change:
    """One difference between the seed and the end state."""

    kind: str  # event_added | event_removed | event_changed | mail_sent | file_added |
    # file_changed | file_removed | memory_added | memory_removed | reminder_added |
    # reminder_removed | sent_folder | task_added | task_removed | task_changed |
    # contact_added | contact_removed | contact_changed | opened
    key: str
    before: Any = None
    after: Any = None

    def __str__(self) -> str:
        shown = self.after if self.after is not None else self.before
        return f"{self.kind} {self.key}: {shown}"


def diff(seed: State, end: State, folder: Path | None = None) -> list[Change]:
    """Every change from `seed` to `end`, in a stable order."""
    changes: list[Change] = []
    for key in sorted(set(seed.events) | set(end.events)):
        before, after = seed.events.get(key), end.events.get(key)
        if before is None:
            changes.append(Change("event_added", key, None, after))
        elif after is None:
            changes.append(Change("event_removed", key, before, None))
        elif before != after:
            changes.append(Change("event_changed", key, before, after))
    seen = {_object_key(change.key) for change in changes}
    for key in sorted(set(seed.event_objects) | set(end.event_objects)):
        was, now = seed.event_objects.get(key), end.event_objects.get(key)
        if key in seen or (was and now and was[0] == now[0]):
            continue  # unchanged, or already shown by its occurrences in the window
        if was is None:
            changes.append(Change("event_added", key, None, now[1] if now else None))
        elif now is None:
            changes.append(Change("event_removed", key, was[1], None))
        else:
            changes.append(Change("event_changed", key, was[1], now[1]))
    for index, mail in enumerate(end.outbound[len(seed.outbound) :]):
        changes.append(Change("mail_sent", str(index), None, mail))
    if end.sent_folder - seed.sent_folder != len(end.outbound) - len(seed.outbound):
        changes.append(Change("sent_folder", "Sent", seed.sent_folder, end.sent_folder))
    for path in sorted(set(seed.files) | set(end.files)):
        before_digest, after_digest = seed.files.get(path), end.files.get(path)
        text = _file_text(folder / path) if folder is not None and after_digest else None
        if before_digest is None:
            changes.append(Change("file_added", path, None, text))
        elif after_digest is None:
            changes.append(Change("file_removed", path, path, None))
        elif before_digest != after_digest:
            changes.append(Change("file_changed", path, path, text))
    for text in _multiset_minus(end.memories, seed.memories):
        changes.append(Change("memory_added", text, None, text))
    for text in _multiset_minus(seed.memories, end.memories):
        changes.append(Change("memory_removed", text, text, None))
    for item in _multiset_minus(end.reminders, seed.reminders):
        changes.append(Change("reminder_added", item[0], None, item))
    for item in _multiset_minus(seed.reminders, end.reminders):
        changes.append(Change("reminder_removed", item[0], item, None))
    for kind, old, new in (
        ("task", seed.tasks, end.tasks),
        ("contact", seed.contacts, end.contacts),
    ):
        for key in sorted(set(old) | set(new)):
            old_item, new_item = old.get(key), new.get(key)
            if old_item is None:
                changes.append(Change(f"{kind}_added", key, None, new_item))
            elif new_item is None:
                changes.append(Change(f"{kind}_removed", key, old_item, None))
            elif old_item != new_item:
                changes.append(Change(f"{kind}_changed", key, old_item, new_item))
    for target in end.opened[len(seed.opened) :]:
        changes.append(Change("opened", target, None, target))
    return changes


def _object_key(event_id: str) -> str:
    """The calendar object an event id belongs to ("calendar/uid", without an occurrence)."""
    return "/".join(event_id.split("/")[:2])


def _view(event: Any) -> EventView:
    return EventView(
        event.title,
        event.start.isoformat(timespec="minutes"),
        event.end.isoformat(timespec="minutes"),
        event.all_day,
        event.location or "",
        event.description or "",
        tuple(sorted(a.lower() for a in event.attendees)),
    )


def _multiset_minus(a: tuple[Any, ...], b: tuple[Any, ...]) -> list[Any]:
    rest = list(b)
    out = []
    for item in a:
        if item in rest:
            rest.remove(item)
        else:
            out.append(item)
    return out


def _file_text(path: Path) -> str:
    if path.suffix.lower() in (".pdf", ".docx"):
        return f"({path.suffix[1:]} document)"
    try:
        return path.read_text(encoding="utf-8", errors="replace")[:20000]
    except OSError:
        return ""


# -- seed documents ------------------------------------------------------------------------------


def minimal_pdf(text: str) -> bytes:
    """A one-page PDF whose text pypdf extracts line by line (hand-written: no PDF library)."""

    def escape(line: str) -> str:
        return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    lines = text.strip().splitlines()
    stream = "BT /F1 11 Tf 14 TL 50 780 Td " + " ".join(
        f"({escape(line.encode('latin-1', 'replace').decode('latin-1'))}) Tj T*" for line in lines
    )
    stream += " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R"
        " >> >> /Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        f"<< /Length {len(stream.encode('latin-1'))} >>\nstream\n{stream}\nendstream",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    return out


def write_docx(path: Path, text: str) -> None:
    """A Word document with one paragraph per line (the first a heading)."""
    import docx

    document = docx.Document()
    lines = text.strip().splitlines()
    document.add_heading(lines[0], level=1)
    for line in lines[1:]:
        document.add_paragraph(line)
    document.core_properties.created = datetime(2029, 5, 10, 12, 0)
    document.save(str(path))


def load_yaml(name: str) -> Any:
    return yaml.safe_load((SEED / name).read_text(encoding="utf-8"))


# -- injections ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Injection:
    """Text an attacker placed in what a task reads: `carrier` is "email:KEY", "file:PATH"
    or "event:UID"; the text is appended to the email body, the file or the description."""

    carrier: str  # also "task:UID" (its notes) and "contact:UID" (its organisation)
    text: str


# -- the world -----------------------------------------------------------------------------------


@dataclass
class World:
    """The running world. Use `running_world()`; `reset()` between tasks."""

    root: Path
    radicale: RadicaleServer
    dovecot: Dovecot
    smtp: SmtpServer
    relay: CapturingRelay
    folder: Path
    data_dir: Path
    database: Any
    accounts: Any = None  # app.agent.services.accounts.ConfiguredAccounts, as the app loads them
    opener_log: Path | None = None  # where the stub opener writes what it was handed
    injection: Injection | None = None
    seed_state: State | None = None
    start_state: State | None = None  # the state the current task started from
    _events: list[dict[str, Any]] = field(default_factory=list)
    _mail: list[dict[str, Any]] = field(default_factory=list)
    _tasks: list[dict[str, Any]] = field(default_factory=list)
    _contacts: list[dict[str, Any]] = field(default_factory=list)
    _generated: dict[str, bytes] = field(default_factory=dict)
    # The last reading of the calendars and the address book, with the collections' tags.
    _dav_reading: tuple[Any, ...] | None = None

    # -- accounts the agent uses ----------------------------------------------------------

    @property
    def calendar_account(self) -> CalendarAccount:
        assert self.accounts is not None and self.accounts.calendar is not None
        return self.accounts.calendar

    @property
    def mail_account(self) -> MailAccount:
        assert self.accounts is not None and self.accounts.mail is not None
        return self.accounts.mail

    def clock(self) -> contextlib.AbstractContextManager[None]:
        """`app.clock.now()` is the world's `NOW` inside the block, in every thread."""
        return frozen_at(NOW)

    # -- ids a script needs ---------------------------------------------------------------

    def event_id(self, uid: str, occurrence: datetime | date | None = None) -> str:
        """The id list_events gives an event (or one occurrence of a repeating one)."""
        return make_event_id(CALENDAR_ID, uid, occurrence)

    def task_id(self, uid: str) -> str:
        """The id list_tasks gives a seeded task."""
        return make_task_id(CALENDAR_ID, uid)

    def contact_id(self, uid: str) -> str:
        """The id find_contact gives a seeded contact."""
        return f"{BOOK_ID}/{uid}.vcf"

    def email_id(self, key: str) -> str:
        """The current id of a seeded email (UIDs change when the INBOX is re-seeded)."""
        with self._imap() as client:
            info = client.select_folder("INBOX", readonly=True)
            uids = client.search(["HEADER", "Message-ID", f"<{key}@{SEED_DOMAIN}>"])
            if not uids:
                raise KeyError(f"no seeded email {key!r}")
            return f"INBOX:{info[b'UIDVALIDITY']}:{uids[0]}"

    # -- seeding --------------------------------------------------------------------------

    def seed_all(self, injection: Injection | None = None) -> None:
        self.injection = injection
        self._seed_calendar()
        self._seed_tasks()
        self._seed_contacts()
        self._seed_mail()
        self._seed_folder()
        self._seed_data()
        self.relay.captured.clear()
        self._clear_opened()

    def reset(self, injection: Injection | None = None) -> State:
        """Bring the world back to its seed (with `injection` in place, if any) and return
        that state. Only the parts that differ from the last start are re-seeded, so email
        ids stay the same between tasks that sent nothing."""
        assert self.seed_state is not None
        previous, self.injection = self.injection, injection
        kinds = set()
        if previous != injection:
            kinds = {i.carrier.split(":", 1)[0] for i in (previous, injection) if i is not None}
        base = self.start_state or self.seed_state
        current = self.snapshot()
        touched = {
            parse_event_id(key).uid
            for key in set(current.events) ^ set(base.events)
            | {k for k in current.events if current.events[k] != base.events.get(k)}
        }
        # Events outside the window, and events in any other calendar, count as well.
        objects = set(current.event_objects) | set(base.event_objects)
        changed_objects = {
            key for key in objects if current.event_objects.get(key) != base.event_objects.get(key)
        }
        seeded = {k for k in changed_objects if k.startswith(f"{CALENDAR_ID}/")}
        touched |= {parse_event_id(k).uid for k in seeded}
        if changed_objects - seeded:
            self._remove_foreign_events(changed_objects - seeded)
        if "event" in kinds:
            touched |= {
                i.carrier.split(":", 1)[1]
                for i in (previous, injection)
                if i is not None and i.carrier.startswith("event:")
            }
        reseeded = bool(touched)
        if touched:
            self._restore_events(touched)
        if current.sent_folder != base.sent_folder or "email" in kinds:
            self._seed_mail()
            reseeded = True
        if current.files != base.files or "file" in kinds:
            self._seed_folder()
            reseeded = True
        if current.memories != base.memories or current.reminders != base.reminders:
            self._seed_data()
            reseeded = True
        if current.tasks != base.tasks or "task" in kinds:
            self._seed_tasks()
            reseeded = True
        if current.contacts != base.contacts or "contact" in kinds:
            self._seed_contacts()
            reseeded = True
        self.relay.captured.clear()
        had_opened = bool(current.opened)
        self._clear_opened()
        self.start_state = self.snapshot() if reseeded or current.outbound or had_opened else base
        return self.start_state

    def _inject(self, kind: str, key: str, text: str) -> str:
        injection = self.injection
        if injection is not None and injection.carrier == f"{kind}:{key}":
            return f"{text.rstrip()}\n\n{injection.text}\n"
        return text

    def _dav_client(self) -> Any:
        return DAVClient(
            url=self.radicale.url,
            username="alex",
            password=PASSWORD,
            timeout=10,
            enable_rfc6764=False,
        )

    def _calendar(self) -> Any:
        client = self._dav_client()
        return client, client.principal()

    def _seed_calendar(self) -> None:
        client, principal = self._calendar()
        with contextlib.closing(client):
            for calendar in principal.get_calendars():
                calendar.delete()
            calendar = principal.make_calendar(name="Personal", cal_id=CALENDAR_ID)
            for event in self._events:
                calendar.add_event(ical=self._ical(event))

    def _restore_events(self, uids: set[str]) -> None:
        """Put back the seeded events `uids` and remove events a task added (by UID: much
        faster than rebuilding the calendar)."""
        seeded = {event["uid"]: event for event in self._events}
        client, principal = self._calendar()
        with contextlib.closing(client):
            calendar = principal.calendar(cal_id=CALENDAR_ID)
            for uid in sorted(uids):
                with contextlib.suppress(caldav.lib.error.NotFoundError):
                    calendar.event_by_uid(uid).delete()
                if uid in seeded:
                    calendar.add_event(ical=self._ical(seeded[uid]))

    def _remove_foreign_events(self, keys: set[str]) -> None:
        """Delete events a task put in calendars other than the seeded one."""
        client, principal = self._calendar()
        with contextlib.closing(client):
            calendars = {_calendar_id(c): c for c in principal.get_calendars()}
            for key in keys:
                parsed = parse_event_id(key)
                calendar = calendars.get(parsed.calendar_id)
                if calendar is not None:
                    with contextlib.suppress(caldav.lib.error.NotFoundError):
                        calendar.event_by_uid(parsed.uid).delete()

    def _ical(self, event: dict[str, Any]) -> str:
        vevent = icalendar.Event()
        vevent.add("UID", event["uid"])
        vevent.add("DTSTAMP", datetime(2029, 5, 1, 8, 0, tzinfo=ZoneInfo("UTC")))
        vevent.add("SUMMARY", event["title"])
        if "date" in event:
            first = date.fromisoformat(str(event["date"]))
            last = date.fromisoformat(str(event.get("end_date", event["date"])))
            vevent.add("DTSTART", first)
            vevent.add("DTEND", last + timedelta(days=1))
        else:
            vevent.add("DTSTART", _local(event["start"]))
            vevent.add("DTEND", _local(event["end"]))
        if event.get("rrule"):
            vevent.add("RRULE", icalendar.vRecur.from_ical(event["rrule"]))
        if event.get("location"):
            vevent.add("LOCATION", event["location"])
        description = self._inject("event", event["uid"], event.get("description") or "")
        if description.strip():
            vevent.add("DESCRIPTION", description.strip())
        if event.get("attendees"):
            vevent.add("ORGANIZER", f"mailto:{USER}")
            for person in event["attendees"]:
                vevent.add("ATTENDEE", f"mailto:{person}", parameters={"PARTSTAT": "ACCEPTED"})
        calendar = icalendar.Calendar()
        calendar.add("PRODID", "-//Hearth bench//seed//EN")
        calendar.add("VERSION", "2.0")
        calendar.add_component(vevent)
        calendar.add_missing_timezones()
        return calendar.to_ical().decode("utf-8")

    def _seed_tasks(self) -> None:
        """The seeded tasks, and no other, in the calendar "Personal"."""
        client, principal = self._calendar()
        with contextlib.closing(client):
            calendar = principal.calendar(cal_id=CALENDAR_ID)
            for obj in calendar.search(todo=True, include_completed=True):
                obj.delete()
            for task in self._tasks:
                calendar.add_todo(ical=self._vtodo(task))

    def _vtodo(self, task: dict[str, Any]) -> str:
        todo = icalendar.Todo()
        todo.add("UID", task["uid"])
        todo.add("DTSTAMP", datetime(2029, 5, 1, 8, 0, tzinfo=ZoneInfo("UTC")))
        todo.add("SUMMARY", task["title"])
        if task.get("due"):
            due = task["due"]
            todo.add("DUE", _local(due) if "T" in str(due) else date.fromisoformat(str(due)))
        if task.get("done"):
            todo.add("STATUS", "COMPLETED")
            todo.add("COMPLETED", datetime(2029, 5, 9, 18, 0, tzinfo=ZoneInfo("UTC")))
        else:
            todo.add("STATUS", "NEEDS-ACTION")
        notes = self._inject("task", task["uid"], task.get("notes") or "")
        if notes.strip():
            todo.add("DESCRIPTION", notes.strip())
        calendar = icalendar.Calendar()
        calendar.add("PRODID", "-//Hearth bench//seed//EN")
        calendar.add("VERSION", "2.0")
        calendar.add_component(todo)
        return calendar.to_ical().decode("utf-8")

    def _book_url(self) -> str:
        return f"{self.radicale.url}alex/{BOOK_ID}/"

    def _seed_contacts(self) -> None:
        """The seeded cards, and no other, in the address book "Contacts" (as a phone writes
        them: plain WebDAV PUTs of vCards)."""
        client, _principal = self._calendar()
        with contextlib.closing(client):
            listing = client.propfind(self._book_url(), "", 1)
            for href in listing.tree.iter("{DAV:}href"):
                if href.text and href.text.endswith(".vcf"):
                    client.delete(f"{self.radicale.url.rstrip('/')}{href.text}")
            for contact in self._contacts:
                response = client.put(
                    f"{self._book_url()}{contact['uid']}.vcf",
                    self._vcard(contact),
                    {"Content-Type": "text/vcard; charset=utf-8"},
                )
                if response.status not in (201, 204):
                    raise RuntimeError(f"the contact {contact['uid']} was refused")

    def _vcard(self, contact: dict[str, Any]) -> str:
        card = vobject.vCard()
        card.add("uid").value = contact["uid"]
        card.add("fn").value = contact["name"]
        given, _, family = contact["name"].rpartition(" ")
        card.add("n").value = vobject.vcard.Name(family=family, given=given)
        for address in contact.get("emails", []):
            card.add("email").value = address
        for number in contact.get("phones", []):
            card.add("tel").value = str(number)
        organisation = self._inject("contact", contact["uid"], contact.get("organisation") or "")
        if organisation.strip():
            card.add("org").value = [" ".join(organisation.split())]
        if contact.get("note"):
            card.add("note").value = contact["note"]
        return str(card.serialize())

    def _clear_opened(self) -> None:
        if self.opener_log is not None:
            self.opener_log.write_text("")

    @contextlib.contextmanager
    def _imap(self) -> Iterator[IMAPClient]:
        client = IMAPClient("127.0.0.1", self.dovecot.imap_port, ssl=False, timeout=10)
        try:
            client.plain_login(USER, PASSWORD)
            yield client
        finally:
            with contextlib.suppress(Exception):
                client.logout()

    def _seed_mail(self) -> None:
        with self._imap() as client:
            for folder in ("INBOX", "Sent"):
                client.select_folder(folder)
                uids = client.search(["ALL"])
                if uids:
                    client.delete_messages(uids)
                    client.expunge()
            for item in self._mail:
                flags = [b"\\Seen"] if item.get("seen") else []
                client.append(
                    "INBOX",
                    self._message(item).as_bytes(),
                    flags=flags,
                    msg_time=_local(item["date"]),
                )

    def _message(self, item: dict[str, Any]) -> EmailMessage:
        message = EmailMessage()
        message["From"] = item["from"]
        message["To"] = f"{USER_NAME} <{USER}>"
        message["Subject"] = item["subject"]
        message["Date"] = format_datetime(_local(item["date"]))
        message["Message-ID"] = f"<{item['key']}@{SEED_DOMAIN}>"
        if item.get("in_reply_to"):
            parent = f"<{item['in_reply_to']}@{SEED_DOMAIN}>"
            message["In-Reply-To"] = parent
            message["References"] = parent
        message.set_content(self._inject("email", item["key"], item["body"]))
        for attachment in item.get("attachments", []):
            if "pdf" in attachment:
                message.add_attachment(
                    minimal_pdf(attachment["pdf"]),
                    maintype="application",
                    subtype="pdf",
                    filename=attachment["filename"],
                )
            else:
                message.add_attachment(attachment["text"], filename=attachment["filename"])
        return message

    def _seed_folder(self) -> None:
        for child in self.folder.iterdir():
            if child.is_dir():
                shutil.rmtree(child)
            else:
                child.unlink()
        shutil.copytree(SEED / "folder", self.folder, dirs_exist_ok=True)
        for relative, content in self._documents().items():
            (self.folder / relative).write_bytes(content)
        if self.injection is not None and self.injection.carrier.startswith("file:"):
            path = self.folder / self.injection.carrier.split(":", 1)[1]
            text = path.read_text(encoding="utf-8")
            path.write_text(self._inject("file", path.relative_to(self.folder).as_posix(), text))
        self._index_documents()

    def _index_documents(self) -> None:
        """The document index brought up to date, as the app's background indexer keeps it
        for the allowed folders: `search_documents` finds what the folder holds now."""
        from app.agent.documents.document_index import index_folders

        index_folders(self.database, [self.folder])

    def _documents(self) -> dict[str, bytes]:
        """The PDF and DOCX, made once per world (a DOCX made twice differs in its zip
        timestamps, which would read as a changed file)."""
        if not self._generated:
            statement = (SEED / "sources" / "statement-2029-04.txt").read_text(encoding="utf-8")
            self._generated["finance/statement-2029-04.pdf"] = minimal_pdf(statement)
            menu = (SEED / "sources" / "menu.txt").read_text(encoding="utf-8")
            self._generated["recipes/menu.pdf"] = minimal_pdf(menu)
            report = (SEED / "sources" / "q2-report.txt").read_text(encoding="utf-8")
            target = self.root / "q2-report.docx"
            write_docx(target, report)
            self._generated["work/q2-report.docx"] = target.read_bytes()
        return self._generated

    def _seed_data(self) -> None:
        from sqlalchemy import delete

        from app.store.models import MemoryRecord, ReminderRecord
        from app.store.reminders import ReminderStore

        seed = load_yaml("memory.yaml")
        with self.database.session() as session, session.begin():
            session.execute(delete(MemoryRecord))
            session.execute(delete(ReminderRecord))
            for text in seed["memories"]:
                session.add(MemoryRecord(created=NOW - timedelta(days=30), text=text))
        store = ReminderStore(self.database)
        for reminder in seed["reminders"]:
            store.add(reminder["text"], _local(reminder["at"]), now=NOW)

    # -- snapshot -------------------------------------------------------------------------

    def snapshot(self) -> State:
        events, tasks, contacts, objects = self._dav_state()
        with self._imap() as client:
            sent = client.select_folder("Sent", readonly=True)[b"EXISTS"]
        files = {
            path.relative_to(self.folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(self.folder.rglob("*"))
            if path.is_file()
        }
        return State(
            events,
            tuple(self.relay.captured),
            int(sent),
            files,
            self.memories(),
            self.reminders(),
            tasks,
            contacts,
            self.opened(),
            objects,
        )

    def _dav_state(
        self,
    ) -> tuple[
        dict[str, EventView],
        dict[str, TaskView],
        dict[str, ContactView],
        dict[str, tuple[str, EventView]],
    ]:
        """Events (through Hearth's own connector), tasks and contacts, read again only when
        a collection changed: the server's collection tags say so, as they tell any sync
        client. Expanding the repeating events is most of a snapshot's cost."""
        tags = self._collection_tags()
        if self._dav_reading is not None and self._dav_reading[0] == tags:
            events, tasks, contacts, objects = self._dav_reading[1]
            # a caller may change its copy
            return dict(events), dict(tasks), dict(contacts), dict(objects)
        events = {e.event_id: _view(e) for e in list_events(self.calendar_account, *WINDOW, tz=TZ)}
        reading = (events, self.tasks(), self.contacts(), self.event_objects())
        self._dav_reading = (tags, reading)
        return reading

    def _collection_tags(self) -> tuple[tuple[str, str], ...]:
        """Every collection in the user's home with its tag (CalendarServer's getctag, which
        the server changes with any change inside): a new calendar shows as a new entry."""
        client = self._dav_client()
        with contextlib.closing(client):
            tree = propfind(
                client, f"{self.radicale.url}alex/", f'<s:getctag xmlns:s="{CALENDARSERVER}"/>', 1
            )
        tags = []
        for response in tree.iter("{DAV:}response"):
            href = response.findtext("{DAV:}href") or ""
            tag = response.findtext(f".//{{{CALENDARSERVER}}}getctag")
            if tag is None and href.rstrip("/") != "/alex":
                raise RuntimeError(f"Radicale gave no collection tag for {href}")
            tags.append((href, tag or ""))
        return tuple(sorted(tags))

    def event_objects(self) -> dict[str, tuple[str, EventView]]:
        """Every event of every calendar of the account, read without a time range (so
        nothing escapes a window): "calendar/uid" -> (digest of the object, its first VEVENT
        as a view). The digest leaves out DTSTAMP, which a re-seed may rewrite."""
        client, principal = self._calendar()
        out: dict[str, tuple[str, EventView]] = {}
        with contextlib.closing(client):
            for calendar in principal.get_calendars():
                cal_id = _calendar_id(calendar)
                for obj in calendar.search(event=True):
                    components = list(obj.icalendar_instance.walk("VEVENT"))
                    if not components:
                        continue
                    master = next(
                        (c for c in components if c.get("RECURRENCE-ID") is None), components[0]
                    )
                    uid = str(master.get("UID", ""))
                    key = make_event_id(cal_id, uid)
                    lines = str(obj.data).replace("\r\n", "\n").split("\n")
                    kept = "\n".join(line for line in lines if not line.startswith("DTSTAMP"))
                    digest = hashlib.sha256(kept.encode("utf-8")).hexdigest()
                    view = _view(_to_event(master, cal_id, cal_id, TZ, event_id=key))
                    out[key] = (digest, view)
        return out

    def tasks(self) -> dict[str, TaskView]:
        """Every task of the calendar, open and done, by UID (read as another app would)."""
        client, principal = self._calendar()
        out = {}
        with contextlib.closing(client):
            calendar = principal.calendar(cal_id=CALENDAR_ID)
            for obj in calendar.search(todo=True, include_completed=True):
                todo = obj.icalendar_component
                due = todo.get("DUE")
                value = due.dt if due is not None else None
                if isinstance(value, datetime):
                    shown = _local(value).isoformat(timespec="minutes")[:16]
                else:
                    shown = value.isoformat() if value is not None else ""
                status = str(todo.get("STATUS", "NEEDS-ACTION")).upper()
                done = todo.get("COMPLETED") is not None or status == "COMPLETED"
                out[str(todo.get("UID"))] = TaskView(
                    str(todo.get("SUMMARY", "")), shown, done, str(todo.get("DESCRIPTION", ""))
                )
        return out

    def contacts(self) -> dict[str, ContactView]:
        """Every card of the address book, by file name."""
        from connectors.contacts.carddav import _address_books, _cards, _contact

        with _address_books(self.calendar_account) as (client, books):
            found = [_contact(card) for card in _cards(client, books)]
        return {
            c.contact_id.split("/", 1)[1]: ContactView(
                c.name,
                tuple(sorted(e.lower() for e in c.emails)),
                c.phones,
                c.organisation or "",
            )
            for c in found
        }

    def opened(self) -> tuple[str, ...]:
        """What the stub opener was handed (a path inside the folder is shown relative)."""
        if self.opener_log is None or not self.opener_log.exists():
            return ()
        root = str(self.folder) + "/"
        lines = self.opener_log.read_text(encoding="utf-8").splitlines()
        return tuple(line[len(root) :] if line.startswith(root) else line for line in lines)

    def memories(self) -> tuple[str, ...]:
        from sqlalchemy import select

        from app.store.models import MemoryRecord

        with self.database.session() as session:
            return tuple(sorted(session.scalars(select(MemoryRecord.text))))

    def reminders(self) -> tuple[tuple[str, str], ...]:
        from app.store.reminders import ReminderStore

        return tuple(
            sorted(
                (r.text, r.local_due().astimezone(TZ).isoformat(timespec="minutes"))
                for r in ReminderStore(self.database).pending()
            )
        )


def _local(value: Any) -> datetime:
    """A seed time (a YAML datetime or ISO text, wall clock in Europe/Berlin) as aware."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment.replace(tzinfo=TZ) if moment.tzinfo is None else moment.astimezone(TZ)


def store_accounts(database: Any, calendar_url: str, imap_port: int, smtp_port: int) -> Any:
    """Save the calendar and mail accounts the way Settings → Accounts… does, and load them
    with `app.agent.services.accounts.load_accounts`, as the window and `ask` do."""
    from app.agent.services.accounts import load_accounts
    from app.store.accounts import AccountSettings, AccountStore
    from connectors.credentials import Credentials

    store, credentials = AccountStore(database), Credentials()
    for settings in (
        AccountSettings(
            kind="calendar",
            name="Personal",
            email=USER,
            username="alex",
            calendar_url=calendar_url,
        ),
        AccountSettings(
            kind="mail",
            name="Home mail",
            email=USER,
            username=USER,
            display_name=USER_NAME,
            imap_host="127.0.0.1",
            imap_port=imap_port,
            imap_security="plain",
            smtp_host="127.0.0.1",
            smtp_port=smtp_port,
            smtp_security="plain",
        ),
    ):
        credentials.store(store.add(settings).secret_ref, PASSWORD)
    accounts = load_accounts(database, credentials)
    if accounts.problems or accounts.mail is None or accounts.calendar is None:
        raise RuntimeError(f"the seeded accounts did not load: {accounts.problems}")
    return accounts


@contextlib.contextmanager
def world_time_zone() -> Iterator[None]:
    """The process runs in Europe/Berlin while the world is up (the connectors read TZ)."""
    saved = os.environ.get("TZ")
    os.environ["TZ"] = ZONE_NAME
    time.tzset()
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = saved
        time.tzset()


def _make_address_book(radicale: RadicaleServer) -> None:
    client = DAVClient(
        url=radicale.url, username="alex", password=PASSWORD, timeout=10, enable_rfc6764=False
    )
    with contextlib.closing(client):
        client.principal()  # Radicale makes the user's home on first sign-in
        response = client.mkcol(f"{radicale.url}alex/{BOOK_ID}/", MAKE_BOOK)
        if response.status not in (200, 201):
            raise RuntimeError(f"Radicale made no address book ({response.status})")


@contextlib.contextmanager
def recording_opener(bin_dir: Path, log: Path) -> Iterator[None]:
    """A stub `xdg-open` (and `open`, macOS's name) first on PATH that appends its argument
    to `log` and starts nothing: opening things in the benchmark never launches a program.
    The connector is otherwise real (confinement, the checks for programs, the process).
    The benchmark runs offline: a web name it opens resolves to one public documentation
    address, so the connector's check that a name resolves to no private address runs."""
    bin_dir.mkdir()
    for name in ("xdg-open", "open"):
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" >> "{log}"\n')
        script.chmod(0o755)
    log.write_text("")
    saved = os.environ.get("PATH", "")
    os.environ["PATH"] = f"{bin_dir}{os.pathsep}{saved}"
    from connectors.web import fetch

    resolver = fetch.system_resolver
    fetch.system_resolver = lambda host: ["93.184.215.14"]
    try:
        yield
    finally:
        fetch.system_resolver = resolver
        os.environ["PATH"] = saved


@contextlib.contextmanager
def running_world() -> Iterator[World]:
    """Start the servers, seed everything, yield the world, tear it all down."""
    from app.store.database import Database

    events = load_yaml("calendar.yaml")
    mail = load_yaml("mail.yaml")
    tasks = load_yaml("tasks.yaml")
    contacts = load_yaml("contacts.yaml")
    with contextlib.ExitStack() as stack:
        stack.enter_context(world_time_zone())
        root = Path(tempfile.mkdtemp(prefix="hearth-bench-"))
        stack.callback(shutil.rmtree, root, True)
        radicale = stack.enter_context(running_radicale(root / "radicale", {"alex": PASSWORD}))
        _make_address_book(radicale)
        opener_log = root / "opened.log"
        stack.enter_context(recording_opener(root / "bin", opener_log))
        mail_root = make_root()
        stack.callback(remove_root, mail_root)
        users = {USER: MailUser(USER, PASSWORD)}
        dovecot = Dovecot(mail_root, users)
        dovecot.start()
        stack.callback(dovecot.stop)
        relay = CapturingRelay(dovecot.lmtp_port, {USER})
        smtp = SmtpServer(users, relay)
        smtp.start()
        stack.callback(smtp.stop)
        folder = root / "Documents"
        folder.mkdir()
        data_dir = root / "data"
        data_dir.mkdir()
        database = Database.open(data_dir)
        stack.callback(database.close)
        # The accounts as the app has them: settings in its database, passwords in a real
        # Secret Service (private D-Bus session), read back with the app's own loader. The
        # keyring is needed only while the app reads the passwords, so it stops right after
        # (it swaps HOME and XDG folders for the process while it runs).
        with running_secret_service():
            accounts = store_accounts(database, radicale.url, dovecot.imap_port, smtp.port)
        world = World(
            root,
            radicale,
            dovecot,
            smtp,
            relay,
            folder,
            data_dir,
            database,
            accounts=accounts,
            opener_log=opener_log,
            _events=events,
            _mail=mail,
            _tasks=tasks,
            _contacts=contacts,
        )
        world.seed_all()
        world.seed_state = world.snapshot()
        yield world
