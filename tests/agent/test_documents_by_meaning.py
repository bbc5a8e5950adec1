"""Documents found by meaning (issue #39, item 5): the passages' vectors beside the index, the
question's vector ranked against them and fused with the lexical ranks, and nothing of it
when no embedding model is in place."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from app.agent.documents.document_index import index_folders
from app.agent.documents.document_search import find_passages
from app.agent.documents.index_process import index_in_child
from app.llm.embedded import ensure_embedding_model
from app.llm.embedding_gguf import convert_bert
from app.llm.embeddings import Embedder, embedder_for
from app.store.database import Database
from app.store.documents import DocumentStore, fuse, with_meaning
from app.store.privacy import delete_conversations_and_memories
from connectors.files import Folders
from tests.agent.documents import write_documents
from tests.llm.tiny_bert import write_tiny_bert

# -- reciprocal rank fusion ------------------------------------------------------------------

rankings = st.lists(st.lists(st.integers(0, 30), unique=True, max_size=12), max_size=4)


@given(rankings)
def test_fusion_keeps_every_candidate_once(lists: list[list[int]]) -> None:
    fused = fuse(*lists)
    assert sorted(fused) == sorted({item for ranking in lists for item in ranking})


@given(rankings)
def test_an_absent_tier_changes_nothing(lists: list[list[int]]) -> None:
    """No model: the dense ranking is empty, and the lexical answer is what it was."""
    assert fuse(*lists, []) == fuse(*lists)


@given(rankings, st.integers(0, 30))
def test_a_passage_every_tier_ranks_first_comes_first(lists: list[list[int]], top: int) -> None:
    lists = [[top, *(i for i in ranking if i != top)] for ranking in lists] or [[top]]
    assert fuse(*lists)[0] == top


@given(st.lists(st.integers(0, 30), unique=True, min_size=2, max_size=12), rankings)
def test_a_tier_that_agrees_never_pushes_a_passage_down(
    order: list[int], others: list[list[int]]
) -> None:
    """Adding a ranking can only raise the passage it ranks first relative to the one it ranks
    last: what the tier by meaning agrees on gains, never loses."""
    before = fuse(*others)
    after = fuse(*others, order)
    first, last = order[0], order[-1]
    if first in before and last in before and before.index(first) < before.index(last):
        assert after.index(first) < after.index(last)


ranking = st.lists(st.integers(0, 30), unique=True, max_size=12)


@given(ranking, st.integers(0, 8))
def test_without_the_tier_by_meaning_the_answer_is_the_lexical_one(
    lexical: list[int], limit: int
) -> None:
    assert with_meaning(lexical, [], limit) == lexical[:limit]


@given(ranking, ranking, st.integers(0, 8))
def test_meaning_only_fills_the_places_the_words_leave_empty(
    lexical: list[int], meaning: list[int], limit: int
) -> None:
    """What the word tiers found stays, in its order; the closest passages by meaning come
    after it while there is room; no passage twice."""
    shown = with_meaning(lexical, meaning, limit)
    assert shown[:limit] == lexical[:limit] + shown[len(lexical[:limit]) :]
    assert shown[: len(lexical[:limit])] == lexical[:limit]
    assert len(shown) == len(set(shown)) == min(limit, len(set(lexical) | set(meaning)))
    assert [i for i in shown if i not in lexical] == [i for i in meaning if i not in lexical][
        : limit - len(lexical[:limit])
    ]


# -- the store's dense tier, with an embedder whose geometry the test chooses -----------------


class ConceptEmbedder:
    """Words of one concept share an axis: "excess", "deductible" and "Selbstbeteiligung" are
    one meaning here, as a real model places them near each other. Lets the test say which
    passage is nearest without a model's judgement."""

    model_id = "concepts:1"
    CONCEPTS = (
        {"excess", "deductible", "selbstbeteiligung", "pay", "myself"},
        {"car", "vehicle", "kasko", "collision", "damaged", "damage"},
        {"cat", "mat", "garden", "roses", "water"},
    )

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls += 1
        rows = []
        for passage in texts:
            words = set(re.findall(r"\w+", passage.casefold()))
            row = np.array([len(words & c) for c in self.CONCEPTS] + [0.01], dtype=np.float32)
            rows.append(row / np.linalg.norm(row))
        return np.array(rows, dtype=np.float32).reshape(len(texts), -1)


