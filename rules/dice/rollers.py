"""Rolling the mechanics that notation does not spell: mixed pools, NUGGET pools, Heimr, location dice.

Each roller follows exactly the rule its distribution in ``mechanics`` computes (tests enumerate every
scripted roll of small pools and compare), takes a :class:`~rules.dice.rolling.DiceSource`, and
returns a :class:`~rules.dice.rolling.RollResult` that shows every die.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rolling import DiceSource, DieRoll, RollResult
from .successes import Lid, _check

#: A safety stop for unlimited lid-off explosions with a source that always shows the maximum.
MAX_ROLLED_EXPLOSIONS = 10_000


def roll_keep(sides: Sequence[int], source: DiceSource, *, highest: bool = True,
              label: str | None = None) -> RollResult:
    """Roll one die of each size and keep the single highest (or lowest); the first such die counts."""
    if not sides:
        raise ValueError("a pool needs at least one die")
    faces = [source.roll(s) for s in sides]
    pick = max if highest else min
    best = faces.index(pick(faces))
    dice = tuple(DieRoll(s, f, i == best) for i, (s, f) in enumerate(zip(sides, faces)))
    name = label or (" › " if highest else " ‹ ").join(f"1d{s}" for s in sides)
    return RollResult(name, dice, faces[best])


def roll_successes(n: int, source: DiceSource, sides: int = 6, threshold: int = 4, lid: Lid = "none",
                   max_depth: int | None = None) -> RollResult:
    """Roll a success pool the way :func:`~rules.dice.successes.count_successes` counts it.

    Failures show as dropped dice; lid-off re-rolls follow the die that exploded (``exploded_from``);
    ``detail`` notes a lid-on bonus and a fumble (every original die a 1).
    """
    _check(n, sides, threshold, lid, max_depth)
    dice: list[DieRoll] = []
    originals = []
    for _ in range(n):
        face = source.roll(sides)
        originals.append(face)
        dice.append(DieRoll(sides, face, face >= threshold))
        depth = 0
        while lid == "off" and dice[-1].face == sides and (max_depth is None or depth < max_depth):
            depth += 1
            if len(dice) > MAX_ROLLED_EXPLOSIONS:
                raise RuntimeError("the dice source keeps rolling maxima: stopped after "
                                   f"{MAX_ROLLED_EXPLOSIONS} explosions")
            face = source.roll(sides)
            dice.append(DieRoll(sides, face, face >= threshold, exploded_from=len(dice) - 1))
    total = sum(d.kept for d in dice)
    notes = []
    if lid == "on" and n and all(f == sides for f in originals):
        total += 1
        notes.append("lid-on +1")
    if n and all(f == 1 for f in originals):
        notes.append("fumble")
    label = f"{n}d{sides}>={threshold}" + ("" if lid == "none" else f" lid-{lid}")
    result = RollResult(label, tuple(dice), total)
    if notes:
        result = RollResult(label, tuple(dice), total, f"{result.format_dice()} {', '.join(notes)}")
    return result


def roll_heimr(consistency: int, source: DiceSource, potential: int = 0, *,
               d6_counts_as_one: bool = True) -> RollResult:
    """Roll a Heimr dice challenge (the d6 first, then the |C| d10s) as :func:`heimr_challenge` reads it."""
    n = abs(consistency)
    faces = [source.roll(6)] + [source.roll(10) for _ in range(n)]
    d10s = faces[1:]
    if consistency > 0:
        kept = faces.index(max(faces))
        raw = faces[kept] + max(0, d10s.count(10) - 1)
    elif consistency < 0:
        kept = faces.index(min(faces))
        ones = d10s.count(1) + (d6_counts_as_one and faces[0] == 1)
        raw = faces[kept] - max(0, ones - 1)
    else:
        kept, raw = 0, faces[0]
    dice = (DieRoll(6, faces[0], kept == 0), *(DieRoll(10, f, i == kept) for i, f in enumerate(d10s, 1)))
    label = f"C{consistency:+d} P{potential:+d}"
    shown = "[" + ", ".join(str(d.face) if d.kept else f"({d.face})" for d in dice) + "]"
    return RollResult(label, dice, raw + potential, f"{shown} raw {raw} {potential:+d}")


def roll_locations(n: int, source: DiceSource, sides: int = 6) -> tuple[RollResult, tuple[int, ...]]:
    """Roll ``n`` location dice: the roll (its total is n, one point per die) and the tally per face.

    The tally is (count of 1s, count of 2s, ...), an outcome of :func:`face_counts(n, sides) <face_counts>`.
    """
    dice = tuple(DieRoll(sides, source.roll(sides)) for _ in range(n))
    tally = tuple(sum(d.face == f for d in dice) for f in range(1, sides + 1))
    return RollResult(f"{n}d{sides} locations", dice, n), tally
