#!/usr/bin/env bash
# Builds llama.cpp's own `llama-server` from the llama-cpp-python source package the project
# pins (its vendor/llama.cpp), for the task benchmark's "llama-server" system (issue #35): the
# strongest plain integration, whose --jinja chat handler parses Qwen's and Hermes' tool calls.
# Any x86-64 CPU: GGML_NATIVE=OFF with the instruction sets named (a native build here enabled
# AMX and died with SIGILL). Cached by version beside the app's llama.cpp wheel.
#
# Usage: bench/build_llama_server.sh   → prints the llama-server binary's path (last line)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
version="$(sed -n 's/.*"llama-cpp-python==\([0-9.]*\)".*/\1/p' "$root/pyproject.toml")"
[[ -n $version ]] || { echo "llama-cpp-python is not pinned in pyproject.toml" >&2; exit 1; }
if [[ -n ${HEARTH_BUILD_CACHE:-} ]]; then cache="$HEARTH_BUILD_CACHE"
elif [[ $(id -u) -eq 0 ]]; then cache=/var/cache/hearth-ci
else cache="${XDG_CACHE_HOME:-$HOME/.cache}/hearth-build"; fi
out="$cache/llama-server/$version"
if [[ ! -x $out/llama-server ]]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/hearth-llama-server.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  "$python" -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
    -d "$work" "llama-cpp-python==$version" >&2
  tar -xzf "$work"/llama_cpp_python-"$version".tar.gz -C "$work"
  src="$work/llama_cpp_python-$version/vendor/llama.cpp"
  started=$(date +%s)
  cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF \
    -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON \
    -DBUILD_SHARED_LIBS=OFF >&2
  nice -n 10 cmake --build "$work/build" --target llama-server -j "$(nproc)" >&2
  mkdir -p "$out"
  cp "$work/build/bin/llama-server" "$out/llama-server.tmp" && mv "$out/llama-server.tmp" "$out/llama-server"
  echo "llama-server $version built in $(( $(date +%s) - started )) s" >&2
fi
echo "$out/llama-server"
