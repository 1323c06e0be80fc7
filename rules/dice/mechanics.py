"""The mechanics the game systems use, each computed in closed form, in one importable place.

The heavier ones live in their own modules (``keep``, ``successes``, ``heimr``, ``rollunder``) and are
re-exported here; the small ones (opposed rolls, natural overrides, location dice, exploding sums)
are defined below.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from ..values import is_whole
from .distribution import Dist, compare
from .errors import check_work
from .heimr import heimr_challenge
from .keep import advantage, disadvantage, keep, keep_highest, keep_lowest
from .rollunder import RollUnder, Verdict, contest, roll_under
from .successes import EXPLOSION_TAIL, count_successes, fumble_probability, pool_outcomes

__all__ = [
    "EXPLODE_DEPTH", "EXPLOSION_TAIL", "NaturalsCheck", "RollUnder", "Verdict", "advantage",
    "compare", "contest", "count_successes", "disadvantage", "explode", "face_counts",
    "fumble_probability", "heimr_challenge", "keep", "keep_highest", "keep_lowest",
    "location_tally", "nat_override", "opposed", "p_success_with_naturals", "pool_outcomes",
    "roll_under",
]

#: How many times one die of an exploding sum (``d6!``) may re-roll; icepool's default too.
EXPLODE_DEPTH = 9


def opposed(a: Dist, b: Dist) -> Dist:
    """The distribution of a - b for independent a, b: the winner's margin in an opposed roll.

    NUGGET reads successes this way (more successes wins, the difference is how decisive);
    ``opposed(a, b).p_gt(0)`` is P(a wins).  For win/tie/lose only, see :func:`compare`.
    """
    return a - b


@dataclass(frozen=True)
class NaturalsCheck:
    """A meet-or-beat check where some natural faces succeed or fail whatever the target.

    ``die`` is the distribution of the kept natural face (a d6, or ``advantage(d6)``); the modifier is
    added to the face for the comparison, never to the natural face itself.
    """

    die: Dist
    auto_success_face: int | None = 6
    auto_failure_face: int | None = 1

    def succeeds(self, face: int, target: int, modifier: int = 0) -> bool:
        if face == self.auto_success_face:
            return True
        if face == self.auto_failure_face:
            return False
        return face + modifier >= target

    def p_success(self, target: int, modifier: int = 0) -> Fraction:
        """P(success) against ``target``."""
        return self.die.p_where(lambda face: self.succeeds(face, target, modifier))

    def success_dist(self, target: int, modifier: int = 0) -> Dist:
        """The distribution of success as ``True`` / ``False``."""
        return self.die.map(lambda face: self.succeeds(face, target, modifier))


def nat_override(d: Dist, auto_success_face: int | None = 6,
                 auto_failure_face: int | None = 1) -> NaturalsCheck:
    """Wrap a die so "a natural 6 always succeeds, a natural 1 always fails" (DnDalike saves, hits)."""
    return NaturalsCheck(d, auto_success_face, auto_failure_face)


def p_success_with_naturals(d: Dist, target: int, *, auto_success_face: int | None = 6,
                            auto_failure_face: int | None = 1, modifier: int = 0) -> Fraction:
    """P(face + modifier >= target, or a natural success face, and not a natural failure face)."""
    return NaturalsCheck(d, auto_success_face, auto_failure_face).p_success(target, modifier)


def face_counts(n: int, sides: int) -> Dist:
    """How many of ``n`` dice show each face: a Dist over tuples (count of 1s, count of 2s, ...).

    Multinomial weights n! / (c1! c2! ...) over sides ** n.  Nemron's area damage rolls one location
    die per point; ``face_counts(4, 6)`` gives every tally of four location dice.  Cached.
    """
    if not is_whole(n) or n < 0:
        raise ValueError(f"n must be a whole number >= 0, not {n!r}")
    if not is_whole(sides) or sides < 1:
        raise ValueError(f"sides must be a whole number >= 1, not {sides!r}")
    return _face_counts(n, sides)


@lru_cache(maxsize=256)
def _face_counts(n: int, sides: int) -> Dist:
    check_work(comb(n + sides - 1, sides - 1) * sides, f"face counts of {n}d{sides}")
    # Grow the tallies one face at a time: (tally so far, dice left, ways = product of binomials).
    # Lexicographic order falls out of the loops, so no sort is needed.
    binom = [[comb(r, c) for c in range(r + 1)] for r in range(n + 1)]
    level: list[tuple[tuple[int, ...], int, int]] = [((), n, 1)]
    for _ in range(sides - 1):
        level = [((*prefix, c), left - c, ways * row[c])
                 for prefix, left, ways in level for row in (binom[left],) for c in range(left + 1)]
    return Dist._new([(*prefix, left) for prefix, left, _ in level], [ways for _, _, ways in level])


def location_tally(n: int, sides: int, face: int) -> Dist:
    """How many of ``n`` dice show ``face`` (binomial): e.g. hits to the torso from 4 AOE dice."""
    if not 1 <= face <= sides:
        raise ValueError(f"face {face} is not on a d{sides}")
    if not is_whole(n) or n < 0:
        raise ValueError(f"n must be a whole number >= 0, not {n!r}")
    return Dist._new(range(n + 1), [comb(n, k) * (sides - 1) ** (n - k) for k in range(n + 1)])


def explode(sides: int, depth: int = EXPLODE_DEPTH) -> Dist:
    """One exploding die: a maximum face is re-rolled and added, at most ``depth`` times.

    Depth rule: the original roll plus at most ``depth`` re-rolls; the last allowed re-roll is added
    as rolled even when it shows the maximum (icepool's ``explode(depth=...)`` does the same).  So
    the distribution is exact for that rule, and differs from unlimited explosions only with
    probability sides ** -(depth + 1).  ``NdS!`` is ``explode(S).repeat_sum(N)``.
    """
    if not is_whole(sides) or sides < 2:
        raise ValueError(f"an exploding die needs at least 2 sides, not {sides!r}")
    if not is_whole(depth) or depth < 0:
        raise ValueError(f"depth must be a whole number >= 0, not {depth!r}")
    return _explode(sides, depth)


@lru_cache(maxsize=256)
def _explode(sides: int, depth: int) -> Dist:
    check_work(sides * (depth + 1), f"exploding d{sides}")
    weights: dict[int, int] = {}
    for j in range(depth):  # j maxima, then a face below the maximum: weight sides ** (depth - j)
        scale = sides ** (depth - j)
        for face in range(1, sides):
            weights[j * sides + face] = scale
    for face in range(1, sides + 1):  # ``depth`` maxima, then the last roll, added as it falls
        weights[depth * sides + face] = 1
    return Dist._from_int_dict(weights)
