#!/usr/bin/env bash
# Builds llama.cpp for the installers so that it runs on any x86-64 CPU: GGML_NATIVE=OFF, the CPU
# backend as loadable modules (GGML_BACKEND_DL) in every variant (GGML_CPU_ALL_VARIANTS, from
# plain x86-64 to AVX-512/AMX); the app loads the best one the CPU supports at start
# (packaging/pyinstaller/rthook_ggml.py). The version is the one pinned in pyproject.toml.
# Takes about 20 minutes on two cores, so the result is cached, keyed by version and flags.
# Usage: build-llama.sh   → prints the folder holding the shared libraries.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
version="$(sed -n 's/.*"llama-cpp-python==\([0-9.]*\)".*/\1/p' "$root/pyproject.toml")"
[[ -n $version ]] || { echo "llama-cpp-python is not pinned in pyproject.toml" >&2; exit 1; }
flags=(-DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DGGML_BACKEND_DL=ON -DGGML_CPU_ALL_VARIANTS=ON
       -DLLAMA_CURL=OFF)
key="$version-$(printf '%s\n' "${flags[@]}" | sha256sum | cut -c1-12)"
if [[ -n ${HEARTH_BUILD_CACHE:-} ]]; then cache="$HEARTH_BUILD_CACHE"
elif [[ $(id -u) -eq 0 ]]; then cache=/var/cache/hearth-ci
else cache="${XDG_CACHE_HOME:-$HOME/.cache}/hearth-build"; fi
out="$cache/llama-cpp/$key"
if [[ -f $out/.complete ]]; then echo "$out/lib"; exit 0; fi

work="$(mktemp -d "${TMPDIR:-/tmp}/hearth-llama.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$python" -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
  -d "$work" "llama-cpp-python==$version" >&2
tar -xzf "$work"/llama_cpp_python-"$version".tar.gz -C "$work"
src="$work/llama_cpp_python-$version"
started=$(date +%s)
nice -n 10 cmake -S "$src" -B "$work/build" "${flags[@]}" -DSKBUILD_PLATLIB_DIR="$work/platlib" >&2
nice -n 10 cmake --build "$work/build" -j "$(nproc)" >&2
cmake --install "$work/build" >&2
rm -rf "$out" && mkdir -p "$out/lib"
cp -a "$work/platlib/llama_cpp/lib/." "$out/lib/"
# The CPU variants are modules that llama-cpp-python's install rules do not know about.
cp -a "$work/build/bin/"libggml-cpu-*.so "$out/lib/"
printf '%s\n' "${flags[@]}" >"$out/flags.txt"
echo "llama.cpp $version built in $(( $(date +%s) - started )) s" | tee "$out/build.log" >&2
touch "$out/.complete"
echo "$out/lib"
