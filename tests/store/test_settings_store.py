"""SettingsStore: JSON values survive a reopen; update is all or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.store.database import Database
from app.store.settings import MODEL_N_CTX, MODEL_PATH, MODEL_THINKING, SettingsStore


def test_values_round_trip_and_survive_reopen(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    store = SettingsStore(database)
    assert store.get(MODEL_PATH) is None and store.get(MODEL_N_CTX, 8192) == 8192
    store.set(MODEL_PATH, "/models/qwen.gguf")
    store.update({MODEL_N_CTX: 4096, MODEL_THINKING: True})
    store.set(MODEL_N_CTX, 2048)
    database.close()
    reopened = SettingsStore(Database.open(tmp_path))
    assert reopened.all() == {
        MODEL_PATH: "/models/qwen.gguf",
        MODEL_N_CTX: 2048,
        MODEL_THINKING: True,
    }
    reopened.delete(MODEL_PATH)
    assert reopened.get(MODEL_PATH, "none") == "none"


def test_update_with_an_unencodable_value_changes_nothing(tmp_path: Path) -> None:
    store = SettingsStore(Database.open(tmp_path))
    store.set(MODEL_N_CTX, 4096)
    with pytest.raises(TypeError):
        store.update({MODEL_N_CTX: 1024, MODEL_PATH: object()})
    assert store.get(MODEL_N_CTX) == 4096 and store.get(MODEL_PATH) is None
