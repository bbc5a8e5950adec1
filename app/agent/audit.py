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

    def __post_init__(self) -> None:
        # The preview is a copy of what a tool returned (an email with a login code, say); the
        # conversation keeps the result itself, the activity list needs no second copy.
        if self.result_preview and _sensitive(self.result_preview):
            self.result_preview = REDACTED_PREVIEW

    def redacted_arguments(self) -> dict[str, Any]:
        """The arguments with secrets hidden: by argument name, and wherever the detectors
        find a password, one-time code, card number, IBAN or government id."""
        from app.agent.detectors import scan

        flagged = {
            finding.path.split("[")[0].split(".")[0].split(" ")[0]
            for finding in scan(self.arguments)
            if finding.kind in _SENSITIVE_KINDS
        }
        joined = any(name.startswith("<") for name in flagged)
        return {
            key: "[redacted]"
            if key in flagged or (joined and isinstance(value, str))
            else _redact(key, value)
            for key, value in self.arguments.items()
        }


REDACTED_PREVIEW = "[hidden: the result held a password, one-time code, card, IBAN or id number]"
_SENSITIVE_KINDS = frozenset({"secret", "payment_card", "iban", "government_id"})


def _sensitive(text: str) -> bool:
    from app.agent.detectors import scan

    return any(finding.kind in _SENSITIVE_KINDS for finding in scan({"result": text}))


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
