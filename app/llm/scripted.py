"""The scripted backend: replays raw model outputs from a JSON file.

`{"format": "qwen3.5", "turns": ["<raw model output>", ...]}`: each model call consumes the
next turn, and the text goes through the same wire-format parser as a real model's output, so
a fooled model (one that obeys every injection) can be simulated exactly, and a user's bug
report can be replayed.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.llm.backend import StepRequest, StepResult, StreamEvent
from app.llm.formats import FORMATS, CallSpans, WireFormat

# Names a script may use for its format, mapped to our wire formats.
FORMAT_ALIASES = {
    "qwen3.5": "qwen35_xml",
    "qwen35": "qwen35_xml",
    "qwen35_xml": "qwen35_xml",
    "hermes": "hermes_json",
    "qwen3": "hermes_json",
    "hermes_json": "hermes_json",
    "json": "json_fallback",
    "json_fallback": "json_fallback",
}


class ScriptError(ValueError):
    """The script file is not usable; the message says what is wrong with it."""


class ScriptedBackend:
    # Scripts replay the free loop's steps unless they say `"intents": true` (then the first
    # model call of a turn is the intent's choice).
    intents = False

    def __init__(self, turns: list[str], wire_format: WireFormat, name: str = "script") -> None:
        self.turns = list(turns)
        self.format = wire_format
        self.name = name
        self.requests: list[StepRequest] = []  # what the agent asked, for tests to inspect

    @classmethod
    def from_file(cls, path: Path | str) -> ScriptedBackend:
        path = Path(path)
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ScriptError(f"cannot read the script {path}: {exc.strerror}") from exc
        except json.JSONDecodeError as exc:
            raise ScriptError(f"the script {path} is not valid JSON: {exc}") from exc
        return cls.from_data(data, name=path.name)

    @classmethod
    def from_data(cls, data: Any, name: str = "script") -> ScriptedBackend:
        if not isinstance(data, dict) or not isinstance(data.get("turns"), list):
            raise ScriptError('a script is {"format": "qwen3.5", "turns": ["...", ...]}')
        if not all(isinstance(turn, str) for turn in data["turns"]):
            raise ScriptError("every turn of a script must be a string of raw model output")
        requested = str(data.get("format", "qwen3.5")).lower()
        if requested not in FORMAT_ALIASES:
            raise ScriptError(
                f"unknown format {requested!r}; use one of {', '.join(sorted(FORMAT_ALIASES))}"
            )
        backend = cls(data["turns"], FORMATS[FORMAT_ALIASES[requested]], name)
        backend.intents = bool(data.get("intents", False))
        return backend

    def step(
        self,
        request: StepRequest,
        on_event: Callable[[StreamEvent], None],
        cancel: threading.Event,
    ) -> StepResult:
        self.requests.append(request)
        result = StepResult()
        if not self.turns:
            result.text = "(the script has no more model turns)"
            result.stats.stop_reason = "end"
            on_event(StreamEvent("text", result.text))
            return result
        raw = self.turns.pop(0)
        result.raw = raw
        tools = request.tools if request.tool_choice != "none" else []
        parser = self.format.new_parser({tool.name: tool for tool in tools})
        # Calls found as a model's would be (and refused when none may be called).
        spans = CallSpans([tool.name for tool in request.tools])
        started = time.perf_counter()
        for index in range(0, len(raw), 8):  # stream in small pieces, as a model would
            if cancel.is_set():
                result.stats.stop_reason = "cancelled"
                break
            step = spans.feed_uncut(raw[index : index + 8])
            result.collect(parser.feed(step.text), on_event)
            if step.stop:
                break
        result.collect(parser.feed(spans.finish()) + parser.finish(), on_event)
        result.stats.generated_tokens = len(raw) // 4
        result.stats.generate_seconds = time.perf_counter() - started
        result.stats.stop_reason = result.stats.stop_reason or "end"
        return result
