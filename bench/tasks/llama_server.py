"""llama.cpp's own `llama-server --jinja` as a system of the task benchmark (issue #35).

Its chat handler reads Qwen's and Hermes' tool calls out of the model's text (with lazy grammar
triggers), the strongest plain integration there is; the plain loop (`PlainSystem`) drives it
through this OpenAI-compatible client exactly as it drives llama-cpp-python: every call in
`tool_calls` runs at once through the same tool handlers, no gate, no confirmation.
The binary is built from the pinned llama.cpp source by `bench/build_llama_server.sh`.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def server_binary() -> Path:
    """The llama-server binary, built (once, cached) from the pinned llama.cpp source."""
    done = subprocess.run(
        [str(ROOT / "bench" / "build_llama_server.sh")],
        check=True,
        capture_output=True,
        text=True,
    )
    return Path(done.stdout.strip().splitlines()[-1])


class ServerClient:
    """`create_chat_completion` over HTTP, with llama-cpp-python's keyword arguments."""

    def __init__(self, url: str, timeout: float = 900.0) -> None:
        self.url = url
        self.timeout = timeout

    def create_chat_completion(self, **request: Any) -> dict[str, Any]:
        body = {key: value for key, value in request.items() if value is not None}
        data = json.dumps(body).encode("utf-8")
        http = urllib.request.Request(
            f"{self.url}/v1/chat/completions",
            data=data,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(http, timeout=self.timeout) as response:
            answer: dict[str, Any] = json.loads(response.read())
        return answer


@contextmanager
def running_llama_server(
    model: Path, ctx: int, threads: int, seed: int, port: int
) -> Iterator[ServerClient]:
    """llama-server on 127.0.0.1:`port` with the model's own template (--jinja), until the
    block ends; waits until it answers /health."""
    binary = server_binary()
    command = [
        str(binary),
        "-m", str(model), "--jinja", "--host", "127.0.0.1", "--port", str(port),
        "-c", str(ctx), "-t", str(threads), "--seed", str(seed), "-np", "1",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            if process.poll() is not None:
                error = process.stderr.read().decode(errors="replace") if process.stderr else ""
                raise RuntimeError(f"llama-server stopped: {error[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("llama-server did not start within 300 s")
            time.sleep(0.5)
        yield ServerClient(url)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
