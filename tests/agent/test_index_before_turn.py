"""The pass a one-turn command runs before its turn (issue #42), on real files, a real child
process and a real SQLite database: it keeps the window's other folders, says how many files it
read only when that took a while, and a pass cut short by its time limit says so clearly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.agent.documents import before_turn
from app.agent.documents.before_turn import update_before_turn
from app.agent.documents.document_index import index_folders
from app.store.database import Database
from app.store.documents import DocumentStore


def data_dir(database: Database) -> Path:
    return Path(str(database.engine.url.database)).parent


def hits(database: Database, folder: Path, query: str) -> list[str]:
    return [hit.path for hit in DocumentStore(database).search(query, [os.path.realpath(folder)])]


def test_the_windows_other_folders_keep_their_passages(
    database: Database, docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(before_turn, "MOMENT_SECONDS", 600.0)  # however busy the machine
    window = tmp_path / "window-only"
    window.mkdir()
    (window / "boiler.txt").write_text("The boiler service is due in May.\n")
    index_folders(database, [window])  # the window's pass
    said: list[str] = []

    report = update_before_turn(data_dir(database), [docs], said.append)

    assert report is not None and report.complete and report.read == 5
    assert hits(database, window, "boiler service") == ["boiler.txt"]
    assert hits(database, docs, "lease notice")[0] == "home/lease.pdf"
    assert said == []  # a quick pass that left nothing out: not worth a word
    # The window's pass still forgets a folder it no longer has.
    index_folders(database, [docs])
    assert hits(database, window, "boiler service") == []


def test_how_many_files_it_read_is_said_once_it_takes_a_while(
    database: Database, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(before_turn, "MOMENT_SECONDS", 0.0)
    said: list[str] = []
    update_before_turn(data_dir(database), [docs], said.append)
    assert said[0] == "reading 5 new or changed files for the document index…"
    assert said[-1].startswith("the document index read 5 new or changed files (")

    said.clear()
    update_before_turn(data_dir(database), [docs], said.append)
    assert said == []  # nothing new: nothing read, nothing said


def test_a_pass_cut_short_by_its_time_limit_says_so_and_the_next_carries_on(
    database: Database, docs: Path
) -> None:
    said: list[str] = []
    report = update_before_turn(data_dir(database), [docs], said.append, max_seconds=0)

    assert report is not None and not report.complete and report.read == 0
    assert said == [
        "your folders are too large to index in 0 s: 0 new or changed files were read. This "
        "answer uses what is indexed so far; the next run carries on where this one stopped."
    ]
    again = update_before_turn(data_dir(database), [docs], said.append)
    assert again is not None and again.complete and again.read == 5


def test_a_pass_that_cannot_run_says_why_and_the_turn_goes_on(
    database: Database, docs: Path
) -> None:
    said: list[str] = []
    missing = data_dir(database) / "missing"
    assert update_before_turn(missing, [docs], said.append) is None
    assert len(said) == 1 and said[0].startswith("your documents could not be indexed (")
    assert update_before_turn(data_dir(database), [], said.append) is None  # no folders
    assert len(said) == 1
