"""What ``node:table``/``node:odds`` and their ``:vary:`` runner share: cell text, the table request
error, and the shape of the directive the runner renders through (so neither imports the other)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Protocol

from docutils import nodes
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

from rules.tables import Table, percent
from sphinx_rpg.typeset import MINUS

#: Fills one combination of a ``:vary:`` into a text the page wrote.
Fill = Callable[[str], str]


def _same(text: str) -> str:
    return text


class TableArgumentError(ValueError):
    """A ``node:table``/``node:odds`` request the page cannot make (the message says why)."""


def render_cell(value: object, probability: bool, exact: bool) -> str:
    if probability and isinstance(value, (Fraction, int)) and not isinstance(value, bool):
        fraction = Fraction(value)
        if exact and fraction.denominator != 1:
            return f"{percent(fraction)} ({fraction.numerator}/{fraction.denominator})"
        return percent(fraction)
    if isinstance(value, Fraction):  # a negative number typeset with the minus sign, as in print
        text = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
        return text.replace("-", MINUS)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value).replace("-", MINUS)
    return "" if value is None else str(value)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)



class ComputedTable(Protocol):
    """The directive a ``:vary:`` table renders through: ``node:table`` or ``node:odds``."""

    @property
    def name(self) -> str: ...
    @property
    def options(self) -> Mapping[str, Any]: ...
    @property
    def config(self) -> Config: ...
    @property
    def env(self) -> BuildEnvironment: ...

    def templates(self) -> list[str]: ...
    def estimate(self, fill: Fill) -> int: ...
    def checked_table(self, fill: Fill = ...) -> Table: ...
    def render(self, table: Table, caption: str | None = ...) -> list[nodes.Node]: ...
    def warn_failure(self, failure: Exception, combination: str = ...) -> None: ...
    def get_location(self) -> str: ...
    def set_source_info(self, node: nodes.Node) -> None: ...


#: The widest a fitted column grows, in characters: prose wraps inside it.
MAX_COLUMN_WIDTH = 40


def fit_column_widths(group: nodes.tgroup, widest: int = MAX_COLUMN_WIDTH) -> None:
    """Set each ``colspec`` of ``group`` to its longest cell's text (at most ``widest``).

    Why: the text builder takes a column's width in characters, so a relative width such as 1 printed
    "Chance" one letter per line (and Sphinx 8.2's text writer never finished such a table, a bug
    fixed in 9.0: sphinx-doc/sphinx#13741).  HTML and LaTeX read widths only from tables marked
    ``colwidths-given``, which these are not, so their output does not change.
    """
    specs = [child for child in group.children if isinstance(child, nodes.colspec)]
    widths = [1] * len(specs)
    for row in group.findall(nodes.row):
        entries = [child for child in row.children if isinstance(child, nodes.entry)]
        if len(entries) != len(specs) or any(e.get("morecols") or e.get("morerows") for e in entries):
            continue  # a spanning cell says nothing about one column's width
        for column, entry in enumerate(entries):
            widths[column] = max(widths[column], min(_longest_line(entry), widest))
    for spec, width in zip(specs, widths):
        spec["colwidth"] = width


def _longest_line(entry: nodes.entry) -> int:
    """The longest line a cell prints as text: raw markup for another format (a sheet's LaTeX box) is
    not text."""
    text = "".join(node.astext() if not isinstance(node.parent, nodes.raw) else "\n"
                   for node in entry.findall(nodes.Text))
    return max((len(line) for line in text.splitlines()), default=0)
