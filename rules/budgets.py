"""Points budgets: how many creation points a character may spend, and what a sheet has spent.

A rule package marks a node as a budget with :func:`budget_values`: its ``formula`` counts the points
spent from the sheet's values (a refund is negative), its values give the points available and, where
the source leaves the total to the table, the other totals a group may pick::

    REGISTRY.define("Spurg.Rule.AbilityPoints", "Ability Score Points", "RU",
                    formula="(AGI - 10) * 20", values=budget_values(100, choices=(50, 100, 300), unit="CP"))

A budget may also be a *cap*, marked with :func:`cap_values`: its formula counts something the rules
allow only so many of (NUGGET: attributes at -1), and the sheet says "2 (at most 1): 1 too many".

``node:sheet :budgets:`` shows each selected budget live ("7 of 10 points spent") and the sheet's
script words it exactly as :func:`budget_message` does.  Nothing here imports Sphinx.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from rules.formula import Number
from rules.nodes import Node, Value
from rules.values import is_whole

BUDGET = "budget"
CHOICES = "budget_choices"
UNIT = "budget_unit"
KIND = "budget_kind"
#: A budget's kinds: points to spend (the default), or a count the rules cap.
SPEND, CAP = "spend", "cap"


class BudgetError(ValueError):
    """A node marked as a budget whose total, choices or formula make no sense."""


@dataclass(frozen=True)
class Budget:
    """A budget as a sheet reads it: the default total, the totals a table may pick, the unit's name."""

    total: int
    choices: tuple[int, ...]
    unit: str
    kind: str = SPEND


def budget_values(total: int, *, choices: Iterable[int] = (), unit: str = "points") -> dict[str, Value]:
    """The node values that make a node with a formula a points budget (``choices`` include ``total``)."""
    options = tuple(choices) or (total,)
    if not is_whole(total) or total < 0 or total not in options:
        raise BudgetError(f"a budget total is a whole number >= 0 among its choices {options}, not {total!r}")
    if not all(is_whole(option) and option >= 0 for option in options):
        raise BudgetError(f"budget choices are whole numbers >= 0, not {options!r}")
    return {BUDGET: total, CHOICES: ", ".join(str(option) for option in options), UNIT: unit}


def cap_values(at_most: int, *, choices: Iterable[int] = ()) -> dict[str, Value]:
    """The node values that make a node with a formula a cap: its formula may come to ``at_most`` at most."""
    return {**budget_values(at_most, choices=choices, unit=""), KIND: CAP}


def budget_of(node: Node) -> Budget | None:
    """The node's budget, ``None`` when it is no budget; ``BudgetError`` when it is a malformed one."""
    if BUDGET not in node.values:
        return None
    total = node.values[BUDGET]
    if node.formula is None:
        raise BudgetError(f"{node.uid}: a budget needs a formula that counts the points spent")
    if not is_whole(total) or total < 0:
        raise BudgetError(f"{node.uid}: the budget {total!r} is not a whole number >= 0")
    text = str(node.values.get(CHOICES, total))
    try:
        choices = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise BudgetError(f"{node.uid}: budget choices {text!r} are not whole numbers") from None
    if total not in choices:
        raise BudgetError(f"{node.uid}: the budget {total} is not among its choices {choices}")
    kind = str(node.values.get(KIND, SPEND))
    if kind not in (SPEND, CAP):
        raise BudgetError(f"{node.uid}: the budget kind {kind!r} is neither {SPEND!r} nor {CAP!r}")
    return Budget(total, choices, str(node.values.get(UNIT, "points")), kind)


def spent(node: Node, values: Mapping[str, Number]) -> Number:
    """Points the values spend, by the budget's formula (names as the formula writes them)."""
    if node.formula is None:
        raise BudgetError(f"{node.uid}: a budget needs a formula that counts the points spent")
    return node.formula.evaluate(values)


def _show(value: Number) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def spent_message(points: Number, total: int, unit: str = "points") -> str:
    """``7 of 10 points spent``, ``10 of 10 points spent``, or ``12 of 10 points spent: 2 over``."""
    text = f"{_show(points)} of {total} {unit} spent"
    return f"{text}: {_show(points - total)} over the budget" if points > total else text


def cap_message(count: Number, at_most: int) -> str:
    """``1 (at most 1)``, or ``2 (at most 1): 1 too many``."""
    text = f"{_show(count)} (at most {at_most})"
    return f"{text}: {_show(count - at_most)} too many" if count > at_most else text


def budget_message(budget: Budget, value: Number, total: int | None = None) -> str:
    """The sheet's line for a budget of either kind, against ``total`` (default: the budget's own)."""
    chosen = budget.total if total is None else total
    return cap_message(value, chosen) if budget.kind == CAP else spent_message(value, chosen, budget.unit)
