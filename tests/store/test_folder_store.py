"""FolderStore: resolved paths, no duplicates, removal, kept across a reopen."""

from __future__ import annotations

from pathlib import Path

from app.store.database import Database
from app.store.folders import FolderStore


def test_add_list_remove_and_reopen(tmp_path: Path) -> None:
    documents = tmp_path / "Documents"
    documents.mkdir()
    (tmp_path / "link").symlink_to(documents)
    store = FolderStore(Database.open(tmp_path))
    assert store.saved() == []
    assert store.add(tmp_path / "link") == documents.resolve()
    store.add(documents)
    assert store.saved() == [documents.resolve()]
    other = tmp_path / "Other"
    other.mkdir()
    store.add(other)
    store.database.close()
    reopened = FolderStore(Database.open(tmp_path))
    assert reopened.saved() == [documents.resolve(), other.resolve()]
    reopened.remove(documents)
    assert reopened.saved() == [other.resolve()]
