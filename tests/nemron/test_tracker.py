"""The combat tracker: initiative, turns, attacks with defence, limb damage, downed."""

import pytest

from rules.dice import ScriptedSource, SeededSource
from rules.nemron.checks import parse_pool
from rules.nemron.health import Body, Limb
from rules.nemron.tracker import Combatant, CombatTracker, TrackerError


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
    with pytest.raises(TrackerError, match="start"):
        fight.attack("Raider")
    fight.start()
    with pytest.raises(TrackerError, match="itself"):
        fight.attack(fight.current.name)
    with pytest.raises(TrackerError, match="'Ghost'"):
        fight.attack("Ghost")
    with pytest.raises(TrackerError, match="unique"):
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
