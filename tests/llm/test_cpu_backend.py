"""llama.cpp's CPU backend modules: found, loaded once, a forced variant honoured or refused
with a clear message. The venv's llama.cpp is the same portable build the installers ship."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.llm.cpu_backend import cpu_variants, llama_lib_dir, load_cpu_backend

ROOT = Path(__file__).resolve().parents[2]
LIB = llama_lib_dir()
PORTABLE = LIB is not None and bool(cpu_variants(LIB))
needs_portable = pytest.mark.skipif(
    not PORTABLE,
    reason="this venv's llama.cpp has its CPU backend linked in (set up before the portable "
    "build): `make clean-venv test` rebuilds it",
)


def run_child(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_variants_are_read_from_module_names(tmp_path: Path) -> None:
    for name in ("libggml-cpu-x64.so", "libggml-cpu-haswell.so", "libggml.so.0", "libllama.so"):
        (tmp_path / name).write_bytes(b"")
    assert cpu_variants(tmp_path) == ["haswell", "x64"]


def test_a_build_without_modules_needs_nothing_loaded(tmp_path: Path) -> None:
    (tmp_path / "libggml.so").write_bytes(b"")
    result = run_child(
        "from pathlib import Path; from app.llm.cpu_backend import load_cpu_backend; "
        f"print(load_cpu_backend(Path({str(tmp_path)!r})))"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "None"


@needs_portable
def test_the_portable_build_has_the_baseline_and_avx2_variants() -> None:
    assert LIB is not None
    variants = cpu_variants(LIB)
    assert "x64" in variants  # any x86-64 CPU, however old
    assert "haswell" in variants  # AVX2: most machines in use


@needs_portable
def test_loading_is_once_per_process_and_registers_the_cpu_backend() -> None:
    first = load_cpu_backend()
    assert first == LIB
    assert load_cpu_backend() == first  # idempotent: the conftest already loaded it


@needs_portable
def test_the_baseline_variant_runs_a_model(smollm2_path: Path) -> None:
    """HEARTH_GGML_CPU=x64: the code an old CPU without AVX gets, on a real model."""
    code = (
        "from app.llm.cpu_backend import load_cpu_backend; load_cpu_backend(); "
        "from llama_cpp import Llama; "
        f"llama = Llama({str(smollm2_path)!r}, n_ctx=256, n_threads=2, verbose=False); "
        "tokens = llama.tokenize(b'The capital of France is'); llama.eval(tokens); "
        "print('logits', len(llama.scores[llama.n_tokens - 1]))"
    )
    result = run_child(code, HEARTH_GGML_CPU="x64")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split()[-2:][0] == "logits"
    assert int(result.stdout.split()[-1]) > 1000  # one score per vocabulary entry


@needs_portable
def test_an_unknown_forced_variant_is_refused_with_the_choices() -> None:
    code = (
        "from app.llm.cpu_backend import CpuBackendError, load_cpu_backend\n"
        "try:\n    load_cpu_backend()\nexcept CpuBackendError as e:\n    print(e)\n"
    )
    result = run_child(code, HEARTH_GGML_CPU="pentium4")
    assert result.returncode == 0, result.stderr
    assert "HEARTH_GGML_CPU=pentium4" in result.stdout
    assert "x64" in result.stdout  # the message lists what this build has


def test_the_server_launcher_needs_a_module() -> None:
    result = run_child(
        "import sys; sys.argv = ['x']; import runpy; "
        "runpy.run_module('app.llm.cpu_backend', run_name='__main__')"
    )
    assert result.returncode != 0
    assert "usage: python -m app.llm.cpu_backend -m MODULE" in result.stderr
