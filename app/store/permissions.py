"""The user's standing "always allow" grants, kept in the database so they can be seen and
revoked. What a grant may cover is the policy's business (app.agent.gate.policy), not the
store's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select

from app.store.database import Database
from app.store.models import StandingPermissionRecord


@dataclass(frozen=True)
class Grant:
    id: int
    tool: str
    scope: str | None
    created: datetime

    def describe(self) -> str:
        # An outside tool's grant is keyed "name#digest of its server and tool": the name.
        tool = self.tool.split("#", 1)[0]
        return f"{tool} on {self.scope}" if self.scope else f"{tool} (any)"


class PermissionStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    def grants(self) -> list[Grant]:
        with self.database.session() as session:
            rows = session.scalars(
                select(StandingPermissionRecord).order_by(StandingPermissionRecord.id)
            )
            return [Grant(r.id, r.tool, r.scope, r.created) for r in rows]

    def grant(self, tool: str, scope: str | None) -> None:
        if any(g.tool == tool and g.scope == scope for g in self.grants()):
            return
        with self.database.session() as session, session.begin():
            session.add(StandingPermissionRecord(created=datetime.now(UTC), tool=tool, scope=scope))

    def revoke(self, grant_id: int) -> None:
        with self.database.session() as session, session.begin():
            record = session.get(StandingPermissionRecord, grant_id)
            if record is not None:
                session.delete(record)
