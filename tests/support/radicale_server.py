"""A real Radicale CalDAV server on 127.0.0.1, run in-process in a thread for the tests.

Radicale's own ``server.serve(configuration, shutdown_socket)`` runs the server; closing the other
end of the socket pair stops it (it finishes the requests in flight, closes its listening socket
and returns), so a test can also stop a server and watch the connector fail cleanly.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import radicale.config
import radicale.server

if TYPE_CHECKING:
    from caldav.davclient import DAVClient

    from connectors.calendar import CalendarAccount


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class RadicaleServer:
    """A running server: its address, and how to stop it."""

    port: int
    folder: Path
    _thread: threading.Thread = field(repr=False)
    _shutdown: socket.socket = field(repr=False)
    errors: list[BaseException] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        """Ask the server to stop and wait for its thread (idempotent)."""
        self._shutdown.close()
        self._thread.join(10)
        assert not self._thread.is_alive(), "Radicale did not stop"


def _configuration(
    folder: Path, port: int, users: Mapping[str, str], tls: tuple[Path, Path] | None = None
) -> radicale.config.Configuration:
    users_file = folder / "users"
    users_file.write_text("".join(f"{name}:{pw}\n" for name, pw in users.items()))
    configuration = radicale.config.load()
    configuration.update(
        {
            "server": {"hosts": f"127.0.0.1:{port}"}
            | (
                {"ssl": "True", "certificate": str(tls[0]), "key": str(tls[1])}
                if tls is not None
                else {}
            ),
            "auth": {
                "type": "htpasswd",
                "htpasswd_filename": str(users_file),
                "htpasswd_encryption": "plain",
                "delay": "0",  # Radicale slows failed logins by default; the tests need no brake
            },
            "storage": {"filesystem_folder": str(folder / "collections")},
            "rights": {"type": "owner_only"},
            "web": {"type": "none"},
        },
        "hearth tests",
    )
    return configuration


@contextmanager
def running_radicale(
    folder: Path,
    users: Mapping[str, str],
    *,
    port: int | None = None,
    tls: tuple[Path, Path] | None = None,
) -> Iterator[RadicaleServer]:
    """Start Radicale on a free 127.0.0.1 port (or `port`), over HTTPS with `tls` (certificate
    and key files), wait until it accepts, stop it afterwards."""
    logging.getLogger("radicale").setLevel(logging.WARNING)
    folder.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    configuration = _configuration(folder, port, users, tls)
    ours, theirs = socket.socketpair()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            radicale.server.serve(configuration, theirs)
        except BaseException as exc:  # surfaced by the wait below, not lost in the thread
            errors.append(exc)

    thread = threading.Thread(target=run, name=f"radicale-{port}", daemon=True)
    thread.start()
    server = RadicaleServer(port, folder, thread, ours, errors)
    deadline = time.monotonic() + 10
    while True:
        if errors:
            raise RuntimeError(f"Radicale did not start: {errors[0]!r}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError("Radicale did not start listening within 10 s") from None
            time.sleep(0.02)
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def running_radicale_with_calendar(
    folder: Path, user: str, password: str, name: str = "Family"
) -> Iterator[RadicaleServer]:
    """Radicale with one user who already has one calendar: the accounts tests' server."""
    with running_radicale(folder, {user: password}) as server:
        with dav_client(server, user, password) as client:
            client.principal().make_calendar(name=name, cal_id=name.lower())
        yield server


def module_server(
    tmp_path_factory: Any, user: str, password: str, calendar: str
) -> Iterator[RadicaleServer]:
    """For a test module's `server` fixture (`yield from` it): Radicale in a folder of its own,
    with `user` and one calendar called `calendar`."""
    folder = tmp_path_factory.mktemp("radicale")
    with running_radicale_with_calendar(folder, user, password, calendar) as server:
        yield server


@contextmanager
def calendar_account(
    server: RadicaleServer, user: str, password: str, cal_id: str, *, events: bool = True
) -> Iterator[CalendarAccount]:
    """The app's account for `user` on `server` ("Home calendar"); on leaving, the calendar
    `cal_id` is emptied (`clear_calendar`) for the next test."""
    from connectors.calendar import CalendarAccount

    yield CalendarAccount(server.url, user, password, name="Home calendar")
    clear_calendar(server, user, password, cal_id, events=events)


def dav_client(server: RadicaleServer, user: str, password: str) -> DAVClient:
    """A CalDAV client signed in as `user` (another client than the app's, to set up or check
    what is on the server); use it in a `with`."""
    from caldav.davclient import DAVClient

    return DAVClient(url=server.url, username=user, password=password, enable_rfc6764=False)


def clear_calendar(
    server: RadicaleServer, user: str, password: str, cal_id: str, *, events: bool = True
) -> None:
    """Delete what a test left in one calendar: every to-do, done or not, and its events
    (unless `events` is False), so that the next test starts from an empty one."""
    with dav_client(server, user, password) as client:
        calendar = client.principal().calendar(cal_id=cal_id)
        found = calendar.search(todo=True, include_completed=True)
        for obj in [*(calendar.events() if events else []), *found]:
            obj.delete()
