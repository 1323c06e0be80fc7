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
from math import comb

from rules.dice import DiceSource, Dist
from rules.heimr.registry import REGISTRY, HeimrError
from rules.providers import Int
from rules.tables import Cell, Table
from rules.values import is_whole

#: The die every challenge rolls, whatever the consistency.
BASE_DIE = 6
#: The die consistency adds, one per point.
CONSISTENCY_DIE = 10


class ChallengeError(HeimrError):
    """A dice challenge asked with impossible inputs (a non-integer consistency, a bad face...)."""


class ChallengeNotationError(ChallengeError):
    """Text that is not a challenge such as ``C+3 P-1``."""


def _check_int(value: object, what: str) -> int:
    if not is_whole(value):
        raise ChallengeError(f"{what} must be a whole number, not {value!r}")
    return value


@REGISTRY.rule("Heimr.Challenge.Consistency", "Consistency", "RU",
               values={"die": CONSISTENCY_DIE, "base_die": BASE_DIE})
def consistency_dice(consistency: int) -> int:
    """How many d10s join the d6: the size of the consistency, ``|C|``, whatever its sign."""
    return abs(_check_int(consistency, "consistency"))


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
        raise ChallengeError(f"consistency {consistency} rolls {n} d10s, got {len(d10s)}: {d10s!r}")
    if not is_whole(d6) or not 1 <= d6 <= BASE_DIE:
        raise ChallengeError(f"a d6 shows 1 to 6, not {d6!r}")
    for face in d10s:
        if not is_whole(face) or not 1 <= face <= CONSISTENCY_DIE:
            raise ChallengeError(f"a d10 shows 1 to 10, not {face!r}")
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
    return _check_int(raw, "raw score") + _check_int(potential, "potential")


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
    potential = _check_int(potential, "potential")
    d6 = source.roll(BASE_DIE)
    d10s = tuple(source.roll(CONSISTENCY_DIE) for _ in range(n))
    raw = raw_score(consistency, d6, d10s, d6_counts_as_one=d6_counts_as_one)
    return ChallengeRoll(consistency, potential, d6, d10s, raw, apply_potential(raw, potential))


def _binomial(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p ** k * (1 - p) ** (n - k)


def _positive_weights(n: int) -> dict[int, Fraction]:
    weights: dict[int, Fraction] = {}
    tenth = Fraction(1, CONSISTENCY_DIE)
    # no 10 at all: the highest of the d6 and n d10s that show 1..9
    previous = Fraction(0)
    for m in range(1, CONSISTENCY_DIE):
        at_most = Fraction(min(m, BASE_DIE), BASE_DIE) * Fraction(m, CONSISTENCY_DIE) ** n
        weights[m] = at_most - previous
        previous = at_most
    # k >= 1 tens: 10 plus one per extra 10
    for k in range(1, n + 1):
        weights[CONSISTENCY_DIE + k - 1] = _binomial(n, k, tenth)
    return weights


def _negative_weights(n: int, d6_counts_as_one: bool) -> dict[int, Fraction]:
    weights: dict[int, Fraction] = {}
    tenth = Fraction(1, CONSISTENCY_DIE)
    sixth = Fraction(1, BASE_DIE)

    def add(value: int, p: Fraction) -> None:
        weights[value] = weights.get(value, Fraction(0)) + p

    for face in range(1, BASE_DIE + 1):
        for ones in range(0, n + 1):
            p = sixth * _binomial(n, ones, tenth)
            if ones or face == 1:
                counted = ones + (1 if d6_counts_as_one and face == 1 else 0)
                add(1 - max(0, counted - 1), p)
                continue
            # no 1 anywhere: min(face, lowest of n d10s showing 2..10)
            for m in range(2, face + 1):
                at_least = Fraction(CONSISTENCY_DIE + 1 - m, CONSISTENCY_DIE - 1) ** n
                above = Fraction(CONSISTENCY_DIE - m, CONSISTENCY_DIE - 1) ** n
                add(m, p * (at_least if m == face else at_least - above))
    return {value: p for value, p in weights.items() if p}


def raw_distribution(consistency: int, *, d6_counts_as_one: bool = True) -> Dist:
    """The exact distribution of the raw score for ``consistency``.

    Closed forms, not enumeration, so large pools stay cheap: with positive consistency the chance
    of no 10 and a highest die of at most m is ``min(m, 6)/6 * (m/10)**C``; the number of 10s is
    binomial.  Negative consistency conditions on the d6 and the number of 1s.
    """
    n = consistency_dice(consistency)
    if consistency > 0:
        weights = _positive_weights(n)
    elif consistency == 0:
        weights = {face: Fraction(1, BASE_DIE) for face in range(1, BASE_DIE + 1)}
    else:
        weights = _negative_weights(n, d6_counts_as_one)
    return Dist.from_weights(weights)


def challenge_distribution(consistency: int, potential: int = 0, *, d6_counts_as_one: bool = True) -> Dist:
    """The exact distribution of a challenge's result: the raw score shifted by the potential."""
    potential = _check_int(potential, "potential")
    return raw_distribution(consistency, d6_counts_as_one=d6_counts_as_one) + potential


@REGISTRY.rule("Heimr.Challenge.Requirement", "Requirement", "RU")
def meets_requirement(result: int, requirement: int) -> bool:
    """A challenge succeeds when its result reaches the requirement: equal is enough."""
    return _check_int(result, "result") >= _check_int(requirement, "requirement")


def success_probability(consistency: int, potential: int, requirement: int, *,
                        d6_counts_as_one: bool = True) -> Fraction:
    """The exact chance that a challenge reaches ``requirement``."""
    requirement = _check_int(requirement, "requirement")
    dist = challenge_distribution(consistency, potential, d6_counts_as_one=d6_counts_as_one)
    return Fraction(dist.p_ge(requirement))


@REGISTRY.rule("Heimr.Challenge.Opposed", "Opposed challenge", "RU")
def defender_holds(active: int, passive: int) -> bool:
    """In an opposed challenge the passive side's result is the requirement, so a tie goes to it."""
    return _check_int(passive, "passive result") >= _check_int(active, "active result")


def opposed_probability(active: tuple[int, int], passive: tuple[int, int], *,
                        d6_counts_as_one: bool = True) -> Fraction:
    """The exact chance that the active side (C, P) beats the passive side (C, P) outright."""
    a = challenge_distribution(*active, d6_counts_as_one=d6_counts_as_one)
    b = challenge_distribution(*passive, d6_counts_as_one=d6_counts_as_one)
    return sum((pa * pb for x, pa in a.items() for y, pb in b.items() if x > y), Fraction(0))


_NOTATION = re.compile(r"\s*C\s*=?\s*(?P<c>[+-]?\d+)\s*(?:[,;]?\s*P\s*=?\s*(?P<p>[+-]?\d+))?\s*", re.I)


def parse_challenge(text: str) -> Dist:
    """Read ``C+3 P-1`` (or ``C=3, P=2``, ``C-2``) as the distribution of that challenge.

    This is the system's pool notation for odds tables in the book.
    """
    match = _NOTATION.fullmatch(text) if isinstance(text, str) else None
    if not match:
        raise ChallengeNotationError(f"{text!r} is not a challenge such as 'C+3 P-1'")
    return challenge_distribution(int(match["c"]), int(match["p"] or 0))


REGISTRY.pool_parser = parse_challenge


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
