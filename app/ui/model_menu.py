"""Settings → Models… and Settings → First-run guide… for the main window.

Kept out of main_window.py so the window only adds two menu entries and one line at quit;
it tells the window what the user chose through signals and never holds the window.
The ModelManager (two worker threads) is created on first use, or by start() when the app
starts, so that a download left running at the last quit resumes by itself; windows built
directly (tests) never start it unless they open one of these dialogs.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from app.llm.catalog import CatalogEntry
from app.ui.first_run import FirstRunWizard
from app.ui.model_manager import ModelManager
from app.ui.models_dialog import ModelsDialog


class ModelMenu(QObject):
    """The two menu entries; `parent` is only the dialogs' parent widget."""

    model_chosen = Signal(object)  # Path: the model file to load
    accounts_requested = Signal()  # the guide's "Add an account…": Settings → Accounts…
    notice = Signal(str)  # a failed download in one line, for the conversation view
    progress = Signal(str)  # a running download in words, for the status line
    guide_closed = Signal(bool)  # the first-run guide closed; whether a model was chosen
    meaning_model_ready = Signal()  # the documents' embedding model arrived: index again

    def __init__(self, menu: QMenu, data_dir: Path | None, parent: QWidget) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.data_dir = data_dir
        # Tests point these at a catalog served from 127.0.0.1 and at quick retries.
        self.catalog: list[CatalogEntry] | None = None
        self.downloader_options: dict[str, object] | None = None
        self.manager: ModelManager | None = None
        self.dialog: ModelsDialog | None = None
        self.wizard: FirstRunWizard | None = None
        models = QAction("Mo&dels (download and choose)…", parent)
        models.triggered.connect(self.open_models)
        menu.addAction(models)
        guide = QAction("First-run &guide…", parent)
        guide.triggered.connect(self.open_first_run)
        menu.addAction(guide)

    def start(self) -> ModelManager:
        """Create the manager (and its threads) once; it resumes an interrupted download."""
        if self.manager is None:
            from app.paths import data_dir

            self.manager = ModelManager(
                data_dir(self.data_dir, create=False),  # the start-up created it
                self.catalog,
                parent=self,
                downloader_options=self.downloader_options,
            )
            self.manager.model_file.connect(self._on_chosen)
            self.manager.failure_line.connect(self.notice)
            self.manager.progress.connect(self._on_progress)
            self.manager.meaning_ready.connect(lambda _path: self.meaning_model_ready.emit())
        return self.manager

    def open_models(self) -> ModelsDialog:
        manager = self.start()
        if self.dialog is None:
            self.dialog = ModelsDialog(manager, self.parent_widget)
        self.dialog.open()
        return self.dialog

    def open_first_run(self) -> FirstRunWizard:
        manager = self.start()
        if self.wizard is not None:  # an earlier one: its pages still listen to the manager
            self.wizard.deleteLater()
        wizard = FirstRunWizard(manager, self.accounts_requested.emit, self.parent_widget)
        wizard.finished.connect(lambda _result: self.guide_closed.emit(wizard.model_page.validated))
        self.wizard = wizard
        self.wizard.open()
        return self.wizard

    @Slot(str)
    def _on_chosen(self, path: str) -> None:
        """The chosen file (the check thread found the built-in one's place on disk)."""
        # The worker thread handles the load after a running reply, in order.
        self.model_chosen.emit(Path(path))

    @Slot(str, int, object, float, object)
    def _on_progress(
        self, entry_id: str, done: int, total: int | None, _speed: float, _left: float | None
    ) -> None:
        if self.manager is None:
            return
        name = self.manager.entry(entry_id).name
        share = f" {100 * done // total} %" if total else ""
        self.progress.emit(f"Downloading {name}…{share}")

    def shutdown(self) -> None:
        if self.manager is not None:
            self.manager.shutdown()
