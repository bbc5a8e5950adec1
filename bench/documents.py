"""The document index (issue #23) on a generated folder: how often the right passage is found,
what indexing costs, and how fast a question is answered.

    python bench/documents.py [--files 1000] [--scale 10000] [--questions 300] [--json out.json]
        [--no-meaning]

The corpus (`bench/doc_corpus.py`) has nine kinds of personal document, as PDF, Word,
Markdown, text and CSV, each kind many times over with different facts, and questions worded
as a person would ask them. Figures, each against a baseline measured in the same run:

- recall@5: a passage from the right file that holds the answer is among the top five;
  answer-in-context: the answer's words are in what `search_documents` hands the model (the
  passages cut to about 750 tokens); for the questions as asked, in other words, with a word
  inside a longer word of the text ("Kaution" in "Mietkaution": compound) and in a plural
  the text does not use ("Kautionen"), each against the word index alone and the word and
  trigram indexes fused (issue #39), with the query times of both and the trigram index's size;
- the tier by meaning (issue #39, the embedding model `app.llm.embedded.MINILM`, fetched
  unless --no-meaning): every kind of question above and questions by meaning (paraphrases
  with none of the document's topic words, and questions in another language), each against
  the word index alone, words + trigrams, and words + trigrams + meaning, in one run, with the
  query times; the embedding pass's time per 1,000 files and the vectors' size;
- index build time and database size per 1,000 files, against reading the same files with
  `read_file` (the text extraction alone) and against the files' size on disk;
- an incremental pass after one file changed, against a pass that finds nothing changed and
  against the full build;
- query time, against `search_files` (the substring search the model had before) looking for
  the question's subject;
- the longest stall of a main thread that wakes every millisecond (the GUI's event loop)
  while the index builds in a child process (as the app runs it), against the same probe
  idle and against a build in a thread of the same process.

With --scale, the build, incremental and query figures again on that many files.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _common import median, report  # first: it puts the checkout on sys.path

from app.agent.documents import document_index
from app.agent.documents.document_index import INDEXED_SUFFIXES, embed_passages, index_folders
from app.agent.documents.document_search import find_passages
from app.agent.documents.index_process import index_in_child
from app.llm.embedded import MINILM, ensure_embedding_model
from app.llm.embeddings import Embedder
from app.store.database import FILENAME, Database
from app.store.documents import DocumentStore, QueryEmbedder
from bench.doc_corpus import Question, make_corpus, reworded
from connectors.files import Folders, read_file, search_files


def quality(
    store: DocumentStore,
    folders: Folders,
    questions: list[Question],
    trigrams: bool = True,
    embedder: QueryEmbedder | None = None,
    words: bool = True,
) -> dict[str, Any]:
    """recall@5 and answer-in-context over `questions`, and the query times; `trigrams=False`
    searches the word index alone (the baseline of the trigram tier); `embedder` adds the tier
    by meaning; `words=False, trigrams=False` leaves that tier alone."""
    root = folders.roots[0].path
    found = in_context = 0
    times: list[float] = []
    for question in questions:
        start = time.perf_counter()
        hits = store.search(
            question.text, [root], limit=5, trigrams=trigrams, words=words, embedder=embedder
        )
        times.append(time.perf_counter() - start)
        if any(h.path == question.path and question.answer in h.text for h in hits):
            found += 1
        if trigrams:  # what search_documents hands the model (it always fuses)
            passages = find_passages(store, folders, question.text, embedder)
            in_context += question.answer in json.dumps(passages.content())
    figures = {
        "questions": len(questions),
        "recall_at_5": round(found / len(questions), 3) if questions else None,
        "query_ms_median": round(median(times) * 1000, 2),
        "query_ms_p95": round(sorted(times)[max(0, int(len(times) * 0.95) - 1)] * 1000, 2)
        if times
        else None,
    }
    if trigrams and questions:
        figures["answer_in_context"] = round(in_context / len(questions), 3)
    return figures


def both_tiers(
    store: DocumentStore,
    folders: Folders,
    questions: list[Question],
    embedder: QueryEmbedder | None = None,
) -> dict[str, Any]:
    """The same questions against the word index alone, against words + trigrams fused and,
    given an `embedder`, against words + trigrams + meaning fused and meaning alone."""
    words = quality(store, folders, questions, trigrams=False)
    fused = quality(store, folders, questions, trigrams=True)
    tiers = {"words_only": words, "words_and_trigrams": fused}
    if embedder is not None:
        tiers["words_trigrams_and_meaning"] = quality(store, folders, questions, True, embedder)
        tiers["meaning_only"] = quality(store, folders, questions, False, embedder, words=False)
    return tiers


def vector_bytes(database: Database) -> int:
    """The bytes the passages' vectors take (their table), from SQLite's dbstat."""
    with database.engine.connect() as connection:
        value = connection.exec_driver_sql(
            "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = 'passage_vectors'"
        ).scalar()
    return int(value or 0)


def meaning_tier(
    database: Database, data: Path, files: int, build_seconds: float, lexical_bytes: int
) -> tuple[Embedder, dict[str, Any]]:
    """The embedding pass over the built index, timed, and what the vectors cost."""
    ensure_embedding_model(data)  # the data folder's copy, as the app would have it
    embedder = Embedder(MINILM.path(data))
    store = DocumentStore(database)
    begin = time.perf_counter()
    embedder.embed(["warm up"])
    loaded = time.perf_counter() - begin
    begin = time.perf_counter()
    report = document_index.IndexReport()
    embed_passages(store, embedder, report)
    seconds = time.perf_counter() - begin
    size = database_bytes(database, data)
    vectors = vector_bytes(database)
    return embedder, {
        "model": MINILM.name,
        "model_mb": round(MINILM.size / 1e6, 1),
        "model_load_seconds": round(loaded, 2),
        "passages_embedded": report.embedded,
        "seconds_per_1000_files": round(seconds * 1000 / files, 1),
        "vs_lexical_build": round(seconds / build_seconds, 1),
        "passages_per_second": round(report.embedded / seconds, 1),
        "vectors_mb_per_1000_files": round(vectors / 1e6 * 1000 / files, 2),
        "database_growth": round(size / lexical_bytes, 2),
    }


def trigram_bytes(database: Database) -> int:
    """The bytes the trigram index takes (its FTS5 shadow tables), from SQLite's dbstat."""
    with database.engine.connect() as connection:
        value = connection.exec_driver_sql(
            "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'passages_trigram%'"
        ).scalar()
    return int(value or 0)


