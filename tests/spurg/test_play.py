"""The digital Game Master keeps the 3d6 bell curve."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedSource, SeededSource
from rules.spurg.play import DigitalGameMaster, SpurgError, bell_curve_table, flat_success_probability, roll_shape_table
from rules.spurg.verdict import Outcome

ROLLS = Counter(sum(dice) for dice in product(range(1, 7), repeat=3))


def test_digital_game_master_rolls_three_dice_and_can_hide_them():
    gm = DigitalGameMaster(source=ScriptedSource([1, 2, 3, 6, 6, 5]))
    assert gm.resolve(10) is Outcome.SUCCESS
    shown = gm.roll(10)
    assert shown.dice == (6, 6, 5) and shown.outcome is Outcome.CRITICAL_FAILURE
    assert [v.roll for v in gm.log] == [6, 17]


def test_digital_game_master_defaults_to_three_d6_from_a_seeded_source():
    # a flat 3-18 draw, or any other number of dice, would draw differently from the twin source
    gm, twin = DigitalGameMaster(seed=7), SeededSource(7)
    assert isinstance(gm.source, SeededSource)
    for _ in range(50):
        expected = tuple(twin.roll(6) for _ in range(3))
        verdict = gm.roll(10)
        assert verdict.dice == expected and verdict.roll == sum(expected)
    with pytest.raises(SpurgError, match="'seven'"):
        DigitalGameMaster(seed="seven")
    with pytest.raises(SpurgError, match="'gurps'"):
        DigitalGameMaster(precedence="gurps")


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


def test_every_empty_heading_is_listed_on_its_page_with_a_stand_in():
    from pathlib import Path

    from rules.spurg.play import UNWRITTEN, SpurgError, stand_in, unwritten_table
    docs = Path(__file__).resolve().parents[2] / "docs" / "spurg"
    assert len(UNWRITTEN) == 23
    for gap in UNWRITTEN:
        assert f":uid: {gap.uid}" in (docs / f"{gap.page}.rst").read_text()
        assert stand_in(gap.heading.upper()) is gap and gap.stand_in
    assert {"Demeanor Rolls", "Climbing", "Poison"} <= {g.heading for g in UNWRITTEN}
    assert len(unwritten_table("damage").rows) == 8
    with pytest.raises(SpurgError, match="'Flying'"):
        stand_in("Flying")
    with pytest.raises(SpurgError, match="'combat'"):
        unwritten_table("combat")
