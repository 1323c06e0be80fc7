"""Heimr encounter odds (rules/heimr/matchup.py): the exact duel against seeded fights through the combat log."""

import pytest

from rules.dice import SeededSource
from rules.matchup import MatchupError, answer, simulate
from rules.heimr import REGISTRY


@pytest.fixture(scope="module")
def duel():
    return REGISTRY.matchups.build(["shieldmaiden"], ["shieldmaiden"])


def test_the_exact_duel_and_seeded_fights_through_the_combat_log_agree_within_the_interval(duel):
    exact = answer(duel, exact=True)
    simulated = simulate(duel.play, duel.sides, duel.fighters, duel.left_label, fights=1500, seed=5)
    for side in (0, 1):
        low, high = simulated.interval(simulated.wins[side])
        assert low <= exact.wins[side] <= high
    assert exact.draw == 0 and sum(exact.wins) == 1


def test_the_first_to_act_has_the_edge_in_a_duel_of_equals(duel):
    exact = answer(duel, exact=True)
    assert exact.wins[0] > exact.wins[1]  # equal fighters: a full tie goes to the one listed first


def test_a_fight_played_through_the_log_leaves_the_loser_without_hit_points(duel):
    played = duel.play(SeededSource(2))
    assert played.outcome in (0, 1) and played.left[1 - played.outcome] == 0


def test_three_fighters_have_no_exact_model_and_are_simulated():
    fight = REGISTRY.matchups.build(["shieldmaiden"], ["shieldmaiden", "shieldmaiden"])
    assert fight.model is None and fight.fighters == ("Sigrun", "Sigrun 2", "Sigrun 3")


def test_an_unknown_fighter_is_named():
    with pytest.raises(MatchupError, match="no fighter 'troll'"):
        REGISTRY.matchups.build(["shieldmaiden"], ["troll"])
