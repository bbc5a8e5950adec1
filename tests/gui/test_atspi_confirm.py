"""The confirmation dialog as a screen reader meets it: the AT-SPI tree over a real X server
and a private accessibility bus (issue #19, S2 and S7). Labels are read with their text (the
provenance line says which file), the dialog by its title; its opening is announced, and so
is the preview of an edit (pressing Enter in a field must not seem to do nothing)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.xvfb

ROOT = Path(__file__).resolve().parents[2]
READER = Path(__file__).with_name("atspi_reader.py")
TITLE = "Hearth asks before it acts"
SYSTEM_PYTHON = "/usr/bin/python3"


def _screen_reader_view() -> dict[str, Any]:
    for tool in ("xvfb-run", "dbus-run-session"):
        if not shutil.which(tool):
            pytest.fail(f"{tool} is not installed: run packaging/linux/system-deps.sh --test")
    has_pyatspi = subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True)
    if has_pyatspi.returncode != 0:
        pytest.fail("pyatspi is not installed: run packaging/linux/system-deps.sh --test")
    command = [
        "xvfb-run", "-a", "-s", "-screen 0 1280x800x24",
        "dbus-run-session", "--",
        SYSTEM_PYTHON, str(READER), "dialog",
        sys.executable, "-m", "tests.gui.confirm_dialog_app",
    ]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert lines, f"the reader printed nothing: {done.stderr[-2000:]}"
    view: dict[str, Any] = json.loads(lines[-1])
    assert view["tree"], "no dialog reached the accessibility bus"
    return view


def test_a_screen_reader_hears_the_dialog_with_its_content() -> None:
    view = _screen_reader_view()
    tree = view["tree"]
    assert (tree[0]["role"], tree[0]["name"]) == ("dialog", TITLE)
    shown = [node for node in tree if node["showing"]]
    labels = {node["name"]: node["description"] for node in shown if node["role"] == "label"}
    assert labels["⚠ Proposed after reading the file notes.txt."] == (
        "Where this request came from"
    )
    assert "Replace the text of notes.txt" in labels
    assert "• This action deletes or overwrites something" in labels
    buttons = [node["name"] for node in shown if node["role"] == "push button"]
    assert buttons == ["Allow once", "Edit…", "Deny"]
    assert view["announcements"] == [
        f"{TITLE}: Replace the text of notes.txt",
        "The preview shows your edit: Replace the text of summary.txt",
    ]
