"""The model catalog (resources/models.json) and "which model fits this computer".

The catalog is data, not code, so that a checksum or URL can be corrected without touching the
downloader. Checksums are only ever copied from a published source; an entry without one is
verified by size and GGUF header, and says so in its `verification` field.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from app.paths import resources_dir

CATALOG_FILE = "models.json"

# Architectures (GGUF `general.architecture`) that the llama.cpp vendored by
# llama-cpp-python 0.3.36 (llama.cpp 0c1e57098) can load. Read from that build's
# architecture-name table (libllama's LLM_ARCH_NAMES). There is no plain "mistral":
# Mistral 7B files say "llama"; newer Mistral models say "mistral3"/"mistral4".
_ARCHITECTURE_NAMES = """
    llama llama4 deci falcon grok gpt2 gptj gptneox mpt baichuan starcoder refact bert
    modern-bert nomic-bert nomic-bert-moe neo-bert jina-bert-v2 jina-bert-v3 eurobert bloom
    stablelm qwen qwen2 qwen2moe qwen2vl qwen3 qwen3moe qwen3next qwen3vl qwen3vlmoe qwen35
    qwen35moe phi2 phi3 phimoe plamo plamo2 plamo3 codeshell orion internlm2 minicpm minicpm3
    gemma gemma2 gemma3 gemma3n gemma4 gemma-embedding starcoder2 mamba mamba2 jamba falcon-h1
    xverse command-r cohere2 dbrx olmo olmo2 olmoe openelm arctic deepseek deepseek2 chatglm
    glm4 glm4moe bitnet t5 t5encoder jais nemotron nemotron_h exaone exaone4 rwkv6 rwkv6qwen2
    rwkv7 arwkv7 granite granitemoe granitehybrid chameleon plm bailingmoe bailingmoe2 dots1
    arcee ernie4_5 ernie4_5-moe hunyuan-moe hunyuan-dense smollm3 gpt-oss lfm2 lfm2moe dream
    smallthinker llada llada-moe seed_oss grovemoe apertus minimax-m2 cogvlm mistral3 mistral4
