"""Dice expressions: the objects notation parses into, each able to give its exact Dist and to roll.

They are frozen dataclasses (equal when their fields are equal, hashable), and ``str()`` gives the
canonical notation, which :func:`rules.dice.notation.parse` reads back into an equal object.

Every expression knows what its exact distribution will cost before computing any of it
(:meth:`DiceExpr.plan`, in the units of :mod:`rules.dice.cost`): :meth:`DiceExpr.dist` checks the
whole expression's work against the budget first, so it answers or refuses at once.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..values import is_whole, require_whole
from .cost import (
    PY_STEP,
    TRIVIAL_FAIR_SUM,
    Shape,
    comb_cost,
    fair_sum_cost,
    fair_sum_work,
    mul_cost,
    pow_cost,
    repeat_cost,
    sum_cost,
    weights_cost,
)
from .distribution import Dist, fair_sum, priced_fair_sum
from .errors import DiceError, check_work, priced, run_priced
from .exploding import EXPLODE_DEPTH, explode
from .keep import die_keep_work, keep, keep_of
from .rolling import DiceSource, DieRoll, RollResult, format_dice
from .successes import count_successes

__all__ = ["Constant", "Dice", "DiceExpr", "Explode", "Fudge", "Keep", "Reroll", "Scale", "SuccessCount", "Sum"]

#: A plan: (work units, shape of the resulting distribution), see :mod:`rules.dice.cost`.
Plan = tuple[int, Shape]


class DiceExpr:
    """Base class of parsed dice expressions."""

    def dist(self) -> Dist:
        """The exact distribution of the expression's total (refused at once if it is too much work)."""
        if not priced():
            check_work(self._priced_work(), self._shown)
            return run_priced(self._dist)
        return self._dist()

    def _priced_work(self) -> int:
        """:meth:`work`, priced once per expression: a parsed expression is kept by its text, so a
        question asked again is not priced again (kept beside the fields: equality and hash ignore it)."""
        work: int | None = self.__dict__.get("_work")
        if work is None:
            work = self.__dict__["_work"] = self.work()
        return work

    def _shown(self) -> str:
        """The expression as a refusal names it (written out only when it is refused)."""
        text = str(self)
        return text if len(text) <= 60 else text[:57] + "..."

    def _dist(self) -> Dist:
        raise NotImplementedError

    def plan(self) -> Plan:
        """(work units, shape): what :meth:`dist` will cost and the shape of what it returns."""
        raise NotImplementedError

    def work(self) -> int:
        """The estimated work of :meth:`dist`, known without computing anything."""
        return self.plan()[0]

    def split(self) -> tuple[DiceExpr, int]:
        """(one die, how many): ``3d6`` is three ``1d6``, so a sum can gather the same dice together."""
        return self, 1

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

    def plan(self) -> Plan:
        return 0, Shape(self.value, self.value, 1, 1)

    def _dist(self) -> Dist:
        return Dist.constant(self.value)

    def roll(self, source: DiceSource) -> RollResult:
        return RollResult(str(self), (), self.value, str(self.value))


@dataclass(frozen=True)
class Dice(DiceExpr):
    """``NdS``: the sum of ``count`` dice with ``sides`` sides."""

    count: int
    sides: int

    def __post_init__(self) -> None:
        require_whole(self.count, "Dice: count", minimum=1)
        require_whole(self.sides, "Dice: sides", minimum=1)

    @classmethod
    def checked(cls, count: int, sides: int) -> Dice:
        """``Dice(count, sides)`` from ints the caller has already checked (the parser's ``NdS``
        path): the same object without validating its fields again."""
        self = object.__new__(cls)
        fields = self.__dict__  # what the frozen dataclass's own __init__ fills, one call per field
        fields["count"] = count
        fields["sides"] = sides
        return self

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"

    @property
    def dice_count(self) -> int:
        return self.count

    def split(self) -> tuple[DiceExpr, int]:
        return Dice(1, self.sides), self.count

    def plan(self) -> Plan:
        return fair_sum_cost(1, self.sides, self.count)

    def work(self) -> int:
        return fair_sum_work(self.sides, self.count)  # the plan's work without its shape

    def dist(self) -> Dist:
        # The sum prices nothing itself, so it needs no priced context: priced here, then computed
        # (a small one, 3d6, is trivial work by its size alone: no detailed price).
        if self.count * self.sides > TRIVIAL_FAIR_SUM and not priced():
            check_work(self._priced_work(), self._shown)
        return priced_fair_sum(1, self.sides, self.count)

    def _dist(self) -> Dist:
        return priced_fair_sum(1, self.sides, self.count)

    def roll(self, source: DiceSource) -> RollResult:
        dice = tuple(DieRoll(self.sides, source.roll(self.sides)) for _ in range(self.count))
        return RollResult(str(self), dice, sum(d.face for d in dice))


