"""Dice expressions: the objects notation parses into, each able to give its exact Dist and to roll.

They are frozen dataclasses (equal when their fields are equal, hashable), and ``str()`` gives the
canonical notation, which :func:`rules.dice.notation.parse` reads back into an equal object.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import reduce

from ..values import is_whole
from .distribution import Dist
from .keep import keep, keep_highest
from .mechanics import EXPLODE_DEPTH, explode
from .rolling import DiceSource, DieRoll, RollResult, format_dice
from .successes import count_successes

__all__ = ["Constant", "DiceExpr", "Dice", "Explode", "Keep", "Pool", "SuccessCount", "Sum"]


def _whole(owner: str, name: str, value: object, low: int) -> None:
    if not is_whole(value) or value < low:
        raise ValueError(f"{owner}: {name} must be a whole number >= {low}, not {value!r}")


class DiceExpr:
    """Base class of parsed dice expressions."""

    def dist(self) -> Dist:
        """The exact distribution of the expression's total."""
        raise NotImplementedError

    def roll(self, source: DiceSource) -> RollResult:
        """Roll the expression with ``source`` (seeded or scripted), keeping every die's face."""
        raise NotImplementedError

    @property
    def dice_count(self) -> int:
        """How many dice the expression rolls before any explosion (bounded by ``MAX_DICE``)."""
        return 0


@dataclass(frozen=True)
class Constant(DiceExpr):
    """A plain integer, e.g. the ``3`` of ``2d6+3``."""

    value: int

    def __post_init__(self) -> None:
        if not is_whole(self.value):
            raise ValueError(f"Constant: value must be an int, not {self.value!r}")

    def __str__(self) -> str:
        return str(self.value)

    def dist(self) -> Dist:
        return Dist.constant(self.value)

    def roll(self, source: DiceSource) -> RollResult:
        return RollResult(str(self), (), self.value, str(self.value))


@dataclass(frozen=True)
class Dice(DiceExpr):
    """``NdS``: the sum of ``count`` dice with ``sides`` sides."""

    count: int
    sides: int

    def __post_init__(self) -> None:
        _whole("Dice", "count", self.count, 1)
        _whole("Dice", "sides", self.sides, 1)

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"

    @property
    def dice_count(self) -> int:
        return self.count

    def dist(self) -> Dist:
        return Dist.die(self.sides).repeat_sum(self.count)

    def roll(self, source: DiceSource) -> RollResult:
        dice = tuple(DieRoll(self.sides, source.roll(self.sides)) for _ in range(self.count))
        return RollResult(str(self), dice, sum(d.face for d in dice))


@dataclass(frozen=True)
class Keep(DiceExpr):
    """``NdSkhK`` / ``NdSklK``: roll ``count`` dice, sum the ``keep`` highest (or lowest)."""

    count: int
    sides: int
    keep: int
    highest: bool = True

    def __post_init__(self) -> None:
        _whole("Keep", "count", self.count, 1)
        _whole("Keep", "sides", self.sides, 1)
        _whole("Keep", "keep", self.keep, 1)
        if self.keep > self.count:
            raise ValueError(f"Keep: cannot keep {self.keep} of {self.count} dice")

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}{'kh' if self.highest else 'kl'}{self.keep}"

    @property
    def dice_count(self) -> int:
        return self.count

    def dist(self) -> Dist:
        return keep(self.count, self.sides, self.keep, self.highest)

    def roll(self, source: DiceSource) -> RollResult:
        faces = [source.roll(self.sides) for _ in range(self.count)]
        order = sorted(range(self.count), key=lambda i: (-faces[i] if self.highest else faces[i], i))
        kept = set(order[:self.keep])
        dice = tuple(DieRoll(self.sides, f, i in kept) for i, f in enumerate(faces))
        return RollResult(str(self), dice, sum(d.face for d in dice if d.kept))


@dataclass(frozen=True)
class Explode(DiceExpr):
    """``NdS!``: each die showing its maximum is re-rolled and added, at most ``EXPLODE_DEPTH`` times.

    The depth rule is that of :func:`rules.dice.mechanics.explode`; ``dist()`` is exact for it and
    ``roll()`` follows it too, so no source can make a roll run forever.
    """

    count: int
    sides: int

    def __post_init__(self) -> None:
        _whole("Explode", "count", self.count, 1)
        _whole("Explode", "sides", self.sides, 2)

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}!"

    @property
    def dice_count(self) -> int:
        return self.count

    def dist(self) -> Dist:
        return explode(self.sides).repeat_sum(self.count)

    def roll(self, source: DiceSource) -> RollResult:
        dice: list[DieRoll] = []
        for _ in range(self.count):
            dice.append(DieRoll(self.sides, source.roll(self.sides)))
            rerolls = 0
            while dice[-1].face == self.sides and rerolls < EXPLODE_DEPTH:
                dice.append(DieRoll(self.sides, source.roll(self.sides), exploded_from=len(dice) - 1))
                rerolls += 1
        return RollResult(str(self), tuple(dice), sum(d.face for d in dice))


