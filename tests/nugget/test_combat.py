"""Attack, defence and damage, including the notes' constructed sword example."""

from fractions import Fraction
from itertools import product

import pytest

from rules.nugget import combat as c
from rules.nugget.characters import NuggetError


class Faces:
    def __init__(self, faces):
        self.faces = list(faces)

    def roll(self, sides):
        return self.faces.pop(0)


def test_attack_is_skill_plus_agility_at_base_dice_two():
    assert c.attack_pool(2, 1) == 5
    assert c.attack_pool(2, -1) == 3
    assert c.attack_pool(2, 1, injuries=1) == 4


def test_spray_fire_gives_an_advantage_to_hit():
    assert c.attack_pool(1, 0, spray=True) == c.attack_pool(1, 0) + 1


def test_defence_is_close_combat_skill_plus_agility_base_dice_by_cover_against_projectiles():
    assert c.defence_pool(2, 1) == 5
    assert [c.defence_pool(1, 0, projectile=True, cover=k) for k in ("none", "partial", "good")] == [1, 2, 3]
    assert c.defence_pool(2, 1, use_agility=False) == 4
    with pytest.raises(c.NuggetError, match="close_combat=False"):
        c.defence_pool(2, 1, close_combat=False)
    with pytest.raises(c.NuggetError, match="'total'"):
        c.defence_pool(2, 1, projectile=True, cover="total")


def test_shield_gives_an_advantage_to_defend():
    assert c.defence_pool(1, 0, shield=True) == c.defence_pool(1, 0) + 1


def test_unseen_opponent_is_fighting_plus_brains_at_base_dice_zero():
    assert c.unseen_pool(2, 1) == 3 and c.unseen_pool(1, -1) == 0


def test_hit_needs_strictly_more_successes():
    assert c.hits(2, 1) and not c.hits(2, 2) and not c.hits(0, 0)
    with pytest.raises(c.NuggetError, match="-1"):
        c.hits(-1, 0)


def test_weapon_base_damage_table():
    assert [c.weapon_base(w) for w in ("unarmed", "knife", "sword", "handgun", "rifle", "machine-gun", "tank gun")] \
        == [0, 1, 2, 3, 4, 6, 8]
    with pytest.raises(c.NuggetError, match="'lightsaber'"):
        c.weapon_base("lightsaber")


def test_armour_up_to_three_archaic_five_modern():
    assert c.check_armour(3) == 3 and c.check_armour(5, modern=True) == 5
    with pytest.raises(c.NuggetError, match="4"):
        c.check_armour(4)


def test_damage_is_margin_plus_weapon_plus_brawn_hand_to_hand_less_armour():
    assert c.hit_damage(3, 1, 2, brawn=1, hand_to_hand=True, armour=1) == 4
    assert c.hit_damage(3, 1, 3, brawn=1, armour=0) == 5          # a handgun adds no Brawn
    assert c.hit_damage(2, 2, 8) == 0                               # a miss
    assert c.hit_damage(2, 1, 0, armour=3) == -2                    # not clamped before Resistance


def test_surprise_allows_no_defence_roll():
    assert c.defence_allowed() and not c.defence_allowed(surprised=True)


def test_attack_exchange_sword_example_ends_injured():
    # constructed: attack 3 successes, defence 1, sword, Brawn +1, armour 1, Resistance 2 with 1 success
    exchange = c.resolve_attack(5, 5, 2, Faces([4, 5, 6, 1, 2, 4, 1, 2, 3, 1, 5, 2]),
                                weapon=2, brawn=1, hand_to_hand=True, armour=1)
    assert (exchange.attack.successes, exchange.defence.successes) == (3, 1)
    assert exchange.damage == 4 and exchange.final == 3 and exchange.effect.label == "Injured"


def test_attack_exchange_surprised_target_and_miss():
    surprised = c.resolve_attack(1, None, 2, Faces([4, 1, 2]), weapon=1)
    assert surprised.hit and surprised.damage == 2 and surprised.final == 2
    missed = c.resolve_attack(1, 1, 2, Faces([4, 5]), weapon=1)
    assert not missed.hit and missed.resistance is None and missed.final == 0


def test_hit_chance_two_attack_dice_against_one_defence_die_by_enumeration():
    def succ(faces):
        return sum(f >= 4 for f in faces) + all(f == 6 for f in faces)
    p = sum(Fraction(1, 6 ** 3) for faces in product(range(1, 7), repeat=3) if succ(faces[:2]) > succ(faces[2:]))
    assert c.hit_chance(2, 1) == p
    assert c.hit_chance(1, None) == Fraction(1, 2)


def test_bad_skill_attribute_and_armour_values_are_refused_by_name():
    with pytest.raises(c.NuggetError, match="5"):
        c.attack_pool(5, 0)
    with pytest.raises(c.NuggetError, match="7"):
        c.unseen_pool(7, 0)
    with pytest.raises(NuggetError, match=r"\+9"):
        c.defence_pool(1, 9)
    with pytest.raises(NuggetError, match="'strong'"):
        c.hit_damage(3, 1, 2, brawn="strong", hand_to_hand=True)
    with pytest.raises(c.NuggetError, match="9"):
        c.hit_damage(3, 1, 2, armour=9)
