"""Where the agent finds the user's standing "always allow" permissions and records new ones."""

from __future__ import annotations

from typing import Protocol

from app.agent.gate.policy import StandingPermission
from app.store.permissions import PermissionStore


class Permissions(Protocol):
    def active(self) -> list[StandingPermission]: ...

    def grant(self, permission: StandingPermission) -> None: ...


class MemoryPermissions:
    """For this process only (tests, and `ask` without a data folder)."""

    def __init__(self) -> None:
        self.granted: list[StandingPermission] = []

    def active(self) -> list[StandingPermission]:
        return list(self.granted)

    def grant(self, permission: StandingPermission) -> None:
        if permission not in self.granted:
            self.granted.append(permission)


class StoredPermissions:
    """Kept in the app's database, where the user can see and revoke them."""

    def __init__(self, store: PermissionStore) -> None:
        self.store = store

    def active(self) -> list[StandingPermission]:
        return [StandingPermission(g.tool, g.scope) for g in self.store.grants()]

    def grant(self, permission: StandingPermission) -> None:
        self.store.grant(permission.tool, permission.scope)
