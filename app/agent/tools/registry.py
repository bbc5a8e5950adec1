"""The tool registry: the tools of this session, each with its spec, handler and gate rule.

A tool comes in through `Registry.register(declaration, handler, preview)`: the model is
offered the declaration's spec and the gate decides from the declaration itself, its view of
the tool (`app.agent.tools.declarations`). Built-in tools and outside ones (MCP, issue #22) take
the same path. The risk label is fixed app code in the declaration, so nothing a tool
returns (and nothing the model says) can change it, and an outside tool can never take a
built-in tool's name and so its rule.
"""

from __future__ import annotations

import json
import threading
from collections import ChainMap
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from app.agent.gate import ToolRule
from app.agent.gate.labels import Labels
from app.agent.tools.contact_names import ContactLookup
from app.agent.tools.declarations import BUILTIN_TOOLS, ToolDeclaration
from app.agent.tools.undo_declarations import UNDO_TOOLS
from app.llm.tools import ToolSpec


@dataclass
class ToolResult:
    """What a tool gives back. Untrusted results (emails, pages, files) taint the context."""

    content: Any
    trusted: bool = True
    source: str | None = None  # e.g. "an email from x@y", "the web page https://..."
    # Labels the content carries beyond the tool's fixed rule (a recalled memory keeps those
    # of the conversation that wrote it); they join the conversation's (app.agent.gate.labels).
    labels: Labels | None = None
    # What is needed to reverse the change this call made (an event as it was, a file's
    # previous text), for Undo (`app.agent.tools.undo`); never shown to the model.
    kept: dict[str, Any] | None = None

    def for_model(self) -> str:
        if isinstance(self.content, str):
            return self.content
        return json.dumps(self.content, ensure_ascii=False, default=str)


class ToolFailed(Exception):
    """A tool could not do its job; the message is shown to the user and to the model.

    `untrusted_source` names where the message's text came from when it quotes others (the
    subjects of emails that match a wrong id): it taints the conversation as a result would.
    """

    def __init__(self, message: str, untrusted_source: str | None = None) -> None:
        super().__init__(message)
        self.untrusted_source = untrusted_source


Handler = Callable[[dict[str, Any]], ToolResult]

# The Stop of the turn a handler runs in (set by the agent around each turn): a handler that
# waits on someone else (an outside tool server) watches it, so Stop never waits on them.
turn_cancel: ContextVar[threading.Event | None] = ContextVar("turn_cancel", default=None)
Previewer = Callable[[dict[str, Any]], str]
# Reads only; raises ToolFailed when the arguments cannot work (a name where an id belongs),
# before anyone is asked to confirm them.
Precheck = Callable[[dict[str, Any]], None]


@dataclass
class Tool:
    spec: ToolSpec
    handler: Handler
    preview: Previewer | None = None  # renders what will happen, for the confirmation dialog
    # The gate's rule (the tool's declaration); a built-in name always gets its built-in rule.
    rule: ToolRule | None = None
    precheck: Precheck | None = None
    # False for the tools only the user's Undo calls (`undo_declarations`): never offered.
    offered: bool = True

    @property
    def name(self) -> str:
        return self.spec.name


class Registry:
    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        # Who recipients are in the user's address books, for the confirmation dialog
        # (`app.agent.tools.contact_names`); None without an address book.
        self.contact_lookup: ContactLookup | None = None
        # Recipients a call reaches that its arguments do not name (a reply goes to the
        # original's sender), by tool: only for showing whose they are, never for the gate.
        self.implied_recipients: dict[str, Callable[[dict[str, Any]], Sequence[str]]] = {}
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        self._tools[tool.name] = tool

    def register(
        self,
        declaration: ToolDeclaration,
        handler: Handler,
        preview: Previewer | None = None,
        precheck: Precheck | None = None,
        *,
        offered: bool = True,
    ) -> Tool:
        """Add a tool from its one declaration: the model sees its spec (unless it is one
        only Undo calls), the gate its rule."""
        builtin = BUILTIN_TOOLS.get(declaration.name) or UNDO_TOOLS.get(declaration.name)
        if builtin is not None and builtin is not declaration:
            raise ValueError(f"{declaration.name!r} is a built-in tool's name")
        tool = Tool(declaration.spec, handler, preview, declaration, precheck, offered)
        self.add(tool)
        return tool

    def rules(self) -> Mapping[str, ToolRule]:
        """The gate's rules for these tools: the built-in table first, so no registered
        tool can change a built-in's rule, then each registered tool's own."""
        own = {name: tool.rule for name, tool in self._tools.items() if tool.rule is not None}
        return ChainMap(dict(BUILTIN_TOOLS), own)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def specs(self) -> list[ToolSpec]:
        """What the model is offered: every tool but those only Undo calls."""
        return [tool.spec for tool in self._tools.values() if tool.offered]

    def names(self) -> list[str]:
        return [name for name, tool in self._tools.items() if tool.offered]

    def __len__(self) -> int:
        return sum(1 for tool in self._tools.values() if tool.offered)
