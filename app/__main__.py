"""Start the app: `python -m app [--model PATH] [--data-dir DIR]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app import APP_NAME, __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m app",
        description=f"{APP_NAME} assistant. `python -m app ask --help` runs one turn without a "
        "window.",
    )
    parser.add_argument("--model", type=Path, help="a GGUF model file to use")
    parser.add_argument(
        "--script",
        type=Path,
        help="replay scripted model outputs from a JSON file (demos, bug reports)",
    )
    parser.add_argument(
        "--allow-folder",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a folder the assistant may read and write",
    )
    parser.add_argument("--data-dir", type=Path, help="where to keep models, logs and data")
    parser.add_argument(
        "--smoke-test",
        metavar="MESSAGE",
        help="check an install: answer MESSAGE in the window, print JSON lines, quit",
    )
    parser.add_argument("--version", action="version", version=f"{APP_NAME} {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["ask"]:
        from app import ask

        parser = argparse.ArgumentParser(
            prog="python -m app ask", description="Run one turn of the assistant"
        )
        ask.add_arguments(parser)
        return ask.run(parser.parse_args(argv[1:]))
    args = build_parser().parse_args(argv)
    from app.paths import data_dir

    folder = data_dir(args.data_dir)
    from app.logging_setup import configure_logging

    configure_logging(folder)
    from app.agent.services.model_choice import saved_start
    from app.llm.embedded import embedded_model_path

    # Settings → Model… and Models…, read once; an explicit --model or --script wins.
    choice, first_run_done = saved_start(folder)
    model = args.script or args.model or choice.saved_file() or embedded_model_path(folder)
    from PySide6.QtWidgets import QApplication

    from app.ui.gui_thread_gc import collect_on_gui_thread
    from app.ui.main_window import MainWindow
    from app.ui.window_state import saved_geometry

    qt_app = QApplication(sys.argv[:1])
    qt_app.setApplicationName(APP_NAME)
    collect_on_gui_thread(qt_app)  # Qt objects must never be freed on a worker thread
    folders = [path.expanduser().resolve() for path in args.allow_folder]
    remote = choice.backend == "remote" and not (args.model or args.script)
    window = MainWindow(
        model.expanduser().resolve(),
        settings=choice.runtime_settings(),
        data_dir=folder,
        folders=folders,
        model_choice=choice if remote else None,
        saved_choice=choice,  # thinking and temperature, from the first turn
        geometry=saved_geometry(folder),
    )
    if not args.script:
        from app.llm.catalog import load_catalog

        # Read before the window shows: Settings → Models… must not read it on the GUI thread.
        window.model_menu.catalog = load_catalog()
    window.show()
    if not args.script:
        window.model_menu.start()  # picks up a download that was running at the last quit
        if not args.model and not first_run_done:
            window.model_menu.open_first_run()
    if args.smoke_test:
        from app.ui.smoke import start

        start(window, qt_app, args.smoke_test)
    return qt_app.exec()


if __name__ == "__main__":
    raise SystemExit(main())
