"""Runaway-generation guard: small models sometimes loop ("the the the", or a whole sentence
again and again). We stop when the recent tokens are one short block repeated."""

from __future__ import annotations

from collections.abc import Sequence


class RepetitionGuard:
    """Trips when the last tokens consist of a block of up to `max_period` tokens repeated
    enough times to cover at least `min_span` tokens (and at least `min_repeats` times)."""

    def __init__(
        self, max_period: int = 48, min_span: int = 64, min_repeats: int = 4, every: int = 4
    ) -> None:
        self.max_period = max_period
        self.min_span = min_span
        self.min_repeats = min_repeats
        self.every = every

    def tripped(self, tokens: Sequence[int]) -> bool:
        count = len(tokens)
        if count < self.min_span or count % self.every:
            return False
        for period in range(1, self.max_period + 1):
            repeats = max(self.min_repeats, -(-self.min_span // period))
            span = period * repeats
            if span > count:
                break
            window = tokens[count - span :]
            if window[period:] == window[:-period]:
                return True
        return False
