"""Settings → Model…: saving, reloading onto a real model server, and Test connection."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.agent.services.model_choice import API_KEY_NAME, ModelChoice
from app.store.database import Database
from app.store.settings import SettingsStore
from app.ui.main_window import MainWindow
from app.ui.model_settings_dialog import ModelSettingsDialog, ModelSettingsService
from tests.llm_server import ServerProcess, free_port, llama_server
from tests.support.secret_service import SecretService

WAIT = 60_000


@pytest.fixture(scope="module")
def server(smollm2_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with llama_server(smollm2_path, tmp_path_factory.mktemp("srv") / "server.log") as process:
        yield process


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SettingsStore]:
    database = Database.open(tmp_path)
    yield SettingsStore(database)
    database.close()


def make_dialog(qtbot, store: SettingsStore) -> ModelSettingsDialog:
    service = ModelSettingsService(store=store, read_key=False)
    dialog = ModelSettingsDialog(service, Path("/models/small.gguf"))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.ready, timeout=WAIT)  # the settings are read in a thread
    return dialog


def open_panel(qtbot, window: MainWindow) -> ModelSettingsDialog:
    """Settings → Model…, once the saved settings and the keyring have been read."""
    dialog = window.model_settings.open()
    qtbot.waitUntil(lambda: dialog.ready, timeout=WAIT)
    return dialog


def test_save_and_reopen(qtbot, store: SettingsStore) -> None:
    dialog = make_dialog(qtbot, store)
    assert dialog.local_radio.isChecked()
    assert dialog.path_edit.text() == "/models/small.gguf"
    dialog.context_box.setCurrentIndex(dialog.context_box.findData(4096))
    dialog.threads_box.setValue(3)
    dialog.thinking_check.setChecked(True)
    dialog.temperature_box.setValue(0.3)
    with qtbot.waitSignal(dialog.saved, timeout=WAIT) as saved:
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    choice, reload = saved.args
    assert reload  # context size and threads need a reload
    assert (choice.n_ctx, choice.threads, choice.thinking) == (4096, 3, True)
    assert ModelChoice.load(store) == ModelChoice(
        backend="local",
        path="/models/small.gguf",
        n_ctx=4096,
        threads=3,
        thinking=True,
        temperature=0.3,
    )

    again = make_dialog(qtbot, store)
    assert again.context_box.currentData() == 4096
    assert again.threads_box.value() == 3
    assert again.thinking_check.isChecked()
    again.temperature_box.setValue(1.0)  # only the next turn changes: no reload
    with qtbot.waitSignal(again.saved, timeout=WAIT) as saved:
        again.save()
    assert saved.args[1] is False
    assert store.get("model.temperature") == 1.0

    server_choice = make_dialog(qtbot, store)
    server_choice.remote_radio.setChecked(True)
    assert not server_choice.local_group.isEnabled()
    server_choice.url_edit.setText("http://192.168.1.5:8080/v1")
    server_choice.model_edit.setText("qwen3")
    with qtbot.waitSignal(server_choice.saved, timeout=WAIT) as saved:
        server_choice.save()
    assert saved.args[1] is True
    assert store.get("model.backend") == "remote"
    assert store.get("remote.base_url") == "http://192.168.1.5:8080/v1"
    assert "api" not in json.dumps(store.all()).lower()  # no key in the database


def test_server_needs_an_address(qtbot, store: SettingsStore) -> None:
    dialog = make_dialog(qtbot, store)
    dialog.remote_radio.setChecked(True)
    dialog.save()
    assert "address" in dialog.error_label.text()
    assert store.get("model.backend") is None


def test_test_connection_success_and_failure(
    qtbot, store: SettingsStore, server: ServerProcess
) -> None:
    dialog = make_dialog(qtbot, store)
    dialog.remote_radio.setChecked(True)
    dialog.url_edit.setText(server.base_url)
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.test_label.text().startswith("✓"), timeout=WAIT)
    assert "Hearth renders the prompts" in dialog.test_label.text()

    dialog.model_edit.setText("no-such-model")
    dialog.start_test()
    qtbot.waitUntil(lambda: dialog.test_label.text().startswith("✗"), timeout=WAIT)
    assert "no model named “no-such-model”" in dialog.test_label.text()

    dialog.model_edit.setText("")
    dialog.url_edit.setText(f"http://127.0.0.1:{free_port()}/v1")
    dialog.start_test()
    qtbot.waitUntil(lambda: dialog.test_button.isEnabled(), timeout=WAIT)
    qtbot.waitUntil(lambda: dialog.test_label.text().startswith("✗"), timeout=WAIT)
    assert "nothing is listening" in dialog.test_label.text()


def test_saving_a_server_reloads_onto_it(qtbot, tmp_path: Path, server: ServerProcess) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Scripted hello."]}))
    data = tmp_path / "data"
    data.mkdir()
    # Migrate first, as the app's start does: threads opening a new database at once race.
    Database.open(data).close()
    window = MainWindow(script, data_dir=data)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)

    dialog = open_panel(qtbot, window)
    dialog.remote_radio.setChecked(True)
    dialog.url_edit.setText(server.base_url)
    dialog.temperature_box.setValue(0.2)
    with qtbot.waitSignal(dialog.saved, timeout=WAIT):  # written in a thread
        dialog.save()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
    assert "on 127.0.0.1 · ready" in window.status_label.text()
    assert window.worker.choice is not None and window.worker.choice.temperature == 0.2

    window.worker.sampling.max_tokens = 24
    window.input.setPlainText("Hello!")
    window.send()
    qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    assert "on 127.0.0.1" in window.status_label.text()
    assert window.worker.sampling.temperature == 0.2  # applied for the turn

    # Saved: the next start goes to the server too.
    database = Database.open(data)
    try:
        assert ModelChoice.load(SettingsStore(database)).base_url == server.base_url
    finally:
        database.close()
    window.close()


SECRET = "sk-local-5521-not-in-the-database"


def test_a_keyring_that_refuses_the_key_is_said_without_a_model(
    qtbot, store: SettingsStore
) -> None:
    """The service hears why the key was not saved as a sentence (the UI never handles the
    keyring's own exceptions), and the rest of the choice is saved."""
    import keyring
    from keyring.backends import fail

    saved_backend = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # no password store at all on this "computer"
    try:
        service = ModelSettingsService(store=store, read_key=False)
        choice = ModelChoice(backend="remote", base_url="http://127.0.0.1:9/v1", api_key=SECRET)
        with qtbot.waitSignal(service.saved, timeout=WAIT) as blocker:
            service.save(choice)
    finally:
        keyring.set_keyring(saved_backend)
    notice = blocker.args[1]
    assert "password store" in notice and "only until you close Hearth" in notice
    assert SECRET not in notice
    assert ModelChoice.load(store).base_url == "http://127.0.0.1:9/v1"


@pytest.fixture(scope="module")
def locked_server(
    smollm2_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    log = tmp_path_factory.mktemp("locked") / "server.log"
    with llama_server(smollm2_path, log, api_key=SECRET) as process:
        yield process


def test_the_api_key_lives_in_the_keyring_only(
    qtbot, tmp_path: Path, locked_server: ServerProcess, secret_service: SecretService
) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Scripted hello."]}))
    data = tmp_path / "data"
    data.mkdir()
    Database.open(data).close()
    window = MainWindow(script, data_dir=data)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)

    dialog = open_panel(qtbot, window)
    dialog.remote_radio.setChecked(True)
    dialog.url_edit.setText(locked_server.base_url)
    dialog.start_test()  # no key yet: refused, and said so
    qtbot.waitUntil(lambda: dialog.test_label.text().startswith("✗"), timeout=WAIT)
    assert "refused access (HTTP 401)" in dialog.test_label.text()
    dialog.key_edit.setText(SECRET)
    dialog.start_test()
    qtbot.waitUntil(lambda: dialog.test_label.text().startswith("✓"), timeout=WAIT)
    with qtbot.waitSignal(dialog.saved, timeout=WAIT):  # written in a thread
        dialog.save()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
    assert "on 127.0.0.1 · ready" in window.status_label.text()

    assert secret_service.backend.get_password("Hearth", API_KEY_NAME) == SECRET
    for stored in data.glob("hearth.db*"):
        assert SECRET.encode() not in stored.read_bytes()

    # As at the next start: the saved choice, the key read from the keyring by the worker.
    window.model_ready = False
    database = Database.open(data)
    try:
        saved = ModelChoice.load(SettingsStore(database))
    finally:
        database.close()
    assert saved.api_key is None
    window.load_choice(saved)
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
    assert "on 127.0.0.1" in window.status_label.text()

    again = open_panel(qtbot, window)
    assert again.has_stored_key
    assert "keyring" in again.key_edit.placeholderText()
    again.start_test()
    qtbot.waitUntil(lambda: again.test_label.text().startswith("✓"), timeout=WAIT)
    again.reject()
    window.close()


def test_a_local_file_with_its_runtime_settings_reloads(
    qtbot, tmp_path: Path, smollm2_path: Path
) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Scripted hello."]}))
    data = tmp_path / "data"
    data.mkdir()
    Database.open(data).close()
    window = MainWindow(script, data_dir=data)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)

    dialog = open_panel(qtbot, window)
    assert dialog.path_edit.text() == ""  # a replay script is not offered as a model file
    dialog.path_edit.setText(str(smollm2_path))
    dialog.context_box.setCurrentIndex(dialog.context_box.findData(2048))
    dialog.threads_box.setValue(1)
    with qtbot.waitSignal(dialog.saved, timeout=WAIT):  # written in a thread
        dialog.save()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
    assert window.worker.model is not None
    assert window.worker.model.settings.n_ctx == 2048
    assert window.worker.model.settings.n_threads == 1
    assert window.status_label.text().startswith("SmolLM2")
    assert window.model_path == smollm2_path
    window.close()


def test_without_a_safe_keyring_the_key_is_kept_in_memory_only(
    qtbot, tmp_path: Path, locked_server: ServerProcess
) -> None:
    import keyring
    from keyring.backends import fail

    saved_backend = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # no password store at all on this "computer"
    try:
        script = tmp_path / "script.json"
        script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Scripted hello."]}))
        data = tmp_path / "data"
        data.mkdir()
        Database.open(data).close()
        window = MainWindow(script, data_dir=data)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
        dialog = open_panel(qtbot, window)
        dialog.remote_radio.setChecked(True)
        dialog.url_edit.setText(locked_server.base_url)
        dialog.key_edit.setText(SECRET)
        with qtbot.waitSignal(dialog.saved, timeout=WAIT):  # written in a thread
            dialog.save()
        qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
        assert "on 127.0.0.1 · ready" in window.status_label.text()  # works for this session
        shown = window.chat_view.plain_text()
        assert "password store" in shown and "only until you close Hearth" in shown
        for stored in data.glob("hearth.db*"):
            assert SECRET.encode() not in stored.read_bytes()
        window.close()
    finally:
        keyring.set_keyring(saved_backend)
