"""The DnDalike's stat block holds the numbers the engine's rules compute (docs/dndalike/statblocks.rst)."""

from fractions import Fraction

import pytest

from rules.dndalike import REGISTRY
from rules.dndalike.characters import (
    action_dice,
    armour_class,
    health,
    level,
    maximum_fatigue,
    permanent_fatigue,
    stat_bonus,
)
from rules.dndalike.combat import hits
from rules.dndalike.statblocks import ARMOUR_CLASSES, attack_dist
from tests.book_blocks import assert_prints, shown_blocks


def test_georgias_health_fatigue_and_armour_come_from_the_character_rules():
    block = REGISTRY.statblocks.build("georgia")
    assert block.stat("Dndalike.Derived.Health").value == health(("Fighter", "Rogue"), -1) == 9
    assert block.stat("Dndalike.Derived.MaximumFatigue").value == maximum_fatigue(2) == 8
    assert block.stat("Dndalike.Derived.ArmourClass").value == armour_class("Heavy Armour", 1) == 4


def test_the_attack_line_is_the_hitting_rule_over_each_face_of_the_attack_die():
    block = REGISTRY.statblocks.build("georgia")
    expected = tuple((ac, Fraction(sum(hits(face + 1, face, ac) for face in range(1, 7)), 6)) for ac in ARMOUR_CLASSES)
    assert block.attack.chances() == expected


def test_a_natural_six_hits_any_armour_class_and_a_natural_one_none_even_with_a_big_bonus():
    assert attack_dist(-2).p_ge(20) == Fraction(1, 6)
    assert attack_dist(2).p_ge(-20) == Fraction(5, 6)


def test_the_orc_keeps_the_armour_class_of_the_seeds_example():
    block = REGISTRY.statblocks.build("orc")
    assert block.stat("Dndalike.Derived.ArmourClass").value == armour_class("Light Armour", 0) == 2
    assert block.stat("Dndalike.Derived.Health").value == health(("Fighter",), 1) == 7


# -- every block the book shows, value by value ------------------------------------------------------
SCORES = ("Strength", "Dexterity", "Constitution", "Intelligence", "Wisdom", "Charisma")
BOOK = {  # name -> (scores, power classes, armour, hands, weapon), as the book's pages give them
    "georgia": ((16, 9, 5, 12, 18, 15), ("Fighter", "Rogue"), "Heavy Armour", ("weapon", "free hand"), "Sword"),
    "orc": ((14, 10, 15, 6, 9, 8), ("Fighter",), "Light Armour", ("weapon", "free hand"), "Axe"),
}


def rule_values(name):
    scores, classes, armour, hands, weapon = BOOK[name]
    bonus = dict(zip(SCORES, (stat_bonus(score) for score in scores)))
    values = {f"Dndalike.Stat.{stat}": score for stat, score in zip(SCORES, scores)}
    values |= {"Dndalike.Derived.Level": level(classes),
               "Dndalike.Derived.Health": health(classes, bonus["Constitution"]),
               "Dndalike.Derived.MaximumFatigue": maximum_fatigue(bonus["Wisdom"]),
               "Dndalike.Derived.ArmourClass": armour_class(armour, bonus["Charisma"]),
               "Dndalike.Derived.PermanentFatigue": permanent_fatigue(armour),
               "Dndalike.Rule.ActionDice": str(action_dice(*hands))}
    strength = bonus["Strength"]
    chances = {ac: Fraction(sum(hits(face + strength, face, ac) for face in range(1, 7)), 6) for ac in ARMOUR_CLASSES}
    return values, f"{weapon} (Strength bonus {strength:+d})", chances


@pytest.mark.parametrize("name", shown_blocks("dndalike"))
def test_every_block_in_the_book_prints_the_rule_functions_numbers(name):
    block = REGISTRY.statblocks.build(name)
    values, attack, chances = rule_values(name)
    assert_prints(block, values, attack)
    assert dict(block.attack.chances()) == chances
