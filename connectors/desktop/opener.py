"""Open a file, a folder or a web address with the desktop's default application.

The one way out of Hearth into another program, so it is narrow: a file or folder must lie
inside the folders the user allowed and is walked to the same way the files connector reads
(no symlinks, no hidden names, an ordinary file with one link); a file opens only when its
name, its content and the desktop's MIME type all say it is a document, an image, a sound,
a video or text (``connectors.desktop.openable``, an allow-list), and a program, a script or
a launcher is refused again by the same three looks (``connectors.desktop.programs``); a
web address must be http(s) and its host must resolve to public addresses only, as the web
reader checks. Nothing goes through a
shell: the opener (``xdg-open`` on Linux and the BSDs, ``open`` on macOS, the shell's "open"
verb on Windows) gets exactly one argument, an absolute path or the address.

The opener usually returns as soon as the application has started; if it has not returned
after ``LAUNCH_WAIT`` seconds Hearth stops waiting (the application is then running) and
only reaps it later. The caller runs this on a worker thread, never the GUI thread.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from connectors.addresses import Resolver
from connectors.desktop.openable import not_openable
from connectors.desktop.programs import (
    HEAD_BYTES,
    desktop_mime,
    program_by_content,
    program_by_mime,
    program_by_name,
)
from connectors.files import FileAccessError, Folders
from connectors.files.confine import open_dir, open_file, show
from connectors.web import WebError, public_address

LAUNCH_WAIT = 10.0
MAX_URL = 2000
Reason = Literal["program", "url", "no_opener", "failed"]


class DesktopError(Exception):
    """Something Hearth would not or could not open, with a message for the user."""

    def __init__(self, message: str, *, reason: Reason) -> None:
        super().__init__(message)
        self.message = message
        self.reason: Reason = reason


@dataclass(frozen=True, slots=True)
class Opened:
    """What was handed to the desktop: the path as the user knows it, or the address."""

    target: str
    kind: Literal["file", "folder", "web address"]


# --------------------------------------------------------------------------------------------
# What may be opened
# --------------------------------------------------------------------------------------------


def _checked_file(folders: Folders, path: str) -> tuple[str, str, bool]:
    """(absolute path, shown path, is a folder) for a file or folder that may be opened."""
    root, parts = folders.resolve(path)
    shown = folders.display(root, parts)
    if not parts:
        return root.path, shown, True
    dir_fd = open_dir(root, parts[:-1], shown, doing="open")
    try:
        try:
            status = os.stat(parts[-1], dir_fd=dir_fd, follow_symlinks=False)
        except OSError:
            status = None
        if status is not None and stat.S_ISDIR(status.st_mode):
            os.close(open_dir(root, parts, shown, doing="open"))  # no symlink on the way
            return os.path.join(root.path, *parts), shown, True
        fd, _ = open_file(dir_fd, parts[-1], shown, doing="open")
        try:
            head = os.read(fd, HEAD_BYTES)
        finally:
            os.close(fd)
    finally:
        os.close(dir_fd)
    absolute = os.path.join(root.path, *parts)
    mime = desktop_mime(absolute)
    why = program_by_name(parts[-1]) or program_by_content(head) or program_by_mime(mime)
    if why:
        raise DesktopError(
            f"Hearth does not open '{show(shown)}': it is {why}, and opening it could run it. "
            "Open it yourself if you trust it.",
            reason="program",
        )
    unknown = not_openable(parts[-1], head, mime)  # the allow-list, the first line
    if unknown:
        raise DesktopError(
            f"Hearth does not open '{show(shown)}': it is {unknown}. A file of another kind "
            "could install or run something. Open it yourself if you trust it.",
            reason="program",
        )
    return absolute, shown, False


def _checked_url(url: str, resolver: Resolver | None = None) -> str:
    text = url.strip() if isinstance(url, str) else ""
    try:
        parts = urlsplit(text)
    except ValueError:
        parts = None
    if (
        parts is None
        or parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or len(text) > MAX_URL
        or any(ord(c) < 33 or c == "\x7f" for c in text)
    ):
        raise DesktopError(
            f"Hearth opens only web addresses starting with http:// or https://, not "
            f"{text[:80]!r}.",
            reason="url",
        )
    if parts.username is not None or parts.password is not None:
        raise DesktopError(
            "Hearth does not open web addresses with a user name or password in them.",
            reason="url",
        )
    try:  # the web reader's own check: no name that resolves to this computer or the LAN
        public_address(text, resolver)
    except WebError as exc:
        raise DesktopError(str(exc), reason="url") from exc
    return text


# --------------------------------------------------------------------------------------------
# Handing it to the desktop
# --------------------------------------------------------------------------------------------


def _opener() -> str:
    name = "open" if sys.platform == "darwin" else "xdg-open"
    found = shutil.which(name)
    if found is None:
        hint = " (install the xdg-utils package)" if name == "xdg-open" else ""
        raise DesktopError(
            f"This computer has no '{name}' command to open things with{hint}.",
            reason="no_opener",
        )
    return found


def _launch(arguments: list[str], shown: str) -> None:
    """Run the opener with ``arguments``; a refusal it reports at once becomes a DesktopError."""
    if sys.platform == "win32":  # pragma: no cover - Windows only
        getattr(os, "startfile")(arguments[-1])  # noqa: B009 - absent from os on other platforms
        return
    try:
        process = subprocess.Popen(
            [_opener(), *arguments],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # the application outlives Hearth's process group
            close_fds=True,
        )
    except OSError as exc:
        raise DesktopError(
            f"The desktop could not open '{show(shown)}' ({exc.strerror}).", reason="failed"
        ) from exc
    try:
        code = process.wait(timeout=LAUNCH_WAIT)
    except subprocess.TimeoutExpired:
        threading.Thread(target=process.wait, name="opener-reaper", daemon=True).start()
        return
    if code != 0:
        raise DesktopError(
            f"The desktop could not open '{show(shown)}': no application is set up for it, or "
            f"the application failed to start (the opener said {code}).",
            reason="failed",
        )


def check_item(
    folders: Folders | None,
    path: str | None = None,
    url: str | None = None,
    *,
    resolver: Resolver | None = None,
) -> tuple[str, Opened]:
    """Every check `open_item` makes, without opening anything: (what the opener would
    get, what it is), or DesktopError / FileAccessError saying why it may not be opened.
    Lets the app refuse before asking the user about something that could never open."""
    if bool(path) == bool(url):
        raise DesktopError("Give either a path or a web address to open, not both.", reason="url")
    if url:
        address = _checked_url(url, resolver)
        return address, Opened(address, "web address")
    if folders is None:
        raise FileAccessError(
            "Hearth has no folders it may use yet. Add one in Settings → Folders.",
            reason="no_folders",
        )
    absolute, shown, is_folder = _checked_file(folders, str(path))
    return absolute, Opened(shown, "folder" if is_folder else "file")


def open_item(
    folders: Folders | None,
    path: str | None = None,
    url: str | None = None,
    *,
    resolver: Resolver | None = None,
) -> Opened:
    """Open a file or folder inside the allowed folders, or a public http(s) address, with
    the desktop's default application. Exactly one of ``path`` and ``url``. ``resolver``
    replaces the system DNS lookup (tests). Every check runs again here, right before the
    launch (the file may have changed since `check_item`)."""
    argument, opened = check_item(folders, path, url, resolver=resolver)
    _launch([argument], opened.target)
    return opened


def show_folder(folders: Folders, path: str = "") -> Opened:
    """Show a folder, or the folder a file is in, in the file manager (on macOS with the file
    selected). An empty path is the first allowed folder."""
    root = folders.roots[0] if folders.roots else None
    if not path.strip() and root is not None:
        _launch([root.path], root.given)
        return Opened(folders.display(root, ()), "folder")
    target_root, parts = folders.resolve(path)
    shown = folders.display(target_root, parts)
    absolute = os.path.join(target_root.path, *parts)
    if parts and not os.path.isdir(absolute):  # a file: its folder, walked without links
        dir_fd = open_dir(target_root, parts[:-1], shown, doing="show")
        try:
            os.close(open_file(dir_fd, parts[-1], shown, doing="show")[0])
        finally:
            os.close(dir_fd)
        if sys.platform == "darwin":  # pragma: no cover - macOS only
            _launch(["-R", absolute], shown)
            return Opened(shown, "file")
        absolute = os.path.dirname(absolute)
        shown = folders.display(target_root, parts[:-1])
    else:
        os.close(open_dir(target_root, parts, shown, doing="show"))
    _launch([absolute], shown)
    return Opened(shown, "folder")
