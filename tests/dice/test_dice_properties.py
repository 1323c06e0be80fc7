"""Hypothesis properties: distributions sum to 1, keep-highest is monotone, notation round-trips, and
no string makes the parser raise anything but NotationError.  Sizes stay small to keep this fast."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import (ComputationTooLargeError, Constant, Dice, Dist, Explode, Keep, NotationError,
                        SuccessCount, Sum, compare, keep, keep_highest, keep_lowest, parse)

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

weights = st.dictionaries(st.integers(-6, 12), st.integers(0, 5), min_size=1, max_size=6).filter(
    lambda d: any(d.values()))
dists = weights.map(Dist.from_weights)
sides = st.integers(1, 12)


def total(d: Dist) -> F:
    return sum((p for _, p in d.items()), F(0))


@FAST
@given(dists, dists, st.integers(-5, 5))
def test_every_operation_gives_probabilities_that_sum_to_one(a, b, k):
    for d in (a, a + b, a - b, a + k, a * k, -a, a.repeat_sum(3), keep_highest([a, b]),
              keep_lowest([a, b]), a.map(lambda x: x % 3)):
        assert total(d) == 1
        assert all(p > 0 for _, p in d.items())
        assert list(d.support()) == sorted(d.support())


@FAST
@given(dists, dists)
def test_sums_add_means_and_variances_and_compare_partitions(a, b):
    s = a + b
    assert s.mean() == a.mean() + b.mean()
    assert s.variance() == a.variance() + b.variance()
    win, tie, lose = compare(a, b)
    assert win + tie + lose == 1 and compare(b, a) == (lose, tie, win)


@FAST
@given(dists, st.fractions(0, 1))
def test_quantile_is_the_smallest_outcome_reaching_q(d, q):
    x = d.quantile(q)
    assert d.p_le(x) >= q and d.p_lt(x) < q or (q == 0 and x == d.min())


@FAST
@given(st.lists(sides, min_size=1, max_size=4), sides, st.integers(-2, 14))
def test_keep_highest_is_monotone_in_the_pool(pool, extra, dc):
    dice = [Dist.die(s) for s in pool]
    bigger = keep_highest(dice + [Dist.die(extra)])
    assert bigger.p_ge(dc) >= keep_highest(dice).p_ge(dc)  # one more die never hurts
    upgraded = [Dist.die(pool[0] + 2)] + dice[1:]
    assert keep_highest(upgraded).p_ge(dc) >= keep_highest(dice).p_ge(dc)  # a bigger die never hurts
    assert keep_lowest(dice + [Dist.die(extra)]).p_ge(dc) <= keep_lowest(dice).p_ge(dc)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.data())
def test_keep_k_of_n_matches_sorting_every_roll(n, s, data):
    k = data.draw(st.integers(1, n))
    rolls = list(itertools.product(range(1, s + 1), repeat=n))
    assert keep(n, s, k) == Dist.from_outcomes(sum(sorted(r)[-k:]) for r in rolls)
    assert keep(n, s, k, highest=False) == Dist.from_outcomes(sum(sorted(r)[:k]) for r in rolls)


counts = st.integers(1, 12)
die_sides = st.integers(1, 100)


@st.composite
def keeps(draw):
    n = draw(counts)
    return Keep(n, draw(die_sides), draw(st.integers(1, n)), draw(st.booleans()))


@st.composite
def success_counts(draw):
    s = draw(die_sides)
    return SuccessCount(draw(counts), s, draw(st.integers(1, s)))


single_terms = st.one_of(
    st.builds(Constant, st.integers(0, 1000)),
    st.builds(Dice, counts, die_sides),
    keeps(),
    st.builds(Explode, counts, st.integers(2, 100)),
    success_counts(),
)


@st.composite
def expressions(draw):
    terms = draw(st.lists(single_terms, min_size=1, max_size=4))
    signs = draw(st.lists(st.sampled_from([1, -1]), min_size=len(terms), max_size=len(terms)))
    if len(terms) == 1 and signs[0] == 1:
        return terms[0]
    if len(terms) == 1 and isinstance(terms[0], Constant):
        return Constant(-terms[0].value)
    return Sum(tuple(terms), tuple(signs))


@settings(max_examples=150, deadline=None)
@given(expressions())
def test_canonical_notation_parses_back_to_an_equal_object(expr):
    assert parse(str(expr)) == expr


TOKENS = ["d", "D", "1", "2", "3", "6", "10", "0", "+", "-", " ", "k", "kh", "kl", "!", ">", ">=", "›", "≥",
          "20", "4d6", "d8", "x", "(", "1000", "99999"]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=30), st.lists(st.sampled_from(TOKENS), max_size=12).map("".join)))
def test_arbitrary_strings_raise_nothing_but_notation_errors(text):
    try:
        expr = parse(text)
    except NotationError as err:
        assert 0 <= err.position <= len(text) and err.reason
        return
    assert parse(str(expr)) == expr  # whatever parses also round-trips
    if expr.dice_count <= 12:
        try:
            assert total(expr.dist()) == 1
        except ComputationTooLargeError:
            pass