@dataclass(frozen=True)
class Keep(DiceExpr):
    """``NdSkhK`` / ``NdSklK``: roll ``count`` dice, sum the ``keep`` highest (or lowest).

    ``die`` is ``None`` for plain dice, or one exploding or rerolled die (``Explode(1, S)``,
    ``Reroll(1, S, ...)``) whose totals are kept: ``2d10!kh1`` keeps the higher of two exploding
    d10s (each die's whole chain), ``4d6r1kh3`` rerolls ones, then keeps three.
    """

    count: int
    sides: int
    keep: int
    highest: bool = True
    die: Explode | Reroll | None = None

    def __post_init__(self) -> None:
        require_whole(self.count, "Keep: count", minimum=1)
        require_whole(self.sides, "Keep: sides", minimum=1)
        require_whole(self.keep, "Keep: keep", minimum=1)
        if self.keep > self.count:
            raise ValueError(f"Keep: cannot keep {self.keep} of {self.count} dice")
        if self.die is not None and (not isinstance(self.die, (Explode, Reroll)) or self.die.count != 1
                                     or self.die.sides != self.sides):
            raise ValueError(f"Keep: keeps plain dice or one exploding or rerolled d{self.sides}, not {self.die!r}")

    def __str__(self) -> str:
        suffix = "" if self.die is None else str(self.die)[len(f"1d{self.sides}"):]
        return f"{self.count}d{self.sides}{suffix}{'kh' if self.highest else 'kl'}{self.keep}"

    @property
    def dice_count(self) -> int:
        return self.count

    def _one(self) -> DiceExpr:
        return Dice(1, self.sides) if self.die is None else self.die

    def plan(self) -> Plan:
        work, one = self._one().plan()
        if self.keep == self.count:
            w, shape = repeat_cost(one, self.count)
            return work + w, shape
        low, high = self.keep * one.low, self.keep * one.high
        shape = Shape(low, high, high - low + 1, self.count * one.total_bits)
        work += die_keep_work(one.count, one.span, one.total_bits, self.count, self.keep)
        return work + weights_cost(shape.count, shape.bits), shape

    def _dist(self) -> Dist:
        if self.die is None:
            return keep(self.count, self.sides, self.keep, self.highest)
        return keep_of(self.die._dist(), self.count, self.keep, self.highest)

    def roll(self, source: DiceSource) -> RollResult:
        if self.die is None:
            faces = [source.roll(self.sides) for _ in range(self.count)]
            order = sorted(range(self.count), key=lambda i: (-faces[i] if self.highest else faces[i], i))
            kept = set(order[:self.keep])
            dice = tuple(DieRoll(self.sides, f, i in kept) for i, f in enumerate(faces))
            return RollResult(str(self), dice, sum(d.face for d in dice if d.kept))
        rolls = [self.die.roll(source) for _ in range(self.count)]
        order = sorted(range(self.count), key=lambda i: (-rolls[i].total if self.highest else rolls[i].total, i))
        chosen = set(order[:self.keep])
        out: list[DieRoll] = []
        for i, result in enumerate(rolls):
            offset = len(out)
            for d in result.dice:
                moved = d if d.exploded_from is None else replace(d, exploded_from=d.exploded_from + offset)
                out.append(moved if i in chosen else replace(moved, kept=False))
        return RollResult(str(self), tuple(out), sum(rolls[i].total for i in chosen))


