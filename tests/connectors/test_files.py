"""The local files connector on a real file system: what it does, and every way out it refuses.

Each refusal checks three things: the right reason code, a message a person can act on, and
that nothing outside the approved folder was opened (a spy on ``os.open`` resolves every
descriptor it hands out through /proc) or changed (a snapshot of the outside folder).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import stat
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from connectors import files
from connectors.files import (
    FileAccessError,
    Folders,
    list_folder,
    operations,
    preview_write,
    read_file,
    search_files,
    write_file,
    write_planned,
)

SECRET = "TOP SECRET outside the approved folder"
HAS_PROC = Path("/proc/self/fd").is_dir()


# ---------------------------------------------------------------------------------------------
# helpers: a real PDF written by hand, a real DOCX written by python-docx


def make_pdf(pages: list[str]) -> bytes:
    """A minimal valid PDF (Helvetica text, one content stream a page), offsets computed."""
    page_ids = [4 + 2 * i for i in range(len(pages))]
    kids = " ".join(f"{i} 0 R" for i in page_ids)
    objects: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    }
    for page_id, text in zip(page_ids, pages, strict=True):
        shown = " ".join(f"({line}) Tj 0 -14 Td" for line in text.split("\n"))
        stream = f"BT /F1 12 Tf 72 720 Td {shown} ET".encode()
        objects[page_id] = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
            f"<< /F1 3 0 R >> >> /Contents {page_id + 1} 0 R >>"
        ).encode()
        objects[page_id + 1] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)
    out = bytearray(b"%PDF-1.4\n")
    offsets: dict[int, int] = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, objects[number])
    xref = len(out)
    size = max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        out += b"%010d 00000 n \n" % offsets[number]
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)


def make_docx(path: Path, paragraphs: list[str], table: list[list[str]] | None = None) -> None:
    from docx import Document

    document = Document()
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    document.save(str(path))


def snapshot(folder: Path) -> dict[str, tuple[bytes | None, int]]:
    """Every path under ``folder`` with its content and mtime: to prove nothing changed."""
    result: dict[str, tuple[bytes | None, int]] = {}
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        content = path.read_bytes() if stat.S_ISREG(st.st_mode) else None
        result[str(path.relative_to(folder))] = (content, st.st_mtime_ns)
    return result


@dataclass
class Tree:
    root: Path
    outside: Path
    folders: Folders
    opened: list[str]

    def untouched(self, before: dict[str, tuple[bytes | None, int]]) -> None:
        """Nothing outside the root was opened (read) or changed."""
        assert snapshot(self.outside) == before
        leaked = [
            p for p in self.opened if p == str(self.outside) or p.startswith(f"{self.outside}/")
        ]
        assert not leaked, f"opened outside the root: {leaked}"
        assert "/dev/zero" not in self.opened


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Tree]:
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / "Reports").mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET + "\n")
    (outside / "secret.md").write_text(SECRET + "\n")
    (root / "notes.txt").write_text("first line\nthe Budget is 42\nlast line\n")
    (root / "readme.md").write_text("# Title\n\nSome *markdown* text.\n")
    (root / "data.csv").write_text("name,amount\nalice,10\nbob,20\n")
    (root / "config.json").write_text('{"colour": "blue", "budget": 7}\n')
    (root / "Reports" / "Report-2024.txt").write_text("annual numbers\n")
    (root / "sub" / "deeper" / "deep.txt").write_text("a needle in a haystack\n")
    (root / ".hidden.txt").write_text("hidden budget\n")

    opened: list[str] = []
    real_open = os.open

    def spy(path, flags, mode=0o777, *, dir_fd=None):
        fd = real_open(path, flags, mode, dir_fd=dir_fd)
        if HAS_PROC:
            with contextlib.suppress(OSError):
                opened.append(os.readlink(f"/proc/self/fd/{fd}"))
        return fd

    monkeypatch.setattr(os, "open", spy)
    yield Tree(root, outside, Folders([root]), opened)


def refused(exc: pytest.ExceptionInfo[FileAccessError], reason: str, *words: str) -> str:
    """Assert a refusal's reason and that its message names what matters; returns it."""
    error = exc.value
    assert error.reason == reason, (error.reason, error.message)
    assert str(error) == error.message
    for word in words:
        assert word in error.message, (word, error.message)
    return error.message


