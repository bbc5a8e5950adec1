"""Download model files robustly, and check model files a user brings in themselves.

A model is hundreds of megabytes over home Wi-Fi, so the download must survive dropped
connections, stalls, restarts of the app and servers that do not resume; and a half-written or
corrupted file must never be mistaken for a model. Hence: bytes go to `<name>.part`, resumes use
HTTP Range, and the final name appears (by atomic rename) only after size, checksum and GGUF
header have been checked.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import re
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.llm.catalog import (
    DISK_RESERVE_BYTES,
    NOT_CHAT_ARCHITECTURES,
    SUPPORTED_ARCHITECTURES,
    free_disk_bytes,
)
from app.llm.gguf_file import GGUFInfo, ModelFileError, read_gguf
from app.llm.hashing import sha256_digest, sha256_of

# on_progress(done_bytes, total_bytes_or_None, bytes_per_second, seconds_left_or_None)
ProgressCallback = Callable[[int, int | None, float, float | None], None]

ALLOWED_SCHEMES = ("http", "https")
USER_AGENT = "Hearth-model-downloader/0.1"
_CONTENT_RANGE_RE = re.compile(r"^bytes (\d+)-(\d+)/(\d+|\*)$")
_UNSATISFIED_RANGE_RE = re.compile(r"^bytes \*/(\d+)$")
_PROGRESS_INTERVAL = 0.1  # seconds between progress callbacks
_SPEED_WINDOW = 5.0  # seconds of history behind the speed estimate


class DownloadError(Exception):
    """A download that cannot go on, with words a user can act on."""

    def __init__(self, problem: str, advice: str) -> None:
        self.problem = problem
        self.advice = advice
        super().__init__(problem)

    def user_message(self) -> str:
        return f"The download failed: {self.problem}\n\n{self.advice}"


class NotEnoughDiskSpace(DownloadError):
    pass


class VerificationFailed(DownloadError):
    """The bytes arrived but are not the promised model; the file has been deleted."""


class HostUnreachable(DownloadError):
    """The model's server could not be reached at all (no network, no route, a name that does
    not resolve, a refused connection): said within seconds, not after a minute of retries."""


class DownloadPaused(DownloadError):
    """pause() was called: the .part file is kept; call resume() and run() again."""


class DownloadCancelled(DownloadError):
    """cancel() was called: the .part file has been deleted."""


class _Transient(Exception):
    """A failure worth retrying: dropped or stalled connection, busy server."""


class _NoConnection(_Transient):
    """No connection could be made to the server."""


class _SchemeCheckingRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects (Hugging Face sends files from a CDN) but only to http(s), and
    never from https down to plain http."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        scheme = urlsplit(newurl).scheme.lower()
        if scheme not in ALLOWED_SCHEMES or (req.type == "https" and scheme != "https"):
            raise DownloadError(
                f"the server redirected the download to an address Hearth does not trust "
                f"({scheme}://...).",
                "Download the model from its official page instead.",
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def check_model_file(path: Path | str, expected_architecture: str | None = None) -> GGUFInfo:
    """Header and architecture check shared by downloads and imported files."""
    info = read_gguf(path)
    arch = info.architecture
    if "general.architecture" not in info.metadata:
        raise ModelFileError(
            path,
            "it does not say which model architecture it uses.",
            "The file was probably made by a broken converter. Choose another model file.",
        )
    if arch in NOT_CHAT_ARCHITECTURES:
        raise ModelFileError(
            path,
            f"it is a '{arch}' model, which turns text into numbers but cannot hold a "
            "conversation.",
            "Choose a chat or instruct model (for example Qwen3.5 0.8B).",
        )
    if arch not in SUPPORTED_ARCHITECTURES:
        raise ModelFileError(
            path,
            f"it uses the '{arch}' architecture, which this version of Hearth cannot run.",
            "Choose a model of a supported family (Qwen, Llama, Gemma, Phi, Mistral and "
            "others), or update Hearth.",
        )
    if expected_architecture is not None and arch != expected_architecture:
        raise ModelFileError(
            path,
            f"it is a '{arch}' model, but a '{expected_architecture}' model was expected.",
            "The server sent a different model than the catalogue describes. Try again later "
            "or choose another model.",
        )
    return info


def import_local_gguf(path: Path | str) -> GGUFInfo:
    """Check a .gguf the user picked: readable, complete header, an architecture we can run.

    Refusing here gives a clear message; llama.cpp itself would log a terse line or abort.
    """
    return check_model_file(path)


class Downloader:
    """Fetch one file to `target` with resume, retries, stall detection and verification.

    run() blocks; call it in a worker thread. pause() and cancel() may be called from any
    thread and take effect after the next chunk (or at the latest after `stall_timeout`).
    Counters `attempts`, `resumes` (requests that continued a .part) and `restarts` (times the
    .part was thrown away to start from zero) are kept for tests and logs.
    """

    def __init__(
        self,
        url: str,
        target: Path | str,
        expected_size: int | None = None,
        sha256: str | None = None,
        on_progress: ProgressCallback | None = None,
        *,
        expected_architecture: str | None = None,
        stall_timeout: float = 30.0,
        max_retries: int = 6,
        connect_retries: int = 2,
        backoff_base: float = 1.0,
        backoff_max: float = 60.0,
        chunk_size: int = 256 * 1024,
        free_space: Callable[[Path], int] = free_disk_bytes,
        disk_reserve: int = DISK_RESERVE_BYTES,
    ) -> None:
        scheme = urlsplit(url).scheme.lower()
        if scheme not in ALLOWED_SCHEMES:
            raise DownloadError(
                f"the address {url!r} is not a web address (only http and https are allowed).",
                "Use the model's https:// download link.",
            )
        if sha256 is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", sha256):
            raise ValueError("sha256 must be 64 hex digits")
        self.url = url
        self.target = Path(target)
        self.part = self.target.with_name(self.target.name + ".part")
        self.meta = self.target.with_name(self.target.name + ".part.json")
        self.expected_size = expected_size
        self.sha256 = sha256.lower() if sha256 else None
        self.expected_architecture = expected_architecture
        self.on_progress = on_progress
        self.stall_timeout = stall_timeout
        self.max_retries = max_retries
        # Retries when the server was never reached in this run: a dropped connection is
        # worth a minute of patience, a host that cannot be reached at all is not.
        self.connect_retries = connect_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.chunk_size = chunk_size
        self.free_space = free_space
        self.disk_reserve = disk_reserve
        self.total: int | None = expected_size
        self.info: GGUFInfo | None = None
        self.attempts = 0
        self.resumes = 0
        self.restarts = 0
        self.errors: list[str] = []
        self._digest = hashlib.sha256()  # of the first `_hashed` bytes of the .part
        self._hashed = -1  # nothing hashed yet
        self._pause = threading.Event()
        self._cancel = threading.Event()
        self._wake = threading.Event()
        self._opener = urllib.request.build_opener(_SchemeCheckingRedirects())
        self._received = 0  # bytes received in this run(), for the speed estimate
        self._speed_samples: deque[tuple[float, int]] = deque()
        self._last_progress = 0.0
        self._connected = False  # the server answered in this run()

    # -- control from other threads -------------------------------------------------------

    def pause(self) -> None:
        """Stop soon, keeping the .part file; run() raises DownloadPaused."""
        self._pause.set()
        self._wake.set()

    def resume(self) -> None:
        """Allow run() to be called again after a pause."""
        self._pause.clear()
        if not self._cancel.is_set():
            self._wake.clear()

    def cancel(self) -> None:
        """Stop soon and delete the .part file; run() raises DownloadCancelled."""
        self._cancel.set()
        self._wake.set()

    @property
    def partial_size(self) -> int:
        try:
            return self.part.stat().st_size
        except FileNotFoundError:
            return 0

    # -- the download ---------------------------------------------------------------------

    def run(self) -> Path:
        """Download (or continue), verify, and move the file into place; return its path."""
        try:
            return self._run()
        except DownloadCancelled:
            self._discard()
            raise

    def _run(self) -> Path:
        self._check_stop()
        self._forget_part_of_other_download()
        if self.expected_size is not None:
            self._check_disk(self.expected_size - min(self.partial_size, self.expected_size))
        self._received = 0
        self._speed_samples.clear()
        failures = 0
        self._connected = False
        while True:
            self._check_stop()
            before = self.partial_size
            try:
                self._attempt()
                break
            except _Transient as exc:
                self.errors.append(str(exc))
                failures = 0 if self.partial_size > before else failures
                failures += 1
                unreachable = isinstance(exc, _NoConnection) and not self._connected
                if unreachable and failures > self.connect_retries:
                    host = urlsplit(self.url).hostname or self.url
                    raise HostUnreachable(
                        f"{host} cannot be reached from this computer ({exc.args[0]}).",
                        "Check the internet connection, then press Download again in "
                        "Settings → Models…",
                    ) from exc
                if failures > self.max_retries:
                    raise DownloadError(
                        f"the connection kept failing ({exc}).",
                        "Check the internet connection and try again: the download will "
                        "continue where it stopped.",
                    ) from exc
                delay = min(self.backoff_max, self.backoff_base * 2 ** (failures - 1))
                self._wake.wait(delay)
        return self._finish()

    def _attempt(self) -> None:
        """One HTTP request; returns when the .part holds the whole file."""
        self.attempts += 1
        offset = self.partial_size
        if self.expected_size is not None and offset >= self.expected_size:
            if offset == self.expected_size:
                return  # finished before a restart: only verification is left
            self._restart("the partial file is larger than the model")
            offset = 0
        headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
        validator = self._load_meta().get("validator")
        if offset:
            headers["Range"] = f"bytes={offset}-"
            if validator:
                headers["If-Range"] = validator
        request = urllib.request.Request(self.url, headers=headers)
        try:
            response = self._opener.open(request, timeout=self.stall_timeout)
        except urllib.error.HTTPError as exc:
            self._handle_http_error(exc, offset)
            return
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            raise _NoConnection(f"could not connect: {_reason(exc)}") from exc
        self._connected = True
        with response:
            offset, total = self._read_headers(response, offset)
            self._receive(response, offset, total)

    def _handle_http_error(self, exc: urllib.error.HTTPError, offset: int) -> None:
        with exc:
            if exc.code == 416 and offset:
                match = _UNSATISFIED_RANGE_RE.match(exc.headers.get("Content-Range", ""))
                if match and int(match.group(1)) == offset:
                    self.total = offset
                    return  # the .part already holds everything
                self._restart("the server could not continue the partial file")
                raise _Transient("range not satisfiable; starting again") from exc
            if exc.code in (408, 425, 429) or exc.code >= 500:
                raise _Transient(f"server busy ({exc.code} {exc.reason})") from exc
            raise DownloadError(
                f"the server answered {exc.code} ({exc.reason}).",
                "The model may have moved or need a log-in on its site. Check the address, "
                "or choose another model.",
            ) from exc

    def _read_headers(self, response: http.client.HTTPResponse, offset: int) -> tuple[int, int]:
        """Decide where the body starts and how long the file is; returns (offset, total)."""
        final_scheme = urlsplit(response.geturl()).scheme.lower()
        if final_scheme not in ALLOWED_SCHEMES:
            raise DownloadError("the download was redirected away from the web.", "Try again.")
        total: int | None
        if response.status == 206:
            match = _CONTENT_RANGE_RE.match(response.headers.get("Content-Range", ""))
            if not match or int(match.group(1)) != offset:
                self._restart("the server sent a different part of the file than asked for")
                raise _Transient("unexpected Content-Range; starting again")
            total = None if match.group(3) == "*" else int(match.group(3))
            self.resumes += 1
        elif response.status == 200:
            if offset:
                # The server ignored Range (or the file changed, see If-Range): the body is
                # the whole file, so the partial file must go.
                self._restart("the server cannot continue a partial download")
                offset = 0
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
        else:
            raise _Transient(f"unexpected answer {response.status}")
        if total is None:
            total = self.expected_size
        if self.expected_size is not None and total != self.expected_size:
            self._discard()
            raise VerificationFailed(
                f"the server offers a file of {total:,} bytes, but this model has "
                f"{self.expected_size:,} bytes.",
                "The file on the server has changed. Update Hearth, or choose another model.",
            )
        if total is None:
            raise DownloadError(
                "the server did not say how large the file is.",
                "Hearth only downloads files of known size. Choose another download link.",
            )
        self.total = total
        if self.expected_size is None:
            self._check_disk(total - offset)
        self._save_meta(response)
        return offset, total

    def _receive(self, response: http.client.HTTPResponse, offset: int, total: int) -> None:
        done = offset
        self._report(done, force=True)
        with self.part.open("r+b" if offset else "wb") as handle:
            handle.seek(offset)
            handle.truncate(offset)
            if self._hashed != offset:  # a restart, or a .part left by an earlier run
                self._digest = sha256_digest(self.part) if offset else hashlib.sha256()
                self._hashed = offset
            while done < total:
                if self._pause.is_set() or self._cancel.is_set():
                    handle.flush()
                    self._check_stop()
                try:
                    chunk = response.read1(min(self.chunk_size, total - done))
                except TimeoutError as exc:
                    raise _Transient(
                        f"no data for {self.stall_timeout:g} s at byte {done:,}"
                    ) from exc
                except (OSError, http.client.HTTPException) as exc:
                    raise _Transient(f"connection dropped at byte {done:,}") from exc
                if not chunk:
                    raise _Transient(f"connection closed at byte {done:,}")
                handle.write(chunk)
                self._digest.update(chunk)  # hashed on the way: no second pass at the end
                self._hashed += len(chunk)
                done += len(chunk)
                self._received += len(chunk)
                self._report(done, force=False)
            handle.flush()
            os.fsync(handle.fileno())
        self._report(done, force=True)

    def _finish(self) -> Path:
        """Verify the complete .part, then give it its real name."""
        size = self.partial_size
        expected = self.expected_size if self.expected_size is not None else self.total
        if expected is not None and size != expected:
            self._discard()
            raise VerificationFailed(
                f"the file has {size:,} bytes instead of {expected:,}.",
                "Download the model again.",
            )
        if self.sha256 is not None:
            actual = self._digest.hexdigest() if self._hashed == size else sha256_of(self.part)
            if actual != self.sha256:
                self._discard()
                raise VerificationFailed(
                    f"the file's checksum is {actual}, but it should be {self.sha256}: "
                    "it was damaged on the way or is not the promised file. It was deleted.",
                    "Download the model again. If this happens again, the server may be "
                    "sending a different file; choose another model.",
                )
        try:
            info = check_model_file(self.part, self.expected_architecture)
        except ModelFileError as exc:
            self._discard()
            raise VerificationFailed(f"{exc.problem} It was deleted.", exc.advice) from exc
        os.replace(self.part, self.target)
        self.meta.unlink(missing_ok=True)
        _fsync_dir(self.target.parent)
        self.info = replace(info, path=self.target)
        return self.target

    # -- helpers --------------------------------------------------------------------------

    def _check_stop(self) -> None:
        if self._cancel.is_set():
            raise DownloadCancelled("the download was cancelled.", "Start it again at any time.")
        if self._pause.is_set():
            raise DownloadPaused(
                "the download is paused.", "Resume it to continue where it stopped."
            )

    def _check_disk(self, remaining: int) -> None:
        folder = self.target.parent
        free = self.free_space(folder)
        needed = remaining + self.disk_reserve
        if free < needed:
            raise NotEnoughDiskSpace(
                f"there is not enough free disk space: the model needs {_mb(remaining)} more "
                f"(plus {_mb(self.disk_reserve)} kept free), but only {_mb(free)} is free in "
                f"{folder}.",
                "Free some disk space, or choose a smaller model. Nothing was downloaded.",
            )

    def _restart(self, why: str) -> None:
        self.errors.append(why)
        self.restarts += 1
        self.part.unlink(missing_ok=True)

    def _discard(self) -> None:
        self.part.unlink(missing_ok=True)
        self.meta.unlink(missing_ok=True)

    def _load_meta(self) -> dict[str, Any]:
        try:
            data = json.loads(self.meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save_meta(self, response: http.client.HTTPResponse) -> None:
        """Remember which file the .part belongs to, so a restart resumes only the same one."""
        etag = response.headers.get("ETag")
        validator = etag if etag and not etag.startswith("W/") else None
        validator = validator or response.headers.get("Last-Modified")
        meta = {"url": self.url, "sha256": self.sha256, "validator": validator}
        self.meta.parent.mkdir(parents=True, exist_ok=True)
        self.meta.write_text(json.dumps(meta), encoding="utf-8")

    def _forget_part_of_other_download(self) -> None:
        meta = self._load_meta()
        if meta and (meta.get("url") != self.url or meta.get("sha256") != self.sha256):
            self._discard()

    def _report(self, done: int, force: bool) -> None:
        now = time.monotonic()
        if not force and now - self._last_progress < _PROGRESS_INTERVAL:
            return
        self._last_progress = now
        samples = self._speed_samples
        samples.append((now, self._received))
        while len(samples) > 2 and now - samples[0][0] > _SPEED_WINDOW:
            samples.popleft()
        elapsed = now - samples[0][0]
        speed = (self._received - samples[0][1]) / elapsed if elapsed > 0 else 0.0
        left = None
        if self.total is not None and speed > 0:
            left = max(0, self.total - done) / speed
        if self.on_progress is not None:
            self.on_progress(done, self.total, speed, left)


def _reason(exc: BaseException) -> str:
    reason = getattr(exc, "reason", None)
    return str(reason if reason is not None else exc) or type(exc).__name__


def _mb(count: int) -> str:
    return f"{count / 1e6:,.0f} MB" if count >= 1e6 else f"{count:,} bytes"


def _fsync_dir(folder: Path) -> None:
    """Make the rename durable on POSIX; directories cannot be opened this way on Windows."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
