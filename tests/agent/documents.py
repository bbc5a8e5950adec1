"""Real documents for the document index's tests: a folder with one file of each kind whose
passages the tests know (a lease PDF with its notice clause on page 2, a Word contract with a
"Notice period" heading, Markdown, CSV and text), and a fresh database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from app.store.database import Database
from tests.connectors.test_files import make_pdf


def make_docx(path: Path, blocks: list[tuple[str, str]]) -> None:
    """A Word file: ("h1"/"h2", text) headings and ("p", text) paragraphs."""
    from docx import Document

    document = Document()
    for kind, text in blocks:
        if kind.startswith("h"):
            document.add_heading(text, level=int(kind[1:]))
        else:
            document.add_paragraph(text)
    document.save(str(path))


def fresh_database(tmp_path: Path) -> Iterator[Database]:
    (tmp_path / "data").mkdir()
    database = Database.open(tmp_path / "data")
    yield database
    database.close()


def write_documents(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "home").mkdir(parents=True)
    (folder / "home" / "lease.pdf").write_bytes(
        make_pdf(
            [
                "Residential lease for the flat at 12 Elm Street.\nRent is due monthly.",
                "Termination.\nThe tenant may end this lease with three months notice in writing.",
            ]
        )
    )
    make_docx(
        folder / "contract.docx",
        [
            ("h1", "Employment contract"),
            ("p", "This contract starts on 1 March."),
            ("h2", "Notice period"),
            ("p", "Either party may terminate with a notice period of six weeks."),
        ],
    )
    (folder / "garden.md").write_text(
        "# Garden\nPlant tulips in October.\n\n## Watering\nWater the roses twice a week.\n"
    )
    (folder / "expenses.csv").write_text(
        "date,item,amount\n2026-01-03,bicycle repair,45\n2026-01-09,groceries,80\n"
    )
    (folder / "notes.txt").write_text("Call the plumber about the leaking tap.\n")
    return folder
