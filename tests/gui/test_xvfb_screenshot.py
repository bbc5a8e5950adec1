"""Open the real window on an X server (Xvfb), have one exchange, keep a screenshot of it in
test-artifacts/chat-window.png so anyone can look at what a user sees."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

pytestmark = [pytest.mark.xvfb, pytest.mark.real_model]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def xvfb_display() -> Iterator[str]:
    if not shutil.which("Xvfb"):
        pytest.fail("Xvfb is not installed: run packaging/linux/system-deps.sh --test")
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        number = pipe.readline().strip()
    try:
        assert number, "Xvfb did not report a display"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def test_real_window_screenshot(xvfb_display: str, smollm2_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "chat-window.png"
    env = dict(
        os.environ,
        DISPLAY=xvfb_display,
        QT_QPA_PLATFORM="xcb",
        HEARTH_DATA_DIR=str(tmp_path / "data"),
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.gui.screenshot_app",
            str(smollm2_path),
            str(out),
            "Hello! Please introduce yourself in one sentence.",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["platform"] == "xcb"  # a real X11 window, not offscreen
    assert "You: Hello! Please introduce yourself" in report["view"]
    assert "Hearth:" in report["view"]
    assert "words a second" in report["status"]
    image = QImage(str(out))
    assert image.width() >= 800 and image.height() >= 600
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 10, "the screenshot is blank"
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    shutil.copyfile(out, artifacts / "chat-window.png")
