"""The longest stall of the Qt event loop while a reply streams at full speed in the real
window (offscreen), against the same probe on an idle window. A timer asks to fire every
millisecond; the largest gap between firings is the longest time a user's click would wait.

    python bench/gui_responsiveness.py [--json out.json]
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import _common
from _common import report
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.llm.runtime import RuntimeSettings
from app.ui.main_window import MainWindow


class Probe:
    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.gaps: list[float] = []
        self.timer = QTimer()
        self.timer.setInterval(1)
        self.timer.timeout.connect(self.tick)

    def tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.last = now

    def run(self, app: QApplication, seconds: float, until=None) -> list[float]:
        self.gaps = []
        self.last = time.perf_counter()
        self.timer.start()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline and not (until and until()):
            app.processEvents()
            time.sleep(0.0005)
        self.timer.stop()
        return self.gaps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json")
    args = parser.parse_args()
    app = QApplication([])
    window = MainWindow(_common.smollm2(), RuntimeSettings(n_ctx=4096, seed=5))
    window.worker.sampling.max_tokens = 300
    window.show()
    while not window.model_ready:
        app.processEvents()
        time.sleep(0.01)
    probe = Probe()
    idle = probe.run(app, 2.0)
    window.input.setPlainText("Write a long story about the sea and a lighthouse keeper.")
    window.send()
    streaming = probe.run(app, 60.0, until=lambda: not window.busy)
    tokens = window.conversation.messages[-1].content if window.conversation.messages else ""
    window.close()
    report(
        "gui_responsiveness",
        {
            "idle_longest_gap_ms": max(idle) * 1000,
            "streaming_longest_gap_ms": max(streaming) * 1000,
            "streaming_p99_gap_ms": sorted(streaming)[int(len(streaming) * 0.99)] * 1000,
            "ratio_streaming_vs_idle_longest": max(streaming) / max(idle),
            "reply_characters": len(tokens),
            "goal": "no event-loop stall over 16 ms while streaming",
        },
        args.json,
    )


if __name__ == "__main__":
    main()