@dataclass(frozen=True)
class Explode(DiceExpr):
    """``NdS!``: each die showing its maximum is re-rolled and added, at most ``EXPLODE_DEPTH`` times.

    The depth rule is that of :func:`rules.dice.exploding.explode`; ``dist()`` is exact for it and
    ``roll()`` follows it too, so no source can make a roll run forever.
    """

    count: int
    sides: int

    def __post_init__(self) -> None:
        require_whole(self.count, "Explode: count", minimum=1)
        require_whole(self.sides, "Explode: sides", minimum=2)

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}!"

    @property
    def dice_count(self) -> int:
        return self.count

    def split(self) -> tuple[DiceExpr, int]:
        return Explode(1, self.sides), self.count

    def plan(self) -> Plan:
        depth, sides = EXPLODE_DEPTH, self.sides
        one = Shape(1, sides * (depth + 1), depth * (sides - 1) + sides, (depth + 1) * sides.bit_length())
        work, shape = repeat_cost(one, self.count)
        return work + weights_cost(one.count, one.bits), shape

    def _dist(self) -> Dist:
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


#: How many times one die of a reroll-until (``rr``) may be rerolled before the roll gives up.
MAX_REROLLS = 1000

#: The faces of a fudge die.
FUDGE_FACES = (-1, 0, 1)


@dataclass(frozen=True)
class Fudge(DiceExpr):
    """``NdF``: the sum of ``count`` fudge dice, each -1, 0 or +1 with equal chance.

    A fudge die is rolled as a d3 read as face - 2 (so a scripted 1, 2, 3 gives -1, 0, +1); its
    :class:`~rules.dice.rolling.DieRoll` records ``sides=3`` and the face as read (-1, 0 or +1).
    """

    count: int

    def __post_init__(self) -> None:
        require_whole(self.count, "Fudge: count", minimum=1)

    def __str__(self) -> str:
        return f"{self.count}dF"

    @property
    def dice_count(self) -> int:
        return self.count

    def split(self) -> tuple[DiceExpr, int]:
        return Fudge(1), self.count

    def plan(self) -> Plan:
        return fair_sum_cost(FUDGE_FACES[0], len(FUDGE_FACES), self.count)

    def _dist(self) -> Dist:
        return fair_sum(FUDGE_FACES[0], len(FUDGE_FACES), self.count)

    def roll(self, source: DiceSource) -> RollResult:
        dice = tuple(DieRoll(3, source.roll(3) - 2) for _ in range(self.count))
        return RollResult(str(self), dice, sum(d.face for d in dice))


