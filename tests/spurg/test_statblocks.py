"""SPURG's stat block holds the numbers the engine's rules compute (docs/spurg/statblocks.rst)."""

from rules.spurg import REGISTRY
from rules.spurg.characters import ability_cost, starting_speed
from rules.spurg.statblocks import FENCING, MODIFIERS
from rules.spurg.verdict import success_probability


def test_the_duellists_speed_points_and_verdict_odds_come_from_the_rules():
    block = REGISTRY.statblocks.build("duellist")
    assert block.stat("Spurg.Rule.StartingSpeed").value == starting_speed(12, 13) == 12
    assert block.stat("Spurg.Rule.AbilityCost").value == ability_cost("AGI", 12) == 40
    assert block.stat("Spurg.Resource.CharacterPoints").value == 40 + ability_cost("VIT", 13, values={"VIT": 10})
    assert block.attack.chances() == tuple((FENCING + m, success_probability(FENCING + m)) for m in MODIFIERS)
