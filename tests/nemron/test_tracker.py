"""The combat tracker: initiative, turns, attacks with defence, limb damage, downed."""

import pytest

from rules.dice import ScriptedSource, SeededSource
from rules.nemron.checks import parse_pool
from rules.nemron.health import Body, Limb
from rules.nemron.tracker import Combatant, CombatTracker, NemronError


def fighters():
    return [
        Combatant("Raider", 1, 1, 0, parse_pool("Power 1 › Blades 1 › Sword 1"), 1, Body(6),
                  defence=parse_pool("Agility 1")),
        Combatant("Brandon", 2, 1, 1, parse_pool("Awareness 1 › Marksmanship 2 › Pistol 2"), 2, Body(8),
                  defence=parse_pool("Agility 2"), pc=True),
    ]


def test_combat_tracker_runs_initiative_attacks_and_downs():
    # initiative: Raider d6 d6 d4 -> 3,5,1 (5); Brandon d8 d6 d4 -> 5,2,4 (5): tie, the PC goes first
    fight = CombatTracker(fighters(), ScriptedSource([3, 5, 1, 5, 2, 4,
                                                      # Brandon shoots: 6,2,4 -> 6; Raider defends d6: 3; d6 location 5
                                                      6, 2, 4, 3, 5,
                                                      # Raider swings: 2,1,2 -> 2: misses the DC-3 minimum
                                                      2, 1, 2,
                                                      # Brandon aims at the head: 3,7,1 -> 7, lesser-penalty d8: 8; Raider defends: 1
                                                      3, 7, 1, 8, 1]))
    assert [r.name for r in fight.start()] == ["Brandon", "Raider"]
    first = fight.attack("Raider")
    assert (first.roll, first.defence, first.damage, first.limb) == (6, 3, 3, Limb.TORSO)
    assert fight.end_turn().name == "Raider"
    assert not fight.attack("Brandon").hit
    fight.end_turn()
    assert fight.round == 2
    aimed = fight.attack("Raider", aim="head")
    assert (aimed.roll, aimed.defence, aimed.damage, aimed.limb, aimed.downed) == (7, 1, 6, Limb.HEAD, True)
    assert fight.standing() == ["Brandon"]
    assert fight.end_turn().name == "Brandon"  # the downed raider is skipped


def test_combat_tracker_refuses_illegal_moves():
    fight = CombatTracker(fighters(), SeededSource(7))
    with pytest.raises(NemronError, match="start"):
        fight.attack("Raider")
    fight.start()
    with pytest.raises(NemronError, match="itself"):
        fight.attack(fight.current.name)
    with pytest.raises(NemronError, match="'Ghost'"):
        fight.attack("Ghost")
    with pytest.raises(NemronError, match="unique"):
        CombatTracker(fighters() + fighters()[:1], SeededSource(1))


def seeded_fight(seed, attacks=12):
    fight = CombatTracker(fighters(), SeededSource(seed))
    fight.start()
    reports = []
    for _ in range(attacks):
        target = next(n for n in fight.order if n != fight.current.name)
        if fight.combatants[target].body.is_downed():
            break
        attacker, defender = fight.current, fight.combatants[target]
        if not fight.can_attack(attacker.name):  # both arms disabled: the turn passes
            assert all(attacker.body.is_disabled(arm) for arm in (Limb.RIGHT_ARM, Limb.LEFT_ARM))
            fight.end_turn()
            continue
        report = fight.attack(target)
        reports.append((attacker, report, defender.body.is_downed()))
        fight.end_turn()
    return fight, reports


def test_combat_tracker_with_a_seed_is_reproducible():
    assert seeded_fight(2024)[0].log == seeded_fight(2024)[0].log


@pytest.mark.parametrize("seed", range(20))
def test_seeded_fights_obey_the_combat_rules(seed):
    fight, reports = seeded_fight(seed)
    for attacker, report, downed_now in reports:
        assert report.roll == max(report.faces)  # unaimed: keep the highest die
        assert report.hit == (report.roll >= max(attacker.weapon_rank + 1, 3))
        if not report.hit:
            assert (report.damage, report.limb, report.defence) == (0, None, None)
            continue
        assert report.damage == max(0, report.roll - (report.defence or 0))
        assert (report.limb is not None) == (report.damage > 0)
        assert report.downed == downed_now
    for c in fight.combatants.values():
        assert all(0 <= hp <= c.body.max_hp for hp in c.body.hp.values())


