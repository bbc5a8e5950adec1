"""A real freedesktop notification server for the tests: it owns
org.freedesktop.Notifications on a session bus (the one `secret_service` starts), answers
GetCapabilities and Notify as GNOME's does, and records what it was asked to show."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from jeepney import HeaderFields, MessageType, new_error, new_method_return
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import DBusConnection, open_dbus_connection

SERVICE = "org.freedesktop.Notifications"


@dataclass
class NotificationServer:
    capabilities: tuple[str, ...] = ("body", "body-markup")
    shown: list[tuple[str, str, str]] = field(default_factory=list)  # app, summary, body
    refuse: bool = False  # answer Notify with a D-Bus error

    def serve(self, connection: DBusConnection, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                message = connection.receive(timeout=0.1)
            except TimeoutError:
                continue
            header = message.header
            if header.message_type != MessageType.method_call:
                continue
            member = header.fields.get(HeaderFields.member)
            if member == "GetCapabilities":
                connection.send(new_method_return(message, "as", (list(self.capabilities),)))
            elif member == "Notify" and self.refuse:
                connection.send(new_error(message, f"{SERVICE}.Error.Refused"))
            elif member == "Notify":
                app, _replaces, _icon, summary, body, *_ = message.body
                self.shown.append((app, summary, body))
                connection.send(new_method_return(message, "u", (len(self.shown),)))


@contextmanager
def running_notification_server(**options: object) -> Iterator[NotificationServer]:
    server = NotificationServer(**options)  # type: ignore[arg-type]
    connection = open_dbus_connection(bus="SESSION")
    reply = connection.send_and_get_reply(message_bus.RequestName(SERVICE), timeout=5)
    assert reply.body[0] == 1, "could not own the notification service name"
    stop = threading.Event()
    thread = threading.Thread(target=server.serve, args=(connection, stop), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stop.set()
        thread.join(5)
        connection.close()
