"""Warming the shared prompt prefix (system prompt + tool block) after a model loads: the first
reply then computes only its own part of the prompt, on transformers and on hybrid models."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.backend import SamplingSettings
from app.llm.runtime import LocalModel

real_model = pytest.mark.real_model


def _agent(model: LocalModel, folder: Path) -> Agent:
    """An agent on `model` with nothing cached (the model fixtures are shared)."""
    model.llama.reset()
    assert model.cache is not None
    model.cache._clear_memory()
    model.cache.checkpoints.clear()
    agent = Agent(model, build_registry(folders=[folder]))
    agent.sampling = SamplingSettings(max_tokens=4, temperature=0.0)
    return agent


def _first_turn(agent: Agent) -> tuple[int, int]:
    """(prompt tokens, prompt tokens computed) of the first step of a first turn."""
    report = agent.run_turn(Conversation(), "Hello there", cancel=threading.Event())
    assert report.stats.prompt_tokens > 0
    return report.stats.prompt_tokens, report.stats.evaluated_prompt_tokens


@real_model
@pytest.mark.parametrize("which", ["smollm2", "tiny_qwen35_model"])
def test_warm_prefix_makes_the_first_turn_compute_only_its_own_part(
    which: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    model: LocalModel = request.getfixturevalue(which)
    agent = _agent(model, tmp_path)
    computed = agent.warm(Conversation(), threading.Event())
    assert computed is not None and computed > 300  # the file tools' block is long
    prompt, evaluated = _first_turn(agent)
    assert evaluated < prompt - computed + 50  # only the user's message and what follows it


@real_model
def test_cold_first_turn_computes_the_whole_prompt(smollm2: LocalModel, tmp_path: Path) -> None:
    """The baseline the warm-up improves on (same model, same prompt)."""
    prompt, evaluated = _first_turn(_agent(smollm2, tmp_path))
    assert evaluated == prompt


@real_model
def test_a_cancelled_warm_up_leaves_the_model_usable(smollm2: LocalModel, tmp_path: Path) -> None:
    agent = _agent(smollm2, tmp_path)
    cancel = threading.Event()
    cancel.set()
    assert agent.warm(Conversation(), cancel) is None
    prompt, evaluated = _first_turn(agent)
    assert 0 < evaluated <= prompt
