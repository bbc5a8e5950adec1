"""App settings as JSON values under dotted keys ("model.path", "model.n_ctx", ...).

One table for every panel, so a new option needs no migration. Secrets never go here: API
keys and passwords live in the OS keyring (connectors.credentials).
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from app.store.database import Database
from app.store.models import SettingRecord

# The keys in use, in one place so panels and the worker agree on their spelling.
MODEL_PATH = "model.path"  # str: the chosen GGUF file
MODEL_N_CTX = "model.n_ctx"  # int
MODEL_THREADS = "model.threads"  # int (0: automatic)
MODEL_THINKING = "model.thinking"  # bool
MODEL_TEMPERATURE = "model.temperature"  # float
MODEL_BACKEND = "model.backend"  # "local" | "remote"
REMOTE_BASE_URL = "remote.base_url"  # str, e.g. http://192.168.1.5:8080/v1
REMOTE_MODEL = "remote.model"  # str: the model name the server knows
FIRST_RUN_DONE = "first_run.done"  # bool
# str: what the user wrote about themselves and how to answer (Settings → Model settings…),
# appended to the system prompt
ASSISTANT_INSTRUCTIONS = "assistant.instructions"
WINDOW_GEOMETRY = "window.geometry"  # str: the main window's place and size, as Qt saves it


class SettingsStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    def get(self, key: str, default: Any = None) -> Any:
        with self.database.session() as session:
            record = session.get(SettingRecord, key)
            return default if record is None else json.loads(record.value_json)

    def set(self, key: str, value: Any) -> None:
        encoded = json.dumps(value, ensure_ascii=False)
        with self.database.session() as session, session.begin():
            record = session.get(SettingRecord, key)
            if record is None:
                session.add(SettingRecord(key=key, value_json=encoded))
            else:
                record.value_json = encoded

    def update(self, values: dict[str, Any]) -> None:
        """Several settings in one transaction: a panel's Save is all or nothing."""
        with self.database.session() as session, session.begin():
            for key, value in values.items():
                encoded = json.dumps(value, ensure_ascii=False)
                record = session.get(SettingRecord, key)
                if record is None:
                    session.add(SettingRecord(key=key, value_json=encoded))
                else:
                    record.value_json = encoded

    def delete(self, key: str) -> None:
        with self.database.session() as session, session.begin():
            record = session.get(SettingRecord, key)
            if record is not None:
                session.delete(record)

    def all(self) -> dict[str, Any]:
        with self.database.session() as session:
            return {r.key: json.loads(r.value_json) for r in session.scalars(select(SettingRecord))}
