"""The fight tracker: a seeded fight counts Fighting occupations in initiative and heals an Injury a day."""

import pytest

from rules.dice import SeededSource
from rules.nugget.characters import Character, Skill, create_character
from rules.nugget.tracker import Fight, Fighter, NuggetError


def soldier():
    return create_character("Kell", {"Agility": 1, "Brains": 1}, "Soldier", Skill("Tactics", 2, occupational=True),
                            [Skill("Driving", 4)], ["Get the squad home"], fighting_occupation=True)


def thug(name):
    return Character(name, {"Brawn": 1}, "Thug", Skill("Clubs", 1, fighting=True, close_combat=True))


def fight(seed):
    return Fight([Fighter(soldier(), "squad", 1, 1, 2, armour=1),
                  Fighter(thug("Rook"), "gang", 1, 1, 1, tier="minion"),
                  Fighter(thug("Mace"), "gang", 1, 1, 2, tier="henchman")], SeededSource(seed))


def test_seeded_fight_counts_the_fighting_occupation_and_heals_an_injury_a_day():
    f = fight(22)
    while not f.over:
        f.play_round()
    kell = f.initiative[0]
    assert kell.name == "Kell" and kell.bonus == 3  # Agility 1 + Brains 1 + the soldier's Fighting 1
    for entry in f.initiative:
        if entry.name == "Rook":  # a minion does not roll: 3 + bonus - wounds
            assert entry.die is None and entry.total == 3 + entry.bonus - entry.penalty
        else:
            assert entry.die is not None and 1 <= entry.die <= 6
            assert entry.total == entry.die + entry.bonus - entry.penalty
    wounded = f.fighters[0].condition.physical.injuries
    assert wounded >= 2  # the seed leaves Kell with several Injuries
    for day in range(1, wounded + 1):
        assert f.rest(1) == [f"Kell rests 1 day(s): Injuries {wounded - day + 1} -> {wounded - day}"]
    assert f.rest(1) == []


def test_fight_tracker_refuses_bad_fights():
    with pytest.raises(NuggetError, match="two sides"):
        Fight([Fighter(soldier(), "squad", 1, 1, 2), Fighter(thug("Rook"), "squad", 1, 1, 1)], SeededSource(1))
    with pytest.raises(NuggetError, match="unique"):
        Fight([Fighter(thug("Rook"), "a", 1, 1, 1), Fighter(thug("Rook"), "b", 1, 1, 1)], SeededSource(1))
    with pytest.raises(NuggetError, match="0"):
        fight(1).rest(0)
    with pytest.raises(NuggetError, match="'boss'"):
        Fighter(thug("Rook"), "gang", 1, 1, 1, tier="boss")
    f = fight(22)
    while not f.over:
        f.play_round()
    with pytest.raises(NuggetError, match="over"):
        f.play_round()


def rook():
    from rules.nugget.npcs import create_npc
    return create_npc("Rook", "Thug", {"Brawn": 1}, [Skill("Clubs", 1, fighting=True, close_combat=True)])


def ogre():
    from rules.nugget.npcs import create_npc
    return create_npc("Ogre", "Brute", {"Brawn": 4, "Agility": -2},
                      [Skill("Smash", 2, fighting=True, close_combat=True)], creature=True)


def kell_against(other, *, tier, first=False, **options):
    from rules.dice import ScriptedSource
    kell = Fighter(soldier(), "squad", 1, 1, 2)
    foe = Fighter(other, "foes", 1 if other.name == "Rook" else 2, 1, 2, tier=tier)
    return lambda dice: Fight([foe, kell] if first else [kell, foe], ScriptedSource(dice), **options)


def test_lid_off_fight_rerolls_every_six_for_another_success():
    # Kell: initiative 5 + 3; attacks with 4 dice 6,1,1,1, the 6 re-rolled 6 then 2: 2 successes.
    # Rook (a minion: no initiative die) defends with 3 dice, 0 successes; resists 4 damage with 3 dice, 0.
    play = kell_against(rook(), tier="minion", lid="off")
    fight = play([5, 6, 1, 1, 1, 6, 2, 1, 2, 3, 1, 2, 3])
    assert fight.play_round()[-1] == "phase 8: Kell attacks Rook: 2 vs 0, damage 4, resisted to 4: Injured"
    lid_on = kell_against(rook(), tier="minion")([5, 6, 1, 1, 1, 1, 2, 3, 1, 2, 3])
    assert lid_on.play_round()[-1] == "phase 8: Kell attacks Rook: 1 vs 0, damage 3, resisted to 3: Injured"
    with pytest.raises(Exception, match="'sideways'"):
        kell_against(rook(), tier="minion", lid="sideways")([])


def test_destiny_rerolls_a_missed_attack_and_keeps_the_better_roll():
    # Kell misses (0 vs 1), spends her point, re-rolls 5,5,1,1: 2 successes, and hits
    play = kell_against(rook(), tier="minion", destiny=True)
    fight = play([5, 1, 1, 2, 3, 4, 1, 1, 5, 5, 1, 1, 1, 2, 3])
    line = fight.play_round()[-1]
    assert line == ("phase 8: Kell attacks Rook: 0 vs 1; Destiny re-roll 2, keeps 2 (0 left), "
                    "damage 3, resisted to 3: Injured")
    assert fight.fighters[0].points == 0
    no_destiny = kell_against(rook(), tier="minion")([5, 1, 1, 2, 3, 4, 1, 1, 1, 1, 2, 1, 1, 1, 2])
    assert "phase 8: Kell attacks Rook: 0 vs 1, a miss" in no_destiny.play_round()


def test_destiny_turns_dead_into_unconscious_with_the_gms_consent():
    # the Ogre (initiative 6) smashes with 2 dice, 6,6: 3 successes lid-on; Kell defends 0; 3 + 2 + Brawn 4
    # = 9 damage, resisted with 1,2: Injured and Dead, unless a Destiny Point spares her
    dice = [6, 1, 6, 6, 1, 1, 2, 3, 1, 2]
    spared = kell_against(ogre(), tier="villain", first=True, spare_the_dying=True)(dice)
    assert spared.play_round()[-1].endswith("Injured and Unconscious; Kell spends Destiny: Unconscious, not Dead")
    kell = spared.fighters[1]
    assert kell.condition.physical.unconscious and not kell.condition.physical.dead and kell.points == 0
    assert spared.over
    killed = kell_against(ogre(), tier="villain", first=True)(dice)
    assert killed.play_round()[-1].endswith("Injured and Dead")
    assert killed.fighters[1].condition.physical.dead
