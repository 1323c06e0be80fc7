#!/usr/bin/env python3
"""How long the slowest dice expression takes before it answers or refuses (issue #16, bounds).

    .venv/bin/python bench/dice_bounds.py [--random 400] [--seed 1] [--root PATH] [--quick]

Every expression's exact distribution is either computed or refused with ComputationTooLargeError;
the engine prices the whole expression first (``DiceExpr.plan``), so a refusal should cost nothing
and an answer at most about a second.  This looks for the slowest expression three ways:

* the expressions the issue named (a long chain of different dice, ``134d134``, 154 ``1d100`` terms,
  lid-off successes of 1000 dice);
* for each family of expressions growing with one number (``Nd100``, ``NdF``, ``NdSkhK``, pools,
  chains...), the largest member the budget lets through and the smallest it refuses, by bisection
  on the estimate (so the hardest accepted expression of each family is timed);
* random expressions from a small grammar, the most expensive accepted ones by estimate timed.

Each is timed cold (caches cleared), wall clock and CPU.  A reference workload (a fixed loop and a
fixed big-integer product) is timed too, because on a shared machine both can be several times
slower than on a quiet one.  ``--root`` runs another checkout (e.g. the code before this change;
there the estimates are missing and only the named expressions are timed).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--random", type=int, default=400, help="random expressions to price (default 400)")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
parser.add_argument("--timed", type=int, default=8, help="random expressions to time (default 8)")
parser.add_argument("--quick", action="store_true", help="154d100, two families, 2 random expressions")
ARGS = parser.parse_args()
sys.path.insert(0, str(ARGS.root.resolve()))

from rules.dice import ComputationTooLargeError, DiceExpr, NotationError, clear_caches, count_successes, parse  # noqa: E402
from rules.dice.errors import MAX_WORK  # noqa: E402

HAS_PLAN = hasattr(DiceExpr, "plan")
Row = tuple[str, str, int | None, str, float, float]
ROWS: list[Row] = []


def reference() -> tuple[float, float]:
    """(seconds for a 10**6-step Python loop, seconds for squaring a 10**6-digit integer)."""
    start = time.perf_counter()
    total = 0
    for i in range(1_000_000):
        total += i
    loop = time.perf_counter() - start
    big = 7 ** 1_180_000
    start = time.perf_counter()
    _ = big * big
    return loop, time.perf_counter() - start


def timed(label: str, what: str, compute: Callable[[], object], work: int | None) -> Row:
    clear_caches()
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        compute()
        outcome = "answered"
    except ComputationTooLargeError:
        outcome = "refused"
    row = (label, what, work, outcome, time.perf_counter() - wall, time.process_time() - cpu)
    ROWS.append(row)
    shown = what if len(what) <= 48 else what[:45] + "..."
    per_unit = f"{row[5] * 1e9 / work:6.1f} ns/unit" if work and outcome == "answered" else ""
    print(f"{label:<10} {shown:<48} {work if work is not None else '-':>15} {outcome:<9} "
          f"{row[4]:7.2f} s wall {row[5]:7.2f} s cpu {per_unit}", flush=True)
    return row


def expression(label: str, text: str) -> Row:
    expr = parse(text)
    return timed(label, text, expr.dist, expr.work() if HAS_PLAN else None)


NAMED = {
    "chain": "-".join(f"1d{s}" for s in range(2, 171)),
    "repeated": "+".join(["1d100"] * 154),
    "sum": "154d100",
    "square": "134d134",
}

FAMILIES: dict[str, tuple[Callable[[int], str], int, int]] = {
    "NdS": (lambda n: f"{n}d100", 1, 1000),
    "Nd10000": (lambda n: f"{n}d10000", 1, 1000),
    "1dS": (lambda n: f"1d10000+{n}d10000", 1, 999),
    "NdF": (lambda n: f"{n}dF+{n}d6", 1, 500),
    "explode": (lambda n: f"{n}d6!", 1, 1000),
    "keep": (lambda n: f"{n}d20kh{max(1, n // 2)}", 2, 1000),
    "keep-S": (lambda n: f"60d{n}kh30", 2, 10000),
    "drop": (lambda n: f"{n}d10dl1", 2, 1000),
    "reroll": (lambda n: f"{n}d100r<10", 1, 1000),
    "until": (lambda n: f"{n}d1000rr>990", 1, 1000),
    "success": (lambda n: f"{n}d10000>=5000+{n}d6", 1, 500),
    "chain": (lambda n: "-".join(f"1d{s}" for s in range(2, n + 2)), 1, 180),
    "scaled": (lambda n: f"({n}d100+{n}d99)*3", 1, 500),
    "mixed": (lambda n: "+".join(f"{n}d{s}" for s in (4, 6, 8, 10, 12, 20)), 1, 166),
    "Nd20": (lambda n: f"{n}d20", 1, 1000),
    "Nd1000": (lambda n: f"{n}d1000", 1, 1000),
    "d100!": (lambda n: f"{n}d100!", 1, 1000),
    "coins": (lambda n: f"{n}d2kh{max(1, n // 2)}", 2, 1000),
    "coins-kl": (lambda n: f"1000d2kl{n}", 1, 999),
    "keep-1": (lambda n: f"{n}d10000kh1", 2, 1000),
    "adv-S": (lambda n: f"2d{n}kh1", 2, 10000),
    "wide-r1": (lambda n: f"{n}d10000r1", 1, 1000),
    "rr-left": (lambda n: f"{n}d10000rr<9000", 1, 1000),
    "scale-S": (lambda n: f"1d{n}*5+1d{n}", 2, 10000),
    "!kh1": (lambda n: f"{n}d10!kh1", 2, 1000),
    "!kh-half": (lambda n: f"{n}d10!kh{max(1, n // 2)}", 2, 1000),
    "r1kh": (lambda n: f"{n}d6r1kh{max(1, n // 2)}", 2, 1000),
}


def bisect_family(name: str, make: Callable[[int], str], low: int, high: int) -> None:
    """Time the largest member priced within the budget and the smallest priced over it."""
    def work(n: int) -> int:
        return parse(make(n)).work()
    try:
        work(low)
    except NotationError as error:  # a form this checkout's notation does not read
        print(f"{name:<10} skipped: {error}")
        return
    if work(high) <= MAX_WORK:
        expression(name, make(high))
        return
    if work(low) > MAX_WORK:
        expression(name, make(low))
        return
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if work(mid) <= MAX_WORK else (low, mid)
    expression(name, make(low))
    expression(name, make(high))


def random_expression(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 3 or roll < 0.45:
        count = rng.choice([1, 2, 3, 10, 50, 100, 200, 400, 1000])
        sides = rng.choice(["2", "6", "10", "20", "%", "100", "500", "1000", "10000"])
        suffix = rng.choice(["", "", "", f"kh{max(1, count // 2)}", "dl1", "!", ">=2", "r1", "r<3"])
        return rng.choice([f"{count}d{sides}{suffix}", f"{count}dF", str(rng.randint(0, 9))])
    if roll < 0.8:
        return random_expression(rng, depth + 1) + rng.choice("+-") + random_expression(rng, depth + 1)
    return f"({random_expression(rng, depth + 1)})*{rng.randint(2, 9)}"


def random_search(count: int, timed_count: int, seed: int) -> None:
    rng = random.Random(seed)
    priced: list[tuple[int, str]] = []
    for _ in range(count):
        text = random_expression(rng)
        try:
            priced.append((parse(text).work(), text))
        except ValueError:  # NotationError: too many dice and the like
            continue
    accepted = sorted((p for p in priced if p[0] <= MAX_WORK), reverse=True)
    refused = sorted(p for p in priced if p[0] > MAX_WORK)
    print(f"random: {len(priced)} parsed, {len(accepted)} within the budget, {len(refused)} over it")
    for _, text in accepted[:timed_count]:
        expression("random", text)
    for _, text in refused[:2]:
        expression("random", text)


def main() -> None:
    loop, product = reference()
    print(f"reference: 10**6-step loop {loop:.3f} s, squaring a 10**6-digit integer {product:.3f} s")
    print(f"budget: {MAX_WORK:,} work units" if HAS_PLAN else "no work model in this checkout")
    named = {"sum": NAMED["sum"]} if ARGS.quick else NAMED
    families = {k: FAMILIES[k] for k in ("keep", "drop")} if ARGS.quick else FAMILIES
    for label, text in named.items():
        expression(label, text)
    timed("lid-off", "count_successes(1000, lid='off')", lambda: count_successes(1000, lid="off"), None)
    if HAS_PLAN:
        for name, (make, low, high) in families.items():
            bisect_family(name, make, low, high)
        random_search(50 if ARGS.quick else ARGS.random, 2 if ARGS.quick else ARGS.timed, ARGS.seed)
    seconds: dict[str, Callable[[Row], float]] = {"wall clock": lambda r: r[4], "CPU time": lambda r: r[5]}
    for name, key in seconds.items():
        slowest = max(ROWS, key=key)
        print(f"\nslowest by {name}: {slowest[1][:80]} ({slowest[3]} after {slowest[4]:.2f} s wall, "
              f"{slowest[5]:.2f} s cpu)")
    answered = [r for r in ROWS if r[3] == "answered"]
    if answered:
        slowest = max(answered, key=lambda r: r[5])
        print(f"slowest accepted expression: {slowest[1][:80]} ({slowest[5]:.2f} s cpu, work {slowest[2]:,} units)"
              if slowest[2] else f"slowest accepted expression: {slowest[1][:80]} ({slowest[5]:.2f} s cpu)")
    print("\nper family (for the manual): | family | slowest accepted | CPU s | smallest refused | refusal ms |")
    for name in FAMILIES:
        rows = [r for r in ROWS if r[0] == name]
        ok = max((r for r in rows if r[3] == "answered"), key=lambda r: r[5], default=None)
        no = min((r for r in rows if r[3] == "refused"), key=lambda r: r[2] or 0, default=None)
        if rows:
            print(f"| {name} | {ok[1][:40] if ok else '-'} | {f'{ok[5]:.2f}' if ok else '-'} | "
                  f"{no[1][:40] if no else '-'} | {f'{no[5] * 1e3:.1f}' if no else '-'} |")
    sum_row = next(r for r in ROWS if r[0] == "sum")
    print(f"154d100 took {sum_row[5]:.2f} s cpu here (0.3 s on a quiet machine, issue #16): scale by that")
    slowest_refusal = max((r for r in ROWS if r[3] == "refused"), key=lambda r: r[4], default=None)
    if slowest_refusal:
        print(f"slowest refusal: {slowest_refusal[1][:80]} ({slowest_refusal[4]:.3f} s wall)")


if __name__ == "__main__":
    main()
