#!/usr/bin/env python3
"""The dice work model against the clock: priced work units and measured CPU time, family by family.

    .venv/bin/python bench/dice_calibrate.py [--repeat 3] [--big]
    .venv/bin/python bench/dice_calibrate.py --check     # exit 1 when a family is priced 3x off

For each family of operations the engine prices (sums of fair dice by running sums, other sums by
Kronecker products, small sums by the double loop, sparse sums, keep-k dynamic programmes, keep-1
products of CDFs, explosions, rerolls, success counts, scaled terms), a few expressions are priced
(``DiceExpr.work``) and timed cold (``time.process_time``, median of ``--repeat`` runs, caches
cleared before each).  It prints nanoseconds per work unit for each: a unit is meant to be about a
nanosecond of one core, and every family should show about the same figure (the machine's speed,
whatever the load).  ``--check`` holds one expression of each family within 3x of the median of
all of them, the machine's speed of the moment (run it after changing a price in ``rules/dice/cost.py``
or a fast path; a timed check has no place in the test command, where the load moves the clock).
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

from rules.dice import DiceExpr, clear_caches, errors, parse
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


def cold_seconds(expr: DiceExpr, runs: int = 1) -> float:
    """CPU seconds of ``runs`` calls of ``expr.dist()``, the engine's caches emptied before each."""
    total = 0.0
    for _ in range(runs):
        clear_caches()
        start = time.process_time()
        expr.dist()
        total += time.process_time() - start
    return total


def measure(text: str, repeat: int) -> tuple[int, float]:
    """(priced work units, median CPU seconds of a cold ``dist()``)."""
    expr = parse(text)
    work = expr.work()
    budget, errors.MAX_WORK = errors.MAX_WORK, 10 ** 15  # time refused expressions too
    try:
        times = [cold_seconds(expr) for _ in range(repeat)]
    finally:
        errors.MAX_WORK = budget
    return work, statistics.median(times)


#: ``--check``: one expression per family, each a few to tens of milliseconds (repeated: how many cold
#: runs make one measurement).
CALIBRATION = {
    "fair dice, running sums": ("40d100", 1),
    "fair dice, one integer power": ("5d100", 20),
    "other dice, Kronecker product": ("2d10000r1", 1),
    "sparse sum of spread dice": ("1d200*1000+1d200*1001", 1),
    "scaled term added densely": ("1d3000*5+1d3000", 1),
    "keep k of n, many states": ("300d3kh150", 1),
    "keep k of n, many faces": ("10d20kh5", 5),
    "keep 1, product of CDFs": ("200d10000kh1", 1),
    "exploding dice": ("3d100!", 1),
    "reroll until, what is left": ("9d10000rr<9000", 1),
    "success count": ("1000d6>=4", 1),
    "small sums, the double loop": ("1d30+1d30", 100),
}


def ns_per_unit(text: str, runs: int) -> float:
    """CPU nanoseconds per priced unit of ``runs`` cold ``dist()`` calls, median of three measurements."""
    expr = parse(text)
    return statistics.median(cold_seconds(expr, runs) for _ in range(3)) * 1e9 / (expr.work() * runs)


def misses() -> list[str]:
    """The families whose time per unit lies outside 3x of the median of all of them."""
    ratios = {family: ns_per_unit(text, runs) for family, (text, runs) in CALIBRATION.items()}
    middle = statistics.median(ratios.values())
    return [f"{family} ({CALIBRATION[family][0]}): {r:.2f} ns per unit against {middle:.2f} for all"
            for family, r in ratios.items() if not middle / 3 <= r <= middle * 3]


def check() -> int:
    """Up to three measurements of every family together: a burst of load moves all of them alike, a
    mispriced family misses every time."""
    missed: list[str] = []
    for _ in range(3):
        missed = misses()
        if not missed:
            print(f"every family within 3x of the others ({len(CALIBRATION)} families)")
            return 0
    print("priced work and measured time disagree: " + "; ".join(missed))
    return 1


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
    parser.add_argument("--check", action="store_true", help="only check that every family agrees within 3x")
    args = parser.parse_args(argv)
    if args.check:
        return check()
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
