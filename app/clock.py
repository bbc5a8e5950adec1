"""One clock for every "now" the agent and its tools use.

The task benchmark's world lives on 15 May 2029 and tests pin the day: a "now" read from
the system clock in one place and from the world in another made "tomorrow" mean two days.
Code below the UI asks `now()`; a test or the benchmark sets the clock with `frozen_at` (or
`set_clock`). Connectors take their "now" as an argument from the agent instead of reading
this module, so they stay free of the app.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

Clock = Callable[[], datetime]


def system_now() -> datetime:
    """The machine's clock, in its local time zone (aware)."""
    return datetime.now().astimezone()


_lock = threading.Lock()
_clock: Clock = system_now


def now() -> datetime:
    """The current moment, aware, in the clock's time zone."""
    return _clock()


def set_clock(clock: Clock | None) -> Clock:
    """Use `clock` for `now()` from here on (None: the system clock); returns the old one.
    Process-wide on purpose: the model's worker thread and the tools' threads must agree."""
    global _clock
    with _lock:
        old, _clock = _clock, clock or system_now
    return old


@contextmanager
def frozen_at(moment: datetime) -> Iterator[None]:
    """`now()` is `moment` (aware) inside the block, in every thread."""
    if moment.tzinfo is None:
        raise ValueError("a frozen clock needs an aware datetime")
    old = set_clock(lambda: moment)
    try:
        yield
    finally:
        set_clock(old)
