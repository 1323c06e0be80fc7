"""Encumbrance levels and encumbered Speed, from the SPURG notes."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.spurg.encumbrance import SpurgError, encumbered_speed, encumbrance_level, encumbrance_table


def test_encumbrance_level_from_multiples_of_lift():
    assert encumbrance_level(120, 50).level == 2  # the notes: 120 lb on Lift 50 lb is within 150
    assert encumbrance_level(50, 50).level == 0  # exactly Lift: not encumbered
    assert encumbrance_level(51, 50).level == 1
    assert encumbrance_level(100, 50).level == 1  # "up to twice" includes twice
    assert encumbrance_level(300, 50).level == 3
    assert encumbrance_level(500, 50).level == 4
    assert encumbrance_level(Fraction(301, 2), 50).level == 3
    assert encumbrance_level(0, 50).level == 0


def test_encumbrance_level_rejects_bad_loads():
    with pytest.raises(SpurgError, match="501"):
        encumbrance_level(501, 50)
    with pytest.raises(SpurgError, match="Lift must be .* not 0"):
        encumbrance_level(10, 0)
    with pytest.raises(SpurgError, match="load must be .* not -1"):
        encumbrance_level(-1, 50)
    with pytest.raises(SpurgError, match="'heavy'"):
        encumbrance_level("heavy", 50)


def test_encumbered_speed_cuts_twenty_percent_of_base_per_level():
    assert encumbered_speed(10, 2) == 6  # the notes' example
    assert [encumbered_speed(10, lvl) for lvl in range(5)] == [10, 8, 6, 4, 2]
    assert [encumbered_speed(10, lvl, rounding="reduction") for lvl in range(5)] == [10, 8, 6, 4, 2]


def test_speed_rounding_option_differs_on_fractions():
    assert encumbered_speed(7, 1) == 5  # floor(7 * 0.8) = floor(5.6)
    assert encumbered_speed(7, 1, rounding="reduction") == 6  # 7 - floor(1.4)
    assert encumbered_speed(4, 1, rounding="reduction") == 4  # a cut of 0.8 rounds to nothing
    assert encumbered_speed(4, 1) == 3
    with pytest.raises(SpurgError, match="'nearest'"):
        encumbered_speed(7, 1, rounding="nearest")


def test_encumbered_speed_rejects_bad_input():
    with pytest.raises(SpurgError, match="not 5"):
        encumbered_speed(10, 5)
    with pytest.raises(SpurgError, match="not -3"):
        encumbered_speed(-3, 1)


def test_encumbrance_table_both_roundings():
    table = encumbrance_table(7)
    assert table.column("Level") == (0, 1, 2, 3, 4)
    assert table.rows[1][4:] == (5, 6)
    assert table.rows[4][4:] == (1, 2)  # floor(1.4) = 1; 7 - floor(5.6) = 2


def test_encumbrance_refuses_loads_that_are_not_finite():
    with pytest.raises(SpurgError, match="nan"):
        encumbrance_level(float("nan"), 50)
    with pytest.raises(SpurgError, match="inf"):
        encumbrance_level(5, float("inf"))
