"""Combat: one-second turns and the order in which characters act.

Combat begins when two or more characters physically clash and the GM may start and stop it.  Each
character acts once per turn; a turn is about one second.  The order is fixed when combat starts:
highest Speed first, ties to the higher Agility, remaining ties by each rolling 3d6.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource
from rules.spurg.registry import REGISTRY, SpurgError
from rules.spurg.verdict import VERDICT_DICE, VERDICT_SIDES
from rules.values import is_whole

#: Seconds of game time one turn stands for.
TURN_SECONDS = 1


@dataclass(frozen=True)
class Combatant:
    """What turn order reads from a character: a name, Speed and Agility."""

    name: str
    speed: int
    agility: int

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise SpurgError(f"a combatant is named by text, not {self.name!r}")
        for label, score in (("Speed", self.speed), ("Agility", self.agility)):
            if not is_whole(score) or score < 0:
                raise SpurgError(f"{self.name}: {label} must be a whole number of 0 or more, "
                                     f"not {score!r}")


@REGISTRY.rule("Spurg.Combat.Turn", "Turn", "CB", values={"seconds": TURN_SECONDS})
def elapsed_seconds(turns: int) -> int:
    """Game time after some full turns: each turn, once everyone has acted, is about one second."""
    if not is_whole(turns) or turns < 0:
        raise SpurgError(f"a number of turns must be a whole number of 0 or more, not {turns!r}")
    return turns * TURN_SECONDS


def _roll_off(group: list[Combatant], source: DiceSource, low_roll_first: bool) -> list[Combatant]:
    """Order a tied group by 3d6 each (in the group's given order); re-roll whoever ties again."""
    if len(group) < 2:
        return group
    rolls = {c.name: sum(source.roll(VERDICT_SIDES) for _ in range(VERDICT_DICE)) for c in group}
    ordered: list[Combatant] = []
    for value in sorted(set(rolls.values()), reverse=not low_roll_first):
        ordered += _roll_off([c for c in group if rolls[c.name] == value], source, low_roll_first)
    return ordered


@REGISTRY.rule("Spurg.Combat.TurnOrder", "Turn Order", "CB")
def turn_order(combatants: Sequence[Combatant], source: DiceSource, *,
               low_roll_first: bool = True) -> list[Combatant]:
    """Who acts first: higher Speed, then higher Agility, then a 3d6 roll-off.

    The roll-off is lower-first by default (Verdict Rolls reward low rolls); ``low_roll_first=False``
    lets the high roller go first.  Dice are drawn only when a tie survives Speed and Agility.
    """
    combatants = list(combatants)
    for combatant in combatants:
        if not isinstance(combatant, Combatant):
            raise SpurgError(f"turn order reads Combatant(name, speed, agility), not {combatant!r}")
    if not isinstance(low_roll_first, bool):
        raise SpurgError(f"low_roll_first is True or False, not {low_roll_first!r}")
    names = [c.name for c in combatants]
    if len(set(names)) != len(names):
        raise SpurgError(f"combatant names must be unique: {names!r}")
    ordered: list[Combatant] = []
    keys = sorted({(c.speed, c.agility) for c in combatants}, reverse=True)
    for key in keys:
        group = [c for c in combatants if (c.speed, c.agility) == key]
        ordered += _roll_off(group, source, low_roll_first)
    return ordered


@REGISTRY.rule("Spurg.Combat.Sequence", "Combat Sequence", "CB")
@dataclass
class CombatSequence:
    """A combat from start to stop: the turn order is fixed at the start even if Speed later changes.

    Only stopping and starting again (a new combat) sorts the characters anew.
    """

    low_roll_first: bool = True
    order: list[str] = field(default_factory=list)
    turns: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.low_roll_first, bool):
            raise SpurgError(f"low_roll_first is True or False, not {self.low_roll_first!r}")

    @property
    def running(self) -> bool:
        return bool(self.order)

    def start(self, combatants: Sequence[Combatant], source: DiceSource) -> list[str]:
        """Fix the order for this combat; returns the names in acting order."""
        self.order = [c.name for c in turn_order(combatants, source, low_roll_first=self.low_roll_first)]
        self.turns = 0
        return list(self.order)

    def next_turn(self) -> list[str]:
        """Play one more turn: everyone acts in the fixed order."""
        if not self.running:
            raise SpurgError("combat has not started: call start() first")
        self.turns += 1
        return list(self.order)

    @property
    def seconds(self) -> int:
        return elapsed_seconds(self.turns)

    def stop(self) -> None:
        """End the combat; the next :meth:`start` sorts everyone again."""
        self.order = []
