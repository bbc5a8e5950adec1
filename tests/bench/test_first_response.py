"""The latency script's table: what never came is not counted as fast."""

from __future__ import annotations

from bench.first_response import cell


def test_a_cell_gives_the_median_and_worst_of_what_came_as_a_ratio() -> None:
    assert cell([1.0, 3.0, float("nan")], 0.5, 4) == (
        "2.00 s median, 3.00 s worst (4.0× bare; 2 of 4)"
    )


def test_a_cell_of_nothing_that_came_says_so() -> None:
    assert cell([float("nan")], 0.5, 4) == "none of 4"
    assert cell([], 0.5, 4) == "none of 4"
