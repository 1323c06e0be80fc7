"""Exploding dice (``d6!``): a maximum face is re-rolled and added, up to a fixed depth, exactly."""

from __future__ import annotations

from functools import lru_cache

from ..values import is_whole
from .distribution import Dist
from .errors import PY_STEP, check_work, priced

__all__ = ["EXPLODE_DEPTH", "explode"]

#: How many times one die of an exploding sum (``d6!``) may re-roll; icepool's default too.
EXPLODE_DEPTH = 9


def explode(sides: int, depth: int = EXPLODE_DEPTH) -> Dist:
    """One exploding die: a maximum face is re-rolled and added, at most ``depth`` times.

    Depth rule: the original roll plus at most ``depth`` re-rolls; the last allowed re-roll is added
    as rolled even when it shows the maximum (icepool's ``explode(depth=...)`` does the same).  So
    the distribution is exact for that rule, and differs from unlimited explosions only with
    probability sides ** -(depth + 1).  ``NdS!`` is ``explode(S).repeat_sum(N)``.
    """
    if not is_whole(sides) or sides < 2:
        raise ValueError(f"an exploding die needs at least 2 sides, not {sides!r}")
    if not is_whole(depth) or depth < 0:
        raise ValueError(f"depth must be a whole number >= 0, not {depth!r}")
    return _explode(sides, depth)


@lru_cache(maxsize=256)
def _explode(sides: int, depth: int) -> Dist:
    if not priced():
        check_work(sides * (depth + 1) * PY_STEP, f"exploding d{sides}")
    weights: dict[int, int] = {}
    for j in range(depth):  # j maxima, then a face below the maximum: weight sides ** (depth - j)
        scale = sides ** (depth - j)
        for face in range(1, sides):
            weights[j * sides + face] = scale
    for face in range(1, sides + 1):  # ``depth`` maxima, then the last roll, added as it falls
        weights[depth * sides + face] = 1
    return Dist._from_int_dict(weights)
