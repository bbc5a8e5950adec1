"""Cold start to a usable window (model loaded, input ready), against a bare Qt window shown
by the same interpreter, offscreen. Also the app's peak memory above the model file's size.

    python bench/startup.py [--runs 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import _common
from _common import ROOT, interleave, median, report

PROBE = r"""
import sys, resource
from PySide6.QtWidgets import QApplication, QMainWindow
from PySide6.QtCore import QTimer
app = QApplication(sys.argv[:1])
if sys.argv[1] == "bare":
    window = QMainWindow(); window.show()
    QTimer.singleShot(0, lambda: (print("READY", flush=True), app.quit()))
else:
    from pathlib import Path
    from app.ui.main_window import MainWindow
    window = MainWindow(Path(sys.argv[2]), data_dir=Path(sys.argv[3]))
    window.show()
    def check():
        if window.model_ready:
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            print("READY", rss, flush=True)
            window.close(); app.quit()
    timer = QTimer(); timer.timeout.connect(check); timer.start(5)
app.exec()
"""


def launch(kind: str, model: Path, data: Path, memory: list[int]) -> float:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-c", PROBE, kind, str(model), str(data)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("READY"):
            elapsed = time.perf_counter() - started
            parts = line.split()
            if len(parts) > 1:
                memory.append(int(parts[1]))
            break
    else:
        raise RuntimeError(f"the {kind} probe never became ready")
    process.wait(30)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    import tempfile

    model = _common.smollm2()
    memory: list[int] = []
    with tempfile.TemporaryDirectory() as data:
        times = interleave(
            args.runs,
            bare=lambda: launch("bare", model, Path(data), memory),
            app=lambda: launch("app", model, Path(data), memory),
        )
    size = model.stat().st_size
    report(
        "startup",
        {
            "model": str(model),
            "bare_qt_window_s": median(times["bare"]),
            "hearth_usable_window_s": median(times["app"]),
            "ratio_app_vs_bare_window": median(times["app"]) / median(times["bare"]),
            "peak_rss_mb": max(memory) / 1e6,
            "model_file_mb": size / 1e6,
            "peak_rss_above_model_mb": (max(memory) - size) / 1e6,
            "samples": times,
        },
        args.json,
    )


if __name__ == "__main__":
    main()
