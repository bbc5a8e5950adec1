"""Read an app's accessibility tree and announcements as a screen reader does (AT-SPI).

Runs under Debian's own /usr/bin/python3 (pyatspi is not in the project's venv), inside a
private D-Bus session and on an X display:
    python3 atspi_reader.py ROLE COMMAND...
It listens for announcements, starts COMMAND (with the Qt accessibility bridge on), waits for
its first window of that ROLE ("dialog"), reads the window's tree, then writes "edit" to the
command's input and waits for a second announcement. It prints the tree and the announcements
heard as JSON.
Standard library and pyatspi only: no project code runs here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import pyatspi  # type: ignore[import-not-found]
from gi.repository import GLib  # type: ignore[import-not-found]

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


def find_window(role: str) -> Any:
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        for window in (app.getChildAtIndex(i) for i in range(app.childCount if app else 0)):
            if window is not None and window.getRoleName() == role:
                return window
    return None


def main(role: str, command: list[str]) -> int:
    heard: list[str] = []
    result: dict[str, Any] = {"tree": None, "announcements": heard}
    pyatspi.Registry.registerEventListener(
        lambda event: heard.append(str(event.any_data)), "object:announcement"
    )
    env = dict(os.environ, QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_QPA_PLATFORM="xcb")
    app = subprocess.Popen(command, env=env, stdin=subprocess.PIPE)
    deadline = time.monotonic() + WAIT_SECONDS

    def poll() -> bool:
        window = find_window(role) if result["tree"] is None else None
        if window is not None and app.stdin is not None:
            result["tree"] = walk(window)
            app.stdin.write(b"edit\n")
            app.stdin.flush()
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
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
