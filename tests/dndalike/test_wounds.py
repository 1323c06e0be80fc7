"""Wounds and finishing blows; death odds by brute-force enumeration of the wound dice."""

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedSource
from rules.dndalike.wounds import (
    DamageTrack,
    DndalikeError,
    death_probability,
    finishing_blow,
    finishing_blow_odds,
    heal_wound,
    suffer_wounds,
    wounds_dealt,
)


def brute_death(wounds, health):
    hits = sum(sum(f) >= health for f in product(range(1, 7), repeat=wounds))
    return Fraction(hits, 6 ** wounds)


def test_wound_adds_a_secret_d6_per_wound():
    track = DamageTrack()
    assert suffer_wounds(track, 2, ScriptedSource([4, 3])) == (4, 3)
    assert (track.count, track.total) == (2, 7)
    with pytest.raises(DndalikeError, match="-1"):
        suffer_wounds(track, -1, ScriptedSource([]))


def test_lesser_character_counts_wounds_without_dice():
    track = DamageTrack(lesser=True)
    assert suffer_wounds(track, 3, ScriptedSource([])) == ()
    assert (track.count, track.total) == (3, 0)


def test_finishing_blow_kills_when_damage_reaches_health_and_damage_alone_never_kills():
    track = DamageTrack()
    suffer_wounds(track, 3, ScriptedSource([6, 6, 6]))
    assert track.total == 18  # far beyond health 5, yet alive until a finishing blow
    assert finishing_blow(track, 5, ScriptedSource([])).dead
    track = DamageTrack()
    suffer_wounds(track, 1, ScriptedSource([4]))
    assert not finishing_blow(track, 5, ScriptedSource([])).dead
    assert finishing_blow(track, 4, ScriptedSource([])).dead
    with pytest.raises(DndalikeError, match="0"):
        finishing_blow(track, 0, ScriptedSource([]))


def test_lesser_character_rolls_all_wounds_at_each_finishing_blow():
    track = DamageTrack(lesser=True, count=3)
    first = finishing_blow(track, 8, ScriptedSource([1, 2, 3]))
    assert (first.damage, first.dead, first.rolled) == (6, False, (1, 2, 3))
    assert track.total == 0  # nothing recorded
    second = finishing_blow(track, 8, ScriptedSource([2, 2, 4]))
    assert second.dead


def test_death_chance_three_wounds_health_eight_is_181_in_216():
    assert death_probability(3, 8) == Fraction(181, 216) == brute_death(3, 8)
    for w, h in product(range(0, 5), range(1, 15)):
        assert death_probability(w, h) == (brute_death(w, h) if w else 0)


def test_finishing_blow_odds_table_rows_are_wounds():
    table = finishing_blow_odds(3, 8, 8)
    assert table.column("Health 8") == (0, Fraction(15, 36), Fraction(181, 216))


def test_double_wounds_double_only_wounds():
    assert wounds_dealt() == 1
    assert wounds_dealt(1, two_handed=True) == 2
    with pytest.raises(DndalikeError):
        wounds_dealt(-1)


def test_heal_wound_removes_one_wound_latest_by_default():
    track = DamageTrack(count=3, rolls=[5, 1, 3])
    assert heal_wound(track) == 3 and track.rolls == [5, 1]
    assert heal_wound(track, which="largest") == 5 and track.rolls == [1]
    assert heal_wound(track, which="smallest") == 1 and track.count == 0
    assert heal_wound(track) == 0
    with pytest.raises(DndalikeError, match="'random'"):
        heal_wound(track, which="random")
