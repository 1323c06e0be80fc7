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
from math import prod
from typing import Any

from ..values import is_whole
from .cost import DICT_STEP, PY_STEP, TRIVIAL_CDF_DICE, TRIVIAL_CDF_POINTS, mul_cost, pow_cost, weights_cost
from .distribution import Dist, _sorted_outcomes
from .errors import check_work, priced


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
    if len(dists) <= TRIVIAL_CDF_DICE:  # small pools: grouping would cost more than it saves
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


def _check_cdfs(points: int, groups: list[_Group], what: str, dice: int) -> None:
    """Price a product of CDFs of ``dice`` dice, unless it is trivial work by its size alone (a few
    dice, each its own group: a Nemron pool, advantage) or already priced as a whole expression."""
    top = max([g[2] for g in groups])
    if (dice <= TRIVIAL_CDF_DICE and points <= TRIVIAL_CDF_POINTS and top >> 64 == 0) or priced():
        return
    check_work(cdf_product_work(points, [g[3] for g in groups], top.bit_length()), what)


@lru_cache(maxsize=8192)
def _keep_highest(dists: tuple[Dist, ...]) -> Dist:
    if len(dists) == 1:
        return dists[0]
    groups = _groups(dists)
    span = _contiguous(groups)
    if span:
        xs = range(span[0], span[1] + 1)
        _check_cdfs(len(xs), groups, "keep highest", len(dists))
        products = list(map(prod, zip(*_dense_columns(groups, *span, survival=False))))
        weights = [products[0]] + [b - a for a, b in pairwise(products)]
        return Dist._new(xs, weights)
    points = _union(groups)
    _check_cdfs(len(points), groups, "keep highest", len(dists))
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
        _check_cdfs(len(xs), groups, "keep lowest", len(dists))
        survivals = list(map(prod, zip(*_dense_columns(groups, *span, survival=True))))
        weights = [a - b for a, b in pairwise(survivals)] + [survivals[-1]]
        return Dist._new(xs, weights)
    points = _union(groups)
    _check_cdfs(len(points), groups, "keep lowest", len(dists))
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
    once ``keep`` dice are placed the rest are counted in closed form.  Keeping one die is the product
    of CDFs (:func:`keep_highest`).  Cached.
    """
    for name, value, low in (("n_dice", n_dice, 0), ("sides", sides, 1), ("keep", keep, 0)):
        if not is_whole(value) or value < low:
            raise ValueError(f"keep(): {name} must be a whole number >= {low}, not {value!r}")
    return keep_of(Dist.die(sides), n_dice, keep, highest)


def keep_of(die: Dist, n_dice: int, keep: int, highest: bool = True) -> Dist:
    """The sum of the ``keep`` highest (or lowest) of ``n_dice`` independent copies of the int
    distribution ``die`` (a fair die, an exploding die, a rerolled die): ``2d10!kh1``, ``4d6r1kh3``.

    The same dynamic programme as :func:`keep`, each face weighted by its chance.  Cached.
    """
    keep = min(keep, n_dice)
    if keep == 0:
        return Dist.constant(0)
    if keep == n_dice:
        return die.repeat_sum(n_dice)
    if keep == 1:
        return (keep_highest if highest else keep_lowest)((die,) * n_dice)
    return _keep(die, n_dice, keep, bool(highest))


def _digits(bits: int) -> int:
    return bits // 30 + 1


def cdf_product_work(points: int, counts: Sequence[int], bits: int) -> int:
    """Work units of :func:`keep_highest` / :func:`keep_lowest`: at each of ``points`` outcomes, every
    distinct die's CDF weight (of ``bits`` bits) raised to its multiplicity, multiplied together,
    and the differences taken."""
    total_bits = bits * sum(counts)
    per_point = PY_STEP * len(counts) if max(counts) == 1 else \
        sum(pow_cost(bits, c) if c > 1 else PY_STEP for c in counts)
    per_point += len(counts) * mul_cost(total_bits, bits) + 2 * PY_STEP + _digits(total_bits)
    return points * per_point + weights_cost(points, total_bits)


def keep_work(n: int, faces: int, k: int, bits: int, gap: int = 1) -> int:
    """Work units of :func:`keep_of` for ``n`` dice with ``faces`` outcomes each of weight below
    ``2 ** bits`` (``gap``: how far apart neighbouring outcomes are at most), keeping ``k``.

    It counts the programme's steps exactly: before face ``i`` (0-based) the states holding ``u``
    placed dice have at most ``u * (i - 1) * gap + 1`` kept sums; each state moves to ``k - u`` next
    states (on every face but the last) and finishes once; each (face, u) sums ``k - u`` products.
    """
    if k >= n or k <= 1:
        return PY_STEP * n * faces
    s = faces
    t3 = gap * k * (k - 1) * (k + 1) // 6  # sum over u of u * (k - u), times the gap
    t2 = k * (k + 1) // 2  # sum over u of (k - u)
    moves = k + (t3 * (s - 2) * (s - 3) // 2 + t2 * (s - 2) if s > 2 else 0)
    finals = 1 + (gap * k * (k - 1) // 2 * (s - 1) * (s - 2) // 2 + k * (s - 1) if s > 1 else 0)
    partials = k + max(s - 2, 0) * t2  # on the last face the powers of what is left are 0
    big = n * bits  # a weight of the programme
    work = moves * (DICT_STEP + mul_cost(big, n)) + finals * (DICT_STEP + mul_cost(big, big))
    work += partials * mul_cost(n, big) + (k + (s - 1) * t2) * 4 * PY_STEP + s * k * (pow_cost(bits, n) + 4 * PY_STEP)
    work += s * n * (PY_STEP + mul_cost(big, bits)) + k * k * (3 * PY_STEP + _digits(n))  # powers per face, binomials
    return work + weights_cost(k * s * gap, big)


def die_keep_work(die_faces: int, span: int, bits: int, n: int, k: int) -> int:
    """:func:`keep_work` or :func:`cdf_product_work`, whichever :func:`keep_of` runs."""
    if k == 1 and n > 1:
        return cdf_product_work(span, [n] if n > 6 else [1] * n, bits)
    gap = -(-(span - 1) // max(die_faces - 1, 1)) if die_faces > 1 else 1
    return keep_work(n, die_faces, k, bits, max(gap, 1))


def _binomial_rows(n: int, k: int) -> dict[int, list[int]]:
    """C(r, j) for j <= k of the rows r = n - k + 1 .. n the programme reads: the first by the
    multiplicative formula, the others by Pascal's rule (additions only; ``math.comb`` for each of
    n * k entries took seconds for ``1000d2kh500``)."""
    first = max(n - k + 1, 0)
    row = [1]
    for j in range(min(first, k)):
        row.append(row[-1] * (first - j) // (j + 1))
    rows = {first: row}
    for r in range(first + 1, n + 1):
        prev = rows[r - 1]
        row = [1] + [prev[j] + prev[j - 1] for j in range(1, len(prev))]
        if len(row) <= k:
            row.append(1)
        rows[r] = row
    return rows


@lru_cache(maxsize=1024)
def _keep(die: Dist, n: int, k: int, highest: bool) -> Dist:
    outcomes, weights = die._outcomes, die._weights
    span = outcomes[-1] - outcomes[0] + 1
    if not priced():
        check_work(die_keep_work(len(outcomes), span, die._total.bit_length(), n, k), f"keep {k} of {n} dice")
    binom = _binomial_rows(n, k)
    fair = all(w == 1 for w in weights)
    # Faces in the order they are kept.  by_used[u] maps the kept sum so far to its weight, for
    # configurations that have placed u < k dice on the faces seen so far.
    order = range(len(outcomes) - 1, -1, -1) if highest else range(len(outcomes))
    rest = die._total  # the weight of the faces not yet seen
    by_used: list[dict[int, int]] = [{0: 1}] + [{} for _ in range(k - 1)]
    final: dict[int, int] = {}
    for index in order:
        f, wf = outcomes[index], weights[index]
        rest -= wf  # now: the faces after this one
        power = [1]
        for _ in range(n):
            power.append(power[-1] * rest)
        wpow = [1] * k if fair else [wf ** j for j in range(k)]
        new: list[dict[int, int]] = [{} for _ in range(k)]
        for used, states in enumerate(by_used):
            if not states:
                continue
            r, need = n - used, k - used
            row = binom[r]
            # j < need dice on this face: the rest continue to later faces (only if there are any).
            ways_of = [row[j] * wpow[j] for j in range(need)]
            partial = sum(ways_of[j] * power[r - j] for j in range(need))
            done = (rest + wf) ** r - partial  # j >= need: this face completes the kept dice
            step = need * f
            for total, weight in states.items():
                s = total + step
                final[s] = final.get(s, 0) + weight * done
            if rest:
                for j in range(need):
                    ways, target, shift = ways_of[j], new[used + j], j * f
                    for total, weight in states.items():
                        t = total + shift
                        target[t] = target.get(t, 0) + weight * ways
        by_used = new
    return Dist._from_int_dict(final)
