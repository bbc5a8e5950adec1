"""The main window's place and size, kept between runs (users expect the window back where
they left it). Read once at start, before the window shows; saved at quit on the store thread,
so the GUI thread never writes to the disk."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QByteArray, QSize, Slot
from sqlalchemy.exc import SQLAlchemyError

from app.store.database import Database
from app.store.settings import WINDOW_GEOMETRY, SettingsStore
from app.ui.data_service import DataService

log = logging.getLogger(__name__)

DEFAULT_SIZE = QSize(860, 640)
SCREEN_SHARE = 0.9  # a first window never covers more of the screen than this


def saved_geometry(data_dir: Path) -> QByteArray | None:
    """The geometry saved at the last quit, or None (first run, or it cannot be read: the
    window then opens at its default size, nothing else is lost)."""
    try:
        database = Database.open(data_dir)
    except (SQLAlchemyError, OSError, RuntimeError) as exc:
        log.warning("the window's saved size could not be read: %s", exc)
        return None
    try:
        value = SettingsStore(database).get(WINDOW_GEOMETRY)
    except SQLAlchemyError as exc:
        log.warning("the window's saved size could not be read: %s", exc)
        return None
    finally:
        database.close()
    if not isinstance(value, str) or not value:
        return None
    return QByteArray.fromBase64(value.encode("ascii", "ignore"))


def first_size(available: QSize) -> QSize:
    """The default size, shrunk to fit the screen's free area: at 2x scaling a 1280x800 screen
    is 640x400 logical pixels, and a fixed 860x640 window would put Send off screen."""
    return QSize(
        min(DEFAULT_SIZE.width(), int(available.width() * SCREEN_SHARE)),
        min(DEFAULT_SIZE.height(), int(available.height() * SCREEN_SHARE)),
    )


def encode(geometry: QByteArray) -> str:
    return bytes(geometry.toBase64().data()).decode("ascii")


class WindowStateService(DataService):
    """Saves the geometry in the store thread (`save` is reached by a queued signal)."""

    what = "the window's size"

    @Slot(str)
    def save(self, geometry: str) -> None:
        try:
            SettingsStore(self._opened()).set(WINDOW_GEOMETRY, geometry)
        except (SQLAlchemyError, OSError, RuntimeError) as exc:
            # Losing the window's size is not worth an error message at quit.
            log.warning("the window's size was not saved: %s", exc)

    @Slot()
    def close(self) -> None:
        super().close()
