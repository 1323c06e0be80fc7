"""Heimr's stat block holds the numbers the engine's rules compute (docs/heimr/statblocks.rst)."""

import pytest

from rules.heimr import REGISTRY
from rules.heimr.abilities import ability_consistency, ability_potential, base_potential, find_ability
from rules.heimr.challenge import challenge_distribution, meets_requirement
from rules.heimr.characters import STANDARD_ATTRIBUTES
from rules.heimr.fatigue import base_fatigue
from rules.heimr.statblocks import REQUIREMENTS, TRAINED_CONSISTENCY
from tests.book_blocks import assert_prints, shown_blocks


def test_sigruns_shield_and_sword_challenge_follows_the_ability_rules():
    block = REGISTRY.statblocks.build("shieldmaiden")
    consistency, potential = 1 + TRAINED_CONSISTENCY, base_potential(2)  # base C 1; Strength 2
    assert block.stat("Heimr.Ability.ShieldAndSword").value == f"C{consistency:+d} P{potential:+d}"
    assert block.stat("Heimr.Rule.BaseFatigue").value == base_fatigue(1) == 3
    dist = challenge_distribution(consistency, potential)
    assert block.attack.chances() == tuple((r, dist.p_ge(r)) for r in REQUIREMENTS)


# -- every block the book shows, value by value ------------------------------------------------------
#: name -> (attributes, hit points, willpower, ability, trained consistency), as the book builds them.
BOOK = {"shieldmaiden": ({"Str": 2, "Dex": 2, "Sta": 1, "Int": 0, "Soc": 0, "Emp": 1}, 12, 3, "Shield and sword", 1)}


def rule_values(name):
    attributes, hit_points, willpower, ability_name, trained = BOOK[name]
    ability = find_ability(ability_name)
    consistency = ability_consistency(ability.base_consistency, trained)
    potential = ability_potential(base_potential(*(attributes[a] for a in ability.attributes)), 0)
    values = {f"Heimr.Attribute.{a.name}": attributes[a.abbreviation] for a in STANDARD_ATTRIBUTES}
    values |= {"Heimr.Resource.HitPoints": hit_points, "Heimr.Resource.Willpower": willpower,
               "Heimr.Rule.BaseFatigue": base_fatigue(attributes["Sta"]),
               "Heimr.Action.Initiative": f"C{attributes['Dex']:+d} P{willpower:+d}",  # 1d6 + |Dex|d10 + willpower
               ability.uid: f"C{consistency:+d} P{potential:+d}"}
    dist = challenge_distribution(consistency, potential)
    return values, ability_name, {r: dist.p_ge(r) for r in REQUIREMENTS}


@pytest.mark.parametrize("name", shown_blocks("heimr"))
def test_every_block_in_the_book_prints_the_rule_functions_numbers(name):
    block = REGISTRY.statblocks.build(name)
    values, attack, chances = rule_values(name)
    assert_prints(block, values, attack)
    assert dict(block.attack.chances()) == chances
    assert all(meets_requirement(r, r) and not meets_requirement(r - 1, r) for r in REQUIREMENTS)  # "at least"
