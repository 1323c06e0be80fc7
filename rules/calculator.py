"""Exact odds of a typed dice expression: what ``rpg odds`` prints and the in-page calculator shows.

One implementation for both: the command line formats :func:`odds` (and :func:`roll`, for ``rpg roll``)
as text; the browser calculator (Pyodide, running this very package from the site's wheel) calls
:func:`answer_json` and :func:`roll_json` with the reader's text as *data*.  Either plain dice notation
(``rules.dice.parse``) or a game system's own notation (``REGISTRY.notation``, see :mod:`rules.systems`);
the engine's work bound (``rules.dice.cost``) refuses an expression too large before any of it is
computed, so every call answers or refuses at once.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rules.dice import DiceSource, Dist, RollResult, SeededSource, parse
from rules.odds import Fold, at_least_table, at_most_table, chart_bins, distribution_table, fold_tails, folded_rows
from rules.systems import SystemNotation, load_registry
from rules.tables import Table, percent

__all__ = ["CalculatorError", "Odds", "answer", "answer_json", "chart_bars", "distribution_of", "odds", "roll",
           "roll_json", "shown", "target"]

#: The longest text the calculator reads (the notation's own limit is lower; this one bounds the rest).
MAX_TEXT = 500


class CalculatorError(ValueError):
    """A question the calculator cannot answer: a system with no notation, both a DC and a target..."""


def _check_text(notation: object) -> None:
    """A question is text of bounded length: anything else is refused before any work."""
    if not isinstance(notation, str):
        raise CalculatorError(f"dice notation is text, not {notation!r}")
    if len(notation) > MAX_TEXT:
        raise CalculatorError(f"the notation is {len(notation)} characters long; the limit is {MAX_TEXT}")


def _notation_of(system: str) -> SystemNotation:
    """``system``'s own notation, refused when it registers none."""
    notation = load_registry(system).notation
    if notation is None:
        raise CalculatorError(f"system {system!r} registers no notation of its own")
    return notation


def distribution_of(notation: str, system: str | None = None) -> Dist:
    """The exact distribution of ``notation``: plain dice notation, or ``system``'s own.

    ``system`` is a bundled short name or an import path (:func:`rules.systems.load_registry`).
    Raises a ``ValueError`` (``NotationError``, ``ComputationTooLargeError``, ``SystemLoadError``,
    :class:`CalculatorError`) whose message names the bad value.
    """
    _check_text(notation)
    if system:
        result: Any = _notation_of(system).parse(notation)
    else:
        result = parse(notation)
    dist = result.dist() if hasattr(result, "dist") and not hasattr(result, "p_ge") else result
    if not isinstance(dist, Dist):
        raise CalculatorError(f"{notation!r} gives {type(dist).__name__}, not a distribution")
    return dist


@dataclass(frozen=True)
class Odds:
    """The answer to one question: the distribution and the table the question asks for."""

    notation: str
    distribution: Dist
    table: Table
    #: How the table folds a long distribution's tails (``None``: a row per outcome, or a DC table).
    fold: Fold | None = None

    @property
    def mean(self) -> Fraction:
        return Fraction(self.distribution.mean())


def odds(notation: str, system: str | None = None, *, dc: Sequence[int] | None = None,
         under: Sequence[int] | None = None, folded: bool = False) -> Odds:
    """P(result >= DC) for each of ``dc``, P(result <= target) for each of ``under``, or (neither)
    every outcome with P(= x) and P(>= x): with ``folded``, a long table's tails folded into two exact
    rows (:func:`rules.odds.fold_tails`)."""
    if dc is not None and under is not None:
        raise CalculatorError("give either a DC (at least) or a target (at most), not both")
    dist = distribution_of(notation, system)
    if dc is not None:
        table = at_least_table(dist, dc)
    elif under is not None:
        table = at_most_table(dist, under)
    else:
        fold = fold_tails(dist) if folded else None
        return Odds(notation, dist, distribution_table(dist, fold=fold), fold)
    return Odds(notation, dist, table)


def _fraction(p: Fraction | int) -> str:
    """``"5/8"``; a certainty or an impossibility as ``"1"`` or ``"0"``."""
    if type(p) is not Fraction:
        p = Fraction(p)
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def _outcome(x: Any) -> int | str:
    return x if isinstance(x, int) and not isinstance(x, bool) else str(x)


