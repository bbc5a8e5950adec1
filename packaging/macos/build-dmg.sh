#!/usr/bin/env bash
# macOS: Hearth.app and Hearth-<version>.dmg, signed and notarised. Written and reviewed, NOT run
# here (the CI machines are Linux; PyInstaller cannot cross-freeze). Run on macOS 12+ with
# Xcode command line tools, Python 3.11 from python.org (universal2) and CMake, on the CPU the
# .dmg is for (arm64 and x86_64 need one build each).
# Signing needs a "Developer ID Application" certificate in the login keychain, and a notary
# profile stored once with:
#   xcrun notarytool store-credentials hearth-notary --apple-id YOU@EXAMPLE.COM \
#     --team-id TEAMID --password APP-SPECIFIC-PASSWORD
# Usage: SIGN_ID="Developer ID Application: Name (TEAMID)" packaging/macos/build-dmg.sh
#        (SIGN_ID unset: an unsigned .app/.dmg for local tests only)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)"
arch="$(uname -m)"
build="$root/build/macos"
rm -rf "$build" && mkdir -p "$build" dist

# 1. The app and the packaging tools.
python3.11 -m venv .venv
.venv/bin/pip install -q -e . -r packaging/requirements.txt

# 2. llama.cpp: on Apple silicon the Metal backend does the work and every arm64 Mac has the
#    same CPU baseline (NEON, dotprod); on Intel Macs a build for any x86-64 CPU (no AVX
#    assumed; llama-cpp-python's own CMakeLists turns AVX/AVX2/FMA/F16C off for x86_64 macOS).
if [[ $arch == arm64 ]]; then
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_METAL=ON -DGGML_METAL_EMBED_LIBRARY=ON" \
    .venv/bin/pip install -q --force-reinstall --no-deps --no-binary llama-cpp-python \
    "llama-cpp-python==0.3.36"
else
  CMAKE_ARGS="-DGGML_NATIVE=OFF" .venv/bin/pip install -q --force-reinstall --no-deps \
    --no-binary llama-cpp-python "llama-cpp-python==0.3.36"
fi

# 3. The built-in model (SHA-256 checked) and the icon.
model="$(HEARTH_DATA_DIR="$build/model" .venv/bin/python -c \
  'from app.llm.embedded import ensure_embedded_model; print(ensure_embedded_model())')"
iconset="$build/hearth.iconset"
mkdir -p "$iconset"
for size in 16 32 64 128 256 512; do
  sips -s format png -z $size $size packaging/icons/hearth-1024.png --out "$iconset/icon_${size}x${size}.png" >/dev/null
  sips -s format png -z $((size * 2)) $((size * 2)) packaging/icons/hearth-1024.png \
    --out "$iconset/icon_${size}x${size}@2x.png" >/dev/null
done
iconutil -c icns "$iconset" -o "$build/hearth.icns"

# 4. Freeze: build/macos/dist/Hearth.app (BUNDLE step of the spec; Info.plist from there).
HEARTH_SRC="$root" HEARTH_VERSION="$version" HEARTH_MODEL="$model" HEARTH_ICON="$build/hearth.icns" \
  .venv/bin/pyinstaller --noconfirm --distpath "$build/dist" --workpath "$build/work" \
  packaging/pyinstaller/hearth.spec
app="$build/dist/Hearth.app"

# 5. Sign inside out with the hardened runtime and a secure timestamp (notarisation requires
#    both): every Mach-O library first, then the main executable, then the bundle.
if [[ -n ${SIGN_ID:-} ]]; then
  find "$app/Contents" -type f \( -name '*.dylib' -o -name '*.so' -o -perm -111 \) -print0 |
    while IFS= read -r -d '' f; do
      file -b "$f" | grep -q Mach-O || continue
      codesign --force --timestamp --options runtime --sign "$SIGN_ID" "$f"
    done
  codesign --force --timestamp --options runtime --entitlements packaging/macos/entitlements.plist \
    --sign "$SIGN_ID" "$app"
  codesign --verify --deep --strict --verbose=2 "$app"
fi

# 6. The disk image: the app and a link to /Applications to drag it onto.
stage="$build/dmg"
mkdir -p "$stage"
cp -R "$app" "$stage/"
ln -s /Applications "$stage/Applications"
dmg="dist/Hearth-$version-macos-$arch.dmg"
hdiutil create -volname "Hearth $version" -srcfolder "$stage" -ov -format UDZO "$dmg"

# 7. Sign the image, notarise it (Apple scans it; a few minutes), staple the ticket so it opens
#    offline, and check Gatekeeper accepts it.
if [[ -n ${SIGN_ID:-} ]]; then
  codesign --force --timestamp --sign "$SIGN_ID" "$dmg"
  xcrun notarytool submit "$dmg" --keychain-profile hearth-notary --wait
  xcrun stapler staple "$dmg"
  xcrun stapler validate "$dmg"
  spctl --assess --type open --context context:primary-signature --verbose "$dmg"
fi
echo "built $dmg"
# Check on a clean Mac: open the .dmg, drag Hearth to Applications, open it (no Gatekeeper
# warning when signed), send one message on the built-in model; user data must appear only in
# ~/Library/Application Support/Hearth; deleting the app keeps that folder.
# `Hearth.app/Contents/MacOS/hearth ask --confirm deny "..."` runs one turn in a terminal.
