"""Guards the Qt binding itself: PySide6 6.12.0 on Python 3.11 released a reference to None
on every call of a method returning void, and the interpreter aborted at exit
("none_dealloc" / "bool_dealloc"). We pin a version that does not; this test keeps it so."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QLabel, QPushButton


def test_void_methods_keep_reference_counts(qtbot) -> None:
    button = QPushButton("x")
    label = QLabel()
    qtbot.addWidget(button)
    qtbot.addWidget(label)
    before = sys.getrefcount(None), sys.getrefcount(True), sys.getrefcount(False)
    for _ in range(2000):
        button.setEnabled(False)
        button.setEnabled(True)
        label.setText("text")
        label.setVisible(False)
    after = sys.getrefcount(None), sys.getrefcount(True), sys.getrefcount(False)
    # Unrelated code may take or drop a few references meanwhile; a leak per call loses 8000.
    assert all(a - b > -100 for a, b in zip(after, before, strict=True)), (before, after)
