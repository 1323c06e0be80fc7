"""The work model's cheap bounds: what the engine accepts as trivial by its size alone is priced far
below every budget.

Whether priced work and measured time agree, family by family, is a timed question: it is checked by
``bench/dice_calibrate.py --check``, never in the test command, where the machine's load moves the
clock.
"""

from __future__ import annotations


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
