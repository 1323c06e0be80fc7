from fractions import Fraction

import pytest

from rules.heimr.abilities import find_ability
from rules.heimr.fatigue import (
    HeimrError, fatigue_applies, base_fatigue, fatigue_after, gate_probability, growth_probability, passes_fatigue,
)


def test_base_fatigue_is_four_minus_stamina_but_at_least_one():
    assert [base_fatigue(s) for s in (3, -2, 4)] == [1, 6, 1]
    with pytest.raises(HeimrError, match="'3'"):
        base_fatigue("3")


def test_fatigue_gate_fails_raw_below_fatigue():
    assert not passes_fatigue(6, 7)      # fatigue 7, raw 6: automatic failure
    assert passes_fatigue(7, 7)
    with pytest.raises(HeimrError, match="21"):
        passes_fatigue(5, 21)
    # at C <= 0 the raw score never exceeds 6, so fatigue 7 stops everything
    assert gate_probability(0, 7) == 0 and gate_probability(-2, 7) == 0
    assert gate_probability(1, 7) == Fraction(4, 10)


def test_fatigue_grows_when_the_d6_falls_below_it():
    assert fatigue_after(4, 3) == 5
    assert fatigue_after(4, 4) == 4
    assert fatigue_after(20, 1) == 20
    with pytest.raises(HeimrError, match="0"):
        fatigue_after(0, 3)
    with pytest.raises(HeimrError, match="7"):
        fatigue_after(4, 7)
    assert [growth_probability(f) for f in (1, 4, 7, 20)] == [0, Fraction(1, 2), 1, 0]


def test_fatigue_applies_to_abilities_on_a_physical_attribute():
    assert fatigue_applies(find_ability("Swimming")) and not fatigue_applies(find_ability("Insight"))
    assert fatigue_applies(find_ability("Diplomacy")) is False
    assert fatigue_applies(find_ability("Archery")) and not fatigue_applies(find_ability("Archery"), mixed=False)


def test_fatigue_rules_reject_bad_input():
    with pytest.raises(HeimrError, match="'Brawl'"):
        fatigue_applies("Brawl")
    with pytest.raises(HeimrError, match="'6'"):
        passes_fatigue("6", 3)
    with pytest.raises(HeimrError, match="6.5"):
        passes_fatigue(6.5, 3)
    with pytest.raises(HeimrError, match="True"):
        fatigue_after(4, True)
