"""An index pass in a child process, so the window never waits on it.

Measured (bench/documents.py): a pass in a thread of the app's own process held the
interpreter lock for up to 1.3 s at a time on 10,000 files (python-docx's XML parsing and the
garbage collections it sets off run without letting go of it), and every Python slot of the
window, a key press in the chat box included, waits for that lock. In a child process the
pass has its own interpreter: the window's thread only waits on a queue.

The child runs `index_folders` on its own connection to the database (SQLite's WAL lets it
write while the app reads), at a lower priority, and sends its progress and its report back.
Where the data folder holds the embedding model, the child also embeds the new passages
(issue #39): the model's work is the child's too, never the window's.
Stopping sets an event the child checks between two files. The child is started with
"spawn" (no copy of the parent's threads and locks); a frozen app needs
`multiprocessing.freeze_support()` at the start of its main for that.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import queue
import time
from collections.abc import Callable, Sequence
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

from app.agent.documents.document_index import IndexReport, ProgressSink, index_folders

PROGRESS_EVERY = 0.25  # seconds between two progress messages from the child
POLL_SECONDS = 0.2  # how often the parent looks at its stop flag while it waits
LOWER_PRIORITY = 10  # the child's nice value: it yields to the window and the model


class IndexFailed(RuntimeError):
    """The pass could not run (the database could not be opened, the child died); the
    message is for the person."""


def index_in_child(
    data_dir: Path,
    folders: Sequence[Path],
    *,
    progress: ProgressSink | None = None,
    should_stop: Callable[[], bool] = lambda: False,
    forget_other_folders: bool = True,
) -> IndexReport:
    """`index_folders` on the data folder's database, run in a child process; blocks the
    calling thread (never the GUI thread) until the child is done or has stopped."""
    context = multiprocessing.get_context("spawn")
    messages: Any = context.Queue()
    stop = context.Event()
    child = context.Process(
        target=_child,
        args=(
            str(data_dir),
            [str(folder) for folder in folders],
            messages,
            stop,
            forget_other_folders,
        ),
        name="hearth-document-index",
        daemon=True,  # never outlives the app
    )
    child.start()
    try:
        while True:
            if should_stop():
                stop.set()
            try:
                message = messages.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if child.is_alive():
                    continue
                raise IndexFailed(
                    f"the indexing process ended unexpectedly (exit code {child.exitcode})"
                ) from None
            kind, payload = message
            if kind == "progress" and progress is not None:
                progress(*payload)
            elif kind == "done":
                return IndexReport(**payload)
            elif kind == "failed":
                raise IndexFailed(payload)
    finally:
        stop.set()
        child.join(timeout=30)
        if child.is_alive():  # pragma: no cover - a child stuck in a parser
            child.kill()
            child.join()
        messages.close()


def _child(
    data_dir: str, folders: list[str], messages: Any, stop: Event, forget_other_folders: bool
) -> None:
    """The child's whole life: one pass, its progress and its report on `messages`."""
    with contextlib.suppress(OSError):
        os.nice(LOWER_PRIORITY)
    last = 0.0

    def progress(done: int, total: int, path: str) -> None:
        nonlocal last
        now = time.monotonic()
        if done == total or now - last >= PROGRESS_EVERY:
            last = now
            messages.put(("progress", (done, total, path)))

    try:
        from app.llm.embeddings import embedder_for
        from app.store.database import Database

        database = Database.open(Path(data_dir))
        try:
            report = index_folders(
                database,
                [Path(f) for f in folders],
                progress=progress,
                should_stop=stop.is_set,
                forget_other_folders=forget_other_folders,
                embedder=embedder_for(Path(data_dir)),  # None: no model, no dense tier
            )
        finally:
            database.close()
        messages.put(("done", dataclasses.asdict(report)))
    except Exception as exc:  # reported to the app, which logs it and tries again later
        messages.put(("failed", f"{type(exc).__name__}: {exc}"))
