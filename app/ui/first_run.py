"""The first-run wizard: welcome, choose a model, optionally an account and a folder, done.

It exists so that a new user gets from installing to chatting with a good model without a
terminal. Every step can be skipped; Settings → First-run guide… opens it again. The work
(downloads, header checks, settings) goes through the ModelManager's worker threads.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from app import APP_NAME
from app.llm.catalog import CatalogEntry
from app.ui.model_manager import ModelManager, Survey
from app.ui.models_dialog import ModelImport, entry_summary, progress_text, size_text

DOWNLOAD, IMPORT, BUILTIN = "download", "import", "builtin"


def _label(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    return label


class WelcomePage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(f"Welcome to {APP_NAME}")
        layout = QVBoxLayout(self)
        layout.addWidget(
            _label(
                f"{APP_NAME} is an assistant that runs on this computer. It can work with your "
                "files, mail, calendar and the web, and it always asks before it sends, "
                "changes or deletes anything.\n\n"
                "The next steps choose the model (the assistant's 'brain') and, if you like, "
                "an account and a folder it may use. You can skip any step and change "
                "everything later in the Settings menu."
            )
        )


class ModelPage(QWizardPage):
    """Download the recommended model, use a file the user has, or start on the built-in one."""

    def __init__(self, manager: ModelManager) -> None:
        super().__init__()
        self.manager = manager
        self.setTitle("Choose a model")
        self.setSubTitle("Bigger models answer better but need more memory and are slower.")
        self._user_picked = False
        self.validated = False  # Next was pressed here: a model was chosen or is coming

        self.download_radio = QRadioButton("Download a model (recommended)")
        self.entries = QComboBox()
        self.entries.setAccessibleName("Model to download")
        for entry in manager.catalog:
            if not entry.builtin:
                self.entries.addItem(entry.name, entry.id)
        self.details = _label("")
        self.details.setAccessibleDescription("Model details")
        self.import_radio = QRadioButton("Use a model file I already have")
        self.browse_button = QPushButton("Choose file…")
        self.import_label = _label("")
        self.import_label.setAccessibleDescription("Import result")
        self.importer = ModelImport(
            manager, self.import_label, "{name} can be used: {description}.", self
        )
        self.builtin_radio = QRadioButton("Start on the small built-in model")
        self.builtin_label = _label(
            "It works at once without a download, but it is not clever: good for trying "
            "Hearth out, not for real work."
        )
        self.group = QButtonGroup(self)
        for radio in (self.download_radio, self.import_radio, self.builtin_radio):
            self.group.addButton(radio)

        layout = QVBoxLayout(self)
        layout.addWidget(self.download_radio)
        # Linux screen readers read a combo box's value as its name: its purpose comes from a
        # label it is the buddy of ("labelled by"), not from setAccessibleName.
        self.entries_label = QLabel("&Model to download:")
        self.entries_label.setBuddy(self.entries)
        entries_row = QHBoxLayout()
        entries_row.addWidget(self.entries_label)
        entries_row.addWidget(self.entries, 1)
        layout.addLayout(entries_row)
        layout.addWidget(self.details)
        layout.addSpacing(8)
        layout.addWidget(self.import_radio)
        row = QHBoxLayout()
        row.addWidget(self.browse_button)
        row.addWidget(self.import_label, 1)
        layout.addLayout(row)
        layout.addSpacing(8)
        layout.addWidget(self.builtin_radio)
        layout.addWidget(self.builtin_label)
        layout.addStretch(1)

        has_downloads = self.entries.count() > 0
        self.download_radio.setEnabled(has_downloads)
        (self.download_radio if has_downloads else self.builtin_radio).setChecked(True)
        self.entries.activated.connect(self._picked)
        self.entries.currentIndexChanged.connect(lambda _i: self._show_details())
        self.browse_button.clicked.connect(self._browse)
        self.group.buttonToggled.connect(lambda *_: self.completeChanged.emit())
        manager.survey_ready.connect(self._on_survey)
        self.importer.done.connect(self.completeChanged)
        if manager.survey is not None:
            self._on_survey(manager.survey)
        else:
            self.details.setText("Looking at this computer's memory and disk…")

    @property
    def imported_path(self) -> Path | None:
        return self.importer.path

    def choice(self) -> str:
        if self.import_radio.isChecked():
            return IMPORT
        if self.builtin_radio.isChecked():
            return BUILTIN
        return DOWNLOAD

    def selected_entry_id(self) -> str | None:
        return self.entries.currentData()

    def select_entry(self, entry_id: str) -> None:
        self.entries.setCurrentIndex(self.entries.findData(entry_id))
        self._user_picked = True

    def import_file(self, path: Path | str) -> None:
        """Check the file's header and architecture (in the check thread) before offering it."""
        self.import_radio.setChecked(True)
        self.importer.start(path)
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        if self.choice() == IMPORT:
            return self.imported_path is not None
        if self.choice() == DOWNLOAD:
            return self.selected_entry_id() is not None
        return True

    def validatePage(self) -> bool:
        if not self._validate():
            return False
        self.validated = True
        return True

    def _validate(self) -> bool:
        choice = self.choice()
        if choice == DOWNLOAD:
            entry_id = self.selected_entry_id()
            if entry_id is None:
                return False
            entry = self.manager.entry(entry_id)
            if self.manager.is_present(entry_id):
                self.manager.choose(self.manager.model_path(entry))
            elif not self.manager.start_download(entry_id, use_when_done=True):
                self.details.setText(
                    "Another download is running. Wait for it, or pause it in Settings → Models…"
                )
                return False
        elif choice == IMPORT and self.imported_path is not None:
            self.manager.choose(self.imported_path)
        elif (builtin := self._builtin()) is not None and not self.manager.is_present(builtin.id):
            # Not in this data folder (a fresh folder in a checkout): fetch it, then use it.
            if not self.manager.start_download(builtin.id, use_when_done=True):
                self.builtin_label.setText(
                    "Another download is running. Wait for it, or pause it in Settings → Models…"
                )
                return False
        else:
            self.manager.choose(None)
        return True

    def _builtin(self) -> CatalogEntry | None:
        return next((entry for entry in self.manager.catalog if entry.builtin), None)

    def _picked(self, _index: int) -> None:
        self._user_picked = True

    def _show_details(self) -> None:
        entry_id = self.selected_entry_id()
        if entry_id is None:
            return
        entry = self.manager.entry(entry_id)
        text = entry_summary(entry, self.manager.fits(entry))
        present = self.manager.is_present(entry_id)
        # Never "download (recommended)" for a model that is already here (audit).
        self.download_radio.setText(
            "Use a model on this computer (recommended)"
            if present
            else "Download a model (recommended)"
        )
        if present:
            text += " It is already on this computer: nothing to download."
        elif self.manager.partial_bytes(entry_id):
            text += " Part of it is already downloaded: the download continues from there."
        self.details.setText(text)
        self.completeChanged.emit()

    @Slot(object)
    def _on_survey(self, _survey: Survey) -> None:
        for index in range(self.entries.count()):
            entry = self.manager.entry(self.entries.itemData(index))
            marks = []
            if self.manager.is_present(entry.id):
                marks.append("on this computer")
            if entry is self.manager.recommended():
                marks.append("recommended")
            if not self.manager.fits(entry):
                marks.append("too big for this computer")
            suffix = f"  ({', '.join(marks)})" if marks else ""
            self.entries.setItemText(index, entry.name + suffix)
        recommended = self.manager.recommended()
        if not self._user_picked and recommended is not None and not recommended.builtin:
            self.entries.setCurrentIndex(self.entries.findData(recommended.id))
        elif not self._user_picked and recommended is not None and recommended.builtin:
            self.builtin_radio.setChecked(True)  # nothing downloadable fits this machine
        builtin = self._builtin()
        if builtin is not None and not self.manager.is_present(builtin.id):
            self.builtin_label.setText(
                f"It is not on this computer yet: Hearth fetches it first "
                f"({size_text(builtin.size_bytes)}). It is not clever: good for trying Hearth "
                "out, not for real work."
            )
        self._show_details()

    def _browse(self) -> None:
        if path := self.importer.browse(self):
            self.import_file(path)


