"""NUGGET's stat blocks hold the numbers the engine's rules compute (docs/nugget/statblocks.rst)."""

import pytest

from rules.nugget import REGISTRY
from rules.nugget.characters import (
    STARTING_DESTINY,
    check_attribute,
    initiative_bonus,
    mental_resistance,
    physical_resistance,
)
from rules.nugget.combat import attack_pool, weapon_base
from rules.nugget.initiative import minion_initiative
from rules.nugget.rolls import success_distribution
from rules.nugget.statblocks import SUCCESS_TARGETS, THUG, THUG_FIGHTING, doctor
from tests.book_blocks import assert_prints, shown_blocks


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


# -- every block the book shows, value by value ------------------------------------------------------
#: name -> (attributes, fighting skill and level, weapon, creature?), as the book builds them.
BOOK = {"doctor": ({"Brawn": 0, "Agility": 1, "Brains": 1, "Will": 0}, ("Punch", 2), "unarmed", False),
        "thug": (THUG, ("Club", THUG_FIGHTING), "big club", True)}


def rule_values(name):
    levels, (attack, skill), weapon, creature = BOOK[name]
    levels = {attribute: check_attribute(attribute, level, creature=creature) for attribute, level in levels.items()}
    bonus = initiative_bonus(levels["Agility"], levels["Brains"], skill)
    values = {f"Nugget.Attribute.{attribute}": level for attribute, level in levels.items()}
    values |= {"Nugget.Stat.Initiative": bonus,
               "Nugget.Stat.PhysicalResistance": physical_resistance(levels["Brawn"]),
               "Nugget.Stat.MentalResistance": mental_resistance(levels["Will"])}
    if creature:
        values |= {"Nugget.NPC.MinionInitiative": minion_initiative(bonus), "Nugget.NPC.Minion": 1}
    else:
        values["Nugget.Destiny.Points"] = STARTING_DESTINY
    dist = success_distribution(attack_pool(skill, levels["Agility"]))
    return values, f"{attack} ({weapon}, base damage {weapon_base(weapon)})", {n: dist.p_ge(n) for n in SUCCESS_TARGETS}


@pytest.mark.parametrize("name", shown_blocks("nugget"))
def test_every_block_in_the_book_prints_the_rule_functions_numbers(name):
    block = REGISTRY.statblocks.build(name)
    values, attack, chances = rule_values(name)
    assert_prints(block, values, attack)
    assert dict(block.attack.chances()) == chances
