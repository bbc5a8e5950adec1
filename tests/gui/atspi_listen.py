"""Listens on the accessibility bus, as a screen reader does, for announcements.

Run by Debian's own python3 (pyatspi is not in the project's venv): once the application
named argv[4] is on the bus (its bridge is up, so nothing it says is lost), touches argv[2];
writes each `object:announcement` as a JSON line to argv[1]; stops after argv[3] of them or
60 s. Standard library and pyatspi only: no project code runs here.
"""

import json
import sys
import threading
from pathlib import Path

import pyatspi
from gi.repository import GLib

out, ready, wanted, name = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
heard: list[str] = []


def on_event(event):
    heard.append({"message": str(event.any_data), "politeness": event.detail1})
    out.write_text("".join(json.dumps(line) + "\n" for line in heard))
    if len(heard) >= wanted:
        pyatspi.Registry.stop()


def app_is_on_the_bus():
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is not None and app.name == name:
            ready.touch()
            return False
    return True


pyatspi.Registry.registerEventListener(on_event, "object:announcement")
GLib.timeout_add(100, app_is_on_the_bus)
deadline = threading.Timer(60, pyatspi.Registry.stop)
deadline.daemon = True  # not what keeps this process alive once it has heard enough
deadline.start()
pyatspi.Registry.start()
