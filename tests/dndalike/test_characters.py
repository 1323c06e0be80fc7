"""Character creation: expected values from the source tables and the rules notes' constructed sheet."""

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedSource
from rules.dndalike.characters import (
    ARMOURS,
    Character,
    DndalikeError,
    Stats,
    action_dice,
    armour_class,
    character_class,
    health,
    health_gain,
    level,
    maximum_fatigue,
    permanent_fatigue,
    roll_stats,
    stat_bonus,
    stat_bonus_odds,
)

SOURCE_BONUS = {3: -2, 4: -1, 5: -1, 6: -1, 15: 1, 16: 1, 17: 1, 18: 2, **{s: 0 for s in range(7, 15)}}


def test_stat_bonus_follows_the_source_table_for_every_score():
    assert {s: stat_bonus(s) for s in range(3, 19)} == SOURCE_BONUS


@pytest.mark.parametrize("bad", [2, 19, 0, -1, "12", 12.0, True])
def test_stat_bonus_rejects_scores_3d6_cannot_roll(bad):
    with pytest.raises(DndalikeError, match=repr(bad).replace("(", r"\(").replace(")", r"\)")):
        stat_bonus(bad)


def test_stat_bonus_odds_are_1_19_176_19_1_in_216_by_enumeration():
    counts = {b: 0 for b in (-2, -1, 0, 1, 2)}
    for faces in product(range(1, 7), repeat=3):
        counts[SOURCE_BONUS[sum(faces)]] += 1
    assert [counts[b] for b in (-2, -1, 0, 1, 2)] == [1, 19, 176, 19, 1]
    assert stat_bonus_odds().column("Chance") == tuple(Fraction(counts[b], 216) for b in (-2, -1, 0, 1, 2))


def test_roll_stats_assigns_3d6_totals_in_order():
    faces = [6, 5, 5, 3, 3, 3, 1, 2, 2, 4, 4, 4, 6, 6, 6, 5, 5, 5]
    stats = roll_stats(ScriptedSource(faces))
    assert stats.scores() == (16, 9, 5, 12, 18, 15)


def test_stats_bonuses_of_the_constructed_sheet():
    stats = Stats(16, 9, 5, 12, 18, 15)
    assert list(stats.bonuses().values()) == [1, 0, -1, 0, 2, 1]
    assert stats.bonus("Wis") == 2
    with pytest.raises(DndalikeError, match="'Luck'"):
        stats.bonus("Luck")
    with pytest.raises(DndalikeError, match="19"):
        Stats(19, 9, 5, 12, 18, 15)


def test_class_is_the_class_of_the_first_power():
    assert character_class(["Rogue", "Fighter", "Fighter"]) == "Rogue"
    with pytest.raises(DndalikeError):
        character_class([])
    with pytest.raises(DndalikeError, match="'Bard'"):
        character_class(["Bard"])


def test_level_is_the_number_of_powers():
    assert level(["Wizard"]) == 1
    assert level(["Wizard", "Rogue", "Wizard"]) == 3
    with pytest.raises(DndalikeError):
        level([])


def test_health_gain_is_class_health_plus_con_bonus_and_never_below_two():
    base = {"Wizard": 4, "Rogue": 5, "Fighter": 6}
    for name, con in product(base, range(-2, 3)):
        assert health_gain(name, con) == base[name] + con
    assert min(health_gain(n, c) for n, c in product(base, range(-2, 3))) == 2
    with pytest.raises(DndalikeError, match="3"):
        health_gain("Wizard", 3)


def test_health_sums_every_power_fighter_then_rogue_with_con_minus_one():
    assert health(["Fighter"], -1) == 5
    assert health(["Fighter", "Rogue"], -1) == 9


def test_maximum_fatigue_is_wisdom_bonus_plus_six():
    assert [maximum_fatigue(b) for b in range(-2, 3)] == [4, 5, 6, 7, 8]
    with pytest.raises(DndalikeError, match="-3"):
        maximum_fatigue(-3)


def test_armour_table_gives_ac_and_permanent_fatigue():
    expected = {"Nothing": (0, 0), "Leather": (1, 1), "Light Armour": (2, 2), "Heavy Armour": (3, 3),
                "Full Plate": (4, 4)}
    assert {n: (a.armour_class, a.permanent_fatigue) for n, a in ARMOURS.items()} == expected


def test_armour_class_adds_charisma_bonus():
    assert armour_class("Heavy Armour", 1) == 4
    assert armour_class("Nothing", -2) == -2
    assert permanent_fatigue("Heavy Armour") == 3
    with pytest.raises(DndalikeError, match="'Mithril'"):
        armour_class("Mithril", 0)


def test_action_dice_from_hands_match_the_notes_examples():
    assert str(action_dice("weapon", "free hand").dice) == "M2 A1"
    assert str(action_dice("weapon", "weapon").dice) == "M1 A2"
    kit = action_dice("weapon", "shield")
    assert str(kit.dice) == "M1 A1 S1" and "block" in kit.features
    two = action_dice("two-handed weapon")
    assert str(two.dice) == "M1 A1" and {"double wounds", "quick attacks for fatigue"} <= two.features
    bow = action_dice("bow")
    assert str(bow.dice) == "M1 A1" and {"ranged", "quick attacks"} <= bow.features
    assert str(action_dice("free hand", "free hand").dice) == "M2"


@pytest.mark.parametrize("hands", [("weapon",), ("bow", "shield"), ("weapon", "weapon", "weapon"), ("axe", "weapon")])
def test_action_dice_rejects_hands_that_do_not_fit(hands):
    with pytest.raises(DndalikeError):
        action_dice(*hands)


def test_character_sheet_of_the_constructed_example():
    sheet = Character(Stats(16, 9, 5, 12, 18, 15), ("Fighter",), "Heavy Armour", ("weapon", "shield"))
    assert (sheet.character_class, sheet.level, sheet.health, sheet.maximum_fatigue) == ("Fighter", 1, 5, 8)
    assert (sheet.armour_class, sheet.permanent_fatigue) == (4, 3)
    later = sheet.gain_power("Rogue")
    assert (later.level, later.health, later.character_class) == (2, 9, "Fighter")


def test_a_single_text_or_an_unhashable_name_is_refused_by_name():
    from rules.dndalike import characters as ch

    with pytest.raises(ch.DndalikeError, match="'Wizard'"):
        ch.level("Wizard")                        # a text, not a list of powers
    with pytest.raises(ch.DndalikeError, match=r"\['Mithril'\]"):
        ch.armour_class(["Mithril"], 0)
    with pytest.raises(ch.DndalikeError, match=r"\['weapon'\]"):
        ch.action_dice(["weapon"], "free hand")


def test_stat_scores_are_bounded_by_what_three_dice_can_roll():
    from rules.dndalike import REGISTRY

    ranks = REGISTRY["Dndalike.Stat.Wisdom"].ranks
    assert (ranks.minimum, ranks.maximum) == (3, 18)
