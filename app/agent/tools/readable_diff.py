"""A preview's unified diffs as lines people can read: added, removed, unchanged, where.

A file change is previewed as a unified diff (`connectors.files`), whose `---`/`+++` headers
and `@@ -1 +1 @@` markers mean nothing to most people. Here each diff becomes its lines with
a kind, and each `@@` a "Lines 4–9" note; the headers go (the preview's first line already
names the file). The `+`/`-` marks stay as a cue that does not depend on colour.

Hunks are read by their line counts, not by how a line looks: a file whose text holds
"++ b/x" or "@@" stays text of the file, it cannot pass for a header.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

LineKind = Literal["text", "where", "added", "removed", "same"]

_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class DiffLine(NamedTuple):
    kind: LineKind
    text: str


def _where(start: int, count: int, old_start: int) -> str:
    if count == 0:
        return f"Removed after line {old_start - 1}:" if old_start > 1 else "Removed at the start:"
    return f"Line {start}:" if count == 1 else f"Lines {start}–{start + count - 1}:"


def readable_lines(preview: str) -> list[DiffLine]:
    """The preview's lines with their kinds; text outside diffs is kept as it is."""
    lines = preview.split("\n")
    out: list[DiffLine] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        headed = (
            line.startswith("--- ")
            and i + 2 < len(lines)
            and lines[i + 1].startswith("+++ ")
            and _HUNK.match(lines[i + 2]) is not None
        )
        if not headed:
            out.append(DiffLine("text", line))
            i += 1
            continue
        i += 2
        while i < len(lines) and (hunk := _HUNK.match(lines[i])) is not None:
            old_start, new_start = int(hunk[1]), int(hunk[3])
            old = int(hunk[2]) if hunk[2] is not None else 1
            new = int(hunk[4]) if hunk[4] is not None else 1
            out.append(DiffLine("where", _where(new_start, new, old_start)))
            i += 1
            while (old > 0 or new > 0) and i < len(lines):
                body = lines[i]
                mark = body[:1]
                if mark == " " and old > 0 and new > 0:
                    out.append(DiffLine("same", body))
                    old, new = old - 1, new - 1
                elif mark == "-" and old > 0:
                    out.append(DiffLine("removed", body))
                    old -= 1
                elif mark == "+" and new > 0:
                    out.append(DiffLine("added", body))
                    new -= 1
                else:  # not what the counts promise: the rest is shown as plain text
                    break
                i += 1
    return out


def readable_text(preview: str) -> str:
    """The readable lines as plain text (what a screen reader and a copy get)."""
    return "\n".join(line.text for line in readable_lines(preview))
