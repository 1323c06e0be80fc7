"""SPURG encounter odds (rules/spurg/matchup.py): duellists through the tracker, with the hit-points rule on."""

import pytest

from rules.dice import SeededSource
from rules.matchup import MatchupError, answer
from rules.spurg import REGISTRY
from rules.spurg.matchup import HIT_POINTS


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
