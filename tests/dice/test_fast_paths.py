"""The shortcuts a small question takes give exactly the answers of the general path: a sum of fair
dice as one integer power against running sums and brute force, a table's Fractions against the
Fraction constructor, a parsed expression kept by its text against a fresh parse."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import Dice, Dist, clear_caches, parse
from rules.dice.cost import box_cost, fair_sum_cost, power_cost, power_slot, weights_cost
from rules.dice.distribution import _box_sum, _fracs, priced_fair_sum

FAST = settings(max_examples=80, deadline=None)


def brute_force(low: int, sides: int, n: int) -> Dist:
    """Every roll of n dice listed and counted."""
    return Dist.from_outcomes(sum(roll) for roll in itertools.product(range(low, low + sides), repeat=n))


def test_small_sums_take_one_power_and_large_ones_running_sums():
    # so that the comparisons below see both ways (on a little-endian machine, as every one we run on)
    assert power_slot(6, 3) == 1 and power_slot(10, 8) == 4 and power_slot(6, 21) == 8
    assert power_slot(100, 40) == 0  # weights of more than 64 bits
    assert power_slot(100, 10) == 0  # a result of more than POWER_BYTES: running sums are cheaper


@pytest.mark.parametrize(("low", "sides", "n"), [(1, 6, 3), (1, 4, 5), (-1, 3, 4), (1, 10, 2), (0, 2, 7), (1, 1, 4)])
def test_a_sum_of_fair_dice_counts_every_roll(low, sides, n):
    assert priced_fair_sum.__wrapped__(low, sides, n) == brute_force(low, sides, n)


@FAST
@given(st.integers(-3, 3), st.integers(1, 120), st.integers(1, 70))
def test_a_sum_of_fair_dice_by_one_power_is_the_sum_by_running_sums(low, sides, n):
    by_power, by_running_sums = priced_fair_sum.__wrapped__(low, sides, n), _box_sum(low, sides, n)
    assert by_power == by_running_sums
    assert by_power._weights == by_running_sums._weights and by_power.denominator == sides ** n


def test_every_sum_the_power_takes_in_a_grid_matches_running_sums():
    taken = 0
    for sides in range(2, 41):
        for n in range(2, 66):
            if power_slot(sides, n):
                taken += 1
                assert priced_fair_sum.__wrapped__(1, sides, n)._weights == _box_sum(1, sides, n)._weights, f"{n}d{sides}"
    assert taken > 300


def test_a_fair_sum_is_priced_as_it_is_computed():
    # the work of 3d6 is the integer power's, of 40d100 the running sums', each with its weights
    work, shape = fair_sum_cost(1, 6, 3)
    assert work == power_cost(6, 3, 1) + weights_cost(shape.count, shape.bits) and shape.count == 16
    work, shape = fair_sum_cost(1, 100, 40)
    assert work == box_cost(100, 40) + weights_cost(shape.count, shape.bits)
    assert (shape.low, shape.high, shape.count) == (40, 4000, 3961)


@FAST
@given(st.lists(st.integers(0, 10 ** 30), max_size=20), st.integers(1, 10 ** 30))
def test_a_tables_fractions_are_the_fraction_constructors(numerators, denominator):
    made, expected = _fracs(numerators, denominator), [Fraction(n, denominator) for n in numerators]
    assert made == expected
    assert [(f.numerator, f.denominator, hash(f), repr(f)) for f in made] == \
        [(f.numerator, f.denominator, hash(f), repr(f)) for f in expected]


def test_probabilities_of_a_sum_are_exact_fractions():
    three = parse("3d6").dist()
    counts = Counter(sum(r) for r in itertools.product(range(1, 7), repeat=3))
    assert dict(three.items()) == {t: Fraction(c, 216) for t, c in counts.items()}
    assert three.cdf()[-1] == (18, 1) and three.format_table()[0] == (3, Fraction(1, 216), 1)


def test_the_same_text_parsed_twice_is_the_same_expression_until_the_caches_are_cleared():
    first = parse("3d6+2")
    assert parse("3d6+2") is first
    clear_caches()
    again = parse("3d6+2")
    assert again is not first and again == first


def test_an_expression_priced_before_equals_and_hashes_as_one_never_priced():
    priced = parse("4d6")
    priced.dist()
    fresh = Dice(4, 6)
    assert priced == fresh and hash(priced) == hash(fresh) and repr(priced) == repr(fresh) == "Dice(count=4, sides=6)"
    assert Dice.checked(4, 6) == fresh and str(Dice.checked(4, 6)) == "4d6"


@FAST
@given(st.lists(st.integers(1, 10 ** 6), min_size=1, max_size=12), st.booleans(), st.integers(-5, 5))
def test_the_probabilities_of_symmetric_weights_are_each_outcomes_own(half, odd, low):
    weights = half + half[len(half) - 1 - odd::-1] if len(half) > odd else half  # a palindrome, odd or even
    d = Dist.from_weights(dict(enumerate(weights, low)))
    assert d.items() == tuple((o, Fraction(w, d.denominator)) for o, w in zip(d.support(), d.weights().values()))
    assert sum(p for _, p in d.items()) == 1
