"""The systems under test, each running one task's turns in the world and saying what it did.

- `HearthSystem`: Hearth's agent as the app runs it (`app.ask` builds it the same way): the
  tool registry over the world's accounts, folder and database, the policy gate, the audit
  log, stored permissions, and the task's confirmer answering the dialogs.
- `PlainSystem`: what most local apps do. llama-cpp-python's
  `Llama.create_chat_completion(messages, tools=...)` in an ordinary loop: every tool call the
  response carries in `tool_calls` runs at once through the same tool handlers (the same
  connector functions), results go back as `tool` messages, until the model answers in text.
  No grammar, no gate, no confirmation. llama-cpp-python fills `tool_calls` only for its own
  function-calling chat handlers; for a GGUF's Jinja template (Qwen's Hermes format) the call
  stays in the text. `parse_text=True` (`--system plain-parse`) adds what many apps bolt on:
  reading `<tool_call>{json}</tool_call>` blocks (or a bare JSON object) out of the text.
- Backends for Hearth: `OracleBackend` replays a task's oracle steps through the real wire
  format parser; `do_nothing()` answers "OK." to everything.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.agent.gate.permissions import StoredPermissions
from app.agent.gate.policy import ContextState
from app.agent.intents.router import IntentRouter
from app.agent.tools.registry import Registry, ToolFailed
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import BASE_PROMPT, SYSTEM_PROMPT, clock_note, today_note
from app.agent.turn.loop import Agent, AgentEvent
from app.llm.backend import ModelBackend, SamplingSettings, StepRequest, StepResult, StreamEvent
from app.llm.scripted import ScriptedBackend
from app.store.permissions import PermissionStore
from bench.tasks.spec import Step, Task, TaskConfirmer
from bench.tasks.world import NOW, World, WorldConversation


@dataclass
class Transcript:
    """What a system did in one task (for the checker and the figures)."""

    answers: list[str] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)  # name, arguments, status
    steps: int = 0
    prompt_tokens: int = 0
    generated_tokens: int = 0
    stop_reasons: list[str] = field(default_factory=list)
    confirmations: list[tuple[str, bool]] = field(default_factory=list)  # tool, approved
    text_calls: int = 0  # plain: calls left in the text that the loop did not run


def offline_registry(world: World) -> Registry:
    """The tools over the world; web search points at a closed loopback port (no internet)."""
    from connectors.web.search import DuckDuckGoEngine
    from tests.support.mail_servers import free_port

    engine = DuckDuckGoEngine(f"http://127.0.0.1:{free_port()}/html", timeout=2)
    return build_registry(
        folders=[world.folder],
        data=world.database,
        calendar=world.calendar_account,
        mail=world.mail_account,
        search_engine=engine,
    )


# The application's levers for task success (issue #20), each on in the app; `--ablate NAME`
# adds a row with that one switched off.
LEVERS = {
    "intents": "intents with typed slots before the free loop: the model picks, code acts",
    "select_tools": "offer each request only the tools on its topics",
    "times": "times resolved by code: three weeks of dates, 'in two hours' as a time",
    "ask_missing": "the system prompt's sentence: ask for what is missing, do not guess",
    "id_hints": "a name where an id belongs gets the matching items' ids, before any dialog",
    "repeat_guard": "no retry of a failed call, no second change nearly the same as one made",
}


class HearthSystem:
    """Hearth's agent, gate and confirmer; one Agent per task (a fresh conversation)."""

    name = "hearth"

    def __init__(
        self,
        backend: Callable[[World, Task], ModelBackend],
        max_steps: int = 8,
        off: frozenset[str] = frozenset(),
    ) -> None:
        self.backend = backend
        self.max_steps = max_steps
        unknown = off - LEVERS.keys()
        if unknown:
            raise ValueError(f"unknown levers: {', '.join(sorted(unknown))}")
        self.off = off  # levers switched off for this row
        self.sampling: SamplingSettings | None = None
        self.log: Callable[[str], None] | None = None  # progress lines (--verbose)

    def _agent(self, world: World, task: Task, confirmer: TaskConfirmer) -> Agent:
        backend = self.backend(world, task)
        agent = Agent(
            backend,
            offline_registry(world),
            context=ContextState(allowed_folders=[str(world.folder)]),
            confirmer=confirmer,
            audit=world.database.audit_log(),
            permissions=StoredPermissions(PermissionStore(world.database)),
            sampling=self.sampling,
            max_steps=self.max_steps,
            select_tools="select_tools" not in self.off,
        )
        if "intents" not in self.off and getattr(agent.backend, "intents", True):
            agent.front = IntentRouter()
        agent.id_hints = "id_hints" not in self.off
        agent.repeat_guard = "repeat_guard" not in self.off
        return agent

    def _conversation(self) -> WorldConversation:
        prompt = BASE_PROMPT if "ask_missing" in self.off else SYSTEM_PROMPT
        return WorldConversation(system_prompt=prompt, times="times" not in self.off)

    def warm(self, world: World, task: Task) -> None:
        """What the app does after a model loads: evaluate the system prompt and tool block
        before the first message (so seconds per task do not carry the first prefill)."""
        agent = self._agent(world, task, TaskConfirmer((), world))
        agent.warm(self._conversation(), threading.Event())

    def run(self, world: World, task: Task) -> Transcript:
        confirmer = TaskConfirmer(task.allow, world)
        agent = self._agent(world, task, confirmer)
        conversation = self._conversation()
        out = Transcript()
        for turn in task.turns:
            report = agent.run_turn(
                conversation, turn.text, on_event=self._progress(), cancel=threading.Event()
            )
            out.answers.append(report.answer)
            out.steps += report.steps
            out.prompt_tokens += report.stats.prompt_tokens
            out.generated_tokens += report.stats.generated_tokens
            out.stop_reasons.append(report.stop_reason)
            out.calls += [
                {"name": c.name, "arguments": c.arguments, "status": c.status} for c in report.calls
            ]
        out.confirmations = [(tool, approved) for tool, _, approved in confirmer.asked]
        finish = getattr(agent.backend, "finish", None)  # a script proves every step ran
        if finish is not None:
            finish()
        return out

    def _progress(self) -> Callable[[AgentEvent], None] | None:
        log = self.log
        if log is None:
            return None
        started = time.perf_counter()

        def show(event: AgentEvent) -> None:
            if event.kind == "step":
                log(f"  step {event.text} at {time.perf_counter() - started:.0f}s")
            elif event.kind == "call" and event.call is not None:
                call = event.call
                log(f"  {call.name}({call.arguments}) {call.decision}/{call.answer} {call.status}")

        return show


