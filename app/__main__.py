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
    from app.ui.launch import open_window  # Qt is imported only here, for the window

    return open_window(args, folder, model, choice, first_run_done)


if __name__ == "__main__":
    raise SystemExit(main())
