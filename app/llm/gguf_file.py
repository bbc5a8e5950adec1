"""Read and check a GGUF file's header without loading it into llama.cpp.

llama.cpp reports a damaged file with a terse log line (or, for some damage, aborts the
process), so we look at the file ourselves first: magic, version, metadata, tensor table and
whether the tensor data the table promises is really in the file. This also gives us the
metadata (architecture, name, chat template, special tokens) without loading the weights.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

GGUF_MAGIC = b"GGUF"
SUPPORTED_VERSIONS = (2, 3)
DEFAULT_ALIGNMENT = 32

# ggml tensor types: (elements per block, bytes per block). Fixed by the GGUF format.
GGML_BLOCK_SIZES: dict[int, tuple[int, int]] = {
    0: (1, 4),  # F32
    1: (1, 2),  # F16
    2: (32, 18),  # Q4_0
    3: (32, 20),  # Q4_1
    6: (32, 22),  # Q5_0
    7: (32, 24),  # Q5_1
    8: (32, 34),  # Q8_0
    10: (256, 84),  # Q2_K
    11: (256, 110),  # Q3_K
    12: (256, 144),  # Q4_K
    13: (256, 176),  # Q5_K
    14: (256, 210),  # Q6_K
    15: (256, 292),  # Q8_K
    16: (256, 66),  # IQ2_XXS
    17: (256, 74),  # IQ2_XS
    18: (256, 98),  # IQ3_XXS
    19: (256, 50),  # IQ1_S
    20: (32, 18),  # IQ4_NL
    21: (256, 110),  # IQ3_S
    22: (256, 82),  # IQ2_S
    23: (256, 136),  # IQ4_XS
    24: (1, 1),  # I8
    25: (1, 2),  # I16
    26: (1, 4),  # I32
    27: (1, 8),  # I64
    28: (1, 8),  # F64
    29: (256, 56),  # IQ1_M
    30: (1, 2),  # BF16
    34: (256, 54),  # TQ1_0
    35: (256, 66),  # TQ2_0
    39: (32, 17),  # MXFP4
}

# Metadata value types.
_UINT8, _INT8, _UINT16, _INT16, _UINT32, _INT32, _FLOAT32, _BOOL, _STRING, _ARRAY = range(10)
_UINT64, _INT64, _FLOAT64 = 10, 11, 12
_SCALAR_FORMATS = {
    _UINT8: "<B",
    _INT8: "<b",
    _UINT16: "<H",
    _INT16: "<h",
    _UINT32: "<I",
    _INT32: "<i",
    _FLOAT32: "<f",
    _BOOL: "<?",
    _UINT64: "<Q",
    _INT64: "<q",
    _FLOAT64: "<d",
}
# Arrays longer than this (the vocabulary) are skipped, not kept in memory, unless asked for.
_KEEP_ARRAY_MAX = 64
_KEEP_ARRAYS = ("tokenizer.ggml.token_type",)


class ModelFileError(Exception):
    """A model file that cannot be used, with words a user can act on."""

    def __init__(self, path: Path | str, problem: str, advice: str) -> None:
        self.path = Path(path)
        self.problem = problem
        self.advice = advice
        super().__init__(f"{self.path}: {problem}")

    def user_message(self) -> str:
        return f"The model file {self.path} cannot be used: {self.problem}\n\n{self.advice}"


@dataclass
class TensorInfo:
    name: str
    shape: tuple[int, ...]
    ggml_type: int
    offset: int

    def byte_size(self) -> int | None:
        block = GGML_BLOCK_SIZES.get(self.ggml_type)
        if block is None:
            return None
        count = 1
        for dim in self.shape:
            count *= dim
        per_block, block_bytes = block
        return (count + per_block - 1) // per_block * block_bytes


@dataclass
class GGUFInfo:
    path: Path
    version: int
    metadata: dict[str, Any] = field(default_factory=dict)
    tensors: list[TensorInfo] = field(default_factory=list)
    data_offset: int = 0
    file_size: int = 0

    @property
    def architecture(self) -> str:
        return str(self.metadata.get("general.architecture", "unknown"))

    @property
    def name(self) -> str:
        name = self.metadata.get("general.name")
        return str(name) if name else self.path.stem

    @property
    def chat_template(self) -> str | None:
        template = self.metadata.get("tokenizer.chat_template")
        return str(template) if template else None

    @property
    def context_length(self) -> int | None:
        value = self.metadata.get(f"{self.architecture}.context_length")
        return int(value) if value is not None else None


class _Reader:
    def __init__(self, handle: BinaryIO, path: Path, size: int) -> None:
        self.handle = handle
        self.path = path
        self.size = size

    def remaining(self) -> int:
        return self.size - self.handle.tell()

    def read(self, count: int) -> bytes:
        data = self.handle.read(count)
        if len(data) != count:
            raise ModelFileError(
                self.path,
                "the file ends in the middle of its header (it is truncated).",
                "The download probably did not finish. Download the model again.",
            )
        return data

    def unpack(self, fmt: str) -> Any:
        return struct.unpack(fmt, self.read(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        length = self.unpack("<Q")
        if length > self.size:
            raise _corrupt(self.path, "a text field claims to be longer than the whole file")
        return self.read(length).decode("utf-8", errors="replace")

    def skip(self, count: int) -> None:
        if self.handle.tell() + count > self.size:
            self.read(self.size - self.handle.tell() + 1)  # raises the truncation error
        self.handle.seek(count, os.SEEK_CUR)

    def value(self, kind: int, key: str) -> Any:
        if kind in _SCALAR_FORMATS:
            return self.unpack(_SCALAR_FORMATS[kind])
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            item_kind = self.unpack("<I")
            count = self.unpack("<Q")
            if count > self.size:
                raise _corrupt(self.path, f"the list '{key}' claims more entries than possible")
            if count > self.remaining():  # every entry takes at least one byte
                self.read(self.remaining() + 1)  # raises the truncation error
            keep = count <= _KEEP_ARRAY_MAX or key in _KEEP_ARRAYS
            if item_kind in _SCALAR_FORMATS and not keep:
                self.skip(count * struct.calcsize(_SCALAR_FORMATS[item_kind]))
                return _SkippedArray(count)
            items = [self.value(item_kind, key) for _ in range(count)]
            return items if keep else _SkippedArray(count)
        raise _corrupt(self.path, f"the metadata entry '{key}' has an unknown type ({kind})")


@dataclass(frozen=True)
class _SkippedArray:
    """Stands in for a long array (the vocabulary) that we only needed to step over."""

    length: int


def _corrupt(path: Path, detail: str) -> ModelFileError:
    return ModelFileError(
        path,
        f"its header is damaged ({detail}).",
        "Download the model again, or choose another model file.",
    )


def read_gguf(path: Path | str) -> GGUFInfo:
    """Parse the header of a GGUF file and check that all its tensor data is present."""
    path = Path(path)
    if not path.exists():
        raise ModelFileError(
            path,
            "the file does not exist.",
            "Choose a model file that exists, or download one in Settings → Models….",
        )
    if not path.is_file():
        raise ModelFileError(path, "it is not a regular file.", "Choose a .gguf model file.")
    size = path.stat().st_size
    try:
        with path.open("rb") as handle:
            return _parse(_Reader(handle, path, size))
    except PermissionError as exc:
        raise ModelFileError(
            path, "this app is not allowed to read it.", "Check the file's permissions."
        ) from exc
    except OSError as exc:
        raise ModelFileError(
            path, f"it could not be read ({exc.strerror}).", "Check the disk and try again."
        ) from exc


def _parse(reader: _Reader) -> GGUFInfo:
    path = reader.path
    magic = reader.handle.read(4)
    if magic != GGUF_MAGIC:
        raise ModelFileError(
            path,
            "it is not a GGUF model file." if reader.size else "the file is empty.",
            "Hearth runs models in the GGUF format, and this file has only the name of one. "
            "Choose a model downloaded in GGUF format, or download one in Settings → Models….",
        )
    version = reader.unpack("<I")
    if version not in SUPPORTED_VERSIONS:
        raise ModelFileError(
            path,
            f"it uses GGUF version {version}, which this version of Hearth does not know.",
            "Update Hearth, or choose a model file in GGUF version 2 or 3.",
        )
    tensor_count = reader.unpack("<Q")
    kv_count = reader.unpack("<Q")
    if tensor_count > reader.size or kv_count > reader.size:
        raise _corrupt(path, "impossible tensor or metadata counts")
    info = GGUFInfo(path=path, version=version, file_size=reader.size)
    for _ in range(kv_count):
        key = reader.string()
        kind = reader.unpack("<I")
        info.metadata[key] = reader.value(kind, key)
    for _ in range(tensor_count):
        name = reader.string()
        n_dims = reader.unpack("<I")
        if n_dims > 8:
            raise _corrupt(path, f"tensor '{name}' has {n_dims} dimensions")
        shape = tuple(reader.unpack("<Q") for _ in range(n_dims))
        ggml_type = reader.unpack("<I")
        offset = reader.unpack("<Q")
        info.tensors.append(TensorInfo(name, shape, ggml_type, offset))
    alignment = int(info.metadata.get("general.alignment", DEFAULT_ALIGNMENT)) or DEFAULT_ALIGNMENT
    header_end = reader.handle.tell()
    info.data_offset = (header_end + alignment - 1) // alignment * alignment
    _check_tensor_data(info)
    return info


def _check_tensor_data(info: GGUFInfo) -> None:
    if not info.tensors:
        raise _corrupt(info.path, "it lists no tensors, so it holds no model weights")
    needed = info.data_offset
    for tensor in info.tensors:
        size = tensor.byte_size()
        end = info.data_offset + tensor.offset + (size or 0)
        needed = max(needed, end)
    if needed > info.file_size:
        missing_mb = (needed - info.file_size) / 1e6
        raise ModelFileError(
            info.path,
            f"the file is truncated: {missing_mb:.1f} MB of model weights are missing "
            f"(it has {info.file_size:,} bytes, the header needs {needed:,}).",
            "The download probably did not finish. Download the model again.",
        )