def skirmish(seed):
    """Brandon (with Energy) against two raiders, played to the end by a fixed table policy: move 1 m
    if the legs allow, attack the first standing enemy if the arms allow, buy a reaction when out."""
    from rules.nemron.energy import Energy
    raiders = [Combatant(n, 1, 1, 0, parse_pool("Power 1 › Blades 1 › Sword 1"), 1, Body(6),
                         defence=parse_pool("Agility 1"), energy=Energy(4)) for n in ("Grim", "Vesk")]
    brandon = Combatant("Brandon", 2, 1, 1, parse_pool("Awareness 1 › Marksmanship 2 › Pistol 2"), 2, Body(8),
                        defence=parse_pool("Agility 2"), pc=True, energy=Energy(8))
    fight = CombatTracker([*raiders, brandon], SeededSource(seed))
    fight.start()
    events = []
    for _ in range(90):
        me = fight.current
        foes = [n for n in fight.standing() if (n == "Brandon") != (me.name == "Brandon")]
        if not foes:
            break
        legs_ok = me.body.can_move()
        try:
            fight.move(1)
            events.append(("moved", me.name, legs_ok))
        except NemronError:
            events.append(("no move", me.name, legs_ok))
        target = fight.combatants[foes[0]]
        if target.turn.reactions == 0 and target.energy and fight.round not in target.energy.bonus_reaction_rounds \
                and target.energy.current >= 2:
            fight.buy_reaction(target.name)
            events.append(("bought", target.name, target.turn.reactions))
        arms_ok = me.body.can_attack()
        try:
            report = fight.attack(foes[0])
            events.append(("attacked", me.name, arms_ok, report))
        except NemronError as error:
            events.append(("no attack", me.name, arms_ok, str(error)))
        fight.end_turn()
    return fight, events


def test_seeded_skirmish_follows_disabled_limbs_and_bought_reactions():
    fight, events = skirmish(2)
    kinds = {e[0] for e in events}
    # the seed exercises every rule: a fighter without arms, one without legs, a bought reaction
    assert {"no attack", "no move", "bought", "attacked", "moved"} <= kinds
    for event in events:
        if event[0] in ("moved", "no move"):
            assert event[2] == (event[0] == "moved")  # movement exactly when both legs work
        elif event[0] in ("attacked", "no attack"):
            assert event[2] == (event[0] == "attacked")  # an attack exactly when an arm works
            if event[0] == "no attack":
                assert "0 HP" in event[3]
        elif event[0] == "bought":
            assert event[2] == 1  # the bought reaction is on the turn
    bought = [line for line in fight.log if "bonus reaction" in line]
    assert len(bought) == sum(e[0] == "bought" for e in events)


def trio(**brandon):
    """Grim and Vesk (rank-1 swords) against Brandon; initiative Grim 5, Vesk 4, Brandon 2."""
    raiders = [Combatant(n, 1, 1, 0, parse_pool("Power 1 › Blades 1 › Sword 1"), 1, Body(6),
                         defence=parse_pool("Agility 1")) for n in ("Grim", "Vesk")]
    pc = Combatant("Brandon", 2, 1, 1, parse_pool("Awareness 1 › Marksmanship 2 › Pistol 2"), 2, Body(8),
                   defence=parse_pool("Agility 2"), pc=True, **brandon)
    return [*raiders, pc], [5, 1, 1, 4, 1, 1, 2, 1, 1]


def test_flanked_defender_defends_melee_attacks_with_a_lesser_penalty():
    fighters, initiative = trio()
    # Vesk swings 6; Brandon's d8 shows 7, the flanked d8 shows 2: keep the lower, 2; torso
    fight = CombatTracker(fighters, ScriptedSource([*initiative, 6, 1, 1, 7, 2, 5]))
    fight.start()
    fight.engage("Grim", "Brandon")
    assert fight.end_turn().name == "Vesk"
    report = fight.attack("Brandon", melee=True)
    assert fight.melee_opponents("Brandon") == 2
    assert (report.flanked, report.defence, report.damage, report.limb) == (True, 2, 4, Limb.TORSO)
    assert "(flanked)" in str(report)


def test_one_melee_opponent_or_a_ranged_attack_does_not_flank():
    fighters, initiative = trio()
    # Vesk swings 6 in melee, alone with Brandon: defence 7 stands; then, flanked but shot at, no penalty die
    fight = CombatTracker(fighters, ScriptedSource([*initiative, 6, 1, 1, 7]))
    fight.start()
    fight.end_turn()
    report = fight.attack("Brandon", melee=True)
    assert (report.flanked, report.defence, report.damage) == (False, 7, 0)
    fight = CombatTracker(trio()[0], ScriptedSource([*initiative, 6, 1, 1, 7]))
    fight.start()
    fight.engage("Grim", "Brandon")
    fight.engage("Vesk", "Brandon")
    fight.end_turn()
    assert fight.attack("Brandon").flanked is False  # a shot, not a melee attack: no flanked penalty


def test_downed_opponents_do_not_flank():
    fighters, initiative = trio()
    fight = CombatTracker(fighters, ScriptedSource([*initiative, 6, 1, 1, 7]))
    fight.start()
    fight.engage("Grim", "Brandon")
    fight.combatants["Grim"].body.damage(Limb.HEAD, 6)
    fight.end_turn()
    assert fight.attack("Brandon", melee=True).flanked is False
    fight.disengage("Vesk")
    assert fight.melee_opponents("Brandon") == 0


def test_neural_damage_through_the_tracker_drains_energy():
    from rules.nemron.damage import Track
    from rules.nemron.energy import Energy
    fighters, initiative = trio(energy=Energy(6))
    fight = CombatTracker(fighters, ScriptedSource([*initiative, 5, 1, 1]))  # no location die is drawn
    fight.start()
    report = fight.attack("Brandon", damage_type="neural", defend=False)
    brandon = fight.combatants["Brandon"]
    assert (report.damage, report.track, report.limb) == (5, Track.ENERGY, None)
    assert brandon.energy.current == 1 and all(hp == 8 for hp in brandon.body.hp.values())
    assert str(report) == "Grim attacks Brandon: 5 -> 5 Neural damage to Energy"


