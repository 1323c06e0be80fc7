#!/usr/bin/env python3
"""The dice work model against the clock: priced work units and measured CPU time, family by family.

    .venv/bin/python bench/dice_calibrate.py [--repeat 3] [--big]

For each family of operations the engine prices (sums of fair dice by running sums, other sums by
Kronecker products, small sums by the double loop, sparse sums, keep-k dynamic programmes, keep-1
products of CDFs, explosions, rerolls, success counts, scaled terms), a few expressions are priced
(``DiceExpr.work``) and timed cold (``time.process_time``, median of ``--repeat`` runs, caches
cleared before each).  It prints nanoseconds per work unit for each: a unit is meant to be about a
nanosecond of one core, and every family should show about the same figure (the machine's speed,
whatever the load), which ``tests/dice/test_cost_calibration.py`` checks within 3x on a small set.
It also times a bare big-integer product around CPython's Karatsuba cutoff against
:func:`rules.dice.cost.mul_cost`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dice import clear_caches, errors, parse
from rules.dice.cost import mul_cost

#: family -> expressions that take tens of milliseconds (the test's set is the first of each).
FAMILIES: dict[str, list[str]] = {
    "sum (running)": ["40d100", "8d1000", "300d20", "3d10000"],
    "sum (Kronecker)": ["8d100!+8d100r1", "2d10000r1", "20d20r1"],
    "sum (small)": ["3d6+1d8", "2d12+1d4"],
    "sum (sparse)": ["1d1000*1000+1d1000*1001", "1d300*1000+1d300*1001"],
    "scaled (dense)": ["1d10000*5+1d10000", "1d1000*50+2d1000"],
    "keep k of n": ["10d20kh5", "1000d2kh500", "300d3kh150", "6d100kh3"],
    "keep 1 (CDFs)": ["2d10000kh1", "200d10000kh1", "1000d1000kl1"],
    "explode": ["8d100!", "3d1000!", "40d6!"],
    "reroll": ["9d10000rr<9000", "4d1000r1", "20d10000rr<10000"],
    "successes": ["1000d6>=4", "600d20>=11"],
}
BIG: dict[str, list[str]] = {
    "sum (running)": ["176d100", "44d1000", "500d20"],
    "keep k of n": ["1000d2kl300", "20d20kh8"],
    "explode": ["10d100!", "60d6!"],
}


def measure(text: str, repeat: int) -> tuple[int, float]:
    """(priced work units, median CPU seconds of a cold ``dist()``)."""
    expr = parse(text)
    work = expr.work()
    times = []
    budget, errors.MAX_WORK = errors.MAX_WORK, 10 ** 15  # time refused expressions too
    try:
        for _ in range(repeat):
            clear_caches()
            start = time.process_time()
            expr.dist()
            times.append(time.process_time() - start)
    finally:
        errors.MAX_WORK = budget
    return work, statistics.median(times)


def products(repeat: int) -> None:
    rng = random.Random(1)
    print(f"\n{'digits':>8} {'measured':>12} {'priced':>12} {'ns/unit':>8}")
    for d in (20, 60, 70, 71, 100, 300, 1000, 3000, 10000, 30000):
        a, b = rng.getrandbits(30 * d) | 1 << (30 * d - 1), rng.getrandbits(30 * d) | 1 << (30 * d - 1)
        n = max(1, 3_000_000 // d ** 2 + 1)
        times = []
        for _ in range(repeat):
            start = time.process_time()
            for _ in range(n):
                _ = a * b
            times.append((time.process_time() - start) / n)
        t = statistics.median(times)
        priced = mul_cost(30 * d, 30 * d)
        print(f"{d:8} {t * 1e6:10.1f}µs {priced:12,} {t * 1e9 / priced:8.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big", action="store_true", help="also the larger expressions (seconds each)")
    args = parser.parse_args(argv)
    print(f"{'family':18} {'expression':26} {'work units':>14} {'CPU ms':>9} {'ns/unit':>8}")
    ratios = []
    for family, texts in FAMILIES.items():
        for text in texts + (BIG.get(family, []) if args.big else []):
            work, t = measure(text, args.repeat)
            ratios.append(t * 1e9 / work)
            print(f"{family:18} {text:26} {work:14,} {t * 1e3:9.1f} {t * 1e9 / work:8.2f}")
    print(f"\nns per unit: median {statistics.median(ratios):.2f}, spread {max(ratios) / min(ratios):.1f}x")
    products(args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
