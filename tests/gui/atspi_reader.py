"""Read an app's accessibility tree and announcements as a screen reader does (AT-SPI).

Runs under Debian's own /usr/bin/python3 (pyatspi is not in the project's venv), inside a
private D-Bus session and on an X display:
    python3 atspi_reader.py ROLE COMMAND...
It listens for announcements, starts COMMAND (with the Qt accessibility bridge on), waits until
the command's application is registered on the accessibility bus and only then writes "show"
to its input (Qt joins the bus asynchronously: a window shown before that is announced to no
one), waits for its first window of that ROLE ("dialog"), reads the window's tree, then writes
"edit" and waits for a second announcement. It prints the tree and the announcements heard as
JSON.
Standard library and pyatspi only: no project code runs here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import pyatspi
from gi.repository import GLib

WAIT_SECONDS = 60


def walk(node: Any, depth: int = 0) -> list[dict[str, Any]]:
    """Every node under `node`: role, name, description, and whether it is showing."""
    states = node.getState()
    found = [
        {
            "depth": depth,
            "role": node.getRoleName(),
            "name": node.name,
            "description": node.description,
            "showing": states.contains(pyatspi.STATE_SHOWING),
        }
    ]
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            found += walk(child, depth + 1)
    return found


def find_application(pid: int) -> Any:
    """The accessible application of process `pid`, once its bridge has registered it."""
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is not None and app.get_process_id() == pid:
            return app
    return None


def find_window(app: Any, role: str) -> Any:
    for window in (app.getChildAtIndex(i) for i in range(app.childCount)):
        if window is not None and window.getRoleName() == role:
            return window
    return None


def tell(app: subprocess.Popen[bytes], line: str) -> None:
    assert app.stdin is not None
    app.stdin.write(f"{line}\n".encode())
    app.stdin.flush()


def main(role: str, command: list[str]) -> int:
    heard: list[str] = []
    result: dict[str, Any] = {"tree": None, "announcements": heard, "shown": False}
    pyatspi.Registry.registerEventListener(
        lambda event: heard.append(str(event.any_data)), "object:announcement"
    )
    env = dict(os.environ, QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_QPA_PLATFORM="xcb")
    app = subprocess.Popen(command, env=env, stdin=subprocess.PIPE)
    deadline = time.monotonic() + WAIT_SECONDS

    def poll() -> bool:
        accessible = find_application(app.pid) if result["tree"] is None else None
        if accessible is not None and not result["shown"]:
            tell(app, "show")
            result["shown"] = True
        window = find_window(accessible, role) if accessible is not None else None
        if window is not None:
            result["tree"] = walk(window)
            tell(app, "edit")
            # Announcements travel beside the window and the edit: give them a moment more.
            result["news_by"] = time.monotonic() + 10
        done = result["tree"] is not None and (
            len(heard) >= 2 or time.monotonic() > result["news_by"]
        )
        if done or time.monotonic() > deadline or app.poll() is not None:
            pyatspi.Registry.stop()
            return False
        return True

    GLib.timeout_add(200, poll)
    pyatspi.Registry.start()
    if app.stdin is not None:
        app.stdin.close()  # the app quits when its input closes
    app.wait(30)
    result.pop("news_by", None)
    result.pop("shown")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
