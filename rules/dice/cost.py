"""The work model: how much an exact distribution will cost, known before any of it is computed.

Each step of the engine (a convolution, the squarings of ``NdS``, keeping dice, counting successes)
has a cost function here, in *work units*: one unit is about a nanosecond of CPU time of one core of
the machine the constants below were measured on (``bench/dice_calibrate.py`` measures them again and
``bench/dice_calibrate.py --check`` checks that the families agree with each other).
``errors.MAX_WORK`` is the budget.  A :class:`Shape` is what the model knows of a distribution
without computing it: its lowest and highest outcome (exact), how many outcomes it has (an upper
bound) and the bit length of its denominator (an upper bound on every weight).  Expressions
(``rules.dice.expr``) add up the cost of their steps and refuse before starting when the total is over
the budget, so every expression answers or refuses at once instead of refusing after seconds of work.
The same functions choose and guard each step as it runs, so an estimate and a step never disagree.

Big-integer products are priced as CPython computes them: the schoolbook product below
:data:`KARATSUBA_CUTOFF` 30-bit digits, Karatsuba above it, whose recursion ends in schoolbook
products of that size, so an n-digit product costs ``cutoff ** (2 - 1.585) * n ** 1.585`` digit
products (the base-case factor, about 5.8); an unbalanced product is cut into balanced pieces.
"""

from __future__ import annotations

import heapq
import struct
import sys
from dataclasses import dataclass
from typing import Literal

from .errors import PY_STEP

__all__ = [
    "PY_STEP", "Shape", "add_cost", "box_cost", "comb_cost", "convolve_cost", "dense_cost", "dense_is_cheaper",
    "fair_sum_cost", "fair_sum_work", "mul_cost", "power_cost", "power_slot", "pow_cost", "repeat_cost",
    "sparse_cost", "sum_cost", "uniform", "weights_cost",
]

#: Below this many coefficient products :func:`rules.dice.convolution.convolve` uses the double loop.
SCHOOLBOOK_LIMIT = 1024

#: CPython's ``KARATSUBA_CUTOFF`` (Objects/longobject.c), in 30-bit digits.
KARATSUBA_CUTOFF = 70
#: The exponent of Karatsuba, log2(3).
KARATSUBA_EXPONENT = 1.585
#: Work units of one digit product of a schoolbook big-integer product (measured).
DIGIT_PRODUCT = 1.7
#: Work units per byte of ``int.to_bytes`` / ``int.from_bytes`` / slicing and per digit of an addition,
#: a comparison or a division by a small number (measured).
BYTE_STEP = 0.5
#: Work units of packing or unpacking one coefficient of a Kronecker product (a generator step, one
#: ``to_bytes`` or ``from_bytes`` call).
SLOT_STEP = 3 * PY_STEP
#: Work units of one weight of a running-sum step (``itertools.accumulate``, a subtraction, copies).
BOX_STEP = 6 * PY_STEP
#: Work units of making one distribution object, however small (calls, tuples, a gcd).
DIST_STEP = 150 * PY_STEP
#: Work units of one pair of outcomes of ``Dist.combine`` (a call of the combining function, a dict update).
PAIR_STEP = 12 * PY_STEP
#: Work units of one (state, transition) pair of a Python loop that reads and writes a dict.
DICT_STEP = 5 * PY_STEP


#: Work no budget notices (under 1% of the in-page calculator's): a step whose inputs alone bound its
#: work below this is accepted without pricing it in detail (a multiplication and a comparison instead
#: of the model's dozen calls, which were a tenth of a small question's time).
#: ``tests/dice/test_cost_calibration.py`` holds each bound below to the detailed price.
TRIVIAL_WORK = 1_000_000
#: ``NdS`` with ``N * S`` at most this is trivial work (at most 0.68 million units, ``64d2``).
TRIVIAL_FAIR_SUM = 128
#: Keeping the highest or lowest of at most :data:`TRIVIAL_CDF_DICE` dice, over at most
#: :data:`TRIVIAL_CDF_POINTS` outcomes, each die's weights summing below ``2 ** 64``, is trivial work.
TRIVIAL_CDF_DICE = 6
TRIVIAL_CDF_POINTS = 128


def digits(bits: int) -> int:
    """30-bit digits of a CPython int of ``bits`` bits."""
    return bits // 30 + 1


