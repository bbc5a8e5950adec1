"""summarise_spending through the agent and the gate, with a scripted model and statements
written by the connector's tests (real files, the real files connector)."""

from __future__ import annotations

from pathlib import Path

from app.agent.gate.policy import ContextState
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import deny_everything
from app.agent.turn.loop import Agent
from tests.connectors.test_statements import NOVEMBER, german_sparkasse
from tests.scripting import call, script


def _run(folder: Path, *turns: str):
    context = ContextState(allowed_folders=[str(folder)])
    agent = Agent(script(*turns), build_registry(folders=[folder]), context, deny_everything)
    return agent.run_turn(Conversation(), "How much did I spend in November?")


def test_spending_is_summed_without_asking_and_the_account_stays_masked(tmp_path: Path) -> None:
    german_sparkasse(tmp_path, NOVEMBER)
    report = _run(tmp_path, call("summarise_spending", path=".", month="2026-11"), "2,238.01 EUR.")
    [record] = report.calls
    assert (record.decision, record.status) == ("allow", "ok"), record.result
    result = str(record.result)
    assert "'spent': '2238.01'" in result and "'currency': 'EUR'" in result
    assert "••••3000" in result and "0532013000" not in result


def test_what_the_bank_wrote_makes_a_later_change_ask(tmp_path: Path) -> None:
    german_sparkasse(tmp_path, NOVEMBER)
    report = _run(
        tmp_path,
        call("summarise_spending", path="giro.csv"),
        call("write_file", path="budget.txt", content="Rent 980"),
        "Saved.",
    )
    summed, written = report.calls
    assert summed.status == "ok"
    assert (written.decision, written.answer) == ("confirm", "denied")
    assert not (tmp_path / "budget.txt").exists()


def test_a_statement_outside_the_folders_is_refused(tmp_path: Path) -> None:
    report = _run(tmp_path, call("summarise_spending", path="/etc/bank.csv"), "No.")
    assert report.calls[0].decision == "deny"
