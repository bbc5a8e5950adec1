"""Do the detectors and the private-data match stay linear? Time on an input of N characters
against the same input at 8·N, for fragments a backtracking pattern would choke on (runs
that almost match: digit groups, number words, token prefixes). A linear scan gives a ratio
near 8; a quadratic one near 64. Printed as ratios (this machine is shared and noisy): the
bound is `--bound` (default 16) on the worst median ratio, not a wall-clock time.

    python bench/detector_scaling.py [--chars 4000] [--runs 3] [--bound 16] [--json out.json]
"""

from __future__ import annotations

import argparse
import time

from _common import median, report

from app.agent.gate.detectors import private_tokens, scan, shared_private_token

FRAGMENTS = [
    "one one ", "quatre un ", "123 ", "12 ", "1 ", "4111 ", "1.", "1,", "1_", "pay 12 ",
    "code 1234 ", "PIN 12 ", "ssn 123 45 6789 ", "passport ", "password ", "token=",
    "authorization:", "eyJ", "eyJabc.", "glpat-", "xoxb-", "sk-", "ya29.", "AKIA", "DE89 ",
    "ab", "ab:", "\\x4", "0x41", "%41", "&#52;", "@", "abandon ", "https://", "From: a@b\n",
    "> quoted\n", "dr ", "with   ",
]  # fmt: skip


def _seconds(text: str, tokens: set[str]) -> float:
    started = time.perf_counter()
    scan({"body": text})
    shared_private_token(text, tokens)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chars", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bound", type=float, default=16.0)
    parser.add_argument("--json")
    args = parser.parse_args()
    tokens = private_tokens("IBAN DE89 3704 0044 0532 0130 00, wifi password: sunflower-kite")
    rows = []
    for fragment in FRAGMENTS:
        small = (fragment * (args.chars // len(fragment) + 1))[: args.chars]
        large = (fragment * (8 * args.chars // len(fragment) + 1))[: 8 * args.chars]
        ratios, seconds = [], []
        for _ in range(args.runs):  # alternate, so both sizes see the same load
            short, long = _seconds(small, tokens), _seconds(large, tokens)
            ratios.append(long / max(short, 1e-6))
            seconds.append(long)
        rows.append({"fragment": fragment, "ratio": median(ratios), "seconds_8n": median(seconds)})
    rows.sort(key=lambda row: -row["ratio"])
    worst = rows[0]
    results = {
        "chars": args.chars,
        "linear_ratio": 8,
        "worst": worst,
        "within_bound": worst["ratio"] <= args.bound,
        "bound": args.bound,
        "rows": rows,
    }
    report("detector_scaling", results, args.json)
    for row in rows[:8]:
        print(f"{row['ratio']:6.1f}x  {row['seconds_8n']:7.3f}s  {row['fragment']!r}")
    print(f"worst ratio {worst['ratio']:.1f} for 8x the input (linear: 8, bound {args.bound})")


if __name__ == "__main__":
    main()
