#!/usr/bin/env python3
"""How long the dice engine takes to refuse work it will not do, and to do large work it will.

    python3 bench/bounds.py [--repeats 3]

The unit tests check *that* these expressions are refused (``ComputationTooLargeError``) or answered
correctly; wall-clock limits belong here, not in the test command, where a loaded machine would make
them flaky.  Each row is the median of ``--repeats`` runs with the engine's caches cleared first;
``limit`` is the time the engine promises to stay under on a two-core machine, and a row over it is
marked ``SLOW`` (the exit status is 1 when any row is).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.dice import ComputationTooLargeError, clear_caches, keep, parse

#: Expressions whose exact distribution is too large: each must be refused quickly.
REFUSED = ("1000d10000", "1000d10000kh3", "1000d10000kh500", "1000d6kh999", "1000d10000!", "1000d2!",
           "500d6!+500d6!", "999d10000-1d10000")
REFUSAL_LIMIT = 3.0


def _refuse(text: str) -> Callable[[], object]:
    def run() -> object:
        try:
            parse(text).dist()
        except ComputationTooLargeError:
            return None
        raise AssertionError(f"{text} was computed, not refused")
    return run


#: Large but feasible work: (label, the work, seconds it must stay under).
FEASIBLE: tuple[tuple[str, Callable[[], object], float], ...] = (
    ("keep(1000, 6, 3)", lambda: keep(1000, 6, 3), 2.0),
    ("1d10000 › 999d10000", lambda: parse("1d10000 › 999d10000").dist(), 10.0),
    ("1000d6>=4", lambda: parse("1000d6>=4").dist(), 10.0),
)


def median_seconds(work: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        clear_caches()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    rows = [(f"refuse {text}", _refuse(text), REFUSAL_LIMIT) for text in REFUSED] + list(FEASIBLE)
    slow = 0
    print("| work | median s | limit s | |\n| --- | ---: | ---: | --- |")
    for label, work, limit in rows:
        seconds = median_seconds(work, args.repeats)
        slow += seconds >= limit
        print(f"| {label} | {seconds:.3f} | {limit:.0f} | {'SLOW' if seconds >= limit else 'ok'} |", flush=True)
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
