"""The base of a settings dialog's service: a QObject on its own thread that opens the data
folder's database there on first use, so the dialog never waits on the disk."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject

from app.store.database import Database

log = logging.getLogger(__name__)


class DataService(QObject):
    """Opens the database in this object's thread, keeps it until close(); a failure to
    open becomes the subclass's own error type, whose text is for the user."""

    what = "your settings"  # named in the log line when the database cannot be opened

    def __init__(self, data_dir: Path) -> None:
        super().__init__()
        self.data_dir = data_dir
        self._database: Database | None = None

    def _open_failed(self, message: str) -> Exception:
        return RuntimeError(message)

    def _opened(self) -> Database:
        if self._database is None:
            try:
                self._database = Database.open(self.data_dir)
            except Exception as exc:
                log.exception("could not open the database for %s", self.what)
                error = self._open_failed(f"Hearth could not open its database: {exc}")
                raise error from exc
        return self._database

    def close(self) -> None:
        if self._database is not None:
            self._database.close()
            self._database = None