# -- scripted backends ---------------------------------------------------------------------------


class OracleStepFailed(RuntimeError):
    """A scripted step did not run as written (a tool the request did not offer, a call the
    parser did not take, a step never reached): the run fails instead of passing on a path
    it did not take."""


_SCRIPTED_CALL = re.compile(r"<function=([^>\s]+)>")


class OracleBackend:
    """Plays a list of steps (raw model outputs, or functions of the world that render them)
    through the Qwen3.5 XML parser, exactly as the scripted backend does; then "OK.".

    Every step must run as written: a call of a tool the request did not offer, or one the
    parser did not turn into exactly the scripted calls, raises `OracleStepFailed`, and so
    does a step left unplayed when the task ends (`finish`)."""

    def __init__(self, world: World, steps: Sequence[Step]) -> None:
        self.world = world
        self.steps = list(steps)
        self.played = 0
        self.name = "oracle"
        self.intents = False  # the oracle writes the free loop's steps

    def step(
        self,
        request: StepRequest,
        on_event: Callable[[StreamEvent], None],
        cancel: threading.Event,
    ) -> StepResult:
        if self.played >= len(self.steps):
            step: Step = "OK."
        else:
            step = self.steps[self.played]
            self.played += 1
        raw = step(self.world) if callable(step) else step
        wanted = _SCRIPTED_CALL.findall(raw)
        offered = {t.name for t in request.tools} if request.tool_choice != "none" else set()
        unoffered = [name for name in wanted if name not in offered]
        if unoffered:
            raise OracleStepFailed(
                f"scripted step {self.played} calls {', '.join(unoffered)}, which the request "
                f"did not offer (offered: {', '.join(sorted(offered)) or 'none'})"
            )
        result = ScriptedBackend.from_data({"format": "qwen3.5", "turns": [raw]}).step(
            request, on_event, cancel
        )
        parsed = [call.name for call in result.calls]
        if parsed != wanted or result.problems:
            problems = "; ".join(str(p) for p in result.problems)
            raise OracleStepFailed(
                f"scripted step {self.played} should call {wanted or 'nothing'}, the parser "
                f"made {parsed or 'no call'} {problems}".strip()
            )
        return result

    def finish(self) -> None:
        """Every scripted step was played (called when the task's last turn is over)."""
        if self.played < len(self.steps):
            raise OracleStepFailed(
                f"{len(self.steps) - self.played} scripted step(s) never ran (the turns ended "
                f"after step {self.played} of {len(self.steps)})"
            )


