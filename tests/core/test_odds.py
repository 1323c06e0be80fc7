"""rules.odds: how a long distribution's table folds its tails (the dice calculator's table, node:odds)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice import Dist, parse
from rules.odds import (AT_LEAST, AT_MOST, CHART_BARS, NEGLIGIBLE, ROW_LIMIT, Bin, BinError, Fold, FoldError,
                        chart_bins, distribution_table, fold_tails, folded_rows)


def test_a_table_of_at_most_forty_outcomes_is_shown_whole():
    six = parse("6d6").dist()  # 31 outcomes; 6 and 7 together are 7/46656, under one in two thousand
    assert six.p_le(7) < NEGLIGIBLE
    assert fold_tails(six) == Fold(0, 31, 31) and not fold_tails(six).folded
    assert fold_tails(six, short=0).folded  # the same tails fold when asked to


def test_a_negligible_tail_folds_into_one_row_the_most_outcomes_that_stay_under_one_in_two_thousand():
    dist = parse("100d6").dist()
    fold = fold_tails(dist)
    outcomes = dist.support()
    last_low, first_high = outcomes[fold.low - 1], outcomes[fold.high]
    assert dist.p_le(last_low) < NEGLIGIBLE <= dist.p_le(last_low + 1)
    assert dist.p_ge(first_high) < NEGLIGIBLE <= dist.p_ge(first_high - 1)
    assert (last_low, first_high) == (293, 407)  # symmetric, as 100d6 is


def test_a_folded_row_holds_the_exact_sum_of_its_outcomes():
    dist = parse("100d6").dist()
    rows = folded_rows(dist, fold_tails(dist))
    assert rows[0] == (f"{AT_MOST} 293", dist.p_le(293), 1)
    assert rows[-1] == (f"{AT_LEAST} 407", dist.p_ge(407), dist.p_ge(407))
    assert rows[1:-1] == [(x, dist.p(x), dist.p_ge(x)) for x in range(294, 407)]


def test_nothing_is_dropped_the_chances_of_the_rows_add_up_to_one():
    for notation in ("100d6", "50d20", "1d10000", "10d10", "20d6", "8d12kh4", "3d6"):
        dist = parse(notation).dist()
        rows = folded_rows(dist, fold_tails(dist))
        assert sum(p for _, p, _ in rows) == 1, notation


def test_a_tail_of_one_outcome_keeps_its_own_row():
    # 50 outcomes: the lowest alone is negligible (1/49001), the lowest two are not
    lone = Dist.from_weights({x: 1 if x == 0 else 1000 for x in range(50)})
    assert fold_tails(lone) == Fold(0, 50, 50)
    window = fold_tails(parse("1d200").dist(), limit=199)  # a window of 199 leaves one outcome out
    assert window == Fold(0, 200, 200)


def test_at_most_the_row_limit_of_outcomes_keep_their_own_rows_the_likeliest_ones():
    dist = parse("50d20").dist()  # 951 outcomes; about 250 of them are not negligible
    fold = fold_tails(dist)
    assert fold.high - fold.low == ROW_LIMIT
    outcomes = dist.support()

    def chance(start: int) -> Fraction:
        return dist.p_ge(outcomes[start]) - dist.p_ge(outcomes[start + ROW_LIMIT]) \
            if start + ROW_LIMIT < len(outcomes) else dist.p_ge(outcomes[start])

    kept = chance(fold.low)
    assert all(chance(start) <= kept for start in range(len(outcomes) - ROW_LIMIT + 1))
    assert fold_tails(dist, limit=None).high - fold_tails(dist, limit=None).low > 200


def test_of_equally_likely_windows_the_one_nearest_the_middle_stays():
    fold = fold_tails(parse("1d10000").dist())
    assert (fold.low, fold.high) == (4940, 5060)  # outcomes 4941..5060 on their own rows
    assert folded_rows(parse("1d10000").dist(), fold)[0] == (f"{AT_MOST} 4940", Fraction(4940, 10000), 1)


def test_a_folded_table_is_the_table_rpg_odds_prints_with_its_tails_folded():
    dist = parse("20d6").dist()
    fold = fold_tails(dist)
    table = distribution_table(dist, fold=fold)
    assert table.rows == tuple(folded_rows(dist, fold))
    assert distribution_table(dist).rows == distribution_table(dist, fold=Fold(0, 101, 101)).rows


@pytest.mark.parametrize(("options", "message"), [
    ({"negligible": Fraction(1, 2)}, "negligible chance must be a Fraction from 0 to under 1/2, not Fraction(1, 2)"),
    ({"negligible": 0.001}, "not 0.001"),
    ({"short": -1}, "short must be a whole number of at least 0, not -1"),
    ({"limit": 0}, "the row limit must be a whole number of at least 1, not 0"),
    ({"limit": True}, "not True"),
])
def test_a_folding_rule_that_cannot_work_is_refused_naming_the_bad_value(options, message):
    with pytest.raises(FoldError, match=message.replace("(", r"\(").replace(")", r"\)")):
        fold_tails(parse("3d6").dist(), **options)


def test_a_fold_made_for_another_distribution_is_refused():
    with pytest.raises(FoldError, match="the fold is for 16 outcomes, the distribution has 11"):
        folded_rows(parse("2d6").dist(), fold_tails(parse("3d6").dist()))
    with pytest.raises(FoldError, match="not a dict"):
        fold_tails({1: 1})


# -- the chart's bars ---------------------------------------------------------------------------------
def test_a_chart_of_at_most_three_hundred_outcomes_gives_each_its_own_bar():
    dist = parse("3d6").dist()
    bins = chart_bins(dist)
    assert [(b.first, b.last, b.count) for b in bins] == [(x, x, 1) for x in range(3, 19)]
    assert [b.p for b in bins] == [dist.p(x) for x in range(3, 19)]
    assert len(chart_bins(parse("1d300").dist())) == CHART_BARS


def test_more_outcomes_share_bars_of_ceil_n_over_300_consecutive_outcomes_the_last_holding_the_rest():
    dist = parse("1d1000").dist()  # ceil(1000 / 300) = 4 outcomes a bar: 250 bars, none short
    bins = chart_bins(dist)
    assert len(bins) == 250 and {b.count for b in bins} == {4}
    assert (bins[0].first, bins[0].last, bins[-1].first, bins[-1].last) == (1, 4, 997, 1000)
    odd = chart_bins(parse("1d1001").dist())  # 1001 outcomes: bars of 4, the last of 1
    assert [b.count for b in odd[-2:]] == [4, 1] and len(odd) == 251


def test_a_bars_chance_is_the_exact_sum_of_its_outcomes_chances():
    dist = parse("50d20").dist()
    bins = chart_bins(dist, bars=37)
    assert sum(b.p for b in bins) == 1
    for b in bins:
        assert b.p == sum(dist.p(x) for x in range(b.first, b.last + 1)) and b.count == b.last - b.first + 1
    assert all(later.first == earlier.last + 1 for earlier, later in zip(bins, bins[1:]))  # nothing left out


def test_a_chart_covers_only_the_outcomes_the_fold_keeps_on_rows():
    dist = parse("100d6").dist()
    fold = fold_tails(dist, limit=None)
    bins = chart_bins(dist, fold)
    assert (bins[0].first, bins[-1].last) == (294, 406)
    assert sum(b.p for b in bins) == dist.p_ge(294) - dist.p_ge(407)


def test_a_binning_that_cannot_work_is_refused_naming_the_bad_value():
    with pytest.raises(BinError, match="not 0"):
        chart_bins(parse("3d6").dist(), bars=0)
    with pytest.raises(BinError, match="the fold is for 31 outcomes, the distribution has 16"):
        chart_bins(parse("3d6").dist(), fold_tails(parse("6d6").dist()))
    assert Bin(1, 2, 2, 1, 4).p == Fraction(1, 4)
