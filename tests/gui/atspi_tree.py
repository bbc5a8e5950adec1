"""Read an application's accessibility tree the way a screen reader does: over the AT-SPI
D-Bus interfaces of the accessibility bus (jeepney, the app's own D-Bus library; no pyatspi).

Only what the tests need: each node's role, name, description and (for text objects) text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from jeepney import DBusAddress, new_method_call
from jeepney.io.blocking import DBusConnection, open_dbus_connection

ACCESSIBLE = "org.a11y.atspi.Accessible"
TEXT = "org.a11y.atspi.Text"
REGISTRY = ("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root")
TIMEOUT = 10.0


@dataclass
class Node:
    role: str
    name: str
    description: str
    text: str
    children: list[Node] = field(default_factory=list)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()

    def words(self) -> str:
        """Everything a screen reader can say of this node."""
        return " ".join(part for part in (self.name, self.description, self.text) if part)


def accessibility_bus() -> DBusConnection:
    """The accessibility bus, found through the session bus (DBUS_SESSION_BUS_ADDRESS)."""
    with open_dbus_connection(bus="SESSION") as session:
        address = DBusAddress("/org/a11y/bus", bus_name="org.a11y.Bus", interface="org.a11y.Bus")
        reply = session.send_and_get_reply(new_method_call(address, "GetAddress"), timeout=TIMEOUT)
    return open_dbus_connection(bus=reply.body[0])


def _call(
    bus: DBusConnection,
    ref: tuple[str, str],
    interface: str,
    method: str,
    signature: str | None = None,
    body: tuple = (),
) -> tuple:
    address = DBusAddress(ref[1], bus_name=ref[0], interface=interface)
    message = new_method_call(address, method, signature, body)
    return bus.send_and_get_reply(message, timeout=TIMEOUT).body


def _property(bus: DBusConnection, ref: tuple[str, str], interface: str, name: str) -> object:
    address = DBusAddress(ref[1], bus_name=ref[0], interface="org.freedesktop.DBus.Properties")
    message = new_method_call(address, "Get", "ss", (interface, name))
    return bus.send_and_get_reply(message, timeout=TIMEOUT).body[0][1]


def read_node(bus: DBusConnection, ref: tuple[str, str], depth: int = 0) -> Node:
    role = str(_call(bus, ref, ACCESSIBLE, "GetRoleName")[0])
    name = str(_property(bus, ref, ACCESSIBLE, "Name"))
    description = str(_property(bus, ref, ACCESSIBLE, "Description"))
    interfaces = _call(bus, ref, ACCESSIBLE, "GetInterfaces")[0]
    text = ""
    if TEXT in interfaces:
        text = str(_call(bus, ref, TEXT, "GetText", "ii", (0, -1))[0])
    node = Node(role, name, description, text)
    if depth < 40:
        for child in _call(bus, ref, ACCESSIBLE, "GetChildren")[0]:
            node.children.append(read_node(bus, (child[0], child[1]), depth + 1))
    return node


def applications(bus: DBusConnection) -> list[tuple[str, tuple[str, str]]]:
    """(name, reference) of every application registered on the accessibility bus."""
    found = []
    for child in _call(bus, REGISTRY, ACCESSIBLE, "GetChildren")[0]:
        ref = (child[0], child[1])
        found.append((str(_property(bus, ref, ACCESSIBLE, "Name")), ref))
    return found
