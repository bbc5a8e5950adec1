"""The background document indexer (issue #23) under pytest-qt: the pass runs in a child
process watched from the indexer's own thread (an audit hook sees no disk or database access
on the GUI thread while it runs), the status text shows the result, Pause stops a pass and
keeps new ones from starting until Resume, and a change of folders runs a new pass."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMainWindow

# Imported up front: a module imported during the pass would show up as an "open".
import app.agent.documents.document_index
import app.store.documents
import app.ui.document_indexer  # noqa: F401
from app.store.database import Database
from app.store.documents import DocumentStore
from app.store.folders import FolderStore
from app.ui.document_indexer import DocumentIndexer
from tests.agent.documents import write_documents
from tests.support.qt import menu_actions

WAIT = 60_000
WATCHED = frozenset({"open", "os.scandir", "sqlite3.connect"})
_GUI_THREAD = threading.main_thread().ident
_RECORDING = False
_SEEN: list[tuple[bool, str, str]] = []  # (on the GUI thread, event, target)
_INSTALLED = False


def _hook(event: str, args: tuple[object, ...]) -> None:
    if not _RECORDING or event not in WATCHED:
        return
    target = args[0] if args else None
    if isinstance(target, int) or str(target).endswith((".py", ".pyc", ".so")):
        return
    _SEEN.append((threading.get_ident() == _GUI_THREAD, event, repr(target)))


@pytest.fixture
def io_seen() -> Iterator[list[tuple[bool, str, str]]]:
    """Disk and database access while `_RECORDING` is on, and the thread it happened on."""
    global _INSTALLED, _RECORDING
    if not _INSTALLED:
        sys.addaudithook(_hook)  # cannot be removed: it checks a flag
        _INSTALLED = True
    _SEEN.clear()
    yield _SEEN
    _RECORDING = False


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A data folder with one stored folder, and a folder given on the command line."""
    docs = write_documents(tmp_path)
    stored = tmp_path / "stored"
    stored.mkdir()
    (stored / "recipe.txt").write_text("Lasagne needs six sheets of pasta.\n")
    data = tmp_path / "data"
    data.mkdir()
    database = Database.open(data)
    FolderStore(database).add(stored)
    database.close()
    return data, docs, stored


@pytest.fixture
def window(qtbot) -> QMainWindow:
    main = QMainWindow()
    qtbot.addWidget(main)
    return main


def make_indexer(window: QMainWindow, data: Path, docs: Path) -> DocumentIndexer:
    menu = window.menuBar().addMenu("&Settings")
    indexer = DocumentIndexer(menu, data, [docs], window, first_pass_ms=0)
    window.statusBar().addPermanentWidget(indexer.status)
    return indexer


def test_the_pass_runs_off_the_gui_thread_and_the_status_says_what_it_found(
    qtbot, window: QMainWindow, setup: tuple[Path, Path, Path], io_seen: list[tuple[bool, str, str]]
) -> None:
    global _RECORDING
    data, docs, stored = setup
    indexer = make_indexer(window, data, docs)
    _RECORDING = True
    indexer.start()
    qtbot.waitUntil(lambda: indexer.last is not None, timeout=WAIT)
    _RECORDING = False
    on_gui = [(event, target) for gui, event, target in io_seen if gui]
    assert on_gui == []
    # The hook does see the indexer's own thread (it reads the counts for the status text).
    assert any(event == "sqlite3.connect" for gui, event, _ in io_seen if not gui)
    assert indexer.status.text() == "Documents: 6 files indexed"
    indexer.shutdown()

    database = Database.open(data)
    store = DocumentStore(database)
    assert store.search("lasagne", [str(stored.resolve())])[0].path == "recipe.txt"
    assert store.search("lease notice", [str(docs.resolve())])[0].location == "page 2"
    database.close()


