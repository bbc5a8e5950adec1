"""Settings → Models…: the catalog with what fits this computer, downloads with progress,
pause, resume and cancel, importing a GGUF file, "Use this model" and the machine check.

All the work happens in ModelManager's worker threads; this dialog only shows its state.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.llm.catalog import CatalogEntry
from app.llm.embedded import MINILM
from app.ui.model_manager import ModelManager, Survey

MEANING_OFF = (
    "Find documents by meaning too (optional, {size}, English only): when the words of a "
    "question find too few passages in your documents, the ones closest in meaning fill the "
    "answer, even if they share no word with it (“deductible” for “excess”). Hearth works out "
    "the meaning of each indexed passage in the background."
)
MEANING_ON = (
    "Documents are found by meaning too ({name}, English only): when the words of a question "
    "find too few passages, the ones closest in meaning fill the answer."
)
FITS_MARK = "✓ fits"
NO_FIT_MARK = "✗ too big"


def size_text(count: int) -> str:
    if count >= 1e9:
        return f"{count / 1e9:.1f} GB"
    return f"{count / 1e6:,.0f} MB"


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "working out the time left"
    if seconds < 60:
        return "less than a minute left"
    if seconds < 3600:
        return f"about {round(seconds / 60)} minutes left"
    return f"about {seconds / 3600:.1f} hours left"


def progress_text(done: int, total: int | None, speed: float, left: float | None) -> str:
    """'120 MB of 532 MB · 3.4 MB/s · about 2 minutes left'."""
    of = f"{size_text(done)} of {size_text(total)}" if total else size_text(done)
    return f"{of} · {speed / 1e6:.1f} MB/s · {duration_text(left)}"


def entry_summary(entry: CatalogEntry, fits_here: bool) -> str:
    """One line for a catalog entry: size, memory, description and whether it fits."""
    size = "built in" if entry.builtin else f"{size_text(entry.size_bytes)} download"
    fit = "fits this computer" if fits_here else "needs more memory or disk than is free"
    return (
        f"{entry.name}: {size}, needs about {size_text(entry.ram_bytes)} of memory, {fit}. "
        f"{entry.description}"
    )


class ModelImport(QObject):
    """Checks a file for "use a model file I have" (header, architecture) in the manager's
    check thread and shows the answer in `label`. Answers to another window's import are
    ignored, so the wizard and this dialog never act on each other's files."""

    done = Signal()  # the check answered: `path` is the accepted file, or None if refused

    def __init__(
        self, manager: ModelManager, label: QLabel, accepted: str, parent: QObject
    ) -> None:
        super().__init__(parent)
        self.manager = manager
        self.label = label
        self.accepted = accepted  # a format with {name} and {description}
        self.path: Path | None = None
        self.pending: str | None = None
        manager.imported.connect(self._on_imported)
        manager.import_refused.connect(self._on_refused)

    def start(self, path: Path | str) -> None:
        self.path = None
        self.pending = str(path)
        self.label.setText(f"Checking {Path(path).name}…")
        self.manager.import_file(path)

    def browse(self, parent: QWidget) -> str:
        """Ask for a .gguf file; returns its path, or "" if the user cancelled."""
        path, _ = QFileDialog.getOpenFileName(
            parent, "Choose a model file", str(Path.home()), "GGUF models (*.gguf)"
        )
        return path

    @Slot(str, str)
    def _on_imported(self, path: str, description: str) -> None:
        if path == self.pending:
            self.pending = None
            self.path = Path(path)
            self.label.setText(self.accepted.format(name=self.path.name, description=description))
            self.done.emit()

    @Slot(str, str)
    def _on_refused(self, path: str, message: str) -> None:
        if path == self.pending:
            self.pending = None
            self.path = None
            self.label.setText(message)
            self.done.emit()


