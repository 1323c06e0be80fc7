"""The everyday forms: fudge dice, d%, rerolls, drop lowest/highest, multiplication and parentheses."""

from __future__ import annotations

import itertools

import pytest

from rules.dice import Constant, DiceError, Dice, Dist, Keep, NotationError, ScriptedSource, SeededSource, Sum, parse
from rules.dice import Fudge, Reroll, Scale


@pytest.mark.parametrize("text, expected", [
    ("4dF", Fudge(4)),
    ("dF", Fudge(1)),
    ("4df+1", Sum((Fudge(4), Constant(1)), (1, 1))),
    ("d%", Dice(1, 100)),
    ("3d%", Dice(3, 100)),
    ("2d6r1", Reroll(2, 6, 1, 1)),
    ("1d8r<3", Reroll(1, 8, 1, 2)),
    ("1d10r>8", Reroll(1, 10, 9, 10)),
    ("1d6rr1", Reroll(1, 6, 1, 1, until=True)),
    ("4d6dl1", Keep(4, 6, 3, True)),
    ("4d6dh1", Keep(4, 6, 3, False)),
    ("2*1d6", Scale(Dice(1, 6), 2)),
    ("1d6*3", Scale(Dice(1, 6), 3)),
    ("2 * 3 * 1d6", Scale(Dice(1, 6), 6)),
    ("2*(1d6*3)", Scale(Dice(1, 6), 6)),
    ("(1d6+2)*2", Scale(Sum((Dice(1, 6), Constant(2)), (1, 1)), 2)),
    ("(1d6+2)", Sum((Dice(1, 6), Constant(2)), (1, 1))),
    ("-(1d6+2)", Sum((Dice(1, 6), Constant(2)), (-1, -1))),
    ("1d20-(1d4-1)", Sum((Dice(1, 20), Dice(1, 4), Constant(1)), (1, -1, 1))),
    ("((1d6))", Dice(1, 6)),
    ("2*3", Constant(6)),
    ("1d6*1", Dice(1, 6)),
])
def test_everyday_forms_parse_into_expression_objects(text, expected):
    assert parse(text) == expected


@pytest.mark.parametrize("text, position, reason", [
    ("1d6*1d6", 4, "multiplied by a number, not by other dice"),
    ("0*1d6", 0, "at least 1, not 0"),
    ("1d6*-2", 4, "expected a die"),
    ("(1d6", 4, "expected ')' to close the '(' at column 1"),
    ("1d6)", 3, "no '(' before it"),
    ("()", 1, "empty parentheses"),
    ("1d6r7", 4, "never shows 7"),
    ("1d6r<1", 5, "never shows a face <1"),
    ("1d6r<7", 5, "changes nothing"),
    ("1d6rr<7", 6, "would never stop"),
    ("4d6dl4", 5, "cannot drop 4 of 4"),
    ("4d6dl0", 5, "drop at least 1"),
    ("4dFkh2", 3, "nothing may follow 4dF"),
    ("2d6r1r2", 5, "one reroll or one explosion per die"),
    ("2d6!r1", 4, "one reroll or one explosion per die"),
    ("1d6 › 1d8", 4, "a keep-highest pool such as Nemron's"),
    ("(" * 21 + "1" + ")" * 21, 20, "nest at most 20"),
    ("1000*1000*2", 10, "product of numbers is at most"),
])
def test_bad_everyday_forms_report_column_and_reason(text, position, reason):
    with pytest.raises(NotationError) as caught:
        parse(text)
    assert caught.value.position == position and reason in caught.value.reason


@pytest.mark.parametrize("text, written", [
    ("d%", "1d100"), ("4d6dl1", "4d6kh3"), ("2*1d6", "1d6*2"), ("1d6r>5", "1d6r6"), ("-(1d6+2)", "-1d6-2"),
    ("6d6>=4*2", "(6d6>=4)*2"), ("(-1d6)*2", "(-1d6)*2"),
])
def test_canonical_notation_of_the_new_forms(text, written):
    assert str(parse(text)) == written
    assert parse(written) == parse(text)


def every_script(expr_text: str, sides: int, faces_used: int) -> Dist:
    """Roll ``expr_text`` once with every script of ``faces_used`` faces: each script is equally
    likely, so the totals are distributed exactly as the expression (faces left over change nothing)."""
    expr = parse(expr_text)
    totals = [expr.roll(ScriptedSource(script)).total
              for script in itertools.product(range(1, sides + 1), repeat=faces_used)]
    return Dist.from_outcomes(totals)


@pytest.mark.parametrize("text, sides, faces_used", [
    ("3dF", 3, 3), ("2d4r1", 4, 4), ("2d3r<3", 3, 4), ("1d6r>4", 6, 2), ("3d4dl1", 4, 3), ("3d4dh2", 4, 3),
    ("1d4*3", 4, 1), ("(1d4+2)*2", 4, 1), ("2*(1d3-1d3)+1d3", 3, 3), ("-(2dF)", 3, 2),
])
def test_rolling_agrees_with_the_distribution_over_every_script(text, sides, faces_used):
    assert every_script(text, sides, faces_used) == parse(text).dist()


def test_a_reroll_shows_the_rerolled_die_dropped():
    result = parse("2d6r1").roll(ScriptedSource([1, 4, 5]))
    assert result.total == 9 and result.faces == (1, 4, 5) and result.kept_faces == (4, 5)
    assert str(result) == "2d6r1: [(1), 4, 5] = 9"


def test_a_reroll_happens_once_even_if_the_new_face_would_be_rerolled_too():
    assert parse("1d6r1").roll(ScriptedSource([1, 1])).total == 1


def test_a_reroll_until_rolls_again_until_the_face_stands():
    result = parse("1d6rr<3").roll(ScriptedSource([1, 2, 1, 5]))
    assert result.total == 5 and result.kept_faces == (5,) and str(result) == "1d6rr<3: [(1), (2), (1), 5] = 5"


def test_a_reroll_until_gives_up_rather_than_roll_forever():
    with pytest.raises(DiceError, match="1,000 times in a row"):
        parse("1d6rr1").roll(ScriptedSource([1] * 1001))


def test_fudge_dice_read_a_d3_as_minus_one_zero_plus_one():
    result = parse("4dF").roll(ScriptedSource([1, 2, 3, 3]))
    assert result.faces == (-1, 0, 1, 1) and result.total == 1


def test_multiplication_scales_the_rolled_total():
    result = parse("(1d6+2)*2").roll(ScriptedSource([5]))
    assert result.total == 14 and "* 2" in str(result)


def test_seeded_rolls_of_every_form_stay_inside_the_distribution():
    for text in ["4dF", "d%", "3d6r<3", "3d6rr<3", "4d6dl1", "(2d6+1)*3", "2*1d4-1dF"]:
        expr = parse(text)
        support = set(expr.dist().support())
        source = SeededSource(7)
        assert all(expr.roll(source).total in support for _ in range(50)), text
