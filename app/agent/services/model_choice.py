"""Which model answers, and how: the Settings → Model… choice, read and saved in one place so
the panel, the worker and the start-up agree.

The choice lives in SettingsStore (plain values); the server's API key lives only in the OS
keyring (connectors.credentials), never in the database or a log.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.llm.runtime import DEFAULT_CONTEXT, RuntimeSettings, default_threads
from app.store import settings as keys
from app.store.settings import SettingsStore

log = logging.getLogger(__name__)

API_KEY_NAME = "model-server:api-key"  # the keyring entry for the model server's key
DEFAULT_TEMPERATURE = 0.7
CONTEXT_CHOICES = (2048, 4096, 8192, 16384, 32768)

Backend = Literal["local", "remote"]


@dataclass
class ModelChoice:
    """The model settings as the user chose them (defaults: the local model, as shipped)."""

    backend: Backend = "local"
    path: str = ""  # the GGUF file; "" : the built-in model
    n_ctx: int = DEFAULT_CONTEXT
    threads: int = 0  # 0: automatic
    thinking: bool = False
    temperature: float = DEFAULT_TEMPERATURE
    base_url: str = ""
    remote_model: str = ""
    api_key: str | None = field(default=None, repr=False)  # from the keyring, never stored
    # "Tell Hearth about yourself / how to answer": the end of the system prompt.
    instructions: str = ""

    @classmethod
    def load(cls, store: SettingsStore) -> ModelChoice:
        values = store.all()
        backend = values.get(keys.MODEL_BACKEND)
        return cls(
            backend="remote" if backend == "remote" else "local",
            path=str(values.get(keys.MODEL_PATH) or ""),
            n_ctx=_int(values.get(keys.MODEL_N_CTX), DEFAULT_CONTEXT, 512),
            threads=_int(values.get(keys.MODEL_THREADS), 0, 0),
            thinking=bool(values.get(keys.MODEL_THINKING, False)),
            temperature=_float(values.get(keys.MODEL_TEMPERATURE), DEFAULT_TEMPERATURE),
            base_url=str(values.get(keys.REMOTE_BASE_URL) or ""),
            remote_model=str(values.get(keys.REMOTE_MODEL) or ""),
            instructions=str(values.get(keys.ASSISTANT_INSTRUCTIONS) or ""),
        )

    def save(self, store: SettingsStore) -> None:
        """All model settings in one transaction (the API key goes to the keyring instead)."""
        store.update(
            {
                keys.MODEL_BACKEND: self.backend,
                keys.MODEL_PATH: self.path,
                keys.MODEL_N_CTX: self.n_ctx,
                keys.MODEL_THREADS: self.threads,
                keys.MODEL_THINKING: self.thinking,
                keys.MODEL_TEMPERATURE: self.temperature,
                keys.REMOTE_BASE_URL: self.base_url,
                keys.REMOTE_MODEL: self.remote_model,
                keys.ASSISTANT_INSTRUCTIONS: self.instructions,
            }
        )

    @property
    def system_prompt(self) -> str:
        """The system prompt with these custom instructions."""
        from app.agent.turn.chat import system_prompt_for

        return system_prompt_for(self.instructions)

    def runtime_settings(self) -> RuntimeSettings:
        return RuntimeSettings(
            n_ctx=self.n_ctx, n_threads=self.threads if self.threads > 0 else default_threads()
        )

    def saved_file(self) -> Path | None:
        """The saved local model file if it is still there. A file that has gone (deleted, on
        an unplugged disk) is ignored with a log line: the app starts on the built-in model
        instead of showing an error."""
        if not self.path:
            return None
        path = Path(self.path).expanduser()
        if not path.is_file():
            log.warning("the saved model %s is missing: using the built-in model", path)
            return None
        return path

    def model_path(self, fallback: Path) -> Path:
        return Path(self.path).expanduser() if self.path else fallback

    def needs_reload(self, other: ModelChoice) -> bool:
        """True when `other` asks for a different model or runtime; thinking and temperature
        apply from the next turn without a reload."""

        def shape(c: ModelChoice) -> tuple[Any, ...]:
            if c.backend == "remote":
                return ("remote", c.base_url, c.remote_model, c.api_key)
            return ("local", c.path, c.n_ctx, c.threads)

        return shape(self) != shape(other)


def read_api_key() -> str | None:
    """The model server's key from the keyring; None when there is none or no safe keyring."""
    from connectors.credentials import CredentialError, Credentials, NoSecureKeyring

    try:
        return Credentials().read(API_KEY_NAME)
    except (NoSecureKeyring, CredentialError) as exc:
        log.info("no API key for the model server: %s", type(exc).__name__)
        return None


def store_api_key(key: str) -> str:
    """Save (or, when empty, delete) the key; why that failed, for the user ("" when it
    worked): the caller never needs the keyring's exceptions. Nothing is written anywhere
    else."""
    from connectors.credentials import CredentialError, Credentials, NoSecureKeyring

    try:
        credentials = Credentials()
        if key:
            credentials.store(API_KEY_NAME, key)
        else:
            credentials.delete(API_KEY_NAME)
    except (NoSecureKeyring, CredentialError) as exc:  # messages meant for the user
        return str(exc)
    return ""


def _int(value: Any, default: int, minimum: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return number if number >= minimum else default


def _float(value: Any, default: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return min(2.0, max(0.0, number))


def saved_start(data_dir: Path) -> tuple[ModelChoice, bool]:
    """At start, in one read: the saved model choice, and whether the first run is done."""
    from app.store.database import Database

    database = Database.open(data_dir)
    try:
        store = SettingsStore(database)
        return ModelChoice.load(store), bool(store.get(keys.FIRST_RUN_DONE))
    finally:
        database.close()
