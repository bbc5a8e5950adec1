"""Indexing the allowed folders in the background: a status text and a Pause item.

The pass itself (`app.agent.documents.document_index`) runs in a child process at a lower priority
(`app.agent.documents.index_process`: in a thread it held the interpreter lock long enough to stall
the window), watched from this module's own thread, so neither the window nor a reply waits
on the disk or the PDF parser; the GUI thread only keeps a timer, the status text and the
Pause item. A pass runs at start, every `INTERVAL_MS`, and
when the window says the folders changed; Pause stops the current pass between two files and
no new one starts until Resume (which carries on where it stopped: files already indexed are
unchanged and are not read again).

Wiring (three lines in the window):

    self.documents = DocumentIndexer(settings_menu, data_dir, command_line_folders, self)
    self.statusBar().addPermanentWidget(self.documents.status)   # and .start() with the panels
    panels.folders_changed.connect(self.documents.refresh)       # and .shutdown() at close
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QMetaObject, QObject, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMenu, QWidget

from app.agent.documents.document_index import IndexReport
from app.agent.documents.index_process import index_in_child
from app.store.documents import DocumentStore
from app.store.folders import FolderStore
from app.ui.data_service import DataService

log = logging.getLogger(__name__)

INTERVAL_MS = 10 * 60 * 1000  # new and changed files show up within ten minutes
# The first pass waits until the model has loaded and warmed up: both want the same cores.
FIRST_PASS_MS = 20 * 1000
MAX_LISTED_PROBLEMS = 20  # in the status text's tooltip


@dataclass(frozen=True)
class IndexStatus:
    """The index after a pass, as the status text shows it (plain data across threads)."""

    complete: bool
    files: int
    passages: int
    problems: tuple[str, ...]  # "path: why", the files that could not be (fully) indexed
    problem_count: int  # all of them (the tooltip lists the first few)


class IndexService(DataService):
    """Runs passes (each in a child process) from the thread it lives in; `pause` may be
    set from any thread."""

    what = "the document index"
    progress = Signal(int, int)  # files done, files to read
    finished = Signal(object)  # IndexStatus
    failed = Signal(str)

    def __init__(self, data_dir: Path, command_line_folders: list[Path]) -> None:
        super().__init__(data_dir)
        self.command_line_folders = list(command_line_folders)
        self.pause = threading.Event()

    def _folders(self) -> list[Path]:
        """The folders the tools use: `--allow-folder` ones, then the stored ones (including
        one that is gone for now: its passages stay until it is removed from the list)."""
        stored = FolderStore(self._opened()).saved()
        return list(dict.fromkeys([*self.command_line_folders, *stored]))

    @Slot()
    def run_pass(self) -> None:
        try:
            folders = self._folders()
            store = DocumentStore(self._opened())
            if not folders and store.counts() == (0, 0) and not store.problem_count():
                # Nothing to read and nothing to forget: no child process for nothing.
                self.finished.emit(IndexStatus(True, 0, 0, (), 0))
                return
            # Closed while the child writes: a connection kept open here was seen to go on
            # reading the database as it was before the pass ("0 files"), in a script that
            # wired this into the real window; not reproduced under pytest.
            self.close()
            report = index_in_child(
                self.data_dir, folders, progress=self._progress, should_stop=self.pause.is_set
            )
            status = self._status(report)
        except Exception as exc:  # the next pass tries again; the thread must live on
            log.exception("document index: the pass failed")
            self.failed.emit(f"Hearth could not index your documents: {exc}")
            return
        self.finished.emit(status)

    def _progress(self, done: int, total: int, _path: str) -> None:
        self.progress.emit(done, total)

    def _status(self, report: IndexReport) -> IndexStatus:
        store = DocumentStore(self._opened())
        files, passages = store.counts()
        stored = [f"{p.path}: {p.problem}" for p in store.problems(MAX_LISTED_PROBLEMS)]
        unstored = [f"{path}: {why}" for path, why in report.problems if "deleted" in why]
        listed = tuple(stored + unstored)
        count = store.problem_count() + len(unstored)
        return IndexStatus(report.complete, files, passages, listed, count)

    @Slot()
    def close(self) -> None:
        """A slot, so the window can close the database in this object's thread."""
        super().close()


