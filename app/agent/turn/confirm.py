"""The question the agent asks the user before a consequential call, and the answer.

The request carries exactly what will run (the arguments, and a preview rendered by code from
them), never the model's description of it. Its `token` binds the approval to those arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Answer(StrEnum):
    APPROVED = "approved"
    EDITED = "edited"
    DENIED = "denied"


@dataclass(frozen=True)
class ConfirmationRequest:
    tool: str
    arguments: dict[str, Any]
    label: str  # the tool's fixed risk label: read / write / outbound / destructive
    reasons: tuple[str, ...]  # why the gate asks, in plain words
    preview: str  # what will happen, rendered by code from the arguments
    provenance: str | None = None  # e.g. "proposed after reading an email from x@y"
    untyped_values: tuple[str, ...] = ()  # recipients / URLs the user never typed
    # (recipient, name) for each recipient the agent found in the user's address books, and
    # whether it could read them (False: the books are down or absent, so say nothing about
    # who is not in them). Information for the user; it never clears `untyped_values`
    # (`app.agent.tools.contact_names` says why).
    contacts: tuple[tuple[str, str], ...] = ()
    contacts_checked: bool = False
    token: str = ""
    editable: tuple[str, ...] = field(default=())  # argument names the dialog may edit
    standing_offer: str | None = None  # e.g. "Always allow read_webpage on example.org"
    title: str = ""  # a plain title set by the asker (a batch); else from `app.agent.tools.wording`
    # What edited arguments would do, as `preview` says it for these (the gate's refusal
    # when it would refuse them): the dialog shows it before "Allow edited". It may read
    # the disk, so the dialog calls it off the GUI thread.
    preview_for: Callable[[dict[str, Any]], str] | None = None


@dataclass(frozen=True)
class ConfirmationAnswer:
    answer: Answer
    arguments: dict[str, Any] | None = None  # the edited arguments, for Answer.EDITED
    always: bool = False  # the user also granted the request's standing_offer

    @classmethod
    def approve(cls) -> ConfirmationAnswer:
        return cls(Answer.APPROVED)

    @classmethod
    def deny(cls) -> ConfirmationAnswer:
        return cls(Answer.DENIED)


Confirmer = Callable[[ConfirmationRequest], ConfirmationAnswer]


def deny_everything(request: ConfirmationRequest) -> ConfirmationAnswer:
    """The `ask --confirm deny` policy: refuse every confirmation (it is still recorded)."""
    return ConfirmationAnswer.deny()
