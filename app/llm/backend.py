"""What the agent needs from a model: one step (the model's answer to the conversation so far),
streamed as events, parsed into text, reasoning and validated tool calls.

Three backends implement it: the in-process llama.cpp runtime, an OpenAI-compatible server,
and a scripted backend that replays raw model outputs (tests, demos, bug reports).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from app.llm.tools import CallProblem, ToolCall, ToolSpec


@dataclass
class SamplingSettings:
    temperature: float = 0.7
    top_k: int = 40
    top_p: float = 0.9
    min_p: float = 0.05
    repeat_penalty: float = 1.1
    max_tokens: int = 1024
    thinking_budget: int = 512  # reasoning tokens before `</think>` is forced


StopReason = Literal["end", "cancelled", "max_tokens", "context_full", "repetition"]


@dataclass
class GenerationStats:
    prompt_tokens: int = 0
    evaluated_prompt_tokens: int = 0  # prompt tokens that had to be computed (not cached)
    generated_tokens: int = 0
    prompt_seconds: float = 0.0
    generate_seconds: float = 0.0
    stop_reason: StopReason | Literal[""] = ""  # "": still running

    @property
    def tokens_per_second(self) -> float:
        if self.generate_seconds <= 0 or self.generated_tokens == 0:
            return 0.0
        return self.generated_tokens / self.generate_seconds


ToolChoice = Literal["auto", "required", "none"]


@dataclass
class StepRequest:
    messages: list[dict[str, Any]]  # OpenAI-style, system message first
    tools: list[ToolSpec] = field(default_factory=list)
    sampling: SamplingSettings = field(default_factory=SamplingSettings)
    enable_thinking: bool = False
    tool_choice: ToolChoice = "auto"
    # False: tool calls are sampled freely (still parsed and validated); evals compare both
    constrain_calls: bool = True
    # With tool_choice="required": the call must be to this tool. The prompt still lists every
    # tool, so it shares its evaluated prefix with the step that chose the tool.
    only_call: str | None = None
    # How many leading messages every request with this prompt shares (the system prompt, or
    # worked examples as turns after it): their end is kept as a checkpoint. 0: a prompt
    # seldom asked again, of which nothing is kept.
    shared_messages: int = 1


# What an earlier turn's tool result says when the conversation no longer fits the model's
# memory: the assistant's answers of those turns say what mattered in them.
EARLIER_RESULT_LEFT_OUT = "(an earlier result, left out: the conversation is long)"


def without_earlier_results(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`messages` with the tool results of turns before the latest user message left out (a
    calendar listed in turn one takes thousands of tokens a question in turn two does not
    need); the latest turn's results stay."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=0)
    return [
        {**m, "content": EARLIER_RESULT_LEFT_OUT}
        if i < last_user and m.get("role") == "tool"
        else m
        for i, m in enumerate(messages)
    ]


@dataclass
class StepResult:
    text: str = ""
    reasoning: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    problems: list[CallProblem] = field(default_factory=list)
    stats: GenerationStats = field(default_factory=GenerationStats)
    raw: str = ""  # the model's output exactly as generated

    def collect(self, events: list[Any], on_event: Callable[[StreamEvent], None]) -> None:
        """Add parser events to the result, streaming text and reasoning on as they come."""
        from app.llm.formats.events import CallFailed, CallParsed, ReasoningDelta, TextDelta

        for event in events:
            if isinstance(event, TextDelta):
                self.text += event.text
                on_event(StreamEvent("text", event.text))
            elif isinstance(event, ReasoningDelta):
                self.reasoning += event.text
                on_event(StreamEvent("reasoning", event.text))
            elif isinstance(event, CallParsed):
                self.calls.append(event.call)
            elif isinstance(event, CallFailed):
                self.problems.append(event.problem)


@dataclass(frozen=True)
class StreamEvent:
    kind: Literal["text", "reasoning"]
    text: str


@runtime_checkable
class ScoresReplies(Protocol):
    """A backend that can say how likely each of a few whole replies is as the answer to a
    request when only those may be written: log-probabilities that add up to one."""

    def score_replies(
        self, request: StepRequest, replies: Sequence[str], cancel: threading.Event
    ) -> dict[str, float] | None: ...


class ModelBackend(Protocol):
    @property
    def name(self) -> str: ...

    def step(
        self,
        request: StepRequest,
        on_event: Callable[[StreamEvent], None],
        cancel: threading.Event,
    ) -> StepResult: ...
