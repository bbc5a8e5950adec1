"""What a screen reader hears: the chat view's announcements read back from the real
accessibility bus (AT-SPI, in a private D-Bus session, on Xvfb), by a listener in another
process, as Orca would receive them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gui.atspi_announce_app import NAME

pytestmark = pytest.mark.xvfb

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")
SYSTEM_PYTHON = Path("/usr/bin/python3")


def _missing() -> str | None:
    for tool in ("xvfb-run", "dbus-run-session"):
        if not shutil.which(tool):
            return tool
    if not LAUNCHER.exists():
        return "at-spi2-core"
    probe = subprocess.run([str(SYSTEM_PYTHON), "-c", "import pyatspi"], capture_output=True)
    return "python3-pyatspi" if probe.returncode else None


def test_a_finished_reply_and_an_error_reach_the_accessibility_bus(tmp_path: Path) -> None:
    missing = _missing()
    if missing:
        pytest.skip(f"{missing} is not installed (Debian: at-spi2-core python3-pyatspi xvfb)")
    heard, ready = tmp_path / "heard.jsonl", tmp_path / "ready"
    script = (
        f"{LAUNCHER} --launch-immediately & "
        f"{SYSTEM_PYTHON} {ROOT / 'tests/gui/atspi_listen.py'} {heard} {ready} 2 {NAME} & "
        f"QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 QT_QPA_PLATFORM=xcb "
        f"{sys.executable} -m tests.gui.atspi_announce_app {ready} {heard} 2; wait %2"
    )
    run = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "dbus-run-session", "bash", "-c", script],
        cwd=ROOT,
        capture_output=True,
        timeout=180,
        text=True,
    )
    lines = heard.read_text().splitlines() if heard.exists() else []
    assert [json.loads(line) for line in lines] == [
        {"message": "Hearth replied: The answer is 42.", "politeness": 1},  # polite
        {"message": "The model could not be loaded.", "politeness": 2},  # assertive
    ], run.stderr[-3000:]
