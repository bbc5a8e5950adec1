"""Qt helpers the GUI tests share: a window's menu entries and the GUI thread, typed (Qt's
stubs return a bare QObject for a menu and an optional application)."""

from __future__ import annotations

from PySide6.QtCore import QThread
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu


def menu_actions(window: QMainWindow, title: str = "&Settings") -> list[QAction]:
    """The entries of the window's menu called `title`, in order."""
    entry = next(a for a in window.menuBar().actions() if a.text() == title)
    menu = entry.menu()
    assert isinstance(menu, QMenu), title
    return menu.actions()


def menu_action(window: QMainWindow, text: str, title: str = "&Settings") -> QAction:
    """The entry called `text` in the window's menu called `title`."""
    return next(a for a in menu_actions(window, title) if a.text() == text)


def gui_thread() -> QThread:
    """The thread the application (and every widget) lives in."""
    app = QApplication.instance()
    assert app is not None
    return app.thread()
