"""Dice notation: every form parses into the same objects the mechanics use; bad input is a NotationError."""

from __future__ import annotations

import pytest

from rules.dice import (MAX_DICE, MAX_SIDES, Constant, Dice, DiceError, Dist, Explode, Keep,
                        NotationError, SuccessCount, Sum, count_successes, explode, keep, parse)


@pytest.mark.parametrize("text, expected", [
    ("d20", Dice(1, 20)),
    ("1d20", Dice(1, 20)),
    ("3d6", Dice(3, 6)),
    ("3D6", Dice(3, 6)),
    ("2d6+3", Sum((Dice(2, 6), Constant(3)), (1, 1))),
    ("2d6 - 1", Sum((Dice(2, 6), Constant(1)), (1, -1))),
    ("1d20-1d4+2", Sum((Dice(1, 20), Dice(1, 4), Constant(2)), (1, -1, 1))),
    ("4d6kh3", Keep(4, 6, 3, True)),
    ("4d6k3", Keep(4, 6, 3, True)),
    ("2d6kl1", Keep(2, 6, 1, False)),
    ("6d6>=4", SuccessCount(6, 6, 4)),
    ("6d6 >= 4", SuccessCount(6, 6, 4)),
    ("d6!", Explode(1, 6)),
    ("2d10!+1", Sum((Explode(2, 10), Constant(1)), (1, 1))),
    ("7", Constant(7)),
    ("-3", Constant(-3)),
    ("-d4", Sum((Dice(1, 4),), (-1,))),
    ("  2d6  ", Dice(2, 6)),
])
def test_standard_notation_parses_into_expression_objects(text, expected):
    assert parse(text) == expected


def test_success_count_uses_greater_equal_and_a_game_pool_is_left_to_its_system():
    assert isinstance(parse("6d6>=4"), SuccessCount)
    with pytest.raises(NotationError, match=">="):
        parse("6d6>4")
    with pytest.raises(NotationError, match="game system's notation"):
        parse("1d6 › 1d8")


@pytest.mark.parametrize("text, position, reason", [
    ("3d0", 2, "a die needs at least 1 side"),
    ("0d6", 0, "at least 1 die"),
    ("4d6kh5", 5, "cannot keep 5 of 4"),
    ("4d6kh0", 5, "keep at least 1"),
    ("2d6++3", 4, "expected a die"),
    ("2d6 x", 4, "unexpected 'x'"),
    ("", 0, "empty"),
    ("d", 1, "number of sides"),
    ("1d6 >", 4, "to count the dice showing N or more write 1d6>=N"),
    ("6d6>=7", 5, "never shows 7"),
    ("1d1!", 3, "cannot explode"),
    ("4d6kh3 › 1d8", 7, "unexpected"),
    ("1d6 › 4d6kh1", 4, "unexpected '›'"),
    ("3d6d6", 3, "unexpected 'd'"),
])
def test_bad_notation_reports_column_and_reason(text, position, reason):
    with pytest.raises(NotationError) as caught:
        parse(text)
    err = caught.value
    assert err.text == text and err.position == position and reason in err.reason
    assert str(err).startswith(f"{text}: at column {position + 1}: ")
    assert isinstance(err, DiceError) and isinstance(err, ValueError)


def test_the_error_message_format_from_the_issue():
    with pytest.raises(NotationError, match=r"^3d0: at column 3: a die needs at least 1 side$"):
        parse("3d0")


@pytest.mark.parametrize("text", [
    f"{MAX_DICE + 1}d6", f"d{MAX_SIDES + 1}", "600d6+401d6", "9" * 5000,
    "1d6" + "+1d6" * 1000, "9" * 400 + "d6",
])
def test_sizes_are_bounded_so_nothing_hangs(text):
    with pytest.raises(NotationError):
        parse(text)
    assert parse(f"{MAX_DICE}d6").dice_count == MAX_DICE
    assert parse(f"d{MAX_SIDES}") == Dice(1, MAX_SIDES)


def test_non_strings_are_notation_errors():
    with pytest.raises(NotationError):
        parse(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("text, dist", [
    ("3d6", Dist.die(6).repeat_sum(3)),
    ("2d6+3", Dist.die(6).repeat_sum(2) + 3),
    ("1d20-1d4", Dist.die(20) - Dist.die(4)),
    ("4d6kh3", keep(4, 6, 3)),
    ("2d20kl1", keep(2, 20, 1, highest=False)),
    ("6d6>=4", count_successes(6)),
    ("2d6!", explode(6).repeat_sum(2)),
    ("-2", Dist.constant(-2)),
])
def test_parsed_expressions_give_the_mechanics_distributions(text, dist):
    assert parse(text).dist() == dist


def test_canonical_notation_reads_back_equal():
    for text in ["d20", "2d6 + 3", "4d6k3", "6d6 >= 4", "-d4+1d6!", "1d6+1d8-2"]:
        expr = parse(text)
        assert parse(str(expr)) == expr
    assert str(parse("d20")) == "1d20"


def test_expression_objects_validate_their_fields():
    with pytest.raises(ValueError):
        Keep(2, 6, 3)
    with pytest.raises(ValueError):
        SuccessCount(2, 6, 7)
    assert Sum((Dice(1, 6), Constant(-2)), (1, 1)) == Sum((Dice(1, 6), Constant(2)), (1, -1))
