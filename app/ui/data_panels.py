"""Settings → Folders… and Settings → Privacy…, the reminder notifier and the tray icon.

Kept out of main_window.py so the window only adds one line to its menu and one at quit.
The folder list, the privacy delete and the reminder checks all run in one "store" worker
thread (the GUI thread never touches the disk). The notifier starts with the window when
there is a data folder, so reminders that fell due while the app was closed appear at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMetaObject, QObject, Qt, QThread, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu, QStyle, QSystemTrayIcon

from app.ui.folders_dialog import FoldersDialog, FoldersService
from app.ui.privacy_dialog import PrivacyDialog, PrivacyService
from app.ui.reminders import ReminderNotifier, ReminderService

if TYPE_CHECKING:
    from app.ui.main_window import MainWindow


class DataPanels(QObject):
    def __init__(self, window: MainWindow, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.thread: QThread | None = None
        self.folders_service: FoldersService | None = None
        self.privacy_service: PrivacyService | None = None
        self.reminder_service: ReminderService | None = None
        self.folders_dialog: FoldersDialog | None = None
        self.privacy_dialog: PrivacyDialog | None = None
        self.notifier: ReminderNotifier | None = None
        self.tray: QSystemTrayIcon | None = None
        self._pending_notices: list[str] = []
        folders = QAction("&Folders…", window)
        folders.triggered.connect(self.open_folders)
        menu.addAction(folders)
        privacy = QAction("P&rivacy…", window)
        privacy.triggered.connect(self.open_privacy)
        menu.addAction(privacy)

    def _data_dir(self) -> Path:
        from app.paths import data_dir

        return data_dir(self.window.data_dir, create=False)  # the start-up created it

    def _start_thread(self) -> QThread:
        if self.thread is None:
            self.thread = QThread(self)
            self.thread.setObjectName("store-worker")
            self.thread.start()
        return self.thread

    def _moved(self, service: QObject) -> QObject:
        service.moveToThread(self._start_thread())
        return service

    # -- reminders and the tray ----------------------------------------------------------------

    def start(self) -> None:
        """Tray icon (when the desktop has one) and reminder checks; the first check runs now."""
        if self.tray is None and QSystemTrayIcon.isSystemTrayAvailable():
            icon = self.window.windowIcon()
            if icon.isNull():
                icon = self.window.style().standardIcon(QStyle.StandardPixmap.SP_ComputerIcon)
            self.tray = QSystemTrayIcon(icon, self.window)
            self.tray.setToolTip("Hearth")
            self.tray.activated.connect(self._show_window)
            self.tray.messageClicked.connect(self._show_window)
            self.tray.show()
        if self.notifier is None:
            self.reminder_service = ReminderService(self._data_dir())
            self._moved(self.reminder_service)
            self.notifier = ReminderNotifier(self.reminder_service, self.tray, parent=self)
            self.notifier.in_window.connect(self._notice)
            self.window.worker.turn_finished.connect(self._flush_notices)
            self.window.worker.turn_failed.connect(self._flush_notices)
            self.notifier.start()

    @Slot()
    def _show_window(self, *_args: object) -> None:
        self.window.showNormal()
        self.window.raise_()
        self.window.activateWindow()

    @Slot(str)
    def _notice(self, text: str) -> None:
        """In the window: the status bar at once, the conversation when no reply is streaming
        (a notice in the middle of a streamed reply would split it)."""
        self.window.statusBar().showMessage(text.splitlines()[0], 60_000)
        QApplication.alert(self.window)
        self._pending_notices.append(text)
        if not self.window.busy:
            self._flush_notices()

    @Slot()
    def _flush_notices(self, *_args: object) -> None:
        while self._pending_notices:
            self.window.chat_view.add_notice(self._pending_notices.pop(0), "note")

    # -- dialogs -----------------------------------------------------------------------------

    def open_folders(self) -> FoldersDialog:
        if self.folders_service is None:
            self.folders_service = FoldersService(self._data_dir())
            self._moved(self.folders_service)
        fixed = self.window.worker.command_line_folders
        self.folders_dialog = FoldersDialog(self.folders_service, fixed, self.window)
        self.folders_dialog.changed.connect(self.window.worker.folders_changed.set)
        self.folders_dialog.open()
        return self.folders_dialog

    def open_privacy(self) -> PrivacyDialog:
        if self.privacy_service is None:
            self.privacy_service = PrivacyService(self._data_dir())
            self._moved(self.privacy_service)
        self.privacy_dialog = PrivacyDialog(self.privacy_service, self.window)
        self.privacy_dialog.deleted.connect(self._history_deleted)
        self.privacy_dialog.open()
        return self.privacy_dialog

    @Slot()
    def _history_deleted(self) -> None:
        """The saved conversations are gone: start an empty one and refresh the sidebar."""
        conversations = getattr(self.window, "conversations", None)
        if conversations is not None:
            conversations.sidebar.new_requested.emit()
            conversations.request_refresh.emit()

    def shutdown(self) -> None:
        if self.notifier is not None:
            self.notifier.stop()
        if self.tray is not None:
            self.tray.hide()
        if self.thread is None:
            return
        for service in (self.folders_service, self.reminder_service):
            if service is not None:  # close their databases in the thread that opened them
                QMetaObject.invokeMethod(
                    service, "close", Qt.ConnectionType.BlockingQueuedConnection
                )
        self.thread.quit()
        self.thread.wait(30_000)  # a VACUUM of a large database can take a while