# ---------------------------------------------------------------------------------------------
# Folders.resolve


def test_resolve_relative_and_absolute(tree: Tree) -> None:
    root, parts = tree.folders.resolve("sub/deeper/deep.txt")
    assert root.path == str(tree.root) and parts == ("sub", "deeper", "deep.txt")
    assert tree.folders.resolve(str(tree.root / "sub" / "x.txt"))[1] == ("sub", "x.txt")
    assert tree.folders.resolve("./sub//deeper/../deeper/deep.txt")[1] == (
        "sub",
        "deeper",
        "deep.txt",
    )
    assert tree.folders.resolve(str(tree.root))[1] == ()


def test_resolve_through_a_symlinked_root_alias(tree: Tree, tmp_path: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(tree.root, target_is_directory=True)
    folders = Folders([alias])
    assert folders.roots[0].path == str(tree.root)
    assert folders.resolve(str(alias / "notes.txt"))[1] == ("notes.txt",)
    assert folders.resolve(str(tree.root / "notes.txt"))[1] == ("notes.txt",)
    assert read_file(folders, str(alias / "notes.txt")).text.startswith("first line")


def test_several_roots_and_display_round_trip(tree: Tree, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "plan.txt").write_text("the budget plan\n")
    folders = Folders([tree.root, other])
    hits = search_files(folders, "budget")
    paths = {m.path for m in hits}
    assert "notes.txt" in paths  # first folder: relative
    assert str(other / "plan.txt") in paths  # other folders: absolute
    for match in hits:
        assert "budget" in read_file(folders, match.path).text.casefold()


def test_no_folders_yet() -> None:
    with pytest.raises(FileAccessError) as exc:
        read_file(Folders([]), "notes.txt")
    refused(exc, "no_folders", "Settings → Folders")


def test_root_replaced_after_approval(tree: Tree, tmp_path: Path) -> None:
    tree.root.rename(tmp_path / "moved")
    tree.root.mkdir()
    with pytest.raises(FileAccessError) as exc:
        list_folder(tree.folders, "")
    refused(exc, "folder_unavailable", "moved or replaced", "Settings → Folders")


# ---------------------------------------------------------------------------------------------
# list_folder


def test_list_folder(tree: Tree) -> None:
    os.symlink(tree.outside, tree.root / "link-out")
    os.mkfifo(tree.root / "pipe")
    entries = list_folder(tree.folders, "")
    assert [e.name for e in entries] == [
        "Reports",
        "sub",
        "config.json",
        "data.csv",
        "notes.txt",
        "readme.md",
    ]
    notes = next(e for e in entries if e.name == "notes.txt")
    assert notes.kind == "file" and notes.size == (tree.root / "notes.txt").stat().st_size
    assert notes.modified.tzinfo == UTC
    assert entries[0].kind == "folder" and entries[0].size is None
    assert [e.name for e in list_folder(tree.folders, "sub/deeper")] == ["deep.txt"]
    assert list_folder(tree.folders, ".") == entries


def test_list_folder_errors(tree: Tree) -> None:
    with pytest.raises(FileAccessError) as exc:
        list_folder(tree.folders, "notes.txt")
    refused(exc, "not_folder", "notes.txt", "not a folder")
    with pytest.raises(FileAccessError) as exc:
        list_folder(tree.folders, "nowhere")
    refused(exc, "not_found", "nowhere")


# ---------------------------------------------------------------------------------------------
# search_files


def test_search_by_name_substring_and_glob(tree: Tree) -> None:
    hits = search_files(tree.folders, "REPORT")
    assert [(m.path, m.line_number, m.kind) for m in hits] == [
        ("Reports", None, "folder"),
        ("Reports/Report-2024.txt", None, "file"),
    ]
    assert [m.path for m in search_files(tree.folders, "*.CSV")] == ["data.csv"]
    assert [m.path for m in search_files(tree.folders, "SUB/deeper")] == [
        "sub/deeper",
        "sub/deeper/deep.txt",
    ]


def test_search_by_content_in_text_files(tree: Tree) -> None:
    hits = search_files(tree.folders, "budget")
    assert [(m.path, m.line_number) for m in hits] == [("config.json", 1), ("notes.txt", 2)]
    assert hits[1].snippet == "the Budget is 42"
    assert [(m.path, m.line_number) for m in search_files(tree.folders, "bob")] == [("data.csv", 3)]
    assert [m.path for m in search_files(tree.folders, "markdown")] == ["readme.md"]
    needle = search_files(tree.folders, "needle", folder="sub")
    assert [(m.path, m.line_number, m.snippet) for m in needle] == [
        ("sub/deeper/deep.txt", 1, "a needle in a haystack")
    ]
    assert search_files(tree.folders, "budget", folder="sub") == []
    assert all(".hidden" not in m.path for m in hits)


def test_search_finds_every_word_and_survives_a_guessed_folder(tree: Tree) -> None:
    """How people (and small models) search: words in any order, separators ignored, and a
    sub-folder name that is only a guess searches every folder instead of failing."""
    assert [m.path for m in search_files(tree.folders, "2024 report")] == [
        "Reports/Report-2024.txt"
    ]
    assert [(m.path, m.line_number) for m in search_files(tree.folders, "42 budget")] == [
        ("notes.txt", 2)
    ]
    guessed = search_files(tree.folders, "needle", folder="my notes")
    assert [m.path for m in guessed] == ["sub/deeper/deep.txt"]
    assert search_files(tree.folders, "zebra crossing") == []


def test_search_inside_pdf_and_docx(tree: Tree) -> None:
    (tree.root / "letter.pdf").write_bytes(make_pdf(["Dear Sam", "The invoice total is 99"]))
    make_docx(tree.root / "minutes.docx", ["Meeting minutes", "The invoice was paid"])
    hits = search_files(tree.folders, "invoice")
    assert {m.path for m in hits} == {"letter.pdf", "minutes.docx"}
    pdf = next(m for m in hits if m.path == "letter.pdf")
    assert "invoice total is 99" in pdf.snippet
    text = read_file(tree.folders, "letter.pdf").text.splitlines()
    assert pdf.line_number is not None and "invoice" in text[pdf.line_number - 1]


def test_search_limit_cap_and_empty_query(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(10):
        (tree.root / f"many-{i}.txt").write_text("match\n")
    assert len(search_files(tree.folders, "many", limit=3)) == 3
    (tree.root / "big.txt").write_text("zebra\n" + "x" * 5000)
    monkeypatch.setattr(operations, "MAX_SEARCH_TEXT_BYTES", 1000)
    assert search_files(tree.folders, "zebra") == []
    with pytest.raises(FileAccessError) as exc:
        search_files(tree.folders, "  ")
    refused(exc, "invalid", "empty")


@pytest.mark.timeout(20)
def test_search_never_leaves_the_root(tree: Tree) -> None:
    before = snapshot(tree.outside)
    os.symlink(tree.outside, tree.root / "dir-link", target_is_directory=True)
    os.symlink(tree.outside / "secret.txt", tree.root / "file-link.txt")
    os.mkfifo(tree.root / "pipe.txt")  # a content search must not hang on it
    os.link(tree.outside / "secret.md", tree.root / "hard.md")
    assert search_files(tree.folders, "TOP SECRET") == []
    assert search_files(tree.folders, "secret") == []
    names = {m.path for m in search_files(tree.folders, "link")}
    assert names == set()  # links are not offered, even by name
    tree.untouched(before)
    with pytest.raises(FileAccessError) as exc:
        search_files(tree.folders, "x", folder="../outside")
    refused(exc, "outside", "../outside")


# ---------------------------------------------------------------------------------------------
# read_file


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("notes.txt", "first line\nthe Budget is 42\nlast line\n"),
        ("readme.md", "# Title\n\nSome *markdown* text.\n"),
        ("data.csv", "name,amount\nalice,10\nbob,20\n"),
        ("config.json", '{"colour": "blue", "budget": 7}\n'),
    ],
)
def test_read_text_types(tree: Tree, name: str, expected: str) -> None:
    result = read_file(tree.folders, name)
    assert (result.path, result.text, result.kind, result.truncated) == (
        name,
        expected,
        "text",
        False,
    )
    assert result.encoding == "utf-8" and result.size == len(expected.encode())


