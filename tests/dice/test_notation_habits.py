"""Notation as people type it: any whitespace, the typographic minus, one-line messages, and the
habits of other dice tools, each read with its one meaning or refused with a message naming the way
to write it here."""

from __future__ import annotations

import pytest

from rules.dice import Explode, Keep, NotationError, Reroll, parse


@pytest.mark.parametrize("text, same_as", [
    ("1d6\n", "1d6"), ("\t3d6 + 2\r\n", "3d6+2"), ("3d6\u00a0+\u00a02", "3d6+2"), ("\u2003d20\u2003", "d20"),
    ("(\n1d6\n+\n2\n)*2", "(1d6+2)*2"), ("2d6\u202f>=\u202f4", "2d6>=4"),
])
def test_whitespace_of_any_kind_is_tolerated_around_and_between_terms(text, same_as):
    assert parse(text) == parse(same_as)


@pytest.mark.parametrize("text, same_as", [
    ("1d20\u22125", "1d20-5"), ("\u2212(1d8+2)+10", "-(1d8+2)+10"), ("1d6 \u2212 1d4", "1d6-1d4"),
])
def test_the_typographic_minus_reads_as_minus(text, same_as):
    assert parse(text) == parse(same_as)


@pytest.mark.parametrize("text", [
    "1d6\nx", "x\n\ny", "1d6\u2028+", "2d6 >= 7\n", "1d20 +\u00a0\u0000", "\n" * 50 + "d", "1d6\r\n!",
])
def test_every_message_is_one_line_whatever_the_input(text):
    with pytest.raises(NotationError) as caught:
        parse(text)
    message = str(caught.value)
    assert message.isprintable() and "\n" not in message, message


@pytest.mark.parametrize("text, expected", [
    ("2d10!kh1", Keep(2, 10, 1, True, Explode(1, 10))),
    ("3d6!dl1", Keep(3, 6, 2, True, Explode(1, 6))),
    ("4d6r1kh3", Keep(4, 6, 3, True, Reroll(1, 6, 1, 1))),
    ("2d6ro1", Reroll(2, 6, 1, 1)),  # Roll20's reroll once is this r
    ("2d6r1", Reroll(2, 6, 1, 1)),  # rerolls once, as in Foundry (Roll20's r rerolls until: rr here)
])
def test_foreign_habits_with_one_meaning_are_read(text, expected):
    assert parse(text) == expected
    assert parse(str(expected)) == expected


@pytest.mark.parametrize("text, hint", [
    ("1d20+5 >= 15", "'--dc 15'"),
    ("2d6 >= 7", "'--dc 7'"),
    ("1d20+5>15", "':dc: 15'"),
    ("1d6x", "1d6!"),
    ("4d6d1", "4d6dl1"),
    ("8d10>7", "8d10>=7"),
    ("5d10!>=8", "5d10>=N counts the dice"),
    ("1d10!>8", "1d10! explodes on 10 only"),
    ("d20 adv", "2d20kh1"),
    ("d20 dis", "2d20kl1"),
    ("2d6r1r2", "2d6r1kh1"),
    ("1d6*1d6", "2d6"),
])
def test_foreign_habits_are_refused_with_the_way_to_write_them_here(text, hint):
    with pytest.raises(NotationError) as caught:
        parse(text)
    assert hint in str(caught.value)


def test_d66_is_one_die_of_66_faces_here():
    dist = parse("d66").dist()
    assert dist.min() == 1 and dist.max() == 66 and len(dist) == 66
