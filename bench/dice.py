#!/usr/bin/env python3
"""Benchmark of the code the books run (each game's mechanic, on the exact dice engine) against icepool
and against the bare closed-form maths.

    .venv/bin/python bench/dice.py [--repeat 7] [--quick] [--small] [--fresh]

Each query is computed three (four) ways, and the answers are asserted equal (exact Fractions):

* ``engine cold``: the game's own function (``rules.nemron.checks.check_distribution``,
  ``rules.nugget.rolls.success_distribution``, ``rules.spurg.verdict.outcome_odds``,
  ``rules.heimr.challenge.challenge_distribution``) with every memo cleared before each run
  (``rules.dice.clear_caches``, which also forgets the parsed texts and their prices).  The three
  small questions (``--small``) start from text: ``parse("3d6").dist()`` and Nemron's
  ``pool_distribution("1d6 › 1d8")``, so parsing, pricing and computing are all timed;
* ``engine warm``: the same with its memos filled by an earlier run (how a rulebook build
  that asks the same pools again and again sees it);
* ``bare``: the closed form written out directly with ``Fraction`` and ``math.comb``, no engine;
* ``icepool``: the natural icepool 2.1 formulation (icepool keeps its own caches between runs, so
  its numbers are warm too).

"Cold" here is the engine with every memo emptied (parsed texts, prices, sums, kept dice) in a
process that has imported it and run before: a page or calculator asking its first question of a
kind.  What is kept: the imported modules, compiled patterns and the constants made at import
(Nemron's five rank dice as distributions, as icepool keeps ``d6``).  ``--fresh`` measures the
other cold, the first question in a new process with the import included, for both engines.

Times are medians of CPU time over ``--repeat`` rounds in which the four ways alternate (engine cold,
engine warm, bare, icepool, engine cold, ...), so that on a loaded machine every ratio compares runs
of the same rounds; compare ratios only.  Each call is timed alone, and the cost of reading the clock
(an empty function timed in the same rounds, about a microsecond on a loaded machine) is taken off.
Not part of the test command: it needs icepool (the ``bench`` or ``test`` extra).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import icepool  # type: ignore[import-untyped]

from rules.dice import EXPLOSION_TAIL, clear_caches
from rules.dice import parse as dice_parse
from rules.heimr import challenge
from rules.nemron.checks import Modifier, check_distribution, pool_distribution
from rules.nugget.rolls import success_distribution
from rules.spurg.verdict import Outcome, outcome_odds

RANK_SIDES = (4, 6, 8, 10, 12)
POOLS = [p for size in range(1, 5) for p in itertools.combinations_with_replacement(RANK_SIDES, size)]
assert len(POOLS) == 125
VARIANTS = ("plain", "lesser boon", "greater boon", "lesser penalty", "greater penalty")
DCS = range(1, 13)
NUGGET_N = range(1, 21)
SPURG_TNS = range(1, 19)
HEIMR_C = range(-5, 6)

#: The small questions, held to 1.2x of the bare closed form.
SMALL = ("3d6 (parse, every P(=t))", "3d6 roll-under (parse, P(<=t))", "Nemron chains (parse, DC1-12)")

#: An exact distribution as a plain mapping, and SPURG's (success, critical success, critical failure).
Odds = dict[int, F]
Triple = tuple[F, F, F]


def cold() -> None:
    """Empty the dice engine's memos and the games' own."""
    clear_caches()
    challenge._raw_distribution.cache_clear()


# ---------------------------------------------------------------- Nemron: 125 pools x 5 x DC 1..12
def nemron_engine() -> list[F]:
    out: list[F] = []
    for sides in POOLS:
        for modifier in (None, Modifier.LESSER_BOON, Modifier.GREATER_BOON, Modifier.LESSER_PENALTY,
                         Modifier.GREATER_PENALTY):
            dist = check_distribution(sides, modifier)
            out.extend(dist.p_ge(dc) for dc in DCS)
    return out


def nemron_bare() -> list[F]:
    out: list[F] = []
    for sides in POOLS:
        for variant in VARIANTS:
            extra = {"lesser boon": 8, "greater boon": 12}.get(variant)
            penalty = {"lesser penalty": 8, "greater penalty": 4}.get(variant)
            pool = (*sides, extra) if extra else sides
            for dc in DCS:
                below = F(1)
                for s in pool:
                    below *= F(min(dc - 1, s), s)
                p = 1 - below
                if penalty:
                    p *= F(max(0, penalty - dc + 1), penalty)
                out.append(p)
    return out


def nemron_icepool() -> list[F]:
    out: list[F] = []
    d8, d12, d4 = icepool.d(8), icepool.d(12), icepool.d(4)

    def highest(*dice: Any) -> Any:
        return dice[0] if len(dice) == 1 else icepool.highest(*dice)

    for sides in POOLS:
        dice = [icepool.d(s) for s in sides]
        best = highest(*dice)
        for die in (best, highest(*dice, d8), highest(*dice, d12), icepool.lowest(best, d8),
                    icepool.lowest(best, d4)):
            out.extend(die.probability(">=", dc) for dc in DCS)
    return out


# ---------------------------------------------------------------- NUGGET: 1..20 dice, lid-on / lid-off
def nugget_on_engine() -> list[Odds]:
    return [dict(success_distribution(n, lid="on").items()) for n in NUGGET_N]


def nugget_on_bare() -> list[Odds]:
    out: list[Odds] = []
    for n in NUGGET_N:
        dist = {k: F(math.comb(n, k), 2 ** n) for k in range(n + 1)}
        six = F(1, 6 ** n)
        dist[n] -= six
        dist[n + 1] = six
        out.append(dist)
    return out


def nugget_on_icepool() -> list[Odds]:
    pair = icepool.d6.map(lambda f: icepool.vectorize(int(f >= 4), int(f == 6)))
    return [_icepool_items((n @ pair).map(lambda v, n=n: v[0] + (v[1] == n))) for n in NUGGET_N]


def _icepool_items(die: Any) -> Odds:
    denominator = die.denominator()
    return {k: F(q, denominator) for k, q in die.items()}


def nugget_off_engine() -> list[Odds]:
    return [dict(success_distribution(n, lid="off").items()) for n in NUGGET_N]


def nugget_off_bare() -> list[Odds]:
    """The negative-binomial x binomial series, term by term in Fractions, folded by the same rule."""
    out: list[Odds] = []
    plain, miss, m = F(2, 6), F(3, 6), F(1, 6)
    for n in NUGGET_N:
        dist: dict[int, F] = {}
        below = F(0)
        k = 0
        while 1 - below > EXPLOSION_TAIL:
            p = sum((math.comb(n, i) * plain ** i * miss ** (n - i) * math.comb(n - 1 + k - i, k - i) * m ** (k - i)
                     for i in range(min(n, k) + 1)), F(0))
            dist[k] = p
            below += p
            k += 1
        dist[k] = 1 - below
        out.append(dist)
    return out


def nugget_off_icepool(caps: list[int]) -> Callable[[], list[Odds]]:
    """icepool cannot explode without a limit: explode deep enough (depth = cap) and fold the tail."""
    def run() -> list[Odds]:
        out: list[Odds] = []
        for n, cap in zip(NUGGET_N, caps):
            one = icepool.Die({0: 3, 1: 2, 1000: 1}).explode(depth=cap).map(lambda v: v // 1000 + v % 1000)
            out.append(_icepool_items((n @ one).map(lambda k, cap=cap: min(k, cap))))
        return out
    return run


# ---------------------------------------------------------------- SPURG: 3d6 at every TN, criticals
def crit_success(roll: int, tn: int) -> bool:
    return roll <= 4 or (roll == 5 and tn >= 15) or (roll == 6 and tn >= 16)


def crit_failure(roll: int, tn: int) -> bool:
    return roll == 18 or (roll == 17 and tn <= 15) or roll >= tn + 11


def verdict(roll: int, tn: int) -> Outcome:
    """The book's default precedence: a critical decides first, then the TN."""
    if crit_success(roll, tn):
        return Outcome.CRITICAL_SUCCESS
    if crit_failure(roll, tn):
        return Outcome.CRITICAL_FAILURE
    return Outcome.SUCCESS if roll <= tn else Outcome.FAILURE


