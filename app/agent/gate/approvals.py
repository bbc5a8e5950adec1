"""An approval is bound to the exact arguments the user saw.

When the user presses Allow, `ApprovalBook.issue` gives a single-use, expiring token over a
hash of the canonical arguments; the executor redeems it with the arguments it is about to
run, and any difference refuses. This is what makes "what runs is exactly what was shown"
true even if something between the dialog and the connector changed the call.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.agent.gate.arguments import quoted

__all__ = ["ApprovalBook", "argument_hash", "canonical_arguments"]


def _canonical(value: Any) -> Any:
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError("argument names must be text")
            name = unicodedata.normalize("NFC", key)
            if name in out:
                raise ValueError(f"two arguments are both named {quoted(name)}")
            out[name] = _canonical(item)
        return out
    if isinstance(value, (list, tuple)):
        return [_canonical(item) for item in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    raise TypeError(f"unsupported argument type {type(value).__name__}")


def canonical_arguments(arguments: Mapping[str, Any]) -> str:
    """Stable JSON for hashing and display: sorted keys, no spaces, NFC strings, no NaN.

    Raises TypeError or ValueError for anything that is not plain JSON.
    """
    return json.dumps(
        _canonical(dict(arguments)),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )


def argument_hash(tool: str, arguments: Mapping[str, Any]) -> str:
    """sha256 over the tool name and the canonical arguments: what the user saw, exactly."""
    if not isinstance(tool, str) or "\x00" in tool:
        raise ValueError("a tool name must be text without NUL")
    payload = unicodedata.normalize("NFC", tool) + "\x00" + canonical_arguments(arguments)
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class _Approval:
    digest: str
    expires_at: float


class ApprovalBook:
    """Single-use, expiring approval tokens bound to the hash of the approved arguments.

    Issue when the user presses Allow (for the arguments the dialog showed); the executor
    redeems with the arguments it is about to run. A token is spent by any redeem attempt,
    right or wrong, so a mismatch cannot be retried. `clock` is injectable for tests.
    """

    def __init__(
        self, ttl_seconds: float = 120.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl = ttl_seconds
        self._clock = clock
        self._pending: dict[str, _Approval] = {}
        self._lock = threading.Lock()

    def issue(self, tool: str, arguments: Mapping[str, Any]) -> str:
        digest = argument_hash(tool, arguments)
        token = secrets.token_urlsafe(32)
        with self._lock:
            now = self._clock()
            self._pending = {t: a for t, a in self._pending.items() if a.expires_at > now}
            self._pending[token] = _Approval(digest, now + self._ttl)
        return token

    def redeem(self, token: str, tool: str, arguments: Mapping[str, Any]) -> bool:
        with self._lock:
            approval = self._pending.pop(token, None) if isinstance(token, str) else None
            now = self._clock()
        if approval is None or now >= approval.expires_at:
            return False
        try:
            digest = argument_hash(tool, arguments)
        except (TypeError, ValueError):
            return False
        return hmac.compare_digest(digest, approval.digest)

    def revoke(self, token: str) -> None:
        with self._lock:
            self._pending.pop(token, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._pending)
