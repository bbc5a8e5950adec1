"""Intents on the real tool-calling model (Qwen2.5-Coder-0.5B): the recognition step is one
well-formed call under the grammar in any language, and a whole turn ends in words.

Which intent a 0.5B model picks for a given wording is measured by
`bench/intent_recognition.py`, not asserted here: logits differ between CPUs, and a test must
hold for every sensible sample. What every sample satisfies is asserted."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from app import clock
from app.agent.intents.catalog import BY_NAME
from app.agent.intents.recognise import grounded, recognise
from app.agent.intents.router import IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import deny_everything
from app.agent.turn.loop import Agent
from app.llm.embedded import ensure_tool_model
from app.llm.runtime import LocalModel, RuntimeSettings
from app.store.database import Database

pytestmark = pytest.mark.real_model

REQUESTS = [
    "Remind me to call the bank tomorrow at 9",
    "Was steht morgen in meinem Kalender?",
    "Ajoute un déjeuner avec Paul jeudi à midi",
    "¿Cuál es el correo de Pablo?",
    "Thanks, that's all!",
]


@pytest.fixture(scope="module")
def qwen() -> Iterator[LocalModel]:
    # The app's own context: the recognition prompt lists every intent (~4k tokens).
    model = LocalModel(ensure_tool_model(verify=False), RuntimeSettings(seed=7))
    model.load()
    yield model
    model.close()


@pytest.mark.parametrize("text", REQUESTS)
def test_recognition_is_one_intent_with_its_own_grounded_slots(qwen: LocalModel, text: str) -> None:
    got = recognise(qwen, text, threading.Event())
    assert got is not None, "the grammar forces a call to one intent"
    assert got.intent is BY_NAME[got.intent.name]
    names = {slot.name for slot in got.intent.slots}
    assert set(got.slots) <= names and set(got.dropped) <= names
    for name, value in got.slots.items():
        slot = got.intent.slot(name)
        assert slot is not None
        if slot.kind in ("when", "duration", "shift", "person"):
            assert grounded(value, text), (name, value)
    assert got.stats.generated_tokens < 200  # bounded by the grammar and max_tokens


def test_a_whole_turn_with_intents_ends_in_words_and_changes_nothing_unasked(
    qwen: LocalModel, tmp_path: Path
) -> None:
    database = Database.open(tmp_path)
    try:
        agent = Agent(qwen, build_registry(data=database), confirmer=deny_everything)
        agent.front = IntentRouter()
        with clock.frozen_at(datetime(2029, 5, 15, 9, 30).astimezone()):
            report = agent.run_turn(Conversation(), "Remind me to water the plants tomorrow at 8am")
        assert report.answer.strip()
        for call in report.calls:  # nothing ran that the gate would have asked about
            assert call.decision == "allow" or call.status == "refused", call
    finally:
        database.close()


FILE_REQUESTS = [
    "What's the name of my hotel in Lisbon?",
    "Setz Eier auf meine Einkaufsliste",
    "Écris une note courses.txt avec : pain, lait",
]


@pytest.mark.parametrize("text", FILE_REQUESTS)
def test_a_turn_about_files_ends_in_words_and_changes_no_file_unasked(
    qwen: LocalModel, tmp_path: Path, text: str
) -> None:
    """Whatever intent the model picks for a request about files: the turn ends in words,
    every file call stays inside the allowed folder, and with every dialog refused no file
    changes (a new note may be written only where the gate lets it without asking)."""
    from app.agent.gate.policy import ContextState

    home = tmp_path / "Documents"
    (home / "travel").mkdir(parents=True)
    (home / "travel" / "lisbon-itinerary.md").write_text("Hotel: Casa do Rio, Rua da Prata 12\n")
    (home / "einkaufsliste.md").write_text("- Milch\n- Brot\n")
    before = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    (tmp_path / "data").mkdir()
    database = Database.open(tmp_path / "data")
    try:
        agent = Agent(
            qwen,
            build_registry(folders=[home], data=database),
            ContextState(allowed_folders=[str(home)]),
            confirmer=deny_everything,
        )
        agent.front = IntentRouter()
        with clock.frozen_at(datetime(2029, 5, 15, 9, 30).astimezone()):
            report = agent.run_turn(Conversation(), text)
        assert report.answer.strip()
        for call in report.calls:
            assert call.decision == "allow" or call.status == "refused", call
        after = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
        assert {p: after[p] for p in before} == before  # nothing there before was changed
    finally:
        database.close()
