"""Evaluated prompt prefixes kept on disk between processes.

Every conversation starts with the same system prompt and tool block (over a thousand tokens
with the tools): a new process, such as an `ask` command or the app's next start, would
compute it again before the first word. Here llama.cpp's state after that prefix is kept in
the user's cache folder and read back instead.

An entry is found only by everything that changes the numbers in it: the model file (path,
size, modification time), llama.cpp's version and the CPU code it runs, the context settings
and the exact tokens. Each file carries a hash of its content, checked before llama.cpp sees
it. A store is an optimisation: any problem (a damaged file, a full or read-only disk) is a
miss and a log line, never an error the user sees.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
import time
from array import array
from collections.abc import Sequence
from pathlib import Path

from app.paths import PROMPT_PREFIXES_FOLDER, cache_dir

log = logging.getLogger(__name__)

SUFFIX = ".kv"
MAGIC = b"HEARTH-PREFIX-1\n"
DIGEST = hashlib.sha256().digest_size


def default_folder() -> Path:
    """The per-user cache folder (never the data folder: this is only ever a copy)."""
    return cache_dir() / PROMPT_PREFIXES_FOLDER


class PrefixStore:
    """A few evaluated prefixes on disk, the least recently used dropped first."""

    def __init__(
        self, folder: Path, max_files: int = 8, max_bytes: int = 256 * 1024 * 1024
    ) -> None:
        self.folder = folder
        self.max_files = max_files
        self.max_bytes = max_bytes

    @classmethod
    def default(cls) -> PrefixStore:
        return cls(default_folder())

    def load(self, identity: str, tokens: Sequence[int]) -> bytes | None:
        """The state saved for `tokens` under `identity`, or None."""
        path = self._path(identity, tokens)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("prompt prefix cache: cannot read %s: %s", path.name, exc)
            return None
        header = len(MAGIC) + DIGEST
        state = data[header:]
        if (
            not data.startswith(MAGIC)
            or hashlib.sha256(state).digest() != data[len(MAGIC) : header]
        ):
            log.warning("prompt prefix cache: %s is damaged; dropped", path.name)
            self.discard(identity, tokens)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: kept longest
        return state

    def save(self, identity: str, tokens: Sequence[int], state: bytes) -> None:
        """Keep `state` for `tokens` (atomically: a reader never sees half a file)."""
        if len(state) > self.max_bytes // 2:
            return
        path = self._path(identity, tokens)
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            descriptor, partial = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".partial")
        except OSError as exc:
            log.warning("prompt prefix cache: cannot write in %s: %s", self.folder, exc)
            return
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(MAGIC + hashlib.sha256(state).digest())
                handle.write(state)
            os.replace(partial, path)
        except OSError as exc:
            log.warning("prompt prefix cache: cannot write %s: %s", path.name, exc)
            with contextlib.suppress(OSError):
                os.unlink(partial)
            return
        self._trim()

    def discard(self, identity: str, tokens: Sequence[int]) -> None:
        """Forget one entry (one that llama.cpp refused, say)."""
        with contextlib.suppress(OSError):
            self._path(identity, tokens).unlink()

    def _path(self, identity: str, tokens: Sequence[int]) -> Path:
        key = hashlib.sha256(identity.encode("utf-8"))
        key.update(b"\0")
        key.update(array("i", tokens).tobytes())
        return self.folder / f"{key.hexdigest()}{SUFFIX}"

    def _trim(self) -> None:
        try:
            entries = [(p.stat(), p) for p in self.folder.glob(f"*{SUFFIX}")]
            leftovers = [(p.stat(), p) for p in self.folder.glob(".*.partial")]
        except OSError:
            return
        for stat, path in leftovers:  # a process that died while writing
            if stat.st_mtime < time.time() - 3600:
                with contextlib.suppress(OSError):
                    path.unlink()
        entries.sort(key=lambda entry: entry[0].st_mtime, reverse=True)  # newest first
        total = 0
        for count, (stat, path) in enumerate(entries, start=1):
            total += stat.st_size
            if count > self.max_files or total > self.max_bytes:
                with contextlib.suppress(OSError):
                    path.unlink()
