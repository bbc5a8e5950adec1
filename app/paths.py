"""Where the app keeps user data: per-user folders, never the install folder."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_path, user_data_path

from app import APP_NAME

# Lets tests, the `ask` command and portable installs point the app at another folder.
DATA_DIR_ENV = "HEARTH_DATA_DIR"
CACHE_DIR_ENV = "HEARTH_CACHE_DIR"  # likewise for the cache (the tests give each run its own)
# The data folder's sub-folders, named once for the start-up, the downloader and the Privacy panel.
MODELS_FOLDER = "models"
LOGS_FOLDER = "logs"
PROMPT_PREFIXES_FOLDER = "prompt-prefixes"  # in the cache folder: app/llm/prefix_store.py


def data_dir(override: Path | str | None = None, create: bool = True) -> Path:
    """The folder for models, the database and logs; created on first use.

    The GUI thread passes create=False: it never waits on the disk, and the start-up (or the
    worker that opens the database) has created the folder already."""
    if override is not None:
        path = Path(override)
    elif os.environ.get(DATA_DIR_ENV):
        path = Path(os.environ[DATA_DIR_ENV])
    else:
        path = user_data_path(APP_NAME, appauthor=False)
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def cache_dir() -> Path:
    """The per-user cache folder: copies that only save time, never data (not created here)."""
    root = os.environ.get(CACHE_DIR_ENV)
    return Path(root) if root else user_cache_path(APP_NAME, appauthor=False)


def models_dir(override: Path | str | None = None) -> Path:
    path = data_dir(override) / MODELS_FOLDER
    path.mkdir(parents=True, exist_ok=True)
    return path


def resources_dir() -> Path:
    """The shipped resources folder (next to the `app` package, or inside a frozen bundle)."""
    return Path(__file__).resolve().parent.parent / "resources"