def subject_word(question: Question) -> str:
    """What a model would give search_files: the question's most specific word."""
    words = [w.strip("?.,") for w in question.text.split()]
    return max(words, key=lambda w: (any(c.isdigit() for c in w), w[:1].isupper(), len(w)))


def baseline_search(folders: Folders, questions: list[Question]) -> float:
    """Median seconds of search_files for the questions' subjects (a few: it reads every file)."""
    times = []
    for question in questions:
        start = time.perf_counter()
        search_files(folders, subject_word(question), limit=20)
        times.append(time.perf_counter() - start)
    return median(times)


def read_everything(folder: Path) -> float:
    """Seconds to extract the text of every indexable file, as the index pass does."""
    folders = Folders([folder])
    start = time.perf_counter()
    for path in folder.rglob("*"):
        if path.suffix.lower() in INDEXED_SUFFIXES and not path.name.startswith("."):
            read_file(folders, str(path.relative_to(folder)), 1_000_000, headings=True)
    return time.perf_counter() - start


def database_bytes(database: Database, data: Path) -> int:
    with database.engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(p.stat().st_size for p in data.iterdir() if p.name.startswith(FILENAME))


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def stall_probe(seconds: float | None, work: threading.Thread | None) -> float:
    """The longest gap, in ms, between wake-ups of a 1 ms sleep loop on this thread, while
    `work` runs (until it ends) or for `seconds`."""
    longest, last = 0.0, time.perf_counter()
    end = last + (seconds or 0)
    if work is not None:
        work.start()
    while (work is not None and work.is_alive()) or (work is None and time.perf_counter() < end):
        time.sleep(0.001)
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    return longest * 1000


