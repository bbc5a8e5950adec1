"""Cycles holding Qt objects are freed on the GUI thread, never on a worker that happens to
allocate (app/ui/gui_thread_gc.py). Seen for real: a test run aborted ("Fatal Python error:
Aborted", "Garbage-collecting") on the accounts dialog's database thread."""

from __future__ import annotations

import gc
import threading
import weakref

from PySide6.QtCore import QTimer

from app.ui.gui_thread_gc import GuiThreadCollector


class _Cycle:
    """A Qt object in a reference cycle: only the cycle collector can free it."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.itself = self


def _allocate_on_a_worker() -> list[list[object]]:
    """What a busy worker does: allocates far past every generation's threshold (and keeps it,
    as the automatic collector counts what is allocated and not yet freed)."""
    kept: list[list[object]] = []
    worker = threading.Thread(target=lambda: kept.extend([] for _ in range(300_000)))
    worker.start()
    worker.join(60)
    return kept


def test_a_worker_that_allocates_never_frees_the_gui_threads_qt_objects(qtbot) -> None:
    collector = GuiThreadCollector(interval_ms=50)
    collector.start()
    try:
        assert not gc.isenabled()
        freed_on: list[str] = []
        cycle = _Cycle()
        weakref.finalize(cycle, lambda: freed_on.append(threading.current_thread().name))
        del cycle
        allocated = _allocate_on_a_worker()
        assert freed_on == []  # the worker's allocations collected nothing
        qtbot.waitUntil(lambda: bool(freed_on), timeout=10_000)
        assert freed_on == [threading.main_thread().name]
        del allocated
    finally:
        collector.stop()


def test_stopping_restores_automatic_collection(qtbot) -> None:
    gc.enable()  # as in the app before it starts (the test fixture's own collector aside)
    collector = GuiThreadCollector()
    collector.start()
    collector.start()  # a second start changes nothing
    assert not gc.isenabled()
    collector.stop()
    assert gc.isenabled()
    gc.disable()  # back as the fixture left it: it restores automatic collection itself


def test_it_collects_only_what_is_due(qtbot) -> None:
    collector = GuiThreadCollector()
    gc.collect()
    assert collector.collect_due() == 0  # nothing past a threshold: nothing run
    cycle = _Cycle()
    del cycle
    threshold = gc.get_threshold()[0]
    kept: list[list[object]] = [[] for _ in range(threshold + 10)]
    assert collector.collect_due() >= 2  # the cycle and its dict at least
    del kept
