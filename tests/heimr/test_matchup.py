"""Heimr encounter odds (rules/heimr/matchup.py): shieldmaidens through the combat log, injuries and all."""

from fractions import Fraction

import pytest

from rules.dice import SeededSource
from rules.heimr import REGISTRY
from rules.heimr.matchup import NOTHING, DuelModel, shieldmaiden_fighter
from rules.matchup import Matchup, MatchupError, MatchupTooLargeError, answer
from tests.matchup_pricing import never_explored


@pytest.fixture(scope="module")
def duel():
    return REGISTRY.matchups.build(["shieldmaiden"], ["shieldmaiden"])


def test_a_fight_through_the_log_ends_with_the_loser_out_of_the_fight(duel):
    played = duel.play(SeededSource(2))
    assert played.outcome in (0, 1) and played.left[1 - played.outcome] == 0


def test_the_same_seed_gives_the_same_shares(duel):
    assert answer(duel, fights=100, seed=6) == answer(duel, fights=100, seed=6)


def test_the_exact_duel_and_seeded_fights_through_the_log_agree_within_the_interval(duel):
    exact = answer(duel, exact=True)
    simulated = answer(duel, exact=False, fights=1000, seed=11)
    assert exact.exact and not simulated.exact and sum(exact.wins) + exact.draw == 1
    for side in (0, 1):
        low, high = simulated.interval(simulated.wins[side])
        assert low <= exact.wins[side] <= high
    assert abs(float(simulated.mean_rounds - exact.mean_rounds)) < 0.5


def test_equal_shieldmaidens_split_the_duel_by_initiative_alone(duel):
    exact = answer(duel, exact=True)
    first = duel.model.start()
    assert exact.wins[0] > exact.wins[1] and first[0][0] > first[1][0]  # ties on initiative go to the one listed


def test_a_dazed_defender_cannot_defend_so_the_blow_lands():
    model = DuelModel(shieldmaiden_fighter("A"), shieldmaiden_fighter("B"))
    assert model._landing(0, NOTHING, frozenset({"Daze"})) == 1
    assert 0 < model._landing(0, NOTHING, NOTHING) < 1


def test_an_injuring_blow_rolls_a_location_and_its_effect_lasts_one_turn():
    model = DuelModel(shieldmaiden_fighter("A"), shieldmaiden_fighter("B"))
    hurt = model._hurt(0, (1, NOTHING))  # a Hit of 2 takes 1 HP to -1: injured, a location is rolled
    assert sorted((p, sorted(status[1])) for p, status in hurt) == [
        (Fraction(1, 3), ["Daze"]), (Fraction(1, 3), ["Drop"]), (Fraction(1, 3), ["Fall"])]
    dropped = (-1, frozenset({"Drop"}))
    ((p, after, foe),) = model._turn(0, dropped, (12, NOTHING))  # no weapon: the turn passes, then it is over
    assert (p, after, foe) == (1, (-1, NOTHING), (12, NOTHING))


def test_two_against_one_has_no_exact_model_so_exact_is_refused():
    fight = REGISTRY.matchups.build(["shieldmaiden"], ["shieldmaiden", "shieldmaiden"])
    with pytest.raises(MatchupTooLargeError, match="no exact model"):
        answer(fight, exact=True)


def test_three_fighters_get_their_own_names():
    fight = REGISTRY.matchups.build(["shieldmaiden"], ["shieldmaiden", "shieldmaiden"])
    assert fight.fighters == ("Sigrun", "Sigrun 2", "Sigrun 3")


def test_an_unknown_fighter_is_named():
    with pytest.raises(MatchupError, match="no fighter 'troll'"):
        REGISTRY.matchups.build(["shieldmaiden"], ["troll"])


@pytest.mark.parametrize("hp", [1, 12, 25])
def test_the_duels_estimate_bounds_the_states_it_reaches(hp):
    from rules.matchup import solve

    a, b = shieldmaiden_fighter("A"), shieldmaiden_fighter("B")
    a.hp, b.hp = hp, hp + 3
    model = DuelModel(a, b)
    assert solve(model, ("A", "B"), "hit points left").states <= model.estimate


def test_a_duel_of_giants_is_refused_exactly_at_once():
    """Priced before explored: 500 hit points each may reach 61,250 states; the refusal names that
    and the budget, and no round is computed."""
    a, b = shieldmaiden_fighter("A"), shieldmaiden_fighter("B")
    a.hp = b.hp = 500
    model = DuelModel(a, b)
    model.round = never_explored
    with pytest.raises(MatchupTooLargeError, match=f"may reach {model.estimate:,} states, far more than the exact budget of 3,000"):
        answer(Matchup(("A", "B"), model.fighters, "hit points left", lambda source: None, model), exact=True)
