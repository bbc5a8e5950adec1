"""Load the llama.cpp CPU backend that suits this processor, before the first model loads.

Hearth's llama.cpp is built once for any x86-64 CPU (`packaging/linux/build-llama.sh`): the
CPU backend is a set of loadable modules, one per instruction-set level (`libggml-cpu-x64.so`
up to AVX-512), beside `libllama.so`. llama.cpp itself looks for them only next to the
executable and in the current folder, which is neither the venv's `llama_cpp/lib` nor the
installed app's bundle, so this loads them from there and ggml picks the best variant the
processor supports. A llama.cpp built with the CPU backend linked in (a plain
`pip install llama-cpp-python`) has no modules: nothing to do.

`HEARTH_GGML_CPU=<variant>` (e.g. `x64`) forces one variant: the packaging test checks the
baseline build with it, and a user whose CPU misreports its features can fall back.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
import threading
from pathlib import Path

_PREFIX, _SUFFIX = ("", ".dll") if os.name == "nt" else ("lib", ".so")
_lock = threading.Lock()
_loaded: Path | None = None


class CpuBackendError(RuntimeError):
    """The CPU backend modules are there but the one asked for could not be loaded."""


def llama_lib_dir() -> Path | None:
    """Where llama-cpp-python keeps its shared libraries (the frozen app: in its bundle),
    found without importing llama_cpp (which would load the C library)."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "llama_cpp" / "lib"
    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "lib"


def cpu_variants(lib: Path) -> list[str]:
    """The CPU backend variants built into `lib` ("x64", "haswell", …), or [] if none."""
    start, end = len(f"{_PREFIX}ggml-cpu-"), -len(_SUFFIX)
    return sorted(p.name[start:end] for p in lib.glob(f"{_PREFIX}ggml-cpu-*{_SUFFIX}"))


def load_cpu_backend(lib: Path | None = None) -> Path | None:
    """Load the best CPU backend module once per process; returns the folder it came from,
    or None when this llama.cpp has the CPU backend linked in. Safe to call repeatedly and
    from several threads."""
    global _loaded
    with _lock:
        if _loaded is not None:
            return _loaded
        lib = lib or llama_lib_dir()
        if lib is None or not cpu_variants(lib):
            return None
        ggml = _open_ggml(lib)
        forced = os.environ.get("HEARTH_GGML_CPU", "").strip()
        if ggml.ggml_backend_reg_count() == 0:  # not yet loaded by someone else
            if forced:
                module = lib / f"{_PREFIX}ggml-cpu-{forced}{_SUFFIX}"
                if not module.exists() or not ggml.ggml_backend_load(str(module).encode()):
                    known = ", ".join(cpu_variants(lib))
                    raise CpuBackendError(
                        f"HEARTH_GGML_CPU={forced}: could not load {module.name} "
                        f"(this build has: {known})"
                    )
            else:
                ggml.ggml_backend_load_all_from_path(str(lib).encode())
        _loaded = lib
        return lib


def _open_ggml(lib: Path) -> ctypes.CDLL:
    """ggml under its SONAME first, so libllama's own reference to it finds this same copy."""
    names = [f"{_PREFIX}ggml{_SUFFIX}.0", f"{_PREFIX}ggml{_SUFFIX}"]
    path = next((lib / name for name in names if (lib / name).exists()), lib / names[-1])
    ggml = ctypes.CDLL(str(path), mode=getattr(ctypes, "RTLD_GLOBAL", 0))
    ggml.ggml_backend_reg_count.restype = ctypes.c_size_t
    ggml.ggml_backend_load.restype = ctypes.c_void_p
    ggml.ggml_backend_load.argtypes = [ctypes.c_char_p]
    ggml.ggml_backend_load_all_from_path.argtypes = [ctypes.c_char_p]
    return ggml


def main() -> None:
    """`python -m app.llm.cpu_backend -m MODULE ARGS…`: run a module (e.g. llama_cpp.server)
    with the CPU backend loaded first."""
    import runpy

    args = sys.argv[1:]
    if len(args) < 2 or args[0] != "-m":
        raise SystemExit("usage: python -m app.llm.cpu_backend -m MODULE [ARGS...]")
    load_cpu_backend()
    sys.argv = [args[1], *args[2:]]
    runpy.run_module(args[1], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
