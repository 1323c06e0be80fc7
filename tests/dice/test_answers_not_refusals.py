"""Refuse only what is really slow: questions the work model once refused (or priced at seconds) that the
engine answers well within its budget, each checked against a closed form where one is short."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from rules.dice import parse
from rules.dice.errors import MAX_WORK


@pytest.mark.parametrize("text", [
    "1000d2kh500", "1000d2kl300", "500d2kh250",  # keep many of many two-sided dice
    "2d10000kh1", "200d10000kh1", "1000d1000kl1",  # keep one: a product of CDFs
    "9d10000rr<9000", "20d10000rr<10000",  # rerolls priced by the faces they leave
    "1d10000*5+1d10000",  # a scaled term added densely
    "176d100", "44d1000", "500d20", "10d10000",  # fair dice by running sums (seconds before)
])
def test_each_of_these_questions_is_priced_within_the_budget(text):
    assert parse(text).work() <= MAX_WORK


def test_keeping_half_of_a_thousand_coins_is_the_binomial_tail():
    # 1000d2kh500: the kept 500 dice are 2s as long as at least 500 dice show 2, so the total is
    # 500 + min(twos, 500): P(total = 500 + t) = C(1000, t) / 2^1000 for t < 500.
    dist = parse("1000d2kh500").dist()
    assert dist.p(500 + 123) == Fraction(comb(1000, 123), 2 ** 1000)
    assert dist.p(1000) == Fraction(sum(comb(1000, t) for t in range(500, 1001)), 2 ** 1000)


def test_advantage_on_a_d10000_is_the_product_of_two_cdfs():
    dist = parse("2d10000kh1").dist()
    assert dist.p_le(7777) == Fraction(7777, 10000) ** 2


def test_rerolling_until_a_face_stands_leaves_a_fair_die_of_what_is_left():
    assert parse("20d10000rr<10000").dist().p(200000) == 1
    assert parse("9d10000rr<9000").dist() == parse("9d1001").dist() + 9 * 8999


def test_a_scaled_term_added_to_a_wide_die_is_exact():
    dist = parse("1d10000*5+1d10000").dist()
    assert dist.p(38) == Fraction(7, 10000 ** 2)  # 5a + b = 38: a = 1..7
    assert dist.mean() == Fraction(10001, 2) * 6


@pytest.mark.parametrize("text", ["176d100", "500d20", "10d10000"])
def test_fair_dice_sums_are_symmetric_and_complete(text):
    dist = parse(text).dist()
    n, sides = (int(x) for x in text.split("d"))
    assert dist.min() == n and dist.max() == n * sides and dist.p(n) == Fraction(1, sides ** n)
    assert dist.p(n + 1) == dist.p(n * sides - 1) == Fraction(n, sides ** n)


def test_the_in_page_calculator_has_its_own_lower_budget(monkeypatch):
    from rules.dice import ComputationTooLargeError, errors

    monkeypatch.setattr(errors, "MAX_WORK", errors.MAX_WORK)  # restored after the test
    text = "200d100"  # within the budget here, over the browser's
    assert errors.BROWSER_WORK < parse(text).work() <= errors.MAX_WORK
    assert errors.BROWSER_WORK == errors.MAX_WORK // errors.BROWSER_SLOWDOWN
    assert errors.use_browser_budget() == errors.BROWSER_WORK == errors.MAX_WORK
    with pytest.raises(ComputationTooLargeError):
        parse(text).dist()


@pytest.mark.parametrize("text", ["3d6", "3d6+1d8+2", "2d20kh1+1d4", "4d6r1kh3-1d6", "(2d6!)*2+1d1000*5+1d1000"])
def test_a_question_is_priced_once_then_computed_without_pricing_its_steps_again(monkeypatch, text):
    import sys

    from rules.dice import clear_caches, errors

    calls: list[str] = []  # the pricing functions called while the priced computation runs
    distribution, keep = sys.modules["rules.dice.distribution"], sys.modules["rules.dice.keep"]
    for module, name in ((distribution, "repeat_cost"), (distribution, "fair_sum_cost"), (distribution, "sparse_cost"),
                         (distribution, "_dense_cost"), (keep, "die_keep_work"), (keep, "cdf_product_work")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name,
                            lambda *a, real=real, name=name: (errors.priced() and calls.append(name)) or real(*a))
    expr = parse(text)
    clear_caches()
    expr.dist()
    assert calls == []
    clear_caches()
    errors.run_priced(lambda: distribution.Dist.die(6).repeat_sum(40) + distribution.Dist.die(7))
    assert calls == []  # and the check above can see a call: outside a priced computation a step prices itself
    monkeypatch.setattr(errors, "priced", lambda: True)
    distribution.Dist.die(5).repeat_sum(40)
    assert calls == ["fair_sum_cost"]
