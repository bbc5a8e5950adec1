"""A private, real Secret Service for the tests: dbus-daemon + gnome-keyring-daemon.

Plain ``pytest`` (as CI runs it) has no session bus, so this starts its own: a session
``dbus-daemon`` on a socket in a throwaway folder, and ``gnome-keyring-daemon`` with a throwaway
HOME / XDG folders, unlocked with a throwaway password fed on stdin. Both are our children,
stopped by pid afterwards. Needs the Debian packages ``dbus`` and ``gnome-keyring``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

import keyring
import secretstorage
from keyring.backends.SecretService import Keyring as SecretServiceKeyring

REQUIRED = ("dbus-daemon", "gnome-keyring-daemon")

# A session bus with no <servicedir>: nothing is started on demand, so a probe made before our
# gnome-keyring-daemon has claimed its name cannot launch a second, locked one behind our back.
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={runtime}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


@dataclass
class SecretService:
    """A running private Secret Service: the environment to use it, and its keyring files."""

    env: dict[str, str]
    home: Path
    backend: SecretServiceKeyring

    @property
    def keyring_dir(self) -> Path:
        return self.home / ".local" / "share" / "keyrings"


def _stop(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def _probe() -> None:
    """Store and delete a password in the default collection: raises until the keyring serves.

    Not through keyring's backend: it leaves its D-Bus connection open when the service is not
    there yet, and each leaked socket would warn later, in whichever test the collector runs.
    """
    with closing(secretstorage.dbus_init()) as connection:
        collection = secretstorage.get_default_collection(connection)
        attributes = {"hearth-test-probe": "probe"}
        collection.create_item("probe", attributes, b"probe", replace=True).delete()


@contextmanager
def running_secret_service() -> Iterator[SecretService]:
    """Start the bus and the keyring, point this process at them, undo everything after."""
    missing = [name for name in REQUIRED if shutil.which(name) is None]
    if missing:
        raise RuntimeError(
            f"{', '.join(missing)} not found: install the Debian packages dbus and gnome-keyring"
        )
    # Short path: a unix socket path must stay under ~100 bytes.
    root = Path(tempfile.mkdtemp(prefix="hearth-ss-"))
    home = root / "home"
    runtime = root / "run"
    home.mkdir()
    runtime.mkdir(mode=0o700)
    env = {
        "HOME": str(home),
        "XDG_RUNTIME_DIR": str(runtime),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }
    child_env = {**os.environ, **env}
    config = root / "bus.conf"
    config.write_text(BUS_CONFIG.format(runtime=runtime))
    bus = subprocess.Popen(
        ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # it complains it may not raise the fd limit: harmless
        env=child_env,
        text=True,
    )
    daemon: subprocess.Popen[bytes] | None = None
    saved_env = {name: os.environ.get(name) for name in [*env, "DBUS_SESSION_BUS_ADDRESS"]}
    saved_backend = keyring.get_keyring()
    try:
        assert bus.stdout is not None
        address = bus.stdout.readline().strip()
        if not address:
            raise RuntimeError("dbus-daemon did not start")
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        child_env["DBUS_SESSION_BUS_ADDRESS"] = address
        with (root / "gnome-keyring.log").open("wb") as log:  # the child keeps its own copy
            daemon = subprocess.Popen(
                ["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=log,
                env=child_env,
            )
        assert daemon.stdin is not None
        daemon.stdin.write(b"throwaway-unlock-password")
        daemon.stdin.close()
        os.environ.update(env)
        backend = SecretServiceKeyring()
        deadline = time.monotonic() + 15
        while True:  # ready when a probe round-trips through the default collection
            try:
                _probe()
                break
            except Exception as exc:
                if daemon.poll() is not None or time.monotonic() > deadline:
                    logged = (root / "gnome-keyring.log").read_text(errors="replace")
                    raise RuntimeError(
                        f"gnome-keyring-daemon did not become ready ({exc!r}): {logged}"
                    ) from None
                time.sleep(0.1)
        keyring.set_keyring(backend)  # explicitly the Secret Service, whatever else is around
        yield SecretService(env=env, home=home, backend=backend)
    finally:
        keyring.set_keyring(saved_backend)
        if daemon is not None:
            _stop(daemon)
        _stop(bus)
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(root, ignore_errors=True)
