"""Dice challenges: Heimr's one resolution roll, 1d6 plus as many d10s as the consistency says.

A challenge has a *consistency* C (how reliable the roller is) and a *potential* P (a flat bonus).
The d6 is always rolled; ``|C|`` d10s join it.  With positive consistency the best die counts and
every extra 10 adds one; with negative consistency the worst die counts and every extra 1 takes one
away.  Everything here is exact: distributions are :class:`rules.dice.Dist` objects over Fractions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from rules.dice import DiceSource, DieRoll, Dist, RollResult
from rules.heimr.registry import REGISTRY, HeimrError
from rules.providers import Int
from rules.systems import SystemNotation
from rules.tables import Cell, Table
from rules.values import is_whole, require_whole

#: The die every challenge rolls, whatever the consistency.
BASE_DIE = 6
#: The die consistency adds, one per point.
CONSISTENCY_DIE = 10


@REGISTRY.rule("Heimr.Challenge.Consistency", "Consistency", "RU",
               values={"die": CONSISTENCY_DIE, "base_die": BASE_DIE})
def consistency_dice(consistency: int) -> int:
    """How many d10s join the d6: the size of the consistency, ``|C|``, whatever its sign."""
    return abs(require_whole(consistency, "consistency", error=HeimrError))


@REGISTRY.rule("Heimr.Challenge.RawScore", "Raw score", "RU")
def raw_score(consistency: int, d6: int, d10s: Sequence[int], *, d6_counts_as_one: bool = True) -> int:
    """The score of the dice alone, before potential.

    Positive consistency keeps the highest die and adds one for every 10 beyond the first; zero
    keeps the d6; negative keeps the lowest die and subtracts one for every 1 beyond the first
    (the d6 among them when ``d6_counts_as_one``).
    """
    n = consistency_dice(consistency)
    d10s = tuple(d10s)
    if len(d10s) != n:
        raise HeimrError(f"consistency {consistency} rolls {n} d10s, got {len(d10s)}: {d10s!r}")
    if not is_whole(d6) or not 1 <= d6 <= BASE_DIE:
        raise HeimrError(f"a d6 shows 1 to 6, not {d6!r}")
    for face in d10s:
        if not is_whole(face) or not 1 <= face <= CONSISTENCY_DIE:
            raise HeimrError(f"a d10 shows 1 to 10, not {face!r}")
    if consistency > 0:
        tens = d10s.count(CONSISTENCY_DIE)
        return max(d6, *d10s) + max(0, tens - 1)
    if consistency == 0:
        return d6
    ones = d10s.count(1) + (1 if d6_counts_as_one and d6 == 1 else 0)
    return min(d6, *d10s) - max(0, ones - 1)


@REGISTRY.rule("Heimr.Challenge.Potential", "Potential", "RU")
def apply_potential(raw: int, potential: int) -> int:
    """The result of a challenge: potential is a flat amount added to the raw score of the dice."""
    return (require_whole(raw, "raw score", error=HeimrError)
            + require_whole(potential, "potential", error=HeimrError))


@dataclass(frozen=True)
class ChallengeRoll:
    """One rolled challenge: the dice as they fell, the raw score and the result (raw + potential)."""

    consistency: int
    potential: int
    d6: int
    d10s: tuple[int, ...]
    raw: int
    result: int

    def meets(self, requirement: int) -> bool:
        """Whether this roll succeeds against ``requirement`` (see :func:`meets_requirement`)."""
        return meets_requirement(self.result, requirement)


@REGISTRY.rule("Heimr.Challenge.DiceChallenge", "Dice challenge", "RU",
               formula="raw + potential", dice="1d6 + |C|d10")
def roll_challenge(consistency: int, potential: int, source: DiceSource, *,
                   d6_counts_as_one: bool = True) -> ChallengeRoll:
    """Roll a challenge through ``source``: the d6 first, then the d10s, so scripts read in order."""
    n = consistency_dice(consistency)
    potential = require_whole(potential, "potential", error=HeimrError)
    d6 = source.roll(BASE_DIE)
    d10s = tuple(source.roll(CONSISTENCY_DIE) for _ in range(n))
    raw = raw_score(consistency, d6, d10s, d6_counts_as_one=d6_counts_as_one)
    return ChallengeRoll(consistency, potential, d6, d10s, raw, apply_potential(raw, potential))


#: A consistency beyond plus or minus this is refused: the rules use about -5..5, and the exact
#: weights grow as 10 ** C.
MAX_CONSISTENCY = 1000


def _positive_weights(n: int) -> dict[int, int]:
    """Integer weights over 6 * 10 ** n: split on how many d10s show 10 (binomial).

    With no 10 every d10 is uniform on 1..9 and the highest die is a product of CDFs; with t >= 1
    tens the raw score is 9 + t, whatever the d6 shows.
    """
    def at_most(x: int) -> int:  # configurations with every die <= x (no 10 among them)
        return int(min(x, BASE_DIE) * x ** n)

    weights = {x: at_most(x) - at_most(x - 1) for x in range(1, CONSISTENCY_DIE)}
    for tens in range(1, n + 1):
        weights[CONSISTENCY_DIE + tens - 1] = BASE_DIE * comb(n, tens) * 9 ** (n - tens)
    return weights


def _negative_weights(n: int, d6_counts_as_one: bool) -> dict[int, int]:
    """Integer weights over 6 * 10 ** n, the mirror image: split on how many dice show 1."""
    weights: dict[int, int] = {}
    if d6_counts_as_one:
        def at_least(x: int) -> int:  # no 1 anywhere and every die >= x
            return int(max(BASE_DIE + 1 - x, 0) * (CONSISTENCY_DIE + 1 - x) ** n)
        for x in range(2, BASE_DIE + 1):
            weights[x] = at_least(x) - at_least(x + 1)
        for ones in range(1, n + 2):  # the lowest is 1, minus one per 1 beyond the first
            d6_one = comb(n, ones - 1) * 9 ** (n - ones + 1)
            d6_other = (BASE_DIE - 1) * comb(n, ones) * 9 ** (n - ones) if ones <= n else 0
            weights[2 - ones] = d6_one + d6_other
        return weights

    def at_least_plain(x: int) -> int:  # no d10 shows 1 and every die >= x (the d6 may show 1)
        return int(max(BASE_DIE + 1 - x, 0) * min(CONSISTENCY_DIE + 1 - x, 9) ** n)
    for x in range(1, BASE_DIE + 1):
        weights[x] = at_least_plain(x) - at_least_plain(x + 1)
    for ones in range(1, n + 1):
        weights[2 - ones] = weights.get(2 - ones, 0) + BASE_DIE * comb(n, ones) * 9 ** (n - ones)
    return weights


@lru_cache(maxsize=512)
def _raw_distribution(consistency: int, d6_counts_as_one: bool) -> Dist:
    n = abs(consistency)  # at most MAX_CONSISTENCY: n big-integer powers, a fraction of a second
    if consistency > 0:
        return Dist.from_weights(_positive_weights(n))
    if consistency < 0:
        return Dist.from_weights(_negative_weights(n, d6_counts_as_one))
    return Dist.die(BASE_DIE)


def raw_distribution(consistency: int, *, d6_counts_as_one: bool = True) -> Dist:
    """The exact distribution of the raw score for ``consistency``.

    Closed forms, not enumeration, so large pools stay cheap: with positive consistency the chance
    of no 10 and a highest die of at most m is ``min(m, 6)/6 * (m/10)**C``; the number of 10s is
    binomial.  Negative consistency conditions on the number of 1s.  Cached per consistency.
    """
    n = consistency_dice(consistency)
    if n > MAX_CONSISTENCY:
        raise HeimrError(f"consistency must be within +-{MAX_CONSISTENCY}, not {consistency}")
    return _raw_distribution(consistency, bool(d6_counts_as_one))


def challenge_distribution(consistency: int, potential: int = 0, *, d6_counts_as_one: bool = True) -> Dist:
    """The exact distribution of a challenge's result: the raw score shifted by the potential."""
    potential = require_whole(potential, "potential", error=HeimrError)
    return raw_distribution(consistency, d6_counts_as_one=d6_counts_as_one) + potential


