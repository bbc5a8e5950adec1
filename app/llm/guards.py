"""Runaway-generation guard: small models sometimes loop ("the the the", or a whole sentence
again and again). We stop when the recent output is one short block repeated.

Tokens alone miss loops: the same text can be cut into tokens in many ways, and a model that
writes "abcabcabc…" may pick "abc", "ab"+"ca", "bc"… as its logits (which differ between
CPUs) lean, so the tokens never repeat while the text does. The guard therefore watches both
the tokens and the text they decode to."""

from __future__ import annotations

from collections.abc import Sequence


def _span(period: int, min_span: int, min_repeats: int) -> int:
    """How far back a loop of this period must reach: `min_repeats` blocks, and `min_span`."""
    return period * max(min_repeats, -(-min_span // period))


def ends_in_a_loop(
    items: Sequence[object] | str, max_period: int, min_span: int, min_repeats: int
) -> bool:
    """Whether `items` ends with a block of up to `max_period` items repeated to cover at
    least `min_span` items, and at least `min_repeats` times."""
    count = len(items)
    for period in range(1, max_period + 1):
        span = _span(period, min_span, min_repeats)
        if span > count:
            break
        if items[count - period :] != items[count - 2 * period : count - period]:
            continue  # the last block is not the one before it: no loop of this period
        window = items[count - span :]
        if window[period:] == window[:-period]:
            return True
    return False


def _longest_span(max_period: int, min_span: int, min_repeats: int) -> int:
    return max(_span(p, min_span, min_repeats) for p in range(1, max_period + 1))


class RepetitionGuard:
    """Fed each generated token with its text; trips when the last tokens are a block of up to
    `max_period` tokens repeated over at least `min_span` tokens, or the last text a block of
    up to `max_text_period` characters repeated over at least `min_text_span` characters
    (each block at least `min_repeats` times). Checked every `every` tokens."""

    def __init__(
        self,
        max_period: int = 48,
        min_span: int = 64,
        min_repeats: int = 4,
        every: int = 4,
        max_text_period: int = 128,
        min_text_span: int = 160,
    ) -> None:
        self.max_period = max_period
        self.min_span = min_span
        self.min_repeats = min_repeats
        self.every = every
        self.max_text_period = max_text_period
        self.min_text_span = min_text_span
        self._keep_tokens = _longest_span(max_period, min_span, min_repeats)
        self._keep_text = _longest_span(max_text_period, min_text_span, min_repeats)
        self._count = 0
        self._tokens: list[int] = []
        self._text = ""

    def add(self, token: int | None, text: str) -> None:
        """One generated token and its text (token None: a server that sends only text)."""
        self._count += 1
        if token is not None:
            self._tokens.append(token)
            if len(self._tokens) > 2 * self._keep_tokens:
                del self._tokens[: -self._keep_tokens]
        self._text = (self._text + text)[-self._keep_text :]

    def tripped(self) -> bool:
        if self._count % self.every:
            return False
        return ends_in_a_loop(
            self._tokens, self.max_period, self.min_span, self.min_repeats
        ) or ends_in_a_loop(self._text, self.max_text_period, self.min_text_span, self.min_repeats)
