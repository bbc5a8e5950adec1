"""One seeded world (Radicale, Dovecot + aiosmtpd, a folder, a data folder) for all the
benchmark tests; each task resets what it changed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.tasks.world import World, running_world


@pytest.fixture(scope="session")
def world() -> Iterator[World]:
    with running_world() as running:
        yield running
