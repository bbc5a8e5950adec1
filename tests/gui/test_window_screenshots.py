"""The window as a person sees it, on a real X server (Xvfb): light, dark and at 2x scaling
on a 1280x800 screen (issue #19). Each run leaves a picture in test-artifacts/ and must keep
the message box, Send and Stop on the screen."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.gui.test_xvfb_screenshot import xvfb_display

pytestmark = pytest.mark.xvfb

ROOT = Path(__file__).resolve().parents[2]
__all__ = ["xvfb_display"]


@pytest.mark.parametrize(
    ("name", "mode", "scale"),
    [("light", "light", "1"), ("dark", "dark", "1"), ("scaled-2x", "light", "2")],
)
def test_the_window_on_screen(
    xvfb_display: str, tmp_path: Path, name: str, mode: str, scale: str
) -> None:
    folder = tmp_path / "Documents"
    folder.mkdir()
    (folder / "notes.txt").write_text("Meeting notes.")
    data = tmp_path / "data"
    data.mkdir()
    out = tmp_path / f"window-{name}.png"
    env = dict(
        os.environ,
        DISPLAY=xvfb_display,
        QT_QPA_PLATFORM="xcb",
        QT_SCALE_FACTOR=scale,
        HEARTH_DATA_DIR=str(data),
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.gui.screenshot_scripted",
            mode,
            str(data),
            str(folder),
            str(out),
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
    assert report["platform"] == "xcb"
    assert report["ratio"] == float(scale)
    assert "notes.txt" in report["view"]
    assert report["window_on_screen"], report
    assert report["send_on_screen"] and report["stop_on_screen"] and report["input_on_screen"]
    image = QImage(str(out))
    assert not image.isNull() and image.width() > 300
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    shutil.copyfile(out, artifacts / f"window-{name}.png")
