"""The GGUF header check: real files pass, damaged ones are refused with a clear message."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import gguf
import numpy as np
import pytest

from app.llm.gguf_file import GGML_BLOCK_SIZES, ModelFileError, read_gguf
from app.llm.runtime import LocalModel


def test_real_model_header(smollm2_path: Path) -> None:
    info = read_gguf(smollm2_path)
    assert info.architecture == "llama"
    assert info.name == "Smollm2 135M 8k Lc100K Mix1 Ep2"
    assert info.chat_template and "<|im_start|>" in info.chat_template
    assert len(info.tensors) > 100
    assert info.data_offset % 32 == 0
    assert info.context_length == 8192


def test_block_sizes_match_the_gguf_library() -> None:
    for type_id, (block, size) in GGML_BLOCK_SIZES.items():
        assert gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType(type_id)] == (block, size)


def test_truncated_file_is_refused(smollm2_path: Path, tmp_path: Path) -> None:
    broken = tmp_path / "half.gguf"
    with smollm2_path.open("rb") as src, broken.open("wb") as dst:
        dst.write(src.read(smollm2_path.stat().st_size // 2))
    with pytest.raises(ModelFileError) as caught:
        read_gguf(broken)
    assert "truncated" in caught.value.problem
    assert "Download the model again" in caught.value.user_message()


def test_file_cut_inside_the_header(smollm2_path: Path, tmp_path: Path) -> None:
    broken = tmp_path / "head.gguf"
    with smollm2_path.open("rb") as src, broken.open("wb") as dst:
        dst.write(src.read(1_000_000))  # inside the vocabulary
    with pytest.raises(ModelFileError, match="truncated"):
        read_gguf(broken)


def test_not_a_gguf_file(tmp_path: Path) -> None:
    text = tmp_path / "notes.gguf"
    text.write_text("these are my shopping notes, not a model")
    with pytest.raises(ModelFileError) as caught:
        read_gguf(text)
    assert "not a GGUF model file" in caught.value.problem


def test_empty_and_missing_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.gguf"
    empty.write_bytes(b"")
    with pytest.raises(ModelFileError, match="empty"):
        read_gguf(empty)
    with pytest.raises(ModelFileError, match="does not exist"):
        read_gguf(tmp_path / "nowhere.gguf")
    with pytest.raises(ModelFileError, match="not a regular file"):
        read_gguf(tmp_path)


def test_unknown_version(tmp_path: Path) -> None:
    path = tmp_path / "future.gguf"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 99, 0, 0))
    with pytest.raises(ModelFileError, match="version 99"):
        read_gguf(path)


def test_damaged_header_length(smollm2_path: Path, tmp_path: Path) -> None:
    broken = tmp_path / "garbled.gguf"
    shutil.copyfile(smollm2_path, broken)
    with broken.open("r+b") as handle:  # the first key's length field becomes absurd
        handle.seek(24)
        handle.write(struct.pack("<Q", 2**60))
    with pytest.raises(ModelFileError, match="damaged"):
        read_gguf(broken)


@pytest.mark.real_model  # llama.cpp is asked to load it
def test_model_llama_cpp_refuses_gets_a_clear_message(tmp_path: Path) -> None:
    """A well-formed GGUF of an architecture llama.cpp does not know: our header check
    passes, llama.cpp refuses, and the user still gets a message, not a crash."""
    path = tmp_path / "strange.gguf"
    writer = gguf.GGUFWriter(str(path), "no-such-architecture")
    writer.add_name("Strange model")
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    model = LocalModel(path)
    assert model.info.architecture == "no-such-architecture"
    with pytest.raises(ModelFileError) as caught:
        model.load()
    assert "llama.cpp could not load it" in caught.value.problem
    assert "no-such-architecture" in caught.value.problem
