"""The combat tracker: a seeded fight never ends by the source's rules, and ends with the optional rule."""

import pytest

from rules.dice import SeededSource
from rules.spurg.damage import DamageRoll, HitPointsRule
from rules.spurg.tracker import Fighter, Skirmish, SpurgError


def cast():
    return [Fighter("Ash", "left", 10, 11, 10, 12, DamageRoll("1d6+1")),
            Fighter("Cole", "left", 8, 10, 9, 10, DamageRoll("1d6")),
            Fighter("Bex", "right", 9, 12, 11, 11, DamageRoll("2d6"))]


def test_seeded_fight_never_ends_by_the_source_and_ends_with_the_optional_rule():
    strict = Skirmish(cast(), SeededSource(7))
    assert not strict.play(max_turns=25)
    assert strict.sequence.turns == 25 and not any(f.out for f in strict.fighters.values())
    assert max(f.taken for f in strict.fighters.values()) > 11  # damage piled past every Vitality
    assert strict.log[-1].endswith("the source gives damage no effect")
    house = Skirmish(cast(), SeededSource(7), rule=HitPointsRule(enabled=True))
    assert house.play(max_turns=25)
    out = [f for f in house.fighters.values() if f.out]
    assert out and all(f.taken >= f.vitality for f in out)
    assert all(f.taken < f.vitality for f in house.fighters.values() if not f.out)
    assert len({f.side for f in house.fighters.values() if not f.out}) == 1
    # the same seed gives the same opening exchanges until the first fighter drops
    first_out = next(i for i, line in enumerate(house.log) if "is out" in line)
    assert house.log[:first_out] == strict.log[:first_out]
    with pytest.raises(SpurgError, match="over"):
        house.play_turn()


def test_combat_tracker_refuses_bad_fights():
    with pytest.raises(SpurgError, match="two sides"):
        Skirmish(cast()[:2], SeededSource(1))
    with pytest.raises(SpurgError, match="unique"):
        Skirmish(cast() + cast()[:1], SeededSource(1))
    with pytest.raises(SpurgError, match="0"):
        Skirmish(cast(), SeededSource(1)).play(0)
    with pytest.raises(SpurgError, match="-3"):
        Fighter("Dee", "x", 5, 5, -3, 10, DamageRoll("1d6"))


def _pair(**ash):
    from rules.spurg.damage import DamageRoll
    from rules.spurg.tracker import Fighter
    return [Fighter("Ash", "left", 10, 11, 10, 12, DamageRoll("1d6+1"), **ash),
            Fighter("Bex", "right", 9, 12, 5, 11, DamageRoll("1d6"))]


def test_circumstance_modifiers_change_the_attack_tn_never_the_roll():
    from rules.dice import ScriptedSource
    from rules.spurg.tracker import Skirmish
    fight = Skirmish(_pair(modifiers=(-2, 1)), ScriptedSource([4, 3, 4, 2, 6, 6, 6]))  # 11 vs TN 11: a hit
    lines = fight.play_turn()
    assert lines[0].startswith("turn 1: Ash attacks Bex: 11 vs TN 11, a hit")
    with pytest.raises(Exception, match="'far'"):
        _pair(modifiers=("far",))


def test_a_load_cuts_speed_before_the_turn_order_is_fixed():
    from rules.dice import ScriptedSource
    from rules.spurg.tracker import Skirmish
    assert Skirmish(_pair(), ScriptedSource([])).sequence.order == ["Ash", "Bex"]
    assert Skirmish(_pair(encumbrance=1), ScriptedSource([])).sequence.order == ["Bex", "Ash"]  # 10 -> 8
    # 10 less 20% under "reduction" rounding is still 8; encumbrance 5 does not exist
    assert Skirmish(_pair(encumbrance=1), ScriptedSource([]), rounding="reduction").sequence.order == ["Bex", "Ash"]
    with pytest.raises(Exception, match="5"):
        _pair(encumbrance=5)


def test_critical_precedence_is_the_tables_reading_in_the_tracker():
    from rules.dice import ScriptedSource
    from rules.spurg.tracker import Skirmish
    low = _pair(modifiers=(-10,))  # TN 2: a roll of 3 is above it, yet always a critical success
    assert "a hit" in Skirmish(low, ScriptedSource([1, 1, 1, 1, 6, 6, 6])).play_turn()[0]
    low = _pair(modifiers=(-10,))
    assert Skirmish(low, ScriptedSource([1, 1, 1, 6, 6, 6]), precedence="target").play_turn()[0].endswith("a miss")


def test_damage_passes_the_defenders_protection():
    from rules.dice import ScriptedSource
    from rules.spurg.damage import DamageRoll, Protection
    from rules.spurg.tracker import Fighter, Skirmish
    bex = Fighter("Bex", "right", 9, 12, 5, 11, DamageRoll("1d6"), protection=(Protection(3),))
    fight = Skirmish([_pair()[0], bex], ScriptedSource([3, 3, 3, 5, 6, 6, 6]))
    assert fight.play_turn()[0].endswith("a hit for 3 (3 taken in all)") and bex.taken == 3  # 5 + 1 - 3