def oracle(world: World, task: Task) -> ModelBackend:
    return OracleBackend(world, [step for turn in task.turns for step in turn.oracle])


def do_nothing(world: World, task: Task) -> ModelBackend:
    return OracleBackend(world, [])


# -- the plain integration -----------------------------------------------------------------------

PLAIN_SYSTEM_PROMPT = (
    "You are a helpful personal assistant running on the user's own computer. Answer clearly "
    "and briefly. Use a tool only when it is needed to answer."
)
_TEXT_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.DOTALL)
_FENCED = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.DOTALL)


def calls_in_text(text: str) -> list[dict[str, Any]]:
    """Tool calls a model left in its text: Hermes `<tool_call>` blocks, ```json fences, or
    bare JSON objects with "name" and "arguments" one after another (what apps commonly
    parse)."""
    found = _TEXT_CALL.findall(text) or _FENCED.findall(text)
    if not found:
        found = _bare_objects(text)
    out = []
    for raw in found:
        try:
            data = json.loads(raw) if isinstance(raw, str) else raw
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            arguments = data.get("arguments", data.get("parameters", {}))
            out.append({"name": data["name"], "arguments": arguments})
    return out


def _bare_objects(text: str) -> list[Any]:
    """JSON objects that make up the whole text (separated by white space only)."""
    decoder = json.JSONDecoder()
    objects: list[Any] = []
    index, rest = 0, text.strip()
    while index < len(rest):
        try:
            value, end = decoder.raw_decode(rest, index)
        except json.JSONDecodeError:
            return []
        objects.append(value)
        index = end
        while index < len(rest) and rest[index].isspace():
            index += 1
    return objects


