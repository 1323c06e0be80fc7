"""Wounds, the secret damage total, and the finishing blow that alone can kill.

A wound adds a d6 of damage to a total only the character's controller knows.  Damage never kills by
itself: only a finishing blow reveals the total and compares it with Health.  Lesser characters keep
only a public wound count and roll all of it afresh at every finishing blow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from rules.dice import DiceSource, Dist
from rules.dndalike.registry import REGISTRY, DndalikeError
from rules.providers import Int
from rules.tables import Cell, Table
from rules.values import is_whole, require_whole

DAMAGE_DIE = 6
#: Which wound a rest heals: the most recent, the one that rolled highest, or the lowest.
HEAL_CHOICES = ("latest", "largest", "smallest")


def health_error(value: object) -> DndalikeError:
    """A Health value below 1."""
    return DndalikeError(f"health {value!r} is invalid: it must be a whole number, 1 or more")


def heal_choice_error(value: object) -> DndalikeError:
    return DndalikeError(f"unknown healing choice {value!r} (use one of {', '.join(HEAL_CHOICES)})")


def _health(value: object) -> int:
    if not is_whole(value) or value < 1:
        raise health_error(value)
    return value


@REGISTRY.rule("Dndalike.Rule.DoubleWounds", "Double Wounds", "RU", values={"factor": 2})
def wounds_dealt(wounds: int = 1, *, two_handed: bool = False) -> int:
    """Wounds an effect inflicts; a two-handed weapon doubles them.

    Only wounds are doubled: a finishing blow deals no wounds, so a two-handed coup de grace is
    still one finishing blow.
    """
    require_whole(wounds, "wounds", minimum=0, error=DndalikeError)
    return wounds * 2 if two_handed else wounds


@dataclass
class DamageTrack:
    """A character's wounds.

    For a normal character each wound's d6 is kept (secretly) in ``rolls``; for a lesser character
    only ``count`` is kept, in the open, and ``rolls`` stays empty.
    """

    lesser: bool = False
    count: int = 0
    rolls: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        """The secret damage total (always 0 for a lesser character: nothing is recorded)."""
        return sum(self.rolls)


@REGISTRY.rule("Dndalike.Rule.Wound", "Wound", "RU", dice="1d6 per wound")
def suffer_wounds(track: DamageTrack, wounds: int, source: DiceSource) -> tuple[int, ...]:
    """Record ``wounds`` new wounds: a d6 of secret damage each for a normal character, a tally mark
    for a lesser one (no dice).  Returns the dice rolled."""
    require_whole(wounds, "wounds", minimum=0, error=DndalikeError)
    track.count += wounds
    if track.lesser:
        return ()
    rolled = tuple(source.roll(DAMAGE_DIE) for _ in range(wounds))
    track.rolls.extend(rolled)
    return rolled


@dataclass(frozen=True)
class FinishingBlowResult:
    """What a finishing blow revealed: the damage compared with Health, and whether it killed."""

    damage: int
    health: int
    dead: bool
    rolled: tuple[int, ...] = ()


@REGISTRY.rule("Dndalike.Rule.FinishingBlow", "Finishing Blow", "RU")
def finishing_blow(track: DamageTrack, health: int, source: DiceSource) -> FinishingBlowResult:
    """Reveal the damage: at or above Health the character dies at once, otherwise nothing happens.

    A lesser character's wounds are rolled now (a d6 each) and forgotten again if they survive.
    """
    _health(health)
    if track.lesser:
        rolled = tuple(source.roll(DAMAGE_DIE) for _ in range(track.count))
        damage = sum(rolled)
        return FinishingBlowResult(damage, health, damage >= health, rolled)
    return FinishingBlowResult(track.total, health, track.total >= health)


REGISTRY.define("Dndalike.Rule.LesserCharacter", "Lesser Character", "RU", implementation=DamageTrack,
             summary="Minions and henchmen: wounds are counted openly and rolled at each finishing blow.")


@REGISTRY.rule("Dndalike.Roll.DeathChance", "Chance a Finishing Blow Kills", "RL", dice="wounds d6")
def death_probability(wounds: int, health: int) -> Fraction:
    """The exact chance that ``wounds`` d6 reach ``health``: what a finishing blow kills with.

    For a lesser character this is the chance at every blow; for a normal one it is the chance over
    the secret rolls already made.
    """
    require_whole(wounds, "wounds", minimum=0, error=DndalikeError)
    _health(health)
    return Dist.die(DAMAGE_DIE).repeat_sum(wounds).p_ge(health) if wounds else Fraction(0)


@REGISTRY.table(most_wounds=Int(0, 20), lowest_health=Int(1, 40), highest_health=Int(1, 40))
def finishing_blow_odds(most_wounds: int = 6, lowest_health: int = 4, highest_health: int = 12) -> Table:
    """Chance that a finishing blow kills, by wounds taken (rows) and Health (columns)."""
    require_whole(most_wounds, "wounds", minimum=0, error=DndalikeError)
    _health(lowest_health)
    _health(highest_health)
    healths = range(lowest_health, highest_health + 1)
    columns = ("Wounds", *(f"Health {h}" for h in healths))
    rows: list[tuple[Cell, ...]] = [(w, *(death_probability(w, h) for h in healths)) for w in range(1, most_wounds + 1)]
    return Table.of(columns, rows, "Finishing blow odds", probabilities=columns[1:])


def heal_wound(track: DamageTrack, *, which: str = "latest") -> int:
    """Remove one wound (as a rest does) and return the damage it took away.

    A normal character's damage is a sum of per-wound rolls, so healing must pick one: the most
    recent by default (``which="latest"``), or the ``"largest"`` or ``"smallest"`` roll.
    """
    if which not in HEAL_CHOICES:
        raise heal_choice_error(which)
    if track.count == 0:
        return 0
    track.count -= 1
    if track.lesser or not track.rolls:
        return 0
    if which == "latest":
        index = len(track.rolls) - 1
    elif which == "largest":
        index = max(range(len(track.rolls)), key=lambda i: (track.rolls[i], i))
    else:
        index = min(range(len(track.rolls)), key=lambda i: (track.rolls[i], -i))
    return track.rolls.pop(index)
