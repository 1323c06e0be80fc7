"""Damage Rolls, protection and damage-type hooks, and hitting."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedSource
from rules.spurg.damage import (
    SpurgError,
    DamageRoll,
    Protection,
    Striker,
    StrikeKind,
    TypeMultiplier,
    damage_table,
    damage_taken,
)


def test_damage_roll_any_dice_plus_constants():
    result = DamageRoll("2d6+3").roll(ScriptedSource([4, 5]))
    assert (result.dice, result.rolled, result.taken) == ((4, 5), 12, 12)
    dist = DamageRoll("2d6+3").dist()
    for total in range(5, 16):
        count = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + 3 == total)
        assert dist.p(total) == Fraction(count, 36)


def test_damage_roll_rejects_bad_notation():
    with pytest.raises(SpurgError, match="'two dice'"):
        DamageRoll("two dice")
    with pytest.raises(SpurgError, match="12"):
        DamageRoll(12)


def test_damage_taken_applies_steps_in_order_and_never_below_zero():
    armor = Protection(3)
    double_fire = TypeMultiplier({"fire": 2})
    assert damage_taken(10, "fire", [armor, double_fire]) == 14
    assert damage_taken(10, "fire", [double_fire, armor]) == 17
    assert damage_taken(2, "cut", [armor]) == 0
    assert damage_taken(7) == 7


def test_protection_limited_to_some_types():
    coat = Protection(4, frozenset({"cut"}))
    assert coat(10, "cut") == 6 and coat(10, "crush") == 10
    with pytest.raises(SpurgError, match="-1"):
        Protection(-1)


def test_type_multiplier_rounds_down_and_passes_other_types():
    half = TypeMultiplier({"crush": Fraction(1, 2)})
    assert half(7, "crush") == 3 and half(7, "cut") == 7 and half(7, None) == 7


def test_damage_roll_with_steps_rolls_and_distributes():
    roll = DamageRoll("1d6", "cut")
    assert roll.roll(ScriptedSource([5]), [Protection(2)]).taken == 3
    taken = roll.taken_dist([Protection(2)])
    assert taken.p(0) == Fraction(2, 6) and taken.p(4) == Fraction(1, 6)


def test_damage_table_distribution():
    table = damage_table("2d6+3")
    rows = {row[0]: row for row in table.rows}
    assert rows[10][1] == Fraction(6, 36) and rows[5][2] == 1 and rows[15][2] == Fraction(1, 36)


def test_strike_kind_thrust_without_leverage_swing_with():
    assert StrikeKind.of(uses_leverage=False) is StrikeKind.THRUST
    assert StrikeKind.of(uses_leverage=True) is StrikeKind.SWING
    assert StrikeKind.for_attack("dagger stab") is StrikeKind.THRUST
    assert StrikeKind.for_attack("fist jab") is StrikeKind.THRUST
    assert StrikeKind.for_attack("truncheon blow") is StrikeKind.SWING
    with pytest.raises(SpurgError, match="'headbutt'"):
        StrikeKind.for_attack("headbutt")


def test_hitting_uses_the_characters_thrust_or_swing():
    fighter = Striker(thrust="1d6-1", swing="1d6+1")
    assert fighter.strike(StrikeKind.SWING).notation == "1d6+1"
    assert fighter.strike(StrikeKind.THRUST, "crush") == DamageRoll("1d6-1", "crush")
    with pytest.raises(SpurgError):
        Striker(thrust="d", swing="1d6")


def test_damage_rules_refuse_bad_types_amounts_and_steps():
    from rules.spurg.damage import SpurgError

    with pytest.raises(SpurgError, match="5"):
        DamageRoll("1d6", 5)
    with pytest.raises(SpurgError, match="'5'"):
        damage_taken("5")
    with pytest.raises(SpurgError, match="3"):
        damage_taken(5, 3)
    with pytest.raises(SpurgError, match="3"):
        damage_taken(5, None, [3])
    with pytest.raises(SpurgError, match="2.5"):
        damage_taken(5, None, [lambda amount, kind: 2.5])
    with pytest.raises(SpurgError, match="'cut'"):
        Protection(2, "cut")                    # a set of types, not one text
    with pytest.raises(SpurgError, match="-2"):
        TypeMultiplier({"fire": -2})
    with pytest.raises(SpurgError, match="'x'"):
        TypeMultiplier({"fire": "x"})
    with pytest.raises(SpurgError, match="2"):
        TypeMultiplier(2)
    with pytest.raises(SpurgError, match="'yes'"):
        StrikeKind.of("yes")
    with pytest.raises(SpurgError, match="'SW'"):
        Striker("1d6", "1d6+1").strike("SW")


def test_optional_hit_points_rule_is_off_by_default_and_ends_a_character_when_on():
    from rules.spurg.damage import HitPointsRule, SpurgError
    assert not HitPointsRule().enabled
    assert not HitPointsRule().out_of_fight(999, 10)
    on = HitPointsRule(enabled=True)
    assert on.hit_points(12) == 12
    assert not on.out_of_fight(11, 12) and on.out_of_fight(12, 12)
    with pytest.raises(SpurgError, match="off"):
        HitPointsRule().hit_points(12)
    with pytest.raises(SpurgError, match="-1"):
        on.out_of_fight(-1, 12)
    with pytest.raises(SpurgError, match="'yes'"):
        HitPointsRule(enabled="yes")  # type: ignore[arg-type]
