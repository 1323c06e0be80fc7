"""Keep-highest / keep-lowest: mixed pools (the highest of 1d6 and 1d10), advantage, ``4d6kh3``.

Keeping one die of independent dice needs no enumeration: P(max <= x) is the product of the dice's
CDFs at x (and P(min >= x) the product of their survival functions).  Keeping k of n identical dice is
an order-statistics dynamic programme over faces (how many dice show each face, weighted by binomial
coefficients), which costs a polynomial in (sides, k), never sides ** n.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from math import comb, prod
from typing import Any

from ..values import is_whole
from .distribution import Dist, _sorted_outcomes
from .errors import PY_STEP, check_work


def _dists(dists: Iterable[Dist]) -> tuple[Dist, ...]:
    out = tuple(dists)
    if not out:
        raise ValueError("keeping a die needs at least one die in the pool")
    for d in out:
        if not isinstance(d, Dist):
            raise TypeError(f"a pool holds Dist objects, not {type(d).__name__}")
    return out


def keep_highest(dists: Sequence[Dist]) -> Dist:
    """The highest of independent dice: P(max <= x) = product of P(d_i <= x) (cached)."""
    return _keep_highest(_dists(dists))


def keep_lowest(dists: Sequence[Dist]) -> Dist:
    """The lowest of independent dice: P(min >= x) = product of P(d_i >= x) (cached)."""
    return _keep_lowest(_dists(dists))


# One distinct die of a pool: (its outcomes, its cumulative weights, its total weight, how many of it).
_Group = tuple[tuple[Any, ...], list[int], int, int]


def _groups(dists: tuple[Dist, ...]) -> list[_Group]:
    """(outcomes, cumulative weights, total, how many) per distinct die: identical dice share one
    power per outcome, so a pool of 999 d10000 costs no more than one d10000."""
    if len(dists) <= 6:  # small pools: grouping would cost more than it saves
        return [(d._outcomes, d._cum or d._cumulative(), d._total, 1) for d in dists]
    counts: dict[Dist, int] = {}
    for d in dists:
        counts[d] = counts.get(d, 0) + 1
    return [(d._outcomes, d._cumulative(), d._total, c) for d, c in counts.items()]


def _union(groups: list[_Group]) -> list[Any]:
    return _sorted_outcomes(set().union(*(g[0] for g in groups)))


def _contiguous(groups: list[_Group]) -> tuple[int, int] | None:
    """(lowest, highest) when every die has the int outcomes lo..hi without gaps (true of real dice)."""
    low: int | None = None
    high: int | None = None
    for outcomes, _, _, _ in groups:
        lo, hi = outcomes[0], outcomes[-1]
        if type(lo) is not int or type(hi) is not int or hi - lo + 1 != len(outcomes):
            return None
        if low is None or lo < low:
            low = lo
        if high is None or hi > high:
            high = hi
    return None if low is None or high is None else (low, high)


def _dense_columns(groups: list[_Group], low: int, high: int, survival: bool) -> list[list[int]]:
    """The CDF (or survival) weight of each die at every x in low..high, built by list slicing."""
    columns = []
    for outcomes, cum, total, count in groups:
        lo, hi = outcomes[0], outcomes[-1]
        if survival:  # weight of this die >= x
            col = [total] * (lo - low) + [total - c for c in cum[:-1]] + [0] * (high - hi)
        else:  # weight of this die <= x
            col = [0] * (lo - low) + cum[1:] + [total] * (high - hi)
        columns.append([c ** count for c in col] if count > 1 else col)
    return columns


@lru_cache(maxsize=8192)
def _keep_highest(dists: tuple[Dist, ...]) -> Dist:
    if len(dists) == 1:
        return dists[0]
    groups = _groups(dists)
    span = _contiguous(groups)
    if span:
        xs = range(span[0], span[1] + 1)
        check_work(len(xs) * len(groups) * (1 + len(dists) // 16) * 2 * PY_STEP, "keep highest")
        products = list(map(prod, zip(*_dense_columns(groups, *span, survival=False))))
        weights = [products[0]] + [b - a for a, b in pairwise(products)]
        return Dist._new(xs, weights)
    points = _union(groups)
    check_work(len(points) * len(groups) * (1 + len(dists) // 16) * 2 * PY_STEP, "keep highest")
    # Column per distinct die: its CDF weight at every x, raised to its multiplicity.
    columns = [[cum[bisect_right(outcomes, x)] ** count for x in points] if count > 1
               else [cum[bisect_right(outcomes, x)] for x in points]
               for outcomes, cum, _, count in groups]
    products = [prod(row) for row in zip(*columns)]
    weights = [products[0]] + [b - a for a, b in pairwise(products)]
    return Dist._new(points, weights)


@lru_cache(maxsize=8192)
def _keep_lowest(dists: tuple[Dist, ...]) -> Dist:
    if len(dists) == 1:
        return dists[0]
    groups = _groups(dists)
    span = _contiguous(groups)
    if span:
        xs = range(span[0], span[1] + 1)
        check_work(len(xs) * len(groups) * (1 + len(dists) // 16) * 2 * PY_STEP, "keep lowest")
        survivals = list(map(prod, zip(*_dense_columns(groups, *span, survival=True))))
        weights = [a - b for a, b in pairwise(survivals)] + [survivals[-1]]
        return Dist._new(xs, weights)
    points = _union(groups)
    check_work(len(points) * len(groups) * (1 + len(dists) // 16) * 2 * PY_STEP, "keep lowest")
    columns = [[(total - cum[bisect_left(outcomes, x)]) ** count for x in points] if count > 1
               else [total - cum[bisect_left(outcomes, x)] for x in points]
               for outcomes, cum, total, count in groups]
    survivals = [prod(row) for row in zip(*columns)]  # weight of min >= x
    weights = [a - b for a, b in pairwise(survivals)] + [survivals[-1]]
    return Dist._new(points, weights)


def advantage(d: Dist) -> Dist:
    """Roll twice, keep the higher."""
    return keep_highest((d, d))


def disadvantage(d: Dist) -> Dist:
    """Roll twice, keep the lower."""
    return keep_lowest((d, d))


def keep(n_dice: int, sides: int, keep: int, highest: bool = True) -> Dist:
    """The sum of the ``keep`` highest (or lowest) of ``n_dice`` dice with ``sides`` sides: ``4d6kh3``.

    Exact, by a dynamic programme over faces whose state is (dice placed so far, kept sum so far);
    once ``keep`` dice are placed the rest are counted in closed form.  Cached.
    """
    for name, value, low in (("n_dice", n_dice, 0), ("sides", sides, 1), ("keep", keep, 0)):
        if not is_whole(value) or value < low:
            raise ValueError(f"keep(): {name} must be a whole number >= {low}, not {value!r}")
    return _keep(n_dice, sides, min(keep, n_dice), bool(highest))


def keep_work(n: int, sides: int, k: int) -> int:
    """An operation estimate for :func:`keep`: (state, transition) pairs times the big-integer size."""
    pairs = sides * (sides * k ** 3 // 6 + k * k)
    bits = n * max(sides, 2).bit_length()
    return PY_STEP * pairs * (1 + bits // 2000) + n  # one Python step per (state, transition) pair


@lru_cache(maxsize=1024)
def _keep(n: int, sides: int, k: int, highest: bool) -> Dist:
    if k == 0:
        return Dist.constant(0)
    if k == n:
        return Dist.die(sides).repeat_sum(n)
    check_work(keep_work(n, sides, k), f"keep {k} of {n}d{sides}")
    binom = [[comb(r, j) for j in range(min(r, k) + 1)] for r in range(n + 1)]
    # Faces in the order they are kept.  by_used[u] maps the kept sum so far to its weight, for
    # configurations that have placed u < k dice on the faces seen so far.
    faces = range(sides, 0, -1) if highest else range(1, sides + 1)
    by_used: list[dict[int, int]] = [{0: 1}] + [{} for _ in range(k - 1)]
    final: dict[int, int] = {}
    for f in faces:
        rest = f - 1 if highest else sides - f  # faces left for the dice not yet placed
        power = [1]
        for _ in range(n):
            power.append(power[-1] * rest)
        new: list[dict[int, int]] = [{} for _ in range(k)]
        for used, states in enumerate(by_used):
            if not states:
                continue
            r, need = n - used, k - used
            row = binom[r]
            # j < need dice on this face: the rest continue to later faces (only if there are any).
            partial = sum(row[j] * power[r - j] for j in range(need))
            done = (rest + 1) ** r - partial  # j >= need: this face completes the kept dice
            step = need * f
            for total, weight in states.items():
                s = total + step
                final[s] = final.get(s, 0) + weight * done
            if rest:
                for j in range(need):
                    ways, target, shift = row[j], new[used + j], j * f
                    for total, weight in states.items():
                        t = total + shift
                        target[t] = target.get(t, 0) + weight * ways
        by_used = new
    return Dist._from_int_dict(final)
