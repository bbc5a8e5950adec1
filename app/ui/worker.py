"""The model worker: lives in its own QThread so the GUI thread never calls llama.cpp.

The GUI talks to it only through queued signals, and cancels through a threading.Event
(a queued signal would wait behind the very generation it wants to stop).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.agent.chat import Conversation, run_turn
from app.llm.chat_template import TemplateRenderError
from app.llm.gguf_file import ModelFileError
from app.llm.runtime import GenerationError, LocalModel, RuntimeSettings, SamplingSettings

log = logging.getLogger(__name__)

FRAME_SECONDS = 1 / 60


class TextBatcher:
    """Collects streamed text and hands it on at most once per frame, so that a fast model
    cannot flood the GUI event loop with one signal per token."""

    def __init__(self, emit: Callable[[str], None], interval: float = FRAME_SECONDS) -> None:
        self._emit = emit
        self._interval = interval
        self._pending: list[str] = []
        self._last = 0.0

    def add(self, text: str) -> None:
        self._pending.append(text)
        now = time.monotonic()
        if now - self._last >= self._interval:
            self.flush(now)

    def flush(self, now: float | None = None) -> None:
        if self._pending:
            self._emit("".join(self._pending))
            self._pending.clear()
        self._last = time.monotonic() if now is None else now


class ModelWorker(QObject):
    """Loads a model and runs turns; every public slot runs in the worker thread."""

    loaded = Signal(str)  # the model's name
    load_failed = Signal(str)  # a message for the user
    text = Signal(str)  # a batch of reply text
    turn_finished = Signal(object)  # TurnResult
    turn_failed = Signal(str)  # a message for the user

    def __init__(self, settings: RuntimeSettings | None = None) -> None:
        super().__init__()
        self.settings = settings or RuntimeSettings()
        self.sampling = SamplingSettings()
        self.cancel = threading.Event()
        self.model: LocalModel | None = None

    def unload(self) -> None:
        """Free the model now rather than at interpreter exit (llama.cpp dislikes the latter)."""
        if self.model is not None:
            self.model.close()
            self.model = None

    @Slot(str)
    def load(self, path: str) -> None:
        self.unload()
        try:
            model = LocalModel(Path(path), self.settings)
            model.load()
        except ModelFileError as exc:
            log.warning("model not loaded: %s", exc)
            self.load_failed.emit(exc.user_message())
            return
        except Exception as exc:
            log.exception("unexpected error while loading %s", path)
            self.load_failed.emit(f"The model {path} could not be loaded: {exc}")
            return
        self.model = model
        self.loaded.emit(model.name)

    @Slot(object, str)
    def run_turn(self, conversation: Conversation, user_text: str) -> None:
        self.cancel.clear()
        if self.model is None:
            self.turn_failed.emit("No model is loaded. Choose a model file in File → Open model…")
            return
        batcher = TextBatcher(self.text.emit)
        try:
            result = run_turn(
                conversation, user_text, self.model, batcher.add, self.cancel, self.sampling
            )
        except (GenerationError, TemplateRenderError) as exc:
            batcher.flush()
            self.turn_failed.emit(str(exc))
            return
        except Exception as exc:
            batcher.flush()
            log.exception("unexpected error during a turn")
            self.turn_failed.emit(
                f"Something went wrong while answering ({type(exc).__name__}: {exc}). "
                "The conversation is kept; you can send your message again."
            )
            return
        batcher.flush()
        self.turn_finished.emit(result)
