"""Odds tables for any distribution: what ``node:odds`` prints, computed by the engine.

A distribution is anything with the ``rules.dice.Dist`` query methods (``p``, ``p_ge``, ``p_le``,
``items``); pools from a system's own notation and plain dice notation both end up here.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.dice import Dist
from rules.tables import Table


def _as_dist(pool: Any) -> Any:
    """Accept a distribution or a dice expression (anything with ``.dist()``)."""
    return pool.dist() if hasattr(pool, "dist") and not hasattr(pool, "p_ge") else pool


def at_least_table(pool: Any, targets: Iterable[int], title: str = "", target_name: str = "DC") -> Table:
    """P(result >= DC) for each DC: the chance to beat a difficulty; the first column is headed with
    the game's own name for the number to reach (``Registry.target_name``)."""
    dist = _as_dist(pool)
    rows = [(dc, Fraction(dist.p_ge(dc))) for dc in targets]
    return Table.of((target_name, "P(success)"), rows, title, probabilities=("P(success)",))


def at_most_table(pool: Any, targets: Iterable[int], title: str = "", target_name: str = "Target") -> Table:
    """P(result <= target) for each target number: roll-under odds (the column named as the game names it)."""
    dist = _as_dist(pool)
    rows = [(tn, Fraction(dist.p_le(tn))) for tn in targets]
    return Table.of((target_name, "P(success)"), rows, title, probabilities=("P(success)",))


#: The cumulative column of a distribution table: the chance of a result or more (a roll that must
#: reach a number), or of a result or less (a roll-under game's, where low is good).
AT_LEAST_COLUMN, AT_MOST_COLUMN = "P(>= result)", "P(<= result)"


def distribution_table(pool: Any, title: str = "", fold: Fold | None = None, *, under: bool = False) -> Table:
    """Every outcome with P(= x) and P(>= x), or P(<= x) when the game rolls ``under``; with ``fold``
    (see :func:`fold_tails`), the outcomes before ``fold.low`` on one row ``"≤ x"`` and those from
    ``fold.high`` on one row ``"≥ y"``, each with the exact sum of what it folds."""
    dist = _as_dist(pool)
    if fold is None:
        cumulative = dist.p_le if under else dist.p_ge
        rows = [(outcome, Fraction(p), Fraction(cumulative(outcome))) for outcome, p in dist.items()]
    else:
        rows = folded_rows(dist, fold, under=under)
    column = AT_MOST_COLUMN if under else AT_LEAST_COLUMN
    return Table.of(("Result", "P(= result)", column), rows, title, probabilities=("P(= result)", column))


#: A tail of a distribution less likely than this, all of it together, is negligible: one roll in two
#: thousand, a chance the table would print as "<0.1%" anyway.
NEGLIGIBLE = Fraction(1, 2000)
#: A table of at most this many outcomes is never folded: it fits a screen or two as it is.
SHORT = 40
#: The most outcomes a folded table shows on rows of their own: a reader scans about this many.
ROW_LIMIT = 120
#: Marks of a folded row: "≤ 297" holds every outcome up to 297, "≥ 403" every one from 403.
AT_MOST, AT_LEAST = "\N{LESS-THAN OR EQUAL TO}", "\N{GREATER-THAN OR EQUAL TO}"


class FoldError(ValueError):
    """A folding rule with bounds that cannot work (a negative limit, a threshold of 1 or more...)."""


@dataclass(frozen=True)
class Fold:
    """Which outcomes of a distribution (in order) a table shows on rows of their own.

    ``outcomes[low:high]`` get a row each; ``outcomes[:low]`` fold into one row and
    ``outcomes[high:]`` into another.  Nothing is dropped: a folded row carries the exact sum.
    """

    low: int
    high: int
    count: int

    @property
    def folded(self) -> bool:
        return self.low > 0 or self.high < self.count


