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
