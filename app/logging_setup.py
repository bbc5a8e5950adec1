"""Logging to a file in the data folder. Conversation text and secrets are never logged."""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

from app.paths import LOGS_FOLDER


def configure_logging(data_dir: Path, level: int = logging.INFO) -> Path:
    log_dir = data_dir / LOGS_FOLDER
    log_dir.mkdir(parents=True, exist_ok=True)
    path = log_dir / "hearth.log"
    handler = logging.handlers.RotatingFileHandler(
        path, maxBytes=2_000_000, backupCount=3, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)
    return path
