"""The DnDalike's stat block holds the numbers the engine's rules compute (docs/dndalike/statblocks.rst)."""

from fractions import Fraction

from rules.dndalike import REGISTRY
from rules.dndalike.characters import armour_class, health, maximum_fatigue
from rules.dndalike.combat import hits
from rules.dndalike.statblocks import ARMOUR_CLASSES, attack_dist


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
