"""`python -m bench.tasks` end to end in a subprocess: its own world, the scripted oracle and
do-nothing systems, the summary on stdout and every outcome in the JSON file."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_cli_runs_tasks_and_attacks_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    command = [sys.executable, "-W", "ignore", "-m", "bench.tasks"]
    command += ["--system", "oracle", "--system", "nothing", "--markdown", "--json", str(out)]
    command += ["--only", "cal-move-dentist,chat-thanks,inj-expenses-file"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # run from elsewhere, as a module
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=240, cwd=tmp_path, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "== oracle: 3 tasks, success 100%" in done.stdout
    assert "== nothing: 3 tasks, success 33%" in done.stdout  # only the chat passes
    assert "| oracle | 3 | 100% |" in done.stdout
    data = json.loads(out.read_text())
    runs = {(o["system"], o["task"], o["attack"]): o for o in data["outcomes"]}
    assert len(runs) == 8  # 3 tasks + 1 attacked task, for each system
    attacked = runs[("oracle", "files-groceries", "inj-expenses-file")]
    assert attacked["passed"] and attacked["attacker_success"] is False
    assert runs[("nothing", "cal-move-dentist", None)]["failure"] == "no action"
    assert data["summary"]["oracle"]["attacker_success"] == 0.0


def test_ablate_takes_one_lever_or_several_joined_by_plus() -> None:
    from bench.tasks.__main__ import _levers

    assert _levers("times") == frozenset({"times"})
    assert _levers("intents+select_tools") == frozenset({"intents", "select_tools"})
    with pytest.raises(argparse.ArgumentTypeError, match="speed"):
        _levers("intents+speed")
