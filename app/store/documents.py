"""The document index's storage: indexed files, their passages, and BM25 search over them.

The indexer (`app.agent.documents.document_index`) decides what to read; this module only keeps
what it found, in the tables of migrations 0007 and 0008, and answers searches. As in
`memories`, the user's words never reach FTS5 as syntax: each word is quoted and the words are
OR-ed, after the words every question has ("what", "does", "say", "wie", "ist") are dropped, so
they cannot outrank the ones that matter.

Two indexes answer: the word index (Porter stems: "periods" finds "period") and a trigram
index of the same passages, folded (`connectors.folding`), where any part of a word matches:
"Kaution" finds "Mietkaution", "Ahornstr." finds "Ahornstraße". In the trigram tier a long
word also stands for its stem less two letters ("Kautionen": "kaution"), the plural endings of
most European languages. A word the word index finds whole in many passages is left to it:
its letters are everywhere, so the trigram tier would spend its time on it for nothing. Each
index ranks its best candidates by BM25 and the two rankings are fused by reciprocal rank
fusion (the sum of 1 / (60 + rank) over both): no score scales to
reconcile, and a passage both indexes rank well comes first.

A third tier finds passages by meaning, where an embedding model is in place (issue #39): each
passage's unit vector is kept in `passage_vectors` (migration 0009), the question's vector is
compared with those of the allowed folders by dot product, and the closest passages fill the
places of the answer the word tiers leave empty (`with_meaning`): a question whose words find
nothing still gets the passages nearest in meaning. It never displaces what the words found:
measured on bench/documents.py with all-MiniLM-L6-v2 (English), as a third equal ranking in
the fusion it lowered recall@5 from 0.98 to 0.78 for German compound questions and to 0.54
for plural ones, and in the last of the five places to 0.93 and 0.90, and neither way helped
any kind of question (the model ranks near-identical passages of other documents alike, and
the questions name their subject). The model itself is the caller's (`QueryEmbedder`: the
store imports no model code); without one the search is exactly the lexical one.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from sqlalchemy import Connection, bindparam, text

from app.store.database import Database
from connectors.folding import fold

log = logging.getLogger(__name__)

# Column weights for bm25 (name, location, text): a word in the file's name or the section's
# heading says more about a passage than one in its body.
_WEIGHTS = (4.0, 2.0, 1.0)
_TRIGRAM_WEIGHTS = (4.0, 1.0)  # name (with the title), location and text
_WORD = re.compile(r"\w+", re.UNICODE)
_RRF_K = 60  # the constant of reciprocal rank fusion (Cormack et al., 2009)
_DEPTH = 50  # candidates each index contributes before fusing
_STEM_FROM = 6  # a trigram word this long also stands for itself less two letters
_COMMON = 20  # a word the word index finds whole in this many passages skips the trigram tier
# Words of the question itself, not of what it is about.
_QUESTION_WORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "could", "did", "do", "does", "for",
    "from", "had", "has", "have", "how", "i", "if", "in", "is", "it", "its", "me", "my", "of",
    "on", "or", "our", "say", "says", "said", "should", "tell", "that", "the", "their", "there",
    "this", "to", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will",
    "with", "would", "you", "your", "about", "any", "all", "please",
    # German, French, Dutch: articles, pronouns and question words
    "wie", "wer", "wo", "wann", "welche", "welcher", "welches", "ist", "sind", "hat",
    "die", "der", "das", "den", "dem", "des", "ein", "eine", "einen", "und", "oder", "für",
    "mein", "meine", "meinen", "ich", "mir", "mich", "von", "im", "zu", "zum", "zur", "bei",
    "le", "la", "les", "un", "une", "du", "et", "est", "quel", "quelle", "mon", "ma",
    "mes", "pour", "de", "het", "een", "wat", "hoe", "mijn", "voor", "van",
})  # fmt: skip


class QueryEmbedder(Protocol):
    """What the dense tier needs of an embedding model (`app.llm.embeddings.Embedder`)."""

    @property
    def model_id(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]: ...


@dataclass(frozen=True)
class FileEntry:
    """What the index holds for one file: enough to tell whether it changed."""

    size: int
    modified_ns: int
    problem: str


@dataclass(frozen=True)
class Hit:
    """A passage that matched, best first; `root` is the allowed folder's real path."""

    root: str
    path: str
    location: str
    text: str