def spurg_engine() -> list[Triple]:
    out: list[Triple] = []
    for tn in SPURG_TNS:
        odds = outcome_odds(tn)
        out.append((odds[Outcome.SUCCESS] + odds[Outcome.CRITICAL_SUCCESS], odds[Outcome.CRITICAL_SUCCESS],
                    odds[Outcome.CRITICAL_FAILURE]))
    return out


def spurg_bare() -> list[Triple]:
    def at_most(t: int) -> int:  # number of 3d6 rolls <= t, by inclusion-exclusion
        return sum((-1) ** j * math.comb(3, j) * math.comb(t - 6 * j, 3) for j in range(4) if t - 6 * j >= 3)
    count = {r: at_most(r) - at_most(r - 1) for r in range(3, 19)}
    out: list[Triple] = []
    for tn in SPURG_TNS:
        def p(*outcomes: Outcome, tn: int = tn) -> F:
            return F(sum(c for r, c in count.items() if verdict(r, tn) in outcomes), 216)
        out.append((p(Outcome.SUCCESS, Outcome.CRITICAL_SUCCESS), p(Outcome.CRITICAL_SUCCESS),
                    p(Outcome.CRITICAL_FAILURE)))
    return out


def spurg_icepool() -> list[Triple]:
    three = 3 @ icepool.d6
    out: list[Triple] = []
    for tn in SPURG_TNS:
        named = three.map(lambda r, tn=tn: verdict(r, tn).value)
        out.append((named.probability("success") + named.probability("critical success"),
                    named.probability("critical success"), named.probability("critical failure")))
    return out


