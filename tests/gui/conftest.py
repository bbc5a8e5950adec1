"""Fixtures the GUI tests share (a module that needs another kind defines its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.store.database import Database


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """The app's data folder, migrated, as the app's start leaves it."""
    folder = tmp_path / "data"
    folder.mkdir()
    Database.open(folder).close()
    return folder
