"""Keep-highest / keep-lowest: Nemron pools, advantage, ``4d6kh3``.

Keeping one die of independent dice needs no enumeration: P(max <= x) is the product of the dice's
CDFs at x (and P(min >= x) the product of their survival functions).  Keeping k of n identical dice is
an order-statistics dynamic programme over faces (how many dice show each face, weighted by binomial
coefficients), which costs a polynomial in (sides, k), never sides ** n.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from math import comb
from typing import Iterable, Sequence

from .distribution import Dist, _sorted_outcomes
from .errors import check_work


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


@lru_cache(maxsize=8192)
def _keep_highest(dists: tuple[Dist, ...]) -> Dist:
    if len(dists) == 1:
        return dists[0]
    xs = _sorted_outcomes(set().union(*(d._outcomes for d in dists)))
    check_work(len(xs) * len(dists), "keep highest")
    cums = [(d._outcomes, d._cumulative()) for d in dists]
    products = []
    for x in xs:
        prod = 1
        for outcomes, cum in cums:
            prod *= cum[bisect_right(outcomes, x)]
        products.append(prod)
    weights = [products[0]] + [b - a for a, b in zip(products, products[1:])]
    return Dist._new(xs, weights)


@lru_cache(maxsize=8192)
def _keep_lowest(dists: tuple[Dist, ...]) -> Dist:
    if len(dists) == 1:
        return dists[0]
    xs = _sorted_outcomes(set().union(*(d._outcomes for d in dists)))
    check_work(len(xs) * len(dists), "keep lowest")
    tails = [(d._outcomes, d._cumulative(), d._total) for d in dists]
    survivals = []  # survivals[i] = weight of min >= xs[i]
    for x in xs:
        prod = 1
        for outcomes, cum, total in tails:
            prod *= total - cum[bisect_left(outcomes, x)]
        survivals.append(prod)
    weights = [a - b for a, b in zip(survivals, survivals[1:])] + [survivals[-1]]
    return Dist._new(xs, weights)


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
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"keep(): {name} must be a whole number >= {low}, not {value!r}")
    return _keep(n_dice, sides, min(keep, n_dice), bool(highest))


@lru_cache(maxsize=1024)
def _keep(n: int, sides: int, k: int, highest: bool) -> Dist:
    if k == 0:
        return Dist.constant(0)
    if k == n:
        return Dist.die(sides).repeat_sum(n)
    check_work(sides * k * k * (k * sides + 1) // 2 + n, f"keep {k} of {n}d{sides}")
    # Faces in the order they are kept; ``rest`` = how many faces are still available below/above.
    faces = range(sides, 0, -1) if highest else range(1, sides + 1)
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    final: dict[int, int] = {}
    for f in faces:
        rest = f - 1 if highest else sides - f  # faces left for the dice not yet placed
        new: dict[tuple[int, int], int] = {}
        for (used, total), weight in states.items():
            r = n - used
            need = k - used  # dice still to keep
            partial = 0  # sum over j < need of C(r, j) * rest ** (r - j)
            for j in range(min(need, r + 1)):
                ways = comb(r, j)
                partial += ways * rest ** (r - j)
                if rest:  # the placed dice may continue with lower faces
                    key = (used + j, total + j * f)
                    new[key] = new.get(key, 0) + weight * ways
            # j >= need: this face completes the kept dice; the others take any of the ``rest`` faces.
            ways_done = (rest + 1) ** r - partial
            if ways_done:
                s = total + need * f
                final[s] = final.get(s, 0) + weight * ways_done
        states = new
    return Dist._from_int_dict(final)
