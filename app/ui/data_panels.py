"""Settings → Folders… and Settings → Privacy…, the reminder notifier and the tray icon.

Kept out of main_window.py so the window only adds one line to its menu and one at quit.
It never holds the window: what the window should show or change goes out as signals, and
the window tells it when a reply starts and ends (a notice waits rather than split a reply).
The folder list, the privacy delete and the reminder checks all run in one "store" worker
thread (the GUI thread never touches the disk). The notifier starts with the window when
there is a data folder, so reminders that fell due while the app was closed appear at once.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMetaObject, QObject, Qt, QThread, Signal, Slot
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon, QWidget

from app.ui.folders_dialog import FoldersDialog, FoldersService
from app.ui.privacy_dialog import PrivacyDialog, PrivacyService
from app.ui.reminders import ReminderNotifier, ReminderService
from app.ui.window_state import WindowStateService


class DataPanels(QObject):
    """Folders…, Privacy…, reminders and the tray; `parent` is only the dialogs' parent."""

    folders_changed = Signal()  # Settings → Folders… saved: the next turn re-reads them
    history_deleted = Signal()  # Privacy… deleted the saved conversations
    notice = Signal(str, str)  # text, kind ("note"): for the conversation view
    attention = Signal(str)  # a line for the status bar: something needs the user
    show_requested = Signal()  # the tray icon or its message was clicked
    _save_geometry = Signal(str)  # queued to the window-state service in the store thread

    def __init__(
        self,
        menu: QMenu,
        data_dir: Path | None,
        command_line_folders: list[Path],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.data_dir = data_dir
        self.command_line_folders = list(command_line_folders)  # shown, not removable
        self.busy = False  # a reply is streaming: notices wait for its end
        self.service_thread: QThread | None = None
        self.folders_service: FoldersService | None = None
        self.privacy_service: PrivacyService | None = None
        self.reminder_service: ReminderService | None = None
        self.window_state_service: WindowStateService | None = None
        self.folders_dialog: FoldersDialog | None = None
        self.privacy_dialog: PrivacyDialog | None = None
        self.notifier: ReminderNotifier | None = None
        self.tray: QSystemTrayIcon | None = None
        self._pending_notices: list[str] = []
        folders = QAction("&Folders…", parent)
        folders.triggered.connect(self.open_folders)
        menu.addAction(folders)
        privacy = QAction("P&rivacy…", parent)
        privacy.triggered.connect(self.open_privacy)
        menu.addAction(privacy)

    def _data_dir(self) -> Path:
        from app.paths import data_dir

        return data_dir(self.data_dir, create=False)  # the start-up created it

    def _start_thread(self) -> QThread:
        if self.service_thread is None:
            self.service_thread = QThread(self)
            self.service_thread.setObjectName("store-worker")
            self.service_thread.start()
        return self.service_thread

    def _moved(self, service: QObject) -> QObject:
        service.moveToThread(self._start_thread())
        return service

    # -- reminders and the tray ----------------------------------------------------------------

    def start(self, icon: QIcon) -> None:
        """Tray icon (when the desktop has one) and reminder checks; the first check runs now."""
        if self.tray is None and QSystemTrayIcon.isSystemTrayAvailable():
            self.tray = QSystemTrayIcon(icon, self.parent_widget)
            self.tray.setToolTip("Hearth")
            self.tray.activated.connect(lambda *_: self.show_requested.emit())
            self.tray.messageClicked.connect(self.show_requested.emit)
            self.tray.show()
        if self.notifier is None:
            self.reminder_service = ReminderService(self._data_dir())
            self._moved(self.reminder_service)
            self.notifier = ReminderNotifier(self.reminder_service, self.tray, parent=self)
            self.notifier.in_window.connect(self._notice)
            self.notifier.start()

    @Slot(str)
    def _notice(self, text: str) -> None:
        """A reminder in the window: the status bar at once, then the conversation."""
        self.attention.emit(text.splitlines()[0])
        self.show_note(text)

    @Slot(str)
    def show_note(self, text: str) -> None:
        """A note in the conversation when no reply is streaming (one in the middle of a
        streamed reply would split it): the worker's notices come here too."""
        self._pending_notices.append(text)
        if not self.busy:
            self._flush_notices()

    def turn_started(self, *_args: object) -> None:
        self.busy = True

    def turn_ended(self, *_args: object) -> None:
        self.busy = False
        self._flush_notices()

    def _flush_notices(self) -> None:
        while self._pending_notices:
            self.notice.emit(self._pending_notices.pop(0), "note")

    # -- dialogs -----------------------------------------------------------------------------

    def open_folders(self) -> FoldersDialog:
        if self.folders_service is None:
            self.folders_service = FoldersService(self._data_dir())
            self._moved(self.folders_service)
        self.folders_dialog = FoldersDialog(
            self.folders_service, self.command_line_folders, self.parent_widget
        )
        self.folders_dialog.changed.connect(self.folders_changed)
        self.folders_dialog.open()
        return self.folders_dialog

    def open_privacy(self) -> PrivacyDialog:
        if self.privacy_service is None:
            self.privacy_service = PrivacyService(self._data_dir())
            self._moved(self.privacy_service)
        self.privacy_dialog = PrivacyDialog(self.privacy_service, self.parent_widget)
        self.privacy_dialog.deleted.connect(self.history_deleted)
        self.privacy_dialog.open()
        return self.privacy_dialog

    def keep_window_geometry(self, geometry: str) -> None:
        """At quit: the window's place and size, written in the store thread before it ends
        (queued ahead of `shutdown`'s close, so it is saved first)."""
        if self.data_dir is None:
            return  # a run without a data folder keeps nothing
        if self.window_state_service is None:
            self.window_state_service = WindowStateService(self._data_dir())
            self._moved(self.window_state_service)
            self._save_geometry.connect(self.window_state_service.save)
        self._save_geometry.emit(geometry)

    def shutdown(self) -> None:
        if self.notifier is not None:
            self.notifier.stop()
        if self.tray is not None:
            self.tray.hide()
        if self.service_thread is None:
            return
        for service in (self.folders_service, self.reminder_service, self.window_state_service):
            if service is not None:  # close their databases in the thread that opened them
                QMetaObject.invokeMethod(
                    service, "close", Qt.ConnectionType.BlockingQueuedConnection
                )
        self.service_thread.quit()
        self.service_thread.wait(30_000)  # a VACUUM of a large database can take a while
