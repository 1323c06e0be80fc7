"""Nemron's stat blocks hold the numbers the engine's rules compute (docs/nemron/statblocks.rst)."""

from rules.nemron import REGISTRY
from rules.nemron.checks import parse_pool
from rules.nemron.energy import MAX_ENERGY
from rules.nemron.health import LIMB_HP
from rules.nemron.statblocks import RAIDER


def test_brandons_block_holds_the_health_energy_and_pistol_odds_the_rules_give():
    block = REGISTRY.statblocks.build("brandon")
    assert block.stat("Generic.Attribute.HP").value == LIMB_HP(Power=1, Agility=1, Constitution=1) == 8
    assert block.stat("Generic.Trait.Energy").value == MAX_ENERGY(Control=1, Sense=1, Focus=1) == 8
    assert block.stat("Generic.Rule.MovementSpeed").value == 2
    pool = parse_pool("Awareness 2 › Marksmanship 1 › Pistol 2").dist()
    assert block.attack.chances() == tuple((dc, pool.p_ge(dc)) for dc in range(2, 9))


def test_the_raiders_attack_line_stops_at_the_best_roll_of_his_pool():
    block = REGISTRY.statblocks.build("raider")
    assert block.stat("Generic.Attribute.HP").value == LIMB_HP(Power=RAIDER["Power"], Agility=RAIDER["Agility"],
                                                               Constitution=RAIDER["Constitution"])
    assert [dc for dc, _ in block.attack.chances()] == [2, 3, 4, 5, 6]  # d6 › d6 › d6: nothing above 6
