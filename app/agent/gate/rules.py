"""What the gate knows about a tool: its fixed label and facts, as a view the gate reads.

A tool's declaration (`app.agent.tools.declarations.ToolDeclaration`) is itself that view: the
gate reads the row the model's spec comes from, so the two cannot drift and nothing is copied.
`Rule` is the same view for a rule made by hand (the gate's own tests). The gate imports no
tool: whoever asks it for a decision hands it the rules that apply (the agent, its registry's).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, Protocol

from app.agent.gate.arguments import PATH_ARGUMENT_NAMES, RECIPIENT_ARGUMENT_NAMES

__all__ = ["ArgumentHook", "Label", "Rule", "StandingScope", "ToolRule", "effective_label"]


class Label(StrEnum):
    """What a tool does to the world, as the app (not the model) knows it."""

    READ = "read"
    WRITE = "write"
    OUTBOUND = "outbound"
    DESTRUCTIVE = "destructive"


# Which kind of "always allow" may cover a tool: none, the whole tool, one web host, or one
# recipient (the gate's standing rules fence each one in).
StandingScope = Literal["never", "tool", "host", "recipient"]

# Looks at the arguments and may name a higher label ("an event with attendees sends mail").
ArgumentHook = Callable[[Mapping[str, Any]], Label | None]

_LABEL_RANK = {Label.READ: 0, Label.WRITE: 1, Label.OUTBOUND: 2, Label.DESTRUCTIVE: 3}


def effective_label(label: Label, hook: ArgumentHook | None, arguments: Mapping[str, Any]) -> Label:
    """The base label, raised (never lowered) by the hook if the arguments call for it."""
    raised = hook(arguments) if hook else None
    if raised is not None and _LABEL_RANK[raised] > _LABEL_RANK[label]:
        return raised
    return label


class ToolRule(Protocol):
    """The app's fixed facts about one tool. The model cannot change any of them.

    `parameters` are the declared argument names (None: do not check); an undeclared one
    forces CONFIRM. `standing` says which kind of "always allow" may cover the tool.
    `private_result` names the private store (a key of `labels.PRIVATE_KINDS`) its result
    reveals: reading it labels the conversation private. `written_path` names the argument
    holding a file the tool creates (no programs, no look-alike names). `asks_because` words
    the reason of an always-asking tool. `address_arguments` hold e-mail addresses
    (recipients, a contact's emails): one the user did not type asks. `changes_existing`: it
    changes a record the user already has, so it always asks. `granted_as`: what its standing
    grants are stored under (its name, or for an outside tool its server's identity and the
    tool's own name).
    """

    @property
    def name(self) -> str: ...
    @property
    def label(self) -> Label: ...
    @property
    def untrusted_result(self) -> bool: ...
    @property
    def parameters(self) -> frozenset[str] | None: ...
    @property
    def required(self) -> Collection[str]: ...
    @property
    def path_arguments(self) -> frozenset[str]: ...
    @property
    def standing(self) -> StandingScope: ...
    @property
    def private_result(self) -> str | None: ...
    @property
    def written_path(self) -> str | None: ...
    @property
    def asks_because(self) -> str | None: ...
    @property
    def address_arguments(self) -> frozenset[str]: ...
    @property
    def changes_existing(self) -> bool: ...
    @property
    def granted_as(self) -> str: ...

    def effective_label(self, arguments: Mapping[str, Any]) -> Label: ...


@dataclass(frozen=True)
class Rule:
    """A `ToolRule` made by hand, for a tool with no declaration (the gate's tests)."""

    name: str
    label: Label
    untrusted_result: bool = False
    raise_label: ArgumentHook | None = None
    parameters: frozenset[str] | None = None
    required: frozenset[str] = frozenset()
    path_arguments: frozenset[str] = PATH_ARGUMENT_NAMES
    standing: StandingScope = "never"
    private_result: str | None = None
    written_path: str | None = None
    asks_because: str | None = None
    address_arguments: frozenset[str] = RECIPIENT_ARGUMENT_NAMES
    changes_existing: bool = False
    grant_key: str = ""

    @property
    def granted_as(self) -> str:
        """The tool name a standing permission for this tool carries."""
        return self.grant_key or self.name

    def effective_label(self, arguments: Mapping[str, Any]) -> Label:
        return effective_label(self.label, self.raise_label, arguments)
