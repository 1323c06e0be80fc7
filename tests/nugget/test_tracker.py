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
