"""Confinement: every file Hearth touches lies beneath a folder the user approved.

Why it is built this way: lexical checks (`..`, absolute paths, NUL) are needed but not enough,
because symlinks and a swap between "check" and "open" escape them. So the check happens *at the
moment of opening*: each call opens the approved folder, then walks one name at a time with
``os.open(name, O_DIRECTORY | O_NOFOLLOW, dir_fd=parent)`` and opens the last name with
``O_NOFOLLOW | O_NONBLOCK`` from the directory it was found in. The kernel resolves every name
relative to a directory we already hold, so no string ever names a place outside the folder, and
a name that became a symlink makes the open fail instead of being followed.

Rules (the same for reading, listing, searching and writing):

- A path is relative to the first approved folder, or absolute and inside one of them (``~/``
  is expanded first). Empty paths, NUL and other control characters, and backslashes are
  refused; ``..`` is resolved lexically and refused if it climbs above the folder.
- Hidden names (starting with ``.``) are refused: they hold passwords, keys and settings
  (``.ssh``, ``.env``, ``.git``, ``.config/autostart``) that a user did not mean to share when
  approving "Documents", and writing them can make the computer run code.
- Symlinks are refused anywhere below the folder, even ones that stay inside: the simple rule
  cannot be raced. (The approved folder itself may be reached through a symlink: the user
  chose it; its device and inode are recorded when ``Folders`` is made and checked on every use.)
- Only regular files are opened: devices, FIFOs and sockets are refused (looked at with
  ``lstat`` before opening, so a device is never opened, and checked again with ``fstat``
  after; ``O_NONBLOCK`` means even a FIFO swapped in between cannot hang us).
- Files with more than one hard link are refused for reading and writing: another name for the
  same file may lie outside the folder and we cannot tell where.
- Mount points and bind mounts beneath a folder are crossed, like Go's ``os.Root``: a mount
  inside an approved folder is part of what the user approved.

Windows (not implemented: ``Folders`` raises ``NotImplementedError`` there): there is no
``dir_fd``. Resolve with ``os.path.realpath`` (it resolves junctions and symlinks), compare
``os.path.normcase`` forms with ``os.path.commonpath([path, root]) == root``, open with
``FILE_FLAG_OPEN_REPARSE_POINT`` and refuse any reparse point, then re-check the opened handle's
final path with ``GetFinalPathNameByHandle``; refuse drive letters and UNC prefixes in relative
paths, ``:`` (alternate data streams), reserved device names (``CON``, ``NUL``, ``COM1``...)
and names ending in a dot or a space.
"""

from __future__ import annotations

import errno
import os
import stat
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

SETTINGS_HINT = "Add the folder in Settings → Folders if you want Hearth to use it."

Reason = Literal[
    "no_folders",
    "invalid",
    "outside",
    "hidden",
    "link",
    "not_found",
    "is_folder",
    "not_folder",
    "special",
    "hard_link",
    "permission",
    "too_large",
    "unsupported",
    "not_text",
    "exists",
    "changed",
    "executable",
    "folder_unavailable",
    "io",
]

# Linux and macOS have all of these; the walk below is unsafe without any one of them.
SUPPORTED = (
    os.name == "posix"
    and os.open in os.supports_dir_fd
    and os.stat in os.supports_dir_fd
    and os.scandir in os.supports_fd
    and hasattr(os, "O_NOFOLLOW")
    and hasattr(os, "O_DIRECTORY")
)

DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
DIR_FLAGS |= os.O_CLOEXEC
READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
READ_FLAGS |= os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)

MAX_PATH_CHARS = 4096
MAX_DEPTH = 32