@dataclass(frozen=True)
class Reroll(DiceExpr):
    """``NdSrF``, ``NdSr<F``, ``NdSr>F``: each die showing a face in ``low..high`` is re-rolled once,
    and the re-roll stands even if it shows such a face again (icepool's ``reroll(depth=1)``).

    ``until=True`` (``rr``) re-rolls until the face is outside ``low..high`` (icepool's
    ``reroll(depth='inf')``); a roll gives up with :class:`DiceError` after :data:`MAX_REROLLS` tries on
    one die, so no source can keep it rolling.  ``str()`` writes ``r3`` for one face, ``r<3`` for the
    faces below 3 and ``r>4`` for those above 4 (``rr3``... when rerolling until).
    """

    count: int
    sides: int
    low: int
    high: int
    until: bool = False

    def __post_init__(self) -> None:
        require_whole(self.count, "Reroll: count", minimum=1)
        require_whole(self.sides, "Reroll: sides", minimum=1)
        require_whole(self.low, "Reroll: low", minimum=1)
        require_whole(self.high, "Reroll: high", minimum=self.low)
        if self.high > self.sides:
            raise ValueError(f"Reroll: a d{self.sides} never shows {self.high}")
        if self.low == 1 and self.high == self.sides:
            raise ValueError(f"Reroll: rerolling every face of a d{self.sides} changes nothing")
        if self.low > 1 and self.high < self.sides and self.low != self.high:
            raise ValueError(f"Reroll: rerolls one face, the lowest faces or the highest ones, not "
                             f"{self.low}..{self.high} of a d{self.sides}")

    def __str__(self) -> str:
        if self.low == self.high:
            which = str(self.low)
        elif self.low == 1:
            which = f"<{self.high + 1}"
        else:
            which = f">{self.low - 1}"
        return f"{self.count}d{self.sides}{'rr' if self.until else 'r'}{which}"

    @property
    def dice_count(self) -> int:
        return self.count

    def rerolled(self, face: int) -> bool:
        return self.low <= face <= self.high

    def split(self) -> tuple[DiceExpr, int]:
        return Reroll(1, self.sides, self.low, self.high, self.until), self.count

    def plan(self) -> Plan:
        """Priced by the faces the reroll leaves: ``rr<9000`` of a d10000 leaves 1001 of them."""
        sides, gone = self.sides, self.high - self.low + 1
        if self.until:
            low = self.high + 1 if self.low == 1 else 1
            high = self.low - 1 if self.high == sides else sides
            one = Shape(low, high, sides - gone, 1)
        else:
            one = Shape(1, sides, sides, (2 * sides).bit_length())
        work, shape = repeat_cost(one, self.count)
        return work + sides * 4 * PY_STEP + weights_cost(sides, one.bits), shape

    def _dist(self) -> Dist:
        # Over sides ** 2: a face that stands as first rolled (sides ways), plus any face after one
        # of the ``again`` rerolled faces (``again`` ways each).
        again = 0 if self.until else self.high - self.low + 1  # until: only the faces that stand
        weights = [again + (0 if self.rerolled(f) else self.sides) for f in range(1, self.sides + 1)]
        return Dist._new(range(1, self.sides + 1), weights).repeat_sum(self.count)

    def roll(self, source: DiceSource) -> RollResult:
        dice: list[DieRoll] = []
        for _ in range(self.count):
            face = source.roll(self.sides)
            tries = 0
            while self.rerolled(face) and (tries == 0 or self.until):
                tries += 1
                if tries > MAX_REROLLS:
                    raise DiceError(f"{self}: a die showed a rerolled face {MAX_REROLLS:,} times in a row; "
                                    f"rerolling until it stops would take too long")
                dice.append(DieRoll(self.sides, face, kept=False))
                face = source.roll(self.sides)
            dice.append(DieRoll(self.sides, face))
        return RollResult(str(self), tuple(dice), sum(d.face for d in dice if d.kept))


@dataclass(frozen=True)
class Scale(DiceExpr):
    """``1d6*3``, ``2*1d6``, ``(1d6+2)*2``: the total of ``expr`` multiplied by a whole number >= 2.

    Multiplying scales the total (``2*1d6`` is 2, 4, ..., 12), it does not roll more dice.
    """

    expr: DiceExpr
    factor: int

    def __post_init__(self) -> None:
        require_whole(self.factor, "Scale: factor", minimum=2)
        if not isinstance(self.expr, DiceExpr) or isinstance(self.expr, (Constant, Scale)):
            raise ValueError(f"Scale: multiplies dice, not {self.expr!r}")

    def __str__(self) -> str:
        inner = str(self.expr)
        if not isinstance(self.expr, (Dice, Explode, Fudge, Keep, Reroll)):  # a die and its suffix need none
            inner = f"({inner})"
        return f"{inner}*{self.factor}"

    @property
    def dice_count(self) -> int:
        return self.expr.dice_count

    def plan(self) -> Plan:
        work, shape = self.expr.plan()
        return work + weights_cost(shape.count, shape.bits), shape.scaled(self.factor)

    def _dist(self) -> Dist:
        return self.expr._dist() * self.factor

    def roll(self, source: DiceSource) -> RollResult:
        result = self.expr.roll(source)
        shown = result.detail or result.format_dice()
        return RollResult(str(self), result.dice, result.total * self.factor, f"({shown}) * {self.factor}")