"""
SUPPORTED_ARCHITECTURES: frozenset[str] = frozenset(_ARCHITECTURE_NAMES.split())
# Architectures that load but are not chat models (encoders, audio decoders): refused too.
NOT_CHAT_ARCHITECTURES: frozenset[str] = frozenset(
    {
        "bert",
        "modern-bert",
        "nomic-bert",
        "nomic-bert-moe",
        "neo-bert",
        "jina-bert-v2",
        "jina-bert-v3",
        "eurobert",
        "t5encoder",
        "gemma-embedding",
    }
)

_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
# Space kept free on the disk after a download, so the machine is not left with zero bytes.
DISK_RESERVE_BYTES = 256 * 1024 * 1024


class CatalogError(ValueError):
    """The catalog file is malformed: a packaging bug, not a user problem."""


@dataclass(frozen=True)
class CatalogEntry:
    id: str
    name: str
    family: str
    quantization: str
    file_name: str
    size_bytes: int
    size_exact: bool
    licence: str
    url: str
    sha256: str | None
    verification: str
    sha256_source: str | None
    ram_bytes: int
    architecture: str
    tool_calling: bool
    builtin: bool
    preference: int
    description: str
    note: str = ""

    @property
    def expected_size(self) -> int | None:
        """The byte count a download must have, or None when only an estimate is known."""
        return self.size_bytes if self.size_exact else None

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> CatalogEntry:
        try:
            entry = cls(**raw)
        except TypeError as exc:
            raise CatalogError(f"catalog entry {raw.get('id', '?')!r}: {exc}") from exc
        entry._validate()
        return entry

    def _validate(self) -> None:
        where = f"catalog entry {self.id!r}"
        if self.sha256 is not None and not _SHA256_RE.match(self.sha256):
            raise CatalogError(f"{where}: sha256 must be 64 lower-case hex digits or null")
        expected = "sha256" if self.sha256 else "size-and-header"
        if self.verification != expected:
            raise CatalogError(f"{where}: verification must be {expected!r}")
        if self.sha256 and not self.sha256_source:
            raise CatalogError(f"{where}: a sha256 needs its sha256_source")
        if self.size_bytes <= 0 or self.ram_bytes <= 0:
            raise CatalogError(f"{where}: sizes must be positive")
        if not self.url.startswith("https://"):
            raise CatalogError(f"{where}: url must be https")
        if self.architecture not in SUPPORTED_ARCHITECTURES:
            raise CatalogError(f"{where}: architecture {self.architecture!r} is not supported")


def load_catalog(path: Path | str | None = None) -> list[CatalogEntry]:
    """Read the catalog shipped in resources/ (or another file, for tests)."""
    path = Path(path) if path is not None else resources_dir() / CATALOG_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    entries = [CatalogEntry.from_dict(raw) for raw in data["models"]]
    ids = [entry.id for entry in entries]
    if len(ids) != len(set(ids)):
        raise CatalogError("catalog ids must be unique")
    return entries


def find_entry(entries: list[CatalogEntry], entry_id: str) -> CatalogEntry:
    for entry in entries:
        if entry.id == entry_id:
            return entry
    raise KeyError(entry_id)


def fits(entry: CatalogEntry, free_ram: int | None, free_disk: int | None) -> bool:
    """Whether the model can run (RAM) and be stored (disk, with a reserve) here.

    None means "could not be measured" and does not rule a model out: better to offer a model
    that turns out slow than to offer nothing because a probe failed.
    """
    if free_ram is not None and entry.ram_bytes > free_ram:
        return False
    return free_disk is None or entry.builtin or entry.size_bytes + DISK_RESERVE_BYTES <= free_disk


def recommend(
    entries: list[CatalogEntry],
    free_ram: int | None,
    free_disk: int | None,
    present: frozenset[str] = frozenset(),
) -> CatalogEntry | None:
    """The most preferred downloadable model that fits; the built-in one if none does.

    A tool-calling model already on this computer (`present`: ids whose file is in place)
    comes first: nobody should be told to download 500 MB while a good model sits there."""
    fitting = [entry for entry in entries if fits(entry, free_ram, free_disk)]
    in_place = sorted(
        (e for e in fitting if e.id in present and e.tool_calling and not e.builtin),
        key=lambda e: e.preference,
    )
    if in_place:
        return in_place[0]
    downloadable = sorted((e for e in fitting if not e.builtin), key=lambda e: e.preference)
    if downloadable:
        return downloadable[0]
    builtin = sorted((e for e in fitting if e.builtin), key=lambda e: e.preference)
    return builtin[0] if builtin else None


def free_ram_bytes() -> int | None:
    """Memory available for a new process, or None if the system will not say.

    psutil is a dependency so that Windows and macOS get a figure too: without it only Linux
    had one (/proc/meminfo), and the catalog recommended models blindly elsewhere.
    """
    try:
        return int(psutil.virtual_memory().available)
    except (OSError, RuntimeError, psutil.Error):  # a sandbox without /proc, for instance
        return None


def free_disk_bytes(folder: Path | str) -> int:
    """Free bytes on the disk that holds `folder` (or its nearest existing parent)."""
    path = Path(folder).resolve()
    while not path.exists() and path.parent != path:
        path = path.parent
    return shutil.disk_usage(path).free


def is_supported_architecture(architecture: str) -> bool:
    return architecture in SUPPORTED_ARCHITECTURES and architecture not in NOT_CHAT_ARCHITECTURES


__all__ = [
    "SUPPORTED_ARCHITECTURES",
    "CatalogEntry",
    "CatalogError",
    "find_entry",
    "fits",
    "free_disk_bytes",
    "free_ram_bytes",
    "is_supported_architecture",
    "load_catalog",
    "recommend",
]
