"""NUGGET encounter odds: the book's stat blocks fight through the fight tracker.

Each fighter is the stat block's character: the doctor as the creation rules make her (she fights with
Brawling and defends with it), the thug as a minion with a creature's Brawn, Fighting 2 and a big club.
:class:`~rules.nugget.tracker.Fight` plays every round (initiative, phases, defence once a phase,
Resistance), so a matchup is a seeded simulation through it.  There is no exact model yet: a player
character is out only when Unconscious or Dead, so the Hurts she can pile up first have no bound, and
an exact chain would first have to lump the ones that no longer change anything.  A fight ends when
one side is out; a draw is a fight still going after :data:`rules.matchup.MAX_ROUNDS` rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.dice import DiceSource
from rules.matchup import DRAW, MAX_ROUNDS, Matchup, Played, fighters_named, on_side
from rules.nugget.characters import Character, Skill, check_attribute
from rules.nugget.combat import weapon_base
from rules.nugget.registry import REGISTRY
from rules.nugget.statblocks import THUG, THUG_FIGHTING, doctor
from rules.nugget.tracker import Fight, Fighter

#: What a fighter has "left": the Hurt and Injury boxes it has not yet taken.
LEFT_LABEL = "Hurts and Injuries taken"


def doctor_fighter(name: str, side: str) -> Fighter:
    """The doctor with her fists: Brawling to hit and to defend, unarmed, hand to hand."""
    ada = doctor()
    ada = Character(name, ada.attributes, ada.occupation, ada.core_skill, ada.skills, ada.goals, ada.destiny)
    brawling = ada.skill_dice("Brawling")
    return Fighter(ada, side, brawling, brawling, weapon_base("unarmed"))


def thug_fighter(name: str, side: str) -> Fighter:
    """The dockside thug: a minion (out at the first Hurt) swinging a big club with Fighting 2."""
    levels = {attribute: check_attribute(attribute, level, creature=True) for attribute, level in THUG.items()}
    thug = Character(name, levels, "Thug", Skill("Fighting", THUG_FIGHTING, fighting=True, close_combat=True))
    return Fighter(thug, side, THUG_FIGHTING, THUG_FIGHTING, weapon_base("big club"), tier="minion")


#: Stat block name -> (the block's own name, the builder).
FIGHTERS: dict[str, tuple[str, Callable[[str, str], Fighter]]] = {
    "doctor": ("Dr Ada Kell", doctor_fighter), "thug": ("Dockside thug", thug_fighter)}


def fighters(names: Sequence[str], side: str, taken: set[str]) -> list[Fighter]:
    """The fighters of side ``side``, from stat block names."""
    makers = {name: (base, on_side(maker, side)) for name, (base, maker) in FIGHTERS.items()}
    return fighters_named("nugget", names, makers, taken)


def play(side_a: Sequence[Fighter], side_b: Sequence[Fighter], source: DiceSource) -> Played:
    """One fight through :class:`Fight` with fresh fighters; returns the winning side and the wounds taken."""
    fresh = [Fighter(f.character, f.side, f.attack_skill, f.defence_skill, f.weapon, f.armour, f.hand_to_hand, f.tier)
             for f in (*side_a, *side_b)]
    fight = Fight(fresh, source)
    while not fight.over and fight.round < MAX_ROUNDS:
        fight.play_round()
    taken = tuple(f.condition.physical.hurts + f.condition.physical.injuries for f in fresh)
    standing = {f.side for f in fresh if f.standing}
    if not fight.over or not standing:
        return Played(DRAW, fight.round, taken)
    return Played(0 if standing == {"a"} else 1, fight.round, taken)


@REGISTRY.matchups.publish
def matchup(side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
    """The fight between two lists of stat block names, played through the tracker."""
    taken: set[str] = set()
    a, b = fighters(side_a, "a", taken), fighters(side_b, "b", taken)
    return Matchup((" and ".join(f.name for f in a), " and ".join(f.name for f in b)),
                   tuple(f.name for f in (*a, *b)), LEFT_LABEL, lambda source: play(a, b, source))