@dataclass(frozen=True)
class SuccessCount(DiceExpr):
    """``NdS>=T``: how many of ``count`` dice show ``threshold`` or more (failures shown dropped)."""

    count: int
    sides: int
    threshold: int

    def __post_init__(self) -> None:
        require_whole(self.count, "SuccessCount: count", minimum=1)
        require_whole(self.sides, "SuccessCount: sides", minimum=1)
        require_whole(self.threshold, "SuccessCount: threshold", minimum=1)
        if self.threshold > self.sides:
            raise ValueError(f"SuccessCount: a d{self.sides} never shows {self.threshold}")

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}>={self.threshold}"

    @property
    def dice_count(self) -> int:
        return self.count

    def plan(self) -> Plan:
        low = self.count if self.threshold == 1 else 0
        shape = Shape(low, self.count, self.count + 1, self.count * self.sides.bit_length())
        n, face_bits = self.count, self.sides.bit_length()
        each = comb_cost(n) + 2 * pow_cost(face_bits, n) + 2 * mul_cost(n, shape.bits)  # C(n, k) h^k m^(n-k)
        return (n + 1) * each + weights_cost(shape.count, shape.bits), shape

    def _dist(self) -> Dist:
        return count_successes(self.count, self.sides, self.threshold)

    def roll(self, source: DiceSource) -> RollResult:
        dice = []
        for _ in range(self.count):
            face = source.roll(self.sides)
            dice.append(DieRoll(self.sides, face, face >= self.threshold))
        return RollResult(str(self), tuple(dice), sum(d.kept for d in dice))


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

    def _groups(self) -> tuple[int, list[tuple[DiceExpr, int, int]]]:
        """(sum of the constants, [(one die or term, sign, how many times)]): identical dice and terms
        are gathered, so ``1d100+1d100+...`` costs what ``154d100`` does (a sum by squaring)."""
        offset = 0
        counts: dict[tuple[DiceExpr, int], int] = {}
        for t, s in zip(self.terms, self.signs):
            if isinstance(t, Constant):
                offset += s * t.value
                continue
            one, n = t.split()
            counts[(one, s)] = counts.get((one, s), 0) + n
        return offset, [(one, s, n) for (one, s), n in counts.items()]

    def plan(self) -> Plan:
        offset, groups = self._groups()
        work, parts = 0, []
        for one, sign, n in groups:
            w, shape = one.plan()
            w2, shape = repeat_cost(shape, n) if n > 1 else (0, shape)
            work += w + w2
            parts.append(shape if sign > 0 else shape.negated())
        if not parts:
            return work, Shape(offset, offset, 1, 1)
        w, shape = sum_cost(parts)
        shift = weights_cost(shape.count, shape.bits) if offset else 0  # the constant: a new Dist
        return work + w + shift, shape.shifted(offset)

    def _dist(self) -> Dist:
        offset, groups = self._groups()
        parts: list[Dist] = []
        for one, sign, n in groups:
            d = one._dist()
            if n > 1:
                d = d.repeat_sum(n)
            parts.append(d if sign > 0 else -d)
        if not parts:
            return Dist.constant(offset)
        return sum_dists(parts) + offset

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


def sum_dists(parts: Sequence[Dist]) -> Dist:
    """Add independent int distributions, always the two narrowest first (the order ``cost.sum_cost``
    prices): every intermediate distribution stays as small as it can be."""
    if len(parts) == 1:
        return parts[0]
    heap = [(d.max() - d.min(), i, d) for i, d in enumerate(parts)]
    heapq.heapify(heap)
    counter = len(heap)
    while len(heap) > 1:
        _, _, a = heapq.heappop(heap)
        _, _, b = heapq.heappop(heap)
        c = a + b
        heapq.heappush(heap, (c.max() - c.min(), counter, c))
        counter += 1
    return heap[0][2]


def sum_of(terms: Sequence[DiceExpr], signs: Sequence[int] | None = None) -> DiceExpr:
    """Join terms into a :class:`Sum` (a lone positive term is returned as it is)."""
    signs = tuple(signs) if signs is not None else (1,) * len(terms)
    if len(terms) == 1 and signs[0] == 1:
        return terms[0]
    return Sum(tuple(terms), signs)
