"""Every roller follows its distribution: rolling every possible script of a small pool, each equally
likely, gives exactly the Dist the mechanics compute."""

from __future__ import annotations

import itertools

import pytest

from rules.dice import (Dist, ScriptedSource, count_successes, face_counts, heimr_challenge, keep_highest,
                        keep_lowest, parse, roll_heimr, roll_keep, roll_locations, roll_successes)


def all_scripts(*sides: int):
    return itertools.product(*(range(1, s + 1) for s in sides))


def rolled(roller, scripts) -> Dist:
    totals = []
    for script in scripts:
        source = ScriptedSource(script)
        totals.append(roller(source).total)
        assert source.remaining == 0  # the roller used exactly the scripted dice
    return Dist.from_outcomes(totals)


@pytest.mark.parametrize("text, sides", [
    ("4d6kh3", (6,) * 4), ("3d4kl2", (4,) * 3), ("1d6 › 1d10 › 1d8", (6, 10, 8)), ("2d6+1d4-1", (6, 6, 4)),
    ("4d6>=5", (6,) * 4), ("1d3-1d3", (3, 3)),
])
def test_rolling_every_script_reproduces_the_expression_distribution(text, sides):
    expr = parse(text)
    assert rolled(expr.roll, all_scripts(*sides)) == expr.dist()


def explosion_scripts(sides: int, depth: int):
    """Every script of one exploding die with at most ``depth`` re-rolls, with its probability."""
    def walk(prefix, level):
        for face in range(1, sides + 1):
            script = prefix + (face,)
            if face == sides and level < depth:
                yield from walk(script, level + 1)
            else:
                yield script
    return list(walk((), 0))


def test_rolling_an_exploding_die_follows_the_depth_rule():
    from rules.dice import EXPLODE_DEPTH
    scripts = explosion_scripts(4, EXPLODE_DEPTH)
    weights: dict[int, int] = {}
    for script in scripts:
        total = parse("1d4!").roll(ScriptedSource(script)).total
        weights[total] = weights.get(total, 0) + 4 ** (EXPLODE_DEPTH + 1 - len(script))
    assert Dist.from_weights(weights) == parse("1d4!").dist()


@pytest.mark.parametrize("sides", [(6, 10, 8), (4, 4), (12,)])
def test_roll_keep_matches_keep_highest_and_lowest(sides):
    dists = [Dist.die(s) for s in sides]
    assert rolled(lambda src: roll_keep(sides, src), all_scripts(*sides)) == keep_highest(dists)
    assert rolled(lambda src: roll_keep(sides, src, highest=False), all_scripts(*sides)) == keep_lowest(dists)


@pytest.mark.parametrize("n, lid", [(1, "none"), (3, "none"), (2, "on"), (3, "on")])
def test_roll_successes_matches_count_successes(n, lid):
    got = rolled(lambda src: roll_successes(n, src, lid=lid), all_scripts(*(6,) * n))
    assert got == count_successes(n, lid=lid)


def test_roll_successes_lid_off_follows_the_depth_limit():
    scripts = explosion_scripts(6, 2)
    weights: dict[int, int] = {}
    for script in scripts:
        total = roll_successes(1, ScriptedSource(script), lid="off", max_depth=2).total
        weights[total] = weights.get(total, 0) + 6 ** (3 - len(script))
    assert Dist.from_weights(weights) == count_successes(1, lid="off", max_depth=2)


def test_roll_successes_reports_lid_on_and_fumbles():
    assert str(roll_successes(2, ScriptedSource([6, 6]), lid="on")) == "2d6>=4 lid-on: [6, 6] lid-on +1 = 3"
    assert "fumble" in str(roll_successes(3, ScriptedSource([1, 1, 1])))
    off = roll_successes(2, ScriptedSource([6, 6, 2, 5]), lid="off")
    assert off.total == 3 and str(off) == "2d6>=4 lid-off: [6!, 6!, (2), 5] = 3"


@pytest.mark.parametrize("c", [-2, -1, 0, 1, 2])
@pytest.mark.parametrize("counted", [True, False])
def test_roll_heimr_matches_the_challenge_distribution(c, counted):
    scripts = all_scripts(6, *(10,) * abs(c))
    got = rolled(lambda src: roll_heimr(c, src, 1, d6_counts_as_one=counted), scripts)
    assert got == heimr_challenge(c, 1, d6_counts_as_one=counted)


def test_roll_heimr_shows_the_kept_die_and_the_bonus():
    result = roll_heimr(3, ScriptedSource([4, 10, 10, 2]), 2)
    assert result.total == 10 + 1 + 2 and str(result) == "C+3 P+2: [(4), 10, (10), (2)] raw 11 +2 = 13"


def test_roll_locations_tallies_the_fireball_example():
    result, tally = roll_locations(4, ScriptedSource([5, 5, 3, 2]))
    assert result.faces == (5, 5, 3, 2) and tally == (0, 1, 1, 0, 2, 0)
    assert tally in face_counts(4, 6)