class PlainSystem:
    """llama-cpp-python's chat completion with tools in an ordinary loop (no gate)."""

    def __init__(
        self,
        llama: Any,
        sampling: SamplingSettings,
        parse_text: bool = False,
        max_steps: int = 8,
    ) -> None:
        self.llama = llama
        self.sampling = sampling
        self.parse_text = parse_text
        self.max_steps = max_steps
        self.name = "plain-parse" if parse_text else "plain"
        self.log: Callable[[str], None] | None = None  # progress lines (--verbose)

    def warm(self, world: World, task: Task) -> None:
        """Evaluate the system prompt and tools once (llama-cpp-python reuses a cached
        prefix), as Hearth's warm-up does, so seconds per task compare like with like."""
        tools = [spec.to_openai() for spec in offline_registry(world).specs()]
        messages = [
            {"role": "system", "content": PLAIN_SYSTEM_PROMPT},
            {"role": "user", "content": "…"},
        ]
        self.llama.create_chat_completion(messages=messages, tools=tools, max_tokens=1)

    def run(self, world: World, task: Task) -> Transcript:
        registry = offline_registry(world)
        tools = [spec.to_openai() for spec in registry.specs()]
        system = f"{PLAIN_SYSTEM_PROMPT} {today_note(NOW)}"
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
        out = Transcript()
        for turn in task.turns:
            # The same sending time Hearth gives the model, in the same place.
            messages.append({"role": "user", "content": turn.text + clock_note(turn.text, NOW)})
            answer, reason = "", "step_limit"
            for _ in range(self.max_steps):
                out.steps += 1
                response = self.llama.create_chat_completion(
                    messages=messages,
                    tools=tools,
                    tool_choice="auto",
                    temperature=self.sampling.temperature,
                    top_p=self.sampling.top_p,
                    top_k=self.sampling.top_k,
                    min_p=self.sampling.min_p,
                    repeat_penalty=self.sampling.repeat_penalty,
                    max_tokens=self.sampling.max_tokens,
                )
                if self.log is not None:
                    self.log(f"  step {out.steps}: {response['choices'][0]['message']}"[:300])
                usage = response.get("usage") or {}
                out.prompt_tokens += int(usage.get("prompt_tokens", 0))
                out.generated_tokens += int(usage.get("completion_tokens", 0))
                message = response["choices"][0]["message"]
                text = message.get("content") or ""
                wanted = [
                    {"id": c.get("id", ""), **c["function"]}
                    for c in message.get("tool_calls") or []
                ]
                in_text = calls_in_text(text) if not wanted else []
                if self.parse_text and in_text:
                    wanted = [
                        {"id": f"call_{i}", "name": c["name"], "arguments": c["arguments"]}
                        for i, c in enumerate(in_text)
                    ]
                elif in_text:
                    out.text_calls += len(in_text)
                if not wanted:
                    answer, reason = text.strip(), response["choices"][0].get("finish_reason", "")
                    messages.append({"role": "assistant", "content": text})
                    break
                messages.append(
                    {
                        "role": "assistant",
                        "content": text,
                        "tool_calls": [
                            {
                                "id": c["id"],
                                "type": "function",
                                "function": {
                                    "name": c["name"],
                                    "arguments": c["arguments"]
                                    if isinstance(c["arguments"], str)
                                    else json.dumps(c["arguments"]),
                                },
                            }
                            for c in wanted
                        ],
                    }
                )
                for call in wanted:
                    result, status, arguments = self._run_call(registry, call)
                    out.calls.append(
                        {"name": call["name"], "arguments": arguments, "status": status}
                    )
                    messages.append(
                        {
                            "role": "tool",
                            "tool_call_id": call["id"],
                            "name": call["name"],
                            "content": result,
                        }
                    )
            out.answers.append(answer)
            out.stop_reasons.append(reason)
        return out

    @staticmethod
    def _run_call(registry: Registry, call: dict[str, Any]) -> tuple[str, str, Any]:
        """Run one call as a plain app would: straight into the tool, errors as text."""
        arguments: Any = call["arguments"]
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments or "{}")
            except json.JSONDecodeError:
                return "Error: the arguments are not JSON.", "error", arguments
        tool = registry.get(call["name"])
        if tool is None or not isinstance(arguments, dict):
            return f"Error: unknown tool {call['name']}.", "error", arguments
        try:
            return tool.handler(arguments).for_model(), "ok", arguments
        except ToolFailed as exc:
            return f"Error: {exc}", "error", arguments
        except Exception as exc:  # a plain loop passes any failure back as text
            return f"Error: {type(exc).__name__}: {exc}", "error", arguments


def timed(function: Callable[[], Transcript]) -> tuple[Transcript, float]:
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started