@REGISTRY.rule("Heimr.Challenge.Requirement", "Requirement", "RU")
def meets_requirement(result: int, requirement: int) -> bool:
    """A challenge succeeds when its result reaches the requirement: equal is enough."""
    return (require_whole(result, "result", error=HeimrError)
            >= require_whole(requirement, "requirement", error=HeimrError))


def success_probability(consistency: int, potential: int, requirement: int, *,
                        d6_counts_as_one: bool = True) -> Fraction:
    """The exact chance that a challenge reaches ``requirement``."""
    requirement = require_whole(requirement, "requirement", error=HeimrError)
    dist = challenge_distribution(consistency, potential, d6_counts_as_one=d6_counts_as_one)
    return Fraction(dist.p_ge(requirement))


@REGISTRY.rule("Heimr.Challenge.Opposed", "Opposed challenge", "RU")
def defender_holds(active: int, passive: int) -> bool:
    """In an opposed challenge the passive side's result is the requirement, so a tie goes to it."""
    return (require_whole(passive, "passive result", error=HeimrError)
            >= require_whole(active, "active result", error=HeimrError))


def opposed_probability(active: tuple[int, int], passive: tuple[int, int], *,
                        d6_counts_as_one: bool = True) -> Fraction:
    """The exact chance that the active side (C, P) beats the passive side (C, P) outright."""
    a = challenge_distribution(*active, d6_counts_as_one=d6_counts_as_one)
    b = challenge_distribution(*passive, d6_counts_as_one=d6_counts_as_one)
    return sum((pa * pb for x, pa in a.items() for y, pb in b.items() if x > y), Fraction(0))


