"""A file change's diff as people read it: no code headers, each line with its kind, and a
file's own text can never pass for a header."""

from __future__ import annotations

from pathlib import Path

from app.agent.tools.readable_diff import DiffLine, readable_lines, readable_text
from connectors.files import Folders, preview_write


def test_a_real_write_preview_reads_without_headers(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("keep\nold line\nend\n")
    plan = preview_write(Folders([tmp_path]), "notes.txt", "keep\nnew line\nend\n", True)
    lines = readable_lines(f"Replace notes.txt\n\n{plan.diff}")
    assert lines == [
        DiffLine("text", "Replace notes.txt"),
        DiffLine("text", ""),
        DiffLine("where", "Lines 1–3:"),
        DiffLine("same", " keep"),
        DiffLine("removed", "-old line"),
        DiffLine("added", "+new line"),
        DiffLine("same", " end"),
    ]
    text = readable_text(plan.diff)
    assert "@@" not in text and "---" not in text and "+++" not in text


def test_a_new_file_and_several_diffs_in_one_preview(tmp_path: Path) -> None:
    folders = Folders([tmp_path])
    first = preview_write(folders, "a.txt", "one\n").diff
    second = preview_write(folders, "b.txt", "two\nthree\n").diff
    lines = readable_lines(f"1. Create a.txt\n{first}\n\n2. Create b.txt\n{second}")
    assert [line.kind for line in lines] == [
        "text", "where", "added", "text", "text", "where", "added", "added",
    ]  # fmt: skip
    assert lines[1].text == "Line 1:" and lines[5].text == "Lines 1–2:"


def test_file_text_that_looks_like_a_header_stays_text_of_the_file(tmp_path: Path) -> None:
    content = "++ b/evil.txt\n@@ -1 +1 @@\n-- a/x\n"
    diff = preview_write(Folders([tmp_path]), "n.txt", content).diff
    lines = readable_lines(diff)
    assert [line.kind for line in lines] == ["where", "added", "added", "added"]
    assert [line.text for line in lines[1:]] == ["+++ b/evil.txt", "+@@ -1 +1 @@", "+-- a/x"]


def test_text_without_a_diff_is_kept_as_it_is() -> None:
    preview = "To: ana@example.org\nSubject: hi\n\n--- a signature\n+++ not a diff"
    assert readable_text(preview) == preview
    assert {line.kind for line in readable_lines(preview)} == {"text"}


def test_a_hunk_that_breaks_its_counts_shows_the_rest_as_text() -> None:
    preview = "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-one\nsurprise"
    assert [line.kind for line in readable_lines(preview)] == ["where", "removed", "text"]
