import pytest

from rules.heimr import REGISTRY
from rules.heimr.abilities import (
    BASIC_ABILITIES, STANDARD_ABILITIES, HeimrError, ability_consistency, ability_potential, base_potential,
    find_ability, outside_recommended_range,
)
from rules.heimr.characters import Character


def test_base_potential_is_the_attribute_or_the_rounded_down_average():
    assert base_potential(2) == 2          # Strength 2 -> Brawl base potential 2
    assert base_potential(0, 3) == 1       # the source's 1.5 -> 1
    assert base_potential(-1, 0) == -1     # this book: floor
    assert base_potential(-1, 0, rounding="toward-zero") == 0
    with pytest.raises(HeimrError, match="none"):
        base_potential()
    with pytest.raises(HeimrError, match="'ceil'"):
        base_potential(1, 2, rounding="ceil")


def test_ability_consistency_is_base_plus_trained():
    assert ability_consistency(-2, 3) == 1
    with pytest.raises(HeimrError, match="-1"):
        ability_consistency(0, -1)


def test_ability_potential_is_base_plus_trained():
    assert ability_potential(1, 2) == 3
    with pytest.raises(HeimrError, match="'2'"):
        ability_potential(1, "2")


def test_standard_abilities_one_per_attribute():
    assert [(a.name, a.attributes[0]) for a in STANDARD_ABILITIES] == [
        ("Brawl", "Str"), ("Agility", "Dex"), ("Survival", "Sta"),
        ("Perception", "Int"), ("Persuasion", "Soc"), ("Insight", "Emp")]


def test_basic_abilities_table_as_printed():
    table = {a.name: (a.attributes, a.base_consistency) for a in BASIC_ABILITIES}
    assert len(table) == 22
    assert table["Knife fighting"] == (("Dex", "Emp"), -1)
    assert table["Archery"] == (("Dex", "Int"), 4)
    assert table["Throwing"] == (("Dex",), 2)
    assert table["Thievery"] == (("Dex",), -1)
    assert table["Medicine"] == (("Int", "Soc"), -2)
    assert REGISTRY["Heimr.Ability.ShieldAndSword"].value("base_consistency") == 1


def test_archery_is_the_one_base_consistency_outside_minus_two_to_three():
    assert outside_recommended_range() == ("Archery",)


def test_ability_challenge_combines_base_and_training():
    hero = Character("Ada", {"Dex": 2, "Int": 1})
    assert find_ability("archery").challenge(hero, 1, 2) == (5, 3)   # C 4+1, P floor(1.5)+2
    assert find_ability("Agility").challenge(hero, base_consistency=0) == (0, 2)
    with pytest.raises(HeimrError, match="Agility"):
        find_ability("Agility").challenge(hero)
    with pytest.raises(HeimrError, match="Juggling"):
        find_ability("Juggling")
