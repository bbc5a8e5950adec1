"""One SHA-256 helper for model files (downloads, the packaged models, their checks).

``hashlib.file_digest`` reads the file in the C layer without a Python loop; it was written by
hand twice before. A download hashes its bytes as they arrive (`sha256_of_file` only for the
part already on disk when a new process resumes), so the finished file is not read again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any


def sha256_digest(path: Path) -> Any:
    """The running SHA-256 of a file's bytes, to continue with more (``hashlib`` object)."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256")


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, as the lower-case hex the catalog and the packages give."""
    return str(sha256_digest(path).hexdigest())
