"""Nemron's stat blocks hold the numbers the engine's rules compute (docs/nemron/statblocks.rst)."""

import itertools
from fractions import Fraction

import pytest

from rules.nemron import REGISTRY
from rules.nemron.actions import initiative_pool
from rules.nemron.characters import movement_speed
from rules.nemron.checks import parse_pool
from rules.nemron.combat import attack_hits
from rules.nemron.energy import MAX_ENERGY
from rules.nemron.health import LIMB_HP, limb_hp
from rules.nemron.statblocks import ATTACK_DCS, RAIDER, brandon
from sphinx_rpg.statblocks import show_value
from tests.book_blocks import printed, shown_blocks


def test_brandons_block_holds_the_health_energy_and_pistol_odds_the_rules_give():
    block = REGISTRY.statblocks.build("brandon")
    assert block.stat("Generic.Attribute.HP").value == LIMB_HP(Power=1, Agility=1, Constitution=1) == 8
    assert block.stat("Generic.Trait.Energy").value == MAX_ENERGY(Control=1, Sense=1, Focus=1) == 8
    assert block.stat("Generic.Rule.MovementSpeed").value == 2
    pool = parse_pool("Awareness 2 › Marksmanship 1 › Pistol 2").dist()
    assert block.attack.chances() == tuple((dc, pool.p_ge(dc)) for dc in range(3, 9))  # a pistol lands on 3


def test_the_raiders_attack_line_stops_at_the_best_roll_of_his_pool():
    block = REGISTRY.statblocks.build("raider")
    assert block.stat("Generic.Attribute.HP").value == LIMB_HP(Power=RAIDER["Power"], Agility=RAIDER["Agility"],
                                                               Constitution=RAIDER["Constitution"])
    assert [dc for dc, _ in block.attack.chances()] == [3, 4, 5, 6]  # d6 › d6 › d6: nothing above 6


# -- every block the book shows, value by value ------------------------------------------------------
def _by_faces(pool, weapon_rank):
    """(least landing roll, {DC: chance}) by enumerating every face of every die and asking attack_hits."""
    outcomes = [max(faces) for faces in itertools.product(*(range(1, s + 1) for s in pool.sides))]
    floor = min(roll for roll in outcomes if attack_hits(roll, weapon_rank))
    chance = {dc: Fraction(sum(attack_hits(r, weapon_rank) and r >= dc for r in outcomes), len(outcomes))
              for dc in range(floor, pool.maximum() + 1) if dc in ATTACK_DCS}
    return floor, chance


def _expected(ranks, pool, weapon, weapon_rank):
    rank = {getattr(attribute, "value", attribute): value for attribute, value in ranks.items()}
    values = {f"Generic.Attribute.{name}": value for name, value in rank.items()}
    values["Generic.Attribute.HP"] = limb_hp(rank["Power"], rank["Agility"], rank["Constitution"])
    values["Generic.Trait.Energy"] = MAX_ENERGY.whole(Control=rank["Control"], Sense=rank["Sense"], Focus=rank["Focus"])
    values["Generic.Rule.MovementSpeed"] = movement_speed(rank["Agility"])
    values["Generic.Rule.Initiative"] = str(initiative_pool(rank["Agility"], rank["Awareness"], rank["Sense"]))
    floor, chance = _by_faces(pool, weapon_rank)
    return values, f"{weapon} (hits on {floor} or more)", chance


EXPECTED = {
    "brandon": lambda: _expected(brandon().attributes, parse_pool("Awareness 2 › Marksmanship 1 › Pistol 2"),
                                 "Pistol", 2),
    "raider": lambda: _expected(RAIDER, parse_pool("Power 1 › Blades 1 › Sword 1"), "Sword", 1),
}


@pytest.mark.parametrize("name", shown_blocks("nemron"))
def test_every_block_in_the_book_prints_the_rule_functions_numbers_and_hit_floor(name):
    block = REGISTRY.statblocks.build(name)
    values, attack, chance = EXPECTED[name]()
    text = printed(block)
    assert {uid: text[uid] for uid in values} == {uid: show_value(value) for uid, value in values.items()}
    assert set(text) == {*values, "attack", "odds"}  # nothing printed that the rules were not asked for
    assert text["attack"] == attack
    assert dict(block.attack.chances()) == chance


def test_the_raider_hits_on_three_as_attack_hits_and_the_combat_page_say():
    assert not attack_hits(2, 1) and attack_hits(3, 1)
    assert REGISTRY.statblocks.build("raider").attack.name == "Sword (hits on 3 or more)"
    assert min(dc for dc, _ in REGISTRY.statblocks.build("raider").attack.chances()) == 3