def answer(notation: str, system: str | None = None, dc: int | None = None,
           under: int | None = None, every: bool = False, at_most: bool = False) -> dict[str, Any]:
    """Everything the calculator shows, JSON-ready: each outcome with P(= x) and P(>= x) as exact
    fractions and percentages, the chart, the mean, the standard deviation and the chance against one
    DC or roll-under target.

    A long distribution's table comes folded (``rows``: :func:`rules.odds.fold_tails`; ``folded`` says
    whether it is, ``outcomes`` how many there are), unless ``every`` asks for a row per outcome.  The
    chart (``chart``: see :func:`chart_bars`) leaves out only the negligible tails, whatever the table.
    With ``at_most`` (a reader rolling under), each row also gives P(<= x) (``p_le``, ``percent_le``).
    """
    _check_target(dc, under)
    dist = distribution_of(notation, system)
    return {**shown(dist, notation, system, every, at_most), "target": target(dist, dc, under)}


def _check_target(dc: int | None, under: int | None) -> None:
    if dc is not None and under is not None:
        raise CalculatorError("give either a DC (at least) or a target (at most), not both")
    for name, value in (("DC", dc), ("target", under)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise CalculatorError(f"the {name} is a whole number, not {value!r}")


def shown(dist: Dist, notation: str, system: str | None = None, every: bool = False,
          at_most: bool = False) -> dict[str, Any]:
    """What the page shows of ``dist`` whatever the target: the table (folded unless ``every``), the
    chart, the mean and the standard deviation; each fraction turned into text once.  ``cumulative``
    says which running total the page heads its table with: "at least" (``p_ge``), or "at most"
    (``p_le``, given only with ``at_most``: a roll-under reader's)."""
    support = dist.support()
    fold = Fold(0, len(support), len(support)) if every else fold_tails(dist)
    rows = []
    for outcome, p_eq, p_ge in folded_rows(dist, fold):  # the rows `rpg odds --fold` prints
        rows.append({"outcome": _outcome(outcome), "p": _fraction(p_eq), "percent": percent(p_eq),
                     "p_ge": _fraction(p_ge), "percent_ge": percent(p_ge)})
    if at_most:  # the same rows' running totals from the bottom: P(<= x), a folded tail's as the table's
        for row, (_, _, p_le) in zip(rows, folded_rows(dist, fold, under=True)):
            row.update({"p_le": _fraction(p_le), "percent_le": percent(p_le)})
    if fold.low:  # a folded row names the outcomes it holds: the page marks it when all of them succeed
        rows[0].update({"from": _outcome(support[0]), "to": _outcome(support[fold.low - 1])})
    if fold.high < fold.count:
        rows[-1].update({"from": _outcome(support[fold.high]), "to": _outcome(support[-1])})
    mean, variance = Fraction(dist.mean()), Fraction(dist.variance())
    return {"notation": notation, "system": system or None, "rows": rows, "outcomes": len(support),
            "cumulative": "at most" if at_most else "at least",
            "folded": fold.folded, "chart": chart_bars(dist, fold_tails(dist, limit=None)),
            "mean": _fraction(mean), "mean_text": f"{float(mean):.3f}", "sd_text": f"{math.sqrt(variance):.3f}"}


def target(dist: Dist, dc: int | None, under: int | None) -> dict[str, Any] | None:
    """The chance to reach ``dc`` (at least) or to roll ``under`` (at most), or ``None`` for neither."""
    if dc is None and under is None:
        return None
    kind, value = ("at least", dc) if dc is not None else ("at most", under)
    p = Fraction(dist.p_ge(dc) if dc is not None else dist.p_le(under))
    return {"kind": kind, "value": value, "p": _fraction(p), "percent": percent(p)}


#: The chart's scale: each bar's height in thousandths of the tallest bar's.
CHART_SCALE = 1000


def chart_bars(dist: Dist, fold: Fold | None = None) -> dict[str, Any]:
    """The chart: ``fold``'s rows of their own (else every outcome) binned to the chart's width
    (:func:`rules.odds.chart_bins`); for each bar its first and last outcome, its height (its summed
    chance in thousandths of the tallest bar's, rounded; at least 1, as every bar is possible) and its
    summed chance as a percentage.  ``size``: the outcomes a bar holds; ``last_size``: the last bar's.

    A few hundred whole numbers whatever the distribution's length: the table, not the chart,
    carries the exact chances.
    """
    bins = chart_bins(dist, fold)
    peak = max(b.weight for b in bins)
    return {"first": [_outcome(b.first) for b in bins], "last": [_outcome(b.last) for b in bins],
            "heights": [max((2 * CHART_SCALE * b.weight + peak) // (2 * peak), 1) for b in bins],
            "percents": [percent(b.p) for b in bins], "size": bins[0].count, "last_size": bins[-1].count}


def roll(notation: str, system: str | None, source: DiceSource) -> RollResult:
    """Roll ``notation`` (plain, or ``system``'s own) with the dice ``source`` gives: every die shown."""
    _check_text(notation)
    if system:
        own = _notation_of(system)
        if own.roll is None:
            raise CalculatorError(f"system {system!r} has notation for odds only; it cannot be rolled")
        return own.roll(notation, source)
    return parse(notation).roll(source)


#: Seeds the calculator accepts: what ``crypto.getRandomValues`` gives for one 32-bit word.
MAX_SEED = 2**32 - 1


def roll_json(notation: str, system: str | None = None, seed: str | int | None = None, dc: str | int | None = None,
              under: str | int | None = None, systems: Sequence[str] = ()) -> str:
    """One roll as JSON (``rpg roll NOTATION --seed SEED`` shows the same dice), or ``{"error": ...}``."""
    try:
        if system and system not in systems:
            offered = ", ".join(systems) or "none"
            raise CalculatorError(f"this calculator offers no game system {system!r} (it offers: {offered})")
        number = checked_seed(seed)
        target, limit = _whole(dc, "DC"), _whole(under, "target")
        if target is not None and limit is not None:
            raise CalculatorError("give either a DC (at least) or a target (at most), not both")
        result = roll(notation, system or None, SeededSource(number))
    except ValueError as error:
        return json.dumps({"error": _one_line(str(error))})
    except RecursionError:
        return json.dumps({"error": "the expression is nested too deeply"})
    data: dict[str, Any] = {"notation": result.expr, "seed": number, "text": str(result), "total": result.total,
                            "dice": [{"sides": d.sides, "face": d.face, "kept": d.kept} for d in result.dice],
                            "success": None}
    if target is not None:
        data["success"] = result.total >= target
    elif limit is not None:
        data["success"] = result.total <= limit
    return json.dumps(data)


def checked_seed(seed: str | int | None) -> int:
    """A seed both the page and ``rpg roll --seed`` accept (0 to :data:`MAX_SEED`): a roll checks both ways."""
    try:
        number = _whole(seed, "seed")
    except CalculatorError:
        number = None  # the message below says what a seed may be
    if number is None or not 0 <= number <= MAX_SEED:
        raise CalculatorError(f"the seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
    return number


def _whole(text: str | int | None, name: str) -> int | None:
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    if not isinstance(text, str):
        raise CalculatorError(f"the {name} must be a whole number, not {text!r}")
    stripped = text.strip()
    if len(stripped) > 12 or not stripped.lstrip("+-").isdigit():
        raise CalculatorError(f"the {name} must be a whole number, not {text!r}")
    return int(stripped)


def answer_json(notation: str, system: str | None = None, dc: str | int | None = None,
                under: str | int | None = None, systems: Sequence[str] = (), every: bool = False,
                at_most: bool = False) -> str:
    """:func:`answer` as JSON text, or ``{"error": "<one line>"}``: the browser's whole interface.
    ``every``: a row per outcome (the page's "Show all"), not the folded table; ``at_most``: the rows'
    P(<= x) too (the reader succeeds rolling under).

    ``systems`` lists the systems this calculator offers (written by the build); any other system is
    refused before anything is imported, so a shared link cannot make the page import a module.
    The last few distributions' answers are kept (:func:`_shown_json`): a reader changing the DC, or
    going back to an earlier question, waits only for the target's chance.
    """
    try:
        if system and system not in systems:
            offered = ", ".join(systems) or "none"
            raise CalculatorError(f"this calculator offers no game system {system!r} (it offers: {offered})")
        goal, limit = _whole(dc, "DC"), _whole(under, "target")
        _check_target(goal, limit)
        _check_text(notation)
        dist, text = _shown_json(notation, system or None, every is True, at_most is True)
        aim = json.dumps(target(dist, goal, limit))
    except ValueError as error:  # the engine refusing its input names the bad value
        return json.dumps({"error": _one_line(str(error))})
    except RecursionError:
        return json.dumps({"error": "the expression is nested too deeply"})
    return text[:-1] + ', "target": ' + aim + "}"  # the cached object, closed with this question's target


#: How many questions' answers :func:`_shown_json` keeps (a Show all of 10,000 rows is about 1 MB).
ANSWERS_KEPT = 8


@lru_cache(maxsize=ANSWERS_KEPT)
def _shown_json(notation: str, system: str | None, every: bool, at_most: bool = False) -> tuple[Dist, str]:
    """The distribution of a question and :func:`shown` as JSON text, computed once per question."""
    dist = distribution_of(notation, system)
    return dist, json.dumps(shown(dist, notation, system, every, at_most))


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "\N{HORIZONTAL ELLIPSIS}"
