"""Where the agent finds the user's standing "always allow" permissions and records new ones,
and what a grant must never cover: the digits of private numbers read in earlier
conversations (hashed pieces, `detectors.private_digit_marks`), so that a number cannot leave
in pieces, one conversation at a time, under a standing grant."""

from __future__ import annotations

from typing import Protocol

from app.agent.gate.policy import StandingPermission
from app.store.permissions import PermissionStore
from app.store.privacy import PRIVATE_MARKS_KEY  # deleted with the history it came from
from app.store.settings import SettingsStore

MAX_PRIVATE_MARKS = 20_000  # the newest are kept: a few hundred private numbers


class Permissions(Protocol):
    def active(self) -> list[StandingPermission]: ...

    def grant(self, permission: StandingPermission) -> None: ...

    def private_marks(self) -> set[str]: ...

    def keep_private_marks(self, marks: set[str]) -> None: ...


class MemoryPermissions:
    """For this process only (tests, and `ask` without a data folder)."""

    def __init__(self) -> None:
        self.granted: list[StandingPermission] = []
        self.marks: set[str] = set()

    def active(self) -> list[StandingPermission]:
        return list(self.granted)

    def grant(self, permission: StandingPermission) -> None:
        if permission not in self.granted:
            self.granted.append(permission)

    def private_marks(self) -> set[str]:
        return set(self.marks)

    def keep_private_marks(self, marks: set[str]) -> None:
        self.marks |= marks


class StoredPermissions:
    """Kept in the app's database, where the user can see and revoke them."""

    def __init__(self, store: PermissionStore) -> None:
        self.store = store

    def active(self) -> list[StandingPermission]:
        return [StandingPermission(g.tool, g.scope) for g in self.store.grants()]

    def grant(self, permission: StandingPermission) -> None:
        self.store.grant(permission.tool, permission.scope)

    def private_marks(self) -> set[str]:
        stored = SettingsStore(self.store.database).get(PRIVATE_MARKS_KEY, [])
        return {str(mark) for mark in stored} if isinstance(stored, list) else set()

    def keep_private_marks(self, marks: set[str]) -> None:
        """Add `marks` to the stored ones (oldest dropped past the bound); hashes only."""
        settings = SettingsStore(self.store.database)
        stored = settings.get(PRIVATE_MARKS_KEY, [])
        kept = [str(m) for m in stored] if isinstance(stored, list) else []
        new = sorted(marks - set(kept))
        if new:
            settings.set(PRIVATE_MARKS_KEY, (kept + new)[-MAX_PRIVATE_MARKS:])
