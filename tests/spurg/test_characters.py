"""Character creation: costs and Speed from the SPURG notes."""

from __future__ import annotations

import pytest

from rules.spurg import REGISTRY
from rules.spurg.characters import (
    ABILITIES,
    SpurgError,
    CharacterSheet,
    ability_cost,
    describe_score,
    starting_guideline,
    starting_speed,
)


def test_abilities_start_at_ten_with_published_values():
    assert ABILITIES["AGI"].value == 20 and ABILITIES["SPD"].value == 10
    assert ABILITIES["VIT"].value is None and ABILITIES["MGT"].value is None
    assert REGISTRY["Spurg.Ability.Agility"].value("value") == 20
    assert REGISTRY["Spurg.Ability.Might"].value("value") == "unpublished"


def test_ability_cost_is_points_from_ten_times_value():
    assert ability_cost("AGI", 12) == 40
    assert ability_cost("AGI", 9) == -20
    assert ability_cost("AGI", 10) == 0
    assert ability_cost("VIT", 10) == 0  # unpublished Value, but no points moved
    assert ability_cost("MGT", 12, values={"MGT": 10}) == 20


def test_ability_cost_rejects_bad_input():
    with pytest.raises(SpurgError, match="VIT 11"):
        ability_cost("VIT", 11)
    with pytest.raises(SpurgError, match="'STR'"):
        ability_cost("STR", 11)
    with pytest.raises(SpurgError, match="AGI must be .* not 0"):
        ability_cost("AGI", 0)
    with pytest.raises(SpurgError, match="11.5"):
        ability_cost("AGI", 11.5)


def test_starting_speed_is_mean_of_agility_and_vitality_rounded_down():
    assert starting_speed(11, 10) == 10
    assert starting_speed(12, 13) == 12
    assert starting_speed(10, 10) == 10
    assert str(REGISTRY["Spurg.Rule.StartingSpeed"].formula) == "floor((AGI + VIT) / 2)"
    with pytest.raises(SpurgError, match="VIT must be .* not -1"):
        starting_speed(10, -1)


def test_starting_guideline_bands():
    assert starting_guideline(0) == "ordinary real-life people"
    assert starting_guideline(50) == "ordinary real-life people"
    assert starting_guideline(51) == "grounded protagonists and antagonists"
    assert starting_guideline(300) == "high-adventure heroes and villains"
    assert starting_guideline(301) is None
    with pytest.raises(SpurgError, match="'lots'"):
        starting_guideline("lots")


def test_human_range_descriptions():
    assert [describe_score(s) for s in (7, 8, 12, 13, 14, 15)] == [
        "extremely poor", "typical", "typical", "exceptional", "exceptional", "rarely reached by humans"]
    assert describe_score(16, "MGT") == "exceptional"
    with pytest.raises(SpurgError):
        describe_score(10, "LUCK")


def test_character_points_total_a_sheet():
    sheet = CharacterSheet({"AGI": 12, "VIT": 10}, speed_adjustment=1, skills=15, benefits=5, drawbacks=10)
    assert sheet.speed == 12  # floor(22 / 2) + 1
    assert sheet.cost() == 40 + 10 + 15 + 5 - 10
    assert CharacterSheet().cost() == 0 and CharacterSheet().speed == 10


def test_character_points_reject_bad_sheets():
    with pytest.raises(SpurgError, match="SPD 12"):
        CharacterSheet({"SPD": 12}).cost()
    with pytest.raises(SpurgError, match="Skills must be .* not 2.5"):
        CharacterSheet(skills=2.5).cost()


def test_speed_is_never_priced_from_ten():
    # Speed starts from floor((AGI + VIT) / 2): only moves away from that are bought (the book's decision)
    with pytest.raises(SpurgError, match="SPD 12"):
        ability_cost("SPD", 12)
    with pytest.raises(SpurgError):
        ABILITIES["SPD"].cost(12)
    # the sheet still prices the adjustment: AGI 12 is 40 CP, one Speed point sold refunds 10
    assert CharacterSheet({"AGI": 12}, speed_adjustment=-1).cost() == 30


def test_character_sheets_refuse_negative_amounts_and_speed_below_one():
    with pytest.raises(SpurgError, match="not -5"):
        CharacterSheet(skills=-5).cost()
    with pytest.raises(SpurgError, match="not -5"):
        CharacterSheet(drawbacks=-5).cost()    # a Drawback is written as the CP it refunds
    with pytest.raises(SpurgError, match="SPD .* not 0"):
        _ = CharacterSheet(speed_adjustment=-10).speed
    with pytest.raises(SpurgError, match="SPD .* not 0"):
        CharacterSheet({"AGI": 1}, speed_adjustment=-5).cost()
    with pytest.raises(SpurgError, match="'ten'"):
        ability_cost("MGT", 12, values={"MGT": "ten"})


def test_the_sheets_ability_points_formula_charges_what_a_character_sheet_charges():
    from rules.spurg.characters import ABILITY_POINTS, ability_points

    for agi in range(6, 16):
        for vit in range(6, 16):
            for spd in range(max(1, (agi + vit) // 2 - 2), (agi + vit) // 2 + 3):
                assert ABILITY_POINTS.evaluate({"AGI": agi, "VIT": vit, "SPD": spd}) == ability_points(agi, vit, spd)


def test_the_ability_points_budget_is_the_grounded_guideline_with_the_others_as_choices():
    from rules.budgets import budget_of

    budget = budget_of(REGISTRY["Spurg.Rule.AbilityPoints"])
    assert (budget.total, budget.choices, budget.unit) == (100, (50, 100, 300), "CP")
