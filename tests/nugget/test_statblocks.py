"""NUGGET's stat blocks hold the numbers the engine's rules compute (docs/nugget/statblocks.rst)."""

from rules.nugget import REGISTRY
from rules.nugget.characters import initiative_bonus, mental_resistance, physical_resistance
from rules.nugget.combat import attack_pool
from rules.nugget.initiative import minion_initiative
from rules.nugget.rolls import success_distribution
from rules.nugget.statblocks import THUG, THUG_FIGHTING, doctor


def values(name):
    block = REGISTRY.statblocks.build(name)
    return block, {stat.uid: stat.value for stat in (*block.base, *block.derived)}


def test_the_doctor_is_made_by_the_creation_rules_and_her_block_holds_their_numbers():
    ada = doctor()
    block, found = values("doctor")
    assert found["Nugget.Stat.Initiative"] == initiative_bonus(1, 1, 2) == 4
    assert found["Nugget.Stat.PhysicalResistance"] == physical_resistance(0) == 2
    assert found["Nugget.Stat.MentalResistance"] == mental_resistance(0)
    assert found["Nugget.Destiny.Points"] == ada.destiny == 1
    assert block.attack.chances() == tuple((n, success_distribution(attack_pool(2, 1)).p_ge(n)) for n in range(1, 6))


def test_the_thug_is_a_minion_on_a_fixed_initiative_with_a_creatures_brawn():
    block, found = values("thug")
    bonus = initiative_bonus(THUG["Agility"], THUG["Brains"], THUG_FIGHTING)
    assert found["Nugget.NPC.MinionInitiative"] == minion_initiative(bonus) == 3 + bonus
    assert found["Nugget.Stat.PhysicalResistance"] == physical_resistance(THUG["Brawn"]) == 5
    assert dict(block.attack.chances())[3] == success_distribution(attack_pool(THUG_FIGHTING, 1)).p_ge(3)