def test_psychic_damage_through_the_tracker_becomes_stress():
    from rules.nemron.damage import Stress
    fighters, initiative = trio(stress=Stress())
    fight = CombatTracker(fighters, ScriptedSource([*initiative, 5, 1, 1]))
    fight.start()
    fight.attack("Brandon", damage_type="Psychic", defend=False)
    brandon = fight.combatants["Brandon"]
    assert brandon.stress.rank == 5 and all(hp == 8 for hp in brandon.body.hp.values())


def test_typed_damage_needs_the_track_it_goes_to():
    fighters, initiative = trio()
    fight = CombatTracker(fighters, ScriptedSource(initiative))
    fight.start()
    with pytest.raises(NemronError, match="Energy"):
        fight.attack("Brandon", damage_type="Neural")
    with pytest.raises(NemronError, match="Stress"):
        fight.attack("Brandon", damage_type="Psychic")


def test_area_attack_through_the_tracker_rolls_one_location_die_per_point():
    fighters, initiative = trio()
    # Grim's blast: 6, undefended; six location dice: torso, torso, right leg, left arm, head, right arm
    fight = CombatTracker(fighters, ScriptedSource([*initiative, 6, 1, 1, 5, 5, 3, 2, 6, 1]))
    fight.start()
    report = fight.attack("Brandon", area=True, damage_type="Heat", defend=False)
    hp = fight.combatants["Brandon"].body.hp
    assert dict(report.spread) == {Limb.TORSO: 2, Limb.RIGHT_LEG: 1, Limb.LEFT_ARM: 1, Limb.HEAD: 1,
                                   Limb.RIGHT_ARM: 1}
    assert (hp[Limb.TORSO], hp[Limb.HEAD], hp[Limb.LEFT_LEG]) == (6, 7, 8)
    assert sum(8 - v for v in hp.values()) == report.damage == 6
    with pytest.raises(NemronError, match="area"):
        fight.attack("Brandon", area=True, aim="head")


def test_flanked_penalty_is_the_tables_option():
    from rules.nemron.checks import Modifier
    fighters, initiative = trio()
    # a greater penalty instead: the d4 shows 1, the lower counts; or no penalty at all (no die drawn)
    fight = CombatTracker(fighters, ScriptedSource([*initiative, 6, 1, 1, 7, 1, 5]), flanking=Modifier.GREATER_PENALTY)
    fight.start()
    fight.engage("Grim", "Brandon")
    fight.end_turn()
    assert fight.attack("Brandon", melee=True).defence == 1
    fight = CombatTracker(trio()[0], ScriptedSource([*initiative, 6, 1, 1, 7]), flanking=None)
    fight.start()
    fight.engage("Grim", "Brandon")
    fight.end_turn()
    assert fight.attack("Brandon", melee=True).defence == 7
    with pytest.raises(NemronError, match="'lots'"):
        CombatTracker(trio()[0], ScriptedSource([]), flanking="lots")


def test_the_log_keeps_a_line_per_event_in_order_however_often_it_is_read():
    """Attack lines are written when the log is read: a log held from before an attack shows it, and a
    line of one's own added between events stands where it was added."""
    fight = CombatTracker(fighters(), ScriptedSource([3, 5, 1, 5, 2, 4, 6, 2, 4, 3, 5, 2, 1, 2]))
    fight.start()
    early = fight.log
    assert early == ["initiative: Brandon 5, Raider 5"]
    first = fight.attack("Raider")
    assert len(early) == 2 and early[-1] == str(first)  # the log held before the attack is not left behind
    fight.log.append("(the GM notes the rain)")
    fight.end_turn()
    second = fight.attack("Brandon")
    assert fight.log is early and fight.log == ["initiative: Brandon 5, Raider 5", str(first),
                                                "(the GM notes the rain)", str(second)]
    assert str(first) == "Brandon attacks Raider: 6, defence 3 -> 3 damage to the torso"


def test_an_attack_report_made_field_by_field_is_the_dataclass_one():
    """``AttackReport.of`` (the tracker's quick way in) names every field, in order, and makes an equal report."""
    import dataclasses
    import inspect

    from rules.nemron.damage import DamageType, Track
    from rules.nemron.tracker import AttackReport
    names = [f.name for f in dataclasses.fields(AttackReport)]
    assert list(inspect.signature(AttackReport.of).parameters) == names
    values = ("Brandon", "Raider", (6, 2, 4), 6, True, 3, 3, Limb.RIGHT_ARM, False, True, DamageType.KINETIC,
              Track.HP, (), False, (Limb.RIGHT_ARM,))
    made = AttackReport.of(*values)
    assert made == AttackReport(*values) and hash(made) == hash(AttackReport(*values))
    assert str(made) == str(AttackReport(*values))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.damage = 9  # type: ignore[misc]