@dataclass(frozen=True)
class SuccessCount(DiceExpr):
    """``NdS>=T``: how many of ``count`` dice show ``threshold`` or more (failures shown dropped)."""

    count: int
    sides: int
    threshold: int

    def __post_init__(self) -> None:
        _whole("SuccessCount", "count", self.count, 1)
        _whole("SuccessCount", "sides", self.sides, 1)
        _whole("SuccessCount", "threshold", self.threshold, 1)
        if self.threshold > self.sides:
            raise ValueError(f"SuccessCount: a d{self.sides} never shows {self.threshold}")

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}>={self.threshold}"

    @property
    def dice_count(self) -> int:
        return self.count

    def dist(self) -> Dist:
        return count_successes(self.count, self.sides, self.threshold)

    def roll(self, source: DiceSource) -> RollResult:
        dice = []
        for _ in range(self.count):
            face = source.roll(self.sides)
            dice.append(DieRoll(self.sides, face, face >= self.threshold))
        return RollResult(str(self), tuple(dice), sum(d.kept for d in dice))


@dataclass(frozen=True)
class Pool(DiceExpr):
    """Nemron's pool ``1d6 › 1d10 › 1d8``: roll every die of every term and keep the single highest.

    ``2d8`` inside a pool is two d8 in the pool.  ``str()`` uses ``›``; ``>`` is read as well.
    """

    terms: tuple[Dice, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "terms", tuple(self.terms))
        if len(self.terms) < 2:
            raise ValueError("Pool: a pool joins at least two terms (a single term is just Dice)")
        for t in self.terms:
            if not isinstance(t, Dice):
                raise ValueError(f"Pool: a pool holds plain dice like 1d8, not {t}")

    def __str__(self) -> str:
        return " › ".join(str(t) for t in self.terms)

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms)

    @property
    def sides(self) -> tuple[int, ...]:
        """The size of every die in the pool, in order (``2d8`` gives two 8s)."""
        return tuple(t.sides for t in self.terms for _ in range(t.count))

    def dist(self) -> Dist:
        return keep_highest([Dist.die(s) for s in self.sides])

    def roll(self, source: DiceSource) -> RollResult:
        faces = [(s, source.roll(s)) for s in self.sides]
        best = max(range(len(faces)), key=lambda i: (faces[i][1], -i))
        dice = tuple(DieRoll(s, f, i == best) for i, (s, f) in enumerate(faces))
        return RollResult(str(self), dice, faces[best][1])


@dataclass(frozen=True)
class Sum(DiceExpr):
    """Terms joined by ``+`` and ``-``: ``2d6+3``, ``1d20-1d4``. ``signs[i]`` is +1 or -1."""

    terms: tuple[DiceExpr, ...]
    signs: tuple[int, ...]

    def __post_init__(self) -> None:
        terms, signs = list(self.terms), list(self.signs)
        if not terms or len(terms) != len(signs):
            raise ValueError("Sum: needs one sign (+1 or -1) per term, and at least one term")
        for i, (t, s) in enumerate(zip(terms, signs)):
            if s not in (1, -1):
                raise ValueError(f"Sum: a sign is +1 or -1, not {s!r}")
            if not isinstance(t, DiceExpr) or isinstance(t, Sum):
                raise ValueError(f"Sum: terms are single dice expressions, not {t!r}")
            if isinstance(t, Constant) and t.value < 0:  # keep "x - 3" canonical: no "+-3"
                terms[i], signs[i] = Constant(-t.value), -s
        object.__setattr__(self, "terms", tuple(terms))
        object.__setattr__(self, "signs", tuple(signs))

    def __str__(self) -> str:
        out = []
        for i, (t, s) in enumerate(zip(self.terms, self.signs)):
            out.append(("-" if s < 0 else "+" if i else "") + str(t))
        return "".join(out)

    @property
    def dice_count(self) -> int:
        return sum(t.dice_count for t in self.terms)

    def dist(self) -> Dist:
        parts = [t.dist() if s > 0 else -t.dist() for t, s in zip(self.terms, self.signs)]
        return reduce(lambda a, b: a + b, parts)

    def roll(self, source: DiceSource) -> RollResult:
        dice: list[DieRoll] = []
        shown: list[str] = []
        total = 0
        for i, (t, s) in enumerate(zip(self.terms, self.signs)):
            result = t.roll(source)
            offset = len(dice)
            moved = [replace(d, exploded_from=d.exploded_from + offset) if d.exploded_from is not None else d
                     for d in result.dice]
            dice.extend(moved)
            piece = result.detail or format_dice(moved, offset)
            shown.append(("- " if s < 0 else "+ " if i else "") + piece)
            total += s * result.total
        return RollResult(str(self), tuple(dice), total, " ".join(shown))


def sum_of(terms: Sequence[DiceExpr], signs: Sequence[int] | None = None) -> DiceExpr:
    """Join terms into a :class:`Sum` (a lone positive term is returned as it is)."""
    signs = tuple(signs) if signs is not None else (1,) * len(terms)
    if len(terms) == 1 and signs[0] == 1:
        return terms[0]
    return Sum(tuple(terms), signs)
