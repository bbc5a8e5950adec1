"""The handlers of Hearth's tools, wired to the connectors (names fixed by DESIGN.md).

Each tool is declared once in `app.agent.tools.declarations` (name, description, schema and the
gate's facts); here its handler and preview are registered against that declaration.
Only tools that can work are offered: file tools when the user allowed a folder, memory when
there is a database. Calendar and mail join when their accounts exist (connectors issue).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from app import clock
from app.agent.gate import argument_hash
from app.agent.gate.labels import Labels, covering_hosts, writing_labels
from app.agent.gate.urls import host_grant_problem
from app.agent.tools.declarations import BUILTIN_TOOLS
from app.agent.tools.id_hints import (
    matching_emails,
    matching_events,
    matching_titles,
    not_an_id_hint,
)
from app.agent.tools.registry import Handler, Precheck, Previewer, Registry, ToolFailed, ToolResult
from app.agent.tools.undo_declarations import UNDO_TOOLS
from app.llm.tools import ToolSpec

log = logging.getLogger(__name__)

# What the model is offered, derived from the one declaration per tool.
SPECS: dict[str, ToolSpec] = {name: tool.spec for name, tool in BUILTIN_TOOLS.items()}


def build_registry(
    folders: list[Path] | None = None,
    data: Any = None,
    calendar: Any = None,
    mail: Any = None,
    search_engine: Any = None,
) -> Registry:
    """The tools for this session: files if folders are allowed, memory if `data` (the
    app's Database) is given, calendar and mail if their accounts are, and the web tools."""
    registry = Registry()
    if folders:
        _add_file_tools(registry, folders)
        _add_money_tools(registry, folders)
        if data is not None:
            _add_document_tools(registry, folders, data)
    _add_opening_tools(registry, folders)
    if calendar is not None:
        _add_calendar_tools(registry, calendar)
        _add_task_tools(registry, calendar)
        _add_contact_tools(registry, calendar)
    if mail is not None:
        _add_mail_tools(registry, mail)
    _add_web_tools(registry, search_engine)
    if data is not None:
        _add_memory_tools(registry, data)
        _add_reminder_tools(registry, data)
    return registry


def _register(
    registry: Registry,
    name: str,
    handler: Handler,
    preview: Previewer | None = None,
    precheck: Precheck | None = None,
) -> None:
    registry.register(BUILTIN_TOOLS[name], handler, preview, precheck)


def _register_undo(
    registry: Registry, name: str, handler: Handler, preview: Previewer | None = None
) -> None:
    """A tool only the user's Undo calls (`app.agent.tools.undo`): never offered to the
    model, judged by the gate like any other."""
    registry.register(UNDO_TOOLS[name], handler, preview, offered=False)


# -- files ---------------------------------------------------------------------------------------


def _add_file_tools(registry: Registry, roots: list[Path]) -> None:
    from connectors.files import (
        FileAccessError,
        Folders,
        list_folder,
        preview_write,
        read_file,
        remove_written,
        search_files,
        write_file,
        write_planned,
    )

    folders = Folders(roots)
    # The write the user saw in the dialog, by argument hash: it only runs if the file is
    # still exactly as it was when the diff was shown (and a new file is still new).
    shown_plans: dict[str, Any] = {}

    def guarded(function: Handler) -> Handler:
        return _failing_as(function, FileAccessError)

    def do_list(args: dict[str, Any]) -> ToolResult:
        entries = list_folder(folders, str(args.get("path", "")))
        return ToolResult([_plain(e) for e in entries])

    def do_search(args: dict[str, Any]) -> ToolResult:
        matches = search_files(folders, str(args["query"]), folder=args.get("folder"))
        # Snippets are file contents: untrusted.
        return ToolResult([_plain(m) for m in matches], trusted=False, source="file search results")

    def do_read(args: dict[str, Any]) -> ToolResult:
        text = read_file(folders, str(args["path"]))
        return ToolResult(
            {"path": text.path, "text": text.text, "truncated": text.truncated},
            trusted=False,
            source=f"the file {text.path}",
        )

    def preview(args: dict[str, Any]) -> str:
        plan = preview_write(
            folders, str(args["path"]), str(args["content"]), bool(args.get("overwrite", False))
        )
        shown_plans[argument_hash("write_file", args)] = plan
        action = "Replace" if plan.exists else "Create"
        root, parts = folders.resolve(str(args["path"]))  # the full folder, said in words
        where = "/".join((root.path.rstrip("/"), *parts[:-1]))
        return f"{action} {plan.path} ({plan.new_size} bytes)\nIn the folder {where}\n\n{plan.diff}"

    def do_write(args: dict[str, Any]) -> ToolResult:
        plan = shown_plans.pop(argument_hash("write_file", args), None)
        # What the file was before, for Undo: the plan the dialog showed, else a look now.
        before = (
            plan
            or _current(
                lambda: preview_write(
                    folders, str(args["path"]), str(args["content"]), bool(args.get("overwrite"))
                ),
                FileAccessError,
            )[0]
        )
        if plan is not None:
            result = write_planned(folders, plan, str(args["content"]))
        else:  # allowed without a dialog (clean context, new file): no preview to bind
            result = write_file(
                folders,
                str(args["path"]),
                str(args["content"]),
                overwrite=bool(args.get("overwrite", False)),
            )
        kept = None
        if before is not None:
            previous = before.old_text
            if previous is not None and before.old_sha256 != _sha256(previous):
                previous = None  # not UTF-8 as it was: writing it back would not be exact
            kept = {"existed": not result.created, "previous": previous}
        return ToolResult(
            {"path": result.path, "bytes_written": result.bytes_written, "created": result.created},
            kept=kept,
        )

    def do_remove(args: dict[str, Any]) -> ToolResult:
        return ToolResult({"removed": remove_written(folders, str(args["path"]), args["content"])})

    _register(registry, "list_folder", guarded(do_list))
    _register(registry, "search_files", guarded(do_search))
    _register(registry, "read_file", guarded(do_read))
    _register(registry, "write_file", guarded(do_write), preview)
    _register_undo(
        registry,
        "remove_file",
        guarded(do_remove),
        lambda a: (
            f"Remove the file {a.get('path')}, which Hearth created.\n"
            "It is removed only if it still holds exactly what Hearth wrote."
        ),
    )


# -- money in the user's own files ---------------------------------------------------------------


def _add_money_tools(registry: Registry, roots: list[Path]) -> None:
    """summarise_spending: read-only sums over bank statements in the allowed folders."""
    from connectors.files import FileAccessError, Folders
    from connectors.statements import LayoutError, summarise_spending

    folders = Folders(roots)

    def do_summarise(args: dict[str, Any]) -> ToolResult:
        path, month = str(args.get("path", "")), args.get("month") or None
        spending = summarise_spending(folders, path, month)
        # Merchant names and references are written by the bank and by whoever paid.
        return ToolResult(
            _plain(spending), trusted=False, source=f"the statements in {path or '.'}"
        )

    _register(
        registry, "summarise_spending", _failing_as(do_summarise, (FileAccessError, LayoutError))
    )


# -- opening things with the desktop's applications ------------------------------------------------


def _add_opening_tools(registry: Registry, roots: list[Path] | None) -> None:
    """open_item (files in the allowed folders, http(s) addresses) and show_folder; both
    ask every time (their label), and the connector refuses programs by content."""
    from connectors.desktop import DesktopError, check_item, open_item, show_folder
    from connectors.files import FileAccessError, Folders

    folders = Folders(roots) if roots else None

    def do_open(args: dict[str, Any]) -> ToolResult:
        opened = open_item(folders, path=args.get("path"), url=args.get("url"))
        return ToolResult({"opened": opened.target, "kind": opened.kind})

    def do_show(args: dict[str, Any]) -> ToolResult:
        shown = show_folder(folders, str(args.get("path", ""))) if folders else None
        if shown is None:
            raise ToolFailed("Hearth has no folders it may use yet. Add one in Settings → Folders.")
        return ToolResult({"shown": shown.target})

    def preview(args: dict[str, Any]) -> str:
        if args.get("url"):
            return f"Open this web address in your browser:\n{args['url']}"
        return f"Open this file with its usual app:\n{args.get('path')}"

    errors = (DesktopError, FileAccessError)

    def check_open(args: dict[str, Any]) -> None:
        """Nobody is asked about something that could never open (a launcher, a program,
        a name that leads to the local network); the handler checks again before it opens."""
        try:
            check_item(folders, path=args.get("path"), url=args.get("url"))
        except errors as exc:
            raise ToolFailed(str(exc)) from exc

    _register(registry, "open_item", _failing_as(do_open, errors), preview, check_open)
    _register(
        registry,
        "show_folder",
        _failing_as(do_show, errors),
        lambda a: f"Show in the file manager: {a.get('path') or 'your first allowed folder'}",
    )


# -- documents -----------------------------------------------------------------------------------


def _add_document_tools(registry: Registry, roots: list[Path], database: Any) -> None:
    """search_documents over the index the background indexer keeps (issue #23). Passages
    are file contents: untrusted, like read_file's. By meaning too once the data folder holds
    the embedding model (issue #39): looked up at each search, so a model downloaded while
    the app runs counts from the next question."""
    from app.agent.documents.document_search import find_passages
    from app.llm.embeddings import embedder_for
    from app.store.documents import DocumentStore
    from connectors.files import FileAccessError, Folders

    store = DocumentStore(database)

    def do_search(args: dict[str, Any]) -> ToolResult:
        found = find_passages(
            store, Folders(roots), str(args["query"]), embedder_for(_data_dir(database))
        )
        source = f"the files {', '.join(found.files)}" if found.files else "the document index"
        return ToolResult(found.content(), trusted=False, source=source)

    _register(registry, "search_documents", _failing_as(do_search, FileAccessError))


def _data_dir(database: Any) -> Path | None:
    """The data folder the database file lives in (None in memory), where the embedding
    model is kept."""
    engine = getattr(database, "engine", None)
    file = engine.url.database if engine is not None else None
    return Path(file).parent if file and file != ":memory:" else None


# -- web -----------------------------------------------------------------------------------------


def _add_web_tools(registry: Registry, engine: Any = None) -> None:
    """`engine` points web_search elsewhere (tests use a saved results page on loopback)."""
    from app.agent.tools.previews import webpage_preview
    from connectors.web import WebError, read_webpage, web_search

    def do_search(args: dict[str, Any]) -> ToolResult:
        try:
            results = web_search(str(args["query"]), int(args.get("max_results", 5)), engine=engine)
        except WebError as exc:
            raise ToolFailed(str(exc)) from exc
        return ToolResult([_plain(r) for r in results], trusted=False, source="web search results")

    def do_read(args: dict[str, Any]) -> ToolResult:
        # Let through by a standing grant for one host: every redirect must be covered too.
        hosts = frozenset(covering_hosts())
        check = (lambda url: host_grant_problem(url, hosts)) if hosts else None
        try:
            page = read_webpage(str(args["url"]), redirect_check=check)
        except WebError as exc:
            raise ToolFailed(str(exc)) from exc
        return ToolResult(
            {"url": page.final_url, "title": page.title, "text": page.text},
            trusted=False,
            source=f"the web page {page.final_url}",
        )

    _register(
        registry,
        "web_search",
        do_search,
        lambda a: f"Search the web (DuckDuckGo) for: {a.get('query')}",
    )
    _register(registry, "read_webpage", do_read, webpage_preview)


# -- calendar ------------------------------------------------------------------------------------


def _add_calendar_tools(registry: Registry, account: Any) -> None:
    from app.agent.tools.previews import change_preview, event_preview, is_plain_date
    from connectors.calendar import (
        CalendarError,
        create_event,
        delete_event,
        find_free_time,
        get_event,
        list_events,
        parse_event_id,
        parse_when,
        update_event,
    )
    from connectors.calendar.restore import restore_object, stored_title

    def when(value: Any) -> datetime:
        return parse_when(str(value), now=clock.now())

    def guarded(function: Handler) -> Handler:
        return _failing_as(function, CalendarError)

    def do_list(args: dict[str, Any]) -> ToolResult:
        events = list_events(
            account, when(args["start"]), when(args["end"]), calendar=args.get("calendar")
        )
        # Titles, places and descriptions come from whoever sent the invitation: untrusted.
        return ToolResult(
            [_plain(e) for e in events], trusted=False, source=f"the calendar {account.name}"
        )

    def do_free(args: dict[str, Any]) -> ToolResult:
        slots = find_free_time(
            account, when(args["start"]), when(args["end"]), int(args["duration_minutes"])
        )
        return ToolResult([_plain(slot) for slot in slots])

    def do_create(args: dict[str, Any]) -> ToolResult:
        start, end = str(args["start"]).strip(), str(args["end"]).strip()
        all_day = is_plain_date(start) and is_plain_date(end)
        event = create_event(
            account,
            str(args["title"]),
            # two plain dates are whole days, the end the last of them (an offsite 12-13
            # June); anything else is a time
            when(start).date() if all_day else when(start),
            when(end).date() if all_day else when(end),
            location=args.get("location"),
            description=args.get("description"),
            attendees=args.get("attendees"),
        )
        return ToolResult(_plain(event))

    def events_like(text: str) -> list[dict[str, Any]]:
        now = clock.now()  # the world's day in the benchmark, not the machine's
        events = list_events(account, now - timedelta(days=30), now + timedelta(days=90))
        return matching_events(text, events)

    def check_id(tool: str) -> Precheck:
        def source() -> str:  # titles come from whoever invited the user
            return f"the calendar {account.name}"

        return _id_check(tool, "event_id", parse_event_id, CalendarError, events_like, source)

    def do_update(args: dict[str, Any]) -> ToolResult:
        changes = {k: v for k, v in args.items() if k not in ("event_id", _ONE)}
        for key in ("start", "end"):
            if key in changes:
                changes[key] = when(changes[key])
        change = update_event(
            account, str(args["event_id"]), only_occurrence=bool(args.get(_ONE)), **changes
        )
        # The event's other fields are whoever invited the user's words: untrusted.
        return ToolResult(
            {"message": change.message, "event": _plain(change.event)},
            trusted=False,
            source=f"the calendar {account.name}",
            kept={"before": _plain(change.before), "saved": change.stored},
        )

    def do_delete(args: dict[str, Any]) -> ToolResult:
        change = delete_event(account, str(args["event_id"]), only_occurrence=bool(args.get(_ONE)))
        return ToolResult({"message": change.message}, kept={"saved": change.stored})

    def do_restore(args: dict[str, Any]) -> ToolResult:
        ref = parse_event_id(str(args["event_id"]))
        title = restore_object(account, ref.calendar_id, ref.uid, str(args["saved"]), "event")
        return ToolResult({"restored": title}, trusted=False, source=f"the calendar {account.name}")

    def restore_preview(args: dict[str, Any]) -> str:
        title, problem = _current(
            lambda: stored_title(str(args.get("saved")), "event"), CalendarError
        )
        now, _ = _current(lambda: get_event(account, str(args.get("event_id", ""))), CalendarError)
        what = f"“{title}”" if title else "the event"
        if problem:
            return f"Put back {what}: {problem}"
        if now is None:
            return f"Put back the deleted event {what} in your calendar, as it was."
        return f"Put back the event {what} as it was before Hearth changed it."

    def repeats_note(event: Any, args: dict[str, Any]) -> str:
        """What a change to a repeating event touches, said in its dialog: every
        occurrence, or the one on its day alone."""
        if event is None or not event.recurring:
            return ""
        ref = parse_event_id(str(args.get("event_id", "")))
        if args.get(_ONE) and ref.occurrence is not None:
            return (
                f"\n\nThis event repeats: only the occurrence on {event.start:%a %d %b %Y} "
                "changes; the others stay as they are."
            )
        return "\n\nThis event repeats: the change applies to every occurrence."

    def update_preview(args: dict[str, Any]) -> str:
        event_id = str(args.get("event_id", ""))
        before, problem = _current(lambda: get_event(account, event_id), CalendarError)
        fields = (("title", "Title"), ("start", "Start"), ("end", "End"),
                  ("location", "Where"), ("description", "Description"))  # fmt: skip
        rows = [(label, _plain(getattr(before, key, None)), args[key])
                for key, label in fields if key in args]  # fmt: skip
        record = before.title if before is not None else event_id
        preview = change_preview("Change event", record, rows, problem)
        return preview + repeats_note(before, args)

    def delete_preview(args: dict[str, Any]) -> str:
        event_id = str(args.get("event_id", ""))
        event, problem = _current(lambda: get_event(account, event_id), CalendarError)
        if event is None:
            return f"Delete the event {event_id}" + (f"\n⚠ {problem}" if problem else "")
        when = f"{event.start:%a %d %b %Y, %H:%M}–{event.end:%H:%M}"
        if event.all_day:
            when = f"{event.start:%a %d %b %Y} (all day)"
        return f"Delete event: {event.title}\nWhen: {when}" + repeats_note(event, args)

    _register(registry, "list_events", guarded(do_list))
    _register(registry, "find_free_time", guarded(do_free))
    _register(registry, "create_event", guarded(do_create), event_preview)
    _register(
        registry,
        "update_event",
        guarded(do_update),
        update_preview,
        check_id("update_event"),
    )
    _register(
        registry,
        "delete_event",
        guarded(do_delete),
        delete_preview,
        check_id("delete_event"),
    )
    _register_undo(registry, "restore_event", guarded(do_restore), restore_preview)


# -- tasks (CalDAV VTODO on the calendar account) -------------------------------------------------


def _add_task_tools(registry: Registry, account: Any) -> None:
    from app.agent.tools.previews import change_preview, task_preview
    from connectors.calendar import (
        CalendarError,
        add_task,
        complete_task,
        get_task,
        list_tasks,
        parse_due,
        parse_task_id,
        update_task,
    )
    from connectors.calendar.restore import remove_object, restore_object, stored_object

    def shown(task: Any) -> dict[str, Any]:
        due = task.due.date().isoformat() if task.due_is_day else _plain(task.due)
        return {"task_id": task.task_id, "title": task.title, "due": due, "list": task.list,
                "notes": task.notes, **({"done": True} if task.done else {})}  # fmt: skip

    def guarded(function: Handler) -> Handler:
        return _failing_as(function, CalendarError)

    def source() -> str:  # a shared list holds other people's words
        return f"the task lists of {account.name}"

    def do_list(args: dict[str, Any]) -> ToolResult:
        before = args.get("due_before")
        tasks = list_tasks(
            account,
            args.get("list") or None,
            parse_due(str(before), now=clock.now()) if before else None,
            include_done=bool(args.get("done")),
        )
        content = [shown(t) for t in tasks] or (
            "No tasks." if args.get("done") else "No open tasks."
        )
        return ToolResult(content, trusted=False, source=source())

    def do_add(args: dict[str, Any]) -> ToolResult:
        due = args.get("due")
        task = add_task(
            account,
            str(args["title"]),
            parse_due(str(due), now=clock.now()) if due else None,
            notes=args.get("notes"),
            list_name=args.get("list") or None,
        )
        return ToolResult({**shown(task), "added": True})

    def do_complete(args: dict[str, Any]) -> ToolResult:
        list_id, uid = parse_task_id(str(args["task_id"]))
        saved = stored_object(account, list_id, uid, "task")  # as it was, for Undo
        task = complete_task(account, str(args["task_id"]))
        # The notes of a shared list's task are someone else's words: untrusted.
        return ToolResult(
            {**shown(task), "done": True}, trusted=False, source=source(), kept={"saved": saved}
        )

    def do_remove(args: dict[str, Any]) -> ToolResult:
        list_id, uid = parse_task_id(str(args["task_id"]))
        title = remove_object(account, list_id, uid, "task")
        return ToolResult({"removed": title}, trusted=False, source=source())

    def do_restore(args: dict[str, Any]) -> ToolResult:
        list_id, uid = parse_task_id(str(args["task_id"]))
        title = restore_object(account, list_id, uid, str(args["saved"]), "task")
        return ToolResult({"restored": title, "open": True}, trusted=False, source=source())

    def remove_preview(args: dict[str, Any]) -> str:
        before, problem, record = current(args)
        if before is None:
            return f"Remove the task {record}: {problem}"
        return f"Remove the task “{before['title']}” that Hearth added."

    def restore_preview(args: dict[str, Any]) -> str:
        before, problem, record = current(args)
        title = before["title"] if before else record
        return change_preview("Put back the task", title, [("Status", "done", "open")], problem)

    def do_update(args: dict[str, Any]) -> ToolResult:
        due = args.get("due")
        task = update_task(
            account,
            str(args["task_id"]),
            title=args.get("title"),
            due=parse_due(str(due), now=clock.now()) if due else None,
            notes=args.get("notes"),
            remove_due=due == "",
        )
        return ToolResult({**shown(task), "updated": True}, trusted=False, source=source())

    def current(args: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None, str]:
        task_id = str(args.get("task_id", ""))
        task, problem = _current(lambda: get_task(account, task_id), CalendarError)
        before = shown(task) if task is not None else None
        return before, problem, (before["title"] if before else task_id)

    def update_preview(args: dict[str, Any]) -> str:
        before, problem, record = current(args)
        fields = (("title", "Title"), ("due", "Due"), ("notes", "Notes"))
        rows = [(label, (before or {}).get(key), args[key]) for key, label in fields if key in args]
        return change_preview("Change task", record, rows, problem)

    def complete_preview(args: dict[str, Any]) -> str:
        before, problem, record = current(args)
        rows = [("Status", "open", "done")]
        if before is not None and before.get("due"):
            rows.append(("Due", before["due"], before["due"]))
        return change_preview("Mark as done", record, rows, problem)

    def tasks_like(text: str) -> list[dict[str, Any]]:
        return matching_titles(text, list_tasks(account), "task_id", "due")

    def check_id(tool: str) -> Precheck:
        return _id_check(tool, "task_id", parse_task_id, CalendarError, tasks_like, source)

    _register(registry, "list_tasks", guarded(do_list))
    _register(registry, "add_task", guarded(do_add), task_preview)
    _register(
        registry,
        "complete_task",
        guarded(do_complete),
        complete_preview,
        check_id("complete_task"),
    )
    _register(
        registry,
        "update_task",
        guarded(do_update),
        update_preview,
        check_id("update_task"),
    )
    _register_undo(registry, "delete_task", guarded(do_remove), remove_preview)
    _register_undo(registry, "restore_task", guarded(do_restore), restore_preview)


# -- contacts (CardDAV on the calendar account) ---------------------------------------------------


def _add_contact_tools(registry: Registry, account: Any) -> None:
    from app.agent.tools.previews import change_preview, contact_preview
    from connectors.calendar import CalendarError
    from connectors.contacts import (
        add_contact,
        contacts_by_email,
        find_contacts,
        get_contact,
        parse_contact_id,
        update_contact,
    )

    def guarded(function: Handler) -> Handler:
        return _failing_as(function, CalendarError)

    def source() -> str:  # shared and auto-collected address books hold others' words
        return f"the address books of {account.name}"

    def do_find(args: dict[str, Any]) -> ToolResult:
        found = find_contacts(account, str(args["query"]))
        content = [_plain(c) for c in found] or "No contact matches."
        return ToolResult(content, trusted=False, source=source())

    def listed(value: Any) -> list[str] | None:
        if value is None:
            return None
        return [value] if isinstance(value, str) else [str(v) for v in value]

    def do_add(args: dict[str, Any]) -> ToolResult:
        contact = add_contact(
            account,
            str(args["name"]),
            emails=listed(args.get("emails")) or [],
            phones=listed(args.get("phones")) or [],
            organisation=args.get("organisation"),
        )
        return ToolResult({**_plain(contact), "added": True})

    def do_update(args: dict[str, Any]) -> ToolResult:
        contact = update_contact(
            account,
            str(args["contact_id"]),
            name=args.get("name"),
            emails=listed(args.get("emails")),
            phones=listed(args.get("phones")),
            organisation=args.get("organisation"),
        )
        return ToolResult({**_plain(contact), "updated": True}, trusted=False, source=source())

    def update_preview(args: dict[str, Any]) -> str:
        contact_id = str(args.get("contact_id", ""))
        before, problem = _current(lambda: get_contact(account, contact_id), CalendarError)
        fields = (("name", "Name"), ("emails", "Email"), ("phones", "Phone"),
                  ("organisation", "Organisation"))  # fmt: skip
        rows = [(label, getattr(before, key, None), args[key])
                for key, label in fields if key in args]  # fmt: skip
        record = before.name if before is not None else contact_id
        return change_preview("Change contact", record, rows, problem)

    def names_of(addresses: Sequence[str]) -> dict[str, str]:
        return {a: c.name for a, c in contacts_by_email(account, addresses).items()}

    registry.contact_lookup = names_of

    def contacts_like(text: str) -> list[dict[str, Any]]:
        found = find_contacts(account, text)[:5]
        return [{"contact_id": c.contact_id, "name": c.name} for c in found]

    _register(registry, "find_contact", guarded(do_find))
    _register(registry, "add_contact", guarded(do_add), contact_preview)
    _register(
        registry,
        "update_contact",
        guarded(do_update),
        update_preview,
        _id_check(
            "update_contact", "contact_id", parse_contact_id, CalendarError, contacts_like, source
        ),
    )


# -- mail ----------------------------------------------------------------------------------------


def _add_mail_tools(registry: Registry, account: Any) -> None:
    from app.agent.tools.previews import email_preview, reply_preview, sender_shown
    from connectors.mail import (
        MailError,
        list_emails,
        parse_email_id,
        read_email,
        reply_email,
        reply_recipients,
        search_emails,
        send_email,
    )

    def explain(exc: Exception) -> str:
        if getattr(exc, "reason", None) == "uncertain":
            # Never retried: the user is told it may or may not have gone out.
            return f"{exc} It was not sent again."
        return str(exc)

    def guarded(function: Handler) -> Handler:
        return _failing_as(function, MailError, explain)

    def summaries(items: list[Any], source: str) -> ToolResult:
        # Senders and subjects are written by other people: untrusted.
        return ToolResult([_plain(item) for item in items], trusted=False, source=source)

    def do_list(args: dict[str, Any]) -> ToolResult:
        folder = str(args.get("folder") or "INBOX")
        found = list_emails(
            account, folder, bool(args.get("unread_only", False)), int(args.get("limit", 20))
        )
        return summaries(found, f"the email list of {folder}")

    def do_search(args: dict[str, Any]) -> ToolResult:
        found = search_emails(
            account, str(args["query"]), str(args.get("folder") or "INBOX"), since=args.get("since")
        )
        return summaries(found, "email search results")

    def emails_like(text: str) -> list[dict[str, Any]]:
        return matching_emails(text, lambda word: search_emails(account, word, limit=3))

    def check_id(tool: str) -> Precheck:
        def source() -> str:
            return "email search results"

        return _id_check(tool, "email_id", parse_email_id, MailError, emails_like, source)

    def do_read(args: dict[str, Any]) -> ToolResult:
        email = read_email(account, str(args["email_id"]))
        return ToolResult(
            {
                "email_id": email.email_id,
                "from": email.sender,
                "to": list(email.to),
                "subject": email.subject,
                "date": _plain(email.date),
                "text": email.text,
                "attachments": [a.filename for a in email.attachments],
            },
            trusted=False,
            source=f"an email from {email.sender}",
        )

    def do_send(args: dict[str, Any]) -> ToolResult:
        sent = send_email(
            account, args["to"], str(args["subject"]), str(args["body"]), cc=args.get("cc")
        )
        return ToolResult(
            {
                "sent": True,
                "message_id": sent.message_id,
                "recipients": list(sent.recipients),
                "warning": sent.warning,
            }
        )

    def do_reply(args: dict[str, Any]) -> ToolResult:
        sent = reply_email(account, str(args["email_id"]), str(args["body"]))
        return ToolResult({"sent": True, "recipients": list(sent.recipients)})

    _register(registry, "list_emails", guarded(do_list))
    _register(registry, "search_emails", guarded(do_search))
    _register(
        registry,
        "read_email",
        guarded(do_read),
        precheck=check_id("read_email"),
    )
    registry.implied_recipients["reply_email"] = lambda args: reply_recipients(
        account, str(args.get("email_id", ""))
    )
    # Which account sends: the dialog's first line (audit: the user could not tell).
    sender = sender_shown(
        str(getattr(account, "email", "") or ""), str(getattr(account, "display_name", "") or "")
    )
    _register(registry, "send_email", guarded(do_send), lambda a: email_preview(a, sender=sender))
    _register(
        registry,
        "reply_email",
        guarded(do_reply),
        lambda a: reply_preview(a, sender),
        check_id("reply_email"),
    )


# -- memory --------------------------------------------------------------------------------------


def _add_memory_tools(registry: Registry, database: Any) -> None:
    """Memories keep the labels of the conversation that wrote them, and give them back to
    whoever recalls them: a fact saved after reading an email stays untrusted."""
    from app.store.memories import search_memories
    from app.store.models import MemoryRecord

    def remember(args: dict[str, Any]) -> ToolResult:
        labels = writing_labels()
        with database.session() as session, session.begin():
            record = MemoryRecord(
                created=clock.now().astimezone(UTC),
                text=str(args["fact"]),
                labels_json=labels.to_json(),
            )
            session.add(record)
            session.flush()
            return ToolResult({"memory_id": record.id, "remembered": record.text})

    def recall(args: dict[str, Any]) -> ToolResult:
        # FTS5 bm25 ranking; the query's words are quoted, so no FTS syntax gets through.
        found = search_memories(database, str(args["query"]))
        labels = _stored_labels("memories", (m.labels_json for m in found))
        return _labelled(
            [{"memory_id": m.id, "fact": m.text} for m in found] or "Nothing remembered matches.",
            labels,
            "a memory",
        )

    def forget(args: dict[str, Any]) -> ToolResult:
        with database.session() as session, session.begin():
            record = session.get(MemoryRecord, int(args["memory_id"]))
            if record is None:
                raise ToolFailed(f"There is no memory with id {args['memory_id']}.")
            text, stored = record.text, record.labels_json
            session.delete(record)
        return _labelled({"forgotten": text}, _stored_labels("memories", [stored]), "a memory")

    _register(registry, "remember", remember)
    _register(registry, "recall", recall)
    _register(registry, "forget", forget, lambda a: f"Forget memory #{a.get('memory_id')}")


def _stored_labels(store: str, stored: Any) -> Labels:
    """The join of the stored labels of every item shown, plus the private store itself."""
    labels = Labels(private=(store,))
    for text in stored:
        labels = labels.join(Labels.from_json(text))
    return labels


def _labelled(content: Any, labels: Labels, what: str) -> ToolResult:
    """A result that carries the labels its items were stored with: untrusted if any was."""
    if labels.tainted:
        source = f"{what} saved after reading {'; '.join(labels.untrusted)}"
        return ToolResult(content, trusted=False, source=source, labels=labels)
    return ToolResult(content, labels=labels)


# -- reminders -----------------------------------------------------------------------------------


def _add_reminder_tools(registry: Registry, database: Any) -> None:
    """The user's own reminders; the app's notifier shows them when due (also after a restart).
    Like memories, each keeps the labels of the conversation that set it."""
    from app.store.reminders import ReminderError, ReminderStore, parse_local_time

    store = ReminderStore(database)

    def shown(reminder: Any) -> dict[str, Any]:
        return {
            "reminder_id": reminder.id,
            "text": reminder.text,
            "at": reminder.local_due().isoformat(timespec="minutes"),
        }

    def do_set(args: dict[str, Any]) -> ToolResult:
        reminder = store.add(
            str(args["text"]),
            parse_local_time(str(args["at"])),
            now=clock.now(),
            labels_json=writing_labels().to_json(),
        )
        return ToolResult({**shown(reminder), "set": True})

    def do_list(args: dict[str, Any]) -> ToolResult:
        pending = store.pending()
        labels = _stored_labels("reminders", (r.labels_json for r in pending))
        content = [shown(r) for r in pending] or "No reminders are set."
        return _labelled(content, labels, "a reminder")

    def do_cancel(args: dict[str, Any]) -> ToolResult:
        reminder = store.cancel(int(args["reminder_id"]))
        labels = _stored_labels("reminders", [reminder.labels_json])
        return _labelled({**shown(reminder), "cancelled": True}, labels, "a reminder")

    def guarded(function: Handler) -> Handler:
        return _failing_as(function, ReminderError)

    _register(
        registry,
        "set_reminder",
        guarded(do_set),
        lambda a: f"Remind you at {a.get('at')}: {a.get('text')}",
    )
    _register(registry, "list_reminders", guarded(do_list))
    _register(
        registry,
        "cancel_reminder",
        guarded(do_cancel),
        lambda a: f"Cancel reminder #{a.get('reminder_id')}",
    )


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# The argument of update_event and delete_event that changes one occurrence of a repeating
# event alone (the calendar connector's `only_occurrence`).
_ONE = "only_this_occurrence"


def _current(read: Callable[[], Any], error: type[Exception]) -> tuple[Any, str | None]:
    """The record a change would replace, for its before/after preview, or None and why not
    (the dialog then still shows the new values)."""
    try:
        return read(), None
    except error as exc:
        return None, str(exc)


def _failing_as(
    function: Handler,
    error: type[Exception] | tuple[type[Exception], ...],
    explain: Callable[[Exception], str] = str,
) -> Handler:
    """The connector's own error becomes a ToolFailed whose message the user and the model
    both see; anything else is a bug and stays one."""

    def run(arguments: dict[str, Any]) -> ToolResult:
        try:
            return function(arguments)
        except error as exc:
            raise ToolFailed(explain(exc)) from exc

    return run


def _id_check(
    tool: str,
    argument: str,
    parse: Callable[[str], object],
    error: type[Exception],
    candidates: Callable[[str], list[dict[str, Any]]],
    source: Callable[[], str],
) -> Precheck:
    """A precheck for an id argument: a value that is no id at all (a name, a title) fails
    at once, naming the matching items with their ids (`app.agent.tools.id_hints`). If the lookup
    fails (the server is down) or finds nothing, the call goes on to the gate and its
    handler, which report the real problem."""

    def run(arguments: dict[str, Any]) -> None:
        wrong = str(arguments.get(argument, ""))
        if _parses(parse, error, wrong):
            return  # an id: the handler finds out whether it exists
        inside = {t for t in re.split(r"[\s,;()\"']+", wrong) if t and _parses(parse, error, t)}
        if len(inside) == 1:  # an id copied with its description
            raise ToolFailed(
                f"Use the {argument} alone: call {tool} again with {argument} {inside.pop()}"
            )
        try:
            found = candidates(wrong)
        except error:
            log.info("no candidates for a wrong %s", argument, exc_info=True)
            return
        if found:
            hint = not_an_id_hint(tool, argument, wrong, found)
            raise ToolFailed(hint, untrusted_source=source())

    return run


def _parses(parse: Callable[[str], object], error: type[Exception], value: str) -> bool:
    try:
        parse(value)
    except error:
        return False
    return True


def _plain(value: Any) -> Any:
    """A connector's result as plain data. Field by field, not `dataclasses.asdict`: that
    deep-copies every value, and a message date without a Date header carries imapclient's
    FixedOffset zone, which cannot be copied (search_emails failed on such a message)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    return value
