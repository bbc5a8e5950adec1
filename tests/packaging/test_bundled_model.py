"""The installed (frozen) app answers on the model it ships, and never writes into its bundle."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.llm import embedded


def _sparse_model(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        handle.truncate(embedded.SIZE)  # the right size without 98 MB of disk
    return path


@pytest.fixture
def frozen_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bundle = tmp_path / "bundle"
    _sparse_model(bundle / "models" / embedded.FILENAME)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    return bundle


def test_a_checkout_uses_the_data_folder(tmp_path: Path) -> None:
    assert embedded.bundled_model_path() is None
    assert embedded.embedded_model_path(tmp_path) == tmp_path / "models" / embedded.FILENAME


def test_an_installed_app_uses_its_bundled_model(frozen_bundle: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    bundled = frozen_bundle / "models" / embedded.FILENAME
    assert embedded.embedded_model_path(data) == bundled
    assert embedded.ensure_embedded_model(data, verify=False) == bundled
    assert sorted(p.name for p in bundled.parent.iterdir()) == [embedded.FILENAME]


def test_a_copy_in_the_data_folder_wins(frozen_bundle: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    own = _sparse_model(data / "models" / embedded.FILENAME)
    assert embedded.embedded_model_path(data) == own


def test_a_bundle_with_a_damaged_model_is_not_used(frozen_bundle: Path, tmp_path: Path) -> None:
    (frozen_bundle / "models" / embedded.FILENAME).write_bytes(b"GGUF")
    data = tmp_path / "data"
    assert embedded.embedded_model_path(data) == data / "models" / embedded.FILENAME