# ---------------------------------------------------------------- Heimr: C = -5..5
def heimr_engine() -> list[Odds]:
    return [dict(challenge.challenge_distribution(c).items()) for c in HEIMR_C]


def heimr_bare() -> list[Odds]:
    out: list[Odds] = []
    for c in HEIMR_C:
        n = abs(c)
        dist: dict[int, F] = {}
        if c == 0:
            dist = {k: F(1, 6) for k in range(1, 7)}
        elif c > 0:
            no_ten = F(9, 10) ** n
            for x in range(1, 10):  # max(d6, d9s) given no 10s, times P(no 10s)
                dist[x] = no_ten * (F(min(x, 6), 6) * F(x, 9) ** n - F(min(x - 1, 6), 6) * F(x - 1, 9) ** n)
            for t in range(1, n + 1):
                dist[9 + t] = math.comb(n, t) * F(1, 10) ** t * F(9, 10) ** (n - t)
        else:
            no_one = F(5, 6) * F(9, 10) ** n
            for x in range(2, 7):  # min(d6 on 2..6, d10s on 2..10) given no 1s
                dist[x] = no_one * (F(7 - x, 5) * F(11 - x, 9) ** n - F(max(6 - x, 0), 5) * F(10 - x, 9) ** n)
            for o in range(1, n + 2):  # o ones among d6 (1/6) and n d10s (1/10 each)
                p = F(1, 6) * math.comb(n, o - 1) * F(1, 10) ** (o - 1) * F(9, 10) ** (n - o + 1)
                if o <= n:
                    p += F(5, 6) * math.comb(n, o) * F(1, 10) ** o * F(9, 10) ** (n - o)
                dist[2 - o] = p
        out.append({k: v for k, v in dist.items() if v})
    return out


#: icepool's decorator, typed for mypy (icepool ships no type information).
multiset_function: Callable[[Callable[..., Any]], Callable[..., Any]] = icepool.multiset_function


@multiset_function
def _heimr_high(pool: Any) -> Any:
    return pool.highest(1).sum(), pool.keep_outcomes([10]).size()


@multiset_function
def _heimr_low(pool: Any) -> Any:
    return pool.lowest(1).sum(), pool.keep_outcomes([1]).size()


def heimr_icepool() -> list[Odds]:
    out: list[Odds] = []
    for c in HEIMR_C:
        pool = icepool.Pool([icepool.d6] + [icepool.d10] * abs(c))
        if c > 0:
            die = _heimr_high(pool).map(lambda h, tens: h + max(0, tens - 1))
        elif c < 0:
            die = _heimr_low(pool).map(lambda low, ones: low - max(0, ones - 1))
        else:
            die = icepool.d6
        out.append(_icepool_items(die))
    return out


# ---------------------------------------------------------------- small questions, parse included
CHAINS = ["1d6 › 1d8", "1d4 › 1d10 › 1d6", "1d12 › 1d8 › 1d8 › 1d4", "1d10 > 1d10"]
CHAIN_SIDES = [(6, 8), (4, 10, 6), (12, 8, 8, 4), (10, 10)]


