"""Dice challenges: closed forms against brute-force enumeration of every face, and the source's numbers."""

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import Dist, ScriptedSource
from rules.heimr.challenge import (
    HeimrError, apply_potential, challenge_distribution, consistency_dice, defender_holds,
    meets_requirement, opposed_probability, parse_challenge, raw_distribution, raw_score, roll_challenge,
    success_probability,
)


def enumerate_raw(c: int, counted: bool = True) -> dict[int, Fraction]:
    """The rule as the source words it, applied to every equally likely combination of faces."""
    counts: dict[int, int] = {}
    n = abs(c)
    for d6, *d10s in product(range(1, 7), *[range(1, 11)] * n):
        dice = [d6, *d10s]
        if c > 0:
            raw = max(dice) + max(0, d10s.count(10) - 1)
        elif c == 0:
            raw = d6
        else:
            ones = d10s.count(1) + (d6 == 1 if counted else 0)
            raw = min(dice) - max(0, ones - 1)
        counts[raw] = counts.get(raw, 0) + 1
    total = 6 * 10 ** n
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize("c", range(-3, 4))
@pytest.mark.parametrize("counted", [True, False])
def test_raw_distribution_matches_enumeration_of_every_face(c, counted):
    dist = raw_distribution(c, d6_counts_as_one=counted)
    assert dict(dist.items()) == enumerate_raw(c, counted)


def test_consistency_is_the_number_of_d10s_whatever_its_sign():
    assert [consistency_dice(c) for c in (-3, 0, 4)] == [3, 0, 4]
    with pytest.raises(HeimrError, match="1.5"):
        consistency_dice(1.5)


def test_raw_score_keeps_highest_plus_extra_tens_or_lowest_minus_extra_ones():
    assert raw_score(3, 4, (10, 10, 7)) == 11            # constructed: two tens
    assert raw_score(0, 5, ()) == 5
    assert raw_score(-2, 1, (1, 8)) == 0                 # constructed: d6 counted
    assert raw_score(-2, 1, (1, 8), d6_counts_as_one=False) == 1
    assert raw_score(-2, 4, (3, 8)) == 3


def test_raw_score_rejects_wrong_dice():
    with pytest.raises(HeimrError, match="11"):
        raw_score(1, 3, (11,))
    with pytest.raises(HeimrError, match="2 d10s"):
        raw_score(2, 3, (4,))
    with pytest.raises(HeimrError, match="7"):
        raw_score(0, 7, ())


def test_potential_is_added_to_the_raw_score():
    assert apply_potential(11, 2) == 13
    assert apply_potential(0, 1) == 1
    with pytest.raises(HeimrError, match="'2'"):
        apply_potential(3, "2")


def test_dice_challenge_rolls_the_d6_first_then_the_d10s():
    roll = roll_challenge(3, 2, ScriptedSource([4, 10, 10, 7]))
    assert (roll.d6, roll.d10s, roll.raw, roll.result) == (4, (10, 10, 7), 11, 13)
    low = roll_challenge(-2, 1, ScriptedSource([1, 1, 8]))
    assert (low.raw, low.result) == (0, 1)


def test_side_notes_five_highest_is_right_five_lowest_is_wrong():
    assert raw_distribution(5).p_ge(9) == Fraction(2101, 3125) == 1 - Fraction(8, 10) ** 5
    lowest = raw_distribution(-5).p_le(2)
    assert lowest == Fraction(7327, 9375) == 1 - Fraction(4, 6) * Fraction(8, 10) ** 5
    assert round(float(lowest), 3) == 0.782                     # not the source's 89%
    assert 1 - Fraction(4, 6) * Fraction(7, 10) ** 5 != lowest  # the slip that gives 88.8%


def test_raw_averages_from_the_notes():
    expected = {-3: 2.139, -2: 2.467, -1: 2.9, 0: 3.5, 1: 6.083, 2: 7.335, 3: 8.066}
    assert {c: round(float(raw_distribution(c).mean()), 3) for c in expected} == expected


def test_single_d10_distribution_from_the_notes():
    one = raw_distribution(1)
    assert [one.p(k) for k in range(1, 7)] == [Fraction(2 * k - 1, 60) for k in range(1, 7)]
    assert [one.p(k) for k in range(7, 11)] == [Fraction(1, 10)] * 4
    assert raw_distribution(-1).p(0) == Fraction(1, 60)


def test_raw_bounds_by_consistency():
    for c in range(1, 6):
        assert (raw_distribution(c).min(), raw_distribution(c).max()) == (1, c + 9)
    for c in range(-5, 0):
        assert (raw_distribution(c).min(), raw_distribution(c).max()) == (1 + c, 6)


def test_requirement_is_met_by_an_equal_result():
    assert meets_requirement(9, 9) and meets_requirement(10, 9) and not meets_requirement(8, 9)
    with pytest.raises(HeimrError, match="None"):
        meets_requirement(None, 3)


def test_success_probability_counts_equal_results():
    assert success_probability(0, 0, 4) == Fraction(1, 2)
    assert success_probability(0, 2, 8) == Fraction(1, 6)
    assert success_probability(5, 0, 9) == Fraction(2101, 3125)


def test_opposed_challenge_tie_goes_to_the_passive_side():
    assert defender_holds(7, 7) and not defender_holds(8, 7)
    # two plain d6: the active side wins outright in 15 of 36 cases
    assert opposed_probability((0, 0), (0, 0)) == Fraction(15, 36)


def test_challenge_notation_reads_consistency_and_potential():
    assert parse_challenge("C+3 P-1") == challenge_distribution(3, -1)
    assert parse_challenge("c=-2, p=1") == raw_distribution(-2) + 1
    assert parse_challenge("C0") == Dist.die(6)
    with pytest.raises(HeimrError, match="3d6"):
        parse_challenge("3d6")


@pytest.mark.parametrize("counted", [True, False])
def test_c_minus_5_is_at_most_two_with_78_percent_not_89(counted):
    assert raw_distribution(-5, d6_counts_as_one=counted).p_le(2) == Fraction(7327, 9375)


def test_c1_raw_distribution_from_the_notes():
    expected = {k: Fraction(2 * k - 1, 60) for k in range(1, 7)} | {k: Fraction(1, 10) for k in range(7, 11)}
    assert raw_distribution(1).probabilities() == expected


def test_c_minus_1_rolls_zero_only_on_a_double_one():
    assert raw_distribution(-1).p(0) == Fraction(1, 60)
    assert raw_distribution(-1, d6_counts_as_one=False).p(0) == 0


@pytest.mark.parametrize("c, mean", [(-3, 2.139), (-2, 2.467), (-1, 2.9), (0, 3.5), (1, 6.083), (2, 7.335),
                                     (3, 8.066)])
def test_expected_raw_results_from_the_notes(c, mean):
    assert round(float(raw_distribution(c).mean()), 3) == mean


def test_a_huge_consistency_is_refused_not_computed():
    with pytest.raises(HeimrError, match="1001"):
        raw_distribution(1001)
    assert raw_distribution(60).max() == 69  # large pools stay cheap: closed forms, no enumeration


def test_raw_score_rejects_true_and_false_as_faces():
    with pytest.raises(HeimrError, match="True"):
        raw_score(1, True, (5,))
    with pytest.raises(HeimrError, match="False"):
        raw_score(1, 3, (False,))
