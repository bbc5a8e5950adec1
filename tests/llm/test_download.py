"""The model downloader against a real HTTP server on 127.0.0.1 serving the real SmolLM2 GGUF.

The server misbehaves on purpose (drops, stalls, no Range support, a flipped byte) because
that is what home connections and some mirrors do; the download must still end with the right
bytes under the right name, or with a clear error and no file in place.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import gguf
import numpy as np
import pytest

from app.llm import download as download_module
from app.llm import embedded
from app.llm.catalog import (
    SUPPORTED_ARCHITECTURES,
    CatalogEntry,
    find_entry,
    fits,
    free_disk_bytes,
    free_ram_bytes,
    load_catalog,
    recommend,
)
from app.llm.download import (
    DownloadCancelled,
    Downloader,
    DownloadError,
    DownloadPaused,
    HostUnreachable,
    NotEnoughDiskSpace,
    VerificationFailed,
    import_local_gguf,
)
from app.llm.gguf_file import ModelFileError

SIZE = embedded.SIZE
SHA = embedded.SHA256
MB = 1_000_000
FAST: dict[str, Any] = {"backoff_base": 0.01, "stall_timeout": 2.0}


@dataclass
class Behaviour:
    """How the test server misbehaves; every field is consumed by the requests that hit it."""

    data: bytes
    ranges: bool = True
    drops: list[int] = field(default_factory=list)  # cut the connection at these offsets
    stall_at: int | None = None  # send up to here, then go silent (once)
    gate_at: int | None = None  # send up to here, then wait for `gate` (once)
    corrupt_at: int | None = None  # flip this byte in every response that covers it
    status: int | None = None  # answer every request with this error status
    requests: list[tuple[str | None, int]] = field(default_factory=list)
    gate: threading.Event = field(default_factory=threading.Event)
    at_gate: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        b: Behaviour = self.server.behaviour  # type: ignore[attr-defined]
        header = self.headers.get("Range")
        if b.status is not None:
            b.requests.append((header, b.status))
            self.send_error(b.status)
            return
        data = b.data
        start, status = 0, 200
        match = re.fullmatch(r"bytes=(\d+)-", header or "")
        if match and b.ranges:
            start, status = int(match.group(1)), 206
            if start >= len(data):
                b.requests.append((header, 416))
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        b.requests.append((header, status))
        self.send_response(status)
        self.send_header("Content-Length", str(len(data) - start))
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Accept-Ranges", "bytes" if b.ranges else "none")
        self.send_header("ETag", '"smollm2"')
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        with b.lock:
            events = [(at, "drop") for at in b.drops if at > start]
            if b.stall_at is not None and b.stall_at > start:
                events.append((b.stall_at, "stall"))
            if b.gate_at is not None and b.gate_at > start:
                events.append((b.gate_at, "gate"))
            stop, action = min(events, default=(len(data), "end"))
            if action == "drop":
                b.drops.remove(stop)
            elif action == "stall":
                b.stall_at = None
            elif action == "gate":
                b.gate_at = None
        try:
            self._send(b, start, stop)
            if action == "drop":
                self.connection.shutdown(socket.SHUT_RDWR)
            elif action == "stall":
                b.release.wait(10)
            elif action == "gate":
                b.at_gate.set()
                b.gate.wait(10)
                self._send(b, stop, len(data))
        except OSError:
            pass  # the client went away (pause, cancel, its own stall timeout)

    def _send(self, b: Behaviour, start: int, stop: int) -> None:
        view = memoryview(b.data)
        step = 1 << 20
        for offset in range(start, stop, step):
            piece = bytes(view[offset : min(stop, offset + step)])
            if b.corrupt_at is not None and offset <= b.corrupt_at < offset + len(piece):
                damaged = bytearray(piece)
                damaged[b.corrupt_at - offset] ^= 0xFF
                piece = bytes(damaged)
            self.wfile.write(piece)


@pytest.fixture(scope="module")
def smollm2_bytes(smollm2_path: Path) -> bytes:
    data = smollm2_path.read_bytes()
    assert len(data) == SIZE and hashlib.sha256(data).hexdigest() == SHA
    return data


@pytest.fixture(scope="module")
def http_server() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.behaviour = Behaviour(b"")  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.behaviour.release.set()  # type: ignore[attr-defined]
    server.shutdown()
    server.server_close()


@pytest.fixture
def serve(
    http_server: ThreadingHTTPServer, smollm2_bytes: bytes
) -> Iterator[tuple[str, Behaviour]]:
    behaviour = Behaviour(smollm2_bytes)
    http_server.behaviour = behaviour  # type: ignore[attr-defined]
    host, port = http_server.server_address[:2]
    assert isinstance(host, str)
    yield f"http://{host}:{port}/models/SmolLM2.gguf", behaviour
    behaviour.release.set()
    behaviour.gate.set()


def _leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def test_download_completes_and_verifies(serve: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, behaviour = serve
    target = tmp_path / "model.gguf"
    reports: list[tuple[int, int | None, float, float | None]] = []
    dl = Downloader(url, target, SIZE, SHA, lambda *args: reports.append(args), **FAST)

    assert dl.run() == target

    assert embedded.sha256_of(target) == SHA
    assert _leftovers(tmp_path) == ["model.gguf"]  # no .part, no .part.json
    assert dl.info is not None and dl.info.architecture == "llama" and dl.info.path == target
    assert behaviour.requests == [(None, 200)]
    assert reports[-1][:2] == (SIZE, SIZE)
    assert all(total == SIZE for _, total, _, _ in reports)
    assert any(speed > 0 and left is not None for _, _, speed, left in reports)
    dones = [done for done, *_ in reports]
    assert dones == sorted(dones)


def test_resumes_after_dropped_connections(serve: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, behaviour = serve
    drops = [10 * MB, 35 * MB, 60 * MB, 90 * MB]
    behaviour.drops = list(drops)
    target = tmp_path / "model.gguf"
    dl = Downloader(url, target, SIZE, SHA, **FAST)

    dl.run()

    assert embedded.sha256_of(target) == SHA
    assert dl.resumes == len(drops) and dl.restarts == 0
    assert behaviour.requests == [(None, 200)] + [(f"bytes={at}-", 206) for at in drops]
    assert _leftovers(tmp_path) == ["model.gguf"]


def test_corrupted_byte_is_caught_and_the_file_removed(
    serve: tuple[str, Behaviour], tmp_path: Path
) -> None:
    url, behaviour = serve
    behaviour.corrupt_at = 5 * MB  # inside the tensor data: the header alone would pass
    behaviour.drops = [3 * MB]  # the checksum also covers bytes from before a resume
    target = tmp_path / "model.gguf"

    with pytest.raises(VerificationFailed, match="checksum") as caught:
        Downloader(url, target, SIZE, SHA, **FAST).run()

    assert "deleted" in caught.value.user_message()
    assert _leftovers(tmp_path) == []


def test_server_without_range_support_restarts_cleanly(
    serve: tuple[str, Behaviour], tmp_path: Path
) -> None:
    url, behaviour = serve
    behaviour.ranges = False
    behaviour.drops = [30 * MB]
    target = tmp_path / "model.gguf"
    dl = Downloader(url, target, SIZE, SHA, **FAST)

    dl.run()

    assert embedded.sha256_of(target) == SHA
    assert behaviour.requests == [(None, 200), (f"bytes={30 * MB}-", 200)]
    assert dl.restarts == 1 and dl.resumes == 0


def test_stalled_server_is_retried(serve: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, behaviour = serve
    behaviour.stall_at = 20 * MB
    target = tmp_path / "model.gguf"
    dl = Downloader(url, target, SIZE, SHA, backoff_base=0.01, stall_timeout=0.5)

    dl.run()

    assert embedded.sha256_of(target) == SHA
    assert dl.attempts >= 2 and dl.resumes >= 1  # more only if this machine is very busy
    assert any("no data for 0.5 s" in error for error in dl.errors)
    assert (f"bytes={20 * MB}-", 206) in behaviour.requests


def test_retries_are_bounded(serve: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, behaviour = serve
    behaviour.status = 503
    dl = Downloader(url, tmp_path / "model.gguf", SIZE, SHA, max_retries=2, **FAST)

    with pytest.raises(DownloadError, match="kept failing"):
        dl.run()

    assert dl.attempts == 3 and len(behaviour.requests) == 3
    assert _leftovers(tmp_path) == []


def test_a_host_that_cannot_be_reached_is_said_within_seconds(tmp_path: Path) -> None:
    """No route, no name, a refused connection: three quick tries with the default back-off,
    then one message naming the host, not a minute of silent retries (issue #38)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    dl = Downloader(f"http://127.0.0.1:{port}/model.gguf", tmp_path / "model.gguf", SIZE, SHA)
    started = time.monotonic()
    with pytest.raises(HostUnreachable) as caught:
        dl.run()
    assert time.monotonic() - started < 5
    assert dl.attempts == 3
    assert "127.0.0.1 cannot be reached from this computer" in caught.value.user_message()
    assert "Check the internet connection" in caught.value.advice
    assert _leftovers(tmp_path) == []


def test_missing_file_is_not_retried(serve: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, behaviour = serve
    behaviour.status = 404
    dl = Downloader(url, tmp_path / "model.gguf", SIZE, SHA, **FAST)

    with pytest.raises(DownloadError, match="404"):
        dl.run()

    assert dl.attempts == 1


def test_too_little_disk_space_is_refused_before_starting(
    serve: tuple[str, Behaviour], tmp_path: Path
) -> None:
    url, behaviour = serve
    seen: list[Path] = []

    def tiny_disk(folder: Path) -> int:
        seen.append(folder)
        return 50 * MB

    target = tmp_path / "model.gguf"
    with pytest.raises(NotEnoughDiskSpace, match="not enough free disk space") as caught:
        Downloader(url, target, SIZE, SHA, free_space=tiny_disk, **FAST).run()
    assert "Nothing was downloaded" in caught.value.user_message()
    assert behaviour.requests == []  # not even a request
    assert seen == [tmp_path]

    # Size unknown beforehand: refused from the server's Content-Length, before writing.
    with pytest.raises(NotEnoughDiskSpace):
        Downloader(url, target, None, SHA, free_space=tiny_disk, **FAST).run()
    assert len(behaviour.requests) == 1
    assert _leftovers(tmp_path) == []


def _interrupt_at_gate(dl: Downloader, behaviour: Behaviour, stop: str) -> BaseException:
    """Run `dl` in a worker thread; when the server holds at its gate, pause or cancel it
    from this thread, then let the server go on. Returns what run() raised."""
    outcome: list[BaseException | Path] = []

    def work() -> None:
        try:
            outcome.append(dl.run())
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    assert behaviour.at_gate.wait(10)
    getattr(dl, stop)()
    behaviour.gate.set()
    worker.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], BaseException), outcome
    return outcome[0]


