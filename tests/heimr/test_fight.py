"""A whole Heimr fight a GM might run, step by step, each step checked against the rule it follows.

Initiative (C = Dexterity, P = willpower), the armoury and shield modules, two weapons, a block and its
repeat penalty, a parry, a shot at range into a cluster, the fatigue gate and its growth, injuries
with their hit locations and effects, dying and stabilising, a breather, a short rest and experience.
"""

import pytest

from rules.dice import ScriptedSource
from rules.heimr.combat import range_penalty, weapon_attack_rolls
from rules.heimr.defence import REPEAT_PENALTY
from rules.heimr.experience import AttributeTrack, progress_required, split_xp, xp_to_train
from rules.heimr.fatigue import base_fatigue
from rules.heimr.health import Wound, injury_effects, injury_level, short_rest
from rules.heimr.modules import SHIELDS, find_weapon
from rules.heimr.tracker import Fighter, Skirmish, HeimrError, hit_location

DICE = [4, 4, 4,          # initiative d6s (every Dexterity is 0): Ulf 4 + 3, Hild 4 + 2, Sig 4 + 1
        5, 2,             # Ulf's first blade 5 + 2; Hild blocks 2 + 3
        4, 3, 7, 8,       # his second 4 + 2; Hild's second block at C -2: lowest of 3, 7, 8
        3, 6,             # Hild's sword 3 + 3; Ulf parries 6
        3, 5,             # Sig's arrow into the cluster at Ulf, C 0: 3 + 1; Ulf dodges 5
        2, 9, 4, 2,       # passed on to Hild at C 1: d6 2, d10 9 -> 10; she blocks 4 + 3; location d6 2
        1,                # round 2: Ulf's first blade, raw 1 below his fatigue
        5, 1, 5, 5, 5,    # his second 5 + 2; Hild's block at C -2: lowest 1; location d6 5
        2, 3, 9, 4, 1,    # Sig shoots Ulf point-blank at C 4: highest 9, + 1
        4]                # Ulf dodges 4


def test_a_whole_heimr_fight_follows_every_rule_a_gm_meets():
    ulf = Fighter("Ulf", 0, 3, 4, attack=(0, 0), dodge=(0, 0), parry=(0, 0), weapon="Light weapon",
                  off_hand="Light weapon", stamina=2)
    hild = Fighter("Hild", 0, 2, 2, attack=(0, 0), dodge=(0, 0), shield="Medium shield", block=(0, 0))
    sig = Fighter("Sig", 0, 1, 4, attack=(4, 0), dodge=(0, 0), weapon="Bow")
    fight = Skirmish([ulf, hild, sig], ScriptedSource(DICE))

    # initiative: a challenge at C = Dexterity (0: the d6 alone), P = willpower; highest first
    assert fight.start() == ["Ulf", "Hild", "Sig"]
    assert fight.log[0] == "initiative: Ulf 7, Hild 6, Sig 5"
    assert ulf.fatigue == base_fatigue(2) == 2

    # two weapons: two attack rolls, each with the light weapon's potential; Hild blocks with her shield
    light, medium = find_weapon("Light weapon"), find_weapon("Medium weapon")
    shield_bonus = next(s.bonus for s in SHIELDS if s.name == "Medium shield")
    first = fight.attack("Hild")
    blows = (first, *first.more)
    assert len(blows) == weapon_attack_rolls(2) == 2
    assert [b.attack_roll for b in blows] == [(0, light.bonus)] * 2
    assert [b.defence_roll for b in blows] == [(0, shield_bonus), (-REPEAT_PENALTY, shield_bonus)]
    assert (first.attack, first.defence, first.hit, hild.hp) == (7, 5, light.damage, 1)
    assert (blows[1].attack, blows[1].defence, blows[1].landed) == (6, 6, False)  # a tie holds

    # Hild swings; Ulf parries with a blade (a parry per melee weapon, no repeat penalty)
    fight.end_turn()
    parried = fight.attack("Ulf", defence="parry")
    assert parried.attack_roll == (0, medium.bonus) and parried.defence_kind == "parry" and not parried.landed

    # Sig shoots 4 squares into the Ulf-Hild cluster: range penalty, then the cluster's size; Ulf
    # dodges, so the arrow goes on to Hild at one less, and hits
    fight.end_turn()
    shot = fight.attack("Ulf", action="shoot", distance=4, cluster=["Ulf", "Hild"])
    assert [b.attack_roll[0] for b in (shot, *shot.more)] == [4 - range_penalty(4) - 2, 4 - range_penalty(4) - 1]
    assert [b.defender for b in (shot, *shot.more)] == ["Ulf", "Hild"] and not shot.landed
    hit = shot.more[0]
    assert hit.hit == find_weapon("Bow").damage and hild.hp == -2
    # injured, not out: Mangled, and the arm hit makes her drop her weapon
    assert injury_level(-2).name == "Mangled" and hild.standing
    assert hit.location == hit_location(2) == "arm" and hit.effects == injury_effects(["arm"]) == ("Drop",)

    # round 2: Ulf's fatigue gate fails his first blade (raw 1 < 2; no defence needed) and grows to 3
    fight.end_turn()
    second = fight.attack("Hild")
    assert "fails fatigue 2" in second.line and second.defence_kind == "none" and ulf.fatigue == 3
    assert second.more[0].landed and hild.hp == -3 and hild.injuries == ["arm", "torso"]
    assert hild.effects == {"Drop", "Daze"}

    # Hild's turn goes to getting over the drop and the daze
    fight.end_turn()
    with pytest.raises(HeimrError, match="dazed"):
        fight.attack("Ulf")
    fight.end_turn()
    assert hild.effects == set() and fight.log[-1] == "Hild recovers from Daze, Drop"

    # Sig shoots Ulf point-blank: no range penalty
    point_blank = fight.attack("Ulf", action="shoot", distance=0)
    assert point_blank.attack_roll == (4, 1) and point_blank.attack == 10 and ulf.hp == 1

    # after the fight: Hild is dying (Mangled) until someone stabilises her; moving reopens the wound
    wound = Wound(injury_level(hild.hp))
    assert wound.wait(5).state == "unconscious" and wound.stabilise().wait(20).state == "conscious"
    assert wound.reopen().wait(10).state == "dead"
    # a breather brings Ulf's fatigue back to base; a quiet short rest restores his hit points
    fight.end_turn()
    assert fight.breather() == base_fatigue(2)
    assert short_rest(ulf.hp, 4, 5) == 4 and short_rest(hild.hp, 2, 5) == hild.hp  # she needs 1 HP first

    # experience: shared evenly, the rest carried; a training point moves Dexterity's progress
    share = split_xp(11, 2)
    assert (share.each, share.carried) == (5, 1) and xp_to_train(0, 1) == 5
    dexterity = AttributeTrack(0)
    rose = dexterity.add_training_point()
    assert rose == (progress_required(1) <= 1) and dexterity.value == (1 if rose else 0)
