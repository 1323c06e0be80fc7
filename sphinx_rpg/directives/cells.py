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
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
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
