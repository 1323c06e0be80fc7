"""Success counting (NUGGET): thresholds, lid-on, lid-off explosions and their depth rule, fumbles."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rules.dice import Dist, EXPLOSION_TAIL, count_successes, fumble_probability, pool_outcomes


def brute_successes(n, sides=6, threshold=4, lid_on=False) -> Dist:
    def rule(faces):
        k = sum(f >= threshold for f in faces)
        return k + (lid_on and all(f == sides for f in faces))
    return Dist.from_outcomes(rule(f) for f in itertools.product(range(1, sides + 1), repeat=n))


def chain_successes(depth, sides=6, threshold=4) -> Dist:
    """One die's successes when it explodes at most ``depth`` times, by listing roll sequences."""
    weights: dict[int, F] = {}

    def walk(level, prob, successes):
        for face in range(1, sides + 1):
            p = prob / sides
            s = successes + (face >= threshold)
            if face == sides and level < depth:
                walk(level + 1, p, s)
            else:
                weights[s] = weights.get(s, 0) + p
    walk(0, F(1), 0)
    return Dist.from_probabilities(weights)


@pytest.mark.parametrize("n, k, expected", [
    (1, 1, F(1, 2)), (2, 1, F(3, 4)), (3, 1, F(7, 8)), (4, 1, F(15, 16)),
    (3, 2, F(1, 2)), (4, 2, F(11, 16)), (5, 2, F(13, 16)), (5, 3, F(1, 2)), (6, 3, F(21, 32)),
    (5, 1, F(31, 32)),  # the notes' doctor: first aid with 5 dice
])
def test_nugget_published_odds_of_at_least_k_successes(n, k, expected):
    assert count_successes(n).p_ge(k) == expected


@pytest.mark.parametrize("n, sides, threshold", [(1, 6, 4), (3, 6, 4), (4, 6, 5), (3, 10, 7), (5, 4, 1)])
def test_success_count_is_binomial(n, sides, threshold):
    assert count_successes(n, sides, threshold) == brute_successes(n, sides, threshold)


def test_lid_on_matches_the_notes_for_one_and_two_dice():
    assert count_successes(1, lid="on").probabilities() == {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}
    assert count_successes(2, lid="on").probabilities() == {0: F(1, 4), 1: F(1, 2), 2: F(2, 9),
                                                            3: F(1, 36)}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_lid_on_adds_one_success_when_every_die_shows_six(n):
    assert count_successes(n, lid="on") == brute_successes(n, lid_on=True)


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_lid_off_with_a_depth_limit_matches_listing_every_reroll_sequence(depth):
    one = chain_successes(depth)
    assert count_successes(1, lid="off", max_depth=depth) == one
    assert count_successes(3, lid="off", max_depth=depth) == one.repeat_sum(3)
    assert count_successes(2, 8, 6, lid="off", max_depth=depth) == chain_successes(depth, 8, 6).repeat_sum(2)


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_unlimited_lid_off_folds_a_tail_below_two_to_the_minus_64_into_the_cap(n):
    d = count_successes(n, lid="off")
    cap = d.max()
    assert d.p(cap) <= EXPLOSION_TAIL  # the folded tail is P(K >= cap)
    assert d.p_ge(cap - 1) > EXPLOSION_TAIL  # ... and the cap is the first one that small
    # Below the cap every probability is exact: a depth limit of ``cap`` cannot reach those counts.
    limited = count_successes(n, lid="off", max_depth=cap)
    for k in range(cap):
        assert d.p(k) == limited.p(k)
    assert d.p_ge(cap) == limited.p_ge(cap)


@pytest.mark.parametrize("n", [1, 3, 10, 20])
def test_lid_off_expects_three_fifths_of_a_success_per_die(n):
    # The true mean is 3n/5; folding the tail at the cap loses E[(K - cap)+], and for this
    # geometric-type tail that is at most a few times the folded mass, itself <= 2**-64.
    d = count_successes(n, lid="off")
    shortfall = F(3 * n, 5) - d.mean()
    assert 0 < shortfall < 4 * EXPLOSION_TAIL
    assert d.mean() > F(1, 2) * n  # more than without explosions


def test_a_looser_tail_gives_a_smaller_cap_and_a_bigger_shortfall():
    loose = count_successes(4, lid="off", tail=F(1, 1000))
    assert loose.p(loose.max()) <= F(1, 1000) and loose.max() < count_successes(4, lid="off").max()
    assert 0 < F(12, 5) - loose.mean() < F(4, 1000)


def test_bad_success_arguments_are_value_errors():
    for kwargs in [dict(n=-1), dict(n=2, threshold=7), dict(n=2, lid="sideways"), dict(n=2, sides=1, lid="off"),
                   dict(n=2, lid="off", max_depth=-1), dict(n=2, threshold=0)]:
        with pytest.raises(ValueError):
            count_successes(**kwargs)
    assert count_successes(0) == Dist.constant(0)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_fumble_is_every_die_showing_one(n):
    assert fumble_probability(n) == F(1, 6 ** n)
    assert fumble_probability(n, 4) == F(1, 4 ** n)
    assert fumble_probability(0) == 0


@pytest.mark.parametrize("n, lid", [(1, "none"), (2, "none"), (3, "on"), (2, "on")])
def test_pool_outcomes_gives_successes_and_fumble_jointly(n, lid):
    def rule(faces):
        k = sum(f >= 4 for f in faces) + (lid == "on" and all(f == 6 for f in faces))
        return (k, all(f == 1 for f in faces))
    expected = Dist.from_outcomes(rule(f) for f in itertools.product(range(1, 7), repeat=n))
    assert pool_outcomes(n, lid=lid) == expected


def test_pool_outcomes_fumble_and_lid_off_joint_keeps_success_marginal():
    joint = pool_outcomes(3, lid="off")
    assert joint.map(lambda pair: pair[0]) == count_successes(3, lid="off")
    assert joint.p((0, True)) == F(1, 216)
