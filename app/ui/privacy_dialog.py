"""Settings → Privacy…: what Hearth stores where, and a button that deletes every
conversation and memory. The delete (and the VACUUM that makes it real) runs in
``PrivacyService`` on a worker thread; the dialog only asks first and shows the outcome."""

from __future__ import annotations

import html
import logging
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.store.database import Database
from app.store.privacy import DeleteReport, StoragePlaces, delete_conversations_and_memories

log = logging.getLogger(__name__)

DELETE_TEXT = "Delete all conversations and memories"
CONFIRM_TEXT = (
    "Delete every conversation, everything Hearth remembers, all reminders and the activity "
    "list? This cannot be undone.\n\nYour accounts, allowed folders, permissions, settings and "
    "models stay."
)


def describe(places: StoragePlaces) -> str:
    """The panel's text, as rich text with the real paths."""

    def path(p: Path) -> str:
        return f"<code>{html.escape(str(p))}</code>"

    return (
        f"<p>Everything Hearth keeps is on this computer, in its data folder "
        f"{path(places.data_dir)}:</p><ul>"
        f"<li><b>Conversations, memories, reminders, the activity list, accounts (without "
        f"passwords), allowed folders and settings</b>: in the database {path(places.database)} "
        f"(SQLite, with its <code>-wal</code> journal next to it).</li>"
        f"<li><b>Technical logs</b> (errors and timings, never what you write or read): in "
        f"{path(places.logs)}.</li>"
        f"<li><b>Models</b> you downloaded: in {path(places.models)}.</li>"
        f"<li><b>Passwords</b> of your mail and calendar accounts are only in your system's "
        f"keyring, never in these files.</li></ul>"
        f"<p>Besides, a <b>cache</b> in {path(places.prompt_cache)} keeps the model's state "
        f"after its instructions and tool descriptions (no conversation, memory or account), "
        f"so that the first reply comes sooner; deleting it loses nothing else.</p>"
        f"<p>Hearth sends no telemetry and no usage data. Something leaves this computer only "
        f"when a tool you approved sends it (an email, a web search, a calendar change).</p>"
    )


class PrivacyService(QObject):
    """Runs the delete off the GUI thread; every slot runs in the thread this lives in."""

    deleted = Signal(object)  # DeleteReport
    failed = Signal(str)  # a message for the user

    def __init__(self, data_dir: Path) -> None:
        super().__init__()
        self.data_dir = data_dir

    @Slot()
    def delete_all(self) -> None:
        try:
            database = Database.open(self.data_dir)
            try:
                report = delete_conversations_and_memories(database)
            finally:
                database.close()
        except Exception as exc:
            log.exception("privacy: delete failed")
            self.failed.emit(f"Hearth could not delete everything: {exc}")
            return
        log.info(
            "privacy: deleted %d conversations, %d memories, %d reminders",
            report.conversations,
            report.memories,
            report.reminders,
        )
        self.deleted.emit(report)


class PrivacyDialog(QDialog):
    """`deleted` fires once the data is gone, so the window can clear what it shows."""

    deleted = Signal()
    request_delete = Signal()

    def __init__(self, service: PrivacyService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Privacy")
        self.resize(600, 420)
        self.places = StoragePlaces.of(service.data_dir)
        self.text = QLabel(describe(self.places))
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.delete_button = QPushButton(DELETE_TEXT)
        self.delete_button.setAccessibleName(DELETE_TEXT)
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        # Focus and Enter never start on the destructive button (it asks again, but still).
        self.delete_button.setAutoDefault(False)
        close = self.buttons.button(QDialogButtonBox.StandardButton.Close)
        close.setDefault(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.delete_button)
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)
        # Only once the button is in this dialog: Qt ignores a focus asked for before (the
        # focus then fell to the first button, Delete all).
        close.setFocus()
        self.delete_button.clicked.connect(lambda: self.delete_all())
        self.request_delete.connect(service.delete_all)
        service.deleted.connect(self._on_deleted)
        service.failed.connect(self._on_failed)

    def delete_all(self, confirm: bool = True) -> bool:
        """Ask first (a real dialog unless `confirm` is False), then delete. Returns whether
        the delete was started."""
        if confirm:
            answer = QMessageBox.question(
                self,
                DELETE_TEXT,
                CONFIRM_TEXT,
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                return False
        self.delete_button.setEnabled(False)
        self.notice.setText("Deleting…")
        self.request_delete.emit()
        return True

    @Slot(object)
    def _on_deleted(self, report: DeleteReport) -> None:
        self.delete_button.setEnabled(True)
        self.notice.setText(
            f"Deleted {report.conversations} conversation(s), {report.memories} memory(ies) and "
            f"{report.reminders} reminder(s). The database file was compacted so the text is "
            "gone from disk too."
        )
        self.deleted.emit()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.delete_button.setEnabled(True)
        self.notice.setText(message)
