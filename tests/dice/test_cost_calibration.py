"""The work model agrees with the clock: every family of operations costs about the same CPU time per
priced work unit, so one budget (``errors.MAX_WORK``) means about the same time whatever is asked.

On a shared machine absolute times swing several-fold, so the test never compares a time with a
constant: it measures each family's nanoseconds per unit in one process (CPU time, median of three cold
runs) and requires each to lie within 3x of the median of all of them (the machine's speed of the
moment).  A measurement that misses is taken again, up to three times, all families together: a
burst of load moves every family alike, a mispriced family misses every time.
``bench/dice_calibrate.py`` prints the same figures for larger expressions.
"""

from __future__ import annotations

import statistics
import time

from rules.dice import clear_caches, parse

#: One expression per family, each a few to tens of milliseconds (repeated: how many cold runs make one).
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
    expr = parse(text)
    work = expr.work() * runs
    times = []
    for _ in range(3):
        total = 0.0
        for _ in range(runs):
            clear_caches()
            start = time.process_time()
            expr.dist()
            total += time.process_time() - start
        times.append(total)
    return statistics.median(times) * 1e9 / work


def misses() -> list[str]:
    ratios = {family: ns_per_unit(text, runs) for family, (text, runs) in CALIBRATION.items()}
    middle = statistics.median(ratios.values())
    return [f"{family} ({CALIBRATION[family][0]}): {r:.2f} ns per unit against {middle:.2f} for all"
            for family, r in ratios.items() if not middle / 3 <= r <= middle * 3]


def test_every_familys_priced_work_and_measured_time_agree_within_3x():
    for _ in range(3):
        missed = misses()
        if not missed:
            return
    raise AssertionError("; ".join(missed))


def test_work_accepted_as_trivial_by_its_size_is_priced_below_the_trivial_bound():
    """``3d6`` and a Nemron pool skip the detailed price: their sizes alone must bound it, far below
    any budget (the page's included), so the skip never lets through what pricing would refuse."""
    import sys

    from rules.dice import cost, errors

    keep = sys.modules["rules.dice.keep"]
    assert cost.TRIVIAL_WORK * 100 <= errors.BROWSER_WORK <= errors.MAX_WORK
    for sides in range(1, cost.TRIVIAL_FAIR_SUM + 1):
        for count in range(1, cost.TRIVIAL_FAIR_SUM // sides + 1):
            assert cost.fair_sum_work(sides, count) <= cost.TRIVIAL_WORK, f"{count}d{sides}"
    for dice in range(1, cost.TRIVIAL_CDF_DICE + 1):
        work = keep.cdf_product_work(cost.TRIVIAL_CDF_POINTS, [1] * dice, 64)
        assert work <= cost.TRIVIAL_WORK, f"{dice} dice"
