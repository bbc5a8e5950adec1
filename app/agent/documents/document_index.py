"""Keeping the document index in step with the allowed folders (issue #23).

One pass: list every folder (sizes and modification times only), forget the files that are
gone and the folders no longer allowed, then read just the files that are new or changed and
store their passages. A pass can stop between two files (the user paused, the app is
closing) and the next one carries on where it stopped, since finished files are unchanged.

Every file is read with the files connector's own `read_file`, so the index can never hold
text the file tools could not read: the same confinement to the allowed folders, no hidden
files, no symlinks, no hard links. Whatever goes wrong with one file (a damaged PDF, a
program named .txt, a file deleted mid-pass, no permission) is stored as that file's problem
and reported; it never stops the pass. A file with a problem is tried again once it changes.

Given an embedding model (issue #39), the pass then embeds every passage that has no vector
of that model yet, a batch at a time (stoppable between two batches): the new ones, and all
of them the first time a model is in place. Without one nothing of that runs.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.store.database import Database
from app.store.documents import DocumentStore, IndexedDocument, QueryEmbedder
from connectors.files import FileAccessError, Folders, FoundFile, read_file, walk_files
from connectors.files.passages import split_passages

log = logging.getLogger(__name__)

INDEXED_SUFFIXES = frozenset(
    {".txt", ".text", ".md", ".markdown", ".csv", ".tsv", ".rst", ".org", ".pdf", ".docx"}
)
# A huge text file (a log, an export) is indexed this far and the report says so.
MAX_INDEX_CHARS = 1_000_000
MAX_TITLE = 150
# Passages are written in small transactions, so a chat saving its messages never waits long.
BATCH_FILES = 50
BATCH_SECONDS = 1.0
EMBED_BATCH = 32  # passages embedded (and stored) at a time

# (files done, files to read, the path being read) after each file.
ProgressSink = Callable[[int, int, str], None]


@dataclass
class IndexReport:
    """What one pass did; `complete` is False when it was stopped before the end."""

    complete: bool = True
    seen: int = 0  # files of an indexed kind in the folders
    read: int = 0  # new or changed files read in this pass
    removed: int = 0  # files forgotten: deleted, or in a folder no longer allowed
    problems: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    embedded: int = 0  # passages given a vector by the embedding model


def index_folders(
    database: Database,
    folders: Sequence[Path],
    *,
    progress: ProgressSink | None = None,
    should_stop: Callable[[], bool] = lambda: False,
    forget_other_folders: bool = True,
    embedder: QueryEmbedder | None = None,
) -> IndexReport:
    """Bring the index up to date with `folders` (the allowed folders, in the user's order),
    and give each passage its vector when an `embedder` is given.

    Blocking, and slow on a large folder: never call it on the GUI thread. A folder that is
    not there now (an unplugged disk) keeps its passages until it is removed from the list.
    `forget_other_folders=False` keeps the passages of folders not in `folders`: the `ask`
    command is given a few folders for one turn, and must not forget the window's."""
    store = DocumentStore(database)
    report = IndexReport()
    # One Folders per folder: a file is read relative to the folder it was found in.
    opened: dict[str, Folders] = {}
    for folder in folders:
        try:
            one = Folders([folder])
            opened.setdefault(one.roots[0].path, one)
        except FileAccessError as exc:
            report.problems.append((str(folder), exc.message))
    if forget_other_folders:
        allowed = {os.path.realpath(os.path.expanduser(str(folder))) for folder in folders}
        report.removed += store.keep_only(sorted(allowed | set(opened)))

    def problem(path: str, why: str) -> None:
        report.problems.append((path, why))

    to_read: list[FoundFile] = []
    for one in opened.values():
        root = one.roots[0]
        known = store.files(root.path)
        try:
            found = list(walk_files(root, INDEXED_SUFFIXES, problem, should_stop))
        except FileAccessError as exc:
            report.problems.append((root.given, exc.message))
            continue
        if should_stop():
            report.complete = False
            return report
        report.seen += len(found)
        present = {f.relative for f in found}
        report.removed += store.remove(root.path, [p for p in known if p not in present])
        for item in found:
            entry = known.get(item.relative)
            if entry is None or (entry.size, entry.modified_ns) != (item.size, item.modified_ns):
                to_read.append(item)

    batch: list[IndexedDocument] = []
    vanished: list[FoundFile] = []
    flushed = time.monotonic()
    for done, item in enumerate(to_read):
        if should_stop():
            report.complete = False
            break
        shown = _shown(item)
        if progress is not None:
            progress(done, len(to_read), shown)
        document = _read(opened[item.root.path], item, shown, report)
        if document is None:
            vanished.append(item)
        else:
            batch.append(document)
        report.read += 1
        if len(batch) >= BATCH_FILES or time.monotonic() - flushed > BATCH_SECONDS:
            store.put(batch)
            batch, flushed = [], time.monotonic()
    store.put(batch)
    for item in vanished:
        report.removed += store.remove(item.root.path, [item.relative])
    if progress is not None and report.complete:
        progress(len(to_read), len(to_read), "")
    if embedder is not None and report.complete:
        report.complete = embed_passages(store, embedder, report, should_stop)
    return report


def embed_passages(
    store: DocumentStore,
    embedder: QueryEmbedder,
    report: IndexReport,
    should_stop: Callable[[], bool] = lambda: False,
) -> bool:
    """Give every passage without one its vector; False if stopped before the end. A model
    that fails is reported once and the pass ends without vectors (the lexical tiers still
    answer)."""
    store.forget_vectors_except(embedder.model_id)
    while not should_stop():
        batch = store.unembedded(embedder.model_id, EMBED_BATCH)
        if not batch:
            return True
        try:
            vectors = embedder.embed([passage for _, passage in batch])
        except Exception as exc:  # a model that cannot run must not end the lexical index
            log.exception("document index: the embedding model failed")
            name = embedder.model_id.rsplit(":", 1)[0]
            report.problems.append((name, f"the passages could not be embedded ({exc})"))
            return True
        store.put_vectors(embedder.model_id, [i for i, _ in batch], vectors)
        report.embedded += len(batch)
    return False


def _read(
    folders: Folders, item: FoundFile, shown: str, report: IndexReport
) -> IndexedDocument | None:
    """The file's passages, or its problem; None if it was deleted since the folder was
    listed."""
    suffix = os.path.splitext(item.parts[-1])[1].casefold()
    try:
        text = read_file(folders, item.relative, MAX_INDEX_CHARS, headings=True)
    except FileAccessError as exc:
        if exc.reason == "not_found":
            report.problems.append((shown, "it was deleted while Hearth was indexing it"))
            return None
        report.problems.append((shown, exc.message))
        return _failed(item, exc.message)
    except Exception as exc:  # a parser's bug must not end the pass; the log has the details
        log.exception("document index: could not read a file")
        why = f"Hearth could not index '{shown}' ({type(exc).__name__})."
        report.problems.append((shown, why))
        return _failed(item, why)
    passages = split_passages(text.text, suffix, pages=text.pages, docx=text.kind == "docx")
    note = ""
    if text.truncated:
        note = (
            f"'{shown}' is large: only its first {MAX_INDEX_CHARS:,} characters were indexed "
            f"({text.size:,} bytes on disk)."
        )
        report.problems.append((shown, note))
    title = document_title(text.pages[0] if text.pages else text.text, suffix)
    return IndexedDocument(
        item.root.path, item.relative, text.size, text.modified_ns, passages, note, title
    )


def document_title(text: str, suffix: str) -> str:
    """The first heading, or else the first line, of a document: what it is about, which
    a passage deep inside often no longer says. None for a table (its header row goes with
    every passage already)."""
    if suffix in (".csv", ".tsv"):
        return ""
    lines = [line.strip() for line in text.splitlines()[:200] if line.strip()]
    heading = next((line for line in lines if line.startswith("#")), None)
    return (heading.lstrip("#").strip() if heading else lines[0] if lines else "")[:MAX_TITLE]


def _failed(item: FoundFile, why: str) -> IndexedDocument:
    """A file that could not be read: remembered with its problem, so it is only tried again
    once it changes."""
    return IndexedDocument(item.root.path, item.relative, item.size, item.modified_ns, (), why)


def _shown(item: FoundFile) -> str:
    return "/".join((item.root.given.rstrip("/"), *item.parts))