_NOTATION = re.compile(r"\s*C\s*=?\s*(?P<c>[+-]?\d+)\s*(?:[,;]?\s*P\s*=?\s*(?P<p>[+-]?\d+))?\s*", re.I)


def _read_challenge(text: str) -> tuple[int, int]:
    match = _NOTATION.fullmatch(text) if isinstance(text, str) else None
    if not match:
        raise HeimrError(f"{text!r} is not a challenge such as 'C+3 P-1'")
    return int(match["c"]), int(match["p"] or 0)


def parse_challenge(text: str) -> Dist:
    """Read ``C+3 P-1`` (or ``C=3, P=2``, ``C-2``) as the distribution of that challenge.

    This is the system's own notation for odds tables in the book (``node:odds`` with ``:system: heimr``).
    """
    return challenge_distribution(*_read_challenge(text))


def roll_notation(text: str, source: DiceSource) -> RollResult:
    """Roll a challenge written as ``C+3 P-1``, every die shown, the kept one plain, the rest dropped."""
    consistency, potential = _read_challenge(text)
    roll = roll_challenge(consistency, potential, source)
    faces = (roll.d6, *roll.d10s)
    pick = max if consistency > 0 else min
    kept = faces.index(pick(faces)) if consistency else 0
    dice = tuple(DieRoll(BASE_DIE if i == 0 else CONSISTENCY_DIE, face, i == kept) for i, face in enumerate(faces))
    label = f"C{consistency:+d} P{potential:+d}"
    shown = "[" + ", ".join(str(d.face) if d.kept else f"({d.face})" for d in dice) + "]"
    return RollResult(label, dice, roll.result, f"{shown} raw {roll.raw} {potential:+d}")


REGISTRY.notation = SystemNotation(parse=parse_challenge, example="C+3 P-1", roll=roll_notation)


def _signed(n: int) -> str:
    return f"C {n:+d}" if n else "C 0"


@REGISTRY.table(lowest=Int(-10, 10), highest=Int(-10, 10), potential=Int(-10, 10))
def success_table(lowest: int = -3, highest: int = 5, potential: int = 0) -> Table:
    """P(raw + potential >= requirement) for each consistency from ``lowest`` to ``highest``."""
    columns = [_signed(c) for c in range(lowest, highest + 1)]
    dists = [challenge_distribution(c, potential) for c in range(lowest, highest + 1)]
    low = min(d.min() for d in dists) + 1
    high = max(d.max() for d in dists)
    rows: list[tuple[Cell, ...]] = [(req, *(Fraction(d.p_ge(req)) for d in dists)) for req in range(low, high + 1)]
    return Table.of(["Requirement", *columns], rows, title="Chance to reach a requirement",
                    probabilities=columns)


@REGISTRY.table(lowest=Int(-10, 10), highest=Int(-10, 10))
def raw_mean_table(lowest: int = -3, highest: int = 3) -> Table:
    """The average raw score per consistency, exact and rounded: note the jump from C 0 to C +1."""
    rows = []
    for c in range(lowest, highest + 1):
        mean = Fraction(raw_distribution(c).mean())
        rows.append((_signed(c), f"{float(mean):.3f}", f"{mean.numerator}/{mean.denominator}",
                     raw_distribution(c).min(), raw_distribution(c).max()))
    return Table.of(["Consistency", "Average raw", "Exact", "Lowest", "Highest"], rows,
                    title="Average raw score")


@REGISTRY.table()
def side_note_table() -> Table:
    """The source's two side notes on five-die pools, recomputed exactly."""
    high = Fraction(raw_distribution(5).p_ge(9))
    low = Fraction(raw_distribution(-5).p_le(2))
    rows = [("C +5: highest die 9 or 10", "67%", high, f"{high.numerator}/{high.denominator}"),
            ("C -5: lowest die 1 or 2", "89%", low, f"{low.numerator}/{low.denominator}")]
    return Table.of(["Event", "Source says", "Exact", "Fraction"], rows,
                    title="The source's side notes", probabilities=["Exact"])
