"""Damage: the fourteen types, routing of Neural and Psychic damage, Stress, falling."""

import pytest

from rules.nemron import REGISTRY
from rules.nemron.damage import NemronError, DamageType, Stress, Track, damage_target, falling_damage


def test_fourteen_damage_types_each_a_node():
    assert len(DamageType) == 14
    assert all(f"Generic.Damage.{t.value}" in REGISTRY for t in DamageType)
    assert REGISTRY["Generic.Damage.Kinetic"].types == ("E",)


def test_damage_routing_neural_to_energy_psychic_to_stress():
    assert damage_target("Neural") is Track.ENERGY
    assert damage_target(DamageType.PSYCHIC) is Track.STRESS
    assert damage_target("slashing") is Track.HP
    with pytest.raises(NemronError, match="'Radiant'"):
        damage_target("Radiant")


def test_stress_collects_psychic_damage():
    stress = Stress()
    assert stress.add(2) == 2 and stress.add(3) == 5
    with pytest.raises(NemronError, match="-1"):
        stress.add(-1)


def test_falling_damage_one_per_three_metres_by_surface():
    fall = falling_damage(15, "flat ground")
    assert (fall.amount, fall.damage_type, fall.area, fall.ignores_armour) == (5, DamageType.KINETIC, True, True)
    assert falling_damage(14, "concrete").amount == 4
    assert falling_damage(2, "water").amount == 0
    assert falling_damage(9, "Smooth Rock").damage_type is DamageType.CRUSHING
    assert not falling_damage(9, armour_protects=True).ignores_armour


def test_falling_damage_rejects_unknown_surfaces_and_heights():
    with pytest.raises(NemronError, match="'lava'"):
        falling_damage(6, "lava")
    with pytest.raises(NemronError, match="-3"):
        falling_damage(-3)


def test_deal_damage_sends_neural_to_energy_psychic_to_stress_rest_to_the_limb():
    from rules.nemron.damage import deal_damage
    from rules.nemron.energy import Energy
    from rules.nemron.health import Body, Limb

    body, energy, stress = Body(8), Energy(7), Stress()
    assert deal_damage(3, "Neural", body=body, limb="head", energy=energy, stress=stress) is Track.ENERGY
    assert deal_damage(2, "Psychic", body=body, limb="head", energy=energy, stress=stress) is Track.STRESS
    assert deal_damage(5, "Heat", body=body, limb="head", energy=energy, stress=stress) is Track.HP
    assert (energy.current, stress.rank, body.hp[Limb.HEAD]) == (4, 2, 3)
    with pytest.raises(NemronError, match="-2"):
        deal_damage(-2, "Heat", body=body, limb="head")
    with pytest.raises(NemronError, match="Energy"):
        deal_damage(1, "Neural", body=body, limb="head")


@pytest.mark.parametrize("metres", [float("nan"), float("inf"), "15"])
def test_falling_damage_rejects_heights_that_are_not_finite_numbers(metres):
    with pytest.raises(NemronError, match=r"nan|inf|'15'"):
        falling_damage(metres)
