"""The work model: how much an exact distribution will cost, known before any of it is computed.

Each step of the engine (a convolution, the squarings of ``NdS``, keeping dice, counting successes)
has a cost function here, in *work units* (one unit is roughly one machine-digit operation of a big
integer product; ``errors.MAX_WORK`` is the budget).  A :class:`Shape` is what the model knows of a
distribution without computing it: its lowest and highest outcome (exact), how many outcomes it has
(an upper bound) and the bit length of its denominator (an upper bound on every weight).  Expressions
(``rules.dice.expr``) add up the cost of their steps and refuse before starting when the total is over
the budget, so every expression answers or refuses at once instead of refusing after seconds of work.
The same functions guard each step as it runs, so an estimate and a step can never disagree.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from .errors import PY_STEP

__all__ = ["PY_STEP", "Shape", "add_cost", "convolve_cost", "repeat_cost", "sum_cost", "weights_cost"]

#: Below this many coefficient products :func:`rules.dice.convolution.convolve` uses the double loop.
SCHOOLBOOK_LIMIT = 1024


@dataclass(frozen=True)
class Shape:
    """What the work model knows of a distribution: outcomes ``low..high``, at most ``count`` of them,
    every weight below ``2 ** bits``."""

    low: int
    high: int
    count: int
    bits: int

    @property
    def span(self) -> int:
        return self.high - self.low + 1

    @property
    def dense(self) -> bool:
        """Whether the convolution lays this distribution out densely (see ``distribution._dense``)."""
        return self.span <= 4 * self.count + 16

    def negated(self) -> Shape:
        return Shape(-self.high, -self.low, self.count, self.bits)

    def scaled(self, k: int) -> Shape:
        """The shape of every outcome multiplied by ``k`` >= 1 (as many outcomes, spread apart)."""
        return Shape(self.low * k, self.high * k, self.count, self.bits)

    def shifted(self, c: int) -> Shape:
        return Shape(self.low + c, self.high + c, self.count, self.bits)


def weights_cost(count: int, bits: int) -> int:
    """Building a distribution from ``count`` weights of ``bits`` bits (gcd, sums, tuples)."""
    return count * (PY_STEP + bits // 30)


def convolve_cost(len_a: int, len_b: int, bits: int) -> int:
    """Work units of :func:`rules.dice.convolution.convolve` on vectors of these lengths.

    ``bits`` is the bit length of the largest product coefficient.  Short vectors: one Python step per
    pair.  Long ones are packed into two integers of ``len * bits`` bits: packing and unpacking cost a
    few units per slot, the product about ``digits ** 1.585`` (Karatsuba; an unbalanced product is cut
    into balanced pieces), about half a nanosecond per digit product.
    """
    if len_a * len_b <= SCHOOLBOOK_LIMIT:
        return len_a * len_b * PY_STEP
    slot = bits // 30 + 1
    n = len_a + len_b - 1
    pack = (len_a + len_b + n) * (2 * PY_STEP + slot)
    big, small = sorted((len_a * slot, len_b * slot), reverse=True)
    product = big * small if small <= 70 else int((big / small) * small ** 1.585)
    return pack + product // 2


def add_cost(a: Shape, b: Shape) -> tuple[int, Shape]:
    """(work, shape) of the sum of independent ``a`` and ``b``, as ``distribution._convolve`` does it."""
    span = a.span + b.span - 1
    result = Shape(a.low + b.low, a.high + b.high, min(a.count * b.count, span), a.bits + b.bits)
    if a.count == 1 or b.count == 1:
        return weights_cost(result.count, result.bits), result
    if a.dense and b.dense:
        bits = a.bits + b.bits + min(a.span, b.span).bit_length()
        return convolve_cost(a.span, b.span, bits) + weights_cost(span, result.bits), result
    return a.count * b.count * PY_STEP * (1 + result.bits // 300) + weights_cost(result.count, result.bits), result


def repeat_cost(d: Shape, n: int) -> tuple[int, Shape]:
    """(work, shape) of the sum of ``n`` copies of ``d`` by repeated squaring, step for step as
    ``distribution._repeat_sum`` does it."""
    if n == 0:
        return 0, Shape(0, 0, 1, 1)
    if d.count == 1:
        return weights_cost(1, d.bits), Shape(d.low * n, d.high * n, 1, 1)
    work = 0
    result: Shape | None = None
    base = d
    while n:
        if n & 1:
            if result is None:
                result = base
            else:
                step, result = add_cost(result, base)
                work += step
        n >>= 1
        if n:
            step, base = add_cost(base, base)
            work += step
    assert result is not None
    return work, result


def sum_cost(parts: list[Shape]) -> tuple[int, Shape]:
    """(work, shape) of the sum of independent parts, always adding the two narrowest first.

    Adding narrow parts first keeps every intermediate distribution as small as it can be (the
    order of :func:`rules.dice.expr.sum_dists`, which uses this same rule)."""
    heap = [(p.span, i, p) for i, p in enumerate(parts)]
    heapq.heapify(heap)
    work = 0
    counter = len(heap)
    while len(heap) > 1:
        _, _, a = heapq.heappop(heap)
        _, _, b = heapq.heappop(heap)
        step, c = add_cost(a, b)
        work += step
        heapq.heappush(heap, (c.span, counter, c))
        counter += 1
    return work, heap[0][2]
