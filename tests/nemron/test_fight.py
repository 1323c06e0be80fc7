"""A whole Nemron fight a GM might run, step by step, each step checked against the rule it follows.

Initiative, movement and range bands, melee and shots, an aimed attack (lesser penalty), flanking
(lesser penalty on defence), a bought reaction, Kinetic, Neural, Psychic and area damage, a downed
(dying) raider, first aid, rest, Energy recovery and advancement after the fight.
"""

from rules.dice import ScriptedSource
from rules.nemron.actions import InitiativeRoll, initiative_pool, turn_order
from rules.nemron.characters import movement_speed
from rules.nemron.checks import apply_modifier, parse_pool
from rules.nemron.combat import aimed_modifier, attack_damage, attack_hits, flanked_defence, range_band
from rules.nemron.damage import Stress, Track
from rules.nemron.energy import Energy
from rules.nemron.health import Body, Limb, location
from rules.nemron.progression import Progress, award_milestone, rank_up_cost
from rules.nemron.tracker import Combatant, CombatTracker

DICE = [4, 2, 1,      # Grim's initiative (d6 d6 d4): 4
        3, 1, 1,      # Vesk's: 3
        2, 1, 1,      # Brandon's (d8 d6 d6): 2
        5, 2, 1, 3, 5,  # Grim's sword 5; Brandon dodges 3; location die 5
        4, 1, 1, 6, 2,  # Vesk's Neural jab 4; Brandon's bought dodge 6, flanked d8 2
        2, 7, 1, 8, 1,  # Brandon aims at Grim's head: 7, penalty d8 8; Grim dodges 1
        6, 1, 1, 2,     # round 2, Grim downed: Vesk's Psychic blast 6; Brandon dodges 2
        3, 6, 1, 2, 1, 1, 3, 5,  # Brandon's Heat grenade 6; Vesk dodges 2; four location dice
        2]              # after the fight: Vesk's 8-hour rest, Constitution 1 (d6): 2


def raider(name):
    return Combatant(name, 1, 1, 0, parse_pool("Power 1 › Blades 1 › Sword 1"), 1, Body(6),
                     defence=parse_pool("Agility 1"), energy=Energy(4), stress=Stress())


def test_a_whole_nemron_fight_follows_every_rule_a_gm_meets():
    dice = ScriptedSource(DICE)
    grim, vesk = raider("Grim"), raider("Vesk")
    brandon = Combatant("Brandon", 2, 1, 1, parse_pool("Awareness 1 › Marksmanship 2 › Pistol 2"), 2, Body(8),
                        defence=parse_pool("Agility 2"), pc=True, energy=Energy(6), stress=Stress())
    fight = CombatTracker([grim, vesk, brandon], dice)

    # initiative: each keeps the highest die of Agility › Awareness › Sense; the order is turn_order's
    rolls = fight.start()
    assert [(r.name, r.result) for r in rolls] == [("Grim", 4), ("Vesk", 3), ("Brandon", 2)]
    assert rolls == turn_order([InitiativeRoll("Brandon", 2, True), InitiativeRoll("Vesk", 3, False),
                                InitiativeRoll("Grim", 4, False)])
    assert str(initiative_pool(2, 1, 1)) == "Agility 2 › Awareness 1 › Sense 1"

    # movement and ranges: the raiders start 4 m off (near) and close 2 m each, Agility x 2, into melee
    assert range_band(4).name == "Near" and range_band(4 - movement_speed(1)).name == "Melee"
    assert fight.move(movement_speed(1)) == 0

    # Grim's melee swing: a hit (>= DC 3), damage = attack - defence, on the location die's limb
    swing = fight.attack("Brandon", melee=True)
    assert swing.roll == 5 and attack_hits(5, 1) and not swing.flanked
    assert swing.damage == attack_damage(5, 3) == 2 and swing.limb == location(5) == Limb.TORSO
    assert brandon.body.hp[Limb.TORSO] == 6 and swing.track is Track.HP

    # Vesk closes too: Brandon, out of reactions, buys one with 2 Energy; two in melee flank him
    fight.end_turn()
    fight.move(2)
    assert brandon.turn.reactions == 0 and fight.buy_reaction("Brandon") == 4
    jab = fight.attack("Brandon", melee=True, damage_type="Neural")
    assert fight.melee_opponents("Brandon") == 2 and jab.flanked
    assert jab.defence == apply_modifier([6], flanked_defence(2), 2) == 2
    assert jab.damage == attack_damage(4, 2) == 2 and brandon.energy.current == 4 - 2  # Neural drains Energy
    assert brandon.body.hp[Limb.TORSO] == 6  # and takes no HP

    # Brandon's aimed shot: a lesser penalty (d8, keep the lower); the named limb takes the damage
    fight.end_turn()
    shot = fight.attack("Grim", aim="head")
    assert shot.roll == apply_modifier([2, 7, 1], aimed_modifier("head"), 8) == 7
    assert shot.damage == 6 and grim.body.hp[Limb.HEAD] == 0
    assert shot.downed and grim.body.is_downed()  # a major limb at 0: downed and dying

    # round 2: the downed raider is skipped; Vesk's Psychic blast becomes Stress
    assert fight.end_turn() is vesk and fight.round == 2
    blast = fight.attack("Brandon", damage_type="Psychic")
    assert blast.damage == attack_damage(6, 2) == 4 and brandon.stress.rank == 4 and not blast.flanked

    # Brandon's grenade: area damage, one location die per point
    fight.end_turn()
    grenade = fight.attack("Vesk", damage_type="Heat", area=True)
    assert grenade.damage == attack_damage(6, 2) == 4
    assert dict(grenade.spread) == {location(1): 2, location(3): 1, location(5): 1}
    assert vesk.body.hp == {Limb.RIGHT_ARM: 4, Limb.LEFT_ARM: 6, Limb.RIGHT_LEG: 5, Limb.LEFT_LEG: 6,
                            Limb.TORSO: 5, Limb.HEAD: 6}

    # Vesk breaks off and runs: nobody is in melee with Brandon any more
    fight.disengage("Vesk")
    assert fight.melee_opponents("Brandon") == 0 and fight.standing() == ["Vesk", "Brandon"]

    # after the fight: first aid on Grim's head brings him back from dying (targeted healing)
    assert grim.body.heal_limb(Limb.HEAD, 3) == 3 and not grim.body.is_downed()
    # eight hours' rest: a Constitution roll heals every damaged limb by that much, up to the maximum
    assert vesk.body.rest(1, dice) == 2
    assert vesk.body.hp[Limb.RIGHT_ARM] == 6 and vesk.body.damaged() == []
    # Energy comes back at 1 an hour, up to the maximum
    assert brandon.energy.rest(3) == 5 and brandon.energy.rest(5) == 6

    # advancement: a minor milestone's XP, spent on one rank (its cost is the current rank)
    progress = Progress(0, {"Marksmanship": ("S", 2)})
    assert award_milestone(progress, "minor", 2) == 2
    assert progress.rank_up("Marksmanship") == 3 and progress.xp == 2 - rank_up_cost(2) == 0