def test_pause_from_another_thread_then_resume(
    serve: tuple[str, Behaviour], tmp_path: Path
) -> None:
    url, behaviour = serve
    behaviour.gate_at = 40 * MB
    target = tmp_path / "model.gguf"
    dl = Downloader(url, target, SIZE, SHA, **FAST)

    assert isinstance(_interrupt_at_gate(dl, behaviour, "pause"), DownloadPaused)
    kept = dl.partial_size
    assert 0 < kept <= 40 * MB + dl.chunk_size  # at most one chunk after pause()
    assert not target.exists()

    dl.resume()
    assert dl.run() == target
    assert embedded.sha256_of(target) == SHA
    assert behaviour.requests[-1] == (f"bytes={kept}-", 206)


def test_new_downloader_resumes_existing_part(
    serve: tuple[str, Behaviour], smollm2_bytes: bytes, tmp_path: Path
) -> None:
    url, behaviour = serve
    target = tmp_path / "model.gguf"

    # First run: paused at about 25 MB, then the object is dropped (the app quits).
    behaviour.gate_at = 25 * MB
    first = Downloader(url, target, SIZE, SHA, **FAST)
    assert isinstance(_interrupt_at_gate(first, behaviour, "pause"), DownloadPaused)
    kept = first.partial_size
    assert 0 < kept <= 25 * MB + first.chunk_size
    del first

    second = Downloader(url, target, SIZE, SHA, **FAST)
    second.run()

    assert embedded.sha256_of(target) == SHA
    assert behaviour.requests == [(None, 200), (f"bytes={kept}-", 206)]
    assert second.resumes == 1

    # A .part left by a crash (no bookkeeping file) is continued too.
    target.unlink()
    target.with_name("model.gguf.part").write_bytes(smollm2_bytes[: 60 * MB])
    Downloader(url, target, SIZE, SHA, **FAST).run()
    assert embedded.sha256_of(target) == SHA
    assert behaviour.requests[-1] == (f"bytes={60 * MB}-", 206)