def three_d6_engine() -> Odds:
    return dict(dice_parse("3d6").dist().items())


def _three_d6_counts() -> list[int]:
    """The bare convolution: three d6 by the double loop, as anyone would write it."""
    counts = [1] * 6
    for _ in range(2):
        out = [0] * (len(counts) + 5)
        for i, c in enumerate(counts):
            for j in range(6):
                out[i + j] += c
        counts = out
    return counts


def three_d6_bare() -> Odds:
    return {t: F(c, 216) for t, c in enumerate(_three_d6_counts(), 3)}


def three_d6_icepool() -> Odds:
    return _icepool_items(3 @ icepool.d6)


def under_engine() -> list[F]:
    dist = dice_parse("3d6").dist()
    return [dist.p_le(t) for t in range(3, 19)]


def under_bare() -> list[F]:
    out, running = [], 0
    for c in _three_d6_counts():
        running += c
        out.append(F(running, 216))
    return out


def under_icepool() -> list[F]:
    die = 3 @ icepool.d6
    return [die.probability("<=", t) for t in range(3, 19)]


def chains_engine() -> list[F]:
    out: list[F] = []
    for text in CHAINS:
        dist = pool_distribution(text)
        out.extend(dist.p_ge(dc) for dc in DCS)
    return out


def chains_bare() -> list[F]:
    """The keep-highest formula: P(max >= dc) = 1 - prod P(d < dc), the pool read by a regex."""
    out: list[F] = []
    for text in CHAINS:
        sides = [int(m) for m in re.findall(r"d(\d+)", text)]
        for dc in DCS:
            below = F(1)
            for s in sides:
                below *= F(min(dc - 1, s), s)
            out.append(1 - below)
    return out


def chains_icepool() -> list[F]:
    out: list[F] = []
    for sides in CHAIN_SIDES:
        best = icepool.highest(*(icepool.d(s) for s in sides))
        out.extend(best.probability(">=", dc) for dc in DCS)
    return out


# ---------------------------------------------------------------- a fresh process each time
FRESH = {
    "engine": ("from rules.dice import parse", "dict(parse('3d6').dist().items())"),
    "icepool": ("import icepool; from fractions import Fraction as F",
                "die = 3 @ icepool.d6; {k: F(q, die.denominator()) for k, q in die.items()}"),
}
FRESH_CHILD = """
import sys, time
sys.path.insert(0, {root!r})
start = time.process_time()
{imports}
imported = time.process_time()
{question}
print(imported - start, time.process_time() - imported)
"""


def fresh(runs: int) -> None:
    """3d6 as the first question of a new Python process, import included, the two engines alternated."""
    import subprocess

    root = str(Path(__file__).resolve().parents[1])
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in FRESH}
    for _ in range(runs):
        for name, (imports, question) in FRESH.items():
            child = FRESH_CHILD.format(root=root, imports=imports, question=question)
            out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True).stdout
            imported, asked = (float(x) for x in out.split())
            times[name].append((imported, asked))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"3d6 in a fresh process: median of {runs} alternated runs, CPU time, load {load:.1f}")
    for name, pairs in times.items():
        imported = statistics.median(p[0] for p in pairs)
        asked = statistics.median(p[1] for p in pairs)
        print(f"{name:8} import {fmt(imported):>12}   first question {fmt(asked):>12}   "
              f"both {fmt(imported + asked):>12}")


# ---------------------------------------------------------------- harness
def _nothing() -> None:
    """Times the timer: what reading the CPU clock twice adds to every timed run."""


Run = tuple[Callable[[], object], Callable[[], None]]


def alternated(runs: list[Run], repeat: int) -> list[float]:
    """Median CPU seconds of each ``(function, before)``, the functions run in turn round after round
    (A, B, C, A, B, C, ...) so that all of them see the same load; ``before`` (clearing the memos, or
    nothing) precedes each call and is not timed.  A run repeats a fast function until it lasts
    about 20 ms.  Each call is timed alone (so ``before`` stays outside), and what timing an empty
    function costs, measured in the same rounds, is taken off every figure."""
    runs = [(_nothing, _nothing), *runs]
    loops = []
    for fn, before in runs:
        n = 1
        while True:
            start = time.process_time()
            for _ in range(n):
                before()
                fn()
            if time.process_time() - start > 0.02 or n > 10_000:
                break
            n *= 4
        loops.append(n)
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for (fn, before), n, out in zip(runs, loops, times):
            total = 0.0
            for _ in range(n):
                before()
                start = time.process_time()
                fn()
                total += time.process_time() - start
            out.append(total / n)
    overhead, *medians = [statistics.median(t) for t in times]
    return [max(m - overhead, 1e-9) for m in medians]


