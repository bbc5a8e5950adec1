"""What `search_documents` hands the model: the few passages that matter, with their source.

A small model has a 4–8k-token context, so the answer is cut to `MAX_RESULT_CHARS` (about
750 tokens) whatever the passages' length: the best passages whole, up to `MAX_PASSAGE_CHARS`
each, then none. Each names the file as the file tools name it (relative to the first allowed
folder, absolute in the others), so `read_file` opens the same file, and where in it the
passage sits ("page 2", "Lease › Notice").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.store.documents import DocumentStore, QueryEmbedder
from connectors.files import Folders

MAX_RESULTS = 5
MAX_PASSAGE_CHARS = 900
MAX_RESULT_CHARS = 3000


@dataclass(frozen=True)
class Found:
    """The tool's answer: passages for the model, and the files they came from."""

    passages: list[dict[str, str]]
    files: list[str]
    indexed_files: int

    def content(self) -> Any:
        if self.passages:
            return self.passages
        if not self.indexed_files:
            return (
                "Your documents are not indexed yet (Hearth indexes the allowed folders in the "
                "background). Try search_files for now."
            )
        return f"No passage of the {self.indexed_files} indexed files matches."


def find_passages(
    store: DocumentStore, folders: Folders, query: str, embedder: QueryEmbedder | None = None
) -> Found:
    """The best passages under the allowed `folders` for `query`, cut to fit; by meaning too
    where an `embedder` is given (issue #39)."""
    roots = {root.path: root for root in folders.roots}
    hits = store.search(query, list(roots), limit=MAX_RESULTS, embedder=embedder)
    passages: list[dict[str, str]] = []
    used = 0
    for hit in hits:
        text = (
            hit.text if len(hit.text) <= MAX_PASSAGE_CHARS else hit.text[:MAX_PASSAGE_CHARS] + "…"
        )
        if passages and used + len(text) > MAX_RESULT_CHARS:
            break
        path = folders.display(roots[hit.root], tuple(hit.path.split("/")))
        passages.append({"path": path, "where": hit.location, "text": text})
        used += len(text)
    files = list(dict.fromkeys(p["path"] for p in passages))
    indexed = store.counts(list(roots))[0] if not passages else len(files)
    return Found(passages, files, indexed)
