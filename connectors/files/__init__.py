"""Local files connector: list, search, read and write files inside user-approved folders.

Plain functions and typed results; no Qt, no model, no policy. Every function takes a
``Folders`` (the approved roots) and confines itself to them at the moment of opening: see
``connectors.files.confine`` for the rules and why they are built on ``dir_fd`` walks.

    folders = Folders(["~/Documents"])
    list_folder(folders, "")                       # the first folder
    search_files(folders, "invoice")               # by name and by content
    read_file(folders, "letters/2024.docx")
    plan = preview_write(folders, "notes.md", "hi\\n")    # the diff the dialog shows
    write_planned(folders, plan, "hi\\n")           # runs exactly what was approved
"""

from connectors.files.confine import FileAccessError, Folders, Root
from connectors.files.operations import (
    EXECUTABLE_SUFFIXES,
    WRITABLE_SUFFIXES,
    Entry,
    FileText,
    Match,
    WritePlan,
    WriteResult,
    list_folder,
    preview_write,
    read_file,
    remove_written,
    search_files,
    write_file,
    write_planned,
)
from connectors.files.walk import FoundFile, walk_files

__all__ = [
    "EXECUTABLE_SUFFIXES",
    "WRITABLE_SUFFIXES",
    "Entry",
    "FileAccessError",
    "FileText",
    "Folders",
    "FoundFile",
    "Match",
    "Root",
    "WritePlan",
    "WriteResult",
    "list_folder",
    "preview_write",
    "read_file",
    "remove_written",
    "search_files",
    "walk_files",
    "write_file",
    "write_planned",
]