def test_the_finished_file_is_not_read_again_to_verify(
    serve: tuple[str, Behaviour], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bytes are hashed as they arrive, across resumes: verifying a 0.5-1.6 GB model no
    longer costs a second pass over the file."""
    url, behaviour = serve
    behaviour.drops = [20 * MB]

    def second_pass(path: Path) -> str:
        raise AssertionError(f"{path} was read again to hash it")

    monkeypatch.setattr(download_module, "sha256_of", second_pass)
    target = tmp_path / "model.gguf"
    dl = Downloader(url, target, SIZE, SHA, **FAST)
    dl.run()
    assert dl.resumes == 1 and embedded.sha256_of(target) == SHA


def test_a_damaged_part_from_an_earlier_run_is_caught(
    serve: tuple[str, Behaviour], smollm2_bytes: bytes, tmp_path: Path
) -> None:
    """A new process hashes the .part it continues, so a flipped byte in it still counts."""
    url, _ = serve
    target = tmp_path / "model.gguf"
    damaged = bytearray(smollm2_bytes[: 60 * MB])
    damaged[30 * MB] ^= 0xFF
    target.with_name("model.gguf.part").write_bytes(bytes(damaged))
    with pytest.raises(VerificationFailed, match="checksum"):
        Downloader(url, target, SIZE, SHA, **FAST).run()
    assert _leftovers(tmp_path) == []


def test_part_of_another_download_is_not_resumed(
    serve: tuple[str, Behaviour], tmp_path: Path
) -> None:
    url, behaviour = serve
    target = tmp_path / "model.gguf"
    target.with_name("model.gguf.part").write_bytes(b"x" * MB)
    target.with_name("model.gguf.part.json").write_text(
        '{"url": "https://example.invalid/other.gguf", "sha256": null, "validator": null}'
    )

    Downloader(url, target, SIZE, SHA, **FAST).run()

    assert embedded.sha256_of(target) == SHA
    assert behaviour.requests == [(None, 200)]


def test_cancel_deletes_the_partial_file(serve: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, behaviour = serve
    behaviour.gate_at = 10 * MB
    dl = Downloader(url, tmp_path / "model.gguf", SIZE, SHA, **FAST)

    assert isinstance(_interrupt_at_gate(dl, behaviour, "cancel"), DownloadCancelled)
    assert _leftovers(tmp_path) == []


def test_size_mismatch_is_refused(serve: tuple[str, Behaviour], tmp_path: Path) -> None:
    url, _ = serve
    with pytest.raises(VerificationFailed, match="the server offers a file of"):
        Downloader(url, tmp_path / "model.gguf", SIZE + 1, None, **FAST).run()
    assert _leftovers(tmp_path) == []


def test_without_checksum_a_truncated_model_is_refused_by_its_header(
    serve: tuple[str, Behaviour], smollm2_bytes: bytes, tmp_path: Path
) -> None:
    url, behaviour = serve
    behaviour.data = smollm2_bytes[: 50 * MB]  # a mirror holding a cut-off copy
    with pytest.raises(VerificationFailed, match="truncated") as caught:
        Downloader(url, tmp_path / "model.gguf", None, None, **FAST).run()
    assert "deleted" in caught.value.problem
    assert _leftovers(tmp_path) == []


def test_wrong_architecture_from_server_is_refused(
    serve: tuple[str, Behaviour], tmp_path: Path
) -> None:
    url, _ = serve
    with pytest.raises(VerificationFailed, match="'qwen35' model was expected"):
        Downloader(url, tmp_path / "m.gguf", SIZE, SHA, expected_architecture="qwen35").run()
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/m.gguf", "m.gguf"])
def test_only_http_and_https(url: str, tmp_path: Path) -> None:
    with pytest.raises(DownloadError, match="only http and https"):
        Downloader(url, tmp_path / "m.gguf")


# -- importing a file the user picked -------------------------------------------------------


def _write_gguf(path: Path, arch: str) -> Path:
    writer = gguf.GGUFWriter(str(path), arch=arch)
    writer.add_name("test model")
    writer.add_tensor("token_embd.weight", np.zeros((8, 4), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_import_accepts_the_real_model(smollm2_path: Path) -> None:
    assert import_local_gguf(smollm2_path).architecture == "llama"


@pytest.mark.parametrize(
    ("arch", "message"),
    [("notarealarch", "'notarealarch' architecture"), ("bert", "cannot hold a conversation")],
)
def test_import_refuses_wrong_architecture(arch: str, message: str, tmp_path: Path) -> None:
    path = _write_gguf(tmp_path / f"{arch}.gguf", arch)
    with pytest.raises(ModelFileError, match=message) as caught:
        import_local_gguf(path)
    assert caught.value.advice


def test_import_accepts_a_supported_written_file(tmp_path: Path) -> None:
    assert import_local_gguf(_write_gguf(tmp_path / "q.gguf", "qwen3")).architecture == "qwen3"


def test_import_refuses_truncated_header(smollm2_bytes: bytes, tmp_path: Path) -> None:
    path = tmp_path / "cut.gguf"
    path.write_bytes(smollm2_bytes[:100_000])  # the header (vocabulary) runs to ~1.8 MB
    with pytest.raises(ModelFileError, match="truncated"):
        import_local_gguf(path)


# -- catalog ----------------------------------------------------------------------------------


def test_catalog_entries_are_complete() -> None:
    entries = load_catalog()
    assert {e.quantization for e in entries if e.family == "Qwen3.5 0.8B"} == {
        "Q4_K_M",
        "Q8_0",
        "BF16",
    }
    smol = find_entry(entries, "smollm2-135m-instruct-q4_1")
    assert (smol.sha256, smol.size_bytes, smol.builtin) == (SHA, SIZE, True)
    for entry in entries:
        assert entry.architecture in SUPPORTED_ARCHITECTURES
        assert entry.description and entry.licence and entry.file_name.endswith(".gguf")
        if entry.sha256 is None:
            assert entry.verification == "size-and-header" and entry.note
        if not entry.size_exact:
            assert entry.expected_size is None and entry.note


def _entry(**changes: object) -> CatalogEntry:
    base = find_entry(load_catalog(), "qwen3.5-0.8b-q4_k_m")
    return CatalogEntry(**{**base.__dict__, **changes})


def test_fits_and_recommend() -> None:
    entries = load_catalog()
    big = 64 * 10**9
    # The README's default, Qwen2.5-Coder-0.5B, comes first where it fits.
    default = "qwen2.5-coder-0.5b-instruct-q4_k_m"
    assert recommend(entries, big, big).id == default  # type: ignore[union-attr]
    assert recommend(entries, 950 * MB, big).id == default  # type: ignore[union-attr]
    # A tool-calling model already on this computer is recommended over any download.
    llama = "llama-3.2-3b-instruct-q4_k_m"
    assert recommend(entries, big, big, frozenset({llama})).id == llama  # type: ignore[union-attr]
    builtin_only = frozenset({"smollm2-135m-instruct-q4_1"})
    assert recommend(entries, big, big, builtin_only).id == default  # type: ignore[union-attr]
    assert recommend(entries, 500 * MB, big).builtin  # type: ignore[union-attr]
    assert recommend(entries, 100 * MB, big) is None
    assert recommend(entries, big, 700 * MB).id == "qwen3-0.6b-q4_k_m"  # type: ignore[union-attr]
    q4 = _entry()
    assert fits(q4, None, None)
    assert not fits(q4, q4.ram_bytes - 1, big)
    assert not fits(q4, big, q4.size_bytes)  # the disk reserve counts
    assert fits(_entry(builtin=True), big, 0)


def test_system_probes() -> None:
    ram = free_ram_bytes()
    assert ram is None or ram > 0
    free = free_disk_bytes(Path("/nonexistent/deeper"))  # measured on the nearest parent: /
    assert abs(free - shutil.disk_usage("/").free) < 100 * MB
