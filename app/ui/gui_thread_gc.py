"""Python's cycle collector, run only on the GUI thread.

CPython collects reference cycles in whichever thread happens to allocate when a generation
passes its threshold: often a worker (the model, a mail fetch, a database migration). If the
cycles it frees hold Qt objects made on the GUI thread, such as a closed dialog and the lambdas
connected to it, their C++ destructors then run on that worker, and Qt may abort the whole
process. So automatic collection is switched off and a timer on the GUI thread collects
instead, by the same thresholds the collector uses itself.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 1000
"""How often the GUI thread looks: often enough that garbage never piles up for long."""


class GuiThreadCollector(QObject):
    """Switches automatic collection off while started and collects on its own timer."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.collect_due)
        self._was_enabled = False

    def start(self) -> None:
        if self._timer.isActive():
            return
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        """Back to automatic collection (if it was on before `start`)."""
        self._timer.stop()
        if self._was_enabled:
            gc.enable()

    def collect_due(self) -> int:
        """Collect the oldest generation whose count passed its threshold, as the automatic
        collector would have; returns how many objects were unreachable."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if 0 < thresholds[generation] < counts[generation]:
                return gc.collect(generation)
        return 0


def collect_on_gui_thread(parent: QObject) -> GuiThreadCollector:
    """Start collecting on `parent`'s (the GUI) thread for as long as `parent` lives."""
    collector = GuiThreadCollector(parent)
    collector.start()
    return collector
