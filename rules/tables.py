"""Tables the engine computes and the rulebook prints (odds per DC, damage bands, cost ladders).

An engine function returns a :class:`Table`; the ``node:table`` directive renders it, so every number
in a printed table comes from code.  Cells are whole numbers, text, or exact ``Fraction``
probabilities (shown as percentages by the book).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

Cell = int | Fraction | str | None


class TableError(ValueError):
    """A table whose rows do not fit its columns."""


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    title: str = ""
    #: Columns holding probabilities: shown as percentages (the others as they are).
    probability_columns: frozenset[str] = field(default_factory=frozenset)
    #: Columns holding code or literal values: shown verbatim (no typographic quotes).
    code_columns: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        object.__setattr__(self, "columns", tuple(self.columns))
        object.__setattr__(self, "rows", tuple(tuple(row) for row in self.rows))
        object.__setattr__(self, "probability_columns", frozenset(self.probability_columns))
        object.__setattr__(self, "code_columns", frozenset(self.code_columns))
        for number, row in enumerate(self.rows, 1):
            if len(row) != len(self.columns):
                raise TableError(f"table {self.title!r}: row {number} has {len(row)} cells "
                                 f"for {len(self.columns)} columns")
        unknown = (self.probability_columns | self.code_columns) - set(self.columns)
        if unknown:
            raise TableError(f"table {self.title!r}: no column named {sorted(unknown)}")

    @classmethod
    def of(cls, columns: Sequence[str], rows: Sequence[Sequence[Cell]], title: str = "",
           probabilities: Sequence[str] = (), code: Sequence[str] = ()) -> Table:
        return cls(tuple(columns), tuple(tuple(r) for r in rows), title, frozenset(probabilities),
                   frozenset(code))

    def column(self, name: str) -> tuple[Cell, ...]:
        index = self.columns.index(name)
        return tuple(row[index] for row in self.rows)

    def is_probability(self, column: str) -> bool:
        return column in self.probability_columns

    def is_code(self, column: str) -> bool:
        return column in self.code_columns


def percent(p: Fraction, digits: int = 1) -> str:
    """``Fraction(2101, 3125)`` -> ``'67.2%'``; exact 0 and 1 print without decimals."""
    if isinstance(p, (Fraction, int)):  # the usual case, on whole numbers (a long table prints 20,000)
        numerator, denominator = p.numerator, p.denominator
        if numerator == 0:
            return "0%"
        if numerator == denominator:
            return "100%"
        value = round(numerator / denominator * 100, digits)  # what float(p) computes
    else:
        if p == 0:
            return "0%"
        if p == 1:
            return "100%"
        value = round(float(p) * 100, digits)
    text = f"{value:.{digits}f}%"
    # never print a possible event as 0.0% or a failable one as 100.0%
    if value == 0:
        return f"<{10 ** -digits:.{digits}f}%"
    if value == 100:
        return f">{100 - 10 ** -digits:.{digits}f}%"
    return text


def example_table(sides: int = 6) -> Table:
    """P(a die shows at least x): the smallest useful table, used by the manual and the tests."""
    from fractions import Fraction

    if not 1 <= sides <= 1000:
        raise TableError(f"a die needs 1..1000 sides, not {sides}")
    rows = [(x, Fraction(sides - x + 1, sides)) for x in range(1, sides + 1)]
    return Table.of(("At least", "P"), rows, f"One d{sides}", probabilities=("P",))
