"""Is this file a program? Decided by what is in it, not only by its name.

Opening a file with the desktop's default application must never run code: a program renamed
``invoice.pdf``, a script with a ``#!`` line saved as ``notes.txt``, or a launcher (a Linux
``.desktop`` entry, a Windows shortcut or internet shortcut) would run or lead to something
that runs. Three independent looks, any one of which refuses:

- the name: the files connector's list of program suffixes, and a few launcher kinds;
- the first bytes: executable formats (ELF, PE, Mach-O), a ``#!`` line, launcher files
  (the one magic-byte table, ``connectors.magic``);
- the desktop's own MIME type for the file where the desktop can say (``xdg-mime``), since
  that is what the opener will act on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from connectors.files import EXECUTABLE_SUFFIXES
from connectors.magic import identify

# Launchers and bundles beyond the write list's program suffixes: opening one runs or
# redirects to something else.
LAUNCHER_SUFFIXES = frozenset(
    {".webloc", ".inetloc", ".fileloc", ".terminal", ".tool", ".pyc", ".pyo", ".xpi", ".crx",
     ".mobileconfig", ".application", ".appref-ms", ".ps1xml", ".msc", ".gadget",
     ".settingcontent-ms"}
)  # fmt: skip

# Sections that make a text file a launcher, wherever they stand near the top.
_LAUNCHER_SECTIONS = (b"[desktop entry]", b"[internetshortcut]", b"[.shellclassinfo]")
# Inside a ZIP: the entries that make it a Java or Android program, not a document.
_ARCHIVE_PROGRAMS = (b"META-INF/MANIFEST.MF", b"classes.dex", b"AndroidManifest.xml")

# What the desktop calls programs (shared-mime-info names), beyond any "executable" type.
PROGRAM_MIME_TYPES = frozenset(
    {"application/x-sharedlib", "application/x-desktop", "application/x-shellscript",
     "text/x-shellscript", "application/x-perl", "text/x-perl", "application/x-ruby",
     "text/x-python", "text/x-python3", "application/x-python-code", "application/javascript",
     "application/x-javascript", "text/javascript", "application/java-archive",
     "application/x-java-archive", "application/vnd.android.package-archive",
     "application/x-msi", "application/x-ms-shortcut", "application/x-bat", "application/x-csh",
     "application/x-php", "text/x-php", "application/x-appimage", "application/vnd.appimage",
     "application/x-deb", "application/vnd.debian.binary-package", "application/x-rpm",
     "application/x-mach-binary", "application/x-msdownload", "application/x-ms-dos-executable",
     "application/vnd.microsoft.portable-executable", "application/x-ms-installer",
     "application/x-mswinurl", "application/x-desktop-entry", "application/x-wine-extension-msp",
     "application/x-apple-diskimage", "application/x-executable", "application/x-pie-executable",
     "text/x-tcl", "text/x-lua", "application/x-lua-bytecode", "application/x-powershell"}
)  # fmt: skip
HEAD_BYTES = 4096


def program_by_name(name: str) -> str | None:
    """Why the name says "program" (its suffix), or None."""
    suffix = os.path.splitext(name.rstrip(". "))[1].lower()
    if suffix in EXECUTABLE_SUFFIXES or suffix in LAUNCHER_SUFFIXES:
        return f"a {suffix} file (a program, script or launcher)"
    return None


def program_by_content(head: bytes) -> str | None:
    """What the first bytes say the file is, if that is a program or launcher, else None."""
    start = head.lstrip(b"\xef\xbb\xbf")  # a UTF-8 byte order mark hides nothing
    found = identify(start)
    if found is not None and found.family == "program":
        return found.words
    lowered = start[:1024].lower()
    if any(section in lowered for section in _LAUNCHER_SECTIONS):
        return "a launcher (it opens or runs something else)"
    if start.startswith(b"PK\x03\x04") and any(entry in head for entry in _ARCHIVE_PROGRAMS):
        return "a Java or Android program"
    return None


def program_by_mime(mime: str | None) -> str | None:
    """Why the desktop's MIME type for the file means a program, or None."""
    if not mime:
        return None
    mime = mime.strip().lower()
    if mime in PROGRAM_MIME_TYPES or "executable" in mime:
        return f"a program or script (the desktop calls it {mime})"
    return None


def desktop_mime(path: str, timeout: float = 5.0) -> str | None:
    """The MIME type the desktop gives the file (``xdg-mime query filetype``), or None where
    there is no such tool (macOS, Windows, a bare system) or it fails."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None
    tool = shutil.which("xdg-mime")
    if tool is None:
        return None
    try:
        done = subprocess.run(
            [tool, "query", "filetype", path],
            capture_output=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    text = done.stdout.decode("utf-8", "replace").strip()
    return text.split(";")[0] if done.returncode == 0 and "/" in text else None