def write_policies(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kfz.txt").write_text(
        "Kfz-Versicherung\n\nDie Selbstbeteiligung in der Vollkasko beträgt 300 Euro.\n"
    )
    (folder / "motor.txt").write_text(
        "Motor policy\n\nThe deductible for collision damage to the vehicle is 500 euros.\n"
    )
    (folder / "garden.txt").write_text("Garden\n\nThe cat sleeps on the mat by the roses.\n")
    return folder


def test_the_tier_by_meaning_finds_what_no_word_matches(database: Database, tmp_path: Path) -> None:
    folder = write_policies(tmp_path / "docs")
    embedder = ConceptEmbedder()
    report = index_folders(database, [folder], embedder=embedder)
    assert report.complete and report.embedded == 3
    store = DocumentStore(database)
    root = os.path.realpath(folder)
    question = "what's my excess if the car is damaged"
    lexical = store.search(question, [root])
    assert {h.path for h in lexical} <= {"motor.txt"}  # "damage" at best: never the German one
    fused = [h.path for h in store.search(question, [root], embedder=embedder)]
    assert set(fused[:2]) == {"kfz.txt", "motor.txt"}
    found = find_passages(store, Folders([folder]), question, embedder)
    assert any("Selbstbeteiligung" in p["text"] for p in found.passages)


def test_vectors_live_and_die_with_their_passages(database: Database, tmp_path: Path) -> None:
    folder = write_policies(tmp_path / "docs")
    embedder = ConceptEmbedder()
    store = DocumentStore(database)
    index_folders(database, [folder], embedder=embedder)
    assert store.vector_count(embedder.model_id) == 3
    again = index_folders(database, [folder], embedder=embedder)
    assert again.embedded == 0  # nothing new, nothing embedded

    (folder / "garden.txt").write_text("Garden\n\nWater the roses.\n\nFeed the cat.\n")
    (folder / "kfz.txt").unlink()
    changed = index_folders(database, [folder], embedder=embedder)
    passages = store.counts()[1]
    assert changed.embedded == passages - 1  # the garden's new passages; the motor's stays
    assert store.vector_count(embedder.model_id) == passages
    with database.engine.connect() as connection:
        orphans = connection.execute(
            text(
                "SELECT count(*) FROM passage_vectors WHERE passage_id NOT IN "
                "(SELECT id FROM passages)"
            )
        ).scalar_one()
    assert orphans == 0

    class Other(ConceptEmbedder):
        model_id = "another:2"

    index_folders(database, [folder], embedder=Other())
    assert store.vector_count("another:2") == passages
    assert store.vector_count(embedder.model_id) == 0

    delete_conversations_and_memories(database)
    assert store.vector_count("another:2") == 0


def test_the_search_sees_changed_vectors_at_once(database: Database, tmp_path: Path) -> None:
    """The vectors are kept in memory between questions, and read again as soon as a pass
    wrote or a cascade deleted any (the epoch counter of migration 0009)."""
    folder = write_policies(tmp_path / "docs")
    embedder = ConceptEmbedder()
    index_folders(database, [folder], embedder=embedder)
    store = DocumentStore(database)
    root = os.path.realpath(folder)

    def by_meaning() -> set[str]:
        hits = store.search("excess", [root], trigrams=False, words=False, embedder=embedder)
        return {h.path for h in hits}

    assert by_meaning() == {"kfz.txt", "motor.txt", "garden.txt"}
    assert by_meaning() == {"kfz.txt", "motor.txt", "garden.txt"}  # from memory
    (folder / "kfz.txt").unlink()
    (folder / "van.txt").write_text("Van\n\nYou pay the first 200 euros yourself.\n")
    index_folders(database, [folder], embedder=embedder)
    assert by_meaning() == {"van.txt", "motor.txt", "garden.txt"}


