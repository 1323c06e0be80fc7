"""Roll-under checks with margins and criticals (SPURG 3d6), contests and opposed rolls."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules.dice import Dist, RollUnder, Verdict, compare, contest, count_successes, opposed, roll_under

THREE_D6 = Dist.die(6).repeat_sum(3)


def spurg_crit_success(roll: int, tn: int) -> bool:
    return roll <= 4 or (roll == 5 and tn >= 15) or (roll == 6 and tn >= 16)


def spurg_crit_failure(roll: int, tn: int) -> bool:
    return roll == 18 or (roll == 17 and tn <= 15) or roll >= tn + 11


def spurg(tn: int) -> RollUnder:
    return RollUnder(THREE_D6, tn, spurg_crit_success, spurg_crit_failure)


# The notes' table: TN -> (success, crit success, crit failure) out of 216.
SPURG_TABLE = {
    1: (0, 4, 81), 2: (0, 4, 56), 3: (1, 4, 35), 4: (4, 4, 20), 5: (10, 4, 10), 6: (20, 4, 4),
    7: (35, 4, 4), 8: (56, 4, 4), 9: (81, 4, 4), 10: (108, 4, 4), 11: (135, 4, 4), 12: (160, 4, 4),
    13: (181, 4, 4), 14: (196, 4, 4), 15: (206, 10, 4), 16: (212, 20, 1), 17: (215, 20, 1),
    18: (216, 20, 1), 19: (216, 20, 1),
}


@pytest.mark.parametrize("tn", sorted(SPURG_TABLE))
def test_spurg_per_tn_counts_of_success_and_criticals(tn):
    check = spurg(tn)
    success, crit_s, crit_f = SPURG_TABLE[tn]
    assert (check.p_success(), check.p_crit_success(), check.p_crit_failure()) == \
        (F(success, 216), F(crit_s, 216), F(crit_f, 216))
    assert check.p_success() + check.p_failure() == 1


def test_spurg_worked_success_chances():
    assert spurg(10).p_success() == F(1, 2)
    assert spurg(12).p_success() == F(20, 27)
    assert spurg(14).p_success() == F(49, 54)


def test_spurg_worked_verdicts():
    assert spurg(15).verdict(5) is Verdict.CRITICAL_SUCCESS
    assert spurg(14).verdict(5) is Verdict.SUCCESS
    assert spurg(15).verdict(17) is Verdict.CRITICAL_FAILURE
    assert spurg(16).verdict(17) is Verdict.FAILURE
    assert spurg(6).verdict(17) is Verdict.CRITICAL_FAILURE
    assert spurg(3).verdict(4) is Verdict.CRITICAL_SUCCESS  # a critical overrides the failure
    assert spurg(18).verdict(18) is Verdict.CRITICAL_FAILURE


def test_verdict_distribution_sums_the_table():
    v = spurg(10).verdicts()
    assert v.p(Verdict.CRITICAL_SUCCESS) == F(4, 216)
    assert v.p(Verdict.SUCCESS) == F(108 - 4, 216)
    assert v.p(Verdict.CRITICAL_FAILURE) == F(4, 216)
    assert sum(p for _, p in v.items()) == 1
    assert str(Verdict.CRITICAL_FAILURE) == "critical failure"


def test_margin_is_target_minus_roll():
    margin = roll_under(THREE_D6, 12)
    for roll in range(3, 19):
        assert margin.p(12 - roll) == THREE_D6.p(roll)
    assert margin.p_ge(0) == spurg(12).p_success()
    assert spurg(12).margin() == margin


def test_contest_larger_margin_wins_by_enumeration():
    win = tie = lose = F(0)
    for a, pa in THREE_D6.items():
        for b, pb in THREE_D6.items():
            ma, mb = 12 - a, 14 - b
            sa, sb = ma >= 0, mb >= 0
            if sa != sb:
                a_wins = sa
            elif ma == mb:
                tie += pa * pb
                continue
            else:
                a_wins = ma > mb  # both succeed: best margin; both fail: smallest failure
            if a_wins:
                win += pa * pb
            else:
                lose += pa * pb
    assert tuple(contest(THREE_D6, 12, THREE_D6, 14)) == (win, tie, lose)


def test_opposed_successes_difference_decides_nugget_contests():
    a, b = count_successes(4), count_successes(3)
    diff = opposed(a, b)
    assert diff.p_gt(0) == compare(a, b).win
    assert diff.p(0) == compare(a, b).tie
    assert diff.p_lt(0) == compare(a, b).lose
