"""Health: HP per limb, the location die, disabled limbs, downed, healing."""

import pytest

from rules.dice import ScriptedSource
from rules.nemron.health import (Body, HealthError, Limb, LocationDieError, limb_hp, location,
                                 roll_location)


def test_hp_per_limb_is_five_plus_power_agility_constitution():
    assert limb_hp(1, 2, 3) == 11
    assert limb_hp(0, 0, 0) == 5
    with pytest.raises(HealthError, match="-1"):
        limb_hp(-1, 0, 0)


def test_location_die_follows_the_published_table():
    assert [location(f).value for f in range(1, 7)] == [
        "right arm", "left arm", "right leg", "left leg", "torso", "head"]
    assert roll_location(ScriptedSource([6])) is Limb.HEAD
    with pytest.raises(LocationDieError, match="7"):
        location(7)


def test_limbs_two_major_four_minor():
    assert {limb for limb in Limb if limb.major} == {Limb.TORSO, Limb.HEAD}


def test_disabled_minor_limb_at_zero():
    body = Body(6)
    hit = body.damage("left arm", 9)
    assert (hit.lost, hit.hp, hit.disabled, hit.downed) == (6, 0, True, False)


def test_downed_when_a_major_limb_reaches_zero():
    body = Body(6)
    body.damage(Limb.TORSO, 5)
    assert not body.is_downed()
    assert body.damage(Limb.TORSO, 1).downed
    assert not body.is_disabled(Limb.TORSO)


def test_rest_healing_rolls_constitution_for_every_damaged_limb():
    body = Body(10)
    body.damage("head", 7)
    body.damage("left leg", 2)
    assert body.rest(2, ScriptedSource([5])) == 5  # Constitution 2 rolls a d8
    assert body.hp[Limb.HEAD] == 8 and body.hp[Limb.LEFT_LEG] == 10 and body.hp[Limb.TORSO] == 10


def test_targeted_healing_stays_on_one_limb():
    body = Body(10)
    body.damage("head", 7)
    body.damage("torso", 7)
    assert body.heal_limb("head", 4) == 7
    assert body.hp[Limb.TORSO] == 3


def test_health_rejects_bad_damage_and_limbs():
    with pytest.raises(HealthError, match="-2"):
        Body(5).damage("head", -2)
    with pytest.raises(HealthError, match="'tail'"):
        Body(5).damage("tail", 1)


def test_hp_ranks_stop_at_four():
    assert limb_hp(4, 4, 4) == 17
    with pytest.raises(HealthError, match="Power rank 5"):
        limb_hp(5, 0, 0)
