"""Encumbrance: what a load does to Speed, measured in multiples of what the character can Lift.

Four levels each cost a further fifth of base Speed.  The source says the cut is "rounded down"
without saying whether the cut or the resulting Speed is rounded, so :class:`SpeedRounding` is an
option; the book's default rounds the resulting Speed down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from numbers import Rational

from rules.providers import Int
from rules.spurg.registry import REGISTRY, SpurgError
from rules.tables import Table
from rules.values import is_whole


def overloaded_error(load: object, lift: object) -> SpurgError:
    """A load over ten times Lift: the rules stop there, so the character cannot carry it."""
    return SpurgError(f"a load of {load} is more than {MAX_MULTIPLE} x Lift {lift}: too heavy to carry")


@dataclass(frozen=True)
class EncumbranceLevel:
    """One level: its number, its name, the heaviest load (in Lifts) and the Speed cut in percent."""

    level: int
    name: str
    max_lifts: int
    speed_cut_percent: int


#: The levels, lightest first; level 0 is carrying no more than Lift.
LEVELS: tuple[EncumbranceLevel, ...] = (
    EncumbranceLevel(0, "Unencumbered", 1, 0),
    EncumbranceLevel(1, "Light", 2, 20),
    EncumbranceLevel(2, "Moderate", 3, 40),
    EncumbranceLevel(3, "Heavy", 6, 60),
    EncumbranceLevel(4, "Extreme", 10, 80),
)
#: Loads above this many Lifts are not covered: too heavy to carry.
MAX_MULTIPLE = LEVELS[-1].max_lifts

for _level in LEVELS:
    REGISTRY.define(f"Spurg.Encumbrance.{_level.name}",
                    _level.name if _level.level == 0 else f"{_level.name} Encumbrance", "EN",
                    summary=f"Encumbrance {_level.level}: load up to {_level.max_lifts} x Lift, "
                            f"Speed -{_level.speed_cut_percent}%.",
                    implementation=_level,
                    values={"level": _level.level, "max_lifts": _level.max_lifts,
                            "cut": f"{_level.speed_cut_percent}%"})


@REGISTRY.rule("Spurg.Rule.SpeedRounding", "Speed Rounding", "RU")
class SpeedRounding(str, Enum):
    """What "rounded down" rounds: the resulting Speed (``RESULT``, default) or the cut (``REDUCTION``).

    With Speed 7 and one level, ``RESULT`` gives floor(5.6) = 5 and ``REDUCTION`` gives 7 - floor(1.4)
    = 6.  The default keeps light loads from being free for slow characters (Speed 4 would otherwise
    lose nothing at level 1).
    """

    RESULT = "result"
    REDUCTION = "reduction"

    @classmethod
    def of(cls, value: SpeedRounding | str) -> SpeedRounding:
        try:
            return cls(value)
        except ValueError:
            raise SpurgError(f"unknown Speed rounding {value!r} (known: 'result', 'reduction')") from None


def _amount(what: str, value: object, *, positive: bool = False) -> Fraction:
    if (isinstance(value, bool) or not isinstance(value, (Rational, float)) or not math.isfinite(value)
            or value < 0 or (positive and value == 0)):
        bound = "more than" if what == "Lift" else "at least"
        raise SpurgError(f"{what} must be a number of {bound} 0, not {value!r}")
    return Fraction(value)


@REGISTRY.rule("Spurg.Rule.EncumbranceLevel", "Encumbrance", "RU",
               values={"levels": len(LEVELS) - 1, "max_lifts": MAX_MULTIPLE})
def encumbrance_level(load: float, lift: float) -> EncumbranceLevel:
    """The level for a load: the lightest level whose limit (a multiple of Lift) the load stays within.

    Each limit is inclusive ("up to twice Lift" includes exactly twice).
    """
    load_, lift_ = _amount("load", load), _amount("Lift", lift, positive=True)
    for level in LEVELS:
        if load_ <= level.max_lifts * lift_:
            return level
    raise overloaded_error(load, lift)


@REGISTRY.rule("Spurg.Rule.EncumberedSpeed", "Encumbered Speed", "RU")
def encumbered_speed(speed: int, level: int | EncumbranceLevel, *,
                     rounding: SpeedRounding | str = SpeedRounding.RESULT) -> int:
    """Speed under a load: each level takes a further 20% of base Speed (not compounded), rounded down."""
    if not is_whole(speed) or speed < 0:
        raise SpurgError(f"Speed must be a whole number of 0 or more, not {speed!r}")
    if isinstance(level, EncumbranceLevel):
        level = level.level
    if not is_whole(level) or not 0 <= level < len(LEVELS):
        raise SpurgError(f"encumbrance level must be a whole number from 0 to {len(LEVELS) - 1}, not {level!r}")
    cut = Fraction(speed * LEVELS[level].speed_cut_percent, 100)
    if SpeedRounding.of(rounding) is SpeedRounding.RESULT:
        return math.floor(speed - cut)
    return speed - math.floor(cut)


@REGISTRY.table(speed=Int(0, 100))
def encumbrance_table(speed: int = 10) -> Table:
    """Each level: its load limit, its cut, and the Speed left from ``speed`` under both roundings."""
    rows = [(level.level, level.name, f"{level.max_lifts} x Lift", f"-{level.speed_cut_percent}%",
             encumbered_speed(speed, level.level, rounding=SpeedRounding.RESULT),
             encumbered_speed(speed, level.level, rounding=SpeedRounding.REDUCTION))
            for level in LEVELS]
    return Table.of(("Level", "Name", "Load up to", "Speed cut", f"SPD {speed} (result rounded)",
                     f"SPD {speed} (cut rounded)"), rows, title=f"Encumbrance at Speed {speed}")
