"""Success counting: dice at or above a threshold, an all-maximum bonus ("lid-on"), exploding maxima
("lid-off") and fumbles (every die a 1).  A game composes its own pool from these.

Explosion depth rule (lid-off)
------------------------------
Each die that shows its maximum face counts as a success *and* is re-rolled; the re-roll may succeed
and explode again.  Per original die that is a chain: a run of maximum faces ended by a non-maximum
roll.  The number of maxima over n chains is negative-binomial and the number of chains ending on an
ordinary success is binomial, so

    P(K = k) = sum_i C(n, i) a^i q^(n-i) C(n-1+k-i, k-i) / S^(n+k-i)

with S sides, a = S - threshold ordinary success faces and q = threshold - 1 failing faces.  That is
the exact answer for explosions without any limit, and it is what ``max_depth=None`` (the default)
computes.  Its support is infinite, so the returned :class:`Dist` stops at a cap: every outcome below
the cap has its exact probability, and the cap outcome carries the exact tail P(K >= cap).  The cap is
the smallest number of successes whose tail is at most ``tail`` (default :data:`EXPLOSION_TAIL` =
2**-64, below the resolution of a float).  So P(K = k) is exact for k < cap, P(K >= k) is exact for
every k <= cap, and E[K] falls short of the true n * (S - threshold + 1) / (S - 1) by less than
``tail`` times a small factor (3/5 per die for d6 >= 4).

``max_depth=D`` is the finite game variant instead: a chain explodes at most D times, and a maximum on
the D-th re-roll counts as a success without rolling again.  That distribution is finite and exact
with no folding (it equals icepool's ``explode(depth=D)`` of the per-roll success value).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Literal

from ..values import require_whole
from .convolution import convolve
from .cost import convolve_cost
from .distribution import Dist
from .errors import PY_STEP, check_work

Lid = Literal["none", "on", "off"]

#: Default bound on the tail mass folded into the cap outcome of an unlimited lid-off pool.
EXPLOSION_TAIL = Fraction(1, 2 ** 64)


def _check(n: int, sides: int, threshold: int, lid: str, max_depth: int | None) -> None:
    require_whole(n, "n (the number of dice)", minimum=0)
    require_whole(sides, "sides", minimum=1)
    require_whole(threshold, "threshold", minimum=1)
    if threshold > sides:
        raise ValueError(f"threshold {threshold} can never be rolled on a d{sides}")
    if lid not in ("none", "on", "off"):
        raise ValueError(f'lid must be "none", "on" or "off", not {lid!r}')
    if lid == "off" and sides < 2:
        raise ValueError("lid-off needs dice with at least 2 sides (a d1 would explode forever)")
    if max_depth is not None:
        require_whole(max_depth, "max_depth", minimum=0)


def count_successes(n: int, sides: int = 6, threshold: int = 4, lid: Lid = "none",
                    max_depth: int | None = None, *, tail: Fraction = EXPLOSION_TAIL) -> Dist:
    """The number of successes (dice showing >= ``threshold``) of ``n`` dice with ``sides`` sides.

    ``lid="none"``: binomial.  ``lid="on"``: +1 success when every die shows its maximum face.
    ``lid="off"``: every maximum face is re-rolled for a further success, see the module docstring
    for the depth rule (``max_depth=None`` = unlimited, tail folded into the cap; an int = at most
    that many re-rolls per die).  Cached.
    """
    _check(n, sides, threshold, lid, max_depth)
    if lid == "off" and max_depth is None:
        tail = Fraction(tail)
        if not 0 < tail < 1:
            raise ValueError(f"tail must be strictly between 0 and 1, not {tail}")
    return _count_successes(n, sides, threshold, lid, max_depth, Fraction(tail))


@lru_cache(maxsize=1024)
def _count_successes(n: int, sides: int, threshold: int, lid: str, max_depth: int | None,
                     tail: Fraction) -> Dist:
    if n == 0:
        return Dist.constant(0)
    if lid == "off":
        if max_depth is None:
            return _lid_off_unlimited(n, sides, threshold, tail)
        return _lid_off_chain(sides, threshold, max_depth).repeat_sum(n)
    hit, miss = sides - threshold + 1, threshold - 1
    weights = [comb(n, k) * hit ** k * miss ** (n - k) for k in range(n + 1)]
    if lid == "on":  # the single all-maximum configuration (a success on every die) gains one more
        weights[n] -= 1
        weights.append(1)
    return Dist._new(range(len(weights)), weights)


@lru_cache(maxsize=256)
def _lid_off_chain(sides: int, threshold: int, depth: int) -> Dist:
    """Successes of one die that explodes at most ``depth`` times (weights over sides ** (depth+1))."""
    plain, miss = sides - threshold, threshold - 1
    weights = [0] * (depth + 2)
    for j in range(depth + 1):  # j maxima, then a roll that is not the maximum
        scale = sides ** (depth - j)
        weights[j] += miss * scale
        weights[j + 1] += plain * scale
    weights[depth + 1] += 1  # a maximum on every roll up to the last allowed re-roll
    return Dist._new(range(depth + 2), weights)


def _lid_off_unlimited(n: int, sides: int, threshold: int, tail: Fraction) -> Dist:
    plain, miss = sides - threshold, threshold - 1
    # binom[i] = C(n, i) plain^i miss^(n-i) sides^i: i chains end on an ordinary success.
    # numerators[k] = P(K = k) * sides ** (n + k) = sum_i binom[i] * C(n - 1 + k - i, k - i): one
    # convolution of binom with the negative-binomial counts, long enough to reach the cap (doubled
    # until it is; the mean is below n * sides / (sides - 1) <= 2n successes).
    length = 2 * n + 64
    binom: list[int] = []
    while True:
        # Bounds before any big number is built: binom[i] < (2 * sides ** 2) ** n, negbin[j] < 2 ** (n + j).
        bits = 2 * n * (2 * sides.bit_length() + 1) + n + length + 2 * length.bit_length()
        check_work(convolve_cost(n + 1, length, bits) + (n + length) * (PY_STEP + bits // 15),
                   f"lid-off successes of {n} dice")
        binom = binom or [comb(n, i) * plain ** i * miss ** (n - i) * sides ** i for i in range(n + 1)]
        negbin = [1]
        for j in range(1, length):
            negbin.append(negbin[-1] * (n - 1 + j) // j)
        numerators = convolve(binom, negbin)[:length]
        cumulative = 0  # P(K < k) * sides ** (n + k)
        denominator = sides ** n  # sides ** (n + k)
        k = 0
        # Stop at the first k whose tail P(K >= k) = (denominator - cumulative) / denominator <= tail.
        while (denominator - cumulative) * tail.denominator > tail.numerator * denominator:
            if k == length:
                break
            cumulative = (cumulative + numerators[k]) * sides
            denominator *= sides
            k += 1
        else:
            weights = [nk * sides ** (k - j) for j, nk in enumerate(numerators[:k])]
            weights.append(denominator - cumulative)  # the exact tail P(K >= cap), folded into the cap
            return Dist._new(range(k + 1), weights)
        length *= 2


def fumble_probability(n: int, sides: int = 6) -> Fraction:
    """P(every one of ``n`` dice shows a 1); 0 for an empty pool (no roll, no fumble)."""
    require_whole(n, "n (the number of dice)", minimum=0)
    require_whole(sides, "sides", minimum=1)
    return Fraction(1, sides ** n) if n else Fraction(0)


def pool_outcomes(n: int, sides: int = 6, threshold: int = 4, lid: Lid = "none",
                  max_depth: int | None = None, *, tail: Fraction = EXPLOSION_TAIL) -> Dist:
    """The joint distribution of (successes, fumbled) as tuples ``(int, bool)``.

    A fumble is every original die showing a 1 (its success count is then 0 unless the threshold is
    1).  A game whose fumble changes the outcome (a fumbled resistance roll) needs the pair.
    """
    successes = count_successes(n, sides, threshold, lid, max_depth, tail=tail)
    joint = {(k, False): p for k, p in successes.items()}
    if n:
        ones = n if threshold <= 1 else 0
        if lid == "on" and sides == 1:
            ones += 1
        p_fumble = fumble_probability(n, sides)
        joint[(ones, False)] -= p_fumble
        joint[(ones, True)] = p_fumble
    return Dist.from_weights(joint)
