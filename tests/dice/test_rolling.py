"""Rolling with injectable sources: seeded, scripted (rulebook examples), and readable results."""

from __future__ import annotations

import random

import pytest

from rules.dice import (DiceError, DiceSource, DieRoll, RollResult, ScriptedSource, SeededSource,
                        parse)
from rules.dice.errors import ScriptExhaustedError, ScriptFaceError
from rules.dice.rolling import default_source


def test_seeded_sources_repeat_and_follow_random_random():
    a = [SeededSource(42).roll(6) for _ in range(1)]
    rng = random.Random(42)
    assert a == [rng.randint(1, 6)]
    s1, s2 = SeededSource(7), SeededSource(random.Random(7))
    assert [s1.roll(20) for _ in range(50)] == [s2.roll(20) for _ in range(50)]
    assert all(1 <= default_source().roll(8) <= 8 for _ in range(100))
    assert isinstance(SeededSource(1), DiceSource) and isinstance(ScriptedSource([]), DiceSource)


def test_scripted_source_returns_faces_in_order_then_runs_out():
    src = ScriptedSource([5, 5, 3, 2])
    assert [src.roll(6) for _ in range(3)] == [5, 5, 3] and src.remaining == 1
    assert src.roll(6) == 2 and src.remaining == 0
    with pytest.raises(ScriptExhaustedError):
        src.roll(6)


def test_a_scripted_face_the_die_cannot_show_names_the_face_and_the_die():
    src = ScriptedSource([7])
    with pytest.raises(ScriptFaceError, match=r"7.*d6"):
        src.roll(6)
    assert issubclass(ScriptFaceError, DiceError) and issubclass(ScriptExhaustedError, DiceError)
    with pytest.raises(ScriptFaceError):
        ScriptedSource([0])


def test_keep_roll_marks_the_dropped_die():
    result = parse("4d6kh3").roll(ScriptedSource([6, 4, 1, 3]))
    assert str(result) == "4d6kh3: [6, 4, (1), 3] = 13"
    assert result.faces == (6, 4, 1, 3) and result.kept_faces == (6, 4, 3) and result.total == 13


def test_keep_lowest_roll_drops_ties_after_the_first():
    result = parse("3d20kl1").roll(ScriptedSource([9, 4, 4]))
    assert result.kept_faces == (4,) and result.dice[1].kept and not result.dice[2].kept


def test_success_count_roll_shows_failures_dropped():
    result = parse("6d6>=4").roll(ScriptedSource([6, 2, 4, 1, 5, 3]))
    assert result.total == 3 and str(result) == "6d6>=4: [6, (2), 4, (1), 5, (3)] = 3"


def test_exploding_roll_rerolls_maxima_and_links_each_reroll_to_its_die():
    result = parse("3d6!").roll(ScriptedSource([6, 6, 2, 4, 1]))
    assert result.total == 19 and str(result) == "3d6!: [6!, 6!, 2, 4, 1] = 19"
    assert [d.exploded_from for d in result.dice] == [None, 0, 1, None, None]


def test_exploding_roll_stops_at_the_depth_limit_whatever_the_source():
    class AlwaysMax:
        def roll(self, sides: int) -> int:
            return sides
    result = parse("1d6!").roll(AlwaysMax())
    assert len(result.dice) == 10 and result.total == 60  # 1 roll + 9 re-rolls (EXPLODE_DEPTH)


def test_sum_roll_concatenates_dice_and_shows_each_term():
    result = parse("2d6+1d6!-3").roll(ScriptedSource([1, 2, 6, 3]))
    assert result.total == 1 + 2 + 6 + 3 - 3
    assert str(result) == "2d6+1d6!-3: [1, 2] + [6!, 3] - 3 = 9"
    assert result.dice[3].exploded_from == 2


def test_seeded_rolls_always_land_in_the_support_of_the_distribution():
    source = SeededSource(2024)
    for text in ["3d6", "4d6kh3", "6d6>=5", "2d4!", "1d20-1d4+2", "-3"]:
        expr = parse(text)
        support = set(expr.dist().support())
        for _ in range(200):
            assert expr.roll(source).total in support


def test_roll_results_are_plain_dataclasses():
    r = RollResult("x", (DieRoll(6, 3), DieRoll(6, 1, kept=False)), 3)
    assert str(r) == "x: [3, (1)] = 3" and r.kept_faces == (3,)
