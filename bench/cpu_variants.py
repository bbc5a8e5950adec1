"""Which llama.cpp CPU variants pay: prompt and decode speed of each variant this processor can
run, as ratios against the plain x86-64 baseline measured in the same run (variants are
measured alternately, each in its own process, since a process loads one CPU backend).

    python bench/cpu_variants.py [--model GGUF] [--lib DIR] [--runs 3] [--json out.json]

`--lib` points at another llama.cpp build's library folder (e.g. a build with all 14 of
ggml's x86-64 variants), else the venv's own. Variants the processor cannot run are skipped.
The evidence for the variants `packaging/linux/build-llama.sh` keeps.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import _common
from _common import median, report

from app.llm.cpu_backend import cpu_variants, llama_lib_dir

# Runs in a child process: force one variant, time a prompt and a greedy decode.
CHILD = r"""
import json, sys, time
from pathlib import Path
from app.llm.cpu_backend import load_cpu_backend
load_cpu_backend(Path(sys.argv[2]))
from llama_cpp import Llama
llama = Llama(sys.argv[1], n_ctx=1024, n_batch=512, n_threads=int(sys.argv[3]), verbose=False)
words = ("the quick brown fox jumps over the lazy dog while the cat sleeps " * 40).encode()
prompt = llama.tokenize(words)[:400]
start = time.perf_counter()
llama.eval(prompt)
prompt_s = time.perf_counter() - start
token = prompt[-1]
start = time.perf_counter()
for _ in range(48):
    llama.eval([token])
    token = int(llama.scores[llama.n_tokens - 1].argmax())
decode_s = time.perf_counter() - start
print(json.dumps({"prompt_tps": len(prompt) / prompt_s, "decode_tps": 48 / decode_s}))
"""


def measure(model: Path, lib: Path, variant: str, threads: int) -> dict[str, float] | None:
    env = {**os.environ, "HEARTH_GGML_CPU": variant, "LLAMA_CPP_LIB_PATH": str(lib)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(model), str(lib), str(threads)],
        env=env,
        capture_output=True,
        text=True,
        cwd=_common.ROOT,
    )
    if done.returncode != 0:
        return None  # the processor lacks an instruction this variant needs
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path)
    parser.add_argument("--lib", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json")
    args = parser.parse_args()
    model = args.model or _common.smollm2()
    lib = args.lib or llama_lib_dir()
    if lib is None or not cpu_variants(lib):
        raise SystemExit(f"no CPU backend modules in {lib}: build with build-llama.sh")
    variants = cpu_variants(lib)
    values: dict[str, dict[str, list[float]]] = {v: {"prompt": [], "decode": []} for v in variants}
    runnable = list(variants)
    for _ in range(args.runs):
        for variant in list(runnable):
            result = measure(model, lib, variant, args.threads)
            if result is None:
                runnable.remove(variant)
                continue
            values[variant]["prompt"].append(result["prompt_tps"])
            values[variant]["decode"].append(result["decode_tps"])
    base = values.get("x64")
    rows = {}
    for variant in runnable:
        prompt, decode = median(values[variant]["prompt"]), median(values[variant]["decode"])
        rows[variant] = {
            "prompt_tps": round(prompt, 1),
            "decode_tps": round(decode, 1),
            "prompt_vs_x64": round(prompt / median(base["prompt"]), 2) if base else None,
            "decode_vs_x64": round(decode / median(base["decode"]), 2) if base else None,
        }
        print(
            f"{variant:<16} prompt {prompt:7.1f} tok/s ({rows[variant]['prompt_vs_x64']}×)  "
            f"decode {decode:6.1f} tok/s ({rows[variant]['decode_vs_x64']}×)",
            file=sys.stderr,
        )
    skipped = [v for v in variants if v not in runnable]
    report(
        "cpu_variants",
        {"model": str(model), "lib": str(lib), "variants": rows, "not_runnable_here": skipped},
        args.json,
    )


if __name__ == "__main__":
    main()
