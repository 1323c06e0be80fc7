"""SPURG encounter odds (rules/spurg/matchup.py): duellists through the tracker, with the hit-points rule on."""

import pytest

from fractions import Fraction

from rules.dice import SeededSource
from rules.matchup import Matchup, MatchupError, MatchupTooLargeError, answer
from rules.spurg import REGISTRY
from rules.spurg.matchup import HIT_POINTS, DuelModel, duellist_fighter, first_to_act
from tests.matchup_pricing import never_explored


def test_a_seeded_fight_ends_with_the_loser_out_of_hit_points():
    fight = REGISTRY.matchups.build(["duellist"], ["duellist"])
    played = fight.play(SeededSource(8))
    assert played.outcome in (0, 1)
    assert played.left[1 - played.outcome] == 0 < played.left[played.outcome]
    assert HIT_POINTS.enabled  # without this book's optional rule the source's fights never end


def test_the_same_seed_gives_the_same_shares():
    fight = REGISTRY.matchups.build(["duellist"], ["duellist"])
    assert answer(fight, fights=100, seed=4) == answer(fight, fights=100, seed=4)


def test_an_unknown_fighter_is_named():
    with pytest.raises(MatchupError, match="no fighter 'pirate'"):
        REGISTRY.matchups.build(["duellist"], ["pirate"])


def test_the_exact_duel_and_seeded_fights_through_the_tracker_agree_within_the_interval():
    fight = REGISTRY.matchups.build(["duellist"], ["duellist"])
    exact = answer(fight, exact=True)
    simulated = answer(fight, exact=False, fights=1000, seed=12)
    assert exact.exact and exact.draw == 0
    for side in (0, 1):
        low, high = simulated.interval(simulated.wins[side])
        assert low <= exact.wins[side] <= high
    assert abs(float(simulated.mean_rounds - exact.mean_rounds)) < 0.3


def test_equal_duellists_split_the_turn_order_by_a_roll_off_rolled_again_on_a_tie():
    a, b = duellist_fighter("A", "a"), duellist_fighter("B", "b")
    assert first_to_act(a, b) == Fraction(1, 2)
    assert answer(REGISTRY.matchups.build(["duellist"], ["duellist"]), exact=True).wins == (Fraction(1, 2),) * 2


def test_the_faster_fighter_acts_first_without_a_roll_off():
    a, b = duellist_fighter("A", "a"), duellist_fighter("B", "b")
    a.speed += 1
    assert first_to_act(a, b) == 1 and first_to_act(b, a) == 0


def test_a_fighter_knocked_out_before_its_attack_makes_none():
    a, b = duellist_fighter("A", "a"), duellist_fighter("B", "b")
    model = DuelModel(a, b)
    hp = model.hp[1]
    after = dict((s, p) for p, s in model.round((0, 0, hp - 1)))  # B is one point from out; A acts first
    knocked_out = sum(p for (first, taken_a, taken_b), p in after.items() if taken_b >= hp)
    assert knocked_out == sum(p for p, amount in model.hits[0] if amount >= 1)
    assert all(taken_a == 0 for (first, taken_a, taken_b) in after if taken_b >= hp)


def test_two_against_one_has_no_exact_model_so_exact_is_refused():
    fight = REGISTRY.matchups.build(["duellist"], ["duellist", "duellist"])
    with pytest.raises(MatchupTooLargeError, match="no exact model"):
        answer(fight, exact=True)


def test_a_duel_of_giants_is_refused_exactly_at_once():
    """Priced before explored: duellists of Vitality 200 may reach 2 x (hit points + 1)^2 states; the
    refusal names that and the budget, and no round is computed."""
    a, b = duellist_fighter("A", "a"), duellist_fighter("B", "b")
    a.vitality = b.vitality = 200
    model = DuelModel(a, b)
    model.round = never_explored
    assert model.estimate == 2 * (HIT_POINTS.hit_points(200) + 1) ** 2
    with pytest.raises(MatchupTooLargeError, match=f"may reach {model.estimate:,} states, far more than the exact budget of 3,000"):
        answer(Matchup(("A", "B"), model.fighters, "hit points left", lambda source: None, model), exact=True)