def mul_cost(bits_a: int, bits_b: int) -> int:
    """Work units of one product of integers of these bit lengths (schoolbook, Karatsuba, lopsided)."""
    small, big = (bits_a // 30 + 1, bits_b // 30 + 1) if bits_a <= bits_b else (bits_b // 30 + 1, bits_a // 30 + 1)
    if small <= KARATSUBA_CUTOFF:
        return int(DIGIT_PRODUCT * small * big)
    balanced = KARATSUBA_CUTOFF ** (2 - KARATSUBA_EXPONENT) * small ** KARATSUBA_EXPONENT
    return int(DIGIT_PRODUCT * balanced * big / small)


def pow_cost(bits: int, exponent: int) -> int:
    """Work units of ``x ** exponent`` for an int ``x`` of ``bits`` bits: the squarings of its result
    (each a third of the next; squaring is cheaper than a product: about the last product in all)."""
    if exponent <= 1:
        return PY_STEP
    out = bits * exponent
    return PY_STEP + mul_cost(out // 2, out // 2)


@dataclass(frozen=True)
class Shape:
    """What the work model knows of a distribution: outcomes ``low..high``, at most ``count`` of them,
    every weight below ``2 ** bits`` (so the denominator, their sum, below ``count * 2 ** bits``)."""

    low: int
    high: int
    count: int
    bits: int

    @property
    def span(self) -> int:
        return self.high - self.low + 1

    @property
    def dense(self) -> bool:
        """Whether the distribution has no more than a few empty slots between ``low`` and ``high``."""
        return self.span <= 4 * self.count + 16

    def negated(self) -> Shape:
        return Shape(-self.high, -self.low, self.count, self.bits)

    def scaled(self, k: int) -> Shape:
        """The shape of every outcome multiplied by ``k`` >= 1 (as many outcomes, spread apart)."""
        return Shape(self.low * k, self.high * k, self.count, self.bits)

    def shifted(self, c: int) -> Shape:
        return Shape(self.low + c, self.high + c, self.count, self.bits)

    @property
    def total_bits(self) -> int:
        """A bound on the bit length of the denominator."""
        return self.bits + self.count.bit_length()


def weights_cost(count: int, bits: int) -> int:
    """Building a distribution from ``count`` weights of ``bits`` bits (gcd, sums, tuples)."""
    return DIST_STEP + int(count * (PY_STEP + 2 * BYTE_STEP * digits(bits) * 4))


def comb_cost(n: int) -> int:
    """Work units of one ``math.comb(n, k)`` (a product tree of numbers up to ``n`` bits)."""
    return PY_STEP + 8 * mul_cost(n, n)


def convolve_cost(len_a: int, len_b: int, bits: int) -> int:
    """Work units of :func:`rules.dice.convolution.convolve` on vectors of these lengths.

    ``bits`` is the bit length of the largest product coefficient.  Short vectors: one Python step
    and one small product per pair.  Long ones are packed into two integers of ``len * width`` bytes:
    packing and unpacking cost a call per slot and their bytes, the product :func:`mul_cost`.
    """
    if len_a * len_b <= SCHOOLBOOK_LIMIT:
        return len_a * len_b * (PY_STEP + mul_cost(bits // 2, bits // 2))
    width = bits // 8 + 1
    n = len_a + len_b - 1
    slots = len_a + len_b + n
    pack = int(slots * (SLOT_STEP + 3 * BYTE_STEP * width))
    return pack + mul_cost(len_a * width * 8, len_b * width * 8)


def dense_cost(a: Shape, b: Shape) -> int:
    """Work units of adding ``a`` and ``b`` laid out densely: one :func:`convolve_cost`."""
    bits = a.bits + b.bits + min(a.span, b.span).bit_length()
    # laying a sparse distribution out densely costs a step per slot
    layout = (0 if a.span == a.count else a.span) + (0 if b.span == b.count else b.span)
    return convolve_cost(a.span, b.span, bits) + layout * PY_STEP


def sparse_cost(a: Shape, b: Shape) -> int:
    """Work units of adding every pair of outcomes of ``a`` and ``b`` (``Dist.combine``)."""
    return a.count * b.count * (PAIR_STEP + mul_cost(a.bits, b.bits))


def dense_is_cheaper(a: Shape, b: Shape) -> bool:
    """Whether adding ``a`` and ``b`` laid out densely (one Kronecker product over their spans) costs
    less than adding every pair of outcomes: true of dice, and of a scaled die added to a wide one."""
    return dense_cost(a, b) <= sparse_cost(a, b)


def add_cost(a: Shape, b: Shape) -> tuple[int, Shape]:
    """(work, shape) of the sum of independent ``a`` and ``b``, as ``distribution._convolve`` does it."""
    span = a.span + b.span - 1
    bits = a.bits + b.bits + min(a.count, b.count).bit_length()
    result = Shape(a.low + b.low, a.high + b.high, min(a.count * b.count, span), bits)
    if a.count == 1 or b.count == 1:
        return weights_cost(result.count, result.bits), result
    step = min(dense_cost(a, b), sparse_cost(a, b))
    return step + weights_cost(result.count, result.bits), result


#: A fair sum whose weights fit one machine word each and whose result is at most this many bytes is
#: computed as one integer power (``distribution._power_weights``): below it that is several times
#: faster than running sums, above it the power's big products cost more (measured: ``10d100``).
POWER_BYTES = 4096

#: Unsigned slot widths in bytes and their ``memoryview`` formats, where the machine's own match
#: (and it is little-endian: the power's lowest slot is then its first).
_SLOTS: tuple[tuple[int, Literal["B", "H", "I", "Q"]], ...] = ((1, "B"), (2, "H"), (4, "I"), (8, "Q"))
SLOT_FORMATS = {width: fmt for width, fmt in _SLOTS if sys.byteorder == "little" and struct.calcsize(fmt) == width}


def power_slot(sides: int, n: int) -> int:
    """The slot width in bytes in which ``n`` >= 2 fair dice of ``sides`` >= 2 faces are summed as
    one integer power, or 0 for running sums.  No weight of the sum exceeds ``sides ** (n - 1)``
    (the other dice fix the last one), so a slot that holds that never carries into the next."""
    bits = (n - 1) * sides.bit_length()  # a bound on the bits of sides ** (n - 1)
    width = 1 if bits <= 8 else 2 if bits <= 16 else 4 if bits <= 32 else 8 if bits <= 64 else 0
    return width if width in SLOT_FORMATS and (n * (sides - 1) + 1) * width <= POWER_BYTES else 0


def power_cost(sides: int, n: int, width: int) -> int:
    """Work units of ``(1 + x + ... + x ** (sides - 1)) ** n`` at ``x = 2 ** (8 * width)`` and of
    unpacking its slots (one C-level step per byte)."""
    size = n * (sides - 1) + 1
    return pow_cost(8 * width * sides, n) + int(size * width * 3 * BYTE_STEP)


def box_cost(sides: int, n: int) -> int:
    """Work units of summing ``n`` fair dice of ``sides`` faces one die at a time by running sums
    (``distribution._box_sum``): step ``i`` computes half of its ``i * sides`` weights, of about
    ``i * log2(sides)`` bits, two C-level additions each, and mirrors the rest."""
    b = sides.bit_length()
    m = n - 1
    pairs = sides * m * n // 4 + sides * m  # the weights made (half of each step, mirrored), all steps
    digit_terms = sides * b * m * n * (2 * n - 1) // 360 + sides * m  # the same weighted by their digits
    return int(pairs * BOX_STEP + digit_terms * 6 * BYTE_STEP) + DIST_STEP


def fair_sum_work(sides: int, n: int) -> int:
    """Work units of ``n`` >= 1 fair dice of ``sides`` faces summed (``distribution.fair_sum``): one
    integer power when :func:`power_slot` allows, else running sums, then the weights."""
    if sides == 1:
        return weights_cost(1, 1)
    if n == 1:
        return 0
    width = power_slot(sides, n)
    work = power_cost(sides, n, width) if width else box_cost(sides, n)
    return work + weights_cost(n * (sides - 1) + 1, (n - 1) * sides.bit_length() + 1)


def fair_sum_cost(low: int, sides: int, n: int) -> tuple[int, Shape]:
    """(work, shape) of ``n`` >= 1 fair dice with faces ``low..low+sides-1`` summed: how ``NdS`` and
    ``NdF`` are priced, with no shape made to describe the die."""
    work = fair_sum_work(sides, n)
    if sides == 1:
        return work, Shape(low * n, low * n, 1, 1)
    if n == 1:
        return work, Shape(low, low + sides - 1, sides, 1)
    return work, Shape(low * n, (low + sides - 1) * n, n * (sides - 1) + 1, (n - 1) * sides.bit_length() + 1)


def uniform(d: Shape) -> bool:
    """Whether every outcome ``low..high`` has weight 1: a fair die (summed by running sums)."""
    return d.bits == 1 and d.count == d.span


def repeat_cost(d: Shape, n: int) -> tuple[int, Shape]:
    """(work, shape) of the sum of ``n`` copies of ``d``, step for step as ``distribution._repeat_sum``
    does it: running sums for a fair die, repeated squaring for any other."""
    if n == 0:
        return 0, Shape(0, 0, 1, 1)
    if d.count == 1:
        return weights_cost(1, d.bits), Shape(d.low * n, d.high * n, 1, 1)
    if uniform(d):
        return fair_sum_cost(d.low, d.span, n)
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
