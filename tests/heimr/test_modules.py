import pytest

from rules.heimr.grid import Square
from rules.heimr.modules import (
    BlindSpot, HeimrError, attack_direction, decline_defence, find_weapon, weapon_attack,
)


def test_medieval_armoury_adds_the_weapon_bonus_and_deals_its_hit():
    assert weapon_attack("Great weapon", 1, 2) == (1, 7, 3)
    assert weapon_attack("Crossbow", 4, 1) == (4, 1, 3)
    assert find_weapon("bow").range == 6
    with pytest.raises(HeimrError, match="Lance"):
        find_weapon("Lance")


def test_attack_direction_snaps_to_the_nearest_of_eight_lines():
    assert attack_direction("B2", "B5") == (0, 1)
    assert attack_direction("A1", "D4") == (1, 1)
    assert attack_direction("A1", "D2") == (1, 0)       # one off straight, two off diagonal
    with pytest.raises(HeimrError, match="choose"):
        attack_direction("A1", "C2")                    # one off either line
    assert attack_direction("A1", "C2", prefer="diagonal") == (1, 1)
    with pytest.raises(HeimrError, match="B2"):
        attack_direction("B2", "B2")


def test_blind_spot_faces_away_from_the_attacker_and_costs_five():
    spot = BlindSpot(Square.parse("C3"))
    assert spot.ranged_attack("C6") == 0                # from the north
    assert spot.squares() == ["B2", "C2", "D2"]          # the three squares to the south
    assert spot.ranged_attack("C1") == 5                 # from inside the blind spot
    assert spot.melee_penalty("D2") == 5 and spot.melee_penalty("D3") == 0
    spot.ranged_attack("F3")                             # from the east: west side added
    assert spot.squares() == ["B2", "B3", "B4", "C2", "D2"]
    spot.new_turn()
    assert spot.squares() == []


def test_declining_to_defend_always_hits_but_opens_no_blind_spot():
    assert decline_defence() == {"hit": True, "blind_spot": False, "defence_used": False}


def test_module_rules_reject_bad_input_and_read_square_names():
    with pytest.raises(HeimrError, match="'1'"):
        weapon_attack("Bow", "1", 2)
    with pytest.raises(HeimrError, match="2.5"):
        weapon_attack("Bow", 1, 2.5)
    spot = BlindSpot("C3")
    assert spot.defender == Square.parse("C3") and spot.ranged_attack("C6") == 0
    assert spot.squares() == ["B2", "C2", "D2"]
