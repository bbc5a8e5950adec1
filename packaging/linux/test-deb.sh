#!/usr/bin/env bash
# The packaging test: installs the .deb into a clean Debian 12 root (a debootstrap chroot; apt
# resolves the declared dependencies from the Debian mirror), checks every bundled library
# resolves, then, as an ordinary user, opens the installed app offscreen and has it answer one
# message on the bundled model through its window (`hearth --smoke-test`), and answers once
# more headless on the baseline x86-64 CPU backend. Checks nothing is written into the install
# folder. Prints the package size, the apt install time and the cold start time.
# Usage (as root): test-deb.sh dist/hearth_<version>_amd64.deb
# The debootstrap result is cached in $HEARTH_BUILD_CACHE (default /var/cache/hearth-ci).
set -euo pipefail
deb="$(readlink -f "$1")"
cache="${HEARTH_BUILD_CACHE:-/var/cache/hearth-ci}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
question="What is the capital of France?"
[[ $(id -u) -eq 0 ]] || { echo "test-deb.sh needs root (chroot)" >&2; exit 1; }
started=$(date +%s)

base="$cache/debian-bookworm-minbase.tar"
if [[ ! -f $base ]]; then
  echo "test-deb: debootstrap Debian 12 (once; cached in $base)"
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/hearth-debootstrap.XXXXXX")"
  nice -n 10 debootstrap --variant=minbase bookworm "$tmp" "$mirror" >"$cache/debootstrap.log" 2>&1 \
    || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
  mkdir -p "$cache"
  tar -C "$tmp" -cf "$base.partial" . && mv "$base.partial" "$base"
  rm -rf "$tmp"
fi

root="$(mktemp -d "${TMPDIR:-/tmp}/hearth-root.XXXXXX")"
cleanup() {
  for m in proc dev/pts dev; do umount -l "$root/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$base"
chmod 755 "$root"  # the archived "." is mktemp's 0700: apt's _apt user and the tester need in
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/hearth.deb"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }

t0=$(date +%s)
in_root apt-get update -q >/dev/null
in_root apt-get install -y -q --no-install-recommends /tmp/hearth.deb >"$root/tmp/apt.log" 2>&1 \
  || { tail -30 "$root/tmp/apt.log" >&2; exit 1; }
install_s=$(( $(date +%s) - t0 ))
echo "test-deb: installed with its dependencies in ${install_s} s"

# The desktop entry, the icon, the command, the migrations and the model are in place.
for f in /usr/bin/hearth /usr/share/applications/hearth.desktop \
         /usr/share/icons/hicolor/scalable/apps/hearth.svg /usr/lib/hearth/hearth \
         /usr/lib/hearth/_internal/models/SmolLM2-135M-Instruct.Q4_1.gguf \
         /usr/lib/hearth/_internal/app/store/migrations/env.py; do
  [[ -e $root$f ]] || { echo "test-deb: missing $f" >&2; exit 1; }
done
# Every bundled library finds what it needs (bundled, or a declared dependency).
missing="$(in_root sh -c 'cd /usr/lib/hearth/_internal && find . -name "*.so*" -type f | while read -r f; do
  LD_LIBRARY_PATH=/usr/lib/hearth/_internal ldd "$f" 2>/dev/null | sed -n "s|^\s*\(.*not found\)|$f: \1|p"; done')"
[[ -z $missing ]] || { echo "test-deb: unresolved libraries:"; echo "$missing"; exit 1; } >&2

# The shipped llama.cpp needs no AVX outside the CPU backend variants, which ggml only loads
# after checking the processor: the common libraries and the x64 variant use no ymm/zmm
# registers (AVX/AVX-512); the variants are listed with the widest registers each one uses.
lib="$root/usr/lib/hearth/_internal/llama_cpp/lib"
if compgen -G "$lib/libggml-cpu-*.so" >/dev/null; then
  for f in "$lib"/libggml-base.so.0 "$lib"/libggml.so.0 "$lib"/libllama.so "$lib"/libggml-cpu-x64.so; do
    code=$(objdump -d "$f") || { echo "test-deb: cannot read $f" >&2; exit 1; }
    wide=$(grep -cE '%[yz]mm' <<<"$code" || true)
    [[ $wide -eq 0 ]] || { echo "test-deb: $(basename "$f") uses AVX registers ($wide)" >&2; exit 1; }
  done
  for f in "$lib"/libggml-cpu-*.so; do
    code=$(objdump -d "$f")
    printf 'test-deb: %-28s ymm %6d  zmm %6d\n' "$(basename "$f")" \
      "$(grep -c '%ymm' <<<"$code" || true)" "$(grep -c '%zmm' <<<"$code" || true)"
  done
else
  echo "test-deb: WARNING: llama.cpp is not the portable build (no CPU backend variants)"
fi

# Run as an ordinary user: the install folder is root's, so any write into it would fail;
# the marker file catches any attempt that did not fail either.
in_root useradd -m tester
touch "$root/tmp/marker"
sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || echo "test-deb: cannot drop caches (start is not cold)"
as_user() {
  chroot --userspec=tester:tester "$root" env -i HOME=/home/tester PATH=/usr/bin:/bin \
    QT_QPA_PLATFORM=offscreen LANG=C.UTF-8 "$@"
}
# One launch, timed from outside: process start to the `ready` line (window shown, model
# loaded) is the cold start; then the window's answer to one message on the bundled model.
python3 - "$root" "$question" <<'PY'
import json, re, subprocess, sys, time
root, question = sys.argv[1], sys.argv[2]
command = ["chroot", "--userspec=tester:tester", root, "env", "-i", "HOME=/home/tester",
           "PATH=/usr/bin:/bin", "QT_QPA_PLATFORM=offscreen", "LANG=C.UTF-8",
           "timeout", "900", "hearth", "--smoke-test", question]
started = time.monotonic()
with open(f"{root}/tmp/smoke.err", "w") as err:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True)
    events = {}
    for line in process.stdout:
        print("  ", line.rstrip())
        event = json.loads(line)
        events[event["event"]] = event
        if event["event"] == "ready":
            cold = time.monotonic() - started
    code = process.wait()
