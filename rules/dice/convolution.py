"""Convolution of integer weight vectors: the one hot loop of the engine, kept fast and separate.

Short vectors use the schoolbook double loop.  Long ones use Kronecker substitution: pack each vector
into one big integer (one fixed-width slot per coefficient), multiply the two integers (CPython's
Karatsuba, in C) and unpack the slots.  That is exact, because every slot is wide enough for the
largest coefficient of the product, and it is one to two orders of magnitude faster than Python loops
for sums like ``100d6``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cost import SCHOOLBOOK_LIMIT as _SCHOOLBOOK_LIMIT
from .cost import convolve_cost

__all__ = ["convolve", "convolve_cost"]


def convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Return c with c[k] = sum(a[i] * b[k - i]): the weights of a sum of two independent dice."""
    if not a or not b:
        return []
    if len(a) * len(b) <= _SCHOOLBOOK_LIMIT:
        return _schoolbook(a, b)
    return _kronecker(a, b)


def _schoolbook(a: Sequence[int], b: Sequence[int]) -> list[int]:
    if len(a) < len(b):
        a, b = b, a
    out = [0] * (len(a) + len(b) - 1)
    for j, wb in enumerate(b):
        if wb:
            for i, wa in enumerate(a, j):
                out[i] += wa * wb
    return out


def _kronecker(a: Sequence[int], b: Sequence[int]) -> list[int]:
    # A coefficient of the product is at most min(len) * max(a) * max(b): size the slots for that.
    bound = min(len(a), len(b)) * max(a) * max(b)
    width = bound.bit_length() // 8 + 1
    pa = int.from_bytes(b"".join(w.to_bytes(width, "little") for w in a), "little")
    pb = pa if a is b else int.from_bytes(b"".join(w.to_bytes(width, "little") for w in b), "little")
    n = len(a) + len(b) - 1
    raw = (pa * pb).to_bytes(width * n, "little")
    return [int.from_bytes(raw[k:k + width], "little") for k in range(0, width * n, width)]
