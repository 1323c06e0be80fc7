"""The Verdict Roll: expected numbers come from the SPURG notes and from enumerating all 216 rolls."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedSource
from rules.spurg.verdict import (
    CriticalPrecedence,
    SpurgError,
    Outcome,
    is_critical_failure,
    is_critical_success,
    is_failure,
    is_success,
    judge,
    margin_of_failure,
    margin_of_success,
    margin_table,
    outcome_odds,
    success_probability,
    target_number,
    verdict_dist,
    verdict_odds_table,
    verdict_roll,
)

ROLLS = [sum(dice) for dice in product(range(1, 7), repeat=3)]

# The notes' per-TN counts out of 216: (success, critical success, critical failure), raw conditions.
NOTES_COUNTS = {
    1: (0, 4, 81), 2: (0, 4, 56), 3: (1, 4, 35), 4: (4, 4, 20), 5: (10, 4, 10), 6: (20, 4, 4),
    7: (35, 4, 4), 8: (56, 4, 4), 9: (81, 4, 4), 10: (108, 4, 4), 11: (135, 4, 4), 12: (160, 4, 4),
    13: (181, 4, 4), 14: (196, 4, 4), 15: (206, 10, 4), 16: (212, 20, 1), 17: (215, 20, 1),
    18: (216, 20, 1), 19: (216, 20, 1), 20: (216, 20, 1),
}


def test_verdict_roll_sums_three_d6_and_low_is_good():
    verdict = verdict_roll(10, ScriptedSource([2, 3, 4]))
    assert (verdict.roll, verdict.dice, verdict.success, verdict.margin) == (9, (2, 3, 4), True, 1)
    assert verdict_roll(10, ScriptedSource([6, 5, 1])).success is False


def test_verdict_dist_is_the_3d6_bell_curve():
    dist = verdict_dist()
    for total in range(3, 19):
        assert dist.p(total) == Fraction(ROLLS.count(total), 216)


def test_target_number_takes_every_modifier_and_the_roll_none():
    assert target_number(13, -2) == 11  # constructed: Guns (Pistol) 13 at a range modifier of -2
    assert target_number(12) == 12
    assert target_number(10, 2, -5) == 7


def test_target_number_rejects_non_whole_numbers():
    with pytest.raises(SpurgError, match="12.5"):
        target_number(12.5)
    with pytest.raises(SpurgError, match="'-2'"):
        target_number(12, "-2")


@pytest.mark.parametrize("tn", range(1, 21))
def test_critical_conditions_match_the_notes_counts(tn):
    _, crit_success, crit_failure = NOTES_COUNTS[tn]
    assert sum(is_critical_success(r, tn) for r in ROLLS) == crit_success
    assert sum(is_critical_failure(r, tn) for r in ROLLS) == crit_failure


@pytest.mark.parametrize("tn", range(1, 21))
def test_success_under_target_precedence_is_roll_at_most_tn(tn):
    successes = sum(is_success(r, tn, precedence="target") for r in ROLLS)
    assert successes == NOTES_COUNTS[tn][0]


@pytest.mark.parametrize("tn", range(-2, 23))
def test_success_under_critical_precedence_from_the_notes_counts(tn):
    # the notes' counts, with the default reading applied by hand: a 3 or 4 always succeeds (4 ways),
    # an 18 always fails (1 way), a 17 fails up to TN 15 (it is over the TN there anyway)
    plain = sum(1 for r in ROLLS if r <= tn)
    expected = max(plain, 4) if tn < 18 else 215
    assert sum(is_success(r, tn) for r in ROLLS) == expected


def test_success_probabilities_from_the_notes():
    assert success_probability(10) == Fraction(1, 2)
    assert success_probability(12) == Fraction(20, 27)
    assert success_probability(14) == Fraction(49, 54)


def test_critical_success_examples_from_the_notes():
    assert judge(5, 15).outcome is Outcome.CRITICAL_SUCCESS
    ordinary = judge(5, 14)
    assert (ordinary.outcome, ordinary.margin) == (Outcome.SUCCESS, 9)
    assert is_critical_success(6, 16) and not is_critical_success(6, 15)


def test_critical_failure_examples_from_the_notes():
    assert judge(17, 15).outcome is Outcome.CRITICAL_FAILURE
    assert judge(17, 16).outcome is Outcome.FAILURE
    assert judge(17, 6).outcome is Outcome.CRITICAL_FAILURE  # 17 > 6 + 10
    assert judge(16, 6).outcome is Outcome.FAILURE  # 16 is not more than 10 over 6


def test_critical_precedence_decides_the_edges():
    # TN 3 or less: a 3 or 4 over the TN
    assert judge(4, 2).outcome is Outcome.CRITICAL_SUCCESS
    assert judge(4, 2, precedence="target").outcome is Outcome.FAILURE
    # TN 18 or more: an 18 under the TN
    assert judge(18, 20).outcome is Outcome.CRITICAL_FAILURE
    assert judge(18, 20, precedence="target").outcome is Outcome.SUCCESS
    # TN 17: a 17 is a plain success either way
    assert judge(17, 17).outcome is Outcome.SUCCESS
    # both conditions at once (3 more than 10 over TN -8): the critical success wins by default
    assert is_critical_failure(3, -8) and is_critical_success(3, -8)
    assert judge(3, -8).outcome is Outcome.CRITICAL_SUCCESS
    assert judge(3, -8, precedence="target").outcome is Outcome.CRITICAL_FAILURE


def test_critical_precedence_rejects_unknown_names():
    with pytest.raises(SpurgError, match="'gurps'"):
        CriticalPrecedence.of("gurps")
    with pytest.raises(SpurgError, match="'roll'"):
        judge(10, 10, precedence="roll")


def test_success_and_failure_are_complementary():
    for tn in range(-3, 23):
        for roll in range(3, 19):
            assert is_success(roll, tn) != is_failure(roll, tn)


def test_margin_of_success_is_tn_minus_roll_never_negative():
    assert margin_of_success(9, 12) == 3
    assert margin_of_success(12, 12) == 0
    assert margin_of_success(13, 12) == 0


def test_margin_of_failure_is_roll_minus_tn_never_negative():
    assert margin_of_failure(14, 12) == 2
    assert margin_of_failure(12, 12) == 0
    assert margin_of_failure(3, 12) == 0


def test_verdict_roll_rejects_impossible_totals():
    for bad in (2, 19, 10.0, True, "10"):
        with pytest.raises(SpurgError, match=repr(bad).replace(".", r"\.")):
            judge(bad, 10)


def test_outcome_odds_by_enumeration_for_both_precedences():
    for rule in CriticalPrecedence:
        for tn in range(-2, 22):
            odds = outcome_odds(tn, precedence=rule)
            assert sum(odds.values()) == 1
            for result in Outcome:
                count = sum(judge(r, tn, precedence=rule).outcome is result for r in ROLLS)
                assert odds[result] == Fraction(count, 216)


def test_verdict_odds_table_has_every_tn_one_to_twenty():
    table = verdict_odds_table()
    assert table.column("TN") == tuple(range(1, 21))
    rows = {row[0]: row[1:] for row in table.rows}
    # critical precedence: TN 1 succeeds only on a critical 3 or 4; TN 18 fails only on the 18
    assert rows[1] == (Fraction(4, 216), Fraction(4, 216), Fraction(81, 216))
    assert rows[18] == (Fraction(215, 216), Fraction(20, 216), Fraction(1, 216))
    target = {row[0]: row[1:] for row in verdict_odds_table("target").rows}
    assert target[1] == (0, 0, Fraction(81, 216))
    assert target[18] == (1, Fraction(20, 216), 0)


def test_margin_table_lists_every_roll_with_its_margin():
    table = margin_table(12)
    assert table.column("Roll") == tuple(range(3, 19))
    rows = {row[0]: row for row in table.rows}
    assert rows[9][1:3] == ("success", 3)
    assert rows[14][1:3] == ("failure", 2)
    assert rows[12][4] == Fraction(160, 216)
    assert rows[18][4] == 1


def test_judge_refuses_dice_that_do_not_make_the_total():
    from rules.spurg.verdict import SpurgError

    assert judge(9, 12, dice=[2, 3, 4]).dice == (2, 3, 4)
    with pytest.raises(SpurgError, match=r"\(1, 2\)"):
        judge(10, 10, dice=[1, 2])
    with pytest.raises(SpurgError, match=r"\(7, 2, 1\)"):
        judge(10, 10, dice=[7, 2, 1])
    with pytest.raises(SpurgError, match="'10'"):
        judge("10", 10, dice=[4, 3, 3])