def fold_tails(pool: Any, *, negligible: Fraction = NEGLIGIBLE, short: int = SHORT,
               limit: int | None = ROW_LIMIT) -> Fold:
    """The outcomes a long table shows on rows of their own; the rest fold into two tail rows.

    1. A table of at most ``short`` outcomes is shown whole.
    2. A negligible tail folds: the most outcomes at either end whose total chance is less than
       ``negligible`` (1/2000: it prints as "<0.1%") become one row (only when that row replaces two or more).
    3. At most ``limit`` outcomes keep rows of their own: when more remain, the ``limit`` consecutive
       outcomes with the greatest total chance stay (of equal windows, the one nearest the middle)
       and the tails fold, however likely they are.

    A folded row always replaces two or more outcomes: a tail of one outcome keeps its own row.
    """
    if not isinstance(negligible, (int, Fraction)) or not 0 <= negligible < Fraction(1, 2):
        raise FoldError(f"the negligible chance must be a Fraction from 0 to under 1/2, not {negligible!r}")
    if isinstance(short, bool) or not isinstance(short, int) or short < 0:
        raise FoldError(f"short must be a whole number of at least 0, not {short!r}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise FoldError(f"the row limit must be a whole number of at least 1, not {limit!r}")
    cumulative = _cumulative_weights(_as_dist(pool))  # cumulative[k]: the weight of the first k outcomes
    count = len(cumulative) - 1
    if count <= short:
        return Fold(0, count, count)
    total = cumulative[-1]
    # a tail of weight w is negligible when w / total < n / d, that is w < ceil(n * total / d): exact
    bound = Fraction(negligible)
    under = -(-bound.numerator * total // bound.denominator)
    low = bisect_left(cumulative, under) - 1  # the most outcomes from the bottom weighing under it
    high = bisect_right(cumulative, total - under)  # the first outcome of the longest such top tail
    low, high = (low if low >= 2 else 0), (high if count - high >= 2 else count)
    if limit is not None and high - low > limit:
        start = _likeliest_window(cumulative, limit)
        low = start if start >= 2 else 0
        high = start + limit if count - start - limit >= 2 else count
    return Fold(low, high, count)


def _likeliest_window(cumulative: Sequence[int], limit: int) -> int:
    """The first outcome of the ``limit`` consecutive outcomes with the greatest total chance; of equal
    windows, the one whose start is nearest the middle (the lower one when two are as near)."""
    count = len(cumulative) - 1
    masses = [b - a for a, b in zip(cumulative, cumulative[limit:])]
    best = max(masses)
    starts = [i for i, mass in enumerate(masses) if mass == best]  # in order
    middle = (count - limit) // 2
    after = bisect_left(starts, middle)  # starts[after - 1] < middle <= starts[after]
    near = starts[max(after - 1, 0):after + 1]
    return min(near, key=lambda i: abs(i - middle))


def _cumulative_weights(dist: Any) -> Sequence[int]:
    """The distribution's weights summed in outcome order (whole numbers over one common denominator)."""
    if not isinstance(dist, Dist):
        raise FoldError(f"only a distribution's table folds, not a {type(dist).__name__}")
    return dist.cumulative_weights()


def folded_rows(pool: Any, fold: Fold, *, under: bool = False) -> list[tuple[Any, Fraction, Fraction]]:
    """(outcome, P(= x), P(>= x)) rows with ``fold``'s tails as ``("≤ x", P(<= x), 1)`` and
    ``("≥ y", P(>= y), P(>= y))``; rolling ``under``, (outcome, P(= x), P(<= x)) rows with the tails
    ``("≤ x", P(<= x), P(<= x))`` and ``("≥ y", P(>= y), 1)``."""
    dist = _as_dist(pool)
    outcomes = dist.support()
    if fold.count != len(outcomes):
        raise FoldError(f"the fold is for {fold.count} outcomes, the distribution has {len(outcomes)}")
    rows: list[tuple[Any, Fraction, Fraction]] = []
    if fold.low:
        last = outcomes[fold.low - 1]
        p_le = dist.p_le(last)
        rows.append((f"{AT_MOST} {last}", p_le, p_le if under else Fraction(1)))
    cumulative = dist.p_le if under else dist.p_ge
    rows.extend((x, dist.p(x), cumulative(x)) for x in outcomes[fold.low:fold.high])
    if fold.high < fold.count:
        first = outcomes[fold.high]
        p_ge = dist.p_ge(first)
        rows.append((f"{AT_LEAST} {first}", p_ge, Fraction(1) if under else p_ge))
    return rows


#: The most bars a chart draws: two units each of the page's 600-unit-wide chart, a bar a reader can
#: point at; a longer distribution's outcomes share bars (:func:`chart_bins`).
CHART_BARS = 300


class BinError(ValueError):
    """A chart binning that cannot work (no bar, a fold of another distribution...)."""


@dataclass(frozen=True)
class Bin:
    """One bar of a chart: ``count`` consecutive outcomes, ``first`` to ``last``, and their summed
    chance, exactly ``weight / denominator``."""

    first: Any
    last: Any
    count: int
    weight: int
    denominator: int

    @property
    def p(self) -> Fraction:
        return Fraction(self.weight, self.denominator)


def chart_bins(pool: Any, fold: Fold | None = None, *, bars: int = CHART_BARS) -> list[Bin]:
    """The bars of a chart of ``pool``'s outcomes (those ``fold`` keeps on rows of their own, else all).

    1. At most ``bars`` outcomes: one bar each.
    2. More: ``size = ceil(n / bars)`` consecutive outcomes share a bar, counted from the first; the
       last bar holds what is left (fewer, so it may be lower).
    3. A bar's chance is the exact sum of its outcomes' chances, so the bars add up to the chance of
       what the chart covers, and a chart of 10,000 outcomes is a few hundred numbers.
    """
    if isinstance(bars, bool) or not isinstance(bars, int) or bars < 1:
        raise BinError(f"a chart needs a whole number of bars of at least 1, not {bars!r}")
    dist = _as_dist(pool)
    cumulative = _cumulative_weights(dist)
    outcomes = dist.support()
    low, high = 0, len(outcomes)
    if fold is not None:
        if fold.count != len(outcomes):
            raise BinError(f"the fold is for {fold.count} outcomes, the distribution has {len(outcomes)}")
        low, high = fold.low, fold.high
    count = high - low
    if not count:
        return []
    size = -(-count // bars)
    total = dist.denominator
    return [Bin(outcomes[start], outcomes[stop - 1], stop - start, cumulative[stop] - cumulative[start], total)
            for start, stop in ((s, min(s + size, high)) for s in range(low, high, size))]
