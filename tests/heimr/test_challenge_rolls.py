"""Rolling a challenge follows its distribution: every script of the d6 and the d10s, equally likely."""

from __future__ import annotations

import itertools

import pytest

from rules.dice import Dist, ScriptedSource
from rules.heimr.challenge import challenge_distribution, roll_challenge, roll_notation


@pytest.mark.parametrize("c", [-2, -1, 0, 1, 2])
@pytest.mark.parametrize("counted", [True, False])
def test_rolling_every_script_reproduces_the_challenge_distribution(c, counted):
    scripts = itertools.product(range(1, 7), *[range(1, 11)] * abs(c))
    totals = [roll_challenge(c, 1, ScriptedSource(script), d6_counts_as_one=counted).result for script in scripts]
    assert Dist.from_outcomes(totals) == challenge_distribution(c, 1, d6_counts_as_one=counted)


def test_challenge_notation_roll_shows_the_kept_die_and_the_potential():
    result = roll_notation("C+3 P+2", ScriptedSource([4, 10, 10, 2]))
    assert result.total == 10 + 1 + 2
    assert str(result) == "C+3 P+2: [(4), 10, (10), (2)] raw 11 +2 = 13"
