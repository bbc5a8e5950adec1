"""PyInstaller runtime hook: load the llama.cpp CPU backend that suits this CPU.

The installers ship llama.cpp built with GGML_BACKEND_DL and GGML_CPU_ALL_VARIANTS: one CPU
backend module per instruction-set level (plain x86-64 up to AVX-512/AMX). llama.cpp would look
for them next to the executable; this loads them from the bundle before llama_cpp is imported,
and ggml picks the best variant the processor supports. HEARTH_GGML_CPU=<variant> (e.g. `x64`)
forces one variant, which is how the packaging test checks the baseline build.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path


def _load_cpu_backend() -> None:
    lib = Path(getattr(sys, "_MEIPASS", "")) / "llama_cpp" / "lib"
    prefix, suffix = ("", ".dll") if os.name == "nt" else ("lib", ".so")
    variants = sorted(lib.glob(f"{prefix}ggml-cpu-*{suffix}"))
    if not variants:
        return  # a build with the CPU backend linked in: nothing to load
    # The SONAME first: libllama's own reference to ggml then finds this same, loaded copy.
    names = [f"{prefix}ggml{suffix}.0", f"{prefix}ggml{suffix}"]
    path = next((lib / n for n in names if (lib / n).exists()), lib / names[-1])
    ggml = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
    forced = os.environ.get("HEARTH_GGML_CPU")
    if forced:
        ggml.ggml_backend_load.restype = ctypes.c_void_p
        module = lib / f"{prefix}ggml-cpu-{forced}{suffix}"
        if not ggml.ggml_backend_load(str(module).encode()):
            raise SystemExit(f"HEARTH_GGML_CPU={forced}: could not load {module}")
        return
    ggml.ggml_backend_load_all_from_path(str(lib).encode())


_load_cpu_backend()
