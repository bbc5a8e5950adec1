"""One user turn: the model answers, calls tools (one, several in parallel, or over several
steps), the gate decides each call, the user confirms what the gate asks about, the results go
back to the model, until it answers in text.

The model is never the security boundary: every call passes `policy.decide`, which only code
controls, and an approval is redeemed against the exact arguments that run.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from app.agent.gate import (
    ApprovalBook,
    ContextState,
    Decision,
    Label,
    MemoryPermissions,
    Permissions,
    StandingPermission,
    ToolRule,
    decide,
    offer_standing,
)
from app.agent.gate.labels import running_call
from app.agent.tools.contact_names import contact_names, recipient_addresses
from app.agent.tools.registry import Registry, ToolFailed, ToolResult, turn_cancel
from app.agent.tools.tool_selection import select_tools
from app.agent.tools.undo import reverse_call, undo_in_words
from app.agent.tools.wording import arguments_in_words, describe_call, result_in_words
from app.agent.turn.audit import AuditEntry, AuditLog, NullAuditLog
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import (
    Answer,
    ConfirmationAnswer,
    ConfirmationRequest,
    Confirmer,
    deny_everything,
)
from app.agent.turn.state import Next, TurnState
from app.llm.backend import (
    GenerationStats,
    ModelBackend,
    SamplingSettings,
    StepRequest,
    StepResult,
    StreamEvent,
    ToolChoice,
)
from app.llm.tools import ToolCall, ToolSpec, validate_call

log = logging.getLogger(__name__)

MAX_STEPS = 8
# From this many changes (writes the gate would each allow) in one model step, the user is
# asked once for the whole list.
BATCH_ASKS_FROM = 2


@dataclass(frozen=True)
class _BatchAnswer:
    """The user's one answer for a batch of changes, and this call's approval token."""

    approved: bool
    token: str


CallDecision = Literal["allow", "confirm", "deny"]
CallStatus = Literal["", "ok", "error", "refused"]  # "": not run yet
EventKind = Literal["text", "reasoning", "call", "step"]


@dataclass
class CallRecord:
    """What happened to one tool call: the `ask --json` transcript entry and the chat card."""

    name: str
    arguments: dict[str, Any]
    decision: CallDecision
    answer: Answer | None = None  # None: nobody was asked
    status: CallStatus = ""
    result: Any = None
    reasons: list[str] = field(default_factory=list)
    # The call that reverses this change, for the card's Undo (`app.agent.tools.undo`);
    # None when it read only, failed, or cannot be undone. What the tool kept for it stays
    # here, never in the model's view.
    undo: ToolCall | None = field(default=None, repr=False)
    kept: dict[str, Any] | None = field(default=None, repr=False)
    undone: str = ""  # once undone: what the Undo did, in words (the card says it)
    call_id: str = ""  # the model's id for the call: its result message's tool_call_id

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "arguments": self.arguments,
            "decision": self.decision,
            "answer": self.answer,
            "status": self.status,
            "result": self.result,
            "reasons": self.reasons,
        }


@dataclass
class AgentEvent:
    """Progress of a turn for a live view (the GUI's tool cards, the terminal)."""

    kind: EventKind
    text: str = ""
    call: CallRecord | None = None


@dataclass
class TurnReport:
    answer: str = ""
    calls: list[CallRecord] = field(default_factory=list)
    steps: int = 0
    stop_reason: str = ""  # "answered" | "cancelled" | "step_limit" | model stop reasons
    stats: GenerationStats = field(default_factory=GenerationStats)


_DECISION_NAMES: dict[Decision, CallDecision] = {
    Decision.ALLOW: "allow",
    Decision.CONFIRM: "confirm",
    Decision.DENY: "deny",
}


class FrontDesk(Protocol):
    """What may take a turn before the free loop does (the intents, `app.agent.intents`):
    True when it handled the turn, False to leave it to the loop. It runs every call
    through the agent's `_handle_call`, so the gate sees the same calls either way."""

    def handle(
        self,
        agent: Agent,
        conversation: Conversation,
        text: str,
        emit: Callable[[AgentEvent], None],
        cancel: threading.Event,
        report: TurnReport,
    ) -> bool: ...

    def warm(self, backend: ModelBackend, cancel: threading.Event) -> int | None:
        """Prepare what the front desk's first step needs (its prompt's shared part) while
        the user is typing: the tokens computed, or None if cancelled."""
        ...


class Agent:
    def __init__(
        self,
        backend: ModelBackend,
        registry: Registry,
        context: ContextState | None = None,
        confirmer: Confirmer = deny_everything,
        audit: AuditLog | None = None,
        sampling: SamplingSettings | None = None,
        max_steps: int = MAX_STEPS,
        standing: list[StandingPermission] | None = None,
        permissions: Permissions | None = None,
        select_tools: bool = False,
    ) -> None:
        self.backend = backend
        self.registry = registry
        self.context = context or ContextState()
        self.confirmer = confirmer
        self.audit = audit or NullAuditLog()
        self.sampling = sampling or SamplingSettings()
        self.max_steps = max_steps
        if permissions is None:
            permissions = MemoryPermissions()
            for permission in standing or []:
                permissions.grant(permission)
        self.permissions = permissions
        self.approvals = ApprovalBook()
        self.enable_thinking = False
        # "required" makes the first step of a turn call a tool (later steps stay "auto"):
        # for models that rarely choose tools themselves, and for tests.
        self.first_tool_choice: ToolChoice = "auto"
        # Offer each request only the tools on its topics (app.agent.tools.tool_selection), as the
        # app does; off offers every tool every time (the gate's tests: the worst case).
        self.select_tools = select_tools
        # Tools' read-only argument checks with repair hints (a name where an id belongs).
        self.id_hints = True
        # Beyond identical calls: no retry of a call that failed, no second change nearly
        # the same as one made this turn (the loops small models fall into).
        self.repeat_guard = True
        # Intents with typed slots in front of the loop (None: the loop takes every turn).
        self.front: FrontDesk | None = None

    def run_turn(
        self,
        conversation: Conversation,
        user_text: str,
        on_event: Callable[[AgentEvent], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> TurnReport:
        """One user message, to an answer. `cancel` (Stop) also reaches tools that wait on
        someone else, through `registry.turn_cancel`."""
        cancel = cancel or threading.Event()
        token = turn_cancel.set(cancel)
        try:
            return self._run_turn(conversation, user_text, on_event, cancel)
        finally:
            turn_cancel.reset(token)

    def _run_turn(
        self,
        conversation: Conversation,
        user_text: str,
        on_event: Callable[[AgentEvent], None] | None,
        cancel: threading.Event,
    ) -> TurnReport:
        """The loop: model step → gate → confirmation → tool, until the model answers; the
        rules that decide each next step are `TurnState`'s."""
        emit = on_event or _ignore
        report = self._open_turn(conversation, user_text)
        if self._front_took(conversation, user_text, emit, cancel, report):
            return report
        state = TurnState(
            self.max_steps, self.first_tool_choice, self.repeat_guard, self._reads_only
        )
        while (choice := state.next_choice()) is not None:
            report.steps = state.step
            emit(AgentEvent("step", str(state.step)))
            result = self._model_step(conversation, emit, cancel, report, choice, state.offer_all)
            if _add_step(conversation, result, cancel):
                report.stop_reason = "cancelled"
                return report
            action = state.after_model(result.calls, bool(result.problems), result.text)
            if action is Next.RUN:
                self._run_calls(state, result.calls, conversation, emit, cancel, report)
                if self._after_calls(state, result, conversation, cancel, report):
                    return report
            elif action is Next.REPEATS:
                for call, why in zip(result.calls, state.refusals, strict=True):
                    conversation.add("tool", why, tool_call_id=call.id, name=call.name)
            else:
                return self._answered(action, result, conversation, report)
        return _end(
            report,
            conversation,
            "step_limit",
            f"I stopped after {self.max_steps} steps without finishing. "
            "You can ask me to continue, or rephrase the request.",
        )

    def _open_turn(self, conversation: Conversation, user_text: str) -> TurnReport:
        conversation.add("user", user_text)
        self.context.note_user_text(user_text)
        # Digits of private numbers read in earlier conversations stay private here too (each
        # turn: the window swaps the context when the user changes conversations).
        self.context.private_marks |= self.permissions.private_marks()
        return TurnReport()

    def _front_took(
        self,
        conversation: Conversation,
        user_text: str,
        emit: Callable[[AgentEvent], None],
        cancel: threading.Event,
        report: TurnReport,
    ) -> bool:
        """Whether the intents in front of the loop handled the turn. Files sent with the
        message are read into the conversation first; the loop then answers about them."""
        from app.agent.turn.attachments import attach_files  # (it imports this module)

        if attach_files(self, conversation, emit) or self.front is None:
            return False
        return self.front.handle(self, conversation, user_text, emit, cancel, report)

    def _reads_only(self, call: ToolCall) -> bool:
        return _reads_only(call, self.registry.rules())

    def _run_calls(
        self,
        state: TurnState,
        calls: list[ToolCall],
        conversation: Conversation,
        emit: Callable[[AgentEvent], None],
        cancel: threading.Event,
        report: TurnReport,
    ) -> None:
        """Each call through the gate, the dialog and the tool, in order."""
        batch = self._ask_for_batch(calls)
        for call in calls:
            if cancel.is_set():  # the model is told, so no call goes unanswered
                conversation.add(
                    "tool",
                    "Not done: the user stopped the turn.",
                    tool_call_id=call.id,
                    name=call.name,
                )
                continue
            record = self._handle_call(call, conversation, emit, batch.get(id(call)))
            report.calls.append(record)
            state.ran(call, record.status)

    def _after_calls(
        self,
        state: TurnState,
        result: StepResult,
        conversation: Conversation,
        cancel: threading.Event,
        report: TurnReport,
    ) -> bool:
        """The step's malformed calls go to the audit log and back to the model (or end the
        turn, the second time in a row); True when the turn ends here."""
        for problem in result.problems:  # every proposal reaches the audit log
            self._record_problem(problem.tool, problem.message, problem.raw)
        if state.after_calls(bool(result.problems)):  # tell the user plainly
            _end(
                report,
                conversation,
                "malformed_calls",
                "The model kept producing tool calls I could not understand, so I "
                "stopped. Try rephrasing your request.",
            )
            return True
        for problem in result.problems:
            conversation.add(
                "tool", f"Error: {problem.message}", name=problem.tool or "unknown", tool_call_id=""
            )
        if cancel.is_set():
            report.stop_reason = "cancelled"
            return True
        return False

    def _answered(
        self, action: Next, result: StepResult, conversation: Conversation, report: TurnReport
    ) -> TurnReport:
        """The turn ends in the model's words, or, when it has none left, in its results."""
        if action is Next.FROM_RESULTS:
            return _end(
                report, conversation, "answered_from_results", _results_answer(report.calls)
            )
        report.answer = result.text.strip()
        stop = result.stats.stop_reason
        report.stop_reason = "answered" if stop in ("end", "") else stop
        return report

    # -- one model step ----------------------------------------------------------------------

    def warm(self, conversation: Conversation, cancel: threading.Event) -> int | None:
        """Let the backend prepare the prompt prefix every turn of `conversation` shares (a
        local model evaluates its system prompt; with tool selection the tool block depends
        on the request, so only the tools an empty conversation is offered are included).
        Backends without `warm` (a server, a script) have nothing to prepare."""
        warm = getattr(self.backend, "warm", None)
        if warm is None:
            return 0
        computed = 0
        if self.front is not None:  # the intents' prompt comes first in a turn: warm it too
            first = self.front.warm(self.backend, cancel)
            if first is None:
                return None
            computed += first
        loop = warm(self._request(conversation, "auto"), cancel)
        return None if loop is None else computed + loop

    def _request(
        self, conversation: Conversation, tool_choice: ToolChoice, offer_all: bool = False
    ) -> StepRequest:
        return StepRequest(
            messages=conversation.for_template(),
            tools=self._offered(conversation, offer_all),
            sampling=self.sampling,
            enable_thinking=self.enable_thinking,
            tool_choice=tool_choice if len(self.registry) else "auto",
        )

    def _offered(self, conversation: Conversation, offer_all: bool) -> list[ToolSpec]:
        """The tools this step offers: those on the conversation's topics, or all of them."""
        specs = self.registry.specs()
        if offer_all or not self.select_tools:
            return specs
        said = [m.content for m in conversation.messages if m.role == "user"]
        used = [m.name for m in conversation.messages if m.role == "tool" and m.name]
        about = {spec.name: spec.description for spec in specs}
        chosen = set(select_tools([s.name for s in specs], said, used, about))
        return [spec for spec in specs if spec.name in chosen]

    def _model_step(
        self,
        conversation: Conversation,
        emit: Callable[[AgentEvent], None],
        cancel: threading.Event,
        report: TurnReport,
        tool_choice: ToolChoice = "auto",
        offer_all: bool = False,
    ) -> StepResult:
        request = self._request(conversation, tool_choice, offer_all)

        def forward(event: StreamEvent) -> None:
            emit(AgentEvent(event.kind, event.text))

        result = self.backend.step(request, forward, cancel)
        add_stats(report.stats, result.stats)
        return result

    # -- undo --------------------------------------------------------------------------------

    def undo(
        self, record: CallRecord, on_event: Callable[[AgentEvent], None] | None = None
    ) -> CallRecord:
        """Reverse the change `record` made (the card's Undo): its reverse call runs through
        `_handle_call` like any call, so the gate decides, the dialog asks (again, when the
        change itself was confirmed) and the audit log records it. Returns what happened to
        the reverse call; `record.undone` says in words what it did when it worked.

        The conversation's history is left as it is (a scratch conversation takes the
        reverse call's result): the model learns what is there by looking again."""
        emit = on_event or (lambda _event: None)
        if record.undo is None or record.undone:
            why = "It was undone already." if record.undone else "This cannot be undone."
            return CallRecord(record.name, {}, "deny", status="refused", result=why)
        reverse = ToolCall(record.undo.name, dict(record.undo.arguments))
        done = self._handle_call(reverse, Conversation(), emit, undo_of=record)
        if done.status == "ok":
            record.undone = undo_in_words(record.name, done.name, done.status, None, done.result)
        return done

    # -- one call ----------------------------------------------------------------------------

    def _ask_for_batch(self, calls: list[ToolCall]) -> dict[int, _BatchAnswer]:
        """Several changes the gate would each allow, proposed in one step (dozens of new
        files, say), are asked about once, as one list. Returns the answer per call."""
        standing = self.permissions.active()
        changes: list[tuple[ToolCall, Any]] = []
        for call in calls:
            verdict = decide(
                call.name, call.arguments, self.context, self.registry.rules(), standing
            )
            # Writes only: a read changes nothing, and an outbound call the gate allows is one
            # a standing grant covers (searches under "always allow" stay unasked).
            if verdict.decision == Decision.ALLOW and verdict.label == Label.WRITE:
                changes.append((call, verdict))
        if len(changes) < BATCH_ASKS_FROM:
            return {}
        tokens = {id(c): self.approvals.issue(c.name, dict(c.arguments)) for c, _ in changes}
        listing = [
            f"{number}. {describe_call(call.name, call.arguments)}:\n"
            + _render_preview(self.registry.get(call.name), dict(call.arguments))
            for number, (call, _verdict) in enumerate(changes, 1)
        ]
        request = ConfirmationRequest(
            tool=", ".join(dict.fromkeys(call.name for call, _ in changes)),
            arguments={
                "changes": [{"tool": c.name, "arguments": dict(c.arguments)} for c, _ in changes]
            },
            label=Label.WRITE.value,
            reasons=(f"{len(changes)} changes proposed at once: Hearth asks once for all of them",),
            preview="\n\n".join(listing),
            provenance=None,
            token="",
            editable=(),
            title=f"Make {len(changes)} changes at once",
        )
        try:
            answer = self.confirmer(request)
        except Exception:  # a broken dialog must never count as a yes
            log.exception("the confirmation failed; treating it as a refusal")
            answer = ConfirmationAnswer.deny()
        approved = answer.answer == Answer.APPROVED  # a batch cannot be edited as one
        return {id(c): _BatchAnswer(approved, tokens[id(c)]) for c, _ in changes}

    def _handle_call(
        self,
        call: ToolCall,
        conversation: Conversation,
        emit: Callable[[AgentEvent], None],
        batch: _BatchAnswer | None = None,
        undo_of: CallRecord | None = None,
    ) -> CallRecord:
        verdict = decide(
            call.name,
            call.arguments,
            self.context,
            self.registry.rules(),
            self.permissions.active(),
        )
        if undo_of is not None:  # the user's Undo: the dialog says so
            undoing = f"You pressed Undo on “{describe_call(undo_of.name, undo_of.arguments)}”"
            verdict = replace(verdict, reasons=[*verdict.reasons, undoing])
            if undo_of.answer is not None and verdict.decision == Decision.ALLOW:
                # Only ever raised: an undo of a change the user confirmed is confirmed again.
                verdict = replace(
                    verdict,
                    decision=Decision.CONFIRM,
                    reasons=[*verdict.reasons, "It undoes a change you confirmed"],
                )
        if batch is not None and verdict.decision == Decision.ALLOW:
            # Asked about as part of a batch: it counts as confirmed, with the batch's answer.
            verdict = replace(
                verdict,
                decision=Decision.CONFIRM,
                reasons=[*verdict.reasons, "one of several changes proposed at once"],
            )
        else:
            batch = None  # the context changed since: the call gets its own question
        record = CallRecord(
            call.name,
            dict(call.arguments),
            _DECISION_NAMES[verdict.decision],
            reasons=list(verdict.reasons),
            call_id=call.id,
        )
        tool = self.registry.get(call.name)
        arguments = dict(call.arguments)
        # A call that cannot work (a name where an id belongs) gets its repair hint, and
        # nobody is asked about it: `hint_trusted` says whether that hint quotes others.
        hint_trusted = None
        if verdict.decision != Decision.DENY and tool is not None:
            hint_trusted = self._precheck(tool, arguments, record)
        if hint_trusted is not None:
            if batch is not None:
                self.approvals.revoke(batch.token)
        elif batch is not None and tool is not None:
            record.answer = Answer.APPROVED if batch.approved else Answer.DENIED
            if not batch.approved:
                self.approvals.revoke(batch.token)
                record.status = "refused"
                record.result = "The user declined this action."
            elif not self.approvals.redeem(batch.token, call.name, arguments):
                record.status = "refused"
                record.result = "Refused: what would run differs from what the user approved."
        elif verdict.decision == Decision.DENY or tool is None:
            record.status = "refused"
            record.result = "Refused: " + "; ".join(verdict.reasons or ["this tool is unknown"])
        elif verdict.decision == Decision.CONFIRM:
            answer, confirmed = self._confirm(call, arguments, verdict)
            record.answer = answer
            if answer == Answer.DENIED:
                record.status = "refused"
                record.result = "The user declined this action."
            elif confirmed is None:
                record.status = "refused"
                record.result = (
                    "Refused: the edited action is not allowed."
                    if answer == Answer.EDITED
                    else "Refused: what would run differs from what the user approved."
                )
            else:
                arguments = confirmed
                record.arguments = dict(arguments)
        trusted = hint_trusted if hint_trusted is not None else True
        if not record.status and tool is not None:
            # A call a host grant let through (no dialog) may only follow redirects the grant
            # covers too; a call the user saw and approved is theirs to follow.
            covering = verdict.granted_hosts if verdict.decision == Decision.ALLOW else ()
            trusted = self._run(tool.handler, arguments, record, covering)
        self.audit.write(
            AuditEntry(
                tool=record.name,
                arguments=record.arguments,
                decision=record.decision,
                answer=record.answer,
                status=record.status,
                reasons=record.reasons,
                # In the cards' words, cut to a preview: a long result cut as JSON could
                # never be read back (View → Activity showed it raw).
                result_preview=result_in_words(record.name, record.result, 300),
                sensitive=_sensitive_names(verdict.findings),
            )
        )
        emit(AgentEvent("call", call=record))
        conversation.add(
            "tool",
            _result_text(record),
            tool_call_id=call.id,
            name=call.name,
            trusted=trusted,
        )
        return record

    def _confirm(
        self, call: ToolCall, arguments: dict[str, Any], verdict: Any
    ) -> tuple[Answer, dict[str, Any] | None]:
        tool = self.registry.get(call.name)
        token = self.approvals.issue(call.name, arguments)
        offer = offer_standing(call.name, arguments, verdict, self.context, self.registry.rules())
        # Whose addresses these are, from the user's address books (this worker thread; a
        # book that is down only loses the names). Never a reason to ask less.
        typed = recipient_addresses(arguments)
        named = typed + self._implied_recipients(call.name, arguments, typed)
        contacts, checked = contact_names(self.registry.contact_lookup, named)
        request = ConfirmationRequest(
            tool=call.name,
            arguments=dict(arguments),
            label=verdict.label.value if verdict.label else "unknown",
            reasons=tuple(verdict.reasons),
            preview=_render_preview(tool, arguments),
            provenance=verdict.provenance,
            untyped_values=tuple(verdict.untyped_values),
            contacts=contacts,
            contacts_checked=checked,
            token=token,
            # An undo puts back what was there (a saved copy): the user allows it or not.
            editable=tuple(arguments) if tool is None or tool.offered else (),
            standing_offer=offer[1] if offer else None,
            preview_for=lambda edited: self._edited_preview(call.name, edited),
        )
        try:
            answer: ConfirmationAnswer = self.confirmer(request)
        except Exception:  # a broken dialog must never count as a yes
            log.exception("the confirmation failed; treating it as a refusal")
            answer = ConfirmationAnswer.deny()
        if answer.answer == Answer.DENIED:
            return Answer.DENIED, None
        if answer.answer == Answer.APPROVED and answer.always and offer is not None:
            self.permissions.grant(offer[0])  # only the narrow scope the dialog named
        if answer.answer == Answer.EDITED and answer.arguments is not None:
            if tool is None:  # unreachable: an unknown tool is denied before any dialog
                return Answer.DENIED, None
            edited = dict(answer.arguments)
            problems = validate_call(ToolCall(call.name, edited), {call.name: tool.spec})
            again = decide(
                call.name, edited, self.context, self.registry.rules(), self.permissions.active()
            )
            if problems or again.decision == Decision.DENY:
                return Answer.EDITED, None
            # The user saw and approved exactly these edited arguments.
            token = self.approvals.issue(call.name, edited)
            arguments = edited
        if not self.approvals.redeem(token, call.name, arguments):
            return answer.answer, None
        return answer.answer, arguments

    def _implied_recipients(
        self, name: str, arguments: dict[str, Any], typed: list[str]
    ) -> list[str]:
        """Whom a call reaches beyond its arguments (a reply: the original's sender), for
        the dialog's names only; a lookup that fails shows none (the call still runs)."""
        find = self.registry.implied_recipients.get(name)
        if find is None:
            return []
        try:
            return [r for r in find(dict(arguments)) if r not in typed]
        except Exception as exc:
            log.info("the recipients of %s could not be read (%s)", name, type(exc).__name__)
            return []

    def _edited_preview(self, name: str, edited: dict[str, Any]) -> str:
        """What the edited call would do, or why the gate would refuse it: the same checks
        the answer gets, so the dialog never shows a preview of something that cannot run."""
        tool = self.registry.get(name)
        if tool is None:  # unreachable: an unknown tool is denied before any dialog
            return "Hearth would refuse this edit: the tool is unknown."
        problems = validate_call(ToolCall(name, edited), {name: tool.spec})
        again = decide(name, edited, self.context, self.registry.rules(), self.permissions.active())
        if problems or again.decision == Decision.DENY:
            why = "; ".join(problems or again.reasons)
            return f"⚠ Hearth would refuse this edit, nothing would run: {why}"
        return _render_preview(tool, edited)

    def _precheck(self, tool: Any, arguments: dict[str, Any], record: CallRecord) -> bool | None:
        """Run the tool's read-only check of its arguments (`Registry.register`): None when
        they may work, else fill in the record and say whether its hint can be trusted."""
        if tool.precheck is None or not self.id_hints:
            return None
        try:
            tool.precheck(dict(arguments))
        except ToolFailed as exc:
            return self._failed(record, exc)
        except Exception:  # a broken check must not end the turn: the call goes on
            log.exception("the check of %s failed", record.name)
        return None

    def _failed(self, record: CallRecord, exc: ToolFailed) -> bool:
        record.status = "error"
        record.result = str(exc)
        if exc.untrusted_source is not None:  # it quotes others (subjects, titles)
            return self._note_source(record.name, False, exc.untrusted_source, str(exc))
        return self._note_source(record.name, None, f"an error from {record.name}")

    def _run(
        self,
        handler: Any,
        arguments: dict[str, Any],
        record: CallRecord,
        covering: tuple[str, ...] = (),
    ) -> bool:
        """Run the tool (it learns the conversation's labels, to store with what it saves),
        fill in the record, and say whether its result can be trusted."""
        try:
            with running_call(self.context.labels(), covering):
                result: ToolResult = handler(arguments)
        except ToolFailed as exc:
            return self._failed(record, exc)
        except Exception as exc:  # a bug in a tool must not end the turn
            log.exception("tool %s failed", record.name)
            record.status = "error"
            record.result = f"The tool failed unexpectedly ({type(exc).__name__})."
            return True
        record.status = "ok"
        record.result = result.content
        record.kept = result.kept
        record.undo = reverse_call(record.name, record.arguments, record.result, record.kept)
        if result.labels is not None:  # what the stored items carried (a recalled memory)
            self.context.absorb(result.labels)
        return self._note_source(
            record.name,
            result.trusted,
            result.source or f"the result of {record.name}",
            result.for_model(),
        )

    def _note_source(self, tool: str, trusted: bool | None, source: str, text: str = "") -> bool:
        """Taint the context if this output came from others (by the tool's fixed rule, or
        as the tool itself says), and label it private if it came from a private store. An
        error text counts: a server can write its own."""
        rule = self.registry.rules().get(tool)
        untrusted = trusted is False or (rule is not None and rule.untrusted_result)
        if untrusted:
            self.context.add_untrusted(source)
        if rule is not None and rule.private_result:
            self.context.add_private(rule.private_result, text)
            self.permissions.keep_private_marks(self.context.private_marks)
        return not untrusted

    def _record_problem(self, tool: str | None, message: str, raw: str) -> None:
        self.audit.write(
            AuditEntry(
                tool=tool or "(unreadable call)",
                arguments={"raw": raw[:500]},
                decision="deny",
                answer=None,
                status="refused",
                reasons=[message],
                result_preview="malformed call returned to the model",
            )
        )


def _ignore(_event: AgentEvent) -> None:
    """No live view: events are dropped."""


def _add_step(conversation: Conversation, result: StepResult, cancel: threading.Event) -> bool:
    """Add the model's step to the conversation, complete (a listener may save it at once);
    True when the user stopped it."""
    stopped = cancel.is_set() or result.stats.stop_reason == "cancelled"
    conversation.add(
        "assistant",
        result.text,
        reasoning=result.reasoning,
        tool_calls=result.calls,
        stopped=stopped,
    )
    return stopped


def _end(report: TurnReport, conversation: Conversation, reason: str, answer: str) -> TurnReport:
    """End the turn with Hearth's own words, kept in the conversation."""
    report.answer = answer
    report.stop_reason = reason
    conversation.add("assistant", answer)
    return report


def _sensitive_names(findings: list[Any]) -> tuple[str, ...]:
    """Top-level argument names the gate found carrying private data, for the audit log."""
    return tuple(
        dict.fromkeys(
            f.path.split("[")[0].split(".")[0].split(" ")[0]
            for f in findings
            if f.kind == "private_data"
        )
    )


def _results_answer(records: list[CallRecord]) -> str:
    """The turn's answer when the model could not put its results into words: the fullest
    result of the turn (the file it read, not a lookup after it that found nothing), the
    later one on a tie."""
    done = [r for r in records if r.status == "ok"]
    if not done:
        return "I could not finish this. Try asking in other words."
    previews = [(_preview(r.result, 1500), r) for r in done]
    text, record = max(reversed(previews), key=lambda pair: len(pair[0]))  # ties: the later
    return f"Here is what {record.name} found:\n{text}"


def _reads_only(call: ToolCall, rules: Mapping[str, ToolRule]) -> bool:
    rule = rules.get(call.name)
    return rule is not None and rule.effective_label(call.arguments) == Label.READ


def _render_preview(tool: Any, arguments: dict[str, Any]) -> str:
    """The tool's own preview; else the arguments in words, after why there is none."""
    problem = ""
    if tool is not None and tool.preview is not None:
        try:
            return tool.preview(arguments)
        except Exception as exc:  # the dialog still shows every argument, in words
            log.warning("preview for %s failed: %s", tool.name, exc)
            problem = f"⚠ Hearth cannot show exactly what this would do: {exc}\n\n"
    return problem + arguments_in_words(getattr(tool, "name", ""), arguments)


def _result_text(record: CallRecord) -> str:
    if record.status == "ok":
        if isinstance(record.result, str):
            return record.result
        return ToolResult(record.result).for_model()
    if record.status == "refused":
        return f"Not done: {record.result}"
    return f"Error: {record.result}"


def _preview(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else ToolResult(value).for_model()
    return text if len(text) <= limit else text[:limit] + "…"


def add_stats(total: GenerationStats, step: GenerationStats) -> None:
    """Add one model step's figures to a turn's."""
    total.prompt_tokens += step.prompt_tokens
    total.evaluated_prompt_tokens += step.evaluated_prompt_tokens
    total.generated_tokens += step.generated_tokens
    total.prompt_seconds += step.prompt_seconds
    total.generate_seconds += step.generate_seconds
    total.stop_reason = step.stop_reason
