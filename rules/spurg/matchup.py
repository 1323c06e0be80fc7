"""SPURG encounter odds: the book's duellist fights through the combat tracker, hit points on.

The source gives damage no effect, so a fight only ends with this book's optional hit-points rule
(:class:`~rules.spurg.damage.HitPointsRule`): a fighter whose damage reaches its Vitality is out.  The
duellist attacks with her rapier's Verdict Roll (her Fencing TN, no modifier) and thrusts for
:data:`RAPIER` (this book's number: her stat block gives no damage rating).  Every matchup is a seeded
simulation through :class:`~rules.spurg.tracker.Skirmish`; there is no exact model yet (two equal
duellists tie on Speed and Agility and the 3d6 roll-off that breaks the tie is re-rolled on a tie).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.dice import DiceSource
from rules.matchup import DRAW, MAX_ROUNDS, Matchup, Played, fighters_named, on_side
from rules.spurg.damage import DamageRoll, HitPointsRule
from rules.spurg.registry import REGISTRY
from rules.spurg.statblocks import FENCING, duellist
from rules.spurg.tracker import Fighter, Skirmish
from rules.spurg.verdict import target_number

#: The rapier's thrust, as this book rates it.
RAPIER = "1d6"
#: What a fighter has "left": Vitality less the damage taken (the optional rule's hit points).
LEFT_LABEL = "hit points left"
HIT_POINTS = HitPointsRule(enabled=True)


def duellist_fighter(name: str, side: str) -> Fighter:
    sheet = duellist()
    return Fighter(name, side, speed=sheet.speed, agility=sheet.score("AGI"), vitality=sheet.score("VIT"),
                   attack_tn=target_number(FENCING), damage=DamageRoll(RAPIER, "piercing"))


#: Stat block name -> (the block's own name, the builder).
FIGHTERS: dict[str, tuple[str, Callable[[str, str], Fighter]]] = {"duellist": ("Lucia Vane", duellist_fighter)}


def fighters(names: Sequence[str], side: str, taken: set[str]) -> list[Fighter]:
    """The fighters of side ``side``, from stat block names."""
    makers = {name: (base, on_side(maker, side)) for name, (base, maker) in FIGHTERS.items()}
    return fighters_named("spurg", names, makers, taken)


def play(side_a: Sequence[Fighter], side_b: Sequence[Fighter], source: DiceSource) -> Played:
    """One fight through :class:`Skirmish` with the hit-points rule on and fresh fighters."""
    fresh = [Fighter(f.name, f.side, f.speed, f.agility, f.vitality, f.attack_tn, f.damage) for f in (*side_a, *side_b)]
    fight = Skirmish(fresh, source, rule=HIT_POINTS)
    ended = fight.play(MAX_ROUNDS)
    left = tuple(max(0, HIT_POINTS.hit_points(f.vitality) - f.taken) for f in fresh)
    standing = {f.side for f in fresh if not f.out}
    if not ended or not standing:
        return Played(DRAW, fight.sequence.turns, left)
    return Played(0 if standing == {"a"} else 1, fight.sequence.turns, left)


@REGISTRY.matchups.publish
def matchup(side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
    """The fight between two lists of stat block names, played through the tracker."""
    taken: set[str] = set()
    a, b = fighters(side_a, "a", taken), fighters(side_b, "b", taken)
    return Matchup((" and ".join(f.name for f in a), " and ".join(f.name for f in b)),
                   tuple(f.name for f in (*a, *b)), LEFT_LABEL, lambda source: play(a, b, source))
