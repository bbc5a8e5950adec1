"""The tool registry: each tool's public name, description, schema and handler.

The risk label of a tool is not here: it belongs to the policy's fixed rules, so nothing a
tool returns (and nothing the model says) can change it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from app.agent.labels import Labels
from app.llm.tools import ToolSpec


@dataclass
class ToolResult:
    """What a tool gives back. Untrusted results (emails, pages, files) taint the context."""

    content: Any
    trusted: bool = True
    source: str | None = None  # e.g. "an email from x@y", "the web page https://..."
    # Labels the content carries beyond the tool's fixed rule (a recalled memory keeps those
    # of the conversation that wrote it); they join the conversation's (app.agent.labels).
    labels: Labels | None = None

    def for_model(self) -> str:
        if isinstance(self.content, str):
            return self.content
        return json.dumps(self.content, ensure_ascii=False, default=str)


class ToolFailed(Exception):
    """A tool could not do its job; the message is shown to the user and to the model."""


Handler = Callable[[dict[str, Any]], ToolResult]
Previewer = Callable[[dict[str, Any]], str]


@dataclass
class Tool:
    spec: ToolSpec
    handler: Handler
    preview: Previewer | None = None  # renders what will happen, for the confirmation dialog

    @property
    def name(self) -> str:
        return self.spec.name


class Registry:
    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def specs(self) -> list[ToolSpec]:
        return [tool.spec for tool in self._tools.values()]

    def names(self) -> list[str]:
        return list(self._tools)

    def __len__(self) -> int:
        return len(self._tools)
