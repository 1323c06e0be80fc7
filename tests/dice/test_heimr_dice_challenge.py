"""Heimr's dice challenge: 1d6 + |C|d10, keep highest (+1 per extra 10) or lowest (-1 per extra 1), + P."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rules.dice import Dist, heimr_challenge


def brute_raw(c: int, d6_counts_as_one: bool = True) -> Dist:
    """The raw result by listing every face of the d6 and the |C| d10s."""
    def rule(faces):
        d6, d10s = faces[0], faces[1:]
        if c > 0:
            return max(faces) + max(0, d10s.count(10) - 1)
        if c == 0:
            return d6
        ones = d10s.count(1) + (d6_counts_as_one and d6 == 1)
        return min(faces) - max(0, ones - 1)
    ranges = [range(1, 7)] + [range(1, 11)] * abs(c)
    return Dist.from_outcomes(rule(f) for f in itertools.product(*ranges))


@pytest.mark.parametrize("c", [-3, -2, -1, 0, 1, 2, 3])
@pytest.mark.parametrize("counted", [True, False])
def test_challenge_matches_listing_every_face(c, counted):
    assert heimr_challenge(c, d6_counts_as_one=counted) == brute_raw(c, counted)


def test_c5_reaches_nine_two_times_in_three_as_the_side_note_says():
    assert heimr_challenge(5).p_ge(9) == F(2101, 3125)  # 67.2 %, the page's 67 %


@pytest.mark.parametrize("counted", [True, False])
def test_c_minus_5_is_at_most_two_with_78_percent_not_89(counted):
    assert heimr_challenge(-5, d6_counts_as_one=counted).p_le(2) == F(7327, 9375)


def test_c1_raw_distribution_from_the_notes():
    expected = {k: F(2 * k - 1, 60) for k in range(1, 7)} | {k: F(1, 10) for k in range(7, 11)}
    assert heimr_challenge(1).probabilities() == expected


def test_c_minus_1_rolls_zero_only_on_a_double_one():
    assert heimr_challenge(-1).p(0) == F(1, 60)
    assert heimr_challenge(-1, d6_counts_as_one=False).p(0) == 0


@pytest.mark.parametrize("c, mean", [(-3, 2.139), (-2, 2.467), (-1, 2.9), (0, 3.5), (1, 6.083), (2, 7.335),
                                     (3, 8.066)])
def test_expected_raw_results_from_the_notes(c, mean):
    assert round(float(heimr_challenge(c).mean()), 3) == mean


def test_potential_shifts_the_result_and_bounds_hold():
    assert heimr_challenge(2, 3) == heimr_challenge(2) + 3
    for c in range(-5, 6):
        d = heimr_challenge(c)
        lo, hi = (1, c + 9) if c > 0 else (1, 6) if c == 0 else (1 - abs(c), 6)
        assert (d.min(), d.max()) == (lo, hi)
    with pytest.raises(ValueError):
        heimr_challenge(1.5)