class FileAccessError(Exception):
    """A refused or failed file operation.

    The message is written for the person using Hearth (and the model, which relays it): what
    was refused, why, and what to do. ``reason`` is a stable code for the gate, the audit log
    and tests; ``path`` is the path as shown to the user, when there is one.
    """

    def __init__(self, message: str, *, reason: Reason, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason: Reason = reason
        self.path = path


@dataclass(frozen=True)
class Root:
    """One approved folder: its real path, the spelling the user gave, and its identity."""

    path: str
    given: str
    device: int
    inode: int

    def parts(self) -> list[tuple[str, ...]]:
        """The root's path components, in both spellings, for matching absolute paths."""
        spellings = {self.path, self.given}
        return [tuple(p for p in s.split("/") if p) for s in spellings]


def show(path: str, limit: int = 200) -> str:
    """A path safe to put in a message: control characters escaped, very long paths cut."""
    out = "".join(
        ch
        if unicodedata.category(ch) not in ("Cc", "Cf")
        else f"\\x{ord(ch):02x}"
        if ord(ch) < 0x100
        else f"\\u{ord(ch):04x}"
        for ch in path
    )
    return out if len(out) <= limit else out[: limit - 1] + "…"


class Folders:
    """The folders the user approved: absolute, resolved once, identity recorded.

    ``resolve`` turns a path from the model into (root, components) without touching the disk;
    the functions in this package then open it safely from the root.
    """

    def __init__(self, roots: Iterable[str | os.PathLike[str]]) -> None:
        if not SUPPORTED:
            raise NotImplementedError(
                "Hearth's file access needs openat-style calls (Linux, macOS); see the Windows "
                "note in connectors.files.confine"
            )
        found: list[Root] = []
        seen: set[tuple[int, int]] = set()
        for raw in roots:
            given = os.path.abspath(os.path.expanduser(os.fspath(raw)))
            real = os.path.realpath(given)
            try:
                st = os.stat(real)
            except OSError as exc:
                raise FileAccessError(
                    f"The folder '{show(given)}' cannot be used: {exc.strerror}. "
                    "Choose it again in Settings → Folders.",
                    reason="folder_unavailable",
                    path=given,
                ) from exc
            if not stat.S_ISDIR(st.st_mode):
                raise FileAccessError(
                    f"'{show(given)}' is a file, not a folder. "
                    "Choose a folder in Settings → Folders.",
                    reason="not_folder",
                    path=given,
                )
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                found.append(Root(real, given, st.st_dev, st.st_ino))
        self.roots: tuple[Root, ...] = tuple(found)

    def __repr__(self) -> str:
        return f"Folders({[r.given for r in self.roots]!r})"

    def describe(self) -> str:
        """The approved folders as the user knows them, for messages."""
        return ", ".join(show(r.given) for r in self.roots)

    def display(self, root: Root, parts: tuple[str, ...]) -> str:
        """The path to show and to hand back to the model.

        Relative for the first folder (short, easy for a small model to copy), absolute for the
        others, so that ``resolve(display(root, parts))`` finds the same file again.
        """
        if root == self.roots[0]:
            return "/".join(parts) if parts else "."
        return "/".join((root.given.rstrip("/"), *parts)) if parts else root.given

    def outside(self, path: str) -> FileAccessError:
        return FileAccessError(
            f"'{show(path)}' is outside the folders Hearth may use ({self.describe()}). "
            + SETTINGS_HINT,
            reason="outside",
            path=path,
        )

    def resolve(self, path: str) -> tuple[Root, tuple[str, ...]]:
        """Check a path lexically and split it into (approved folder, names beneath it).

        Nothing is opened here; confinement against symlinks and races happens when the
        result is opened with ``open_dir`` / ``open_file``.
        """
        if not self.roots:
            raise FileAccessError(
                "Hearth has no folders it may use yet. Add one in Settings → Folders.",
                reason="no_folders",
            )
        if not isinstance(path, str) or not path.strip():
            raise FileAccessError(
                f"No file or folder name was given. Give a path inside {self.describe()}.",
                reason="invalid",
                path=None,
            )
        if len(path) > MAX_PATH_CHARS:
            raise FileAccessError(
                f"The path '{show(path)}' is too long.", reason="invalid", path=path
            )
        if any(unicodedata.category(ch) == "Cc" for ch in path):
            raise FileAccessError(
                f"'{show(path)}' contains a control character (such as a NUL byte), which no "
                "file name Hearth opens may contain.",
                reason="invalid",
                path=path,
            )
        if "\\" in path:
            raise FileAccessError(
                f"'{show(path)}' contains a backslash. Use '/' to separate folder names.",
                reason="invalid",
                path=path,
            )
        try:
            os.fsencode(path)
        except UnicodeError as exc:
            raise FileAccessError(
                f"'{show(path)}' is not a valid file name.", reason="invalid", path=path
            ) from exc

        expanded = os.path.expanduser(path) if path == "~" or path.startswith("~/") else path
        if expanded.startswith("/"):
            absolute = _normalise(expanded.split("/"))
            if absolute is None:  # cannot happen for an absolute path, kept for clarity
                raise self.outside(path)
            best: tuple[Root, tuple[str, ...]] | None = None
            best_len = -1
            for root in self.roots:
                for prefix in root.parts():
                    if absolute[: len(prefix)] == prefix and len(prefix) > best_len:
                        best, best_len = (root, absolute[len(prefix) :]), len(prefix)
            if best is None:
                raise self.outside(path)
            root, parts = best
        else:
            relative = _normalise(expanded.split("/"))
            if relative is None:
                raise self.outside(path)
            root, parts = self.roots[0], relative

        if any(p.startswith(".") for p in parts):
            raise FileAccessError(
                f"'{show(path)}' is a hidden file or folder (its name starts with '.'). Hearth "
                "does not open hidden files: they often hold passwords, keys and settings.",
                reason="hidden",
                path=path,
            )
        if len(parts) > MAX_DEPTH:
            raise FileAccessError(
                f"'{show(path)}' is nested too deeply (more than {MAX_DEPTH} folders).",
                reason="invalid",
                path=path,
            )
        return root, parts


def _normalise(raw: list[str]) -> tuple[str, ...] | None:
    """Drop empty and `.` names, apply `..`; None if `..` climbs above the start."""
    out: list[str] = []
    for part in raw:
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                return None
            out.pop()
        else:
            out.append(part)
    return tuple(out)


def explain(
    exc: OSError,
    shown: str,
    *,
    doing: str,
    parent_fd: int | None = None,
    name: str | None = None,
    want: Literal["file", "folder"] = "file",
) -> FileAccessError:
    """Turn an OS error into a message a person can act on.

    When the failed open was of ``name`` in ``parent_fd``, an ``lstat`` of that name tells us
    why (a symlink, a file where a folder was needed...). It is only used for the message: the
    refusal itself came from the kernel.
    """
    if parent_fd is not None and name is not None:
        try:
            st = os.stat(name, dir_fd=parent_fd, follow_symlinks=False)
        except OSError:
            st = None
        if st is not None:
            if stat.S_ISLNK(st.st_mode):
                return link_error(shown, name)
            if want == "folder" and not stat.S_ISDIR(st.st_mode):
                return FileAccessError(
                    f"'{show(shown)}' cannot be used: '{show(name)}' in it is a file, "
                    "not a folder.",
                    reason="not_folder",
                    path=shown,
                )
    code = exc.errno
    if code == errno.ENOENT:
        what = "folder" if want == "folder" else "file or folder"
        return FileAccessError(
            f"There is no {what} '{show(shown)}'. Check the name, or list or search the folder "
            "to find it.",
            reason="not_found",
            path=shown,
        )
    if code in (errno.EACCES, errno.EPERM):
        return FileAccessError(
            f"Hearth is not allowed to {doing} '{show(shown)}' (permission denied). Check the "
            "file's permissions in your file manager.",
            reason="permission",
            path=shown,
        )
    if code == errno.ELOOP:
        return link_error(shown, name or shown)
    if code == errno.ENOTDIR:
        return FileAccessError(
            f"'{show(shown)}' cannot be used: part of the path is a file, not a folder.",
            reason="not_folder",
            path=shown,
        )
    if code == errno.EISDIR:
        return is_folder_error(shown)
    if code == errno.ENAMETOOLONG:
        return FileAccessError(
            f"The name '{show(shown)}' is too long for this disk.", reason="invalid", path=shown
        )
    if code == errno.ENOSPC or code == getattr(errno, "EDQUOT", -1):
        return FileAccessError(
            f"Could not {doing} '{show(shown)}': the disk is full. Nothing was changed.",
            reason="io",
            path=shown,
        )
    if code == errno.EROFS:
        return FileAccessError(
            f"Could not {doing} '{show(shown)}': the disk is read-only.",
            reason="permission",
            path=shown,
        )
    return FileAccessError(
        f"Could not {doing} '{show(shown)}': {exc.strerror or exc}.", reason="io", path=shown
    )


def link_error(shown: str, name: str) -> FileAccessError:
    return FileAccessError(
        f"'{show(shown)}' goes through a link ('{show(name)}'). Hearth does not follow links, "
        "so that a link cannot lead it outside your folders. Use the file's real location "
        "inside your folders.",
        reason="link",
        path=shown,
    )


def is_folder_error(shown: str) -> FileAccessError:
    return FileAccessError(
        f"'{show(shown)}' is a folder, not a file. List it to see the files inside.",
        reason="is_folder",
        path=shown,
    )


def special_error(shown: str) -> FileAccessError:
    return FileAccessError(
        f"'{show(shown)}' is not an ordinary file (it is a device, pipe or socket). Hearth only "
        "opens ordinary files.",
        reason="special",
        path=shown,
    )


def hard_link_error(shown: str, doing: str) -> FileAccessError:
    return FileAccessError(
        f"'{show(shown)}' has more than one name on disk (a hard link), so the same file may "
        f"also live outside your folders. Hearth does not {doing} such files; make a copy "
        "of it if you need it.",
        reason="hard_link",
        path=shown,
    )


def open_root(root: Root) -> int:
    """Open an approved folder and check it is still the folder the user approved."""
    try:
        fd = os.open(root.path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise FileAccessError(
            f"The folder '{show(root.given)}' is not available ({exc.strerror}). If it is on a "
            "removable drive, connect it; otherwise choose it again in Settings → Folders.",
            reason="folder_unavailable",
            path=root.given,
        ) from exc
    st = os.fstat(fd)
    if (st.st_dev, st.st_ino) != (root.device, root.inode):
        os.close(fd)
        raise FileAccessError(
            f"The folder '{show(root.given)}' was moved or replaced since it was approved. "
            "Choose it again in Settings → Folders.",
            reason="folder_unavailable",
            path=root.given,
        )
    return fd


def open_dir(
    root: Root, parts: tuple[str, ...], shown: str, *, create: bool = False, doing: str = "open"
) -> int:
    """Open the folder ``root/parts`` one name at a time, never following a symlink.

    With ``create``, missing folders are made (inside the folder just opened, so never
    elsewhere). The caller closes the returned descriptor.
    """
    fd = open_root(root)
    try:
        for part in parts:
            nxt = _open_subdir(fd, part, shown, create=create, doing=doing)
            os.close(fd)
            fd = nxt
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_subdir(fd: int, part: str, shown: str, *, create: bool, doing: str) -> int:
    try:
        return os.open(part, DIR_FLAGS, dir_fd=fd)
    except FileNotFoundError as exc:
        if not create:
            raise explain(exc, shown, doing=doing, want="folder") from exc
        try:
            os.mkdir(part, 0o777, dir_fd=fd)
        except FileExistsError:
            pass  # made meanwhile: the O_NOFOLLOW open below decides whether we may use it
        except OSError as exc2:
            making = "create a folder for"
            raise explain(exc2, shown, doing=making, parent_fd=fd, name=part) from exc2
    except OSError as exc:
        raise explain(exc, shown, doing=doing, parent_fd=fd, name=part, want="folder") from exc
    try:
        return os.open(part, DIR_FLAGS, dir_fd=fd)
    except OSError as exc:
        raise explain(exc, shown, doing=doing, parent_fd=fd, name=part, want="folder") from exc


def open_file(
    dir_fd: int, name: str, shown: str, *, doing: str = "read"
) -> tuple[int, os.stat_result]:
    """Open ``name`` in ``dir_fd`` for reading, if and only if it is an ordinary file.

    ``lstat`` first so that a device or FIFO is never opened at all; then open with
    ``O_NOFOLLOW | O_NONBLOCK`` and ``fstat`` the descriptor, which is what we trust: it must
    be the same regular file, with a single link.
    """
    try:
        before = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except OSError as exc:
        raise explain(exc, shown, doing=doing) from exc
    check_kind(before, shown, name)
    try:
        fd = os.open(name, READ_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        raise explain(exc, shown, doing=doing, parent_fd=dir_fd, name=name) from exc
    try:
        st = os.fstat(fd)
        check_kind(st, shown, name)
        if (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
            raise FileAccessError(
                f"'{show(shown)}' changed while Hearth was opening it. Try again.",
                reason="changed",
                path=shown,
            )
        if st.st_nlink > 1:
            raise hard_link_error(shown, doing)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def check_kind(st: os.stat_result, shown: str, name: str) -> None:
    """Refuse anything that is not an ordinary file, with the right message."""
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return
    if stat.S_ISLNK(mode):
        raise link_error(shown, name)
    if stat.S_ISDIR(mode):
        raise is_folder_error(shown)
    raise special_error(shown)
