"""NPC tiers."""

import pytest

from rules.nugget import npcs as n
from rules.nugget.harm import Wounds


def test_minion_is_out_after_one_hurt():
    assert n.is_out("minion", Wounds(hurts=1)) and not n.is_out("minion", Wounds())


def test_henchman_is_out_after_one_injury_or_three_hurts():
    assert not n.is_out("henchman", Wounds(hurts=2))
    assert n.is_out("henchman", Wounds(hurts=3)) and n.is_out("henchman", Wounds(injuries=1))


def test_taken_out_villain_only_by_unconscious_or_dead():
    assert not n.is_out("villain", Wounds(hurts=5, injuries=3))
    assert n.is_out("villain", Wounds(unconscious=True))
    with pytest.raises(n.NuggetError, match="'boss'"):
        n.is_out("boss", Wounds())


def test_villain_destiny_often_one_per_pc():
    assert n.villain_destiny(4) == 4
    with pytest.raises(n.NuggetError, match="-1"):
        n.villain_destiny(-1)


def test_villain_destiny_refuses_bad_counts_by_name():
    with pytest.raises(n.NuggetError, match="-1"):
        n.villain_destiny(3, per_pc=-1)


def test_npcs_are_built_outside_the_player_character_budget():
    from rules.nugget.characters import Skill
    from rules.nugget.npcs import create_npc
    guard = create_npc("Gate Guard", "Guard", {"Brawn": 2, "Agility": 2, "Will": 2},
                       [Skill("Spear", 3, fighting=True, close_combat=True), Skill("Watch", 2)])
    assert guard.attributes["Brawn"] == 2 and guard.core_skill.name == "Spear" and guard.destiny == 0
    minion = create_npc("Lackey", "Thug")
    assert minion.core_skill.level == 1 and minion.core_skill.occupational and minion.skills == ()


def test_creatures_range_from_minus_two_to_plus_four_and_people_do_not():
    from rules.nugget import NuggetError
    from rules.nugget.npcs import create_npc
    beast = create_npc("Cave Bear", "Predator", {"Brawn": 4, "Brains": -2}, creature=True)
    assert (beast.attribute("Brawn"), beast.attribute("Brains"), beast.physical_resistance) == (4, -2, 6)
    with pytest.raises(NuggetError, match=r"\+4"):
        create_npc("Strongman", "Porter", {"Brawn": 4})
    with pytest.raises(NuggetError, match=r"\+5"):
        create_npc("Titan", "Giant", {"Brawn": 5}, creature=True)
    with pytest.raises(NuggetError, match="-1"):
        create_npc("Boss", "Villain", destiny=-1)
    with pytest.raises(NuggetError, match="5"):
        create_npc("Boss", "Villain", attributes=5)
    with pytest.raises(NuggetError, match="'Spear'"):
        create_npc("Boss", "Villain", skills="Spear")


def test_npcs_and_creatures_fight_as_tracker_fighters():
    from rules.dice import SeededSource
    from rules.nugget.characters import Skill
    from rules.nugget.npcs import create_npc
    from rules.nugget.tracker import Fight, Fighter
    wolves = [Fighter(create_npc(f"Wolf {i}", "Pack hunter", {"Agility": 2, "Brawn": 1}, creature=True),
                      "pack", 1, 1, 1, tier="minion") for i in (1, 2)]
    hunter = Fighter(create_npc("Hunter", "Tracker", {"Agility": 1}, [Skill("Spear", 2, fighting=True,
                                                                           close_combat=True)]),
                     "people", 2, 2, 2, tier="henchman")
    fight = Fight([hunter, *wolves], SeededSource(5))
    for _ in range(50):
        if fight.over:
            break
        fight.play_round()
    assert fight.over