def passages_alone(
    base: Path, folder: Path, folders: Folders, sample: list[Question], probe: bool
) -> tuple[dict[str, Any], float | None]:
    """Two baselines in one build: the same corpus indexed with each passage searched by its
    own text and file name only (the document titles' baseline), in a thread of this process
    (the child process's baseline: the main thread's longest stall meanwhile, in ms)."""
    data = base / "data-without-titles"
    data.mkdir()
    database = Database.open(data)
    original = document_index.document_title
    document_index.document_title = lambda text, suffix: ""
    work = threading.Thread(target=lambda: index_folders(database, [folder]))
    try:
        if probe:
            stall: float | None = stall_probe(None, work)
        else:
            work.start()
            work.join()
            stall = None
    finally:
        document_index.document_title = original
    figures = quality(DocumentStore(database), folders, sample)
    database.close()
    return figures, stall


def stall_comparison(base: Path, folder: Path, runs: int) -> dict[str, Any]:
    """The main thread's longest stall while the whole folder is indexed afresh, in a child
    process (as the app does) and in a thread of this process (before), alternately."""
    stalls: dict[str, list[float]] = {"child_process": [], "thread": [], "idle": []}
    for run in range(runs):
        for mode in ("child_process", "thread"):
            data = base / f"data-stall-{run}-{mode}"
            data.mkdir()
            if mode == "child_process":
                work = threading.Thread(target=lambda d=data: index_in_child(d, [folder]))
                stalls[mode].append(stall_probe(None, work))
            else:
                database = Database.open(data)
                work = threading.Thread(target=lambda db=database: index_folders(db, [folder]))
                stalls[mode].append(stall_probe(None, work))
                database.close()
        stalls["idle"].append(stall_probe(3.0, None))
    child, thread = median(stalls["child_process"]), median(stalls["thread"])
    return {
        "runs": runs,
        "median_ms": {k: round(median(v), 1) for k, v in stalls.items()},
        "all_ms": {k: [round(x, 1) for x in v] for k, v in stalls.items()},
        "child_vs_thread": round(child / thread, 3),
    }


