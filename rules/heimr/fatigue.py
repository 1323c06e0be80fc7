"""Fatigue: a floor under the dice of physical challenges that rises with exertion.

For a challenge on a physical attribute the raw score (dice only, before potential) must reach the
current fatigue, or the action fails outright.  While exerting without a breather, every challenge
whose d6 shows less than the fatigue raises it by one.  A short breather brings it back to base.
"""

from __future__ import annotations

from fractions import Fraction

from rules.heimr.abilities import Ability
from rules.heimr.challenge import raw_distribution
from rules.heimr.characters import find_attribute
from rules.heimr.registry import REGISTRY, HeimrError
from rules.providers import Int
from rules.tables import Cell, Table
from rules.values import is_whole

MIN_FATIGUE = 1
MAX_FATIGUE = 20
#: Base fatigue is this minus Stamina (but never below the minimum).
BASE_FATIGUE_FROM = 4


def _fatigue(value: object) -> int:
    if not is_whole(value) or not MIN_FATIGUE <= value <= MAX_FATIGUE:
        raise HeimrError(f"fatigue lies between {MIN_FATIGUE} and {MAX_FATIGUE}, not {value!r}")
    return value


@REGISTRY.rule("Heimr.Rule.BaseFatigue", "Base fatigue", "RU", formula="max(1, 4 - Stamina)",
               values={"minimum": MIN_FATIGUE, "maximum": MAX_FATIGUE})
def base_fatigue(stamina: int) -> int:
    """Fatigue when rested: 4 minus Stamina, but never below 1. A breather returns fatigue here."""
    if not is_whole(stamina):
        raise HeimrError(f"Stamina is a whole number, not {stamina!r}")
    return min(MAX_FATIGUE, max(MIN_FATIGUE, BASE_FATIGUE_FROM - stamina))


@REGISTRY.rule("Heimr.Rule.PhysicalChallenge", "Physical challenge", "RU")
def fatigue_applies(ability: Ability, *, mixed: bool = True) -> bool:
    """Whether fatigue gates a roll of ``ability``: it does when the ability rests on a physical attribute.

    For an ability built on a physical and a non-physical attribute (Archery: Dex/Int) the source is
    silent; ``mixed=True`` (this book) lets fatigue apply, ``mixed=False`` only gates abilities whose
    attributes are all physical.
    """
    if not isinstance(ability, Ability):
        raise HeimrError(f"fatigue_applies takes an Ability (see find_ability), not {ability!r}")
    physical = [find_attribute(name).physical for name in ability.attributes]
    return any(physical) if mixed else all(physical)


@REGISTRY.rule("Heimr.Rule.FatigueGate", "Fatigue gate", "RU")
def passes_fatigue(raw: int, fatigue: int) -> bool:
    """A physical challenge only counts if its raw score reaches the fatigue; otherwise it fails
    automatically (and a failed attack needs no defence)."""
    if not is_whole(raw):
        raise HeimrError(f"a raw score is a whole number, not {raw!r}")
    return raw >= _fatigue(fatigue)


@REGISTRY.rule("Heimr.Rule.FatigueGrowth", "Fatigue growth", "RU")
def fatigue_after(fatigue: int, d6: int) -> int:
    """Fatigue after one challenge of exertion: one higher when the d6 fell below it, capped at 20."""
    _fatigue(fatigue)
    if not is_whole(d6) or not 1 <= d6 <= 6:
        raise HeimrError(f"a d6 shows 1 to 6, not {d6!r}")
    return min(MAX_FATIGUE, fatigue + 1) if d6 < fatigue else fatigue


def gate_probability(consistency: int, fatigue: int, *, d6_counts_as_one: bool = True) -> Fraction:
    """Exact chance that a physical challenge clears its fatigue gate."""
    return Fraction(raw_distribution(consistency, d6_counts_as_one=d6_counts_as_one).p_ge(_fatigue(fatigue)))


def growth_probability(fatigue: int) -> Fraction:
    """Exact chance that one exertion challenge raises fatigue: P(d6 < fatigue)."""
    return Fraction(min(6, _fatigue(fatigue) - 1), 6) if fatigue < MAX_FATIGUE else Fraction(0)


@REGISTRY.table(lowest=Int(-10, 10), highest=Int(-10, 10), fatigue_to=Int(0, 30))
def gate_table(lowest: int = -2, highest: int = 4, fatigue_to: int = 12) -> Table:
    """Chance to clear the fatigue gate, per consistency and fatigue."""
    columns = [f"C {c:+d}" if c else "C 0" for c in range(lowest, highest + 1)]
    rows: list[tuple[Cell, ...]] = [(f, *(gate_probability(c, f) for c in range(lowest, highest + 1)))
            for f in range(MIN_FATIGUE, fatigue_to + 1)]
    return Table.of(["Fatigue", *columns], rows, title="Clearing the fatigue gate", probabilities=columns)


@REGISTRY.table()
def growth_table() -> Table:
    """Chance that an exertion challenge raises fatigue, per current fatigue."""
    rows = [(f, growth_probability(f)) for f in range(MIN_FATIGUE, 9)]
    return Table.of(["Fatigue", "Chance to rise"], rows, title="Fatigue growth", probabilities=["Chance to rise"])
