"""A recording `xdg-open`: opening things in tests never launches a program."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from connectors.web import fetch


def recording_opener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stub `xdg-open` first on PATH that appends what it is handed to the file returned.
    Offline, a web name resolves to one public documentation address, so the connector's
    check that it resolves to no private one runs."""
    bin_dir, log = tmp_path / "bin", tmp_path / "opened.log"
    bin_dir.mkdir()
    opener = bin_dir / "xdg-open"
    opener.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" >> "{log}"\n')
    opener.chmod(opener.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setattr(fetch, "system_resolver", lambda host: ["93.184.215.14"])
    return log
