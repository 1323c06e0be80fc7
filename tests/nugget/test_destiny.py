"""Destiny Points: gain, loss, spending, and the skill purchase cost."""

from fractions import Fraction

import pytest

from rules.nugget import destiny as d
from rules.nugget.harm import INJURED_DEAD
from rules.nugget.rolls import read_pool


def test_destiny_points_start_at_one_and_feed_the_gm_pool_at_zero():
    pool = d.Destiny()
    assert pool.points == 1
    assert pool.gain().points == 2
    assert pool.thwart() == d.Destiny(0, 0)
    assert pool.thwart().thwart() == d.Destiny(0, 1)
    with pytest.raises(d.NuggetError, match="only 0"):
        d.Destiny(0).spend()
    with pytest.raises(d.NuggetError, match="-1"):
        d.Destiny(-1)


def test_reroll_keeps_the_preferred_result():
    a, b = read_pool([1, 2, 4]), read_pool([5, 6, 2])
    assert d.keep_preferred(a, b) is b
    assert d.keep_preferred(a, b, keep="first") is a
    assert d.reroll_chance(1) == Fraction(3, 4)          # 1 - (1/2)^2
    with pytest.raises(d.NuggetError, match="'best'"):
        d.keep_preferred(a, b, keep="best")


def test_cheat_death_turns_dead_into_unconscious_with_gm_consent():
    saved = d.survive(INJURED_DEAD)
    assert saved.unconscious and not saved.dead and saved.injuries == 1
    with pytest.raises(d.NuggetError):
        d.survive(INJURED_DEAD, gm_allows=False)


def test_skill_level_costs_new_level_times_five():
    assert [d.skill_level_cost(n) for n in (1, 2, 3, 4)] == [5, 10, 15, 20]
    assert d.skill_level_cost(3, current_level=2) == 15
    with pytest.raises(d.NuggetError, match="5"):
        d.skill_level_cost(5)
    with pytest.raises(d.NuggetError, match="level 1"):
        d.skill_level_cost(3, current_level=1)


def test_die_when_you_have_none_is_optional():
    assert d.destiny_pool(0) == 0
    assert d.destiny_pool(-2, allowed=True) == 1
    assert d.destiny_pool(3, allowed=True) == 3


def test_coincidence_is_optional_and_costs_a_point():
    assert d.coincidence(d.Destiny(2), allowed=True).points == 1
    with pytest.raises(d.NuggetError):
        d.coincidence(d.Destiny(2))


def test_bad_amounts_and_choices_are_refused_by_name():
    with pytest.raises(d.NuggetError, match="-3"):
        d.Destiny(1).spend(-3)              # would otherwise add three points
    with pytest.raises(d.NuggetError, match="'a'"):
        d.Destiny(1).gain("a")
    with pytest.raises(d.NuggetError, match="0"):
        d.reroll_chance(3, 0)
    with pytest.raises(d.NuggetError, match="'two'"):
        d.skill_level_cost(3, "two")
    with pytest.raises(d.NuggetError, match="allowed=False"):
        d.coincidence(d.Destiny(2))
