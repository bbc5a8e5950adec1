"""A first start on an empty data folder, as `python -m app` opens it (issue #38, item 2).

The window is built by the start-up's own code (app.ui.launch.build_window) on a data folder
with nothing in it; the catalog is the shipped one, with the default model's address pointed
at a port on 127.0.0.1 where nothing listens (no route to the model host). No model loads in
these tests: the guide opens, chooses, and a download that cannot start is reported in the
main window within seconds. tests/gui/test_first_run_real.py goes on to a tool call.
"""

from __future__ import annotations

import dataclasses
import socket
import time
from pathlib import Path

from PySide6.QtWidgets import QWizard

from app.__main__ import build_parser
from app.agent.services.model_choice import saved_start
from app.llm.catalog import CatalogEntry, load_catalog
from app.llm.embedded import QWEN_CODER, embedded_model_path
from app.ui.first_run import DOWNLOAD, FirstRunWizard
from app.ui.launch import build_window
from app.ui.main_window import MainWindow
from app.ui.model_manager import ModelManager

DEFAULT_ID = "qwen2.5-coder-0.5b-instruct-q4_k_m"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WAIT = 30_000


def refused_url() -> str:
    """An address on this machine where nothing listens: every connection is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/{QWEN_CODER.filename}"


def catalog_with(url: str) -> list[CatalogEntry]:
    """The shipped catalog, the default model served from `url`."""
    return [
        dataclasses.replace(entry, url=url) if entry.id == DEFAULT_ID else entry
        for entry in load_catalog()
    ]


def first_start(data_dir: Path, catalog: list[CatalogEntry]) -> MainWindow:
    """What `python -m app --data-dir DIR` does (app/__main__.py), up to the window."""
    args = build_parser().parse_args(["--data-dir", str(data_dir)])
    choice, done = saved_start(data_dir)
    model = args.model or choice.saved_file() or embedded_model_path(data_dir)
    return build_window(args, data_dir, model, choice, done, catalog)


def shoot(widget: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    widget.grab().save(str(ARTIFACTS / name))  # type: ignore[attr-defined]


def test_an_empty_data_folder_greets_with_the_guide_and_no_error(qtbot, data_dir: Path) -> None:
    """No red error behind the guide; the guide offers the README's default model first; a
    download that cannot reach its host is said in the main window within seconds, in one
    line with the one thing to do; the last page promises no built-in model that is not
    there."""
    window = first_start(data_dir, catalog_with(refused_url()))
    qtbot.addWidget(window)
    wizard = window.model_menu.wizard
    assert wizard is not None and wizard.isVisible()
    qtbot.waitUntil(lambda: window._restored, timeout=WAIT)  # the start-up has settled
    qtbot.wait(300)
    assert window.chat_view.plain_text().strip() == ""  # no notice at all before any choice
    assert "No model yet" in window.status_label.text()
    shoot(wizard, "first-run-1-welcome.png")

    qtbot.waitUntil(lambda: wizard.manager.survey is not None, timeout=WAIT)
    wizard.next()
    page = wizard.model_page
    assert page.choice() == DOWNLOAD and page.selected_entry_id() == DEFAULT_ID
    assert page.entries.itemData(0) == DEFAULT_ID  # offered first
    assert "(recommended)" in page.entries.currentText()
    assert page.download_radio.text() == "Download a model (recommended)"
    assert "491 MB download" in page.details.text()
    shoot(wizard, "first-run-2-model.png")

    started = time.monotonic()
    wizard.next()  # the download starts: the host refuses every connection
    assert wizard.manager.downloading == DEFAULT_ID
    window.input.setPlainText("Hello")
    window.send()  # too early: said kindly, and the message waits in the box
    assert "is still downloading" in window.chat_view.plain_text()
    assert window.input.toPlainText() == "Hello"
    shoot(wizard, "first-run-3-extras.png")
    wizard.next()
    summary = wizard.done_page.summary.text()
    assert "is downloading" in summary
    assert "built-in model" not in summary and "start chatting now" not in summary
    shoot(wizard, "first-run-4-done.png")
    qtbot.waitUntil(
        lambda: "could not be downloaded" in window.chat_view.plain_text(), timeout=WAIT
    )
    took = time.monotonic() - started
    assert took < 8, f"the failed download was reported after {took:.1f} s"
    said = window.chat_view.plain_text()
    assert "Qwen2.5-Coder 0.5B Instruct (Q4_K_M) could not be downloaded" in said
    assert "127.0.0.1 cannot be reached from this computer" in said
    assert "press Download again in Settings → Models…" in said
    assert "download failed" in window.status_label.text()
    wizard.button(QWizard.WizardButton.FinishButton).click()
    shoot(window, "first-run-5-download-failed.png")
    assert not window.model_ready
    print(f"download failure reported after {took:.2f} s")


def test_skipping_the_guide_says_what_to_do(qtbot, data_dir: Path) -> None:
    """Skip setup with no model: then (the user did something) the window says how to get
    one, rather than staying silent."""
    window = first_start(data_dir, catalog_with(refused_url()))
    qtbot.addWidget(window)
    wizard = window.model_menu.wizard
    assert wizard is not None
    wizard.button(QWizard.WizardButton.CancelButton).click()
    qtbot.waitUntil(lambda: "Settings → Models…" in window.chat_view.plain_text(), timeout=WAIT)
    assert not window.model_ready


def test_a_tool_model_in_place_is_offered_not_a_download(qtbot, data_dir: Path) -> None:
    """The default model already in the data folder (as `make run` leaves it): the guide
    offers to use it, recommends no download, and choosing it downloads nothing."""
    (data_dir / "models").mkdir()
    in_place = data_dir / "models" / QWEN_CODER.filename
    with in_place.open("wb") as sparse:  # the survey looks for the file, not inside it
        sparse.truncate(QWEN_CODER.size)
    manager = ModelManager(data_dir, catalog_with(refused_url()))
    wizard = FirstRunWizard(manager)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: manager.survey is not None, timeout=WAIT)
    wizard.next()
    page = wizard.model_page
    assert page.selected_entry_id() == DEFAULT_ID
    assert "on this computer" in page.entries.currentText()
    assert page.download_radio.text() == "Use a model on this computer (recommended)"
    assert "nothing to download" in page.details.text()
    for index in range(page.entries.count()):  # no download is recommended
        if page.entries.itemData(index) != DEFAULT_ID:
            assert "recommended" not in page.entries.itemText(index)
    chosen: list[object] = []
    manager.model_file.connect(chosen.append)
    wizard.next()
    assert manager.downloading is None
    qtbot.waitUntil(lambda: chosen == [str(in_place)], timeout=WAIT)
    wizard.next()
    assert "Hearth will use Qwen2.5-Coder 0.5B" in wizard.done_page.summary.text()
    wizard.close()
    manager.shutdown()
