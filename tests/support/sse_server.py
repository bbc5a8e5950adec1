"""A small real OpenAI-compatible server on loopback that streams scripted Server-Sent Events:
the remote backend's tests read a real HTTP stream without a real model (none loops or
splits a call on cue)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# What the server streams for one request: (path, JSON body, how many requests came before).
Script = Callable[[str, dict[str, Any], int], Iterable[dict[str, Any]]]


@dataclass
class ScriptedServer:
    port: int
    bodies: list[dict[str, Any]] = field(default_factory=list)  # every request's body, in order

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def choice_event(choice: dict[str, Any]) -> dict[str, Any]:
    """One streamed event with one choice (a `text` or a `delta`, and its finish reason)."""
    return {"choices": [{"index": 0, "finish_reason": None, **choice}]}


@contextmanager
def scripted_server(script: Script) -> Iterator[ScriptedServer]:
    """A server on a free loopback port that answers each POST with `script`'s events, then
    "[DONE]"; a client that hangs up early ends the script."""
    served = ScriptedServer(0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            count = len(served.bodies)
            served.bodies.append(body)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            try:
                for event in script(self.path, body, count):
                    self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client hung up: what a guard or Stop is for

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    served.port = int(server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()
