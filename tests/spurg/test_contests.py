"""Contested actions and extended contests; odds checked against brute-force enumeration."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedSource
from rules.spurg.contests import (
    SpurgError,
    Decision,
    ExtendedContest,
    contest,
    contest_odds,
    contest_table,
    contested_roll,
    expected_rounds,
    extended_contest_odds,
    extended_contest_table,
)
from rules.spurg.verdict import judge

ROLLS = [sum(dice) for dice in product(range(1, 7), repeat=3)]


def p_at_most(tn):
    """P(3d6 <= tn): the success chance for TNs 6 to 14, where no critical overrides the TN."""
    assert 6 <= tn <= 14
    return Fraction(sum(1 for r in ROLLS if r <= tn), 216)


def test_contest_lone_success_wins():
    result = contest([judge(13, 12), judge(11, 12)])
    assert (result.winner, result.decision) == (1, Decision.ONLY_SUCCESS)


def test_contest_both_succeed_better_margin_wins_from_the_notes():
    result = contest([judge(9, 12), judge(12, 14)])  # A margin 3, B margin 2
    assert (result.winner, result.decision) == (0, Decision.BEST_MARGIN_OF_SUCCESS)


def test_contest_equal_margins_draw_from_the_notes():
    result = contest([judge(9, 12), judge(11, 14)])  # both margin 3
    assert result.draw and result.tied == (0, 1) and result.decision is Decision.DRAW


def test_contest_all_fail_smaller_margin_of_failure_wins():
    result = contest([judge(15, 12), judge(14, 12)])
    assert (result.winner, result.decision) == (1, Decision.SMALLEST_MARGIN_OF_FAILURE)


def test_contest_some_succeed_only_successes_compare():
    result = contest([judge(10, 12), judge(18, 12), judge(7, 12)])
    assert (result.winner, result.decision) == (2, Decision.BEST_MARGIN_OF_SUCCESS)
    tied = contest([judge(9, 12), judge(9, 12), judge(5, 8), judge(17, 12)])
    assert tied.draw and tied.tied == (0, 1, 2)


def test_contest_needs_two_sides():
    with pytest.raises(SpurgError, match="not 1"):
        contest([judge(9, 12)])


def test_contested_roll_draws_dice_side_by_side():
    result = contested_roll([12, 14], ScriptedSource([3, 3, 3, 4, 4, 4]))
    assert [v.roll for v in result.verdicts] == [9, 12] and result.winner == 0


def test_contest_odds_match_brute_force():
    for a, b in ((12, 14), (10, 10), (3, 18)):
        win = draw = 0
        judged_a, judged_b = [judge(r, a) for r in ROLLS], [judge(r, b) for r in ROLLS]  # each roll once
        for va in judged_a:
            for vb in judged_b:
                if va.success != vb.success:
                    win += va.success
                elif va.margin == vb.margin:
                    draw += 1
                else:
                    win += (va.margin > vb.margin) if va.success else (va.margin < vb.margin)
        odds = contest_odds(a, b)
        assert (odds.win, odds.draw) == (Fraction(win, 216 ** 2), Fraction(draw, 216 ** 2))
        assert odds.win + odds.draw + odds.lose == 1


def test_contest_odds_are_symmetric_at_equal_tns():
    odds = contest_odds(11, 11)
    assert odds.win == odds.lose


def test_contest_table_rows_per_tn():
    table = contest_table(10, 8, 12)
    assert table.column("Your TN") == (8, 9, 10, 11, 12)
    assert table.rows[2][1] == table.rows[2][3]


def test_extended_contest_repeats_until_exactly_one_succeeds():
    race = ExtendedContest({"Ann": 12, "Bo": 12})
    first = race.roll_round(ScriptedSource([2, 2, 2, 3, 3, 3]))  # both succeed: margins ignored
    assert first.winner is None and not race.finished
    second = race.roll_round(ScriptedSource([6, 6, 1, 1, 2, 3]))  # 13 fails, 6 succeeds
    assert second.winner == "Bo" and race.finished and race.winner == "Bo"
    with pytest.raises(SpurgError, match="'Bo' has already won"):
        race.roll_round(ScriptedSource([1, 1, 1]))


def test_extended_contest_modifiers_and_drop_outs():
    race = ExtendedContest({"Ann": 12, "Bo": 12, "Cy": 10})
    assert race.adjust("Cy", -2) == 8
    race.drop_out("Ann")
    played = race.roll_round(ScriptedSource([3, 3, 3, 3, 3, 3]))  # 9 each: Bo succeeds, Cy (TN 8) fails
    assert played.winner == "Bo" and set(played.verdicts) == {"Bo", "Cy"}
    with pytest.raises(SpurgError, match="'Ann'"):
        race.adjust("Ann", 1)


def test_extended_contest_everyone_drops_out_or_walkover():
    race = ExtendedContest({"Ann": 12, "Bo": 12})
    race.drop_out("Ann")
    assert not race.finished  # Bo must still succeed once
    race.drop_out("Bo")
    assert race.finished and race.winner is None
    walk = ExtendedContest({"Ann": 12, "Bo": 12}, walkover=True)
    walk.drop_out("Ann")
    assert walk.winner == "Bo"


def test_extended_contest_rejects_bad_input():
    with pytest.raises(SpurgError):
        ExtendedContest({"Ann": 12})
    with pytest.raises(SpurgError, match="'12'"):
        ExtendedContest({"Ann": "12", "Bo": 10})


def test_extended_contest_odds_by_formula():
    pa, pb = p_at_most(12), p_at_most(10)
    win, lose = extended_contest_odds(12, 10)
    assert win == pa * (1 - pb) / (pa * (1 - pb) + pb * (1 - pa)) and win + lose == 1
    assert expected_rounds(12, 10) == 1 / (pa * (1 - pb) + pb * (1 - pa))
    assert extended_contest_odds(10, 10) == (Fraction(1, 2), Fraction(1, 2))
    # target precedence at TN 18 and above: everyone always succeeds, no round is ever decided
    assert extended_contest_odds(18, 19, precedence="target") == (0, 0)
    assert expected_rounds(18, 19, precedence="target") is None


def test_extended_contest_run_stops_at_the_winner():
    race = ExtendedContest({"Ann": 10, "Bo": 10})
    winner = race.run(ScriptedSource([1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 2, 1]))
    assert winner == "Bo" and len(race.rounds) == 2


def test_extended_contest_table():
    table = extended_contest_table(10, 10, 10)
    assert table.rows == ((10, Fraction(1, 2), Fraction(1, 2), "2.00"),)


def test_contests_refuse_what_is_not_a_verdict_or_a_name():
    from rules.spurg.contests import SpurgError

    with pytest.raises(SpurgError, match="9"):
        contest([9, 12])
    with pytest.raises(SpurgError, match="'ab'"):
        contest("ab")
    with pytest.raises(SpurgError, match=r"\[12, 10\]"):
        ExtendedContest([12, 10])
    with pytest.raises(SpurgError, match="1"):
        ExtendedContest({1: 12, 2: 10})
    with pytest.raises(SpurgError, match="'yes'"):
        ExtendedContest({"Ann": 12, "Bo": 10}, walkover="yes")
