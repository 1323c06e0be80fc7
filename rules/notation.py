"""A game system's own dice notation, as its registry publishes it: a leaf of the node model."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.dice import DiceSource, Dist, RollResult


@dataclass(frozen=True)
class SideRoll:
    """A die a system may roll beside a check without joining it (Nemron's d20 drama die).

    ``name`` becomes the command line's ``--<name>`` flag; ``read`` turns the face into the words the
    table says ("bad drama").
    """

    name: str
    sides: int
    help: str
    read: Callable[[int], str]


@dataclass(frozen=True)
class SystemNotation:
    """A system's own dice notation: text to an exact distribution, and (optionally) to a roll.

    ``parse`` answers ``node:odds`` and ``rpg odds``; ``roll`` answers ``rpg roll`` with every die
    shown; ``side_rolls`` are the extra dice ``rpg roll`` offers for the system; ``example`` is a
    text ``parse`` accepts, for help messages.
    """

    parse: Callable[[str], Dist]
    example: str
    roll: Callable[[str, DiceSource], RollResult] | None = None
    side_rolls: tuple[SideRoll, ...] = ()
