"""bench/documents.py on a small generated corpus: every kind of file is written and indexed,
the questions find their passages, and each figure of the README table is produced."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench.doc_corpus import documents, make_corpus, reworded

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import documents as bench  # noqa: E402


def test_the_corpus_has_every_kind_and_known_answers(tmp_path: Path) -> None:
    questions = make_corpus(tmp_path, 18)
    kinds = {path.suffix for path in tmp_path.rglob("*") if path.is_file()}
    assert kinds == {".pdf", ".docx", ".md", ".txt", ".csv"}
    assert len(questions) >= 18 and all((tmp_path / q.path).exists() for q in questions)
    assert [d.path for d in documents(18)] == [d.path for d in documents(18)]  # seeded
    assert reworded(questions[0]).text != questions[0].text


def test_the_bench_measures_recall_cost_and_speed() -> None:
    result = bench.measure(files=45, questions=60, seed=5, probe=False, baselines=True)
    assert result["quality"]["recall_at_5"] >= 0.95
    assert result["quality"]["answer_in_context"] >= 0.95
    assert result["quality_passages_alone"]["recall_at_5"] <= result["quality"]["recall_at_5"]
    assert {"seconds_per_1000_files", "vs_reading_the_text_alone"} <= set(result["build"])
    assert set(result["incremental"]) == {
        "one_changed_file_seconds",
        "vs_no_change_pass",
        "vs_full_build",
    }
    assert result["size"]["database_mb_per_1000_files"] > 0
    assert 0 < result["size"]["trigram_share_of_database"] < 1


def test_compound_and_plural_questions_need_the_trigram_tier() -> None:
    """Issue #39: "Kaution" in "Mietkaution" and "Kautionen": the fused ranking finds what
    the word index alone misses, measured in the same run."""
    result = bench.measure(files=40, questions=40, seed=5, probe=False, baselines=False)
    for kind in ("quality_compound", "quality_plural"):
        tiers = result[kind]
        assert tiers["words_and_trigrams"]["recall_at_5"] >= 0.95, kind
        assert tiers["words_only"]["recall_at_5"] <= 0.6, kind
    assert result["quality"]["recall_at_5"] >= 0.95


def test_every_kind_of_document_is_asked_by_meaning_and_in_another_language(
    tmp_path: Path,
) -> None:
    """Issue #39: paraphrases and other-language questions for all ten kinds of document, with
    answers their documents hold."""
    questions = make_corpus(tmp_path, 10)
    for kind in ("meaning", "other_language"):
        asked = [q for q in questions if q.kind == kind]
        assert {q.path.split("/")[0] for q in asked} == {q.path.split("/")[0] for q in questions}, (
            kind
        )


@pytest.mark.real_model
def test_the_bench_measures_the_tier_by_meaning() -> None:
    """Issue #39: words / + trigrams / + meaning on every set of questions in one run, with
    the embedding pass's cost (the real all-MiniLM-L6-v2, fetched from PyPI)."""
    result = bench.measure(
        files=30, questions=20, seed=5, probe=False, baselines=False, meaning=True
    )
    tiers = result["quality_by_tier"]
    assert set(tiers) == {"plain", "reworded", "compound", "plural", "meaning", "other_language"}
    for figures in tiers.values():
        assert set(figures) == {
            "words_only",
            "words_and_trigrams",
            "words_trigrams_and_meaning",
            "meaning_only",
        }
    built = result["meaning_build"]
    assert built["passages_embedded"] == result["build"]["passages"]
    assert built["vectors_mb_per_1000_files"] > 0
    assert tiers["plain"]["words_trigrams_and_meaning"]["recall_at_5"] >= 0.9
