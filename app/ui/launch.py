"""Opening the window: the Qt side of `python -m app`, so that `app/__main__.py` (which also
runs the `ask` command, with no Qt at all) never imports Qt itself."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from app import APP_NAME
from app.agent.services.model_choice import ModelChoice
from app.llm.catalog import CatalogEntry
from app.ui.gui_thread_gc import collect_on_gui_thread
from app.ui.main_window import MainWindow
from app.ui.window_state import saved_geometry


def open_window(
    args: argparse.Namespace,
    folder: Path,
    model: Path,
    choice: ModelChoice,
    first_run_done: bool,
) -> int:
    """Show the window for the parsed command line and run until it closes; the exit code."""
    qt_app = QApplication(sys.argv[:1])
    qt_app.setApplicationName(APP_NAME)
    collect_on_gui_thread(qt_app)  # Qt objects must never be freed on a worker thread
    window = build_window(args, folder, model, choice, first_run_done)
    if args.smoke_test:
        from app.ui.smoke import start

        start(window, qt_app, args.smoke_test)
    return qt_app.exec()


def build_window(
    args: argparse.Namespace,
    folder: Path,
    model: Path,
    choice: ModelChoice,
    first_run_done: bool,
    catalog: list[CatalogEntry] | None = None,
) -> MainWindow:
    """The window as `python -m app` shows it, with the first-run guide open at a first
    start (`catalog`: another model catalog, for tests)."""
    folders = [path.expanduser().resolve() for path in args.allow_folder]
    remote = choice.backend == "remote" and not (args.model or args.script)
    guide = not args.script and not args.model and not first_run_done
    model = model.expanduser().resolve()
    window = MainWindow(
        model,
        settings=choice.runtime_settings(),
        data_dir=folder,
        folders=folders,
        model_choice=choice if remote else None,
        saved_choice=choice,  # thinking and temperature, from the first turn
        geometry=saved_geometry(folder),
        # A first start on an empty data folder: the guide chooses, no "model missing" error.
        load_at_start=remote or not guide or model.is_file(),
    )
    if not args.script:
        from app.llm.catalog import load_catalog

        # Read before the window shows: Settings → Models… must not read it on the GUI thread.
        window.model_menu.catalog = catalog if catalog is not None else load_catalog()
    window.show()
    if not args.script:
        window.model_menu.start()  # picks up a download that was running at the last quit
        if guide:
            window.model_menu.open_first_run()
    return window
