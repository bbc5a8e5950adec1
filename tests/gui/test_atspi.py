"""What a screen reader hears of the main window: the real window on an X server (Xvfb) with
Qt's AT-SPI bridge on a private D-Bus session, its accessibility tree read over the
accessibility bus as Orca would read it (issue #19). The status line is read with its words,
and every button has a name. (The confirmation dialog: test_atspi_confirm.py.)"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.gui.atspi_tree import Node, accessibility_bus, applications, read_node
from tests.gui.test_xvfb_screenshot import xvfb_display

pytestmark = pytest.mark.xvfb

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path("/usr/libexec/at-spi-bus-launcher")
__all__ = ["xvfb_display"]


def _wait_line(process: subprocess.Popen, seconds: float) -> str:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], seconds)
    return process.stdout.readline() if ready else ""


@pytest.fixture
def session_bus() -> Iterator[str]:
    """A private D-Bus session with the accessibility bus launcher on it."""
    if not shutil.which("dbus-daemon") or not LAUNCHER.exists():
        pytest.fail("dbus and at-spi2-core are needed: run packaging/linux/system-deps.sh --test")
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    address = _wait_line(daemon, 10).strip()
    assert address, "dbus-daemon did not start"
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address)
    launcher = subprocess.Popen(
        [str(LAUNCHER), "--launch-immediately"], env=env, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 20
        os.environ["DBUS_SESSION_BUS_ADDRESS"], before = (
            address,
            os.environ.get("DBUS_SESSION_BUS_ADDRESS"),
        )
        try:
            while True:
                try:
                    accessibility_bus().close()
                    break
                except Exception:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            yield address
        finally:
            if before is None:
                os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
            else:
                os.environ["DBUS_SESSION_BUS_ADDRESS"] = before
    finally:
        launcher.terminate()
        launcher.wait(10)
        daemon.terminate()
        daemon.wait(10)


def _hearth_tree(timeout: float = 30) -> Node:
    deadline = time.monotonic() + timeout
    while True:
        with accessibility_bus() as bus:
            for name, ref in applications(bus):
                if name == "Hearth":
                    return read_node(bus, ref)
        assert time.monotonic() < deadline, "Hearth never appeared on the accessibility bus"
        time.sleep(0.3)


def test_a_screen_reader_hears_the_status_and_the_confirmations_source(
    xvfb_display: str, session_bus: str, tmp_path: Path
) -> None:
    folder = tmp_path / "Documents"
    folder.mkdir()
    (folder / "notes.txt").write_text("Meeting notes.")
    data = tmp_path / "data"
    data.mkdir()
    env = dict(
        os.environ,
        DISPLAY=xvfb_display,
        QT_QPA_PLATFORM="xcb",
        QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
        QT_ACCESSIBILITY="1",
        DBUS_SESSION_BUS_ADDRESS=session_bus,
        HEARTH_DATA_DIR=str(data),
    )
    app = subprocess.Popen(
        [sys.executable, "-m", "tests.gui.atspi_app", str(data), str(folder)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = _wait_line(app, 90)
        if not line:
            app.kill()
            assert app.stderr is not None
            pytest.fail(f"the window never showed its dialog: {app.stderr.read()[-2000:]}")
        title = json.loads(line)["dialog"]
        tree = _hearth_tree()
    finally:
        assert app.stdin is not None
        app.stdin.close()
        try:
            app.wait(30)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait(10)
    nodes = list(tree.walk())
    spoken = [node.words() for node in nodes]
    # The status line is read with its words, not as a fixed "Status".
    assert any("waiting for your answer" in words for words in spoken), spoken
    # The confirmation itself, as a screen reader hears it: tests/gui/test_atspi_confirm.py.
    assert any(node.role == "dialog" and node.name == title for node in nodes)
    # Every button can be named by a screen reader.
    unnamed = [n for n in nodes if n.role == "push button" and not n.name.strip()]
    assert unnamed == []
