import pytest

from rules.heimr import REGISTRY
from rules.heimr.characters import STANDARD_ATTRIBUTES, Character, HitPoints, HeimrError, Willpower, find_attribute


def test_six_attributes_the_first_three_physical():
    assert [a.abbreviation for a in STANDARD_ATTRIBUTES] == ["Str", "Dex", "Sta", "Int", "Soc", "Emp"]
    assert [a.name for a in STANDARD_ATTRIBUTES if a.physical] == ["Strength", "Dexterity", "Stamina"]
    assert REGISTRY["Heimr.Attribute.Empathy"].value("abbreviation") == "Emp"


def test_find_attribute_by_name_or_abbreviation():
    assert find_attribute("dex").name == "Dexterity"
    assert find_attribute("Social").abbreviation == "Soc"
    with pytest.raises(HeimrError, match="Luck"):
        find_attribute("Luck")


def test_hit_points_at_zero_or_below_mean_injured():
    hp = HitPoints(3)
    assert hp.lose(2) == 1 and not hp.injured
    assert hp.lose(2) == -1 and hp.injured
    assert hp.restore() == 3
    with pytest.raises(HeimrError, match="-1"):
        hp.lose(-1)


def test_willpower_is_a_pool_with_a_maximum():
    wp = Willpower(4)
    assert wp.lose(1) == 3
    with pytest.raises(HeimrError, match="-2"):
        Willpower(-2)


def test_character_reads_attributes_by_any_spelling():
    hero = Character("Ada", {"Dex": 2, "Strength": 1})
    assert hero.attribute("Dexterity") == 2 and hero.attribute("str") == 1
    with pytest.raises(HeimrError, match="Empathy"):
        hero.attribute("Emp")


def test_character_attribute_values_must_be_whole_numbers():
    with pytest.raises(HeimrError, match="'high'"):
        Character("Ada", {"Dex": "high"}).attribute("Dex")


def test_an_attribute_below_the_lowest_value_of_the_progress_table_is_refused():
    from rules.heimr.characters import Character, HeimrError
    from rules.heimr.experience import LOWEST_ATTRIBUTE

    assert REGISTRY["Heimr.Attribute.Strength"].ranks.minimum == LOWEST_ATTRIBUTE
    assert Character("Low", {"Str": LOWEST_ATTRIBUTE}).attribute("Str") == LOWEST_ATTRIBUTE
    with pytest.raises(HeimrError, match=f"at least {LOWEST_ATTRIBUTE}, not {LOWEST_ATTRIBUTE - 1}"):
        Character("Lower", {"Str": LOWEST_ATTRIBUTE - 1}).attribute("Str")
