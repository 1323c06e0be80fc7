"""Dist: exact construction, queries and arithmetic, checked against brute-force enumeration."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import pytest

from rules.dice import Dist, Outcomes, compare

D6 = Dist.die(6)


def enumerate_sum(*sides: int) -> dict[int, F]:
    """P(sum = t) by listing every face combination."""
    combos = list(itertools.product(*(range(1, s + 1) for s in sides)))
    out: dict[int, F] = {}
    for faces in combos:
        out[sum(faces)] = out.get(sum(faces), 0) + F(1, len(combos))
    return out


def test_a_die_is_uniform_over_its_faces():
    assert D6.items() == tuple((k, F(1, 6)) for k in range(1, 7))
    assert Dist.die(1) == Dist.constant(1)
    with pytest.raises(ValueError):
        Dist.die(0)


def test_from_weights_normalises_and_drops_impossible_outcomes():
    d = Dist.from_weights({3: 2, 1: 6, 2: 0, 7: F(1, 2)})
    assert d.support() == (1, 3, 7)
    assert d.probabilities() == {1: F(12, 17), 3: F(4, 17), 7: F(1, 17)}
    assert sum(p for _, p in d.items()) == 1
    assert Dist({1: 1, 2: 1}) == Dist.from_weights({1: 5, 2: 5})


def test_from_weights_refuses_inexact_or_negative_weights():
    with pytest.raises(TypeError):
        Dist.from_weights({1: 0.5, 2: 0.5})
    with pytest.raises(ValueError):
        Dist.from_weights({1: -1, 2: 2})
    with pytest.raises(ValueError):
        Dist.from_weights({1: 0})


def test_from_probabilities_must_sum_to_one():
    assert Dist.from_probabilities({0: F(1, 3), 1: F(2, 3)}).p(1) == F(2, 3)
    with pytest.raises(ValueError):
        Dist.from_probabilities({0: F(1, 3), 1: F(1, 3)})


def test_point_and_tail_queries_agree_with_counting_faces():
    two = Dist.die(6) + Dist.die(8)
    brute = enumerate_sum(6, 8)
    for x in range(0, 16):
        assert two.p(x) == brute.get(x, 0)
        assert two.p_ge(x) == sum(p for t, p in brute.items() if t >= x)
        assert two.p_gt(x) == sum(p for t, p in brute.items() if t > x)
        assert two.p_le(x) == sum(p for t, p in brute.items() if t <= x)
        assert two.p_lt(x) == sum(p for t, p in brute.items() if t < x)
        assert two.p_success(x) == two.p_ge(x)


def test_mean_variance_and_sd_of_a_d6():
    assert D6.mean() == F(7, 2)
    assert D6.variance() == F(35, 12)
    assert D6.sd() == pytest.approx(math.sqrt(35 / 12))
    three = D6.repeat_sum(3)
    assert three.mean() == F(21, 2) and three.variance() == 3 * F(35, 12)
    assert (D6.min(), D6.max(), three.min(), three.max()) == (1, 6, 3, 18)


def test_quantile_is_the_smallest_outcome_reaching_the_probability():
    assert D6.quantile(0) == 1
    assert D6.quantile(F(1, 6)) == 1
    assert D6.quantile(F(1, 6) + F(1, 10**9)) == 2
    assert D6.quantile(F(1, 2)) == 3 and D6.median() == 3
    assert D6.quantile(1) == 6
    assert D6.quantile(0.5) == 3
    with pytest.raises(ValueError):
        D6.quantile(F(3, 2))


def test_cdf_items_iteration_and_length():
    assert D6.cdf()[2] == (3, F(1, 2))
    assert list(D6) == [1, 2, 3, 4, 5, 6] and len(D6) == 6
    assert 6 in D6 and 7 not in D6


def test_cumulative_weights_sum_the_weights_of_the_first_k_outcomes_over_the_denominator():
    two = Dist.die(6) + Dist.die(6)
    cumulative = two.cumulative_weights()
    assert list(cumulative) == [0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36] and two.denominator == 36
    assert all(F(c, two.denominator) == two.p_lt(x) for c, x in zip(cumulative, two.support()))


def test_the_mean_is_computed_once_and_stays_exact():
    two = Dist.die(6) + Dist.die(6)
    assert two.mean() == 7 and two.mean() is two.mean() and two.variance() == F(35, 6)


def test_sum_of_independent_dice_is_a_convolution():
    for sides in [(4, 6), (6, 6, 6), (2, 10, 3), (20, 4)]:
        total = Dist.constant(0)
        for s in sides:
            total = total + Dist.die(s)
        assert total.probabilities() == enumerate_sum(*sides)


def test_long_sums_take_the_packed_integer_path_and_stay_exact():
    # 12d6 is long enough for Kronecker substitution; check against a plain dict convolution.
    expected = {0: 1}
    for _ in range(12):
        new: dict[int, int] = {}
        for t, w in expected.items():
            for f in range(1, 7):
                new[t + f] = new.get(t + f, 0) + w
        expected = new
    assert D6.repeat_sum(12).weights() == expected
    assert D6.repeat_sum(12).denominator == 6 ** 12


def test_constants_shift_negate_and_scale_outcomes():
    assert (D6 + 3).support() == (4, 5, 6, 7, 8, 9)
    assert (3 + D6) == D6 + 3
    assert (D6 - 1).support() == tuple(range(0, 6))
    assert (-D6).support() == tuple(range(-6, 0))
    assert (10 - D6).support() == tuple(range(4, 10))
    assert (D6 * 2).support() == (2, 4, 6, 8, 10, 12) and (2 * D6) == D6 * 2
    assert (D6 * -1) == -D6
    assert D6 * 0 == Dist.constant(0)
    assert (D6 - D6).probabilities() == {t: F(6 - abs(t), 36) for t in range(-5, 6)}


def test_repeat_sum_matches_repeated_addition():
    d = Dist.from_weights({0: 1, 1: 2, 5: 1})
    running = Dist.constant(0)
    for n in range(0, 9):
        assert d.repeat_sum(n) == running
        running = running + d
    with pytest.raises(ValueError):
        d.repeat_sum(-1)


def test_map_merges_outcomes_and_given_conditions():
    parity = D6.map(lambda x: x % 2)
    assert parity.probabilities() == {0: F(1, 2), 1: F(1, 2)}
    high = D6.given(lambda x: x >= 5)
    assert high.probabilities() == {5: F(1, 2), 6: F(1, 2)}
    with pytest.raises(ValueError):
        D6.given(lambda x: x > 6)


def test_mapped_outcomes_may_be_tuples_or_strings():
    labels = D6.map(lambda x: "hit" if x >= 4 else "miss")
    assert labels.support() == ("hit", "miss") and labels.p("hit") == F(1, 2)
    pairs = D6.map(lambda x: (x >= 4, x == 6))
    assert pairs.p((True, True)) == F(1, 6)
    mixed = D6.map(lambda x: None if x == 1 else x)  # unorderable outcomes still build
    assert mixed.p(None) == F(1, 6)


def test_compare_gives_win_tie_lose_by_enumeration():
    a, b = Dist.die(8), Dist.die(6) + 1
    win = tie = lose = F(0)
    for x, y in itertools.product(range(1, 9), range(2, 8)):
        p = F(1, 48)
        if x > y:
            win += p
        elif x == y:
            tie += p
        else:
            lose += p
    assert compare(a, b) == Outcomes(win, tie, lose)
    assert a.compare(b).win == win


def test_equal_distributions_are_equal_and_hash_alike():
    a = Dist.from_weights({1: 2, 2: 2})
    b = Dist.from_probabilities({2: F(1, 2), 1: F(1, 2)})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Dist.die(3)


def test_format_table_rows_are_outcome_p_equal_p_at_least():
    rows = (D6 + D6).format_table()
    assert rows[0] == (2, F(1, 36), F(1))
    assert rows[5] == (7, F(1, 6), F(21, 36))
    assert rows[-1] == (12, F(1, 36), F(1, 36))


def test_repr_shows_fractions():
    assert repr(Dist.die(2)) == "Dist({1: 1/2, 2: 1/2})"
