"""NUGGET encounter odds (rules/nugget/matchup.py): the doctor and the thug through the fight tracker."""

import pytest

from rules.dice import SeededSource
from rules.matchup import MatchupError, MatchupTooLargeError, answer
from rules.nugget import REGISTRY
from rules.nugget.npcs import is_out


def test_a_seeded_fight_through_the_tracker_ends_with_one_side_out():
    fight = REGISTRY.matchups.build(["doctor"], ["thug"])
    played = fight.play(SeededSource(5))
    assert played.outcome in (0, 1) and played.rounds >= 1
    loser_taken = played.left[1 - played.outcome]
    assert loser_taken >= 1  # the loser took harm: the thug is out at his first Hurt


def test_the_same_seed_gives_the_same_shares():
    fight = REGISTRY.matchups.build(["doctor"], ["thug"])
    assert answer(fight, fights=150, seed=2) == answer(fight, fights=150, seed=2)


def test_the_thug_is_a_minion_out_at_his_first_hurt():
    from rules.nugget.harm import Wounds

    fight = REGISTRY.matchups.build(["thug"], ["doctor"])
    assert fight.fighters == ("Dockside thug", "Dr Ada Kell")
    assert is_out("minion", Wounds(hurts=1))


def test_no_exact_model_yet_so_exact_is_refused():
    with pytest.raises(MatchupTooLargeError, match="no exact model"):
        answer(REGISTRY.matchups.build(["doctor"], ["thug"]), exact=True)


def test_an_unknown_fighter_is_named():
    with pytest.raises(MatchupError, match="no fighter 'ogre'"):
        REGISTRY.matchups.build(["doctor"], ["ogre"])

