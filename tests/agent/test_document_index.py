"""The document index (issue #23) on real files and a real SQLite database: every kind of file
cut into passages that cite their page or heading, incremental passes, removed folders, the
files connector's confinement rules, each fault reported with its reason, and Privacy → delete.
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
from pathlib import Path

import pytest

from app.agent.documents.document_index import MAX_INDEX_CHARS, document_title, index_folders
from app.agent.documents.index_process import IndexFailed, index_in_child
from app.store.database import FILENAME, Database
from app.store.documents import DocumentStore, search_expression
from app.store.privacy import delete_conversations_and_memories
from tests.connectors.test_files import make_pdf


def search(database: Database, folder: Path, query: str) -> list[tuple[str, str]]:
    hits = DocumentStore(database).search(query, [os.path.realpath(folder)])
    return [(hit.path, hit.location) for hit in hits]


def test_every_kind_is_cut_into_passages_that_cite_page_or_heading(
    database: Database, docs: Path
) -> None:
    report = index_folders(database, [docs])
    assert report.complete and report.problems == []
    assert (report.seen, report.read) == (5, 5)

    assert search(database, docs, "what does my lease say about notice?")[0] == (
        "home/lease.pdf",
        "page 2",
    )
    assert search(database, docs, "contract notice period")[0] == (
        "contract.docx",
        "Employment contract › Notice period",
    )
    assert search(database, docs, "how often do I water the roses")[0] == (
        "garden.md",
        "Garden › Watering",
    )
    assert search(database, docs, "bicycle repair")[0] == ("expenses.csv", "lines 2–3")
    hit = DocumentStore(database).search("bicycle", [os.path.realpath(docs)])[0]
    assert hit.text.startswith("date,item,amount\n")  # the header row says what columns mean
    assert search(database, docs, "plumber")[0] == ("notes.txt", "line 1")
    assert search(database, docs, "leases terminating")[0][0] == "home/lease.pdf"  # stemmed


def test_a_passage_is_found_by_its_documents_title(database: Database, docs: Path) -> None:
    """Page 1 of the lease names the flat; the rent clause on page 2 does not, yet a question
    about the flat's rent finds page 2 (the title goes with every passage), not a passage of
    another lease that says nothing of the flat."""
    (docs / "home" / "lease-birch.pdf").write_bytes(
        make_pdf(["Lease for the flat at Birch Row 2.", "The rent is 700 euros a month."])
    )
    (docs / "home" / "lease-alder.pdf").write_bytes(
        make_pdf(["Lease for the flat at Alder Lane 9.", "The rent is 950 euros a month."])
    )
    index_folders(database, [docs])
    assert search(database, docs, "rent for the flat at Alder Lane")[0] == (
        "home/lease-alder.pdf",
        "page 2",
    )
    assert document_title("# Garden\nPlant tulips.", ".md") == "Garden"
    assert document_title("\n\nMeeting notes, project X\nDecisions", ".txt") == (
        "Meeting notes, project X"
    )
    assert document_title("date,item\n1,2", ".csv") == ""


def test_the_users_words_are_never_fts_syntax(database: Database, docs: Path) -> None:
    index_folders(database, [docs])
    assert search_expression('notice" OR * NEAR(') == '"notice" OR "near"'
    assert search_expression("what is it?") == '"what" OR "is" OR "it"'
    assert search(database, docs, '") AND * :') == []


def test_passes_are_incremental_and_deleted_files_are_forgotten(
    database: Database, docs: Path
) -> None:
    index_folders(database, [docs])
    again = index_folders(database, [docs])
    assert (again.seen, again.read, again.removed) == (5, 0, 0)

    (docs / "notes.txt").write_text("Call the electrician about the kitchen light.\n")
    os.utime(docs / "notes.txt", ns=(1, 1_000_000_000))  # a change the size alone may not show
    changed = index_folders(database, [docs])
    assert changed.read == 1
    assert search(database, docs, "plumber") == []
    assert search(database, docs, "electrician") == [("notes.txt", "line 1")]

    (docs / "garden.md").unlink()
    gone = index_folders(database, [docs])
    assert (gone.read, gone.removed) == (0, 1)
    assert search(database, docs, "roses") == []
    assert DocumentStore(database).counts()[0] == 4


def test_a_removed_folder_loses_its_passages(
    database: Database, docs: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "recipe.txt").write_text("Lasagne needs six sheets of pasta.\n")
    index_folders(database, [docs, other])
    assert search(database, other, "lasagne") == [("recipe.txt", "line 1")]
    report = index_folders(database, [docs])
    assert report.removed == 1
    assert search(database, other, "lasagne") == []
    with database.engine.connect() as connection:
        from sqlalchemy import text

        left = connection.execute(
            text("SELECT count(*) FROM passages_fts WHERE passages_fts MATCH 'lasagne'")
        ).scalar()
    assert left == 0  # the FTS index followed the cascade


def test_the_connectors_rules_hidden_names_and_links_are_not_read(
    database: Database, docs: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("The safe code is 4711.\n")
    (docs / "link.txt").symlink_to(outside)
    (docs / ".hidden.txt").write_text("safe code 4711 hidden\n")
    (docs / ".git").mkdir()
    (docs / ".git" / "notes.txt").write_text("safe code 4711 in git\n")
    os.link(docs / "notes.txt", docs / "second-name.txt")
    report = index_folders(database, [docs])
    assert search(database, docs, "safe code 4711") == []
    reasons = dict(report.problems)
    assert "hard link" in reasons[f"{docs}/second-name.txt"]
    assert "plumber" not in str(reasons)


def test_each_fault_is_reported_with_its_reason_and_the_pass_goes_on(
    database: Database, docs: Path
) -> None:
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage")
    (docs / "program.txt").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8)
    (docs / "huge.txt").write_text("word " * (MAX_INDEX_CHARS // 5 + 1000) + "needle\n")
    doomed = docs / "doomed.txt"
    doomed.write_text("This file will vanish.\n")

    def delete_when_reached(done: int, total: int, path: str) -> None:
        if path.endswith("doomed.txt"):
            doomed.unlink()  # deleted between the listing and the read

    report = index_folders(database, [docs], progress=delete_when_reached)
    assert report.complete
    reasons = dict(report.problems)
    assert "damaged" in reasons[f"{docs}/broken.pdf"]
    assert "not a text file" in reasons[f"{docs}/program.txt"]
    assert "only its first 1,000,000 characters were indexed" in reasons[f"{docs}/huge.txt"]
    assert "deleted while Hearth was indexing it" in reasons[f"{docs}/doomed.txt"]
    # The rest is indexed; the big file as far as the cap; a vanished file leaves nothing.
    assert search(database, docs, "lease notice")[0][0] == "home/lease.pdf"
    assert search(database, docs, "word")[0][0] == "huge.txt"
    assert search(database, docs, "needle") == []
    assert search(database, docs, "vanish") == []
    stored = {p.path: p.problem for p in DocumentStore(database).problems()}
    assert set(stored) == {"broken.pdf", "program.txt", "huge.txt"}
    # A file with a problem is not read again until it changes.
    assert index_folders(database, [docs]).read == 0


def test_a_folder_that_is_gone_keeps_its_passages_and_is_reported(
    database: Database, docs: Path, tmp_path: Path
) -> None:
    index_folders(database, [docs])
    moved = tmp_path / "unplugged"
    docs.rename(moved)
    report = index_folders(database, [docs])
    assert report.problems and "cannot be used" in report.problems[0][1]
    assert search(database, docs, "plumber") == [("notes.txt", "line 1")]


def test_a_paused_pass_stops_between_files_and_the_next_one_finishes(
    database: Database, docs: Path
) -> None:
    seen: list[str] = []
    report = index_folders(
        database,
        [docs],
        progress=lambda d, t, p: seen.append(p),
        should_stop=lambda: len(seen) >= 2,
    )
    assert not report.complete and report.read == 2
    rest = index_folders(database, [docs])
    assert rest.complete and rest.read == 3


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs POSIX processes and users")
def test_an_unreadable_file_is_reported() -> None:
    """Indexed by an ordinary user (root reads every file): a forked child drops to `nobody`."""
    with tempfile.TemporaryDirectory() as base:
        os.chmod(base, 0o777)
        folder, data = Path(base) / "docs", Path(base) / "data"
        for path in (folder, data):
            path.mkdir()
            os.chmod(path, 0o777)
        (folder / "open.txt").write_text("An ordinary note about tulips.\n")
        (folder / "secret.txt").write_text("Nobody may read this.\n")
        os.chmod(folder / "open.txt", 0o644)
        os.chmod(folder / "secret.txt", 0o000)
        reading, writing = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - runs in the child
            try:
                signal.alarm(120)  # a child stuck on a lock copied by fork dies, not hangs
                os.close(reading)
                if os.geteuid() == 0:
                    os.setgid(65534)
                    os.setuid(65534)
                report = index_folders(Database.open(data), [folder])
                os.write(writing, json.dumps([report.read, report.problems]).encode())
            finally:
                os._exit(0)
        os.close(writing)
        with os.fdopen(reading, "rb") as pipe:
            output = pipe.read()
        os.waitpid(child, 0)
        read, problems = json.loads(output)
        assert read == 2
        assert [path for path, _ in problems] == [f"{folder}/secret.txt"]
        assert "permission denied" in problems[0][1]
        database = Database.open(data)
        hits = DocumentStore(database).search("tulips", [str(folder.resolve())])
        database.close()
        assert [hit.path for hit in hits] == ["open.txt"]


def test_a_pass_in_a_child_process_reports_back(database: Database, docs: Path) -> None:
    """The window's indexer runs the pass in a child process: same result, progress and
    report come back, and a pass that cannot run says why instead of hanging."""
    data = Path(str(database.engine.url.database)).parent
    seen: list[tuple[int, int]] = []
    report = index_in_child(data, [docs], progress=lambda d, t, p: seen.append((d, t)))
    assert report.complete and (report.seen, report.read) == (5, 5)
    assert seen[-1] == (5, 5)
    assert search(database, docs, "what does my lease say about notice?")[0][0] == "home/lease.pdf"
    with pytest.raises(IndexFailed, match="OperationalError"):
        index_in_child(data / "missing", [docs])


def test_privacy_delete_removes_the_index_text(
    database: Database, docs: Path, tmp_path: Path
) -> None:
    (docs / "diary.txt").write_text("My secret word is quokka-zanzibar-marmalade.\n")
    index_folders(database, [docs])
    places = [tmp_path / "data" / FILENAME, tmp_path / "data" / (FILENAME + "-wal")]
    contents = b"".join(p.read_bytes() for p in places if p.exists())
    assert b"quokka-zanzibar-marmalade" in contents
    delete_conversations_and_memories(database)
    for path in places:
        if path.exists():
            assert b"quokka-zanzibar-marmalade" not in path.read_bytes()
    assert DocumentStore(database).counts() == (0, 0)
    with database.engine.connect() as connection:  # no trigram segment is left either
        assert connection.exec_driver_sql("SELECT count(*) FROM passages_trigram_idx").scalar() == 0
    # The next pass rebuilds it from the folders that are still allowed.
    assert index_folders(database, [docs]).read == 6


def test_migration_0007_goes_down_and_up(tmp_path: Path) -> None:
    database = Database.open(tmp_path)
    from sqlalchemy import inspect

    assert {"indexed_files", "passages", "passages_fts"} <= set(
        inspect(database.engine).get_table_names()
    )
    database.downgrade("0006")
    names = set(inspect(database.engine).get_table_names())
    assert not {"indexed_files", "passages", "passages_fts"} & names
    database.upgrade()
    assert DocumentStore(database).counts() == (0, 0)
    database.close()


def test_words_inside_words_are_found_and_fused_with_whole_words(
    database: Database, tmp_path: Path
) -> None:
    """Issue #39: "Kaution" is inside "Mietkaution", "Ahornstr." inside "Ahornstraße"; the
    word index alone finds neither, the fused ranking puts the right passage first."""
    folder = tmp_path / "Verträge"
    folder.mkdir()
    (folder / "mietvertrag.txt").write_text(
        "Mietvertrag für die Wohnung in der Ahornstraße 14.\n\n"
        "Die Mietkaution beträgt drei Monatsmieten und wird auf ein Sparbuch gezahlt.\n\n"
        "Die Kündigungsfrist beträgt drei Monate.\n",
        encoding="utf-8",
    )
    (folder / "notes.txt").write_text("Shopping: apples, bread, a new kettle.\n")
    index_folders(database, [folder])
    root = os.path.realpath(folder)
    store = DocumentStore(database)
    for query in ("Wie hoch ist die Kaution?", "Kautionen", "KAUTION AHORNSTR"):
        assert store.search(query, [root], trigrams=False) == []
        [best, *_] = store.search(query, [root])
        assert "Mietkaution" in best.text, query
    # folded: accents typed or not
    assert "Kündigungsfrist" in store.search("kundigung", [root])[0].text
    assert store.search("Kündigung", [root], trigrams=False) == []
    # a removed file takes its trigram rows with it
    (folder / "mietvertrag.txt").unlink()
    index_folders(database, [folder])
    assert store.search("kaution", [root]) == []
    with database.engine.connect() as connection:
        rows = connection.exec_driver_sql("SELECT count(*) FROM passages_trigram").scalar()
    assert rows == 1  # the notes' one passage


def test_migration_0008_indexes_the_passages_already_there(tmp_path: Path) -> None:
    from sqlalchemy import text

    database = Database.open(tmp_path, upgrade=False)
    database.upgrade("0007")
    store = DocumentStore(database)
    with database.engine.begin() as connection:
        file_id = connection.execute(
            text(
                "INSERT INTO indexed_files (root, path, size, modified_ns, passages, problem, "
                "indexed) VALUES ('/r', 'lease.txt', 1, 1, 1, '', '2026-01-01') RETURNING id"
            )
        ).scalar_one()
        connection.execute(
            text(
                "INSERT INTO passages (file_id, position, name, location, text) "
                "VALUES (:f, 0, 'lease.txt', 'line 1', 'Die Mietkaution für Zoë')"
            ),
            {"f": file_id},
        )
    database.upgrade("0008")
    [hit] = store.search("kaution zoe", ["/r"])
    assert hit.text == "Die Mietkaution für Zoë"
    database.downgrade("0007")
    assert store.search("Mietkaution", ["/r"], trigrams=False)
    database.close()
