"""The audit log: every tool call, the gate's decision, the user's answer and the outcome.

Secrets are redacted before an entry is written anywhere, whatever the decision was: a refused
card number is as secret as an allowed one. Arguments are walked to any depth; every value in
which the detectors find a password, one-time code, key, seed phrase, card, IBAN or id number
is replaced, as is every argument the gate found to carry private data; reasons and result
previews that quote such a value are masked too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

_SECRET_KEYS = re.compile(r"pass(word)?|secret|token|otp|code|pin|api[_-]?key", re.IGNORECASE)
REDACTED = "[redacted]"
REDACTED_PREVIEW = "[hidden: the result held a password, one-time code, card, IBAN or id number]"
REDACTED_REASON = "[hidden: this reason quoted a password, code, key, card, IBAN or id number]"
_SENSITIVE_KINDS = frozenset({"secret", "payment_card", "iban", "government_id", "private_data"})
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_MAX_DEPTH = 64


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
    # Top-level argument names the gate found sensitive beyond what the detectors see here
    # (an argument carrying a token of private data read in the conversation).
    sensitive: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # The preview is a copy of what a tool returned (an email with a login code, say); the
        # conversation keeps the result itself, the activity list needs no second copy.
        if self.result_preview and _sensitive(self.result_preview):
            self.result_preview = REDACTED_PREVIEW
        self.reasons = [redact_text(reason, REDACTED_REASON) for reason in self.reasons]

    def redacted_arguments(self) -> dict[str, Any]:
        """The arguments with secrets hidden, at any depth: by argument name, wherever the
        detectors find a secret or number, and where one only shows once values are joined
        (a card split over two fields: every text value is hidden then)."""
        from app.agent.gate.detectors import JOINED_PATH, scan

        joined = any(
            f.path.startswith(JOINED_PATH) and f.kind in _SENSITIVE_KINDS
            for f in scan(self.arguments)
        )
        return {
            key: REDACTED if key in self.sensitive else _redact(str(key), value, joined)
            for key, value in self.arguments.items()
        }


def _real(findings: list[Any]) -> bool:
    """Sensitive findings, not counting a mere mention ("password") or a value that is
    already redacted."""
    return any(
        f.kind in _SENSITIVE_KINDS and not f.excerpt.endswith("(mentioned)") for f in findings
    )


def _sensitive(text: str) -> bool:
    from app.agent.gate.detectors import scan

    return any(finding.kind in _SENSITIVE_KINDS for finding in scan({"result": text}))


def redact_text(text: str, hidden: str) -> str:
    """`text` with quoted values masked if they hold a secret; `hidden` if it still does."""
    from app.agent.gate.detectors import scan

    def secret(value: str) -> bool:
        return _real(scan({"text": value.replace(REDACTED, "")}))

    if not secret(text):
        return text
    masked = _QUOTED.sub(lambda m: f"'{REDACTED}'" if secret(m.group()) else m.group(), text)
    return hidden if secret(masked) else masked


def _redact(key: str, value: Any, joined: bool, depth: int = 0) -> Any:
    from app.agent.gate.detectors import scan

    if _SECRET_KEYS.search(key) or depth > _MAX_DEPTH:
        return REDACTED
    if isinstance(value, dict):
        return {k: _redact(str(k), v, joined, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact(key, item, joined, depth + 1) for item in value]
    if isinstance(value, str):
        return REDACTED if joined or _real(scan({"value": value})) else value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return REDACTED if _real(scan({"value": value})) else value
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
