"""Memory figures on every platform: psutil is a declared dependency, not an optional import.

Without it Windows and macOS had no free-memory figure (only Linux's /proc/meminfo was read),
so the model catalog could not say whether a model fits.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from app.llm.catalog import free_ram_bytes
from app.llm.machine_check import resident_memory_bytes

ROOT = Path(__file__).resolve().parents[2]


def test_psutil_is_a_declared_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = [spec.split("~=")[0].split("==")[0].strip().lower() for spec in project["dependencies"]]
    assert "psutil" in names


def test_memory_is_read_without_linux_proc_files(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Path.read_text

    def no_proc(self: Path, *args: object, **kwargs: object) -> str:
        if str(self).startswith("/proc/"):
            raise FileNotFoundError(self)  # as on Windows and macOS
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", no_proc)
    free = free_ram_bytes()
    assert free is not None and free > 0
    resident = resident_memory_bytes()
    assert resident is not None and resident > 10_000_000
