#!/usr/bin/env bash
# Builds llama.cpp once, for any x86-64 CPU, as a llama-cpp-python wheel: GGML_NATIVE=OFF, the
# CPU backend as loadable modules (GGML_BACKEND_DL), one module per instruction-set level; the
# app loads the best one the CPU supports (app/llm/cpu_backend.py). The same wheel goes into the
# development venv (Makefile) and into the installers (build.sh), so CI compiles llama.cpp once.
# The version is the one pinned in pyproject.toml; the result is cached, keyed by version, flags
# and variants.
#
# The variants: ggml's GGML_CPU_ALL_VARIANTS has 14 on x86-64, each a full compile of the CPU
# backend (about a minute on two cores). We keep the ones that pay (docs/packaging.md "Any
# x86-64 CPU", measured with bench/cpu_variants.py): the plain x86-64 baseline, SSE4.2
# (Atom-class Celerons and Pentiums sold until 2021 have no AVX), AVX, AVX2 (the bulk of
# machines since 2013), AVX-512, AVX-512 VNNI, AVX-VNNI (Intel laptops since 2021, AVX-512
# fused off) and Zen 4 (AVX-512 with BF16, AMD since 2022). A CPU between two levels gets the
# lower one: slower, never wrong.
#
# Usage: build-llama.sh          → prints the folder holding the shared libraries (last line)
#        build-llama.sh --wheel  → prints the wheel's path (last line)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
version="$(sed -n 's/.*"llama-cpp-python==\([0-9.]*\)".*/\1/p' "$root/pyproject.toml")"
[[ -n $version ]] || { echo "llama-cpp-python is not pinned in pyproject.toml" >&2; exit 1; }
variants=(x64 sse42 sandybridge haswell skylakex icelake alderlake zen4)
# LLAVA_BUILD=OFF and no `common` library: Hearth loads text models only, and llama_cpp opens
# libmtmd only for image chat handlers; the two are about 105 of the build's 630 compiles.
flags=(-DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DGGML_BACKEND_DL=ON -DGGML_CPU_ALL_VARIANTS=ON
       -DLLAMA_CURL=OFF -DLLAVA_BUILD=OFF)
key="$version-$(printf '%s\n' "${flags[@]}" "${variants[@]}" | sha256sum | cut -c1-12)"
if [[ -n ${HEARTH_BUILD_CACHE:-} ]]; then cache="$HEARTH_BUILD_CACHE"
elif [[ $(id -u) -eq 0 ]]; then cache=/var/cache/hearth-ci
else cache="${XDG_CACHE_HOME:-$HOME/.cache}/hearth-build"; fi
out="$cache/llama-cpp/$key"

if [[ ! -f $out/.complete ]]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/hearth-llama.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  "$python" -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
    -d "$work" "llama-cpp-python==$version" >&2
  tar -xzf "$work"/llama_cpp_python-"$version".tar.gz -C "$work"
  src="$work/llama_cpp_python-$version"
  # Keep only the chosen variants, and install them beside libllama in the wheel (the
  # package's install rules know only a single `ggml-cpu`).
  variant_list="$src/vendor/llama.cpp/ggml/src/CMakeLists.txt"
  for v in "${variants[@]}"; do
    grep -Eq "^\s*ggml_add_cpu_backend_variant\($v(\s|\))" "$variant_list" \
      || { echo "llama.cpp $version has no CPU variant '$v'" >&2; exit 1; }
  done
  keep="$(IFS='|'; echo "${variants[*]}")"
  all_x86="x64|sse42|sandybridge|ivybridge|piledriver|haswell|skylakex|cannonlake|cascadelake|icelake|cooperlake|zen4|alderlake|sapphirerapids"  # every x86-64 variant this llama.cpp knows
  any_variant="^\s*ggml_add_cpu_backend_variant\(($all_x86)(\s|\))"
  sed -Ei "/$any_variant/{/\((${keep})(\s|\))/!d}" "$variant_list"
  [[ $(grep -Ec "$any_variant" "$variant_list") -eq ${#variants[@]} ]] \
    || { echo "could not select the CPU variants in $variant_list" >&2; exit 1; }
  sed -i "s|^\(\s*\)llama_cpp_python_install_target(ggml-cpu)|&\n\1foreach(variant ${variants[*]})\n\1    llama_cpp_python_install_target(ggml-cpu-\${variant})\n\1endforeach()|" \
    "$src/CMakeLists.txt"
  grep -q 'llama_cpp_python_install_target(ggml-cpu-${variant})' "$src/CMakeLists.txt" \
    || { echo "could not add the CPU variants to the install rules" >&2; exit 1; }
  # llama-cpp-python forces llama.cpp's `common` library on (only its image library uses it).
  sed -Ei 's/^(\s*set\(LLAMA_BUILD_COMMON) ON (CACHE BOOL .* FORCE\))/\1 OFF \2/' "$src/CMakeLists.txt"
  grep -q 'set(LLAMA_BUILD_COMMON ON' "$src/CMakeLists.txt" \
    && { echo "could not turn off llama.cpp's common library" >&2; exit 1; }
  started=$(date +%s)
  CMAKE_ARGS="${flags[*]}" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" nice -n 10 \
    "$python" -m pip wheel -q --disable-pip-version-check --no-deps -w "$work/wheel" "$src" >&2
  rm -rf "$out" && mkdir -p "$out/lib"
  cp "$work/wheel"/llama_cpp_python-*.whl "$out/"
  (cd "$work" && "$python" -m zipfile -e "$out"/llama_cpp_python-*.whl unpacked)
  cp -a "$work/unpacked/llama_cpp/lib/." "$out/lib/"
  for v in "${variants[@]}"; do
    [[ -f $out/lib/libggml-cpu-$v.so ]] || { echo "the build has no libggml-cpu-$v.so" >&2; exit 1; }
  done
  printf '%s\n' "${flags[@]}" "${variants[@]}" >"$out/flags.txt"
  echo "llama.cpp $version built in $(( $(date +%s) - started )) s" | tee "$out/build.log" >&2
  touch "$out/.complete"
fi
if [[ ${1:-} == --wheel ]]; then ls "$out"/llama_cpp_python-*.whl | tail -n 1
else echo "$out/lib"; fi