def test_read_pdf(tree: Tree) -> None:
    (tree.root / "two pages.pdf").write_bytes(make_pdf(["Page one\nsecond line", "Page two"]))
    result = read_file(tree.folders, "two pages.pdf")
    assert result.kind == "pdf" and not result.truncated
    assert "Page one" in result.text and "second line" in result.text
    assert result.text.index("Page one") < result.text.index("Page two")
    short = read_file(tree.folders, "two pages.pdf", max_chars=5)
    assert short.text == "Page " and short.truncated


def test_read_docx(tree: Tree) -> None:
    make_docx(tree.root / "memo.docx", ["Hello", "World"], table=[["a", "b"], ["1", "2"]])
    result = read_file(tree.folders, "memo.docx")
    assert result.kind == "docx"
    assert result.text == "Hello\nWorld\na\tb\n1\t2"


def test_read_other_encodings_and_truncation(tree: Tree) -> None:
    (tree.root / "old.txt").write_bytes("café über naïve".encode("cp1252"))
    old = read_file(tree.folders, "old.txt")
    assert old.text == "café über naïve" and old.encoding == "windows-1252"
    (tree.root / "wide.txt").write_bytes("hello wide".encode("utf-16"))
    assert read_file(tree.folders, "wide.txt").text == "hello wide"
    (tree.root / "long.txt").write_text("é" * 1000)
    cut = read_file(tree.folders, "long.txt", max_chars=10)
    assert cut.text == "é" * 10 and cut.truncated
    exact = read_file(tree.folders, "long.txt", max_chars=1000)
    assert exact.text == "é" * 1000 and not exact.truncated


