"""A whole NUGGET fight a GM might run, each step checked against the rule it follows.

A lid-off fight with Destiny: player characters against a creature villain, a henchman and a minion
built as NPCs; initiative every round (minions on a fixed number, wounds slowing everyone), phases,
attacks against one defence a phase, damage through armour and Resistance to its effect, NPCs taken
out by tier, Destiny re-rolls and a cheated death; then a mind attack, first aid, rest, recovery and a
skill bought with Destiny.
"""

import re

import pytest

from rules.dice import SeededSource
from rules.nugget.characters import Skill, create_character
from rules.nugget.combat import hit_damage, hits
from rules.nugget.destiny import skill_level_cost
from rules.nugget.harm import Condition, damage_effect, first_aid, resisted_damage
from rules.nugget.initiative import action_phases
from rules.nugget.npcs import create_npc, is_out
from rules.nugget.threats import mind_attack_damage, threat_rating
from rules.nugget.tracker import Fight, Fighter

LINE = re.compile(r"phase (?P<phase>\d+): (?P<me>\w+) attacks (?P<foe>\w+): (?P<attack>\d+) vs (?P<defence>\d+)"
                  r"(?:; Destiny re-roll \d+, keeps (?P<kept>\d+) \(\d+ left\))?"
                  r"(?:, a miss|, damage (?P<damage>-?\d+), resisted to (?P<final>\d+): (?P<effect>[\w ]+?)"
                  r"(?P<spared>; \w+ spends Destiny: Unconscious, not Dead)?)$")


def cast():
    kell = create_character("Kell", {"Agility": 1, "Brains": 1}, "Soldier", Skill("Tactics", 2, occupational=True),
                            [Skill("Driving", 4)], ["Get the squad home"], fighting_occupation=True)
    tam = create_character("Tam", {"Brawn": 2}, "Smith", Skill("Hammer", 2, fighting=True, close_combat=True),
                           [Skill("Haggling", 2), Skill("Brawling", 2, fighting=True, close_combat=True)], ["Buy a forge"])
    ogre = create_npc("Ogre", "Brute", {"Brawn": 4, "Agility": -2, "Brains": -2},
                      [Skill("Smash", 2, fighting=True, close_combat=True)], creature=True, destiny=2)
    mace = create_npc("Mace", "Enforcer", {"Brawn": 1, "Agility": 1}, [Skill("Club", 2, fighting=True, close_combat=True)])
    rook = create_npc("Rook", "Thug")
    return [Fighter(kell, "squad", 2, 1, 2, armour=1), Fighter(tam, "squad", 2, 2, 2, armour=1),
            Fighter(ogre, "cave", 2, 1, 3, tier="villain"), Fighter(mace, "cave", 2, 2, 2, tier="henchman"),
            Fighter(rook, "cave", 1, 1, 1, tier="minion")]


def play(seed):
    fight = Fight(cast(), SeededSource(seed), lid="off", destiny=True, spare_the_dying=True)
    for _ in range(30):
        if fight.over:
            break
        fight.play_round()
    return fight


@pytest.mark.parametrize("seed", [29])
def test_a_whole_nugget_fight_follows_every_rule_a_gm_meets(seed):
    fight = play(seed)
    assert fight.over
    by_name = {f.name: f for f in fight.fighters}
    # initiative: minions sit on 3 + bonus, the rest roll a d6; wounds slow everyone; phases follow
    for entry in fight.initiative:
        base = 3 if by_name[entry.name].tier == "minion" else entry.die
        assert entry.total == base + entry.bonus - entry.penalty
        assert entry.phases == action_phases(entry.total)
    effects, rerolls, spared, misses = set(), 0, 0, 0
    for line in fight.log:
        if not line.startswith("phase"):
            continue
        m = LINE.match(line)
        assert m, line
        me, foe = by_name[m["me"]], by_name[m["foe"]]
        attack = int(m["kept"] or m["attack"])
        rerolls += m["kept"] is not None
        if m["damage"] is None:
            misses += 1
            assert not hits(attack, int(m["defence"]))
            continue
        damage = hit_damage(attack, int(m["defence"]), me.weapon, brawn=me.character.attribute("Brawn"),
                            hand_to_hand=True, armour=foe.armour)
        assert int(m["damage"]) == damage and int(m["final"]) <= max(damage + 1, 0)  # a fumble adds 1
        effect = damage_effect(int(m["final"]))
        spared += m["spared"] is not None
        assert m["effect"] == (effect.label.replace("Dead", "Unconscious") if m["spared"] else effect.label)
        effects.add(m["effect"])
    # the seed meets the results of the table, a Destiny re-roll, a death cheated, and misses
    assert {"No effect", "Hurt", "Injured"} <= effects and rerolls and spared and misses
    # NPCs drop by tier: the minion at a Hurt, the henchman at an Injury or three Hurts
    for npc in ("Rook", "Mace"):
        f = by_name[npc]
        assert f.standing == (not is_out(f.tier, f.condition.physical))
    assert sum(1 for f in fight.fighters if not f.standing) >= 2

    # after the fight: first aid heals Hurts (one per success), rest clears the rest, days mend Injuries
    wounded = Condition().take(damage_effect(1)).take(damage_effect(2)).take(damage_effect(3))
    aided = first_aid(wounded, 1)
    assert (aided.physical.hurts, aided.physical.injuries) == (1, 1)
    rested = aided.rest()
    assert rested.physical.hurts == 0 and rested.recover("physical", 1).physical.injuries == 0
    # mental harm: a mind attack's damage, resisted, goes on the mental track and heals apart
    mental = mind_attack_damage(3, 1, 2)
    shaken = Condition().take(damage_effect(resisted_damage(mental, 1)), "mental")
    assert shaken.mental.injuries + shaken.mental.hurts == 1 and shaken.physical.hurts == 0
    assert threat_rating("painful") == 3
    # advancement: Destiny buys the next skill level at five points a level
    assert skill_level_cost(3, 2) == 15
