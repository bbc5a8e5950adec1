"""Listens on the accessibility bus, as a screen reader does, for announcements.

Run by Debian's own python3 (pyatspi is not in the project's venv): writes each
`object:announcement` as a JSON line to argv[1], touches argv[2] once it listens, and stops
after argv[3] announcements or 60 s.
"""

import json
import sys
import threading
from pathlib import Path

import pyatspi

out, ready, wanted = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
heard = []


def on_event(event):
    heard.append({"message": str(event.any_data), "politeness": event.detail1})
    out.write_text("".join(json.dumps(line) + "\n" for line in heard))
    if len(heard) >= wanted:
        pyatspi.Registry.stop()


pyatspi.Registry.registerEventListener(on_event, "object:announcement")
ready.touch()
deadline = threading.Timer(60, pyatspi.Registry.stop)
deadline.daemon = True  # not what keeps this process alive once it has heard enough
deadline.start()
pyatspi.Registry.start()
