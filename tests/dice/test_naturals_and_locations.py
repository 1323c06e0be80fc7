"""Natural-face overrides (DnDalike) and location dice (Nemron area damage)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rules.dice import (Dist, ScriptedSource, advantage, face_counts, location_tally, nat_override,
                        p_success_with_naturals, parse)

D6 = Dist.die(6)


@pytest.mark.parametrize("fatigue, plain, with_advantage", [
    (0, F(5, 6), F(35, 36)), (1, F(5, 6), F(35, 36)), (2, F(5, 6), F(35, 36)), (3, F(2, 3), F(8, 9)),
    (4, F(1, 2), F(3, 4)), (5, F(1, 3), F(5, 9)), (6, F(1, 6), F(11, 36)), (7, F(1, 6), F(11, 36)),
    (12, F(1, 6), F(11, 36)),
])
def test_dndalike_save_natural_six_succeeds_and_natural_one_fails(fatigue, plain, with_advantage):
    assert p_success_with_naturals(D6, fatigue) == plain
    assert nat_override(advantage(D6)).p_success(fatigue) == with_advantage


def test_naturals_apply_to_the_face_and_the_modifier_to_the_comparison():
    # d6 + 2 against 6: faces 4, 5, 6 succeed (6 naturally); 1 fails even though 1 + 2 ... < 6 anyway.
    assert p_success_with_naturals(D6, 6, modifier=2) == F(1, 2)
    # d6 + 5 against 3: every face but the natural 1 succeeds.
    assert p_success_with_naturals(D6, 3, modifier=5) == F(5, 6)
    check = nat_override(D6, auto_success_face=None, auto_failure_face=None)
    assert check.p_success(7) == 0
    assert nat_override(D6).success_dist(4).p(True) == F(1, 2)


def test_face_counts_is_multinomial_by_enumeration():
    for n, sides in [(1, 6), (3, 4), (4, 6), (5, 3)]:
        def tally(faces, sides=sides):
            return tuple(faces.count(f) for f in range(1, sides + 1))
        expected = Dist.from_outcomes(tally(f) for f in itertools.product(range(1, sides + 1), repeat=n))
        assert face_counts(n, sides) == expected


def test_ten_location_dice_have_every_tally():
    d = face_counts(10, 6)
    assert len(d) == 3003  # C(15, 5) tallies
    assert d.p((0, 0, 0, 0, 10, 0)) == F(1, 6 ** 10)
    assert d.map(lambda c: c[4]) == location_tally(10, 6, 5)


def test_location_tally_is_binomial():
    expected = Dist.from_outcomes(sum(f == 5 for f in faces) for faces in itertools.product(range(1, 7), repeat=4))
    assert location_tally(4, 6, 5) == expected
    assert location_tally(4, 6, 5).p(2) == 6 * F(1, 36) * F(25, 36)
    with pytest.raises(ValueError):
        location_tally(4, 6, 7)


def test_fireball_example_location_dice_5_5_3_2_hit_torso_twice():
    # Nemron's worked example: 4 AOE damage, location dice 5, 5, 3, 2 (scripted so it reproduces).
    roll = parse("4d6").roll(ScriptedSource([5, 5, 3, 2]))
    tally = tuple(roll.faces.count(f) for f in range(1, 7))
    assert tally == (0, 1, 1, 0, 2, 0)  # left arm 1, right leg 1, torso 2
    assert face_counts(4, 6).p(tally) == F(12, 6 ** 4)  # 4! / 2! orderings