def test_read_refuses_binary_and_unsupported(tree: Tree) -> None:
    (tree.root / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "photo.png")
    refused(exc, "not_text", "photo.png", "PNG image", ".docx")
    (tree.root / "sheet.xlsx").write_bytes(b"PK\x03\x04" + bytes(30))
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "sheet.xlsx")
    refused(exc, "unsupported", "sheet.xlsx", ".xlsx")
    (tree.root / "fake.pdf").write_text("not really a pdf")
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "fake.pdf")
    refused(exc, "unsupported", "fake.pdf", "not a valid PDF")
    (tree.root / "broken.pdf").write_bytes(b"%PDF-1.4\n garbage")
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "broken.pdf")
    refused(exc, "unsupported", "broken.pdf", "damaged")


def test_read_password_protected_pdf(tree: Tree) -> None:
    import io

    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_pdf(["Private"]))))
    writer.encrypt("letmein", algorithm="RC4-128")
    with (tree.root / "locked.pdf").open("wb") as out:
        writer.write(out)
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "locked.pdf")
    refused(exc, "unsupported", "locked.pdf", "password")


def test_read_errors(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "missing.txt")
    refused(exc, "not_found", "missing.txt")
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "sub")
    refused(exc, "is_folder", "'sub' is a folder")
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "notes.txt/inner.txt")
    refused(exc, "not_folder", "notes.txt")
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, ".hidden.txt")
    refused(exc, "hidden", ".hidden.txt", "passwords")
    make_docx(tree.root / "big.docx", ["x" * 5000])
    monkeypatch.setattr(operations, "MAX_DOCUMENT_BYTES", 1000)
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "big.docx")
    refused(exc, "too_large", "big.docx", "limit")


def test_read_permission_denied(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    spy = os.open

    def denied(path, flags, mode=0o777, *, dir_fd=None):
        if path == "notes.txt":
            raise PermissionError(13, "Permission denied")
        return spy(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "notes.txt")
    refused(exc, "permission", "not allowed to read 'notes.txt'", "permission")


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_permission_denied_for_real(tree: Tree) -> None:  # pragma: no cover - not root
    (tree.root / "notes.txt").chmod(0)
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "notes.txt")
    refused(exc, "permission", "notes.txt")


# ---------------------------------------------------------------------------------------------
# preview_write / write_file


def test_write_new_file_creates_parents(tree: Tree) -> None:
    plan = preview_write(tree.folders, "new/inner/todo.md", "- milk\n- eggs\n")
    assert not plan.exists and plan.old_text is None and plan.old_sha256 is None
    assert plan.new_size == len("- milk\n- eggs\n")
    assert "+- milk" in plan.diff and "/dev/null" in plan.diff
    assert not (tree.root / "new").exists()  # a preview changes nothing
    result = write_file(tree.folders, "new/inner/todo.md", "- milk\n- eggs\n")
    assert result.created and result.bytes_written == 14 and result.path == "new/inner/todo.md"
    assert (tree.root / "new/inner/todo.md").read_text() == "- milk\n- eggs\n"
    assert result.sha256 == plan.new_sha256
    assert not [p for p in tree.root.rglob("*hearth-tmp*")]