def test_a_model_that_fails_leaves_the_lexical_index_whole(
    database: Database, tmp_path: Path
) -> None:
    folder = write_policies(tmp_path / "docs")

    class Broken(ConceptEmbedder):
        def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
            raise RuntimeError("the model file is damaged")

    report = index_folders(database, [folder], embedder=Broken())
    assert report.complete and report.embedded == 0
    assert any("could not be embedded" in why for _, why in report.problems)
    store = DocumentStore(database)
    hits = store.search("deductible", [os.path.realpath(folder)], embedder=Broken())
    assert [h.path for h in hits] == ["motor.txt"]


# -- off when absent ---------------------------------------------------------------------------


def test_no_model_no_vectors_and_the_same_answers(tmp_path: Path) -> None:
    """Without an embedding model in the data folder the child's pass stores no vector, the
    tool's search asks for none, and every answer is the lexical one."""
    docs = write_documents(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    assert embedder_for(data) is None
    report = index_in_child(data, [docs])
    assert report.complete and report.embedded == 0
    database = Database.open(data)
    try:
        with database.engine.connect() as connection:
            count = connection.execute(text("SELECT count(*) FROM passage_vectors")).scalar_one()
        assert count == 0
        store = DocumentStore(database)
        root = os.path.realpath(docs)
        for question in ("notice period", "how often do I water the roses", "bicycle"):
            assert store.search(question, [root], embedder=None) == store.search(question, [root])
    finally:
        database.close()


# -- llama.cpp in the pass: a tiny random-weight model, and the real MiniLM -------------------


@pytest.fixture(scope="module")
def tiny_embedder(tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    base = tmp_path_factory.mktemp("tiny-bert")
    convert_bert(write_tiny_bert(base / "model"), base / "tiny.gguf", "tiny-bert")
    return Embedder(base / "tiny.gguf")


@pytest.mark.real_model
def test_the_pass_embeds_every_passage_with_llama_cpp(
    database: Database, tmp_path: Path, tiny_embedder: Embedder
) -> None:
    docs = write_documents(tmp_path)
    report = index_folders(database, [docs], embedder=tiny_embedder)
    store = DocumentStore(database)
    passages = store.counts()[1]
    assert report.complete and report.embedded == passages > 0
    assert store.vector_count(tiny_embedder.model_id) == passages
    hits = store.search("notice", [os.path.realpath(docs)], embedder=tiny_embedder)
    assert hits and hits[0].path  # the fused answer still comes back, whatever the weights


@pytest.mark.real_model
def test_the_real_model_in_the_data_folder_finds_by_meaning(tmp_path: Path) -> None:
    """The app's way: the model in the data folder, the pass in its child process, and the
    search_documents answer for a question none of whose topic words the policy uses."""
    folder = write_policies(tmp_path / "docs")
    data = tmp_path / "data"
    ensure_embedding_model(data)
    report = index_in_child(data, [folder])
    assert report.complete and report.embedded == 3
    embedder = embedder_for(data)
    assert embedder is not None
    database = Database.open(data)
    try:
        store = DocumentStore(database)
        question = "How much do I pay myself if my car gets damaged?"
        found = find_passages(store, Folders([folder]), question, embedder)
        assert found.passages[0]["path"] == "motor.txt"
    finally:
        database.close()


def test_migration_0009_keeps_the_index_and_counts_vector_changes(tmp_path: Path) -> None:
    """An index built before 0009 keeps its passages and gets an empty vector table (the next
    pass with a model fills it); every vector written or deleted, a cascade's too, raises the
    epoch the search's memory of the vectors is checked against; downgrading drops both."""
    folder = write_policies(tmp_path / "docs")
    database = Database.open(tmp_path, upgrade=False)
    try:
        database.upgrade("0008")
        index_folders(database, [folder])
        database.upgrade("0009")
        store = DocumentStore(database)

        def epoch() -> int:
            with database.engine.connect() as connection:
                return int(
                    connection.execute(text("SELECT n FROM passage_vectors_epoch")).scalar_one()
                )

        assert store.counts()[1] == 3 and epoch() == 0
        embedder = ConceptEmbedder()
        index_folders(database, [folder], embedder=embedder)
        assert epoch() == 3
        (folder / "garden.txt").unlink()
        index_folders(database, [folder], embedder=embedder)
        assert epoch() == 4 and store.vector_count(embedder.model_id) == 2
        database.downgrade("0008")
        assert store.search("deductible", [os.path.realpath(folder)])
    finally:
        database.close()
