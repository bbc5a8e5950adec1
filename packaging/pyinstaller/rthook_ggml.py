"""PyInstaller runtime hook: load the llama.cpp CPU backend that suits this CPU at start.

The installers ship llama.cpp with its CPU backend as one module per instruction-set level
(`packaging/linux/build-llama.sh`); `app.llm.cpu_backend` loads the best one from the bundle
before llama_cpp is imported. HEARTH_GGML_CPU=<variant> (e.g. `x64`) forces one variant, which
is how the packaging test checks the baseline build.
"""

from __future__ import annotations

from app.llm.cpu_backend import CpuBackendError, load_cpu_backend

try:
    load_cpu_backend()
except CpuBackendError as error:
    raise SystemExit(str(error)) from None
