"""Every branch of the policy gate is exercised by the gate's own tests.

The gate is the security boundary, so a branch no test reaches is a rule nobody has seen
work (qutebrowser keeps such a list of PERFECT_FILES). This runs the gate's example tests again
in a child process under coverage and fails below 100% of lines and branches, naming what was
missed. The property tests (`property_based`, hundreds of random examples each) are left out:
every branch must be reached by a test that names its case, so the figure cannot depend on
which examples were drawn (they took 45 of this check's 54 seconds; the suite runs them anyway).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

GATE_MODULES = (
    "app.agent.gate.policy",
    "app.agent.gate.rules",
    "app.agent.gate.arguments",
    "app.agent.gate.paths",
    "app.agent.gate.urls",
    "app.agent.gate.approvals",
    "app.agent.tools.declarations",
)
GATE_TESTS = (
    "tests/agent/test_policy.py",
    "tests/agent/test_approvals.py",
    "tests/agent/test_declarations.py",
    "tests/agent/test_gate_edges.py",
    "tests/agent/test_standing.py",
    "tests/agent/test_wording.py",  # the declarations' titles
)


@pytest.mark.timeout(600)  # the gate's tests once more, under coverage, on a busy machine
def test_the_gate_is_fully_covered_by_its_tests(tmp_path: Path) -> None:
    pytest.importorskip("pytest_cov", reason="pytest-cov is in the test extra")
    command = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
        "-m", "not property_based", "--hypothesis-seed=0", "--hypothesis-profile=clean",
        "--no-header", "--cov-branch",
        "--cov-report=term-missing:skip-covered",
        "--cov-fail-under=100", f"--basetemp={tmp_path / 'run'}",
        *(f"--cov={module}" for module in GATE_MODULES), *GATE_TESTS,
    ]  # fmt: skip
    environment = {**os.environ, "COVERAGE_FILE": str(tmp_path / "coverage")}
    run = subprocess.run(
        command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=500
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
