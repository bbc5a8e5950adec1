"""The `ask` command as a user runs it: a new process from the checkout, for the tests that
check what the command line prints and stores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ask_process(
    data: Path, *args: str, stdin: str = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """`python -m app ask --data-dir DATA ARGS...`, finished; the developer's own
    HEARTH_DATA_DIR is left out, so the command uses `data` alone."""
    env = {k: v for k, v in os.environ.items() if k != "HEARTH_DATA_DIR"}
    return subprocess.run(
        [sys.executable, "-m", "app", "ask", "--data-dir", str(data), *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        check=False,
    )


def write_script(folder: Path, turns: list[str]) -> Path:
    """A new script file in `folder` (script0.json, script1.json, ...) that plays `turns`."""
    script = folder / f"script{len(list(folder.glob('script*.json')))}.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": turns}), encoding="utf-8")
    return script
