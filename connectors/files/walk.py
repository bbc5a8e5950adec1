"""Every ordinary file beneath the approved folders, by the same rules as the other tools.

The document index needs the whole tree with sizes and modification times (to see what
changed) without reading anything. The walk follows ``confine``'s rules: it opens each folder
with ``O_NOFOLLOW`` from the one above it, leaves out hidden names, symlinks and special files,
and stops ``MAX_DEPTH`` folders down. Reading a file is left to ``read_file``, which confines
the open again and refuses what it must (hard links, huge documents, binary data).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from connectors.files.confine import DIR_FLAGS, MAX_DEPTH, Root, open_root, show

# Told about a folder that could not be listed: (the path as shown, why), for a report.
ProblemSink = Callable[[str, str], None]


@dataclass(frozen=True)
class FoundFile:
    """One ordinary file: its folder, the names beneath it, and what ``stat`` said."""

    root: Root
    parts: tuple[str, ...]
    size: int
    modified_ns: int

    @property
    def relative(self) -> str:
        return "/".join(self.parts)


def walk_files(
    root: Root,
    suffixes: frozenset[str],
    on_problem: ProblemSink | None = None,
    should_stop: Callable[[], bool] = lambda: False,
) -> Iterator[FoundFile]:
    """The files beneath ``root`` whose suffix (lower case, with the dot) is in ``suffixes``,
    folder by folder in name order. Raises ``FileAccessError`` if the folder itself is gone
    or was replaced; a sub-folder that cannot be listed is reported and left out."""
    fd = open_root(root)
    try:
        yield from _walk(fd, root, (), suffixes, on_problem, should_stop)
    finally:
        os.close(fd)


def _walk(
    dir_fd: int,
    root: Root,
    parts: tuple[str, ...],
    suffixes: frozenset[str],
    on_problem: ProblemSink | None,
    should_stop: Callable[[], bool],
) -> Iterator[FoundFile]:
    folders: list[str] = []
    files: list[FoundFile] = []
    try:
        for name, st in visible_entries(dir_fd):
            if stat.S_ISDIR(st.st_mode):
                folders.append(name)
            elif stat.S_ISREG(st.st_mode) and _suffix(name) in suffixes:
                files.append(FoundFile(root, (*parts, name), st.st_size, st.st_mtime_ns))
    except OSError as exc:
        if on_problem is not None:
            on_problem(_shown(root, parts), f"the folder could not be listed ({exc.strerror})")
        return
    yield from sorted(files, key=lambda found: found.parts)
    if len(parts) + 1 >= MAX_DEPTH:
        return
    for name in sorted(folders):
        if should_stop():
            return
        try:
            sub = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
        except OSError as exc:  # vanished, became a symlink (left out by rule), or no permission
            if on_problem is not None and exc.errno not in (errno.ENOENT, errno.ELOOP):
                why = f"the folder could not be opened ({exc.strerror})"
                on_problem(_shown(root, (*parts, name)), why)
            continue
        try:
            yield from _walk(sub, root, (*parts, name), suffixes, on_problem, should_stop)
        finally:
            os.close(sub)


def visible_entries(dir_fd: int) -> Iterator[tuple[str, os.stat_result]]:
    """The names in an open folder that are not hidden, each with its own ``lstat`` (a
    symlink is seen as a link, never followed). Raises OSError if the folder cannot be
    listed; an entry that vanishes meanwhile is left out."""
    with os.scandir(dir_fd) as listing:
        for item in listing:
            if item.name.startswith("."):
                continue
            try:
                st = item.stat(follow_symlinks=False)
            except OSError:
                continue
            yield item.name, st


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].casefold() if dot > 0 else ""


def _shown(root: Root, parts: tuple[str, ...]) -> str:
    return show("/".join((root.given.rstrip("/"), *parts)))
