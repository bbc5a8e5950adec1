"""The README says which requests are intents (issue #35): every intent of the catalogue is in
its list, and the list names no intent the catalogue has not got. The list may move from the
README into docs/: the section is found by its heading wherever it is."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

from app.agent.intents.catalog import BY_RULE, INTENTS

ROOT = Path(__file__).resolve().parents[2]
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def _intent_sections() -> list[str]:
    """The text of every section, in README.md or docs/, whose heading speaks of intents."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    sections = []
    for page in pages:
        if not page.is_file():
            continue
        level, lines = 0, cast(list[str] | None, None)
        for line in page.read_text(encoding="utf-8").splitlines():
            heading = _HEADING.match(line)
            if heading and lines is not None and len(heading.group(1)) <= level:
                sections.append("\n".join(lines))
                lines = None
            if heading and lines is None and "intent" in heading.group(2).lower():
                level, lines = len(heading.group(1)), []
            elif lines is not None:
                lines.append(line)
        if lines is not None:
            sections.append("\n".join(lines))
    return sections


def _listed(sections: list[str]) -> set[str]:
    """The intent names in the sections' table: `code` words in the column after the first."""
    names: set[str] = set()
    for section in sections:
        for row in section.splitlines():
            cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
            if row.lstrip().startswith("|") and len(cells) >= 2:
                names |= set(re.findall(r"`([a-z_]+)`", cells[1]))
    return names


def test_every_intent_of_the_catalogue_is_in_the_documented_list() -> None:
    sections = _intent_sections()
    assert sections, "no README or docs/ section about intents (its heading names them)"
    listed = _listed(sections)
    catalogue = {intent.name for intent in (*INTENTS, *BY_RULE)}
    assert catalogue - listed == set(), "intents missing from the documented list"
    assert listed - catalogue == set(), "the documented list names intents that do not exist"
