"""Desktop notifications over the freedesktop D-Bus interface (GNOME, KDE and most Linux
desktops), for reminders where the desktop has no tray to show them (stock GNOME has none).

jeepney, the pure-Python D-Bus library the keyring already uses on Linux, makes the call; it
is blocking, so it runs on the reminder service's thread, never on the GUI thread. Anything
that goes wrong (no session bus, no notification server, a slow one) is a `NotificationFailed`
and the reminder is shown in the window instead.
"""

from __future__ import annotations

import html
import os
import sys

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
APP_NAME = "Hearth"


class NotificationFailed(Exception):
    """No desktop notification could be shown; the text says why (for the log)."""


def notify(summary: str, body: str, *, expire_ms: int = 30_000, timeout: float = 5.0) -> int:
    """Show a notification; returns the server's id for it. Raises NotificationFailed."""
    if not sys.platform.startswith("linux") or not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        raise NotificationFailed("no desktop session bus")
    try:
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection, unwrap_msg
    except ImportError as exc:  # pragma: no cover - jeepney comes with keyring on Linux
        raise NotificationFailed("jeepney is not installed") from exc
    address = DBusAddress(PATH, bus_name=SERVICE, interface=SERVICE)
    try:
        with open_dbus_connection(bus="SESSION") as connection:
            capabilities = unwrap_msg(
                connection.send_and_get_reply(
                    new_method_call(address, "GetCapabilities"), timeout=timeout
                )
            )[0]
            if "body-markup" in capabilities:  # then "<" would start a tag: show it as text
                body = html.escape(body, quote=False)
            message = new_method_call(
                address,
                "Notify",
                "susssasa{sv}i",
                (APP_NAME, 0, "", summary, body, [], {}, expire_ms),
            )
            reply = unwrap_msg(connection.send_and_get_reply(message, timeout=timeout))
    except Exception as exc:  # whatever D-Bus says, the window still shows the reminder
        raise NotificationFailed(f"{type(exc).__name__}: {exc}") from exc
    return int(reply[0])
