"""The chat shows the documents search_documents cited as links, and a click opens the file
with its usual app through the desktop connector (issue #23): real index, real files, the
real window with a scripted model; the only stand-in is the opener at the process boundary
(a recording `xdg-open` first on PATH)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl

from app.agent.documents.document_index import index_folders
from app.store.database import Database
from app.ui.main_window import MainWindow
from tests.agent.documents import write_documents
from tests.agent.test_opening_agent import opened  # the recording opener on PATH
from tests.scripting import call

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xdg-open")
WAIT = 60_000
__all__ = ["opened"]


def test_cited_documents_are_links_that_open_the_file(qtbot, tmp_path: Path, opened: Path) -> None:
    docs = write_documents(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    database = Database.open(data)
    index_folders(database, [docs])
    database.close()
    script = tmp_path / "script.json"
    turns = [call("search_documents", query="notice period lease"), "One month's notice."]
    script.write_text(json.dumps({"format": "qwen3.5", "turns": turns}))
    window = MainWindow(script, data_dir=data, folders=[docs])
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
    window.input.setPlainText("What does my lease say about notice?")
    window.send()
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    view = window.chat_view
    assert "Sources: " in view.plain_text()
    assert "lease.pdf" in view.plain_text().split("Sources: ", 1)[1]
    shown = view.plain_text()
    assert "\nSources: " in shown and "doneSources" not in shown  # a line of its own
    links = {key: path for key, path in view._sources.items()}
    lease = next(key for key, path in links.items() if path.endswith("lease.pdf"))
    view.anchorClicked.emit(QUrl(f"hearth:source/{lease}"))  # what a click on the link sends
    qtbot.waitUntil(opened.exists, timeout=WAIT)
    assert opened.read_text().splitlines() == [str((docs / "home" / "lease.pdf").resolve())]
    window.close()


def test_a_source_that_cannot_be_opened_says_why(qtbot, tmp_path: Path, opened: Path) -> None:
    """A path outside the allowed folders (as a forged link would name) is refused in words
    and nothing is started."""
    docs = tmp_path / "Documents"
    docs.mkdir()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": []}))
    (tmp_path / "data").mkdir()
    window = MainWindow(script, data_dir=tmp_path / "data", folders=[docs])
    qtbot.addWidget(window)
    notes: list[str] = []
    window.worker.notice.connect(notes.append)
    window.show()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
    window.chat_view.source_requested.emit("/etc/passwd")
    qtbot.waitUntil(lambda: bool(notes), timeout=WAIT)
    assert "could not be opened" in notes[0] and "outside" in notes[0]
    assert not opened.exists()
    window.close()
