"""Opening a document the chat cited, when the person clicks it: the same confinement to the
allowed folders as the file tools (`connectors.files`) and the same checks as `open_item`
(`connectors.desktop`: never a program), without a model or a gate, since the click is the
person's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def open_cited_file(folders: Sequence[Path], path: str) -> str:
    """Open `path` (as the chat showed it) with its usual app; why it could not be opened,
    for the person ("" when it was). Reads the disk: call it off the GUI thread."""
    from connectors.desktop import DesktopError, open_item
    from connectors.files import FileAccessError, Folders

    try:
        open_item(Folders(list(folders)), path=path)
    except (DesktopError, FileAccessError) as exc:
        return str(exc)
    return ""
