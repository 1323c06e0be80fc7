"""Heimr's stat block holds the numbers the engine's rules compute (docs/heimr/statblocks.rst)."""

from rules.heimr import REGISTRY
from rules.heimr.abilities import base_potential
from rules.heimr.challenge import challenge_distribution
from rules.heimr.fatigue import base_fatigue
from rules.heimr.statblocks import REQUIREMENTS, TRAINED_CONSISTENCY


def test_sigruns_shield_and_sword_challenge_follows_the_ability_rules():
    block = REGISTRY.statblocks.build("shieldmaiden")
    consistency, potential = 1 + TRAINED_CONSISTENCY, base_potential(2)  # base C 1; Strength 2
    assert block.stat("Heimr.Ability.ShieldAndSword").value == f"C{consistency:+d} P{potential:+d}"
    assert block.stat("Heimr.Rule.BaseFatigue").value == base_fatigue(1) == 3
    dist = challenge_distribution(consistency, potential)
    assert block.attack.chances() == tuple((r, dist.p_ge(r)) for r in REQUIREMENTS)
