"""Combat turns and turn order, from the SPURG notes."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedSource
from rules.spurg.combat import Combatant, SpurgError, CombatSequence, elapsed_seconds, turn_order


def names(order):
    return [c.name for c in order]


def test_turn_is_one_second():
    assert elapsed_seconds(0) == 0
    assert elapsed_seconds(6) == 6
    with pytest.raises(SpurgError, match="not -1"):
        elapsed_seconds(-1)


def test_turn_order_speed_then_agility_from_the_notes():
    a, b, c = Combatant("A", 12, 11), Combatant("B", 12, 13), Combatant("C", 10, 15)
    assert names(turn_order([a, b, c], ScriptedSource([]))) == ["B", "A", "C"]  # no dice needed


def test_turn_order_roll_off_lower_first_by_default():
    a, b = Combatant("A", 10, 10), Combatant("B", 10, 10)
    assert names(turn_order([a, b], ScriptedSource([5, 5, 5, 2, 2, 2]))) == ["B", "A"]
    assert names(turn_order([a, b], ScriptedSource([5, 5, 5, 2, 2, 2]), low_roll_first=False)) == ["A", "B"]


def test_turn_order_rerolls_a_tied_roll_off():
    a, b, c = Combatant("A", 10, 10), Combatant("B", 10, 10), Combatant("C", 10, 10)
    # A 9, B 9, C 12: C last; A and B roll again: A 15, B 4 -> B, A, C
    source = ScriptedSource([3, 3, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 1, 1, 2])
    assert names(turn_order([a, b, c], source)) == ["B", "A", "C"]


def test_turn_order_rejects_duplicate_names_and_bad_scores():
    with pytest.raises(SpurgError, match="unique"):
        turn_order([Combatant("A", 10, 10), Combatant("A", 9, 9)], ScriptedSource([]))
    with pytest.raises(SpurgError, match="Speed must be .* not -1"):
        Combatant("A", -1, 10)


def test_combat_sequence_keeps_its_order_until_restarted():
    fight = CombatSequence()
    with pytest.raises(SpurgError):
        fight.next_turn()
    order = fight.start([Combatant("A", 12, 11), Combatant("B", 12, 13)], ScriptedSource([]))
    assert order == ["B", "A"]
    fight.next_turn()
    assert fight.next_turn() == ["B", "A"] and fight.seconds == 2
    fight.stop()
    # A got faster during the fight: only a new combat sorts A first
    assert fight.start([Combatant("A", 14, 11), Combatant("B", 12, 13)], ScriptedSource([])) == ["A", "B"]
    assert fight.turns == 0


def test_turn_order_refuses_what_is_not_a_combatant():
    with pytest.raises(SpurgError, match="3"):
        Combatant(3, 10, 10)
    with pytest.raises(SpurgError, match=r"\('A', 10, 10\)"):
        turn_order([("A", 10, 10)], ScriptedSource([]))
    with pytest.raises(SpurgError, match="'no'"):
        CombatSequence(low_roll_first="no")
