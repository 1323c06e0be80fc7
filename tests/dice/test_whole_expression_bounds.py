"""Whole-expression bounds: every expression answers or refuses before working, and reads back.

Random expressions come from a grammar strategy that mixes small and huge dice, every suffix,
multiplication and parentheses.  The work model is checked for soundness on what it lets through
(the distribution lies inside the predicted shape), and everything it prices over the budget must be
refused.  Timing belongs to ``bench/dice_bounds.py``, not here.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytest

from rules.dice import MAX_LENGTH, ComputationTooLargeError, NotationError, count_successes, parse
from rules.dice.errors import MAX_WORK

COUNTS = st.sampled_from(["", "1", "2", "3", "4", "10", "60", "1000"])
SIDES = st.sampled_from(["1", "2", "3", "6", "20", "%", "100", "10000"])
SUFFIXES = st.sampled_from(["", "", "kh1", "kl2", "k3", "dl1", "dh2", "!", ">=4", ">=1", "r1", "r<3", "r>4",
                             "rr1", "rr>3"])


@st.composite
def dice(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:
        return f"{draw(COUNTS)}dF"
    return f"{draw(COUNTS)}d{draw(SIDES)}{draw(SUFFIXES)}"


NUMBERS = st.sampled_from(["0", "1", "2", "3", "7", "1000000"])
ATOMS = st.one_of(dice(), NUMBERS)


def combine(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", " + ", "-"]), inner).map("".join),
        st.tuples(inner, NUMBERS).map(lambda t: f"{t[0]}*{t[1]}"),
        st.tuples(NUMBERS, inner).map(lambda t: f"{t[0]} * ({t[1]})"),
        inner.map(lambda t: f"({t})"),
        inner.map(lambda t: f"-({t})"),
    )


EXPRESSIONS = st.recursive(ATOMS, combine, max_leaves=12)
#: The model's estimate under which the test computes the distribution itself (fast enough here).
CHEAP = 2_000_000


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS)
def test_every_expression_parse_accepts_reads_back_from_its_str(text: str) -> None:
    try:
        expr = parse(text)
    except NotationError:
        return
    written = str(expr)
    assert len(written) <= MAX_LENGTH
    assert parse(written) == expr
    assert str(parse(written)) == written


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789dDkhlrRfF%!<>=+-*() \u203a\u2265", max_size=16))
def test_any_text_parse_accepts_reads_back_from_its_str(text: str) -> None:
    try:
        expr = parse(text)
    except NotationError:
        return
    assert parse(str(expr)) == expr


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS)
def test_every_expression_answers_inside_its_predicted_shape_or_refuses_before_working(text: str) -> None:
    try:
        expr = parse(text)
    except NotationError:
        return
    work, shape = expr.plan()
    if work > MAX_WORK:
        with pytest.raises(ComputationTooLargeError, match="roll it instead"):
            expr.dist()
    elif work <= CHEAP:
        dist = expr.dist()
        assert shape.low <= dist.min() <= dist.max() <= shape.high
        assert len(dist) <= shape.count and max(dist.weights().values()).bit_length() <= shape.bits
        assert dist.denominator.bit_length() <= shape.total_bits


def test_a_chain_as_long_as_the_limit_allows_reads_back() -> None:
    chain = "-".join(f"1d{s}" for s in range(2, 400))
    chain = chain[:chain.rindex("-", 0, MAX_LENGTH)]
    expr = parse(chain)
    assert parse(str(expr)) == expr


def test_the_limit_applies_to_the_notation_as_written_back() -> None:
    short = "+".join(["d6"] * 333)  # 998 characters as typed, 1331 as "1d6+1d6+..."
    with pytest.raises(NotationError, match="written out in full"):
        parse(short)
    assert str(parse("+".join(["d6"] * 250))).count("1d6") == 250


@pytest.mark.parametrize("text", [
    "134d134+134d134", "1000d100", "1000d10000kh500",
    "(1000d10000)*3", "1000d100r1", "500dF+500d10000",
])
def test_the_issues_slow_expressions_are_priced_over_the_budget_and_refused(text: str) -> None:
    expr = parse(text)
    assert expr.work() > MAX_WORK
    with pytest.raises(ComputationTooLargeError):
        expr.dist()


def test_repeated_identical_terms_cost_what_one_sum_of_dice_costs() -> None:
    assert parse("+".join(["1d100"] * 154)).work() <= parse("154d100").work() * 1.01
    assert parse("1d100+1d100+1d100").dist() == parse("3d100").dist()


def test_lid_off_successes_of_a_thousand_dice_are_refused_before_any_big_number_is_built() -> None:
    with pytest.raises(ComputationTooLargeError, match="lid-off successes of 1000 dice"):
        count_successes(1000, lid="off")
    assert count_successes(200, lid="off").p_ge(120) > 0  # a large pool within the budget answers