def test_pause_stops_the_pass_and_resume_finishes_it(
    qtbot, window: QMainWindow, setup: tuple[Path, Path, Path]
) -> None:
    data, docs, _ = setup
    for number in range(30):
        (docs / f"note-{number:02}.txt").write_text(f"Note {number} about the garden.\n")
    indexer = make_indexer(window, data, docs)
    indexer.start()
    indexer.pause_action.trigger()  # the user picks Pause while the child starts
    assert indexer.pause_action.isChecked()
    qtbot.waitUntil(lambda: indexer.last is not None, timeout=WAIT)
    assert indexer.last is not None and not indexer.last.complete
    assert indexer.last.files == 0  # stopped before the first file was read
    assert indexer.status.text().startswith("Document indexing paused")

    indexer.timer.timeout.emit()  # the timer does not start a pass while paused
    assert not indexer.running
    indexer.pause_action.trigger()  # Resume
    qtbot.waitUntil(lambda: indexer.last is not None and indexer.last.complete, timeout=WAIT)
    assert indexer.status.text() == "Documents: 36 files indexed"
    indexer.shutdown()


def test_a_changed_folder_list_runs_a_new_pass_and_problems_are_listed(
    qtbot, window: QMainWindow, setup: tuple[Path, Path, Path]
) -> None:
    data, docs, stored = setup
    indexer = make_indexer(window, data, docs)
    indexer.start()
    qtbot.waitUntil(lambda: indexer.last is not None, timeout=WAIT)
    for number in range(22):
        (docs / f"broken-{number:02}.pdf").write_bytes(b"%PDF-1.4 not really")
    database = Database.open(data)
    FolderStore(database).remove(stored)
    database.close()
    indexer.last = None
    indexer.refresh()  # what Settings → Folders… saving does
    qtbot.waitUntil(lambda: indexer.last is not None, timeout=WAIT)
    assert indexer.status.text() == "Documents: 5 files indexed, 22 could not be read"
    listed = indexer.status.toolTip().splitlines()
    assert listed[0].startswith("broken-00.pdf: Hearth could not read the text")
    assert len(listed) == 21 and listed[-1] == "… and 2 more"
    assert os.path.exists(stored / "recipe.txt")  # the folder is left alone, only forgotten
    indexer.shutdown()


def test_wired_into_the_real_window_the_status_counts_what_the_pass_indexed(
    qtbot, tmp_path: Path
) -> None:
    """The three lines the window will hold (see app/ui/document_indexer.py), on the real
    window with its own threads and databases: the Pause item in Settings, the status text
    in the status bar, and what the pass indexed counted there."""
    import json

    from app.ui.main_window import MainWindow

    docs = write_documents(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    Database.open(data).close()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Hello."]}))
    win = MainWindow(script, data_dir=data, folders=[docs])  # as `--allow-folder` gives it
    qtbot.addWidget(win)
    documents = win.documents  # started by the window, its first pass after a pause
    assert documents.status.parent() is not None and documents.first_pass.isActive()
    win.show()
    documents.refresh()  # the pass the timer would start
    qtbot.waitUntil(lambda: documents.last is not None, timeout=WAIT)
    assert documents.status.text() == "Documents: 5 files indexed"
    assert "&Pause document indexing" in [a.text() for a in menu_actions(win)]
    win.close()


def test_no_folders_and_an_empty_index_start_no_child_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every window with a data folder has an indexer: with nothing to read and nothing to
    forget, a pass must not spawn a Python process for nothing."""
    import app.ui.document_indexer as indexer_module
    from app.ui.document_indexer import IndexService

    data = tmp_path / "data"
    data.mkdir()
    Database.open(data).close()
    spawned: list[object] = []
    monkeypatch.setattr(indexer_module, "index_in_child", lambda *a, **k: spawned.append(a))
    service = IndexService(data, [])
    statuses: list[object] = []
    service.finished.connect(statuses.append)
    service.run_pass()
    service.close()
    assert spawned == []
    assert len(statuses) == 1 and statuses[0].files == 0  # type: ignore[attr-defined]