class ModelsDialog(QDialog):
    """The catalog as a list; the selected entry's buttons act through the ModelManager."""

    def __init__(self, manager: ModelManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.manager = manager
        self.setWindowTitle("Models")
        self.resize(760, 520)
        self.items: dict[str, QTreeWidgetItem] = {}
        self.check_running = False

        self.tree = QTreeWidget()
        self.tree.setAccessibleName("Models")
        self.tree.setHeaderLabels(["Model", "Download", "Memory", "This computer", "State"])
        self.tree.setRootIsDecorated(False)
        self.tree.setColumnWidth(0, 300)
        for entry in manager.catalog:
            item = QTreeWidgetItem(
                [
                    entry.name,
                    "built in" if entry.builtin else size_text(entry.size_bytes),
                    size_text(entry.ram_bytes),
                    "",
                    "",
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, entry.id)
            self.tree.addTopLevelItem(item)
            self.items[entry.id] = item
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setAccessibleDescription("Model details")
        self.progress_bar = QProgressBar()
        self.progress_bar.setAccessibleName("Download progress")
        self.progress_label = QLabel()
        self.progress_label.setAccessibleDescription("Download status")
        self.progress_label.setWordWrap(True)

        self.download_button = QPushButton("Download")
        self.pause_button = QPushButton("Pause")
        self.cancel_button = QPushButton("Cancel download")
        self.use_button = QPushButton("Use this model")
        self.import_button = QPushButton("Use a model file I have…")
        self.check_button = QPushButton("Check this computer")
        self.check_button.setToolTip("Load the model and measure how fast it runs here")
        self.check_label = QLabel()
        self.check_label.setWordWrap(True)
        self.check_label.setAccessibleDescription("Machine check result")
        self.import_label = QLabel()
        self.import_label.setWordWrap(True)
        self.import_label.setAccessibleDescription("Import result")
        self.importer = ModelImport(
            manager, self.import_label, "Hearth now uses {name} ({description}).", self
        )
        self.chosen_label = QLabel()
        self.chosen_label.setAccessibleDescription("Model in use")
        # The documents' embedding model (issue #39): not a chat model, so not in the list.
        self.meaning_label = QLabel()
        self.meaning_label.setWordWrap(True)
        self.meaning_label.setAccessibleDescription("Finding documents by meaning")
        self.meaning_button = QPushButton(f"Download ({size_text(MINILM.size)})")
        self.meaning_button.setAccessibleName("Download the model for finding documents by meaning")
        self.meaning_button.setAutoDefault(False)

        buttons = QHBoxLayout()
        for button in (
            self.download_button,
            self.pause_button,
            self.cancel_button,
            self.use_button,
            self.check_button,
        ):
            buttons.addWidget(button)
            button.setAutoDefault(False)  # Enter closes the dialog; it never starts a download
        buttons.addStretch(1)
        self.import_button.setAutoDefault(False)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.button(QDialogButtonBox.StandardButton.Close).setDefault(True)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Models Hearth can download, and which ones suit this computer:"))
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.details)
        layout.addLayout(buttons)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.check_label)
        row = QHBoxLayout()
        row.addWidget(self.import_button)
        row.addWidget(self.import_label, 1)
        layout.addLayout(row)
        layout.addWidget(self.chosen_label)
        meaning = QHBoxLayout()
        meaning.addWidget(self.meaning_label, 1)
        meaning.addWidget(self.meaning_button)
        layout.addLayout(meaning)
        layout.addWidget(close)

        self.tree.currentItemChanged.connect(lambda *_: self._update())
        self.download_button.clicked.connect(self.download_selected)
        self.pause_button.clicked.connect(self.pause_selected)
        self.cancel_button.clicked.connect(self.cancel_selected)
        self.use_button.clicked.connect(self.use_selected)
        self.import_button.clicked.connect(self._browse)
        self.check_button.clicked.connect(self.check_selected)
        self.meaning_button.clicked.connect(self.fetch_meaning)
        manager.meaning_failed.connect(lambda *_: self._update_meaning())
        close.rejected.connect(self.reject)
        self.importer.done.connect(self._on_import_done)
        manager.survey_ready.connect(self._on_survey)
        manager.progress.connect(self._on_progress)
        manager.download_finished.connect(lambda *_: self._update())
        manager.download_stopped.connect(lambda *_: self._update())
        manager.download_failed.connect(lambda *_: self._update())
        manager.machine_checked.connect(self._on_checked)
        manager.machine_check_failed.connect(self._on_check_failed)
        manager.model_chosen.connect(lambda _path: manager.refresh())
        if manager.survey is not None:
            self._on_survey(manager.survey)
        else:
            self.details.setText("Looking at this computer's memory and disk…")
        manager.refresh()

    # -- state -------------------------------------------------------------------------------

    def selected(self) -> CatalogEntry | None:
        item = self.tree.currentItem()
        if item is None:
            return None
        return self.manager.entry(item.data(0, Qt.ItemDataRole.UserRole))

    def select(self, entry_id: str) -> None:
        self.tree.setCurrentItem(self.items[entry_id])

    def state_text(self, entry: CatalogEntry) -> str:
        manager = self.manager
        if manager.downloading == entry.id:
            return "downloading…"
        if manager.is_present(entry.id):
            return "ready to use"
        if entry.id in manager.last_error:
            return "download failed"
        part = manager.partial_bytes(entry.id)
        if part:
            percent = 100 * part // entry.size_bytes
            return f"paused at {min(percent, 99)} %"
        return ""

    def _update(self) -> None:
        manager = self.manager
        recommended = manager.recommended()
        chosen = manager.survey.chosen if manager.survey else None
        for entry in manager.catalog:
            item = self.items[entry.id]
            item.setText(0, entry.name + ("  ★ recommended" if recommended is entry else ""))
            item.setText(3, FITS_MARK if manager.fits(entry) else NO_FIT_MARK)
            state = self.state_text(entry)
            in_use = (
                Path(chosen) == manager.model_path(entry) if chosen else entry.builtin
            ) and manager.is_present(entry.id)
            if in_use and state == "ready to use":
                state = "in use"
            item.setText(4, state)
        selected = self.selected()
        if selected is None:
            self.details.setText("Choose a model in the list.")
            for button in (
                self.download_button,
                self.pause_button,
                self.cancel_button,
                self.use_button,
            ):
                button.setEnabled(False)
        else:
            self._update_entry(selected)
        self.check_button.setEnabled(not self.check_running and self._check_target() is not None)
        builtin = next((e for e in manager.catalog if e.builtin), None)
        if chosen:
            self.chosen_label.setText(f"In use: {Path(chosen).name}")
        elif builtin is not None and manager.survey and not manager.is_present(builtin.id):
            self.chosen_label.setText(
                f"No model yet: the small built-in model is not on this computer. Select "
                f"“{builtin.name}” and press Download to fetch it "
                f"({size_text(builtin.size_bytes)}), or download a better one."
            )
        else:
            self.chosen_label.setText("In use: the small built-in model")
        self._update_meaning()

    def _update_meaning(self) -> None:
        manager = self.manager
        ready = bool(manager.survey and manager.survey.meaning)
        if ready:
            self.meaning_label.setText(MEANING_ON.format(name=MINILM.name))
        elif manager.fetching_meaning:
            self.meaning_label.setText(
                f"Fetching the model for finding documents by meaning ({size_text(MINILM.size)})…"
            )
        else:
            text = MEANING_OFF.format(size=size_text(MINILM.size))
            if manager.meaning_error:
                text += f"\n{manager.meaning_error}"
            self.meaning_label.setText(text)
        self.meaning_button.setVisible(not ready)
        self.meaning_button.setEnabled(manager.survey is not None and not manager.fetching_meaning)

    def _update_entry(self, entry: CatalogEntry) -> None:
        """Details, buttons and progress for the selected entry."""
        manager = self.manager
        here = entry.id == manager.downloading
        ready = manager.is_present(entry.id)
        part = manager.partial_bytes(entry.id)
        check = (
            "Checked by its published SHA-256 checksum."
            if entry.sha256
            else "No published checksum: checked by size and model header only."
        )
        self.details.setText(
            f"{entry_summary(entry, manager.fits(entry))}\nLicence: {entry.licence}. {check}"
        )
        self.download_button.setText("Resume" if part and not here else "Download")
        self.download_button.setEnabled(not ready and manager.downloading is None)
        self.pause_button.setEnabled(here and not entry.builtin)  # one step, from PyPI
        self.cancel_button.setEnabled((here and not entry.builtin) or bool(part))
        self.use_button.setEnabled(ready and not here)
        # A bar only where there is something to show: a "0 %" bar read as a stuck download.
        self.progress_bar.setVisible(here or bool(part) or ready)
        if here:
            if entry.id in manager.progress_of:
                self.progress_label.setText(progress_text(*manager.progress_of[entry.id]))
            return
        error = manager.last_error.get(entry.id)
        if error:
            self.progress_label.setText(error)
        elif part:
            self.progress_label.setText(
                f"Paused: {size_text(part)} of {size_text(entry.size_bytes)} downloaded. "
                "Resume continues where it stopped."
            )
        else:
            self.progress_label.setText("")
        self.progress_bar.setValue(
            100 if ready else int(100 * part / entry.size_bytes) if part else 0
        )

    def _check_target(self) -> Path | None:
        entry = self.selected()
        if entry is not None and self.manager.is_present(entry.id):
            return self.manager.model_path(entry)
        return self.importer.path

    # -- actions -----------------------------------------------------------------------------

    def download_selected(self) -> None:
        entry = self.selected()
        if entry is not None and self.manager.start_download(entry.id):
            self.progress_label.setText("Starting the download…")
            self._update()

    def fetch_meaning(self) -> None:
        self.manager.fetch_meaning_model()
        self._update_meaning()

    def pause_selected(self) -> None:
        entry = self.selected()
        if entry is not None:
            self.manager.pause(entry.id)
            self.progress_label.setText("Pausing…")

    def cancel_selected(self) -> None:
        entry = self.selected()
        if entry is None:
            return
        if self.manager.downloading == entry.id:
            self.manager.cancel(entry.id)
            self.progress_label.setText("Cancelling…")
        else:
            self.manager.discard_partial(entry.id)

    def use_selected(self) -> None:
        entry = self.selected()
        if entry is not None:
            self.manager.choose(None if entry.builtin else self.manager.model_path(entry))

    def import_file(self, path: Path | str) -> None:
        """Check a GGUF file the user has (header and architecture) before offering it."""
        self.importer.start(path)

    def check_selected(self) -> None:
        target = self._check_target()
        if target is None:
            return
        self.check_running = True
        self.check_label.setText(
            f"Loading {target.name} and measuring it; this takes up to a minute…"
        )
        self.manager.check_machine(target)
        self._update()

    def _browse(self) -> None:
        if path := self.importer.browse(self):
            self.import_file(path)

    # -- manager signals ---------------------------------------------------------------------

    @Slot(object)
    def _on_survey(self, survey: Survey) -> None:
        if self.tree.currentItem() is None:
            chosen = survey.chosen
            in_use = [
                e
                for e in self.manager.catalog
                if chosen and Path(chosen) == self.manager.model_path(e)
            ]
            target = in_use[0] if in_use else self.manager.recommended()
            if target is not None:
                self.select(target.id)
        self._update()

    @Slot(str, int, object, float, object)
    def _on_progress(
        self, entry_id: str, done: int, total: int | None, speed: float, left: float | None
    ) -> None:
        entry = self.selected()
        if entry is not None and entry.id == entry_id:
            if total:
                self.progress_bar.setValue(int(100 * done / total))
            self.progress_label.setText(progress_text(done, total, speed, left))
        self.items[entry_id].setText(4, f"downloading {100 * done // (total or done or 1)} %")

    @Slot()
    def _on_import_done(self) -> None:
        if self.importer.path is not None:
            self.manager.choose(self.importer.path)
        self._update()

    @Slot(str, object, str)
    def _on_checked(self, path: str, report: object, words: str) -> None:
        self.check_running = False
        self.check_label.setText(words)
        self._update()

    @Slot(str, str)
    def _on_check_failed(self, path: str, message: str) -> None:
        self.check_running = False
        self.check_label.setText(message)
        self._update()
