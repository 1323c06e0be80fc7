"""Levels bought with money and multiclassing: values from the source table."""

import pytest

from rules.dndalike.characters import DndalikeError
from rules.dndalike.levels import (
    dominant_classes, level_costs, money_to_reach, next_power_cost, power_price,
)


def test_level_cost_reads_the_table_as_running_totals_by_default():
    assert [power_price(n) for n in range(1, 7)] == [0, 300, 300, 1500, 2300, 5200]
    assert [money_to_reach(n) for n in range(1, 7)] == [0, 300, 600, 2100, 4400, 9600]


def test_level_cost_per_power_reading_charges_each_row():
    assert [power_price(n, reading="per-power") for n in range(1, 7)] == [0, 300, 600, 2100, 4400, 9600]
    assert money_to_reach(6, reading="per-power") == 17000
    with pytest.raises(DndalikeError, match="'cumulative'"):
        power_price(2, reading="cumulative")


def test_level_cost_after_the_sixth_power_is_retirement():
    with pytest.raises(DndalikeError, match="7"):
        power_price(7)
    with pytest.raises(DndalikeError, match="0"):
        power_price(0)


def test_dominant_class_has_the_most_powers_ties_allowed():
    assert dominant_classes(["Fighter", "Fighter", "Rogue"]) == {"Fighter"}
    assert dominant_classes(["Fighter", "Rogue"]) == {"Fighter", "Rogue"}
    with pytest.raises(DndalikeError):
        dominant_classes(["Paladin"])


def test_multiclassing_costs_one_and_a_half_times_outside_dominant_classes():
    assert next_power_cost([], "Wizard") == 0
    assert next_power_cost(["Fighter"], "Fighter") == 300
    assert next_power_cost(["Fighter"], "Rogue") == 450
    assert next_power_cost(["Fighter", "Rogue"], "Rogue") == 300  # tie: both dominant
    assert next_power_cost(["Fighter", "Fighter", "Rogue"], "Rogue") == 2250
    assert next_power_cost(["Fighter", "Fighter", "Rogue"], "Rogue", reading="per-power") == 3150
    assert level_costs().column("Price (other class)") == (0, 450, 450, 2250, 3450, 7800)
