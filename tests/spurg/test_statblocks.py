"""SPURG's stat block holds the numbers the engine's rules compute (docs/spurg/statblocks.rst)."""

import pytest

from rules.spurg import REGISTRY
from rules.spurg.characters import ability_cost, describe_score, starting_speed
from rules.spurg.statblocks import FENCING, MODIFIERS
from rules.spurg.verdict import success_probability, target_number
from tests.book_blocks import assert_prints, shown_blocks


def test_the_duellists_speed_points_and_verdict_odds_come_from_the_rules():
    block = REGISTRY.statblocks.build("duellist")
    assert block.stat("Spurg.Rule.StartingSpeed").value == starting_speed(12, 13) == 12
    assert block.stat("Spurg.Rule.AbilityCost").value == ability_cost("AGI", 12) == 40
    assert block.stat("Spurg.Resource.CharacterPoints").value == 40 + ability_cost("VIT", 13, values={"VIT": 10})
    assert block.attack.chances() == tuple((FENCING + m, success_probability(FENCING + m)) for m in MODIFIERS)


# -- every block the book shows, value by value ------------------------------------------------------
#: name -> (Agility, Vitality, Vitality's house Value, Fencing, modifiers), as the book builds them.
BOOK = {"duellist": (12, 13, 10, FENCING, MODIFIERS)}


def rule_values(name):
    agility, vitality, vitality_value, fencing, modifiers = BOOK[name]
    values = {"Spurg.Ability.Agility": agility, "Spurg.Ability.Vitality": vitality,
              "Spurg.Rule.StartingSpeed": starting_speed(agility, vitality),
              "Spurg.Rule.AbilityCost": ability_cost("AGI", agility),
              "Spurg.Resource.CharacterPoints": ability_cost("AGI", agility)
              + ability_cost("VIT", vitality, values={"VIT": vitality_value})}
    shown = ", ".join(f"{m:+d}" for m in modifiers)
    chances = {target_number(fencing, m): success_probability(target_number(fencing, m)) for m in modifiers}
    return values, f"Rapier (Fencing {fencing}, modifiers {shown})", chances


@pytest.mark.parametrize("name", shown_blocks("spurg"))
def test_every_block_in_the_book_prints_the_rule_functions_numbers(name):
    block = REGISTRY.statblocks.build(name)
    values, attack, chances = rule_values(name)
    assert_prints(block, values, attack)
    assert block.stat("Spurg.Ability.Agility").note == describe_score(values["Spurg.Ability.Agility"], "AGI")
    assert dict(block.attack.chances()) == chances
