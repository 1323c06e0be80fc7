"""The digital Game Master keeps the 3d6 bell curve."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

from rules.dice import ScriptedSource
from rules.spurg.play import DigitalGameMaster, bell_curve_table, flat_success_probability, roll_shape_table
from rules.spurg.verdict import Outcome

ROLLS = Counter(sum(dice) for dice in product(range(1, 7), repeat=3))


def test_digital_game_master_rolls_three_dice_and_can_hide_them():
    gm = DigitalGameMaster(source=ScriptedSource([1, 2, 3, 6, 6, 5]))
    assert gm.resolve(10) is Outcome.SUCCESS
    shown = gm.roll(10)
    assert shown.dice == (6, 6, 5) and shown.outcome is Outcome.CRITICAL_FAILURE
    assert [v.roll for v in gm.log] == [6, 17]


def test_digital_game_master_defaults_to_a_seeded_bell_curve():
    first = [DigitalGameMaster(seed=7).roll(10).dice for _ in range(1)]
    again = [DigitalGameMaster(seed=7).roll(10).dice for _ in range(1)]
    assert first == again and all(len(d) == 3 and all(1 <= f <= 6 for f in d) for d in first)
    gm = DigitalGameMaster(seed=1)
    totals = [gm.roll(10).roll for _ in range(200)]
    assert min(totals) >= 3 and max(totals) <= 18


def test_flat_distribution_is_the_alternative_the_source_rejects():
    assert flat_success_probability(10) == Fraction(8, 16)
    assert flat_success_probability(2) == 0 and flat_success_probability(30) == 1


def test_bell_curve_table_compares_3d6_with_flat():
    rows = {row[0]: row[1:] for row in bell_curve_table().rows}
    assert rows[10] == (Fraction(1, 2), Fraction(1, 2))
    assert rows[14] == (Fraction(196, 216), Fraction(12, 16))
    assert rows[6] == (Fraction(20, 216), Fraction(4, 16))


def test_roll_shape_table_is_the_bell():
    rows = {row[0]: row[1:] for row in roll_shape_table().rows}
    for total in range(3, 19):
        assert rows[total] == (Fraction(ROLLS[total], 216), Fraction(1, 16))
