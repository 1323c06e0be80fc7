"""Heimr's dice challenge: 1d6 + |C|d10, keep the highest (C > 0) or lowest (C < 0), + P.

C > 0: raw = highest die + (number of 10s - 1) when there are any 10s.  Split on T, the number of d10s
showing 10 (binomial): with T >= 1 the raw result is 9 + T; with T = 0 every d10 is uniform on 1..9
and the highest die is a product of CDFs.  C < 0 mirrors it with 1s and the lowest die.
Weights are integers over 6 * 10 ** |C|; no outcome of the |C| + 1 dice is enumerated.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from ..values import is_whole
from .distribution import Dist
from .errors import check_work

#: |C| beyond this is refused: the rules' range is about -5..5, and the weights grow as 10 ** |C|.
MAX_CONSISTENCY = 1000


def heimr_challenge(consistency: int, potential: int = 0, *, d6_counts_as_one: bool = True) -> Dist:
    """The distribution of a Heimr dice challenge result (raw + ``potential``).

    ``d6_counts_as_one`` settles the rules' ambiguity for C < 0: whether a d6 showing 1 counts among
    "the dice with which you roll 1" (each 1 beyond the first lowers the result by 1).  It does not
    matter for C >= 0 (only d10s show 10) nor for the lowest die itself.
    """
    for name, value in (("consistency", consistency), ("potential", potential)):
        if not is_whole(value):
            raise ValueError(f"{name} must be a whole number, not {value!r}")
    if abs(consistency) > MAX_CONSISTENCY:
        raise ValueError(f"consistency must be within +-{MAX_CONSISTENCY}, not {consistency}")
    return _raw(consistency, bool(d6_counts_as_one)) + potential


@lru_cache(maxsize=512)
def _raw(c: int, d6_counts_as_one: bool) -> Dist:
    if c == 0:
        return Dist.die(6)
    n = abs(c)
    check_work(n * n, "Heimr dice challenge")
    weights: dict[int, int] = {}
    if c > 0:
        # No 10s: max(d6, n x uniform 1..9); count of configurations with every die <= x.
        def at_most(x: int) -> int:
            return min(x, 6) * int(x ** n)  # int ** int is typed Any (a negative power is a float)
        for x in range(1, 10):
            weights[x] = at_most(x) - at_most(x - 1)
        for t in range(1, n + 1):  # t tens: highest is 10, plus t - 1; the d6 may show anything
            weights[9 + t] = 6 * comb(n, t) * 9 ** (n - t)
        return Dist._from_int_dict(weights)
    if d6_counts_as_one:
        # No 1s at all: min(d6 on 2..6, n x d10 on 2..10); count of configurations with every die >= x.
        def at_least(x: int) -> int:
            return max(7 - x, 0) * int((11 - x) ** n)
        for x in range(2, 7):
            weights[x] = at_least(x) - at_least(x + 1)
        for o in range(1, n + 2):  # o dice show 1: lowest is 1, minus o - 1
            d6_one = comb(n, o - 1) * 9 ** (n - o + 1)
            d6_other = 5 * comb(n, o) * 9 ** (n - o) if o <= n else 0
            weights[2 - o] = d6_one + d6_other
        return Dist._from_int_dict(weights)
    # Only d10s count: with no d10 showing 1 the d6 alone may still make the lowest a 1.
    def at_least_plain(x: int) -> int:
        return max(7 - x, 0) * int(min(11 - x, 9) ** n)
    for x in range(1, 7):
        weights[x] = at_least_plain(x) - at_least_plain(x + 1)
    for t in range(1, n + 1):  # t d10s show 1: lowest is 1, minus t - 1
        weights[2 - t] = weights.get(2 - t, 0) + 6 * comb(n, t) * 9 ** (n - t)
    return Dist._from_int_dict(weights)
