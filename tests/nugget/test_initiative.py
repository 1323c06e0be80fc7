"""Rounds and initiative, from the source's round rules and its 14 => 10, 4 example."""

import pytest

from rules.nugget import initiative as i


class Faces:
    def __init__(self, faces):
        self.faces = list(faces)

    def roll(self, sides):
        return self.faces.pop(0)


def test_wound_penalty_is_one_per_hurt_and_per_injury():
    assert i.wound_penalty(2, 1) == 3
    with pytest.raises(i.NuggetError, match="-1"):
        i.wound_penalty(-1)


def test_initiative_roll_is_one_die_plus_bonus_less_wounds():
    assert i.roll_initiative(3, Faces([5])) == 8
    assert i.roll_initiative(3, Faces([5]), hurts=1, injuries=1) == 6


def test_minions_take_three_plus_bonus_without_rolling():
    assert i.minion_initiative() == 3 and i.minion_initiative(1) == 4


def test_action_phases_fourteen_acts_at_ten_and_four():
    assert i.action_phases(14) == (10, 4)


def test_action_phases_up_to_ten_eight_caps_the_second_action():
    assert [i.action_phases(t) for t in (1, 10, 11, 18, 19, 30)] == [(1,), (10,), (10, 1), (10, 8), (10, 8), (10, 8)]
    unlimited = i.ActionLimits(max_actions=None, later_cap=10)
    assert i.action_phases(24, unlimited) == (10, 10, 4)
    with pytest.raises(i.NuggetError, match="0"):
        i.ActionLimits(max_actions=0)


def test_total_below_one_means_no_action():
    assert i.action_phases(0) == () and i.action_phases(-3) == ()


def test_free_action_from_the_first_action_or_phase_one():
    assert i.free_action_phase((10, 4)) == 10
    assert i.free_action_phase(()) == 1


def test_delay_moves_an_action_to_a_lower_phase():
    assert i.delay(7, 3) == 3
    with pytest.raises(i.NuggetError, match="7 to phase 9"):
        i.delay(7, 9)
    with pytest.raises(i.NuggetError, match="11"):
        i.delay(11, 3)


def test_same_phase_higher_initiative_bonus_goes_first():
    order = i.acting_order([i.Combatant("a", 5, 1), i.Combatant("b", 8, 0), i.Combatant("c", 5, 3)])
    assert [x.name for x in order] == ["b", "c", "a"]


def test_one_defence_roll_counts_against_all_attacks_in_a_phase():
    ledger = i.PhaseDefence()
    rolls = iter([2, 0])
    assert ledger.successes("Vane", 6, lambda: next(rolls)) == 2
    assert ledger.successes("Vane", 6, lambda: next(rolls)) == 2
    assert ledger.successes("Vane", 5, lambda: next(rolls)) == 0


def test_bad_bonuses_and_limits_are_refused_by_name():
    with pytest.raises(i.NuggetError, match="'fast'"):
        i.roll_initiative("fast", Faces([3]))
    with pytest.raises(i.NuggetError, match="1.5"):
        i.minion_initiative(1.5)
    with pytest.raises(i.NuggetError, match="None"):
        i.acting_order([i.Combatant("a", 5, None)])
    with pytest.raises(i.NuggetError, match="True"):
        i.ActionLimits(max_actions=True)
