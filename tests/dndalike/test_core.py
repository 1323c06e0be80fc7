"""Core rules: save odds by brute-force enumeration of d6 faces, fatigue and wounds."""

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedSource
from rules.dndalike.core import (
    DndalikeError,
    Edge,
    edge,
    fatigue_headroom,
    gain_fatigue,
    natural_result,
    roll_die,
    save_odds,
    save_probability,
    saving_throw,
    succeeds,
)


def brute_save(fatigue, faces_per_roll=1, keep=max, modifier=0):
    wins = total = 0
    for faces in product(range(1, 7), repeat=faces_per_roll):
        face = keep(faces)
        ok = face == 6 or (face != 1 and face + modifier >= fatigue)
        wins += ok
        total += 1
    return Fraction(wins, total)


def test_saving_throw_odds_match_the_notes_for_each_fatigue():
    notes = {0: Fraction(5, 6), 1: Fraction(5, 6), 2: Fraction(5, 6), 3: Fraction(2, 3), 4: Fraction(1, 2),
             5: Fraction(1, 3), 6: Fraction(1, 6), 7: Fraction(1, 6), 12: Fraction(1, 6)}
    for fatigue, p in notes.items():
        assert save_probability(fatigue) == p == brute_save(fatigue)


def test_saving_throw_with_advantage_matches_the_notes():
    notes = [Fraction(35, 36), Fraction(8, 9), Fraction(3, 4), Fraction(5, 9), Fraction(11, 36)]
    assert [save_probability(f, how=Edge.ADVANTAGE) for f in (2, 3, 4, 5, 6)] == notes
    for f in range(9):
        assert save_probability(f, how=Edge.ADVANTAGE) == brute_save(f, 2, max)
        assert save_probability(f, how=Edge.DISADVANTAGE) == brute_save(f, 2, min)
        assert save_probability(f, modifier=-2) == brute_save(f, modifier=-2)


def test_save_odds_table_lists_fatigue_zero_to_seven():
    table = save_odds()
    assert table.column("Fatigue") == tuple(range(8))
    assert table.column("With advantage")[4] == Fraction(3, 4)


def test_saving_throw_natural_six_and_one_decide_alone():
    assert saving_throw(ScriptedSource([6]), 9).success
    assert not saving_throw(ScriptedSource([1]), 0).success
    assert saving_throw(ScriptedSource([4]), 4).success
    assert not saving_throw(ScriptedSource([3]), 4).success
    assert natural_result(3) is None
    with pytest.raises(DndalikeError, match="7"):
        natural_result(7)


def test_saving_throw_rejects_negative_fatigue():
    with pytest.raises(DndalikeError, match="-1"):
        save_probability(-1)


def test_advantage_rolls_two_keeps_higher_and_cancels_with_disadvantage():
    assert roll_die(ScriptedSource([2, 5]), Edge.ADVANTAGE).kept == 5
    assert roll_die(ScriptedSource([2, 5]), Edge.DISADVANTAGE).kept == 2
    assert edge(1, 1) is Edge.NORMAL
    assert edge(2, 1) is Edge.NORMAL
    assert edge(2, 1, cancel="count") is Edge.ADVANTAGE
    assert edge(0, 1) is Edge.DISADVANTAGE
    with pytest.raises(DndalikeError, match="'most'"):
        edge(1, 0, cancel="most")
    with pytest.raises(DndalikeError):
        edge(-1, 0)


def test_success_is_value_at_least_opposing():
    assert succeeds(2, 2) and succeeds(3, 2) and not succeeds(2, 3)


def test_fatigue_is_voluntary_only_up_to_maximum_and_each_point_beyond_is_a_wound():
    assert gain_fatigue(5, 1, 6) == (gain_fatigue(5, 1, 6, voluntary=False))
    assert gain_fatigue(5, 1, 6).wounds == 0
    with pytest.raises(DndalikeError, match="maximum is 6"):
        gain_fatigue(6, 1, 6)
    forced = gain_fatigue(5, 3, 6, voluntary=False)
    assert (forced.fatigue, forced.wounds) == (8, 2)
    assert gain_fatigue(7, 1, 6, voluntary=False).wounds == 1
    assert fatigue_headroom(3, 6) == 3
    with pytest.raises(DndalikeError, match="-2"):
        gain_fatigue(0, -2, 6)


def test_bad_die_values_modifiers_and_edges_are_refused_by_name():
    from rules.dndalike import core

    with pytest.raises(core.DndalikeError, match="'two'"):
        core.succeeds("two", 2)
    with pytest.raises(core.DndalikeError, match="'x'"):
        core.save_probability(3, modifier="x")
    with pytest.raises(core.DndalikeError, match="'a'"):
        core.edge("a")
    with pytest.raises(core.DndalikeError, match="True"):
        core.natural_result(True)
