"""The index brought up to date before a one-turn command (`ask`, issue #42).

The window indexes its folders in the background; a command that runs one turn has no
background, so before a turn that may call `search_documents` it runs one pass itself: the
window's pass (`index_in_child`: only new and changed files are read, in a child process,
with the same limits and refusals), on the folders of this run only, and without forgetting
the passages of other folders (the window's). The person hears about it only when it matters:
how many files it read once that takes more than `MOMENT_SECONDS`, each file left out and why,
and a pass cut short at `MAX_SECONDS` (the turn then goes on with what is indexed, and the next
run carries on where this one stopped, since finished files are not read again).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from app.agent.documents.document_index import IndexReport
from app.agent.documents.index_process import IndexFailed, index_in_child

MOMENT_SECONDS = 1.0  # a pass shorter than this goes unmentioned
MAX_SECONDS = 30.0  # a first pass over a large folder stops here (about 3,000 files)
MAX_LISTED_PROBLEMS = 10


def update_before_turn(
    data_dir: Path,
    folders: Sequence[Path],
    say: Callable[[str], None],
    *,
    max_seconds: float = MAX_SECONDS,
) -> IndexReport | None:
    """Bring the index of `folders` up to date, telling `say` what the person should know;
    None when the pass could not run (the turn goes on with what was indexed before)."""
    if not folders:
        return None
    started = time.monotonic()
    announced = False
    latest = (0, 0)

    def progress(done: int, total: int, _path: str) -> None:
        nonlocal latest
        latest = (done, total)
        out_of_time()

    def out_of_time() -> bool:
        """Asked between the child's messages too (every `POLL_SECONDS`), so a pass stuck on
        one large file is announced and stopped on time."""
        nonlocal announced
        elapsed = time.monotonic() - started
        if not announced and latest[1] and elapsed > MOMENT_SECONDS:
            announced = True
            say(f"reading {latest[1]:,} new or changed files for the document index…")
        return elapsed > max_seconds

    try:
        report = index_in_child(
            data_dir,
            folders,
            progress=progress,
            should_stop=out_of_time,
            forget_other_folders=False,  # the window's folders keep their passages
        )
    except IndexFailed as exc:
        say(f"your documents could not be indexed ({exc}); this answer uses what was indexed.")
        return None
    seconds = time.monotonic() - started
    for path, why in report.problems[:MAX_LISTED_PROBLEMS]:
        say(f"document index: {path}: {why}")
    if len(report.problems) > MAX_LISTED_PROBLEMS:
        say(f"document index: … and {len(report.problems) - MAX_LISTED_PROBLEMS:,} more problems")
    if not report.complete:
        total = f" of {latest[1]:,}" if latest[1] else ""
        say(
            f"your folders are too large to index in {max_seconds:g} s: {report.read:,}{total} "
            "new or changed files were read. This answer uses what is indexed so far; the next "
            "run carries on where this one stopped."
        )
    elif report.read and (announced or seconds > MOMENT_SECONDS):
        say(f"the document index read {report.read:,} new or changed files ({seconds:.1f} s).")
    return report
