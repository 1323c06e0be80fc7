"""Tables the engine computes for the book, and the odds tables every pool gets."""

from fractions import Fraction

import pytest

from rules.odds import at_least_table, at_most_table, distribution_table
from rules.tables import Table, TableError, percent


class TwoCoins:
    """A stand-in distribution (0, 1 or 2 heads) with the query methods odds tables need."""

    weights = {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}

    def items(self):
        return self.weights.items()

    def p_ge(self, x):
        return sum((p for k, p in self.weights.items() if k >= x), Fraction(0))

    def p_le(self, x):
        return sum((p for k, p in self.weights.items() if k <= x), Fraction(0))


def test_rows_must_fit_the_columns():
    with pytest.raises(TableError, match="row 1 has 1 cells for 2 columns"):
        Table.of(("a", "b"), [(1,)])
    with pytest.raises(TableError, match="no column named"):
        Table.of(("a",), [(1,)], probabilities=("b",))
    with pytest.raises(TableError, match="no column named"):
        Table.of(("a",), [(1,)], code=("c",))


def test_percentages_never_round_a_possible_event_to_zero():
    assert percent(Fraction(2101, 3125)) == "67.2%"
    assert percent(Fraction(1, 100000)) == "<0.1%" and percent(Fraction(99999, 100000)) == ">99.9%"
    assert percent(Fraction(0)) == "0%" and percent(Fraction(1)) == "100%"


def test_at_least_table_gives_the_chance_to_meet_each_dc():
    table = at_least_table(TwoCoins(), range(0, 3))
    assert table.column("P(success)") == (1, Fraction(3, 4), Fraction(1, 4))
    assert table.is_probability("P(success)")


def test_at_most_table_gives_roll_under_odds():
    assert at_most_table(TwoCoins(), [0, 1]).column("P(success)") == (Fraction(1, 4), Fraction(3, 4))


def test_distribution_table_lists_every_outcome():
    table = distribution_table(TwoCoins())
    assert table.rows[1] == (1, Fraction(1, 2), Fraction(3, 4))
