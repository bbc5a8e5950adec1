#!/usr/bin/env bash
# Installs (or names) the Debian/Ubuntu packages Hearth needs to build and to open its window.
# Usage: system-deps.sh [--test | --package | --list-runtime]
#   --test adds Xvfb for the screenshot test; --package the installer tools (packaging/build.sh);
#   --list-runtime prints the runtime packages (the .deb's Depends) and installs nothing.
set -euo pipefail

runtime=(libgl1 libegl1 libxkbcommon0 libxkbcommon-x11-0 libglib2.0-0 libfreetype6 libfontconfig1
         libdbus-1-3 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-render-util0
         libxcb-render0 libxcb-shape0 libxcb-util1 libxcb-xkb1 fonts-dejavu-core)
build=(python3-venv python3-dev build-essential cmake)
# Dovecot: the real IMAP server of the mail tests; D-Bus + GNOME Keyring: a real Secret Service;
# AT-SPI and pyatspi: what a screen reader reads of the window and the confirmation.
testing=(xvfb xauth dovecot-imapd dovecot-lmtpd dbus gnome-keyring at-spi2-core python3-pyatspi)
# dpkg-deb and objdump build the .deb; debootstrap makes the clean Debian 12 root it is tested in.
packaging=(dpkg-dev binutils debootstrap)

[[ ${1:-} == --list-runtime ]] && { printf '%s\n' "${runtime[@]}"; exit 0; }

wanted=("${runtime[@]}" "${build[@]}")
[[ ${1:-} == --test ]] && wanted+=("${testing[@]}")
[[ ${1:-} == --package ]] && wanted+=("${packaging[@]}")

command -v dpkg-query >/dev/null || { echo "Not a Debian-based system: install the equivalents of: ${wanted[*]}"; exit 0; }

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# pyenv, conda or a self-built Python bring their own venv and headers.
if python3 -c 'import venv, ensurepip' 2>/dev/null; then
  missing=("${missing[@]/python3-venv}")
fi
read -r -a missing <<<"${missing[*]}"
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing system packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
elif command -v sudo >/dev/null; then
  sudo apt-get update -q
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
else
  echo "Please ask an administrator to run: apt-get install ${missing[*]}" >&2
  exit 1
fi