def normalise(result: object) -> object:
    """Drop zero-probability entries so dict answers compare on what is possible."""
    if isinstance(result, dict):
        return {k: v for k, v in result.items() if v}
    if isinstance(result, list):
        return [normalise(r) for r in result]
    return result


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:9.3f} ms" if seconds >= 1e-4 else f"{seconds * 1e6:9.1f} µs"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 repeats")
    parser.add_argument("--small", action="store_true", help="only the three small questions")
    parser.add_argument("--fresh", action="store_true", help="3d6 as a new process's first question, import included")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else args.repeat
    if args.fresh:
        fresh(repeat)
        return 0

    cold()
    caps = [success_distribution(n, lid="off").max() for n in NUGGET_N]
    queries = [
        ("3d6 (parse, every P(=t))", three_d6_engine, three_d6_bare, three_d6_icepool),
        ("3d6 roll-under (parse, P(<=t))", under_engine, under_bare, under_icepool),
        ("Nemron chains (parse, DC1-12)", chains_engine, chains_bare, chains_icepool),
        ("Nemron 125 pools x 5 x DC1-12", nemron_engine, nemron_bare, nemron_icepool),
        ("NUGGET 1-20 dice lid-on", nugget_on_engine, nugget_on_bare, nugget_on_icepool),
        ("NUGGET 1-20 dice lid-off", nugget_off_engine, nugget_off_bare, nugget_off_icepool(caps)),
        ("SPURG 3d6 TN1-18 + crits", spurg_engine, spurg_bare, spurg_icepool),
        ("Heimr C-5..5 full dist", heimr_engine, heimr_bare, heimr_icepool),
    ]
    if args.small:
        queries = [q for q in queries if q[0] in SMALL]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"dice engine benchmark: median of {repeat} runs, CPU time; ratios = other / engine; "
          f"Python {platform.python_version()}, icepool {icepool.__version__}, load {load:.1f} at the start")
    header = (f"{'query':32} {'engine cold':>12} {'engine warm':>12} {'bare':>12} {'icepool':>12} "
              f"{'ice/cold':>9} {'ice/warm':>9} {'cold/bare':>9} {'warm/bare':>9}")
    print(header)
    print("-" * len(header))
    misses = []
    for name, engine, bare, ice in queries:
        cold()
        expected = normalise(bare())
        assert normalise(engine()) == expected, f"{name}: engine differs from the closed form"
        assert normalise(ice()) == expected, f"{name}: icepool differs from the closed form"
        # One alternation for all four columns, so that every ratio compares runs of the same rounds
        # (the cold engine's run leaves the caches filled for the warm one that follows it).
        cold_time, warm, t_bare, t_ice = alternated([(engine, cold), (engine, _nothing), (bare, _nothing),
                                                     (ice, _nothing)], repeat)
        print(f"{name:32} {fmt(cold_time):>12} {fmt(warm):>12} {fmt(t_bare):>12} {fmt(t_ice):>12} "
              f"{t_ice / cold_time:8.1f}x {t_ice / warm:8.1f}x {cold_time / t_bare:8.2f}x {warm / t_bare:8.3f}x")
        limit = 1.2 if name in SMALL else 2
        if t_ice / cold_time < 10:
            misses.append(f"{name}: cold engine only {t_ice / cold_time:.1f}x faster than icepool")
        if cold_time / t_bare > limit:
            misses.append(f"{name}: cold engine {cold_time / t_bare:.2f}x the bare closed form (target {limit}x)")
    print()
    if hasattr(os, "getloadavg"):
        print(f"load {os.getloadavg()[0]:.1f} at the end (a loaded machine inflates every column; compare ratios)")
    print("targets: >= 10x faster than icepool, <= 2x the bare closed form (<= 1.2x for the first three rows), "
          "cold, no caches; CPU time, alternated runs")
    for miss in misses:
        print("MISS:", miss)
    if not misses:
        print("all targets met cold (warm numbers are faster still)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
