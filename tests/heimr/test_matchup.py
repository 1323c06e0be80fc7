"""Heimr encounter odds (rules/heimr/matchup.py): shieldmaidens through the combat log, injuries and all."""

import pytest

from rules.dice import SeededSource
from rules.heimr import REGISTRY
from rules.matchup import MatchupError, MatchupTooLargeError, answer


@pytest.fixture(scope="module")
def duel():
    return REGISTRY.matchups.build(["shieldmaiden"], ["shieldmaiden"])


def test_a_fight_through_the_log_ends_with_the_loser_out_of_the_fight(duel):
    played = duel.play(SeededSource(2))
    assert played.outcome in (0, 1) and played.left[1 - played.outcome] == 0


def test_the_same_seed_gives_the_same_shares(duel):
    assert answer(duel, fights=100, seed=6) == answer(duel, fights=100, seed=6)


def test_no_exact_model_so_exact_is_refused(duel):
    with pytest.raises(MatchupTooLargeError, match="no exact model"):
        answer(duel, exact=True)


def test_three_fighters_get_their_own_names():
    fight = REGISTRY.matchups.build(["shieldmaiden"], ["shieldmaiden", "shieldmaiden"])
    assert fight.fighters == ("Sigrun", "Sigrun 2", "Sigrun 3")


def test_an_unknown_fighter_is_named():
    with pytest.raises(MatchupError, match="no fighter 'troll'"):
        REGISTRY.matchups.build(["shieldmaiden"], ["troll"])