@dataclass(frozen=True)
class Problem:
    root: str
    path: str
    problem: str


@dataclass(frozen=True)
class IndexedDocument:
    """One file to store: its identity, the passages read from it, and what went wrong."""

    root: str
    path: str
    size: int
    modified_ns: int
    passages: Sequence[tuple[str, str]]  # (where it sits: "page 3", a heading; its text)
    problem: str = ""
    title: str = ""  # the document's first heading or line, searched with every passage


def search_expression(query: str) -> str:
    """A safe FTS5 MATCH expression: content words quoted and OR-ed ("" if there are none).

    A question made only of question words ("what is it?") keeps them, rather than match
    nothing."""
    unique = list(dict.fromkeys(content_words(query)))
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in unique)


def content_words(query: str) -> list[str]:
    """The words of `query` that say what it is about (lower case), not how it asks."""
    words = [w.lower() for w in _WORD.findall(query) if w.strip("_")]
    return [w for w in words if w not in _QUESTION_WORDS] or words


def trigram_expression(query: str, skip: Iterable[str] = ()) -> str:
    """The trigram MATCH expression: each folded content word of three letters or more (but
    those in `skip`), and for a long word its stem less two letters, quoted and OR-ed ("" if
    there are none)."""
    terms: list[str] = []
    skipped = set(skip)
    for word in content_words(query):
        if word in skipped:
            continue
        folded = fold(word)
        if len(folded) >= 3:
            terms.append(folded)
        if len(folded) >= _STEM_FROM:
            terms.append(folded[:-2])
    unique = list(dict.fromkeys(terms))
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in unique)


