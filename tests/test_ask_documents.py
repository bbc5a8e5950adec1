"""`python -m app ask` answers from documents (issue #42): the command, run as a new user runs
it on a fresh data folder, brings the index of its `--allow-folder` folders up to date before
the turn, reads only new and changed files on the next run, and leaves a damaged file out with
its name on stderr while the answer comes from the others."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from app.store.database import Database
from tests.agent.documents import make_docx
from tests.connectors.test_files import make_pdf
from tests.scripting import call
from tests.test_ask_command import Sandbox, ask

QUESTION = "What does my lease say about the notice period?"
ANSWER = "Three months, in writing (lease.pdf, page 2)."


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    """A folder of three small files, as the issue's report had, and no data folder yet."""
    folder = tmp_path / "Documents"
    folder.mkdir()
    (folder / "lease.pdf").write_bytes(
        make_pdf(
            [
                "Residential lease for the flat at 12 Elm Street.\nRent is due monthly.",
                "Termination.\nThe tenant may end this lease with three months notice in writing.",
            ]
        )
    )
    make_docx(
        folder / "contract.docx",
        [("h1", "Employment contract"), ("p", "Work starts on 1 March at the Leeds office.")],
    )
    (folder / "groceries.txt").write_text("Milk, eggs, bread.\n", encoding="utf-8")
    return Sandbox(tmp_path, tmp_path / "data", folder)


def ask_about_the_lease(sandbox: Sandbox) -> tuple[dict[str, Any], str]:
    """One real `ask` run whose scripted model searches the documents and answers."""
    script = sandbox.script(call("search_documents", query="lease notice period"), ANSWER)
    done = ask(
        sandbox,
        "--script",
        str(script),
        "--allow-folder",
        str(sandbox.folder),
        "--confirm",
        "deny",
        "--json",
        QUESTION,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def passages(transcript: dict[str, Any]) -> list[dict[str, str]]:
    (search,) = transcript["tool_calls"]
    assert (search["name"], search["decision"], search["status"]) == (
        "search_documents",
        "allow",
        "ok",
    )
    result = search["result"]
    assert isinstance(result, list), f"the search found nothing: {result!r}"
    return result


def indexed_rows(data: Path) -> list[tuple[Any, ...]]:
    """Each indexed file's row id and when it was read: both change when a file is read."""
    database = Database.open(data)
    try:
        with database.engine.connect() as connection:
            query = text("SELECT id, path, indexed, problem FROM indexed_files ORDER BY path")
            return [tuple(row) for row in connection.execute(query)]
    finally:
        database.close()


def test_a_fresh_data_folder_is_indexed_first_and_the_passage_found_and_cited(
    sandbox: Sandbox,
) -> None:
    transcript, stderr = ask_about_the_lease(sandbox)

    first = passages(transcript)[0]
    assert (first["path"], first["where"]) == ("lease.pdf", "page 2")
    assert "three months notice in writing" in first["text"]
    assert transcript["answer"] == ANSWER
    assert "note: document index:" not in stderr  # no file left out
    assert [row[1] for row in indexed_rows(sandbox.data)] == [
        "contract.docx",
        "groceries.txt",
        "lease.pdf",
    ]


def test_a_second_run_reads_no_file_again(sandbox: Sandbox) -> None:
    ask_about_the_lease(sandbox)
    before = indexed_rows(sandbox.data)

    transcript, _ = ask_about_the_lease(sandbox)

    assert indexed_rows(sandbox.data) == before  # no row replaced: no file read
    assert passages(transcript)[0]["path"] == "lease.pdf"


def test_a_damaged_pdf_is_left_out_and_named_and_the_answer_comes_from_the_others(
    sandbox: Sandbox,
) -> None:
    (sandbox.folder / "scan.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage")

    transcript, stderr = ask_about_the_lease(sandbox)

    named = [line for line in stderr.splitlines() if "scan.pdf" in line]
    assert len(named) == 1 and "damaged" in named[0], stderr
    assert named[0].startswith("note: document index: ")
    found = passages(transcript)
    assert found[0]["path"] == "lease.pdf"
    assert "scan.pdf" not in {p["path"] for p in found}
    assert transcript["answer"] == ANSWER
