"""The example class powers: three per class.

Each power is a row of :data:`POWERS` (name, class, what it grants) plus the small rule that
carries it out.  The combat engine (:mod:`rules.dndalike.combat`) asks these rules whenever a
combatant's powers matter: :func:`lucky` for every save, :func:`heavy_hitter` for every attack,
:func:`quick_upgrade` when a slow action is wanted as a quick one.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from rules.dndalike.core import NATURAL_SUCCESS, Edge, edge
from rules.dndalike.registry import REGISTRY, DndalikeError
from rules.dndalike.skills import SKILL_LEVELS
from rules.values import is_whole


@dataclass(frozen=True)
class Power:
    """A class power: its class and a one-line account of what it grants."""

    name: str
    character_class: str
    grants: str


#: The example powers of the source, by name.
POWERS: dict[str, Power] = {
    "Exert": Power("Exert", "Wizard", "the EXERT action (quick, F): regain a spent action die"),
    "Spell": Power("Spell", "Wizard", "one new spell each time it is taken"),
    "Powerful": Power("Powerful", "Wizard", "spell stones spent as action dice showing a natural 6"),
    "Tumble": Power("Tumble", "Rogue", "slow movement actions as quick ones, for 1 fatigue"),
    "Skilled": Power("Skilled", "Rogue", "one rank in one skill"),
    "Lucky": Power("Lucky", "Rogue", "advantage on every saving throw"),
    "Trip": Power("Trip", "Fighter", "the TRIP action (quick, A): cancel a movement ability"),
    "Heavy Hitter": Power("Heavy Hitter", "Fighter", "every attack, hit or miss, fatigues the target"),
    "Riposte": Power("Riposte", "Fighter", "the RIPOSTE action (quick, A): cancel a melee attack"),
}


def power(name: str) -> Power:
    try:
        return POWERS[name]
    except KeyError:
        raise DndalikeError(f"unknown class power {name!r} (known: {', '.join(POWERS)})") from None


def power_classes(names: Collection[str]) -> tuple[str, ...]:
    """The classes of powers, in the order given (what the character sheet rules need)."""
    return tuple(power(name).character_class for name in names)


@REGISTRY.rule("Dndalike.Power.Exert", "Exert", "power", values={"class": "Wizard", "cost": "F"})
def exert(pool: dict[str, int], maximum: dict[str, int], die_type: str) -> dict[str, int]:
    """EXERT (quick, costs 1 fatigue): get back one action die of ``die_type`` already spent this turn."""
    if die_type not in maximum:
        raise DndalikeError(f"unknown die type {die_type!r} (known: {', '.join(maximum)})")
    if pool.get(die_type, 0) >= maximum[die_type]:
        raise DndalikeError(f"no {die_type} die has been spent: nothing to regain")
    return {**pool, die_type: pool.get(die_type, 0) + 1}


@REGISTRY.rule("Dndalike.Power.Spell", "Spell", "power", values={"class": "Wizard"})
def learn_spell(known: Collection[str], spell: str) -> tuple[str, ...]:
    """Each time this power is taken the wizard learns one more spell (from any spell list the table likes)."""
    if spell in known:
        raise DndalikeError(f"spell {spell!r} is already known")
    return (*known, spell)


@REGISTRY.rule("Dndalike.Power.Powerful", "Powerful", "power",
            values={"class": "Wizard", "face": NATURAL_SUCCESS, "save_penalty": 1})
def powerful_die() -> tuple[int, int]:
    """A spell stone spent as an action die of any type shows a natural 6; the wizard then saves as
    if casting.  This book charges that save the penalty of a level-1 spell (one stone).

    Returns ``(face, save penalty)``.
    """
    return NATURAL_SUCCESS, 1


@REGISTRY.rule("Dndalike.Power.Tumble", "Tumble", "power", values={"class": "Rogue", "fatigue": 1})
def quick_upgrade(kind: str, powers: Collection[str], features: Collection[str] = ()) -> int | None:
    """The fatigue it costs to take a *slow* action of ``kind`` as a quick one, or ``None`` if the
    character cannot.

    Tumble lets movement actions go quick for 1 fatigue; a two-handed weapon does the same for attack
    actions; a bow makes attack actions quick for free.
    """
    if kind == "attack" and "quick attacks" in features:
        return 0
    if kind == "attack" and "quick attacks for fatigue" in features:
        return 1
    if kind == "movement" and "Tumble" in powers:
        return 1
    return None


@REGISTRY.rule("Dndalike.Power.Skilled", "Skilled", "power", values={"class": "Rogue", "ranks": 1})
def skilled(skill_level: str) -> str:
    """One skill goes up a rank: Unskilled to Skilled, Skilled to Expert."""
    levels = list(SKILL_LEVELS)
    if skill_level not in levels or skill_level == levels[-1]:
        raise DndalikeError(f"skill level {skill_level!r} cannot be raised (levels: {', '.join(SKILL_LEVELS)})")
    return levels[levels.index(skill_level) + 1]


@REGISTRY.rule("Dndalike.Power.Lucky", "Lucky", "power", values={"class": "Rogue"})
def lucky(powers: Collection[str], *, advantage: bool = False, disadvantage: bool = False) -> Edge:
    """The edge of a save: Lucky adds advantage to every one (still cancelled by disadvantage)."""
    return edge(int(advantage or "Lucky" in powers), int(disadvantage))


@REGISTRY.rule("Dndalike.Power.Trip", "Trip", "power", values={"class": "Fighter", "cost": "A"})
def trip_cancels(target_kind: str) -> bool:
    """TRIP (quick, one Attack die) targets a stacked ability; on a hit it cancels it if it is a
    movement ability."""
    return target_kind == "movement"


@REGISTRY.rule("Dndalike.Power.HeavyHitter", "Heavy Hitter", "power", values={"class": "Fighter", "fatigue": 1})
def heavy_hitter(powers: Collection[str]) -> int:
    """Fatigue every attack forces on its target, hit or miss: 1 with Heavy Hitter, else 0."""
    return 1 if "Heavy Hitter" in powers else 0


@REGISTRY.rule("Dndalike.Power.Riposte", "Riposte", "power", values={"class": "Fighter", "cost": "A"})
def riposte_cancels(my_attack: int, their_attack: int, *, melee: bool = True) -> bool:
    """RIPOSTE (quick, one Attack die): on a hit, cancel a melee attack whose Attack value is at most
    the riposte's."""
    for what, value in (("riposte Attack value", my_attack), ("attack's Attack value", their_attack)):
        if not is_whole(value):
            raise DndalikeError(f"{what} {value!r} is invalid: it must be a whole number")
    return melee and their_attack <= my_attack