def fuse(*rankings: Sequence[int]) -> list[int]:
    """Reciprocal rank fusion of rankings of ids (best first): best fused first, ties by the
    first ranking that has them."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (_RRF_K + rank)
    return sorted(scores, key=lambda item: -scores[item])


def with_meaning(lexical: Sequence[int], meaning: Sequence[int], limit: int) -> list[int]:
    """The answer's `limit` passages: the word tiers' best, and in the places they leave
    empty the passages closest in meaning. The tier by meaning never displaces a passage the
    words found: in every way of letting it (a third equal ranking in the fusion; the last of
    five places) it lowered recall on bench/documents.py. Without it (an empty `meaning`) the
    answer is the lexical ranking unchanged."""
    shown = list(lexical[: max(limit, 0)])
    for item in meaning:
        if len(shown) >= limit:
            break
        if item not in shown:
            shown.append(item)
    return shown


class DocumentStore:
    """The indexed files and passages of one database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def files(self, root: str) -> dict[str, FileEntry]:
        """Every file indexed under `root`, by its path beneath it."""
        statement = text(
            "SELECT path, size, modified_ns, problem FROM indexed_files WHERE root = :root"
        )
        with self.database.engine.connect() as connection:
            rows = connection.execute(statement, {"root": root})
            return {str(r[0]): FileEntry(int(r[1]), int(r[2]), str(r[3])) for r in rows}

    def put(self, documents: Iterable[IndexedDocument]) -> None:
        """Store these files' passages in one transaction, replacing what each had."""
        now = datetime.now(UTC)
        with self.database.engine.begin() as connection:
            for document in documents:
                connection.execute(
                    text("DELETE FROM indexed_files WHERE root = :root AND path = :path"),
                    {"root": document.root, "path": document.path},
                )
                file_id = connection.execute(
                    text(
                        "INSERT INTO indexed_files "
                        "(root, path, size, modified_ns, passages, problem, indexed) "
                        "VALUES (:root, :path, :size, :modified_ns, :count, :problem, :now) "
                        "RETURNING id"
                    ),
                    {
                        "root": document.root,
                        "path": document.path,
                        "size": document.size,
                        "modified_ns": document.modified_ns,
                        "count": len(document.passages),
                        "problem": document.problem,
                        "now": now,
                    },
                ).scalar_one()
                if not document.passages:
                    continue
                # A passage is found by its document's name and title too: "the deposit" on
                # page 2 of the lease for Elm Street is about Elm Street.
                name = f"{document.path.rsplit('/', 1)[-1]} {document.title}".strip()
                connection.execute(
                    text(
                        "INSERT INTO passages (file_id, position, name, location, text) "
                        "VALUES (:file_id, :position, :name, :location, :text)"
                    ),
                    [
                        {
                            "file_id": file_id,
                            "position": position,
                            "name": name,
                            "location": location,
                            "text": passage,
                        }
                        for position, (location, passage) in enumerate(document.passages)
                    ],
                )
                ids = connection.execute(
                    text("SELECT id, position FROM passages WHERE file_id = :file_id"),
                    {"file_id": file_id},
                )
                folded_name = fold(name)
                connection.execute(
                    text(
                        "INSERT INTO passages_trigram (rowid, name, text) "
                        "VALUES (:id, :name, :text)"
                    ),
                    [
                        {
                            "id": int(row[0]),
                            "name": folded_name,
                            "text": fold(" ".join(document.passages[int(row[1])])),
                        }
                        for row in ids
                    ],
                )

    def remove(self, root: str, paths: Iterable[str]) -> int:
        """Forget these files (deleted from the folder); their passages go with them."""
        wanted = list(paths)
        if not wanted:
            return 0
        statement = text(
            "DELETE FROM indexed_files WHERE root = :root AND path IN :paths"
        ).bindparams(bindparam("paths", expanding=True))
        removed = 0
        with self.database.engine.begin() as connection:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                removed += connection.execute(statement, {"root": root, "paths": chunk}).rowcount
        return removed

    def keep_only(self, roots: Iterable[str]) -> int:
        """Forget every file outside these folders (a folder the user removed)."""
        kept = list(roots)
        with self.database.engine.begin() as connection:
            if not kept:
                return connection.execute(text("DELETE FROM indexed_files")).rowcount
            statement = text("DELETE FROM indexed_files WHERE root NOT IN :roots").bindparams(
                bindparam("roots", expanding=True)
            )
            return connection.execute(statement, {"roots": kept}).rowcount

    def unembedded(self, model: str, limit: int) -> list[tuple[int, str]]:
        """Up to `limit` passages with no vector of `model` yet, as (id, text to embed): the
        document's name and title, where in it the passage sits, and the passage."""
        statement = text(
            "SELECT p.id, p.name, p.location, p.text FROM passages AS p "
            "LEFT JOIN passage_vectors AS v ON v.passage_id = p.id AND v.model = :model "
            "WHERE v.passage_id IS NULL ORDER BY p.id LIMIT :limit"
        )
        with self.database.engine.connect() as connection:
            rows = connection.execute(statement, {"model": model, "limit": limit})
            return [(int(r[0]), embedding_text(str(r[1]), str(r[2]), str(r[3]))) for r in rows]

    def put_vectors(self, model: str, ids: Sequence[int], vectors: npt.NDArray[np.float32]) -> None:
        """Keep these passages' vectors (a passage deleted meanwhile is skipped)."""
        rows = [
            {"id": int(i), "model": model, "vector": np.asarray(v, dtype="<f4").tobytes()}
            for i, v in zip(ids, vectors, strict=True)
        ]
        if not rows:
            return
        with self.database.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT OR REPLACE INTO passage_vectors (passage_id, model, vector) "
                    "SELECT :id, :model, :vector WHERE EXISTS "
                    "(SELECT 1 FROM passages WHERE id = :id)"
                ),
                rows,
            )

    def forget_vectors_except(self, model: str) -> int:
        """Drop the vectors another embedding model made (the user changed models)."""
        with self.database.engine.begin() as connection:
            statement = text("DELETE FROM passage_vectors WHERE model != :model")
            return connection.execute(statement, {"model": model}).rowcount

    def vector_count(self, model: str) -> int:
        statement = text("SELECT count(*) FROM passage_vectors WHERE model = :model")
        with self.database.engine.connect() as connection:
            return int(connection.execute(statement, {"model": model}).scalar_one())

    def search(
        self,
        query: str,
        roots: Sequence[str],
        limit: int = 5,
        *,
        trigrams: bool = True,
        words: bool = True,
        embedder: QueryEmbedder | None = None,
    ) -> list[Hit]:
        """The passages under `roots` that best match `query`, best first: the word index's
        and the trigram index's BM25 rankings fused and, given an `embedder`, the passages
        closest in meaning in the places left empty (`with_meaning`; `trigrams=False`: without
        the trigram tier, the bench's baseline; `words=False`: without the word index, to
        measure a tier alone)."""
        if not roots:
            return []
        with self.database.engine.connect() as connection:
            ranked_words = (
                _ranked(
                    connection, "passages_fts", _WEIGHTS, search_expression(query), roots, _DEPTH
                )
                if words
                else []
            )
            grams = (
                _ranked(
                    connection,
                    "passages_trigram",
                    _TRIGRAM_WEIGHTS,
                    trigram_expression(query, skip=_common_words(connection, query)),
                    roots,
                    _DEPTH,
                )
                if trigrams
                else []
            )
            lexical = fuse(ranked_words, grams)
            # The question is embedded only when the words leave places empty (the tier by
            # meaning could change nothing else): 24-36 ms on a busy machine, saved.
            dense = (
                _dense_ranked(self.database, embedder, query, roots)
                if embedder is not None and len(lexical) < limit
                else []
            )
            best = with_meaning(lexical, dense, limit)
            if not best:
                return []
            rows = connection.execute(
                text(
                    "SELECT p.id, f.root, f.path, p.location, p.text FROM passages AS p "
                    "JOIN indexed_files AS f ON f.id = p.file_id WHERE p.id IN :ids"
                ).bindparams(bindparam("ids", expanding=True)),
                {"ids": best},
            )
            found = {int(r[0]): Hit(str(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows}
        return [found[i] for i in best if i in found]

    def counts(self, roots: Sequence[str] | None = None) -> tuple[int, int]:
        """(files, passages) indexed, under `roots` or everywhere; a file that could not be
        read at all does not count."""
        where, params = _roots_filter(roots)
        statement = text(
            "SELECT count(*), coalesce(sum(passages), 0) FROM indexed_files "
            f"WHERE (passages > 0 OR problem = '') {where}"
        )
        if roots is not None:
            statement = statement.bindparams(bindparam("roots", expanding=True))
        with self.database.engine.connect() as connection:
            row = connection.execute(statement, params).one()
            return int(row[0]), int(row[1])

    def problem_count(self) -> int:
        """How many files could not be indexed (or only in part)."""
        statement = text("SELECT count(*) FROM indexed_files WHERE problem != ''")
        with self.database.engine.connect() as connection:
            return int(connection.execute(statement).scalar_one())

    def problems(self, limit: int = 200) -> list[Problem]:
        """The files that could not be indexed (or only in part), and why."""
        statement = text(
            "SELECT root, path, problem FROM indexed_files WHERE problem != '' "
            "ORDER BY root, path LIMIT :limit"
        )
        with self.database.engine.connect() as connection:
            rows = connection.execute(statement, {"limit": limit})
            return [Problem(str(r[0]), str(r[1]), str(r[2])) for r in rows]


def embedding_text(name: str, location: str, passage: str) -> str:
    """What is embedded of a passage: its document's name and title and its place in it say
    what the passage is about when the passage itself does not."""
    return "\n".join(part for part in (name, location, passage) if part)


def _dense_ranked(
    database: Database, embedder: QueryEmbedder, query: str, roots: Sequence[str]
) -> list[int]:
    """The ids of the passages under `roots` whose vectors are closest to the question's."""
    ids, matrix = _vectors(database, embedder.model_id, roots)
    if not len(ids):
        return []
    try:
        question = embedder.embed([query])[0]
    except Exception:  # a model that cannot run leaves the lexical answer, never none
        log.exception("document search: the embedding model failed")
        return []
    if question.shape[0] != matrix.shape[1]:
        return []  # vectors of a model of another size: the next pass replaces them
    scores = matrix @ question
    depth = min(_DEPTH, len(scores))
    best = np.argpartition(-scores, depth - 1)[:depth]
    best = best[np.lexsort((ids[best], -scores[best]))]
    return [int(i) for i in ids[best]]


# (database, model, roots) → (epoch, ids, vectors): the last few searches' vectors, read again
# only when the epoch counter of migration 0009 moved (a vector written or deleted).
_CACHED: dict[tuple[str, str, tuple[str, ...]], tuple[int, npt.NDArray[Any], npt.NDArray[Any]]]
_CACHED = {}
_CACHE_ENTRIES = 4
_cache_lock = threading.Lock()


def _vectors(
    database: Database, model: str, roots: Sequence[str]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """The ids and vectors of `model` under `roots`, from memory while nothing changed."""
    url = database.engine.url
    # An in-memory database has no name of its own to be cached under.
    key = (
        (str(url), model, tuple(sorted(roots)))
        if url.database not in (None, "", ":memory:")
        else None
    )
    statement = text(
        "SELECT v.passage_id, v.vector FROM passage_vectors AS v "
        "JOIN passages AS p ON p.id = v.passage_id JOIN indexed_files AS f ON f.id = p.file_id "
        "WHERE v.model = :model AND f.root IN :roots"
    ).bindparams(bindparam("roots", expanding=True))
    with database.engine.connect() as connection:
        epoch = int(
            connection.execute(text("SELECT n FROM passage_vectors_epoch WHERE id = 1")).scalar()
            or 0
        )
        with _cache_lock:
            cached = _CACHED.get(key) if key else None
        if cached is not None and cached[0] == epoch:
            return cached[1], cached[2]
        rows = connection.execute(statement, {"model": model, "roots": list(roots)}).all()
    ids = np.fromiter((int(r[0]) for r in rows), dtype=np.int64, count=len(rows))
    matrix = np.frombuffer(b"".join(bytes(r[1]) for r in rows), dtype="<f4")
    matrix = matrix.reshape(len(rows), -1) if rows else matrix.reshape(0, 0)
    if key is not None:
        with _cache_lock:
            _CACHED[key] = (epoch, ids, matrix)
            while len(_CACHED) > _CACHE_ENTRIES:
                del _CACHED[next(iter(_CACHED))]
    return ids, matrix


def _ranked(
    connection: Connection,
    table: str,
    weights: Sequence[float],
    expression: str,
    roots: Sequence[str],
    depth: int,
) -> list[int]:
    """The ids of the passages under `roots` that `table` ranks best for `expression`."""
    if not expression:
        return []
    shown = ", ".join(str(w) for w in weights)
    statement = text(
        f"SELECT p.id FROM {table} JOIN passages AS p ON p.id = {table}.rowid "
        "JOIN indexed_files AS f ON f.id = p.file_id "
        f"WHERE {table} MATCH :query AND f.root IN :roots "
        f"ORDER BY bm25({table}, {shown}), p.id LIMIT :limit"
    ).bindparams(bindparam("roots", expanding=True))
    rows = connection.execute(
        statement, {"query": expression, "roots": list(roots), "limit": depth}
    )
    return [int(r[0]) for r in rows]


def _common_words(connection: Connection, query: str) -> list[str]:
    """The query's words the word index finds whole in many passages: the word tier ranks
    them already, and their letters are everywhere ("notice", "flat"), so in the trigram tier
    they would only cost time. A word found whole nowhere or rarely ("Kaution" beside
    "Mietkaution", "Ahornstr.") is what the trigram tier is for."""
    statement = text(
        "SELECT count(*) FROM (SELECT 1 FROM passages_fts WHERE passages_fts MATCH :word "
        "LIMIT :cap)"
    )
    common = []
    for word in dict.fromkeys(content_words(query)):
        quoted = '"' + word.replace('"', '""') + '"'
        if connection.execute(statement, {"word": quoted, "cap": _COMMON}).scalar_one() >= _COMMON:
            common.append(word)
    return common


def _roots_filter(roots: Sequence[str] | None) -> tuple[str, dict[str, object]]:
    if roots is None:
        return "", {}
    return "AND root IN :roots", {"roots": list(roots) or [""]}
