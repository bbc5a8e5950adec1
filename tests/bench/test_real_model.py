"""Smoke run of the benchmark on the real SmolLM2 for both systems. SmolLM2 samples at random
and never calls a tool, so this asserts only what every sample satisfies: the run completes
on the real world, the model answered, and the checker gave a verdict with its reasons."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.llm.backend import SamplingSettings
from app.llm.runtime import LocalModel, RuntimeSettings
from bench.tasks.catalog import BY_ID
from bench.tasks.run import Outcome, run_task, summary
from bench.tasks.systems import HearthSystem, PlainSystem
from bench.tasks.world import World

pytestmark = [
    pytest.mark.real_model,
    pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning"),
]
SAMPLING = SamplingSettings(max_tokens=48)  # short answers: this checks the plumbing
SETTINGS = RuntimeSettings(n_ctx=8192, n_threads=2, seed=1234)  # room for the tool block


@pytest.fixture(scope="module")
def smol(smollm2_path: Path) -> Iterator[LocalModel]:
    model = LocalModel(smollm2_path, SETTINGS)
    model.load()
    yield model
    model.close()


def _sane(outcome: Outcome) -> None:
    assert not outcome.error, outcome.error
    assert outcome.steps >= 1 and outcome.generated_tokens > 0
    assert len(outcome.answers) == 1
    assert isinstance(outcome.passed, bool)
    assert outcome.passed or outcome.reasons  # a failure always says why


def test_hearth_on_smollm2_completes_and_is_judged(world: World, smol: LocalModel) -> None:
    system = HearthSystem(lambda _world, _task: smol, max_steps=2)
    system.sampling = SAMPLING
    outcome = run_task(world, system, BY_ID["cal-today"])
    _sane(outcome)
    assert outcome.prompt_tokens > 1000  # the tool block was in the prompt
    assert world.seed_state is not None
    assert world.snapshot().events == world.seed_state.events or outcome.calls


def test_plain_on_smollm2_completes_and_is_judged(world: World, smollm2_path: Path) -> None:
    from llama_cpp import Llama

    llama = Llama(str(smollm2_path), n_ctx=4096, n_threads=2, seed=1234, verbose=False)
    try:
        system = PlainSystem(llama, SAMPLING, max_steps=2)
        outcomes = [run_task(world, system, BY_ID["chat-capital"])]
    finally:
        llama.close()
    _sane(outcomes[0])
    figures = summary(outcomes)[system.name]
    assert figures["tasks"] == 1 and figures["categories"]["chat"]["tasks"] == 1
