"""Combat: attack pools, active defence, minimum weapon DC, targeting, area damage, flanking, ranges."""

import pytest

from rules.dice import ScriptedSource
from rules.nemron.checks import Modifier
from rules.nemron.combat import (
    NemronError,
    aimed_modifier,
    area_damage,
    attack_damage,
    attack_hits,
    attack_pool,
    flanked_defence,
    minimum_weapon_dc,
    range_band,
)
from rules.nemron.health import Limb


def test_attack_pool_is_attributes_skills_then_weapon():
    assert str(attack_pool("Pistol", 2, Awareness=1, Marksmanship=2)) == "Awareness 1 › Marksmanship 2 › Pistol 2"
    with pytest.raises(NemronError, match="'Pistol'"):
        attack_pool("Pistol", 2)


def test_active_defence_brandons_pistol_six_minus_three_is_three():
    assert attack_damage(6, 3) == 3
    assert attack_damage(6) == 6
    assert attack_damage(3, 5) == 0
    with pytest.raises(NemronError, match="-1"):
        attack_damage(-1)


def test_minimum_weapon_dc_is_rank_plus_one():
    assert minimum_weapon_dc(2) == 3
    assert [minimum_weapon_dc(r) for r in range(5)] == [1, 2, 3, 4, 5]
    assert not attack_hits(2, 2) and attack_hits(3, 2)
    assert not attack_hits(4, 4) and attack_hits(5, 4)
    assert not attack_hits(2, 0) and attack_hits(2, 0, specialised=False)
    with pytest.raises(NemronError):
        minimum_weapon_dc(5)


def test_limb_targeting_costs_a_lesser_penalty():
    assert aimed_modifier("head") is Modifier.LESSER_PENALTY
    assert aimed_modifier(None) is None
    with pytest.raises(NemronError, match="'wing'"):
        aimed_modifier("wing")


def test_area_damage_fireball_follows_the_location_table():
    hits = area_damage(7 - 3, ScriptedSource([5, 5, 3, 2]))
    assert hits == {Limb.TORSO: 2, Limb.RIGHT_LEG: 1, Limb.LEFT_ARM: 1}
    assert area_damage(0, ScriptedSource([])) == {}


def test_flanked_with_two_opponents_in_melee():
    assert flanked_defence(1) is None
    assert flanked_defence(2) is Modifier.LESSER_PENALTY
    assert flanked_defence(3, modifier=Modifier.GREATER_PENALTY) is Modifier.GREATER_PENALTY
    with pytest.raises(NemronError, match="-1"):
        flanked_defence(-1)


def test_range_bands_melee_near_far_distant():
    assert [range_band(m).name for m in (0, 2.9, 3, 7, 8, 29, 30, 100)] == [
        "Melee", "Melee", "Near", "Near", "Far", "Far", "Distant", "Distant"]
    assert range_band(8, upper_inclusive=True).name == "Near"
    assert range_band(3, upper_inclusive=True).name == "Near"
    with pytest.raises(NemronError, match="101"):
        range_band(101)
    with pytest.raises(NemronError, match="-1"):
        range_band(-1)


@pytest.mark.parametrize("metres", [float("nan"), float("inf"), "5"])
def test_range_band_rejects_distances_that_are_not_finite_numbers(metres):
    with pytest.raises(NemronError, match=r"nan|inf|'5'"):
        range_band(metres)
