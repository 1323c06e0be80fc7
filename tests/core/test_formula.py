"""Safe formulas: exact arithmetic, clear errors, never eval."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.formula import Fenced, Formula, FormulaError, Over, Symbol


def test_energy_maximum_formula_adds_three_attributes_and_five():
    assert Formula("Control + Sense + Focus + 5")(Control=2, Sense=1, Focus=3) == 11


def test_division_is_exact_and_floor_rounds_down():
    assert Formula("(AGI + VIT) / 2")(AGI=11, VIT=10) == Fraction(21, 2)
    assert Formula("floor((AGI + VIT) / 2)")(AGI=11, VIT=10) == 10
    assert Formula("floor(x / 2)")(x=-1) == -1  # floor, not truncation


def test_a_whole_value_is_an_int_and_a_fraction_is_refused_where_a_whole_one_is_needed():
    assert Formula("5 + Power + Agility").whole(Power=2, Agility=1) == 8
    assert type(Formula("(AGI + VIT) / 2").whole(AGI=10, VIT=12)) is int
    with pytest.raises(FormulaError, match="21/2 is not a whole number"):
        Formula("(AGI + VIT) / 2").whole(AGI=11, VIT=10)


def test_precedence_and_associativity_follow_arithmetic():
    assert Formula("2 + 3 * 4")() == 14
    assert Formula("10 - 3 - 2")() == 5
    assert Formula("-(2 + 3) * 2")() == -10
    assert Formula("max(1, 4 - Sta)")(Sta=-2) == 6
    assert Formula("max(1, 4 - Sta)")(Sta=4) == 1


def test_names_lists_inputs_in_order_of_first_use():
    assert Formula("a + b * a - c").names == ("a", "b", "c")


def test_latex_renders_fractions_and_floors():
    assert Formula("floor((AGI + VIT) / 2)").latex() == \
        r"\left\lfloor \frac{\mathrm{AGI} + \mathrm{VIT}}{2} \right\rfloor"


def test_boxes_set_a_fraction_over_its_denominator_inside_floor_brackets():
    """The layout a renderer without TeX (the HTML site) typesets: the same shape as the LaTeX."""
    assert Formula("floor((AGI + VIT) / 2)").boxes() == (
        Fenced("\N{LEFT FLOOR}", (Over((Symbol("var", "AGI"), Symbol("op", "+"), Symbol("var", "VIT")),
                                        (Symbol("num", "2"),)),), "\N{RIGHT FLOOR}"),)


def test_boxes_keep_needed_parentheses_and_tell_a_sign_from_a_minus():
    assert Formula("-(a - b) * max(c, 2)").boxes() == (
        Symbol("sign", "\N{MINUS SIGN}"),
        Fenced("(", (Symbol("var", "a"), Symbol("op", "\N{MINUS SIGN}"), Symbol("var", "b")), ")"),
        Symbol("op", "\N{MULTIPLICATION SIGN}"),
        Symbol("func", "max"), Fenced("(", (Symbol("var", "c"), Symbol("punct", ", "), Symbol("num", "2")), ")"))


@pytest.mark.parametrize("text, column, reason", [
    ("", 1, "empty"),
    ("3 +* 2", 4, "expected a number"),
    ("a + (b", 7, "expected ')'"),
    ("__import__('os')", 12, "unexpected character"),
    ("__import__(1)", 1, "unknown function '__import__'"),
    ("a # b", 3, "unexpected character '#'"),
    ("eval(1)", 1, "unknown function 'eval'"),
    ("min(1)", 1, "takes 2..16 arguments"),
    ("a b", 3, "unexpected 'b'"),
])
def test_bad_formulas_raise_formula_error_naming_the_column(text, column, reason):
    with pytest.raises(FormulaError) as error:
        Formula(text)
    assert error.value.position + 1 == column and reason in str(error.value)


def test_a_missing_value_names_the_input():
    with pytest.raises(FormulaError, match="no value given for 'Focus'"):
        Formula("Control + Focus")(Control=1)


def test_division_by_zero_is_a_formula_error():
    with pytest.raises(FormulaError, match="division by zero"):
        Formula("a / b")(a=1, b=0)


def test_overlong_formulas_are_refused():
    with pytest.raises(FormulaError, match="too long"):
        Formula("1 + " * 200 + "1")


expressions = st.recursive(
    st.one_of(st.integers(0, 50).map(str), st.sampled_from(["a", "b", "c"])),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda e: f"-{e}"),
        st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
    ),
    max_leaves=8,
)


@given(expressions, st.integers(-5, 5), st.integers(-5, 5), st.integers(-5, 5))
def test_printing_a_formula_and_parsing_it_again_gives_the_same_formula(text, a, b, c):
    formula = Formula(text)
    again = Formula(str(formula))
    assert again == formula
    assert again(a=a, b=b, c=c) == formula(a=a, b=b, c=c)


@given(st.text(max_size=40))
def test_arbitrary_text_either_parses_or_raises_formula_error(text):
    try:
        Formula(text)
    except FormulaError:
        pass
