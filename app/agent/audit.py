"""The audit log: every tool call, the gate's decision, the user's answer and the outcome.

Secrets are redacted before an entry is written anywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

_SECRET_KEYS = re.compile(r"pass(word)?|secret|token|otp|code|pin|api[_-]?key", re.IGNORECASE)


@dataclass
class AuditEntry:
    tool: str
    arguments: dict[str, Any]
    decision: str
    answer: str | None
    status: str
    reasons: list[str] = field(default_factory=list)
    result_preview: str = ""
    at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def redacted_arguments(self) -> dict[str, Any]:
        """The arguments with secrets hidden: by argument name, and wherever the detectors
        find a password, one-time code, card number, IBAN or government id."""
        from app.agent.detectors import scan

        sensitive = {"secret", "payment_card", "iban", "government_id"}
        flagged = {
            finding.path.split("[")[0].split(".")[0].split(" ")[0]
            for finding in scan(self.arguments)
            if finding.kind in sensitive
        }
        joined = any(name.startswith("<") for name in flagged)
        return {
            key: "[redacted]"
            if key in flagged or (joined and isinstance(value, str))
            else _redact(key, value)
            for key, value in self.arguments.items()
        }


def _redact(key: str, value: Any) -> Any:
    if _SECRET_KEYS.search(key):
        return "[redacted]"
    if isinstance(value, dict):
        return {k: _redact(k, v) for k, v in value.items()}
    return value


class AuditLog(Protocol):
    def write(self, entry: AuditEntry) -> None: ...


class NullAuditLog:
    def write(self, entry: AuditEntry) -> None:
        pass


class MemoryAuditLog:
    """Keeps entries in memory (tests, and the `ask` command without a data folder)."""

    def __init__(self) -> None:
        self.entries: list[AuditEntry] = []

    def write(self, entry: AuditEntry) -> None:
        self.entries.append(entry)