def test_write_refuses_overwrite_without_flag(tree: Tree) -> None:
    before = (tree.root / "notes.txt").read_bytes()
    for call in (preview_write, write_file):
        with pytest.raises(FileAccessError) as exc:
            call(tree.folders, "notes.txt", "replaced")
        refused(exc, "exists", "notes.txt", "already exists", "overwrite")
    assert (tree.root / "notes.txt").read_bytes() == before


def test_overwrite_with_flag_shows_diff_and_keeps_mode(tree: Tree) -> None:
    target = tree.root / "notes.txt"
    target.chmod(0o750)  # execute bits are dropped, the rest kept
    plan = preview_write(tree.folders, "notes.txt", "first line\nthe Budget is 43\n", True)
    assert plan.exists and plan.old_text == "first line\nthe Budget is 42\nlast line\n"
    assert plan.old_sha256 == hashlib.sha256(target.read_bytes()).hexdigest()
    assert "-the Budget is 42" in plan.diff and "+the Budget is 43" in plan.diff
    assert "-last line" in plan.diff and "--- a/notes.txt" in plan.diff
    result = write_planned(tree.folders, plan, "first line\nthe Budget is 43\n")
    assert not result.created
    assert target.read_text() == "first line\nthe Budget is 43\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert not [p for p in tree.root.rglob("*hearth-tmp*")]


def test_write_refuses_when_file_changed_since_preview(tree: Tree) -> None:
    plan = preview_write(tree.folders, "notes.txt", "new text\n", overwrite=True)
    (tree.root / "notes.txt").write_text("someone else edited this\n")
    with pytest.raises(FileAccessError) as exc:
        write_file(
            tree.folders, "notes.txt", "new text\n", True, expected_old_sha256=plan.old_sha256
        )
    refused(exc, "changed", "notes.txt", "changed after", "Preview the change again")
    assert (tree.root / "notes.txt").read_text() == "someone else edited this\n"


def test_write_planned_binds_new_file_and_content(tree: Tree) -> None:
    plan = preview_write(tree.folders, "fresh.txt", "mine\n", overwrite=True)
    assert not plan.exists
    with pytest.raises(FileAccessError) as exc:
        write_planned(tree.folders, plan, "something else\n")
    refused(exc, "changed", "not what was approved")
    (tree.root / "fresh.txt").write_text("appeared meanwhile\n")
    with pytest.raises(FileAccessError) as exc:
        write_planned(tree.folders, plan, "mine\n")
    refused(exc, "exists", "fresh.txt")
    assert (tree.root / "fresh.txt").read_text() == "appeared meanwhile\n"


