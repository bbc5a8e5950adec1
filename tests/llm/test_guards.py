"""The runaway guard: loops in tokens or in text end generation; ordinary text never does."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from app.llm.guards import RepetitionGuard, ends_in_a_loop


def feed(guard: RepetitionGuard, pieces: Sequence[tuple[int | None, str]]) -> int | None:
    """The number of tokens after which the guard trips, or None."""
    for count, (token, text) in enumerate(pieces, 1):
        guard.add(token, text)
        if guard.tripped():
            return count
    return None


def test_a_token_loop_trips_and_varied_or_short_output_does_not() -> None:
    looping = [(token, "") for token in [5, 6, 7] * 30]  # no text: the token check alone
    # 22 repeats of 3 tokens cover 66 >= 64 tokens; checked every 4 tokens: at 68
    assert feed(RepetitionGuard(), looping) == 68
    assert feed(RepetitionGuard(), [(t, f" word{t}") for t in range(400)]) is None
    assert feed(RepetitionGuard(), [(1, "x ")] * 20) is None  # too short to call a loop


def test_a_text_loop_cut_into_irregular_tokens_trips() -> None:
    """ "abc" again and again, split at random places: the tokens never repeat, the text does.
    (The real case: SmolLM2 on AVX2 wrote a call string this way and ran to the limit.)"""
    text = "abc" * 400
    rng = random.Random(7)
    pieces, pos = [], 0
    while pos < len(text):
        size = rng.randint(1, 4)
        pieces.append((1000 + rng.randrange(10_000), text[pos : pos + size]))
        pos += size
    tripped_at = feed(RepetitionGuard(), pieces)
    assert tripped_at is not None
    assert sum(len(piece) for _, piece in pieces[:tripped_at]) < 200


def test_a_repeated_sentence_trips_within_a_few_repeats() -> None:
    sentence = "Let me check the calendar for tomorrow morning. "
    pieces = [(hash(word) & 0xFFFF, word + " ") for word in sentence.split()] * 10
    assert feed(RepetitionGuard(), pieces) is not None


PROSE = (
    "Your dentist appointment is on Tuesday at 10:00 with Dr Martin. I added a reminder the "
    "evening before. The train to Lyon leaves at 8:12 from platform 4; the return is at 19:40. "
    "Three emails arrived today: one from Ann about the boat trip, one invoice, one newsletter."
)


def test_ordinary_text_and_a_short_rule_do_not_trip() -> None:
    table = "| day | time | what |\n|-----|------|------|\n| Mon | 9:00 | gym |\n"
    text = PROSE + "\n\n" + table + "-" * 40 + "\n" + PROSE
    pieces = [(i, text[i : i + 3]) for i in range(0, len(text), 3)]
    assert feed(RepetitionGuard(), pieces) is None


@given(st.text(min_size=1, max_size=6), st.integers(min_value=2, max_value=40))
def test_loop_detection_matches_its_definition(block: str, repeats: int) -> None:
    text = "start: " + block * repeats
    expected = any(
        len(text) >= span and text[-span:] == (text[-span:][:period] * (span // period))
        for period in range(1, 9)
        for span in [period * max(4, -(-30 // period))]
    )
    assert ends_in_a_loop(text, 8, 30, 4) == expected


def test_text_alone_is_watched_when_the_tokens_are_unknown() -> None:
    """A server sends text pieces without token ids: the text check still holds, and pieces
    with no id never look like a token loop."""
    assert feed(RepetitionGuard(), [(None, "la ")] * 100) is not None
    words = [(None, f" w{i}") for i in range(300)]
    assert feed(RepetitionGuard(), words) is None
