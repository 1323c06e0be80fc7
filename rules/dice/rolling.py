"""Rolling: injectable dice sources and the record of one roll.

Every roll takes a :class:`DiceSource`, so the same code rolls with a seeded random generator at the
table and with a scripted sequence of faces in a rulebook example (location dice 5, 5, 3, 2), which
then reproduces exactly on every build.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..values import is_whole
from .errors import DiceError, ScriptExhaustedError, ScriptFaceError

__all__ = [
    "DiceError", "DiceSource", "DieRoll", "RollResult", "ScriptExhaustedError", "ScriptFaceError",
    "ScriptedSource", "SeededSource", "default_source",
]


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll one die: ``roll(sides)`` returns a face in 1..sides."""

    def roll(self, sides: int) -> int: ...


def _check_sides(sides: int) -> None:
    if not is_whole(sides) or sides < 1:
        raise ValueError(f"a die needs a whole number of sides >= 1, not {sides!r}")


class SeededSource:
    """Faces from a :class:`random.Random`: pass a seed (reproducible) or a generator to share."""

    def __init__(self, seed_or_random: int | str | bytes | random.Random | None = None):
        if isinstance(seed_or_random, random.Random):
            self.random = seed_or_random
        else:
            self.random = random.Random(seed_or_random)

    def roll(self, sides: int) -> int:
        if type(sides) is not int or sides < 1:  # the common case skips the full check (fights roll millions)
            _check_sides(sides)
        return self.random.randint(1, sides)

    def __repr__(self) -> str:
        return f"SeededSource({self.random!r})"


class ScriptedSource:
    """Faces from a fixed script, in order: rulebook examples that must come out the same every time.

    Raises :class:`ScriptExhaustedError` when asked for more faces than scripted, and
    :class:`ScriptFaceError` (naming the face and the die) when a scripted face cannot occur on the
    die being rolled.
    """

    def __init__(self, faces: Iterable[int]):
        self._faces = deque(faces)
        for face in self._faces:
            if not is_whole(face) or face < 1:
                raise ScriptFaceError(f"a scripted face must be a whole number >= 1, not {face!r}")
        self.used = 0

    @property
    def remaining(self) -> int:
        """How many scripted faces are still unused."""
        return len(self._faces)

    @property
    def remaining_faces(self) -> tuple[int, ...]:
        return tuple(self._faces)

    def roll(self, sides: int) -> int:
        _check_sides(sides)
        if not self._faces:
            raise ScriptExhaustedError(
                f"the dice script is used up: a d{sides} was rolled after all {self.used} scripted faces")
        face = self._faces[0]
        if face > sides:
            raise ScriptFaceError(
                f"scripted face {face} (number {self.used + 1} in the script) is impossible on a d{sides}")
        self._faces.popleft()
        self.used += 1
        return face

    def __repr__(self) -> str:
        return f"ScriptedSource({list(self._faces)!r})"


def default_source(seed: int | str | bytes | None = None) -> SeededSource:
    """A :class:`SeededSource`; with no seed, seeded from the operating system."""
    return SeededSource(seed)


@dataclass(frozen=True)
class DieRoll:
    """One die of a roll: its size, face, whether it counts, and which die's explosion added it."""

    sides: int
    face: int
    kept: bool = True
    exploded_from: int | None = None  # index in RollResult.dice of the die whose maximum re-rolled


@dataclass(frozen=True)
class RollResult:
    """What one roll showed: every die (kept or dropped), the total, and an optional breakdown.

    ``str()`` reads like ``4d6kh3: [6, 4, (1), 3] = 13``: dropped dice are in parentheses, a face that
    exploded is followed by ``!`` (its re-roll comes right after it).
    """

    expr: str
    dice: tuple[DieRoll, ...]
    total: int
    detail: str = ""

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice)

    @property
    def kept_faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice if d.kept)

    def format_dice(self) -> str:
        """The dice as ``[6, 4, (1), 3]``."""
        return format_dice(self.dice)

    def __str__(self) -> str:
        shown = self.detail or self.format_dice()
        return f"{self.expr}: {shown} = {self.total}"


def format_dice(dice: Iterable[DieRoll], offset: int = 0) -> str:
    """Format dice for a :class:`RollResult` (``offset``: index of the first die in the full roll)."""
    dice = tuple(dice)
    sources = {d.exploded_from for d in dice if d.exploded_from is not None}
    parts = []
    for i, d in enumerate(dice, offset):
        text = f"{d.face}!" if i in sources else str(d.face)
        parts.append(text if d.kept else f"({text})")
    return "[" + ", ".join(parts) + "]"
