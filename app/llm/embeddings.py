"""Sentence embeddings computed by llama.cpp: the documents' tier by meaning (issue #39).

An `Embedder` opens a GGUF embedding model (`llama_cpp.Llama(embedding=True)`, the pooling
the file names) and turns texts into unit vectors, so a dot product is their cosine. The
indexer embeds each passage once, in its child process; a search embeds only the question.
A text is cut to `MAX_TOKENS` tokens (all-MiniLM-L6-v2 was trained on at most 256; a passage
is about 700 characters, well under it).

`embedder_for(data_dir)` is the one way in: None when no embedding model is in place, and
then nothing of the dense tier runs. One model stays open per process (about 60 MB); the
llama.cpp context is not thread-safe, so calls are serialised. One thread by default: the
index pass runs at a low priority beside the window and the chat model, and on a busy
machine two threads were slower than one (ggml's threads wait for each other at every step:
4.0 against 1.5 passages a second, 32 against 160 ms a question, on 2 shared cores under a
load of 7).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

MAX_TOKENS = 256
# Tokens per llama.cpp batch: a passage fits whole, and few share a batch, since the
# passages of one batch attend over the whole batch, masked (at 512, 16 passages of 80
# tokens embedded 3.1 a second in batches and 7.6 one by one; at 128, 6.7 and 5.2).
_CONTEXT = MAX_TOKENS
_MAX_CHARS = 4000  # a text is cut here before it is tokenised (then at MAX_TOKENS)


class EmbeddingError(RuntimeError):
    """The embedding model could not be opened or run; the message is for the person."""


class Embedder:
    """One GGUF embedding model, opened on first use."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        self.path = Path(path)
        # Vectors of another model (or another file of it) are not comparable with these.
        self.model_id = f"{self.path.name}:{self.path.stat().st_size}"
        self.threads = threads
        self._llama: Any = None
        self._max_tokens = MAX_TOKENS
        self._lock = threading.Lock()

    def _opened(self) -> Any:
        if self._llama is None:
            from app.llm.cpu_backend import load_cpu_backend
            from app.llm.gguf_file import ModelFileError, read_gguf

            load_cpu_backend()  # before the first model: llama.cpp's CPU backend is a module
            from llama_cpp import Llama

            try:
                # Never past the positions the model was trained with: llama.cpp aborts the
                # process on a position its table does not have.
                trained = read_gguf(self.path).context_length or _CONTEXT
                context = min(_CONTEXT, trained)
                self._max_tokens = min(MAX_TOKENS, context)
                self._llama = Llama(
                    model_path=str(self.path),
                    embedding=True,
                    n_ctx=context,
                    n_batch=context,
                    n_ubatch=context,
                    n_threads=self.threads,
                    n_threads_batch=self.threads,
                    verbose=False,
                )
            except (ValueError, RuntimeError, OSError, ModelFileError) as exc:
                raise EmbeddingError(
                    f"the embedding model {self.path.name} could not be opened ({exc})"
                ) from exc
        return self._llama

    @property
    def dimension(self) -> int:
        with self._lock:
            return int(self._opened().n_embd())

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Unit vectors, one row per text."""
        with self._lock:
            llama = self._opened()
            if not texts:
                return np.zeros((0, int(llama.n_embd())), dtype=np.float32)
            cut = [self._cut(llama, text, self._max_tokens) for text in texts]
            rows = llama.embed(cut, normalize=True, truncate=True)
        return np.nan_to_num(np.asarray(rows, dtype=np.float32).reshape(len(cut), -1))

    @staticmethod
    def _cut(llama: Any, text: str, limit: int) -> str:
        """At most `limit` tokens of `text` (as text again: `Llama.embed` tokenises, and cuts
        at the batch's size what is still longer)."""
        text = " ".join(text[:_MAX_CHARS].split()) or "."
        while (tokens := len(llama.tokenize(text.encode("utf-8"), add_bos=True))) > limit:
            text = text[: max(1, int(len(text) * (limit - 2) / tokens))]
        return text


_open: dict[Path, Embedder] = {}
_open_lock = threading.Lock()


def embedder_for(data_dir: Path | str | None) -> Embedder | None:
    """The embedding model of this data folder, opened once per process; None when it is not
    in place, or no data folder is given (an in-memory database): the dense tier is then
    off and nothing else changes."""
    from app.llm.embedded import embedding_model_path

    if data_dir is None:
        return None
    path = embedding_model_path(data_dir)
    if path is None:
        return None
    with _open_lock:
        embedder = _open.get(path)
        if embedder is None or embedder.model_id != f"{path.name}:{path.stat().st_size}":
            embedder = _open[path] = Embedder(path)
        return embedder
