"""Tell screen readers about something that appeared without the user moving focus.

Qt 6.8 and later send a QAccessibleAnnouncementEvent to the platform bridge (AT-SPI on Linux,
where Orca speaks it); polite waits for the reader to finish, assertive interrupts it (errors).
Every announcement goes through `send`, one place a test can watch, since Qt gives no way to
read back what the bridge was told.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

# A screen reader reads the whole message; a long reply is cut here and the rest stays in view.
LONGEST = 1000


def announce(source: QObject, message: str, *, assertive: bool = False) -> None:
    message = " ".join(message.split())
    if len(message) > LONGEST:
        message = message[: LONGEST - 1] + "…"
    if not message:
        return
    event = QAccessibleAnnouncementEvent(source, message)
    politeness = QAccessible.AnnouncementPoliteness
    event.setPoliteness(politeness.Assertive if assertive else politeness.Polite)
    send(event)


def send(event: QAccessibleAnnouncementEvent) -> None:
    QAccessible.updateAccessibility(event)
