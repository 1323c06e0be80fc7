"""An exact, immutable probability distribution over outcomes: the value every mechanic returns.

Probabilities are exact :class:`~fractions.Fraction` values.  Internally a :class:`Dist` keeps integer
weights over one common denominator (reduced by their gcd), because integer arithmetic is what makes
convolutions and products of CDFs cheap; the ``Fraction`` is built only when a query asks for one.
The reduced weights are canonical, so equality and hashing are structural: two distributions are equal
exactly when they give every outcome the same probability.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from itertools import accumulate
from operator import sub
from typing import Any, NamedTuple

from ..values import is_whole
from .convolution import convolve
from .cost import SLOT_FORMATS, Shape, dense_is_cheaper, fair_sum_cost, power_slot, repeat_cost, sparse_cost
from .cost import dense_cost as _dense_cost
from .errors import PY_STEP, check_work, priced


def _fraction_fast(numerator: int, denominator: int) -> Fraction:
    """Fraction(numerator, denominator) for denominator > 0, about twice as fast as the constructor.

    ``Fraction.__new__`` re-validates and re-normalises in pure Python; this reduces by the gcd and
    fills the two slots, which is what ``Fraction._from_coprime_ints`` does on Python >= 3.12.  The
    result is an ordinary Fraction (checked once at import; otherwise the constructor is used).
    """
    g = _gcd(numerator, denominator)
    f = _new_object(Fraction)
    f._numerator = numerator // g  # type: ignore[attr-defined]
    f._denominator = denominator // g  # type: ignore[attr-defined]
    return f


_gcd, _new_object = math.gcd, object.__new__  # module globals: one lookup each, not two


def _fractions_fast(numerators: Iterable[int], denominator: int) -> list[Fraction]:
    """[Fraction(n, denominator) for n in numerators], the body of :func:`_fraction_fast` in one loop:
    a whole table's probabilities (``items()``, ``cdf()``) without a Python call per Fraction, which
    is a third of what making one costs."""
    out: list[Fraction] = []
    append, gcd, new = out.append, math.gcd, object.__new__
    for n in numerators:
        g = gcd(n, denominator)
        f = new(Fraction)
        f._numerator = n // g  # type: ignore[attr-defined]
        f._denominator = denominator // g  # type: ignore[attr-defined]
        append(f)
    return out


def _fractions_slow(numerators: Iterable[int], denominator: int) -> list[Fraction]:  # pragma: no cover
    return [Fraction(n, denominator) for n in numerators]


def _fraction_checked() -> tuple[Callable[[int, int], Fraction], Callable[[Iterable[int], int], list[Fraction]]]:
    try:
        probe = _fraction_fast(6, 4)
        many = _fractions_fast([6, 0, 3], 4)
        if probe == Fraction(3, 2) and hash(probe) == hash(Fraction(3, 2)) and repr(probe) == "Fraction(3, 2)" \
                and _fraction_fast(0, 5) == 0 and probe + 1 == Fraction(5, 2) \
                and many == [Fraction(3, 2), 0, Fraction(3, 4)] and repr(many[2]) == "Fraction(3, 4)":
            return _fraction_fast, _fractions_fast
    except (AttributeError, TypeError):  # pragma: no cover - a Python whose Fraction has no such slots
        pass
    return Fraction, _fractions_slow  # pragma: no cover


#: One Fraction, and many over one denominator, made without ``Fraction.__new__``'s checks.
_frac, _fracs = _fraction_checked()


class Outcomes(NamedTuple):
    """The result of :func:`compare`: P(a > b), P(a == b), P(a < b) for independent a and b."""

    win: Fraction
    tie: Fraction
    lose: Fraction


def _sorted_outcomes(keys: Iterable[Hashable]) -> list[Any]:
    """Sort outcomes; outcomes of mixed, unorderable types fall back to a stable order by type and repr."""
    keys = list(keys)
    try:
        return sorted(keys)
    except TypeError:
        return sorted(keys, key=lambda o: (type(o).__name__, repr(o)))


def _exact(value: Any, what: str) -> Fraction | int:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise TypeError(f"{what} must be an int or a Fraction (exact), not {type(value).__name__}: {value!r}")
    if value < 0:
        raise ValueError(f"{what} must not be negative: {value}")
    return value


class Dist:
    """An exact distribution: outcomes sorted, zero-probability outcomes dropped, hashable, immutable.

    Build one with :meth:`die`, :meth:`constant`, :meth:`from_weights`, :meth:`from_probabilities`,
    :meth:`from_outcomes` or ``Dist(mapping_of_weights)``; combine them with ``+``, ``-``, ``*`` (by an
    int), :meth:`repeat_sum`, :meth:`map` and :meth:`given`.
    """

    __slots__ = ("_cum", "_hash", "_index", "_ints", "_mean", "_memo", "_outcomes", "_total", "_weights")

    # Outcomes are any hashable, orderable values (ints mostly; tuples, strings, bools for some
    # mechanics), so they are typed ``Any``: a mapping's key type is invariant, and ``Hashable`` would
    # refuse a ``dict[int, ...]``.
    _outcomes: tuple[Any, ...]
    _weights: tuple[int, ...]
    _total: int
    _hash: int | None
    _cum: list[int] | None
    _index: dict[Any, int] | None
    _ints: bool | None
    _memo: dict[int, Fraction]
    _mean: Fraction | None

    def __init__(self, weights: Mapping[Any, int | Fraction]):
        other = Dist.from_weights(weights)
        self._set(other._outcomes, other._weights)

    # ----------------------------------------------------------------- construction
    def _set(self, outcomes: tuple[Any, ...], weights: tuple[int, ...]) -> None:
        self._outcomes = outcomes
        self._weights = weights
        self._total = sum(weights)
        self._hash = None
        self._cum = None
        self._index = None
        self._ints = None
        self._memo = {}
        self._mean = None

    @classmethod
    def _new(cls, outcomes: Iterable[Any], weights: Iterable[int]) -> Dist:
        """Fast path: ``outcomes`` already sorted and distinct, ``weights`` non-negative ints."""
        outcomes = tuple(outcomes)
        weights = list(weights)
        if 0 in weights:
            kept = [(o, w) for o, w in zip(outcomes, weights) if w]
            outcomes = tuple(o for o, _ in kept)
            weights = [w for _, w in kept]
        if not weights:
            raise ValueError("a distribution needs at least one outcome with positive probability")
        g = math.gcd(*weights)
        if g > 1:
            weights = [w // g for w in weights]
        self = object.__new__(cls)
        self._set(outcomes, tuple(weights))
        return self

    @classmethod
    def _from_int_dict(cls, weights: Mapping[Any, int]) -> Dist:
        keys = _sorted_outcomes(weights)
        return cls._new(keys, [weights[k] for k in keys])

    @classmethod
    def _from_dense(cls, low: int, weights: list[int]) -> Dist:
        d = cls._new(range(low, low + len(weights)), weights)
        d._ints = True
        return d

    @staticmethod
    @cache
    def die(sides: int) -> Dist:
        """A fair die with faces 1..sides."""
        if not is_whole(sides) or sides < 1:
            raise ValueError(f"a die needs a whole number of sides >= 1, not {sides!r}")
        return Dist._fair_ints(1, sides)

    @classmethod
    def _fair_ints(cls, low: int, count: int) -> Dist:
        """Outcomes low..low+count-1, each of weight 1 (nothing to check or reduce)."""
        self = object.__new__(cls)
        self._set(tuple(range(low, low + count)), (1,) * count)
        self._ints = True
        return self

    @classmethod
    def constant(cls, x: Hashable) -> Dist:
        """The outcome ``x`` with certainty."""
        return cls._new((x,), (1,))

    @classmethod
    def from_weights(cls, weights: Mapping[Any, int | Fraction]) -> Dist:
        """Normalise non-negative exact weights (ints or Fractions) into a distribution."""
        exact = {k: _exact(v, f"the weight of {k!r}") for k, v in weights.items()}
        scale = math.lcm(*(Fraction(v).denominator for v in exact.values())) if exact else 1
        return cls._from_int_dict({k: int(v * scale) for k, v in exact.items()})

    @classmethod
    def from_probabilities(cls, probabilities: Mapping[Any, int | Fraction]) -> Dist:
        """Like :meth:`from_weights`, but the values must already sum to exactly 1 (else ValueError)."""
        total = sum(_exact(v, f"the probability of {k!r}") for k, v in probabilities.items())
        if total != 1:
            raise ValueError(f"probabilities must sum to 1, not {total}")
        return cls.from_weights(probabilities)

    @classmethod
    def from_outcomes(cls, outcomes: Iterable[Hashable]) -> Dist:
        """Each listed outcome equally likely (repeats add up): the distribution of an enumeration."""
        counts: dict[Hashable, int] = {}
        for o in outcomes:
            counts[o] = counts.get(o, 0) + 1
        return cls._from_int_dict(counts)

    # ----------------------------------------------------------------- raw access
    @property
    def denominator(self) -> int:
        """The common denominator of all probabilities (the sum of the reduced integer weights)."""
        return self._total

    def weights(self) -> dict[Any, int]:
        """Outcome -> integer weight over :attr:`denominator`."""
        return dict(zip(self._outcomes, self._weights))

    def _is_int(self) -> bool:
        if self._ints is None:
            self._ints = all(type(o) is int for o in self._outcomes)
        return self._ints

    def _cumulative(self) -> list[int]:
        """cum[i] = sum of weights of outcomes[:i] (so cum[0] == 0 and cum[-1] == total)."""
        if self._cum is None:
            self._cum = list(accumulate(self._weights, initial=0))
        return self._cum

    def cumulative_weights(self) -> Sequence[int]:
        """The weights of the first k outcomes summed, for k = 0 to ``len(self)``: whole numbers over
        :attr:`denominator`, computed once (a long table's folding and a chart's bars read ranges of it)."""
        return self._cum or self._cumulative()

    def _weight_of(self, x: Hashable) -> int:
        if self._index is None:
            self._index = dict(zip(self._outcomes, self._weights))
        return self._index.get(x, 0)

    # ----------------------------------------------------------------- queries
    def p(self, x: Hashable) -> Fraction:
        """P(X == x)."""
        return _frac(self._weight_of(x), self._total)

    # Tail queries repeat a lot (every DC of every pool), so each computed Fraction is memoised per
    # index: key i holds P(X < outcomes[i]) and key ~i holds P(X >= outcomes[i]).
    def _tail(self, key: int) -> Fraction:
        f = self._memo.get(key)
        if f is None:
            t = self._total
            cumulative = self._cum or self._cumulative()
            f = self._memo[key] = _frac(cumulative[key] if key >= 0 else t - cumulative[~key], t)
        return f

    def p_le(self, x: Any) -> Fraction:
        """P(X <= x)."""
        return self._tail(bisect_right(self._outcomes, x))

    def p_lt(self, x: Any) -> Fraction:
        """P(X < x)."""
        return self._tail(bisect_left(self._outcomes, x))

    def p_ge(self, x: Any) -> Fraction:
        """P(X >= x)."""
        return self._tail(~bisect_left(self._outcomes, x))

    def p_gt(self, x: Any) -> Fraction:
        """P(X > x)."""
        return self._tail(~bisect_right(self._outcomes, x))

    def p_success(self, dc: Any) -> Fraction:
        """P(X >= dc): the usual "meet or beat the difficulty" check."""
        return self.p_ge(dc)

    def p_where(self, predicate: Callable[[Any], bool]) -> Fraction:
        """P(predicate(X))."""
        return _frac(sum(w for o, w in zip(self._outcomes, self._weights) if predicate(o)), self._total)

    def mean(self) -> Fraction:
        """E[X], exact (computed once: the variance needs it too)."""
        if self._mean is None:
            self._mean = Fraction(sum(o * w for o, w in zip(self._outcomes, self._weights)), self._total)
        return self._mean

    def variance(self) -> Fraction:
        """Var[X] = E[X^2] - E[X]^2, exact."""
        second = Fraction(sum(o * o * w for o, w in zip(self._outcomes, self._weights)), self._total)
        return second - self.mean() ** 2

    def sd(self) -> float:
        """Standard deviation (a float: the square root is rarely rational)."""
        return math.sqrt(self.variance())

    def min(self) -> Any:
        """The smallest outcome with positive probability."""
        return self._outcomes[0]

    def max(self) -> Any:
        """The largest outcome with positive probability."""
        return self._outcomes[-1]

    def support(self) -> tuple[Any, ...]:
        """All outcomes with positive probability, sorted."""
        return self._outcomes

    def quantile(self, q: int | float | Fraction) -> Any:
        """The smallest outcome x with P(X <= x) >= q, for 0 <= q <= 1 (floats are taken exactly)."""
        q = Fraction(q)
        if not 0 <= q <= 1:
            raise ValueError(f"a quantile needs 0 <= q <= 1, not {q}")
        target = q * self._total  # compare cum >= q * total in exact arithmetic
        cum = self._cumulative()
        i = bisect_left(cum, math.ceil(target), lo=1)
        return self._outcomes[i - 1]

    def median(self) -> Any:
        """The 1/2-quantile."""
        return self.quantile(Fraction(1, 2))

    def cdf(self) -> tuple[tuple[Any, Fraction], ...]:
        """(x, P(X <= x)) for every outcome x."""
        cum = self._cumulative()
        return tuple(zip(self._outcomes, _fracs(cum[1:], self._total)))

    def items(self) -> tuple[tuple[Any, Fraction], ...]:
        """(x, P(X == x)) for every outcome x, sorted."""
        w = self._weights
        if len(w) > 2 and w[0] == w[-1] and w == w[::-1]:
            # Symmetric weights (sums of like dice): the second half's Fractions are the first's.
            half = _fracs(w[:(len(w) + 1) // 2], self._total)
            return tuple(zip(self._outcomes, half + half[len(w) // 2 - 1::-1]))
        return tuple(zip(self._outcomes, _fracs(w, self._total)))

    def probabilities(self) -> dict[Any, Fraction]:
        """Outcome -> probability, as a plain dict."""
        return dict(self.items())

    def format_table(self) -> tuple[tuple[Any, Fraction, Fraction], ...]:
        """Rows (outcome, P(= outcome), P(>= outcome)) for a rulebook table."""
        cum = self._cumulative()
        t = self._total
        return tuple(zip(self._outcomes, _fracs(self._weights, t), _fracs([t - c for c in cum[:-1]], t)))

    # ----------------------------------------------------------------- container protocol
    def __iter__(self) -> Iterator[Any]:
        return iter(self._outcomes)

    def __len__(self) -> int:
        return len(self._outcomes)

    def __contains__(self, x: object) -> bool:
        return self._weight_of(x) > 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self is other or (self._weights == other._weights and self._outcomes == other._outcomes)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._outcomes, self._weights))
        return self._hash

    def __repr__(self) -> str:
        parts = [f"{o!r}: {Fraction(w, self._total)}" for o, w in zip(self._outcomes[:60], self._weights)]
        if len(self._outcomes) > 60:
            parts.append(f"... {len(self._outcomes) - 60} more")
        return "Dist({" + ", ".join(parts) + "})"

    # ----------------------------------------------------------------- arithmetic
    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, Dist):
            return _convolve(self, other)
        if is_whole(other):
            return Dist._new(tuple(o + other for o in self._outcomes), self._weights) if other else self
        return NotImplemented

    __radd__ = __add__

    def __neg__(self) -> Dist:
        return Dist._new(tuple(-o for o in reversed(self._outcomes)), tuple(reversed(self._weights)))

    def __sub__(self, other: Dist | int) -> Dist:
        if isinstance(other, Dist):
            return _convolve(self, -other)
        if is_whole(other):
            return self + (-other)
        return NotImplemented

    def __rsub__(self, other: int) -> Dist:
        if is_whole(other):
            return (-self) + other
        return NotImplemented

    def __mul__(self, k: int) -> Dist:
        """Scale every outcome by the int ``k`` (not the sum of k copies: see :meth:`repeat_sum`)."""
        if not is_whole(k):
            return NotImplemented
        if k == 0:
            return Dist.constant(0)
        if k > 0:
            return Dist._new(tuple(o * k for o in self._outcomes), self._weights)
        return (-self) * (-k)

    __rmul__ = __mul__

    def repeat_sum(self, n: int) -> Dist:
        """The sum of ``n`` independent copies (by repeated squaring; cached)."""
        if not is_whole(n) or n < 0:
            raise ValueError(f"repeat_sum needs a whole number n >= 0, not {n!r}")
        return _repeat_sum(self, n)

    def map(self, fn: Callable[[Any], Hashable]) -> Dist:
        """The distribution of fn(X); outcomes that map together add up."""
        out: dict[Hashable, int] = {}
        for o, w in zip(self._outcomes, self._weights):
            y = fn(o)
            out[y] = out.get(y, 0) + w
        return Dist._from_int_dict(out)

    def combine(self, other: Dist, fn: Callable[[Any, Any], Hashable]) -> Dist:
        """The distribution of fn(X, Y) for independent X ~ self and Y ~ other."""
        out: dict[Hashable, int] = {}
        if not priced():
            check_work(len(self) * len(other) * PY_STEP, "combine")
        for a, wa in zip(self._outcomes, self._weights):
            for b, wb in zip(other._outcomes, other._weights):
                y = fn(a, b)
                out[y] = out.get(y, 0) + wa * wb
        return Dist._from_int_dict(out)

    def given(self, predicate: Callable[[Any], bool]) -> Dist:
        """The conditional distribution of X given predicate(X) (ValueError if that is impossible)."""
        kept = [(o, w) for o, w in zip(self._outcomes, self._weights) if predicate(o)]
        if not kept:
            raise ValueError("cannot condition on an event of probability 0")
        return Dist._new((o for o, _ in kept), (w for _, w in kept))

    def compare(self, other: Dist) -> Outcomes:
        """Same as :func:`compare(self, other) <compare>`."""
        return compare(self, other)


def _dense(d: Dist) -> list[int]:
    """The weights of an int distribution laid out on min..max (zero where an outcome is missing)."""
    lo, hi = d._outcomes[0], d._outcomes[-1]
    span = hi - lo + 1
    if span == len(d._outcomes):
        return list(d._weights)
    arr = [0] * span
    for o, w in zip(d._outcomes, d._weights):
        arr[o - lo] = w
    return arr


def _convolve(a: Dist, b: Dist) -> Dist:
    """The distribution of X + Y for independent X ~ a and Y ~ b."""
    if len(a) == 1:
        return b + a._outcomes[0] if a._is_int() else b.map(lambda y: a._outcomes[0] + y)
    if len(b) == 1:
        return a + b._outcomes[0] if b._is_int() else a.map(lambda x: x + b._outcomes[0])
    if a._is_int() and b._is_int():
        full = a._outcomes[-1] - a._outcomes[0] + 1 == len(a) and b._outcomes[-1] - b._outcomes[0] + 1 == len(b)
        trusted = priced()
        if not full or not trusted:
            sa, sb = shape_of(a), shape_of(b)
            dense = full or dense_is_cheaper(sa, sb)
            if not trusted:
                check_work(_dense_cost(sa, sb) if dense else sparse_cost(sa, sb), "sum of dice")
        if full or dense:
            return Dist._from_dense(a._outcomes[0] + b._outcomes[0], convolve(_dense(a), _dense(b)))
    return a.combine(b, lambda x, y: x + y)


def shape_of(d: Dist) -> Shape:
    """What the work model (``rules.dice.cost``) needs of an int distribution already computed."""
    return Shape(d._outcomes[0], d._outcomes[-1], len(d._outcomes), max(d._weights).bit_length())


def _fair(d: Dist) -> bool:
    """Every outcome lo..hi has weight 1 (a fair die, a fudge die, a die rerolled until it stands)."""
    outcomes = d._outcomes
    return d._total == len(outcomes) and d._is_int() and outcomes[-1] - outcomes[0] + 1 == len(outcomes)


def _box_sum(low: int, sides: int, n: int) -> Dist:
    """n fair dice of faces low..low+sides-1, one at a time: adding a fair die of S faces to weights w
    is a running sum of S of them (out[k] = C[k + 1] - C[k + 1 - S], C the cumulative sums), a few
    C-level operations per weight, and only for the first half of a symmetric result.  Much cheaper
    than squaring by big products (``176d100`` took seconds), and exact."""
    weights = [1] * sides
    pad = [0] * (sides - 1)
    for _ in range(n - 1):
        # The weights are symmetric: compute the first half (h of them) and mirror it.
        size = len(weights) + sides - 1
        h = (size + 1) // 2  # <= len(weights): only the first h cumulative sums are read
        cum = list(accumulate(weights[:h], initial=0))
        first = list(map(sub, cum[1:], (pad + cum)[:h]))
        weights = first + first[:size - h][::-1]
    # weights[0] == 1 and none is 0: already reduced, so no gcd and no filtering
    result = object.__new__(Dist)
    result._set(tuple(range(low * n, low * n + len(weights))), tuple(weights))
    result._ints = True
    return result


def _power_weights(sides: int, n: int, width: int) -> tuple[int, ...]:
    """The weights of ``n`` fair dice as the slots of one integer power: ``(1 + x + ... + x ** (S-1))
    ** n`` at ``x = 2 ** (8 * width)``, unpacked by ``memoryview`` (``cost.power_slot`` chose a width
    no weight fills, so no slot carries into the next)."""
    bits = 8 * width
    one = ((1 << (bits * sides)) - 1) // ((1 << bits) - 1)  # S slots holding 1
    size = n * (sides - 1) + 1
    data = (one ** n).to_bytes(size * width, "little")
    return tuple(data) if width == 1 else tuple(memoryview(data).cast(SLOT_FORMATS[width]))


def fair_sum(low: int, sides: int, n: int) -> Dist:
    """The sum of ``n`` >= 1 fair dice with faces ``low..low+sides-1``: the one implementation of
    ``NdS``, ``NdF`` and :meth:`Dist.repeat_sum` of any fair die.  Small sums are one integer power,
    others running sums (``cost.power_slot`` chooses, and ``cost.fair_sum_cost`` prices what it
    chose); refused at once when that is too much work, unless the caller priced it already."""
    if n > 1 and sides > 1 and not priced():
        check_work(fair_sum_cost(low, sides, n)[0], "sum of dice")
    return priced_fair_sum(low, sides, n)


@lru_cache(maxsize=512)
def priced_fair_sum(low: int, sides: int, n: int) -> Dist:
    """:func:`fair_sum` for a caller that has priced it (``Dice.dist``), cached by three ints
    (cheaper to look up than a distribution, which must be hashed)."""
    if n == 1 or sides == 1:
        return _box_sum(low, sides, n)
    width = power_slot(sides, n)
    if not width:
        return _box_sum(low, sides, n)
    weights = _power_weights(sides, n, width)
    # weights[0] == 1 and none is 0: already reduced, so no gcd and no filtering
    result = object.__new__(Dist)
    result._set(tuple(range(low * n, low * n + len(weights))), weights)
    result._ints = True
    return result


@lru_cache(maxsize=512)
def _repeat_sum(d: Dist, n: int) -> Dist:
    if n > 1 and len(d) > 1 and _fair(d):
        return fair_sum(d._outcomes[0], len(d), n)
    if n > 1 and len(d) > 1 and d._is_int() and not priced():
        # Refuse up front if the squarings together would be too much, before doing any of them.
        check_work(repeat_cost(shape_of(d), n)[0], "sum of dice")
    result: Dist | None = None
    base = d
    while n:
        if n & 1:
            result = base if result is None else _convolve(result, base)
        n >>= 1
        if n:
            base = _convolve(base, base)
    return Dist.constant(0) if result is None else result


def compare(a: Dist, b: Dist) -> Outcomes:
    """P(a > b), P(a == b), P(a < b) for independent a and b (an opposed roll read as win/tie/lose)."""
    cum_a = a._cumulative()
    ta = a._total
    win = tie = 0
    for y, wb in zip(b._outcomes, b._weights):
        i = bisect_left(a._outcomes, y)
        j = bisect_right(a._outcomes, y, lo=i)
        win += wb * (ta - cum_a[j])
        tie += wb * (cum_a[j] - cum_a[i])
    total = ta * b._total
    return Outcomes(Fraction(win, total), Fraction(tie, total), Fraction(total - win - tie, total))
