"""What drawing a streamed reply as Markdown costs the GUI thread: one redraw of a reply of
each length after one more token came (the pieces already drawn are reused), with its layout
and paint in a shown (offscreen) view, against inserting the whole text as plain text (what
the view did before), alternately in one run.
The view waits ten times a redraw's cost before the next one.

    python bench/chat_render.py [--runs 7] [--json out.json]
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _common import interleave, median, report
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QTextBrowser

from app.ui.chat_view import ChatView

PARAGRAPH = (
    "Here is **what I found** in `notes.txt`:\n\n- three pelicans on Tuesday\n- one heron\n\n"
    "```python\nfor bird in birds:\n    print(bird)\n```\n\n| day | birds |\n|---|---|\n"
    "| Tue | 3 |\n\nSee [the guide](https://birds.example/guide) for more.\n\n"
)


def redraw(view: ChatView, text: str) -> float:
    """One redraw while streaming: the reply so far was drawn, one more token came."""
    view.clear()
    view.begin_reply()
    view.append_reply_text(text)
    view._render_reply()  # what the throttle timer runs
    view.append_reply_text(" and one more word")
    QApplication.processEvents()
    started = time.perf_counter()
    view._render_reply()
    QApplication.processEvents()  # its layout and paint
    spent = time.perf_counter() - started
    view.end_reply()
    return spent


def finish(view: ChatView, text: str) -> float:
    """The reply's end: drawn whole once more (cached pieces, a Copy link, the note)."""
    view.clear()
    view.begin_reply()
    view.append_reply_text(text)
    view._render_reply()
    QApplication.processEvents()
    started = time.perf_counter()
    view.end_reply()
    QApplication.processEvents()
    return time.perf_counter() - started


def plain(browser: QTextBrowser, text: str) -> float:
    browser.clear()
    QApplication.processEvents()
    started = time.perf_counter()
    cursor = QTextCursor(browser.document())
    cursor.insertText(text)
    QApplication.processEvents()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json")
    args = parser.parse_args()
    QApplication([])
    view, browser = ChatView(), QTextBrowser()
    view.resize(800, 600)
    browser.resize(800, 600)
    view.show()
    browser.show()
    results = {}
    for repeats in (4, 16, 64):
        text = PARAGRAPH * repeats
        values = interleave(
            args.runs,
            markdown=lambda text=text: redraw(view, text),
            plain=lambda text=text: plain(browser, text),
            finish=lambda text=text: finish(view, text),
        )
        markdown_ms, plain_ms = median(values["markdown"]) * 1000, median(values["plain"]) * 1000
        results[f"{len(text)} chars"] = {
            "markdown_redraw_ms": round(markdown_ms, 2),
            "plain_insert_ms": round(plain_ms, 2),
            "ratio": round(markdown_ms / plain_ms, 1) if plain_ms else None,
            "end_of_reply_ms": round(median(values["finish"]) * 1000, 2),
            "next_redraw_after_ms": max(50, min(1000, int(markdown_ms * 10))),
        }
    report("chat_render", {"runs": args.runs, "sizes": results}, args.json)


if __name__ == "__main__":
    main()
