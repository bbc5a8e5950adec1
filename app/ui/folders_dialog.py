"""Settings → Folders…: the folders the assistant may read and write.

The list lives in the database (FolderStore); ``FoldersService`` reads and writes it on a
worker thread so the GUI thread never touches the disk. Folders given with ``--allow-folder``
are shown too, but only for this run: they are not stored and cannot be removed here.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.store.database import Database
from app.store.folders import FolderStore

log = logging.getLogger(__name__)

FIXED_NOTE = "  (for this run only: --allow-folder)"


class FoldersService(QObject):
    """Folder-list work off the GUI thread; every slot runs in the thread this lives in."""

    listed = Signal(list)  # [str]: the stored folders
    failed = Signal(str)  # a message for the user

    def __init__(self, data_dir: Path) -> None:
        super().__init__()
        self.data_dir = data_dir
        self._database: Database | None = None

    def _store(self) -> FolderStore:
        if self._database is None:
            self._database = Database.open(self.data_dir)
        return FolderStore(self._database)

    @Slot()
    def close(self) -> None:
        if self._database is not None:
            self._database.close()
            self._database = None

    def _run(self, action: str, work: object) -> None:
        try:
            if callable(work):
                work()
            folders = self._store().saved()
        except Exception as exc:  # a broken database must reach the user, not end the thread
            log.exception("folders: %s failed", action)
            self.failed.emit(f"Hearth could not {action}: {exc}")
            return
        self.listed.emit([str(p) for p in folders])

    @Slot()
    def refresh(self) -> None:
        self._run("read the folder list", None)

    @Slot(str)
    def add(self, folder: str) -> None:
        self._run("add the folder", lambda: self._store().add(Path(folder)))

    @Slot(str)
    def remove(self, folder: str) -> None:
        self._run("remove the folder", lambda: self._store().remove(Path(folder)))


class FoldersDialog(QDialog):
    """List, Add…, Remove. `changed` fires after the stored list changed (the worker then
    rebuilds its file tools and the gate's allowed folders before the next turn)."""

    changed = Signal()
    request_refresh = Signal()
    request_add = Signal(str)
    request_remove = Signal(str)

    def __init__(
        self,
        service: FoldersService,
        fixed: list[Path] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Folders")
        self.resize(560, 360)
        self.fixed = [str(p) for p in fixed or []]
        self.stored: list[str] = []
        self._pending_change = False

        intro = QLabel(
            "Hearth may read and write files only in these folders (and their sub-folders). "
            "Changes apply from your next message."
        )
        intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setAccessibleName("Allowed folders")
        self.add_button = QPushButton("&Add…")
        self.remove_button = QPushButton("&Remove")
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)

        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)

        self.add_button.clicked.connect(self.choose_folder)
        self.remove_button.clicked.connect(self.remove_selected)
        self.list.currentRowChanged.connect(lambda _row: self._update_buttons())
        self.request_refresh.connect(service.refresh)
        self.request_add.connect(service.add)
        self.request_remove.connect(service.remove)
        service.listed.connect(self._on_listed)
        service.failed.connect(self._on_failed)
        self._busy(True)
        self.request_refresh.emit()

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Allow a folder", str(Path.home()))
        if folder:
            self.add_folder(folder)

    def add_folder(self, folder: str) -> None:
        self._pending_change = True
        self._busy(True)
        self.notice.setText("Saving…")
        self.request_add.emit(folder)

    def remove_selected(self) -> None:
        item = self.list.currentItem()
        if item is None or item.data(_PATH_ROLE) in self.fixed:
            return
        self._pending_change = True
        self._busy(True)
        self.notice.setText("Saving…")
        self.request_remove.emit(item.data(_PATH_ROLE))

    @Slot(list)
    def _on_listed(self, folders: list) -> None:
        self.stored = list(folders)
        self.list.clear()
        for path in self.fixed:
            item = QListWidgetItem(path + FIXED_NOTE)
            item.setData(_PATH_ROLE, path)
            self.list.addItem(item)
        for path in self.stored:
            if path in self.fixed:
                continue
            item = QListWidgetItem(path)
            item.setData(_PATH_ROLE, path)
            self.list.addItem(item)
        if self._pending_change:
            self._pending_change = False
            self.notice.setText("Saved. The change applies from your next message.")
            self.changed.emit()
        elif not self.fixed and not self.stored:
            self.notice.setText("No folders yet: Hearth cannot read or write any of your files.")
        self._busy(False)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._pending_change = False
        self.notice.setText(message)
        self._busy(False)

    def _busy(self, busy: bool) -> None:
        self._is_busy = busy
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.add_button.setEnabled(not self._is_busy)
        item = self.list.currentItem()
        removable = item is not None and item.data(_PATH_ROLE) not in self.fixed
        self.remove_button.setEnabled(not self._is_busy and removable)


_PATH_ROLE = 0x0100  # Qt.ItemDataRole.UserRole