def test_new_file_never_clobbers_one_that_appears(
    tree: Tree, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = operations._write_temp

    def racing(dir_fd: int, name: str, *args, **kwargs):
        temp = real(dir_fd, name, *args, **kwargs)
        (tree.root / name).write_text("created by another program\n")
        return temp

    monkeypatch.setattr(operations, "_write_temp", racing)
    with pytest.raises(FileAccessError) as exc:
        write_file(tree.folders, "race.txt", "from hearth\n")
    refused(exc, "exists", "race.txt", "Nothing was changed")
    assert (tree.root / "race.txt").read_text() == "created by another program\n"
    assert not [p for p in tree.root.rglob("*hearth-tmp*")]


@pytest.mark.parametrize(
    "name",
    [
        "run.sh",
        "setup.exe",
        "tool.py",
        "start.desktop",
        "go.bat",
        "go.CMD",
        "profile.ps1",
        "Invoice.pdf.EXE",
    ],
)
def test_write_refuses_executable_types(tree: Tree, name: str) -> None:
    for call in (preview_write, write_file):
        with pytest.raises(FileAccessError) as exc:
            call(tree.folders, name, "echo hi\n")
        refused(exc, "executable", name, "could run on this computer")
    assert not (tree.root / name).exists()


@pytest.mark.parametrize(
    ("name", "reason", "words"),
    [
        ("README", "unsupported", ("without an extension", ".txt")),
        ("report.docx", "unsupported", ("a .docx file", ".md")),
        ("page.html", "unsupported", (".html",)),
        (".bashrc", "hidden", ("hidden",)),
        ("sub/.config/autostart/x.txt", "hidden", ("hidden",)),
        ("evil\u202etxt.exe.txt", "invalid", ("invisible formatting",)),
        ("trailing .txt ", "invalid", ("space",)),
        ("box.txt", "is_folder", ("'box.txt' is a folder",)),
    ],
)
def test_write_refuses_bad_names(tree: Tree, name: str, reason: str, words: tuple[str]) -> None:
    (tree.root / "box.txt").mkdir()
    before = snapshot(tree.root)
    with pytest.raises(FileAccessError) as exc:
        write_file(tree.folders, name, "text\n", overwrite=True)
    refused(exc, reason, *words)
    assert snapshot(tree.root) == before


def test_write_too_large(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(operations, "MAX_WRITE_BYTES", 10)
    with pytest.raises(FileAccessError) as exc:
        write_file(tree.folders, "big.txt", "x" * 11)
    refused(exc, "too_large", "big.txt", "limit")
    assert not (tree.root / "big.txt").exists()


# ---------------------------------------------------------------------------------------------
# escapes: every one refused, clearly, with nothing outside read or changed

ESCAPES = [
    ("../outside/secret.txt", "outside", "is outside the folders Hearth may use"),
    ("sub/../../outside/secret.txt", "outside", "is outside the folders Hearth may use"),
    ("sub/deeper/../../../outside/secret.txt", "outside", "is outside"),
    ("OUTSIDE_ABS", "outside", "is outside the folders Hearth may use"),
    ("/etc/passwd", "outside", "is outside the folders Hearth may use"),
    ("/dev/zero", "outside", "is outside the folders Hearth may use"),
    ("notes.txt\x00../../outside/secret.txt", "invalid", "control character"),
    ("", "invalid", "No file or folder name"),
    ("..\\outside\\secret.txt", "invalid", "backslash"),
]


@pytest.mark.parametrize(("path", "reason", "words"), ESCAPES)
@pytest.mark.parametrize("operation", ["read", "list", "search", "preview", "write"])
def test_lexical_escapes_refused(
    tree: Tree, path: str, reason: str, words: str, operation: str
) -> None:
    if path == "OUTSIDE_ABS":
        path = str(tree.outside / "secret.txt")
    if operation == "list" and path == "":
        pytest.skip("an empty path lists the first folder")
    before = snapshot(tree.outside)
    calls = {
        "read": lambda: read_file(tree.folders, path),
        "list": lambda: list_folder(tree.folders, path),
        "search": lambda: search_files(tree.folders, "secret", folder=path or "x\x00"),
        "preview": lambda: preview_write(tree.folders, path, "pwned\n", True),
        "write": lambda: write_file(tree.folders, path, "pwned\n", True),
    }
    with pytest.raises(FileAccessError) as exc:
        calls[operation]()
    if operation == "search" and path == "":
        reason, words = "invalid", "control character"
    message = refused(exc, reason, words)
    if reason == "outside":
        assert str(tree.root) in message and "Settings → Folders" in message
    assert "\x00" not in message
    tree.untouched(before)


PIECES = ["..", ".", "", "sub", "deeper", "outside", "secret.txt", "notes.txt", "~", "\x00"]


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=8), absolute=st.booleans())
def test_no_path_reads_outside(tree: Tree, pieces: list[str], absolute: bool) -> None:
    """Any mix of names, dots and slashes either reads a file inside or is refused."""
    path = "/".join(pieces)
    if absolute:
        path = f"{tree.root}/{path}"
    tree.opened.clear()
    try:
        result = read_file(tree.folders, path)
    except FileAccessError as exc:
        assert exc.message and exc.reason
    else:
        assert SECRET not in result.text
    try:
        root, parts = tree.folders.resolve(path)
    except FileAccessError:
        pass
    else:
        assert root.path == str(tree.root)
        assert all(p and p not in (".", "..") and "/" not in p for p in parts)
    leaked = [p for p in tree.opened if not p.startswith(str(tree.root))]
    assert not leaked


def test_outside_message_reads_well(tree: Tree) -> None:
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "../secret.txt")
    assert exc.value.message == (
        f"'../secret.txt' is outside the folders Hearth may use ({tree.root}). Add the folder "
        "in Settings → Folders if you want Hearth to use it."
    )


