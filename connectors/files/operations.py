"""The file tools: list_folder, search_files, read_file, preview_write / write_file.

Plain functions over a ``Folders`` value, returning typed results or raising
``FileAccessError``. They know nothing of the model or the policy gate: the gate calls
``preview_write`` to show the user a diff and ``write_file`` (or ``write_planned``) to run
exactly what was shown.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import fnmatch
import hashlib
import os
import re
import secrets
import stat
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from connectors.files.confine import (
    DIR_FLAGS,
    MAX_DEPTH,
    FileAccessError,
    Folders,
    Root,
    check_kind,
    explain,
    hard_link_error,
    is_folder_error,
    link_error,
    open_dir,
    open_file,
    show,
)
from connectors.files.extract import (
    DOCUMENT_SUFFIXES,
    READABLE_HINT,
    TEXT_SUFFIXES,
    UNSUPPORTED_SUFFIXES,
    DocumentError,
    Kind,
    cut_text,
    decode_text,
    describe_binary,
    extract_docx,
    extract_pdf,
    extract_pdf_pages,
    sniff,
)
from connectors.files.walk import visible_entries
from connectors.others_text import one_line, visible_text

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024  # PDF/DOCX are parsed whole: bound memory and time
MAX_SEARCH_TEXT_BYTES = 2 * 1024 * 1024  # larger text files are skipped by content search
MAX_SEARCH_CHARS = 1_000_000
MAX_WRITE_BYTES = 5 * 1024 * 1024
MAX_DIFF_OLD_BYTES = 1024 * 1024  # older files larger than this are replaced without a diff
MAX_LIST_ENTRIES = 1000
SEARCH_MAX_FILES = 20_000
SEARCH_MAX_SECONDS = 20.0
SEARCH_MATCHES_PER_FILE = 5
SNIPPET_CHARS = 200

# write_file writes text. An allowlist, not a denylist, because a denylist always misses one
# (.scr, .hta, .lnk, .jar, .command, .desktop...). Text written into .docx/.pdf would only make
# a broken file, and .html/.svg/.xml can carry scripts, so they are not here either.
WRITABLE_SUFFIXES = frozenset(
    {".txt", ".text", ".md", ".markdown", ".csv", ".tsv", ".json", ".log", ".rst", ".org"}
    | {".yaml", ".yml"}
)
# Named in the refusal, so that the reason is "it could run code", not "unknown type". The
# policy gate refuses the same list before a write is even proposed to the user (one list).
EXECUTABLE_SUFFIXES = frozenset(
    {
        ".exe", ".com", ".bat", ".cmd", ".ps1", ".psm1", ".vbs", ".vbe", ".js", ".jse", ".wsf",
        ".wsh", ".msi", ".msp", ".scr", ".pif", ".cpl", ".hta", ".lnk", ".reg", ".jar", ".sh",
        ".bash", ".zsh", ".fish", ".csh", ".ksh", ".command", ".app", ".desktop", ".py", ".pyw",
        ".pl", ".rb", ".php", ".appimage", ".run", ".deb", ".rpm", ".dmg", ".pkg", ".apk",
        ".url", ".scf", ".inf", ".dll", ".so", ".dylib", ".service", ".plist", ".scpt",
        ".workflow",
    }
)  # fmt: skip
WRITABLE_HINT = "Hearth writes only plain text files: " + ", ".join(sorted(WRITABLE_SUFFIXES)) + "."


@dataclass(frozen=True)
class Entry:
    """One item of a folder listing."""

    name: str
    kind: Literal["file", "folder"]
    size: int | None  # bytes, None for folders
    modified: datetime  # UTC


@dataclass(frozen=True)
class Match:
    """A search hit: by name (line_number None) or by content (line of read_file's text)."""

    path: str
    line_number: int | None
    snippet: str
    kind: Literal["file", "folder"] = "file"


@dataclass(frozen=True)
class FileText:
    """The text of a file, as the model will see it."""

    path: str
    text: str
    kind: Kind
    truncated: bool
    encoding: str | None = None  # for text files; "windows-1252"/"latin-1" mean "not UTF-8"
    size: int = 0  # bytes on disk
    pages: tuple[str, ...] = ()  # a PDF's text page by page (``text`` joins them)
    modified_ns: int = 0  # the modification time of the file that was read


@dataclass(frozen=True)
class WritePlan:
    """What a write would do, for the confirmation dialog; bind it with ``write_planned``."""

    path: str
    exists: bool
    old_text: str | None  # None for a new file, or an old file that is not text or too large
    diff: str  # unified diff from the current file (or /dev/null) to the new content
    new_size: int  # bytes
    old_sha256: str | None = None
    new_sha256: str = ""


@dataclass(frozen=True)
class WriteResult:
    """What a write did."""

    path: str
    bytes_written: int
    created: bool
    sha256: str = ""


# ---------------------------------------------------------------------------------------------
# list_folder


def list_folder(folders: Folders, path: str, *, limit: int = MAX_LIST_ENTRIES) -> list[Entry]:
    """The files and folders in ``path`` (folders first, then by name).

    ``""`` or ``"."`` is the first approved folder. Hidden entries, symlinks and special files
    are left out: Hearth could not open them anyway.
    """
    parts: tuple[str, ...]
    if isinstance(path, str) and path.strip() in ("", "."):
        root, parts = _first_root(folders), ()
    else:
        root, parts = folders.resolve(path)
    shown = folders.display(root, parts)
    entries: list[Entry] = []
    with _closing(open_dir(root, parts, shown, doing="list")) as fd:
        try:
            for name, st in visible_entries(fd):
                modified = datetime.fromtimestamp(st.st_mtime, UTC)
                if stat.S_ISDIR(st.st_mode):
                    entries.append(Entry(name, "folder", None, modified))
                elif stat.S_ISREG(st.st_mode):
                    entries.append(Entry(name, "file", st.st_size, modified))
        except OSError as exc:
            raise explain(exc, shown, doing="list") from exc
    entries.sort(key=lambda e: (e.kind != "folder", e.name.casefold(), e.name))
    return entries[: max(0, limit)]


# ---------------------------------------------------------------------------------------------
# read_file


def read_file(
    folders: Folders, path: str, max_chars: int = 100_000, *, headings: bool = False
) -> FileText:
    """The text of a file: plain text (any common encoding), PDF pages, or Word paragraphs.

    Text files longer than ``max_chars`` are read only as far as needed and marked truncated,
    so a huge log is still readable; PDF and Word files are parsed whole and refused above
    ``MAX_DOCUMENT_BYTES``. Other binary files are refused. ``headings`` marks a Word
    document's headings Markdown-style (the document index cites them).
    """
    max_chars = max(1, int(max_chars))
    root, parts = folders.resolve(path)
    shown = folders.display(root, parts)
    if not parts:
        raise is_folder_error(shown)
    suffix = _suffix(parts[-1])
    if suffix in UNSUPPORTED_SUFFIXES:
        raise _unsupported(shown, f"a {suffix} file")
    with _closing(open_dir(root, parts[:-1], shown, doing="read")) as dir_fd:
        fd, st = open_file(dir_fd, parts[-1], shown, doing="read")
    with _closing(fd):
        head = _read_upto(fd, 8192, shown)
        try:
            kind = sniff(head, suffix)
        except DocumentError as exc:
            raise _unsupported(shown, str(exc)) from exc
        if kind == "text":
            want = max_chars * 4 + 4  # UTF-8 needs at most 4 bytes a character
            data = head + _read_upto(fd, max(0, want - len(head)), shown)
            complete = len(data) < want or not _read_upto(fd, 1, shown)
            decoded = decode_text(data, complete=complete)
            if decoded is None:
                raise FileAccessError(
                    f"'{show(shown)}' is not a text file (it looks like "
                    f"{describe_binary(head)}), so Hearth cannot read it. {READABLE_HINT}",
                    reason="not_text",
                    path=shown,
                )
            text, encoding = decoded
            truncated = not complete or len(text) > max_chars
            return FileText(
                shown,
                visible_text(text[:max_chars], layout=True),
                "text",
                truncated,
                encoding,
                st.st_size,
                modified_ns=st.st_mtime_ns,
            )
        data = head + _read_document_rest(fd, st, shown, already=len(head))
    pages: list[str] = []
    try:
        if kind == "pdf":
            pages, truncated = extract_pdf_pages(data, max_chars)
            text, truncated = cut_text("\n\n".join(pages), max_chars, truncated)
        else:
            text, truncated = extract_docx(data, max_chars, headings=headings)
    except DocumentError as exc:
        raise FileAccessError(
            f"Hearth could not read the text of '{show(shown)}': {exc}.",
            reason="unsupported",
            path=shown,
        ) from exc
    pages = [visible_text(page, layout=True) for page in pages]  # maybe someone else's words
    text = visible_text(text, layout=True)
    return FileText(shown, text, kind, truncated, None, st.st_size, tuple(pages), st.st_mtime_ns)


def _read_document_rest(fd: int, st: os.stat_result, shown: str, *, already: int) -> bytes:
    if st.st_size > MAX_DOCUMENT_BYTES:
        raise _too_large(shown, st.st_size, MAX_DOCUMENT_BYTES, "read")
    rest = _read_upto(fd, MAX_DOCUMENT_BYTES + 1 - already, shown)
    if already + len(rest) > MAX_DOCUMENT_BYTES:  # grew while we read
        raise _too_large(shown, already + len(rest), MAX_DOCUMENT_BYTES, "read")
    return rest


# ---------------------------------------------------------------------------------------------
# search_files


@dataclass
class _Search:
    """The state of one search: what to look for, what was found, when to stop."""

    folders: Folders
    needle: str
    is_glob: bool
    limit: int
    deadline: float
    results: list[Match] = field(default_factory=list)
    files_seen: int = 0

    def done(self) -> bool:
        return (
            len(self.results) >= self.limit
            or self.files_seen >= SEARCH_MAX_FILES
            or time.monotonic() > self.deadline
        )

    def name_matches(self, name: str, rel: tuple[str, ...]) -> bool:
        subject = "/".join(rel) if "/" in self.needle else name
        if self.is_glob:
            return fnmatch.fnmatchcase(subject.casefold(), self.needle)
        return self.found_in(subject.casefold())

    def found_in(self, text: str) -> bool:
        """The query as written, or every word of it ("planting notes" finds
        planting-notes.txt): people and small models seldom type a name exactly."""
        if self.needle in text:
            return True
        words = [word for word in re.split(r"[\W_]+", self.needle) if word]
        return len(words) > 1 and all(word in text for word in words)


def search_files(
    folders: Folders,
    query: str,
    folder: str | None = None,
    limit: int = 50,
    *,
    max_seconds: float = SEARCH_MAX_SECONDS,
) -> list[Match]:
    """Find files by name and by content, beneath ``folder`` or every approved folder.

    Names match as a case-insensitive substring, or as a glob when the query has ``*``, ``?``
    or ``[`` (then content is not searched). A query with ``/`` is matched against the path.
    Content matches are case-insensitive substrings of a line of the text ``read_file`` would
    return (text files, PDF, DOCX), at most ``SEARCH_MATCHES_PER_FILE`` per file. Symlinks,
    hidden entries, special files, hard-linked files and files above the size caps are
    skipped. The search stops at ``limit`` matches, ``SEARCH_MAX_FILES`` files or
    ``max_seconds``, whichever comes first.
    """
    if not isinstance(query, str) or not query.strip():
        raise FileAccessError("The search is empty: give a word or a file name to look for.",
                              reason="invalid")  # fmt: skip
    if any(unicodedata.category(ch) == "Cc" for ch in query):
        raise FileAccessError(
            "The search contains a control character (such as a NUL byte).", reason="invalid"
        )
    needle = query.strip().casefold()
    search = _Search(
        folders=folders,
        needle=needle,
        is_glob=any(ch in needle for ch in "*?["),
        limit=max(1, min(int(limit), 500)),
        deadline=time.monotonic() + max_seconds,
    )
    targets: list[tuple[Root, tuple[str, ...]]]
    if folder is None or not folder.strip():
        _first_root(folders)  # raises the "no folders yet" message
        targets = [(root, ()) for root in folders.roots]
    elif folder.strip() == ".":
        targets = [(_first_root(folders), ())]
    else:
        targets = [folders.resolve(folder)]
    for root, parts in targets:
        shown = folders.display(root, parts)
        try:
            opened = open_dir(root, parts, shown, doing="search")
        except FileAccessError as exc:
            if exc.reason != "not_found" or not parts:
                raise
            # A sub-folder that is not there (a guess): search them all; the paths show where.
            return search_files(folders, query, None, limit, max_seconds=max_seconds)
        with _closing(opened) as fd:
            _search_dir(search, fd, root, parts, depth=len(parts))
        if search.done():
            break
    return search.results[: search.limit]


def _search_dir(
    search: _Search, dir_fd: int, root: Root, parts: tuple[str, ...], depth: int
) -> None:
    items: list[tuple[str, bool, bool]] = []
    try:
        # Types are read while the listing is open: a DirEntry may need its folder's descriptor.
        with os.scandir(dir_fd) as listing:
            for item in listing:
                if item.name.startswith("."):
                    continue
                with contextlib.suppress(OSError):
                    is_dir = item.is_dir(follow_symlinks=False)
                    items.append((item.name, is_dir, item.is_file(follow_symlinks=False)))
    except OSError:
        return  # an unreadable folder deep down is skipped, not fatal
    for name, is_dir, is_file in sorted(items):
        if search.done():
            return
        rel = (*parts, name)
        if is_dir:
            if search.name_matches(name, rel):
                search.results.append(
                    Match(search.folders.display(root, rel), None, "(folder)", "folder")
                )
            if depth + 1 >= MAX_DEPTH:
                continue
            try:
                sub = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
            except OSError:
                continue  # became a symlink, vanished, or no permission
            with _closing(sub):
                _search_dir(search, sub, root, rel, depth + 1)
        elif is_file:  # symlinks, FIFOs, devices and sockets are neither
            search.files_seen += 1
            shown = search.folders.display(root, rel)
            if search.name_matches(name, rel):
                search.results.append(Match(shown, None, name))
            if not search.is_glob and not search.done():
                _search_content(search, dir_fd, name, shown)


def _search_content(search: _Search, dir_fd: int, name: str, shown: str) -> None:
    suffix = _suffix(name)
    if suffix not in TEXT_SUFFIXES and suffix not in DOCUMENT_SUFFIXES:
        return
    try:
        text = _text_for_search(dir_fd, name, shown, suffix)
    except (FileAccessError, DocumentError):
        return
    if text is None:
        return
    found = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if search.found_in(line.casefold()):
            search.results.append(Match(shown, number, _snippet(line, search.needle)))
            found += 1
            if found >= SEARCH_MATCHES_PER_FILE or search.done():
                return


def _text_for_search(dir_fd: int, name: str, shown: str, suffix: str) -> str | None:
    fd, st = open_file(dir_fd, name, shown, doing="search")
    with _closing(fd):
        if suffix in DOCUMENT_SUFFIXES:
            if st.st_size > MAX_DOCUMENT_BYTES:
                return None
            data = _read_upto(fd, MAX_DOCUMENT_BYTES + 1, shown)
            if len(data) > MAX_DOCUMENT_BYTES:
                return None
        else:
            if st.st_size > MAX_SEARCH_TEXT_BYTES:
                return None
            data = _read_upto(fd, MAX_SEARCH_TEXT_BYTES, shown)
    kind = sniff(data[:8192], suffix)
    if kind == "pdf":
        return extract_pdf(data, MAX_SEARCH_CHARS)[0]
    if kind == "docx":
        return extract_docx(data, MAX_SEARCH_CHARS)[0]
    decoded = decode_text(data, complete=True)
    return decoded[0] if decoded else None


def _snippet(line: str, needle: str) -> str:
    line = one_line(line)
    if len(line) <= SNIPPET_CHARS:
        return line
    at = max(0, line.casefold().find(needle))
    start = max(0, min(at - SNIPPET_CHARS // 3, len(line) - SNIPPET_CHARS))
    cut = line[start : start + SNIPPET_CHARS]
    return ("…" if start else "") + cut + ("…" if start + SNIPPET_CHARS < len(line) else "")


# ---------------------------------------------------------------------------------------------
# preview_write / write_file


@dataclass(frozen=True)
class _Existing:
    """The file a write would replace, as it was when we looked."""

    sha256: str
    data: bytes | None  # None if larger than MAX_DIFF_OLD_BYTES
    size: int
    st: os.stat_result


def preview_write(folders: Folders, path: str, content: str, overwrite: bool = False) -> WritePlan:
    """What ``write_file`` would do, without changing anything: for the confirmation dialog.

    Raises the same refusals ``write_file`` would (outside, link, executable type, exists
    without ``overwrite``...), so the gate can deny before asking. Missing parent folders are
    fine: the write creates them.
    """
    root, parts, shown = _write_target(folders, path)
    data = _encode(content, shown)
    try:
        dir_fd: int | None = open_dir(root, parts[:-1], shown, doing="write")
    except FileAccessError as exc:
        if exc.reason != "not_found":
            raise
        dir_fd = None  # a parent folder is missing: write_file will create it
    existing = None
    if dir_fd is not None:
        with _closing(dir_fd):
            existing = _existing(dir_fd, parts[-1], shown, overwrite=overwrite)
    old_text = None
    if existing is not None and existing.data is not None:
        decoded = decode_text(existing.data, complete=True)
        old_text = decoded[0] if decoded else None
    return WritePlan(
        path=shown,
        exists=existing is not None,
        old_text=old_text,
        diff=_diff(shown, existing, old_text, content),
        new_size=len(data),
        old_sha256=existing.sha256 if existing else None,
        new_sha256=hashlib.sha256(data).hexdigest(),
    )


def write_file(
    folders: Folders,
    path: str,
    content: str,
    overwrite: bool = False,
    expected_old_sha256: str | None = None,
) -> WriteResult:
    """Write ``content`` (UTF-8) to a text file inside an approved folder, atomically.

    - Never replaces a file unless ``overwrite``; a new file is linked into place with
      ``link()``, which fails if the name appeared meanwhile (so no race can clobber it).
    - With ``expected_old_sha256``, refuses unless the file is still the one that was previewed.
    - Writes a temporary file in the same folder, ``fsync``s it and ``os.replace``s it over the
      old name: readers see the old or the new file, never half of one. Renaming replaces the
      *name*, so even a symlink or hard link swapped in at the last moment is never written
      through.
    - Never writes to a symlink, a hard-linked file, a special file, a hidden name, or a type
      that could run code (see ``WRITABLE_SUFFIXES``).
    - Creates missing parent folders, one at a time inside the folder already opened.
    """
    root, parts, shown = _write_target(folders, path)
    data = _encode(content, shown)
    with _closing(open_dir(root, parts[:-1], shown, create=True, doing="write")) as dir_fd:
        name = parts[-1]
        existing = _existing(dir_fd, name, shown, overwrite=overwrite, keep_data=False)
        if expected_old_sha256 is not None and (
            existing is None or existing.sha256 != expected_old_sha256.strip().lower()
        ):
            raise FileAccessError(
                f"'{show(shown)}' changed after the change was shown for approval, so nothing "
                "was written. Preview the change again.",
                reason="changed",
                path=shown,
            )
        if existing is None:
            _place_new(dir_fd, name, data, shown)
        else:
            _replace(dir_fd, name, data, shown, existing)
        with contextlib.suppress(OSError):  # some file systems cannot fsync a folder
            os.fsync(dir_fd)
    return WriteResult(shown, len(data), existing is None, hashlib.sha256(data).hexdigest())


def write_planned(folders: Folders, plan: WritePlan, content: str) -> WriteResult:
    """Run exactly the write the user approved in ``plan``, or refuse.

    Binds all three things the dialog showed: the content (hash), the old file (hash, or its
    absence: a new-file plan is written without overwrite, so a file that appeared since is
    never replaced) and the path.
    """
    if hashlib.sha256(_encode(content, plan.path)).hexdigest() != plan.new_sha256:
        raise FileAccessError(
            f"The content for '{show(plan.path)}' is not what was approved, so nothing was "
            "written.",
            reason="changed",
            path=plan.path,
        )
    return write_file(
        folders, plan.path, content, overwrite=plan.exists, expected_old_sha256=plan.old_sha256
    )


def remove_written(folders: Folders, path: str, content: str) -> str:
    """Remove a file Hearth created, to undo that write: only while it still holds exactly
    ``content`` (what Hearth wrote), so nothing the user changed since is ever lost. Returns
    the path as shown."""
    root, parts, shown = _write_target(folders, path)
    expected = hashlib.sha256(_encode(content, shown)).hexdigest()
    with _closing(open_dir(root, parts[:-1], shown, doing="write")) as dir_fd:
        name = parts[-1]
        existing = _existing(dir_fd, name, shown, overwrite=True, keep_data=False)
        if existing is None:
            raise FileAccessError(
                f"'{show(shown)}' is no longer there: nothing to remove.",
                reason="not_found",
                path=shown,
            )
        if existing.sha256 != expected:
            raise FileAccessError(
                f"'{show(shown)}' was changed after Hearth wrote it, so Hearth left it as it is.",
                reason="changed",
                path=shown,
            )
        try:
            os.unlink(name, dir_fd=dir_fd)
        except OSError as exc:
            raise explain(exc, shown, doing="write") from exc
    return shown


def _write_target(folders: Folders, path: str) -> tuple[Root, tuple[str, ...], str]:
    """Resolve a write path and refuse names Hearth must not write."""
    root, parts = folders.resolve(path)
    shown = folders.display(root, parts)
    if not parts:
        raise is_folder_error(shown)
    for part in parts:
        if any(unicodedata.category(ch) == "Cf" for ch in part):
            raise FileAccessError(
                f"'{show(shown)}' contains invisible formatting characters (such as right-to-left "
                "marks), which can disguise a file's real name. Use a plain name.",
                reason="invalid",
                path=shown,
            )
        if part != part.strip() or part.endswith("."):
            raise FileAccessError(
                f"'{show(shown)}' has a name that starts or ends with a space or ends with a dot, "
                "which other computers cannot open. Use a plain name.",
                reason="invalid",
                path=shown,
            )
    name = parts[-1]
    suffix = _suffix(name)
    if suffix in EXECUTABLE_SUFFIXES:
        raise FileAccessError(
            f"Hearth does not write '{show(shown)}': {suffix} files are programs or scripts that "
            f"could run on this computer. {WRITABLE_HINT}",
            reason="executable",
            path=shown,
        )
    if suffix not in WRITABLE_SUFFIXES:
        what = f"a {suffix} file" if suffix else "a file without an extension"
        raise FileAccessError(
            f"Hearth does not write '{show(shown)}' ({what}). {WRITABLE_HINT}",
            reason="unsupported",
            path=shown,
        )
    return root, parts, shown


def _encode(content: str, shown: str) -> bytes:
    if not isinstance(content, str):
        raise FileAccessError("The content to write must be text.", reason="invalid", path=shown)
    try:
        data = content.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise FileAccessError(
            f"The content for '{show(shown)}' is not valid text.", reason="invalid", path=shown
        ) from exc
    if len(data) > MAX_WRITE_BYTES:
        raise _too_large(shown, len(data), MAX_WRITE_BYTES, "write")
    return data


def _existing(
    dir_fd: int, name: str, shown: str, *, overwrite: bool, keep_data: bool = True
) -> _Existing | None:
    """The file at ``name`` that a write would replace, or None; refuses what must not be."""
    try:
        before = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise explain(exc, shown, doing="write") from exc
    if stat.S_ISDIR(before.st_mode):
        raise FileAccessError(
            f"'{show(shown)}' is a folder. Give the name of a file to write.",
            reason="is_folder",
            path=shown,
        )
    check_kind(before, shown, name)
    if before.st_nlink > 1:
        raise hard_link_error(shown, "change")
    if not overwrite:
        raise FileAccessError(
            f"'{show(shown)}' already exists. Writing would replace it: ask again with "
            "overwrite set, so the user can review the change first.",
            reason="exists",
            path=shown,
        )
    fd, st = open_file(dir_fd, name, shown, doing="change")
    digest = hashlib.sha256()
    kept = bytearray()
    with _closing(fd):
        while chunk := _read_upto(fd, 1 << 20, shown):
            digest.update(chunk)
            if keep_data and len(kept) <= MAX_DIFF_OLD_BYTES:
                kept += chunk
    data = bytes(kept) if keep_data and len(kept) <= MAX_DIFF_OLD_BYTES else None
    return _Existing(digest.hexdigest(), data, st.st_size, st)


def _diff(shown: str, existing: _Existing | None, old_text: str | None, new: str) -> str:
    new_lines = new.splitlines()
    if existing is None:
        lines = difflib.unified_diff([], new_lines, "/dev/null", f"b/{shown}", lineterm="")
        return "\n".join(lines)
    if old_text is None:
        note = (
            f"(the current '{shown}' is {existing.size} bytes and is not text or too large to "
            "compare; it will be replaced by:)"
        )
        lines = difflib.unified_diff([], new_lines, f"a/{shown}", f"b/{shown}", lineterm="")
        return note + "\n" + "\n".join(lines)
    lines = difflib.unified_diff(
        old_text.splitlines(), new_lines, f"a/{shown}", f"b/{shown}", lineterm=""
    )
    return "\n".join(lines)


def _write_temp(
    dir_fd: int, name: str, data: bytes, shown: str, like: os.stat_result | None = None
) -> str:
    """Write ``data`` to a new hidden temporary file next to ``name``; returns its name.

    A new file gets 0o666 less the umask, as any application would give it; a replacement
    gets the old file's permissions without execute bits, and its owner when we run as root.
    """
    temp = f".{name[:80]}.{secrets.token_hex(6)}.hearth-tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(temp, flags, 0o666 if like is None else 0o600, dir_fd=dir_fd)
    except OSError as exc:
        raise explain(exc, shown, doing="write") from exc
    try:
        if like is not None:
            with contextlib.suppress(OSError):
                os.fchmod(fd, stat.S_IMODE(like.st_mode) & 0o666)
            if os.geteuid() == 0 and (like.st_uid, like.st_gid) != (0, 0):
                with contextlib.suppress(OSError):
                    os.fchown(fd, like.st_uid, like.st_gid)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError as exc:
        os.close(fd)
        _remove_temp(dir_fd, temp)
        raise explain(exc, shown, doing="write") from exc
    except BaseException:
        os.close(fd)
        _remove_temp(dir_fd, temp)
        raise
    os.close(fd)
    return temp


def _remove_temp(dir_fd: int, temp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(temp, dir_fd=dir_fd)


_NO_HARD_LINKS = {errno.EPERM, errno.EMLINK, errno.EXDEV, errno.ENOSYS, errno.EOPNOTSUPP}
_NO_HARD_LINKS.add(getattr(errno, "ENOTSUP", errno.EOPNOTSUPP))


def _place_new(dir_fd: int, name: str, data: bytes, shown: str) -> None:
    """Put a new file in place without ever replacing one that appeared meanwhile."""
    temp = _write_temp(dir_fd, name, data, shown)
    try:
        try:
            if os.link in os.supports_follow_symlinks:
                os.link(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
            else:  # pragma: no cover - platform-dependent
                os.link(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except FileExistsError as exc:
            raise _appeared(shown) from exc
        except OSError as exc:
            if exc.errno not in _NO_HARD_LINKS:
                raise explain(exc, shown, doing="write") from exc
            # A file system without hard links (FAT, exFAT, some network shares): check, then
            # rename. The window between the two is small and only another program could use it.
            try:
                os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
            except FileNotFoundError:
                pass
            else:
                raise _appeared(shown) from exc
            try:
                os.rename(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            except OSError as exc2:
                raise explain(exc2, shown, doing="write") from exc2
    finally:
        _remove_temp(dir_fd, temp)  # after link(): the temporary second name; after rename: gone


def _replace(dir_fd: int, name: str, data: bytes, shown: str, existing: _Existing) -> None:
    """Replace the file we hashed, keeping its permissions (never adding execute bits)."""
    old = existing.st
    temp = _write_temp(dir_fd, name, data, shown, like=old)
    try:
        try:
            now = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError as exc:
            raise _changed(shown) from exc
        same = (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) == (
            old.st_dev,
            old.st_ino,
            old.st_size,
            old.st_mtime_ns,
        )
        if not same:
            if stat.S_ISLNK(now.st_mode):
                raise link_error(shown, name)
            raise _changed(shown)
        if now.st_nlink > 1:
            raise hard_link_error(shown, "change")
        try:
            os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except OSError as exc:
            raise explain(exc, shown, doing="write") from exc
    finally:
        _remove_temp(dir_fd, temp)


def _appeared(shown: str) -> FileAccessError:
    return FileAccessError(
        f"'{show(shown)}' was created by something else while Hearth was writing it, so Hearth "
        "did not replace it. Nothing was changed; look at the file and try again.",
        reason="exists",
        path=shown,
    )


def _changed(shown: str) -> FileAccessError:
    return FileAccessError(
        f"'{show(shown)}' changed while Hearth was writing it, so nothing was written. Try again.",
        reason="changed",
        path=shown,
    )


# ---------------------------------------------------------------------------------------------
# helpers


@contextlib.contextmanager
def _closing(fd: int) -> Iterator[int]:
    try:
        yield fd
    finally:
        os.close(fd)


def _first_root(folders: Folders) -> Root:
    if not folders.roots:
        folders.resolve(".")  # raises the "no folders yet" message
    return folders.roots[0]


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].casefold() if dot > 0 else ""


def _read_upto(fd: int, count: int, shown: str) -> bytes:
    """Read up to ``count`` bytes (fewer only at the end of the file)."""
    chunks: list[bytes] = []
    left = count
    try:
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise explain(exc, shown, doing="read") from exc
    return b"".join(chunks)


def _too_large(shown: str, size: int, limit: int, doing: str) -> FileAccessError:
    return FileAccessError(
        f"'{show(shown)}' is too large for Hearth to {doing} ({_size(size)}; the limit is "
        f"{_size(limit)}).",
        reason="too_large",
        path=shown,
    )


def _unsupported(shown: str, what: str) -> FileAccessError:
    return FileAccessError(
        f"Hearth cannot read '{show(shown)}': {what}. {READABLE_HINT}",
        reason="unsupported",
        path=shown,
    )


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} bytes"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"