def measure(
    files: int,
    questions: int,
    seed: int,
    probe: bool,
    baselines: bool,
    stall_runs: int = 0,
    meaning: bool = False,
) -> dict[str, Any]:
    base = Path(tempfile.mkdtemp(prefix="hearth-docs-"))
    try:
        folder, data = base / "docs", base / "data"
        folder.mkdir()
        data.mkdir()
        start = time.perf_counter()
        asked = make_corpus(folder, files, seed)
        generated = time.perf_counter() - start
        database = Database.open(data)
        store, folders = DocumentStore(database), Folders([folder])

        read_seconds = read_everything(folder)
        result: dict[str, Any] = {"files": files, "corpus_seconds": round(generated, 1)}
        timings: dict[str, float] = {}

        def build() -> None:  # as the app does it: in a child process, watched from a thread
            begin = time.perf_counter()
            index_in_child(data, [folder])
            timings["build"] = time.perf_counter() - begin

        if probe:
            idle = stall_probe(3.0, None)
            busy = stall_probe(None, threading.Thread(target=build))
            result["main_thread_stall_ms"] = {
                "idle": round(idle, 1),
                "while_indexing": round(busy, 1),
                "ratio": round(busy / idle, 2),
            }
        else:
            build()
        build_seconds = timings["build"]
        size = database_bytes(database, data)
        counts = store.counts()
        result["build"] = {
            "seconds_per_1000_files": round(build_seconds * 1000 / files, 2),
            "vs_reading_the_text_alone": round(build_seconds / read_seconds, 2),
            "passages": counts[1],
        }
        grams = trigram_bytes(database)
        result["size"] = {
            "database_mb_per_1000_files": round(size / 1e6 * 1000 / files, 2),
            "vs_files_on_disk": round(size / folder_bytes(folder), 2),
            "trigram_index_mb_per_1000_files": round(grams / 1e6 * 1000 / files, 2),
            "trigram_share_of_database": round(grams / size, 2),
        }

        rng = random.Random(seed)
        target = folder / rng.choice([q.path for q in asked if q.path.endswith(".txt")])
        unchanged = _timed(lambda: index_folders(database, [folder]))
        target.write_text(target.read_text() + "\nAdded later: the meeting moved online.\n")
        changed = _timed(lambda: index_folders(database, [folder]))
        result["incremental"] = {
            "one_changed_file_seconds": round(changed, 3),
            "vs_no_change_pass": round(changed / unchanged, 2),
            "vs_full_build": round(changed / build_seconds, 4),
        }

        plain = [q for q in asked if q.kind == "plain"]
        sample = rng.sample(plain, min(questions, len(plain)))
        result["quality"] = quality(store, folders, sample)
        result["quality_words_only"] = quality(store, folders, sample, trigrams=False)
        result["quality_reworded"] = both_tiers(store, folders, [reworded(q) for q in sample])
        for kind in ("compound", "plural"):
            of_kind = [q for q in asked if q.kind == kind]
            result[f"quality_{kind}"] = both_tiers(
                store, folders, rng.sample(of_kind, min(questions, len(of_kind)))
            )
        if meaning:
            # Its own random stream: the figures above stay those of the runs before #39's
            # tier by meaning.
            pick = random.Random(seed + 1)
            embedder, result["meaning_build"] = meaning_tier(
                database, data, files, build_seconds, size
            )
            sets = {
                "plain": sample,
                "reworded": [reworded(q) for q in sample],
                **{
                    kind: pick.sample(
                        [q for q in asked if q.kind == kind],
                        min(questions, sum(q.kind == kind for q in asked)),
                    )
                    for kind in ("compound", "plural", "meaning", "other_language")
                },
            }
            result["quality_by_tier"] = {
                name: both_tiers(store, folders, chosen, embedder) for name, chosen in sets.items()
            }
        if baselines:
            alone, stall = passages_alone(base, folder, folders, sample, probe)
            result["quality_passages_alone"] = alone
            if stall is not None:
                stalls = result["main_thread_stall_ms"]
                stalls["while_indexing_in_a_thread"] = round(stall, 1)
                stalls["child_vs_thread"] = round(stalls["while_indexing"] / stall, 3)
        grep = baseline_search(folders, sample[:3])
        result["quality"]["vs_search_files"] = round(
            result["quality"]["query_ms_median"] / 1000 / grep, 4
        )
        result["quality"]["search_files_ms_median"] = round(grep * 1000, 1)
        database.close()
        if stall_runs:
            result["stall_comparison"] = stall_comparison(base, folder, stall_runs)
        return result
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _timed(work: Any) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--scale", type=int, default=0, help="also measure on this many files")
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--no-probe", action="store_true", help="skip the stall probe")
    parser.add_argument(
        "--stall-runs",
        type=int,
        default=0,
        help="on the --scale corpus, index afresh this many times in a child and in a thread",
    )
    parser.add_argument(
        "--no-meaning", action="store_true", help="skip the tier by meaning (no model fetched)"
    )
    parser.add_argument("--json")
    args = parser.parse_args()
    probe = not args.no_probe
    results = {
        "corpus": measure(
            args.files, args.questions, args.seed, probe, True, meaning=not args.no_meaning
        )
    }
    if args.scale:
        results["scale"] = measure(
            args.scale, args.questions, args.seed, probe, False, args.stall_runs
        )
    report("documents", results, args.json)


if __name__ == "__main__":
    main()
