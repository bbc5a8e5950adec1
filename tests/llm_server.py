"""A real llama-cpp-python server on loopback, serving the embedded SmolLM2 (tests only)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


@dataclass
class ServerProcess:
    process: subprocess.Popen[bytes]
    port: int
    model_id: str
    log: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def llama_server(model: Path, log: Path, api_key: str | None = None) -> Iterator[ServerProcess]:
    """Start `python -m llama_cpp.server` (with this build's CPU backend loaded first) and
    wait until it lists its model."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "app.llm.cpu_backend",
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "2048",
        "--n_threads",
        "1",
        "--seed",
        "1234",
    ]
    if api_key:
        command += ["--api_key", api_key]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    server = ServerProcess(process, port, str(model), log)
    try:
        deadline = time.monotonic() + 180
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited: {log.read_text(errors='replace')[-2000:]}")
            request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/models")
            if api_key:
                request.add_header("Authorization", f"Bearer {api_key}")
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    server.model_id = json.load(response)["data"][0]["id"]
                break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        yield server
    finally:
        server.kill()
