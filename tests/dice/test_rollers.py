"""Every notation roller follows its distribution: rolling every possible script of a small pool, each
equally likely, gives exactly the Dist the notation computes."""

from __future__ import annotations

import itertools

import pytest

from rules.dice import Dist, ScriptedSource, parse


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
    ("4d6kh3", (6,) * 4), ("3d4kl2", (4,) * 3), ("2d6+1d4-1", (6, 6, 4)),
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
