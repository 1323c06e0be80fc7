"""Health: HP per limb, the location die, disabled limbs, downed, healing."""

import pytest

from rules.dice import ScriptedSource
from rules.nemron.health import Body, NemronError, Limb, limb_hp, location, roll_location


def test_hp_per_limb_is_five_plus_power_agility_constitution():
    assert limb_hp(1, 2, 3) == 11
    assert limb_hp(0, 0, 0) == 5
    with pytest.raises(NemronError, match="-1"):
        limb_hp(-1, 0, 0)


def test_location_die_follows_the_published_table():
    assert [location(f).value for f in range(1, 7)] == [
        "right arm", "left arm", "right leg", "left leg", "torso", "head"]
    assert roll_location(ScriptedSource([6])) is Limb.HEAD
    with pytest.raises(NemronError, match="7"):
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
    with pytest.raises(NemronError, match="-2"):
        Body(5).damage("head", -2)
    with pytest.raises(NemronError, match="'tail'"):
        Body(5).damage("tail", 1)


def test_hp_ranks_stop_at_four():
    assert limb_hp(4, 4, 4) == 17
    with pytest.raises(NemronError, match="Power rank 5"):
        limb_hp(5, 0, 0)


def test_limb_use_no_attack_without_a_working_arm():
    body = Body(6)
    body.damage(Limb.RIGHT_ARM, 6)
    assert body.can_attack() and not body.can_attack(arms_needed=2)
    body.damage(Limb.LEFT_ARM, 9)
    assert not body.can_attack()
    assert body.can_attack(arms_needed=0)
    with pytest.raises(NemronError, match="3"):
        body.can_attack(arms_needed=3)


def test_limb_use_no_movement_without_both_legs():
    body = Body(6)
    assert body.can_move()
    body.damage("left leg", 6)
    assert not body.can_move()
    assert body.can_move(legs_needed=1)
    body.damage("right leg", 6)
    assert not body.can_move(legs_needed=1)
    with pytest.raises(NemronError, match="'2'"):
        body.can_move(legs_needed="2")  # type: ignore[arg-type]


def test_lost_limb_stays_at_zero_and_never_heals():
    body = Body(6)
    body.damage(Limb.LEFT_ARM, 2)
    body.damage(Limb.TORSO, 2)
    body.sever("left arm")
    assert body.hp[Limb.LEFT_ARM] == 0 and body.is_disabled(Limb.LEFT_ARM)
    assert body.rest(1, ScriptedSource([3])) == 3
    assert body.hp[Limb.LEFT_ARM] == 0 and body.hp[Limb.TORSO] == 6
    with pytest.raises(NemronError, match="left arm is lost"):
        body.heal_limb(Limb.LEFT_ARM, 1)
    with pytest.raises(NemronError, match="head is a major limb"):
        body.sever("head")
    assert Body(6, lost={Limb.RIGHT_LEG}).hp[Limb.RIGHT_LEG] == 0
    with pytest.raises(NemronError, match="torso"):
        Body(6, lost={Limb.TORSO})


def test_downed_ends_when_the_major_limb_heals():
    body = Body(5)
    assert body.damage(Limb.HEAD, 5).downed
    body.heal_limb(Limb.HEAD, 1)
    assert not body.is_downed()
