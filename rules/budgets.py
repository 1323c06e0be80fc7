"""Points budgets: how many creation points a character may spend, and what a sheet has spent.

A rule package marks a node as a budget with :func:`budget_values`: its ``formula`` counts the points
spent from the sheet's values (a refund is negative), its values give the points available and, where
the source leaves the total to the table, the other totals a group may pick::

    REGISTRY.define("Spurg.Rule.AbilityPoints", "Ability Score Points", "RU",
                    formula="(AGI - 10) * 20", values=budget_values(100, choices=(50, 100, 300), unit="CP"))

``node:sheet :budgets:`` shows each selected budget live ("7 of 10 points spent") and the sheet's
script words it exactly as :func:`spent_message` does.  Nothing here imports Sphinx.
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


class BudgetError(ValueError):
    """A node marked as a budget whose total, choices or formula make no sense."""


@dataclass(frozen=True)
class Budget:
    """A budget as a sheet reads it: the default total, the totals a table may pick, the unit's name."""

    total: int
    choices: tuple[int, ...]
    unit: str


def budget_values(total: int, *, choices: Iterable[int] = (), unit: str = "points") -> dict[str, Value]:
    """The node values that make a node with a formula a points budget (``choices`` include ``total``)."""
    options = tuple(choices) or (total,)
    if not is_whole(total) or total < 0 or total not in options:
        raise BudgetError(f"a budget total is a whole number >= 0 among its choices {options}, not {total!r}")
    if not all(is_whole(option) and option >= 0 for option in options):
        raise BudgetError(f"budget choices are whole numbers >= 0, not {options!r}")
    return {BUDGET: total, CHOICES: ", ".join(str(option) for option in options), UNIT: unit}


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
    return Budget(total, choices, str(node.values.get(UNIT, "points")))


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