total = time.monotonic() - started
if code != 0 or "answer" not in events:
    print(open(f"{root}/tmp/smoke.err").read()[-3000:], file=sys.stderr)
    sys.exit(f"test-deb: the installed app failed (exit {code})")
ready, answer = events["ready"], events["answer"]
assert ready["title"] == "Hearth" and ready["visible"], ready
assert ready["model"].startswith("SmolLM2"), ready
# A real generation by the bundled model: text, and its speed in words in the status line.
# (SmolLM2-135M samples at random and is not clever: its words are printed, not judged.)
assert answer["answer"].strip(), answer
assert re.search(r"SmolLM2.* ([0-9]+(\.[0-9])?) words a second$", answer["status"]), answer
print(f"test-deb: cold start to a usable window (model loaded): {cold:.2f} s; "
      f"answered in the window after {total:.1f} s")
PY

# The baseline build (plain x86-64, no AVX) loads and answers, headless.
as_user env HEARTH_GGML_CPU=x64 timeout 900 hearth ask --confirm deny --json "$question" \
  >"$root/tmp/ask.json" 2>"$root/tmp/ask.err" \
  || { echo "test-deb: ask on the x64 backend failed"; tail -20 "$root/tmp/ask.err"; exit 1; } >&2
python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["answer"]; print("test-deb: x64 backend answered:", a[:80]); assert a.strip()' "$root/tmp/ask.json"

# User data went to the per-user folder; nothing changed under the install folder.
[[ -f $root/home/tester/.local/share/Hearth/hearth.db ]] || { echo "test-deb: no user database" >&2; exit 1; }
changed="$(find "$root/usr/lib/hearth" -newer "$root/tmp/marker")"
[[ -z $changed ]] || { echo "test-deb: written into the install folder: $changed" >&2; exit 1; }

echo "test-deb: package $(du -h "$deb" | cut -f1) ($(stat -c %s "$deb") bytes), installed $(du -sh "$root/usr/lib/hearth" | cut -f1)"
echo "test-deb: passed in $(( $(date +%s) - started )) s"