class ExtrasPage(QWizardPage):
    """Optional: a mail or calendar account, and a folder the assistant may use."""

    def __init__(self, manager: ModelManager, open_accounts: Callable[[], object] | None) -> None:
        super().__init__()
        self.manager = manager
        self.open_accounts = open_accounts
        self.setTitle("Accounts and folders (optional)")
        self.setSubTitle("You can also do this later in the Settings menu.")
        self.folders: list[str] = []
        self.account_button = QPushButton("Add a mail or calendar account…")
        self.account_button.setEnabled(open_accounts is not None)
        self.folder_button = QPushButton("Add a folder…")
        for button in (self.account_button, self.folder_button):
            button.setAutoDefault(False)  # Enter, as on every page, means Next
        self.folders_label = _label("No folder yet: the assistant cannot see any of your files.")
        self.folders_label.setAccessibleDescription("Folders")
        layout = QVBoxLayout(self)
        layout.addWidget(
            _label(
                "With an account, the assistant can read your mail and calendar, and prepare "
                "messages and events (it asks before sending anything). Passwords stay in "
                "your computer's password store."
            )
        )
        layout.addWidget(self.account_button)
        layout.addSpacing(8)
        layout.addWidget(_label("A folder lets it read and write files there, and nowhere else."))
        layout.addWidget(self.folder_button)
        layout.addWidget(self.folders_label)
        layout.addStretch(1)
        self.account_button.clicked.connect(self._open_accounts)
        self.folder_button.clicked.connect(self._browse)
        manager.folder_added.connect(self._on_folder_added)

    def add_folder(self, path: Path | str) -> None:
        self.manager.add_folder(path)

    def _open_accounts(self) -> None:
        if self.open_accounts is not None:
            self.open_accounts()

    def _browse(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Choose a folder", str(Path.home()))
        if path:
            self.add_folder(path)

    @Slot(str)
    def _on_folder_added(self, path: str) -> None:
        if path not in self.folders:
            self.folders.append(path)
        self.folders_label.setText("Folders the assistant may use:\n" + "\n".join(self.folders))


class DonePage(QWizardPage):
    """What was chosen, and the download's progress if one is running."""

    def __init__(self, manager: ModelManager, model_page: ModelPage) -> None:
        super().__init__()
        self.manager = manager
        self.model_page = model_page
        self.setTitle("All set")
        self.summary = _label("")
        self.summary.setAccessibleDescription("Summary")
        self.progress_bar = QProgressBar()
        self.progress_bar.setAccessibleName("Download progress")
        self.progress_label = _label("")
        self.progress_label.setAccessibleDescription("Download status")
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.progress_label)
        layout.addStretch(1)
        manager.progress.connect(self._on_progress)
        manager.download_finished.connect(self._on_finished)
        manager.download_failed.connect(self._on_failed)

    def initializePage(self) -> None:
        choice = self.model_page.choice()
        downloading = self.manager.downloading
        self.progress_bar.setVisible(downloading is not None)
        self.progress_label.setVisible(downloading is not None)
        if downloading is not None and self.manager.entry(downloading).builtin:
            self.summary.setText(
                "Hearth is fetching its small built-in model. You can start chatting as soon "
                "as it is in place; Settings → Models… shows how it is going."
            )
        elif downloading is not None:
            name = self.manager.entry(downloading).name
            builtin = self.model_page._builtin()
            if builtin is not None and self.manager.is_present(builtin.id):
                meanwhile = (
                    "You can start chatting now on the small built-in model: Hearth switches "
                    f"to {name} by itself when the download is complete and checked."
                )
            else:  # a fresh data folder has no model yet: never promise one (audit)
                meanwhile = (
                    f"Hearth loads {name} by itself when the download is complete and "
                    "checked, and the status line shows how far it is; then you can start "
                    "chatting."
                )
            self.summary.setText(
                f"{name} is downloading. {meanwhile} If the connection drops or you close "
                "Hearth, the download continues where it stopped.\n\nSettings → Models… "
                "shows the download, and has 'Check this computer' to see how fast the model "
                "runs here."
            )
        elif choice == IMPORT and self.model_page.imported_path is not None:
            self.summary.setText(f"Hearth will use {self.model_page.imported_path.name}.")
        elif choice == DOWNLOAD and (entry_id := self.model_page.selected_entry_id()):
            self.summary.setText(f"Hearth will use {self.manager.entry(entry_id).name}.")
        else:
            self.summary.setText(
                "Hearth starts on the small built-in model. When you want a cleverer one, "
                "open Settings → Models…"
            )

    @Slot(str, int, object, float, object)
    def _on_progress(
        self, _entry_id: str, done: int, total: int | None, speed: float, left: float | None
    ) -> None:
        if total:
            self.progress_bar.setValue(int(100 * done / total))
        self.progress_label.setText(progress_text(done, total, speed, left))

    @Slot(str, str)
    def _on_finished(self, entry_id: str, _path: str) -> None:
        self.progress_bar.setValue(100)
        name = self.manager.entry(entry_id).name
        self.progress_label.setText(f"{name} is downloaded and checked; Hearth now uses it.")

    @Slot(str, str)
    def _on_failed(self, _entry_id: str, message: str) -> None:
        self.progress_label.setText(message + "\n\nSettings → Models… can try again.")


class FirstRunWizard(QWizard):
    """Finishing or skipping both mark the first run as done (setting first_run.done)."""

    def __init__(
        self,
        manager: ModelManager,
        open_accounts: Callable[[], object] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.manager = manager
        self.setWindowTitle(f"Set up {APP_NAME}")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.resize(640, 480)
        self.welcome = WelcomePage()
        self.model_page = ModelPage(manager)
        self.extras = ExtrasPage(manager, open_accounts)
        self.done_page = DonePage(manager, self.model_page)
        for page in (self.welcome, self.model_page, self.extras, self.done_page):
            self.addPage(page)
        self.setButtonText(QWizard.WizardButton.CancelButton, "Skip setup")
        self.setButtonText(QWizard.WizardButton.FinishButton, "Start chatting")
        self.finished.connect(lambda _result: manager.mark_first_run_done())