def test_symlinked_file_pointing_outside(tree: Tree) -> None:
    before = snapshot(tree.outside)
    os.symlink(tree.outside / "secret.txt", tree.root / "innocent.txt")
    for call in (
        lambda: read_file(tree.folders, "innocent.txt"),
        lambda: preview_write(tree.folders, "innocent.txt", "pwned\n", True),
        lambda: write_file(tree.folders, "innocent.txt", "pwned\n", True),
    ):
        with pytest.raises(FileAccessError) as exc:
            call()
        refused(exc, "link", "innocent.txt", "does not follow links")
    tree.untouched(before)
    assert os.path.islink(tree.root / "innocent.txt")


def test_symlinked_directory_pointing_outside(tree: Tree) -> None:
    before = snapshot(tree.outside)
    os.symlink(tree.outside, tree.root / "shared", target_is_directory=True)
    for call in (
        lambda: read_file(tree.folders, "shared/secret.txt"),
        lambda: list_folder(tree.folders, "shared"),
        lambda: search_files(tree.folders, "secret", folder="shared"),
        lambda: preview_write(tree.folders, "shared/new.txt", "pwned\n"),
        lambda: write_file(tree.folders, "shared/new.txt", "pwned\n"),
        lambda: write_file(tree.folders, "shared/secret.txt", "pwned\n", True),
        lambda: write_file(tree.folders, "shared/deeper/new.txt", "pwned\n"),
    ):
        with pytest.raises(FileAccessError) as exc:
            call()
        refused(exc, "link", "shared", "does not follow links")
    tree.untouched(before)


def test_symlink_staying_inside_is_refused_too(tree: Tree) -> None:
    os.symlink("notes.txt", tree.root / "alias.txt")
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "alias.txt")
    refused(exc, "link", "alias.txt")


def test_hard_link_to_outside_file(tree: Tree) -> None:
    os.link(tree.outside / "secret.txt", tree.root / "hard.txt")
    before = snapshot(tree.outside)
    for call, doing in (
        (lambda: read_file(tree.folders, "hard.txt"), "read"),
        (lambda: preview_write(tree.folders, "hard.txt", "pwned\n", True), "change"),
        (lambda: write_file(tree.folders, "hard.txt", "pwned\n", True), "change"),
    ):
        with pytest.raises(FileAccessError) as exc:
            call()
        refused(exc, "hard_link", "hard.txt", "hard link", f"does not {doing} such files")
    assert snapshot(tree.outside) == before
    assert (tree.outside / "secret.txt").read_text() == SECRET + "\n"


@pytest.mark.timeout(10)
def test_fifo_inside_root_is_refused_without_hanging(tree: Tree) -> None:
    os.mkfifo(tree.root / "pipe.txt")
    for call in (
        lambda: read_file(tree.folders, "pipe.txt"),
        lambda: write_file(tree.folders, "pipe.txt", "x\n", True),
        lambda: preview_write(tree.folders, "pipe.txt", "x\n", True),
    ):
        with pytest.raises(FileAccessError) as exc:
            call()
        refused(exc, "special", "pipe.txt", "not an ordinary file")
    assert stat.S_ISFIFO((tree.root / "pipe.txt").lstat().st_mode)


