"""Resistance, the damage table, wounds and first aid."""

from fractions import Fraction
from itertools import product

import pytest

from rules.nugget import harm as h


def test_resistance_successes_remove_damage_and_a_fumble_adds_one():
    assert h.resisted_damage(5, 1) == 4
    assert h.resisted_damage(5, 0, fumble=True) == 6
    assert h.resisted_damage(2, 4) == 0
    assert h.resisted_damage(-1, 0, fumble=True) == 0      # clamp last
    with pytest.raises(h.NuggetError, match="-1"):
        h.resisted_damage(3, -1)


def test_damage_table_hurt_injured_unconscious_dead():
    labels = [h.damage_effect(d).label for d in range(9)]
    assert labels == ["No effect", "Hurt", "Hurt", "Injured", "Injured", "Injured and Unconscious",
                      "Injured and Unconscious", "Injured and Dead", "Injured and Dead"]
    with pytest.raises(h.NuggetError, match="-2"):
        h.damage_effect(-2)


def test_hurt_and_injury_conditions_penalties_and_recovery():
    cond = h.Condition().take(h.damage_effect(2)).take(h.damage_effect(3))
    assert cond.initiative_penalty == 2
    assert cond.roll_penalty() == 1 and cond.roll_penalty(resistance=True) == 0
    assert cond.rest().physical == h.Wounds(0, 1)
    assert cond.recover().physical == h.Wounds()


def test_mental_harm_is_tracked_apart_but_penalties_add_up():
    cond = h.Condition().take(h.HURT, "mental").take(h.INJURED)
    assert cond.mental.hurts == 1 and cond.physical.injuries == 1
    assert cond.initiative_penalty == 2
    assert cond.rest("mental").mental.hurts == 0 and cond.physical.injuries == 1
    with pytest.raises(h.NuggetError, match="'spiritual'"):
        cond.take(h.HURT, "spiritual")


def test_first_aid_each_success_heals_one_physical_hurt():
    cond = h.Condition(physical=h.Wounds(hurts=3, injuries=1))
    assert h.first_aid(cond, 2).physical == h.Wounds(1, 1)
    assert h.first_aid(cond, 5).physical == h.Wounds(0, 1)
    assert h.first_aid(cond, 2, one_per_round=True).physical == h.Wounds(2, 1)
    with pytest.raises(h.NuggetError, match="-1"):
        h.first_aid(cond, -1)


def test_effect_odds_against_two_resistance_dice_by_enumeration():
    for damage in (1, 3, 5):
        expected = {}
        for faces in product(range(1, 7), repeat=2):
            s = sum(f >= 4 for f in faces) + (faces == (6, 6))
            final = max(0, damage - s + (faces == (1, 1)))
            label = h.damage_effect(final).label
            expected[label] = expected.get(label, 0) + Fraction(1, 36)
        got = {k: v for k, v in h.effect_distribution(damage, 2).items() if v}
        assert got == expected


def test_wounds_and_distributions_refuse_bad_counts():
    with pytest.raises(h.NuggetError, match="-1"):
        h.Wounds(hurts=-1)
    with pytest.raises(h.NuggetError, match="'two'"):
        h.final_damage_distribution(3, "two")


def test_injury_recovery_heals_one_injury_per_day():
    cond = h.Condition().take(h.INJURED).take(h.INJURED).take(h.INJURED).take(h.HURT)
    assert cond.recover().physical == h.Wounds(0, 2)
    assert cond.recover(days=2).physical == h.Wounds(0, 1)
    assert cond.recover(days=9).physical == h.Wounds(0, 0)
    assert cond.recover(parallel=True).physical == h.Wounds(0, 0)
    assert cond.take(h.INJURED, "mental").recover("mental").mental.injuries == 0
    assert cond.take(h.INJURED, "mental").recover("mental").physical.injuries == 3
    for bad in (0, -1, 1.5, True):
        with pytest.raises(h.NuggetError, match=repr(bad)):
            cond.recover(days=bad)
