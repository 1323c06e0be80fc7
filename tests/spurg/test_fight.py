"""A whole SPURG fight a GM might run, each step checked against the rule it follows.

Speed from the sheet, a load that cuts it, the fixed turn order with its Agility tie-break and 3d6
roll-off, attacks as Verdict Rolls against modified TNs with critical results, Damage Rolls (a
thrust and a swing) through protection and a damage-type step, and the book's optional rules: hit
points and its two readings (Speed rounding, critical precedence).  The source has no healing or rest
rules; advancement is buying Character Points.
"""

from fractions import Fraction

from rules.dice import ScriptedSource
from rules.spurg.characters import CharacterSheet, ability_cost
from rules.spurg.combat import Combatant, turn_order
from rules.spurg.damage import (
    DamageRoll,
    HitPointsRule,
    Protection,
    StrikeKind,
    Striker,
    TypeMultiplier,
    damage_taken,
)
from rules.spurg.encumbrance import encumbered_speed
from rules.spurg.verdict import is_critical_failure, is_critical_success, judge, target_number
from rules.spurg.tracker import Fighter, Skirmish

DICE = [5, 5, 5, 1, 2, 3,   # the roll-off between Ash and Bex (both Speed 8, Agility 12): 15 and 6
        1, 1, 2, 5,         # Cole: 4 against TN 10 - 2: a critical success; a 1d6 thrust of 5
        6, 6, 6,            # Bex: 18 against TN 11: a critical failure
        3, 3, 4, 4]         # Ash: 10 against TN 12: a hit; a 1d6+2 swing of 4 + 2


def test_a_whole_spurg_fight_follows_every_rule_a_gm_meets():
    sheet = CharacterSheet({"AGI": 12, "VIT": 10})
    assert sheet.speed == 11  # floor((AGI + VIT) / 2)
    club = Striker(thrust="1d6", swing="1d6+2")
    armour = (Protection(1), TypeMultiplier({"crushing": Fraction(1, 2)}))
    ash = Fighter("Ash", "left", sheet.speed, 12, 10, 12, club.strike(StrikeKind.for_attack("truncheon blow"),
                                                                     "crushing"), encumbrance=1)
    bex = Fighter("Bex", "right", 8, 12, 6, 11, DamageRoll("1d6"), protection=armour)
    cole = Fighter("Cole", "left", 9, 9, 10, 10, club.strike(StrikeKind.for_attack("dagger stab"), "cutting"),
                   modifiers=(-2,))
    fight = Skirmish([ash, bex, cole], ScriptedSource(DICE), rule=HitPointsRule(enabled=True))

    # the load cuts Ash's Speed to 8 before the order is fixed; Speed, then Agility, then a low roll-off
    assert encumbered_speed(11, 1) == 8
    expected = turn_order([Combatant("Ash", 8, 12), Combatant("Bex", 8, 12), Combatant("Cole", 9, 9)],
                          ScriptedSource([5, 5, 5, 1, 2, 3]))
    assert fight.sequence.order == [c.name for c in expected] == ["Cole", "Bex", "Ash"]

    lines = fight.play_turn()
    # Cole's stab: the range modifier lands on the TN, and a 4 is always a critical success
    assert cole.tn == target_number(10, -2) == 8 and is_critical_success(4, 8)
    assert lines[0] == "turn 1: Cole attacks Bex: 4 vs TN 8 (critical success), a hit for 4 (4 taken in all)"
    assert damage_taken(5, "cutting", armour) == 4  # protection stops 1; the halving is for crushing only
    # Bex's 18 is always a critical failure
    assert is_critical_failure(18, 11) and not judge(18, 11).success
    assert lines[1] == "turn 1: Bex attacks Ash: 18 vs TN 11 (critical failure), a miss"
    # Ash's swing: 6 crushing, less 1, halved: 2; Bex has now taken her Vitality and is out
    assert damage_taken(6, "crushing", armour) == 2
    assert lines[2].startswith("turn 1: Ash attacks Bex: 10 vs TN 12, a hit for 2 (6 taken in all)")
    assert bex.out and HitPointsRule(enabled=True).out_of_fight(6, bex.vitality) and fight.over
    assert fight.sequence.seconds == 1  # a turn is about a second

    # by the source alone (the optional rule off) the same blows decide nothing
    strict = Skirmish([Fighter("Ash", "left", 11, 12, 10, 12, DamageRoll("1d6+2", "crushing"), encumbrance=1),
                       Fighter("Bex", "right", 8, 12, 6, 11, DamageRoll("1d6"), protection=armour),
                       Fighter("Cole", "left", 9, 9, 10, 10, DamageRoll("1d6", "cutting"), modifiers=(-2,))],
                      ScriptedSource(DICE))
    strict.play_turn()
    assert not strict.over and strict.fighters["Bex"].taken == 6

    # advancement: Character Points buy scores at each score's Value a point
    assert ability_cost("AGI", 13) - ability_cost("AGI", 12) == 20
    assert CharacterSheet({"AGI": 12, "VIT": 10}, speed_adjustment=1).cost() - sheet.cost() == 10
