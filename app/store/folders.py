"""The folders the user lets the assistant read and write, chosen in Settings → Folders."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select

from app.store.database import Database
from app.store.models import AllowedFolderRecord


class FolderStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    def saved(self) -> list[Path]:
        with self.database.session() as session:
            rows = session.scalars(select(AllowedFolderRecord).order_by(AllowedFolderRecord.id))
            return [Path(r.path) for r in rows]

    def add(self, folder: Path) -> Path:
        """Store the folder's absolute, resolved path (symlinks followed) once."""
        resolved = Path(folder).expanduser().resolve()
        if resolved in self.saved():
            return resolved
        with self.database.session() as session, session.begin():
            session.add(AllowedFolderRecord(path=str(resolved), created=datetime.now(UTC)))
        return resolved

    def remove(self, folder: Path) -> None:
        resolved = str(Path(folder).expanduser().resolve())
        with self.database.session() as session, session.begin():
            for record in session.scalars(
                select(AllowedFolderRecord).where(AllowedFolderRecord.path == resolved)
            ):
                session.delete(record)
