"""Keep-highest / keep-lowest (Nemron pools, advantage) and keep-k of n (``4d6kh3``)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rules.dice import (ComputationTooLargeError, Dist, advantage, disadvantage, keep,
                        keep_highest, keep_lowest)

RANKS = {0: 4, 1: 6, 2: 8, 3: 10, 4: 12}  # Nemron's rank -> die (the notes' table), for test pools


def brute(sides, rule) -> Dist:
    """The distribution of rule(faces) over every face combination of the listed dice."""
    return Dist.from_outcomes(rule(faces) for faces in itertools.product(*(range(1, s + 1) for s in sides)))


POOLS = [(6,), (4, 6), (6, 10, 8), (12, 12), (4, 4, 4, 4), (20, 6, 2), (8, 12, 10, 6)]


@pytest.mark.parametrize("sides", POOLS)
def test_keep_highest_is_a_product_of_cdfs(sides):
    got = keep_highest([Dist.die(s) for s in sides])
    assert got == brute(sides, max)
    for x in range(0, 22):  # P(max <= x) = prod P(d_i <= x)
        expected = F(1)
        for s in sides:
            expected *= F(min(max(x, 0), s), s)
        assert got.p_le(x) == expected


@pytest.mark.parametrize("sides", POOLS)
def test_keep_lowest_is_a_product_of_survival_functions(sides):
    assert keep_lowest([Dist.die(s) for s in sides]) == brute(sides, min)


def test_keep_highest_works_on_shifted_and_sparse_dists():
    a = Dist.from_weights({-3: 1, 5: 2, 9: 1})
    b = Dist.die(6) * 2
    expected = a.combine(b, max)
    assert keep_highest([a, b]) == expected
    assert keep_lowest([a, b]) == a.combine(b, min)


def test_nemron_pool_example_1d6_1d10_1d8_reaches_dc_by_keeping_the_highest():
    pool = keep_highest([Dist.die(6), Dist.die(10), Dist.die(8)])
    # P(success at DC 7) = 1 - P(all below 7) = 1 - (6/6)(6/10)(6/8)
    assert pool.p_ge(7) == 1 - F(6, 10) * F(6, 8)
    assert pool.max() == 10


def nemron_variants(sides):
    dice = [Dist.die(s) for s in sides]
    base = keep_highest(dice)
    return {
        "lesser boon": keep_highest(dice + [Dist.die(8)]),
        "greater boon": keep_highest(dice + [Dist.die(12)]),
        "lesser penalty": keep_lowest([base, Dist.die(8)]),
        "greater penalty": keep_lowest([base, Dist.die(4)]),
    }


@pytest.mark.parametrize("ranks", [(0,), (1, 3), (2, 2, 4), (0, 1, 2, 3)])
def test_nemron_boons_keep_highest_and_penalties_keep_lowest_against_the_pool(ranks):
    sides = tuple(RANKS[r] for r in ranks)
    got = nemron_variants(sides)
    assert got["lesser boon"] == brute(sides + (8,), max)
    assert got["greater boon"] == brute(sides + (12,), max)
    assert got["lesser penalty"] == brute(sides + (8,), lambda f: min(max(f[:-1]), f[-1]))
    assert got["greater penalty"] == brute(sides + (4,), lambda f: min(max(f[:-1]), f[-1]))


@pytest.mark.parametrize("n, sides, k", [
    (4, 6, 3), (4, 6, 1), (3, 6, 2), (5, 4, 2), (2, 20, 1), (3, 8, 3), (5, 3, 4), (6, 2, 3), (1, 6, 1),
])
def test_keep_k_of_n_matches_sorting_every_roll(n, sides, k):
    faces = [sides] * n
    assert keep(n, sides, k) == brute(faces, lambda f: sum(sorted(f)[-k:]))
    assert keep(n, sides, k, highest=False) == brute(faces, lambda f: sum(sorted(f)[:k]))


def test_4d6_drop_lowest_has_the_well_known_mean():
    # Sum over all 1296 rolls of the best three: 15869 (a classic ability-score figure).
    assert keep(4, 6, 3).mean() == F(15869, 1296)


def test_keep_everything_is_the_plain_sum_and_keep_none_is_zero():
    assert keep(3, 6, 3) == Dist.die(6).repeat_sum(3)
    assert keep(3, 6, 5) == Dist.die(6).repeat_sum(3)
    assert keep(3, 6, 0) == Dist.constant(0)
    with pytest.raises(ValueError):
        keep(-1, 6, 1)


def test_keep_of_many_dice_uses_order_statistics_not_enumeration():
    big = keep(1000, 6, 3)  # 6**1000 rolls: only a DP over faces can do this (bench/bounds.py times it)
    assert big.max() == 18 and big.p(18) == 1 - F(5, 6) ** 1000 - 1000 * F(1, 6) * F(5, 6) ** 999 \
        - 1000 * 999 // 2 * F(1, 36) * F(5, 6) ** 998
    assert keep(1000, 6, 1) == keep_highest([Dist.die(6)] * 1000)


def test_an_exact_keep_that_would_take_too_long_is_refused_not_hung():
    with pytest.raises(ComputationTooLargeError):
        keep(1000, 10000, 500)


def test_advantage_and_disadvantage_are_two_dice_keep_high_or_low():
    assert advantage(Dist.die(6)) == brute((6, 6), max)
    assert disadvantage(Dist.die(20)) == brute((20, 20), min)
    assert advantage(Dist.die(6)).p_ge(4) == F(3, 4)  # DnDalike save with advantage, fatigue 4