@pytest.mark.timeout(10)
def test_fifo_swapped_in_after_the_check_does_not_hang(
    tree: Tree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even if the lstat saw a file, O_NONBLOCK + fstat refuse a FIFO put there afterwards."""
    real_stat = os.stat

    def swapping_stat(path, *args, **kwargs):
        result = real_stat(path, *args, **kwargs)
        if path == "victim.txt" and kwargs.get("dir_fd") is not None:
            os.unlink(tree.root / "victim.txt")
            os.mkfifo(tree.root / "victim.txt")
        return result

    (tree.root / "victim.txt").write_text("plain\n")
    monkeypatch.setattr(os, "stat", swapping_stat)
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "victim.txt")
    refused(exc, "special", "victim.txt")


def test_device_files_are_refused(tree: Tree) -> None:
    before = snapshot(tree.outside)
    os.symlink("/dev/zero", tree.root / "zero.txt")
    with pytest.raises(FileAccessError) as exc:
        read_file(tree.folders, "zero.txt")
    refused(exc, "link", "zero.txt")
    if os.geteuid() == 0 and sys.platform.startswith("linux"):
        os.mknod(tree.root / "zero-dev.txt", stat.S_IFCHR | 0o666, os.makedev(1, 5))
        with pytest.raises(FileAccessError) as exc:
            read_file(tree.folders, "zero-dev.txt")
        refused(exc, "special", "zero-dev.txt", "device")
        assert not any(p.endswith("zero-dev.txt") for p in tree.opened)  # never even opened
        with pytest.raises(FileAccessError) as exc:
            write_file(tree.folders, "zero-dev.txt", "x\n", True)
        refused(exc, "special", "zero-dev.txt")
    tree.untouched(before)


def test_directory_swapped_for_symlink_between_preview_and_write(tree: Tree) -> None:
    before = snapshot(tree.outside)
    plan = preview_write(tree.folders, "sub/report.txt", "hello\n")
    (tree.root / "sub").rename(tree.root / "sub-moved")
    os.symlink(tree.outside, tree.root / "sub", target_is_directory=True)
    with pytest.raises(FileAccessError) as exc:
        write_planned(tree.folders, plan, "hello\n")
    refused(exc, "link", "sub/report.txt", "does not follow links")
    assert not (tree.outside / "report.txt").exists()
    tree.untouched(before)


def test_directory_swapped_for_symlink_during_write(
    tree: Tree, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the folder is open the write goes into *that* folder, whatever its name now is."""
    before = snapshot(tree.outside)
    real = operations._existing

    def swap_then_check(*args, **kwargs):
        (tree.root / "sub").rename(tree.root / "sub-moved")
        os.symlink(tree.outside, tree.root / "sub", target_is_directory=True)
        return real(*args, **kwargs)

    monkeypatch.setattr(operations, "_existing", swap_then_check)
    result = write_file(tree.folders, "sub/report.txt", "hello\n")
    assert result.created
    assert (tree.root / "sub-moved" / "report.txt").read_text() == "hello\n"
    assert not (tree.outside / "report.txt").exists()
    tree.untouched(before)


@pytest.mark.timeout(60)
def test_writes_and_reads_racing_a_symlink_flipper(tree: Tree) -> None:
    """A thread keeps swapping 'sub' for a symlink to outside; nothing ever crosses over."""
    (tree.root / "sub" / "secret.txt").write_text("inside\n")
    before = snapshot(tree.outside)
    link = tree.root / "flip-link"
    os.symlink(tree.outside, link, target_is_directory=True)
    sub, aside = tree.root / "sub", tree.root / "sub-aside"
    stop = threading.Event()
    flips = 0

    def flipper() -> None:
        nonlocal flips
        n = 0
        while not stop.is_set():
            n += 1
            time.sleep(0)  # let the writer run between flips (the GIL would favour one side)
            try:
                os.rename(sub, aside)
            except OSError:
                continue
            try:
                os.rename(link, sub)  # 'sub' is now the symlink to outside
                flips += 1
                os.rename(sub, link)
            except OSError:
                pass  # a writer recreated 'sub' meanwhile
            try:
                os.rename(aside, sub)
            except OSError:
                os.rename(aside, tree.root / f"sub-kept-{n}")

    thread = threading.Thread(target=flipper, daemon=True)
    thread.start()
    outcomes: dict[str, int] = {}
    # At least 300 rounds, and on until a write got through and the link was swapped in at
    # least once (a loaded machine may schedule one side for a long stretch), within 20 s.
    deadline = time.monotonic() + 20
    try:
        for i in itertools.count():
            done = i >= 300 and outcomes.get("written", 0) > 0 and flips > 0
            if done or (i >= 300 and time.monotonic() > deadline):
                break
            try:
                write_file(tree.folders, f"sub/f{i}.txt", f"{i}\n")
                outcomes["written"] = outcomes.get("written", 0) + 1
            except FileAccessError as exc:
                outcomes[exc.reason] = outcomes.get(exc.reason, 0) + 1
            try:
                text = read_file(tree.folders, "sub/secret.txt").text
                assert SECRET not in text
            except FileAccessError as exc:
                assert exc.reason in ("link", "not_found", "not_folder"), exc.message
    finally:
        stop.set()
        thread.join(10)
    assert set(outcomes) <= {"written", "link", "not_found", "not_folder", "exists"}, outcomes
    assert outcomes.get("written", 0) > 0
    assert flips > 0
    assert snapshot(tree.outside) == before


def test_public_api_is_exported() -> None:
    for name in files.__all__:
        assert hasattr(files, name)
