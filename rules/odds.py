"""Odds tables for any distribution: what ``node:odds`` prints, computed by the engine.

A distribution is anything with the ``rules.dice.Dist`` query methods (``p``, ``p_ge``, ``p_le``,
``items``); pools from a system's own notation and plain dice notation both end up here.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from rules.tables import Table


def _as_dist(pool: Any) -> Any:
    """Accept a distribution or a dice expression (anything with ``.dist()``)."""
    return pool.dist() if hasattr(pool, "dist") and not hasattr(pool, "p_ge") else pool


def at_least_table(pool: Any, targets: Iterable[int], title: str = "") -> Table:
    """P(result >= DC) for each DC: the chance to beat a difficulty."""
    dist = _as_dist(pool)
    rows = [(dc, Fraction(dist.p_ge(dc))) for dc in targets]
    return Table.of(("DC", "P(success)"), rows, title, probabilities=("P(success)",))


def at_most_table(pool: Any, targets: Iterable[int], title: str = "") -> Table:
    """P(result <= target) for each target number: roll-under odds."""
    dist = _as_dist(pool)
    rows = [(tn, Fraction(dist.p_le(tn))) for tn in targets]
    return Table.of(("Target", "P(success)"), rows, title, probabilities=("P(success)",))


def distribution_table(pool: Any, title: str = "") -> Table:
    """Every outcome with P(= x) and P(>= x)."""
    dist = _as_dist(pool)
    rows = [(outcome, Fraction(p), Fraction(dist.p_ge(outcome))) for outcome, p in dist.items()]
    return Table.of(("Result", "P(= result)", "P(>= result)"), rows, title,
                    probabilities=("P(= result)", "P(>= result)"))
