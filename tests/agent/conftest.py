"""Fixtures the agent tests share: a fresh database in the test's own folder, and the document
index's real documents (`tests/agent/documents.py`). A module that needs another kind defines
its own fixture of the same name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.store.database import Database
from tests.agent.documents import fresh_database, write_documents


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    yield from fresh_database(tmp_path)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return write_documents(tmp_path)
