"""The combat grid: squares named like a chessboard, distances counted in turns of movement.

A square is a location of any size; characters move freely inside one and cross borders to reach the
next.  Movement runs along the four orthogonal borders only, so a diagonal neighbour is two moves away.
Climbing up costs the turns it takes; jumping down is free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.heimr.registry import REGISTRY, HeimrError
from rules.values import is_whole

#: The smallest grid a fight is played on.
MINIMUM_GRID = 3
_SQUARE = re.compile(r"\s*([A-Za-z])\s*(\d+)\s*")


@dataclass(frozen=True, order=True)
class Square:
    """A square by column (A = 0) and row (1 = 0)."""

    column: int
    row: int

    @classmethod
    def parse(cls, name: str | Square) -> Square:
        """``"B3"`` -> ``Square(1, 2)``; squares pass through."""
        if isinstance(name, Square):
            return name
        match = _SQUARE.fullmatch(name) if isinstance(name, str) else None
        if not match or int(match[2]) < 1:
            raise HeimrError(f"{name!r} is not a square name such as 'A1' or 'C3'")
        return cls(ord(match[1].upper()) - ord("A"), int(match[2]) - 1)

    def __str__(self) -> str:
        return f"{chr(ord('A') + self.column)}{self.row + 1}"


@REGISTRY.rule("Heimr.Rule.Grid", "Grid", "RU", values={"minimum": MINIMUM_GRID})
@dataclass(frozen=True)
class Grid:
    """A rectangle of squares, at least 3 by 3."""

    columns: int = MINIMUM_GRID
    rows: int = MINIMUM_GRID

    def __post_init__(self) -> None:
        columns_ok = isinstance(self.columns, int) and MINIMUM_GRID <= self.columns <= 26
        rows_ok = isinstance(self.rows, int) and self.rows >= MINIMUM_GRID
        if not (columns_ok and rows_ok):
            raise HeimrError(f"a grid is {MINIMUM_GRID} to 26 columns and at least {MINIMUM_GRID} rows, "
                            f"not {self.columns!r} by {self.rows!r}")

    def square(self, name: str | Square) -> Square:
        """A square of this grid by name, checked to lie on it."""
        square = Square.parse(name)
        if not (0 <= square.column < self.columns and 0 <= square.row < self.rows):
            raise HeimrError(f"{square} is off a {self.columns} by {self.rows} grid")
        return square

    def squares(self) -> list[Square]:
        return [Square(c, r) for r in range(self.rows) for c in range(self.columns)]


@REGISTRY.rule("Heimr.Rule.Distance", "Distance", "RU", formula="abs(dx) + abs(dy) + climb_turns")
def distance(origin: str | Square, target: str | Square, climb_turns: int = 0) -> int:
    """Turns of movement to reach the target: orthogonal steps, plus climbing up (jumping down is free).

    ``climb_turns`` is the turns needed to climb up to a higher target; pass 0 for a lower one.
    """
    a, b = Square.parse(origin), Square.parse(target)
    if not is_whole(climb_turns) or climb_turns < 0:
        raise HeimrError(f"climbing turns are a whole number of at least 0, not {climb_turns!r} "
                        "(jumping down is free, so a lower target adds 0)")
    return abs(a.column - b.column) + abs(a.row - b.row) + climb_turns


@REGISTRY.rule("Heimr.Rule.Melee", "Melee reach", "RU")
def can_melee(attacker: str | Square, target: str | Square) -> bool:
    """Melee only works inside one square."""
    return Square.parse(attacker) == Square.parse(target)


@REGISTRY.rule("Heimr.Rule.CombatCluster", "Combat cluster", "RU")
@dataclass
class CombatCluster:
    """Characters fighting each other in melee, grouped in one square.

    An attack puts attacker and target together; a member stays until pushed out or until leaving
    the cluster or the square.
    """

    square: Square
    members: list[str]

    def __post_init__(self) -> None:
        self.square = Square.parse(self.square)
        if isinstance(self.members, str) or not all(isinstance(m, str) for m in self.members):
            raise HeimrError(f"a cluster's members are a list of names, not {self.members!r}")
        self.members = list(self.members)

    def join(self, name: str) -> None:
        if name not in self.members:
            self.members.append(name)

    def leave(self, name: str) -> None:
        """Pushed out, stumbled, or walked off."""
        if name not in self.members:
            raise HeimrError(f"{name!r} is not in the cluster in {self.square}")
        self.members.remove(name)

    def __len__(self) -> int:
        return len(self.members)