class DocumentIndexer(QObject):
    """The GUI side: a timer, the status text (`status`, for the status bar) and the
    Pause item in `menu`. It never waits on the service."""

    request_pass = Signal()

    def __init__(
        self,
        menu: QMenu,
        data_dir: Path | None,
        command_line_folders: list[Path],
        parent: QWidget,
        interval_ms: int = INTERVAL_MS,
        first_pass_ms: int = FIRST_PASS_MS,
    ) -> None:
        super().__init__(parent)
        self.status = QLabel("")
        self.status.setAccessibleDescription("Document index")  # read with its text
        self.first_pass = QTimer(self)
        self.first_pass.setSingleShot(True)
        self.first_pass.setInterval(first_pass_ms)
        self.pause_action = QAction("&Pause document indexing", parent)
        self.pause_action.setCheckable(True)
        self.pause_action.toggled.connect(self._on_pause)
        self.pause_action.setEnabled(data_dir is not None)
        menu.addAction(self.pause_action)
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.refresh)
        self.worker_thread: QThread | None = None
        # Made now, started by start(): its database opens in its own thread on first use.
        self.service = IndexService(data_dir, command_line_folders) if data_dir else None
        self.running = False
        self.again = False  # folders changed during a pass: run one more
        self.last: IndexStatus | None = None
        self._done_total = (0, 0)

    def start(self) -> None:
        """The first pass once the app has settled (`first_pass_ms`), then one every interval
        (nothing without a data folder)."""
        if self.service is None or self.worker_thread is not None:
            return
        self.worker_thread = QThread(self)
        self.worker_thread.setObjectName("document-index")
        self.service.moveToThread(self.worker_thread)
        self.request_pass.connect(self.service.run_pass)
        self.service.progress.connect(self._on_progress)
        self.service.finished.connect(self._on_finished)
        self.service.failed.connect(self._on_failed)
        self.worker_thread.start()
        self.timer.start()
        if self.first_pass.interval() > 0:
            self.first_pass.timeout.connect(self.refresh)
            self.first_pass.start()
        else:
            self.refresh()

    @Slot()
    def refresh(self) -> None:
        """Run a pass now (the folders changed, or the timer), unless paused or one runs."""
        if self.worker_thread is None or self.pause_action.isChecked():
            return
        if self.running:
            self.again = True
            return
        self.running, self.again = True, False
        self.status.setText("Indexing your documents…")
        self.request_pass.emit()

    @Slot(int, int)
    def _on_progress(self, done: int, total: int) -> None:
        self._done_total = (done, total)
        if not self.pause_action.isChecked():
            self.status.setText(f"Indexing your documents: {done:,} of {total:,} files")

    @Slot(object)
    def _on_finished(self, status: IndexStatus) -> None:
        self.running, self.last = False, status
        if self.pause_action.isChecked() or not status.complete:
            done, total = self._done_total
            self.status.setText(f"Document indexing paused ({done:,} of {total:,} files)")
        else:
            text = f"Documents: {status.files:,} files indexed"
            if status.problem_count:
                text += f", {status.problem_count:,} could not be read"
            self.status.setText(text)
        lines = list(status.problems)
        if status.problem_count > len(lines):
            lines.append(f"… and {status.problem_count - len(lines):,} more")
        self.status.setToolTip("\n".join(lines))
        if self.again:
            self.refresh()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.running = False
        self.status.setText("Documents could not be indexed (see the tooltip)")
        self.status.setToolTip(message)

    @Slot(bool)
    def _on_pause(self, paused: bool) -> None:
        if self.service is None:
            return
        if paused:
            self.service.pause.set()  # the child stops after the file it is reading
            if not self.running:
                self.status.setText("Document indexing paused")
        else:
            self.service.pause.clear()
            self.refresh()

    def shutdown(self) -> None:
        """Stop the pass between two files and close the database in its own thread."""
        self.timer.stop()
        self.first_pass.stop()
        if self.service is None or self.worker_thread is None:
            return  # never started
        self.service.pause.set()
        QMetaObject.invokeMethod(self.service, "close", Qt.ConnectionType.BlockingQueuedConnection)
        self.worker_thread.quit()
        self.worker_thread.wait(30_000)
