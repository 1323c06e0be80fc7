"""Health: injury levels below zero hit points, what injuries to limbs do, rest and stabilising.

At zero hit points or fewer a character is injured.  How deep the hit points went sets the injury
level, and the level sets the clocks: when the character passes out and when they die unless someone
stabilises them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rules.heimr.registry import REGISTRY, HeimrError
from rules.tables import Table
from rules.values import is_whole

#: Minutes of uninterrupted in-character rest a short rest takes.
SHORT_REST_MINUTES = 5

Location = Literal["arm", "leg", "torso"]


class CharacterDeadError(HeimrError):
    """Hit points so low that the table's chosen reading counts the character dead (the tracker catches it)."""


@dataclass(frozen=True)
class InjuryLevel:
    """One band of negative hit points and its clocks (minutes; ``None``: never, 0: at once)."""

    name: str
    highest_hp: int
    lowest_hp: int
    unconscious_after: int | None
    dead_after: int | None
    effect: str


#: The three injury levels, from the mildest.
INJURY_LEVELS: tuple[InjuryLevel, ...] = (
    InjuryLevel("Bloodied", 0, -1, None, None, "needs treatment; no short rest"),
    InjuryLevel("Mangled", -2, -3, 5, 10, "passes out after a while, then dies"),
    InjuryLevel("Mutilated", -4, -5, 0, 2, "passes out at once and dies soon after"),
)

for _level in INJURY_LEVELS:
    _values: dict[str, int | str] = {"highest_hp": _level.highest_hp, "lowest_hp": _level.lowest_hp}
    if _level.unconscious_after is not None:
        _values["unconscious_after"] = _level.unconscious_after
    if _level.dead_after is not None:
        _values["dead_after"] = _level.dead_after
    REGISTRY.define(f"Heimr.Injury.{_level.name}", _level.name, "IN", implementation=_level,
                    summary=f"Hit points {_level.highest_hp} and {_level.lowest_hp}: {_level.effect}.",
                    values=_values)


@REGISTRY.rule("Heimr.Rule.InjuryLevel", "Injury level", "RU")
def injury_level(hp: int, *, deeper: Literal["mutilated", "dead"] = "mutilated") -> InjuryLevel | None:
    """The injury level for ``hp``; ``None`` while hit points stay above zero.

    The source stops at -5.  ``deeper="mutilated"`` (this book) keeps anything lower Mutilated;
    ``deeper="dead"`` treats -6 and below as death and raises :class:`CharacterDeadError`.
    """
    if not is_whole(hp):
        raise HeimrError(f"hit points are a whole number, not {hp!r}")
    if hp > 0:
        return None
    for level in INJURY_LEVELS:
        if level.lowest_hp <= hp <= level.highest_hp:
            return level
    if deeper == "mutilated":
        return INJURY_LEVELS[-1]
    if deeper == "dead":
        raise CharacterDeadError(f"{hp} hit points is below every injury level: dead under deeper='dead'")
    raise HeimrError(f"deeper is 'mutilated' or 'dead', not {deeper!r}")


@REGISTRY.rule("Heimr.Rule.InjuryEffects", "Injury effects", "RU")
def injury_effects(locations: Iterable[Location]) -> tuple[str, ...]:
    """Effects an injured character suffers from hits to each location: arm Drop, leg Fall, torso Daze.

    They add up: a character hit in arm and leg suffers both.
    """
    table = {"arm": "Drop", "leg": "Fall", "torso": "Daze"}
    if isinstance(locations, str):
        raise HeimrError(f"injury effects take a list of hit locations, not the single text {locations!r}")
    effects: list[str] = []
    for location in locations:
        if location not in table:
            raise HeimrError(f"hit locations are arm, leg and torso, not {location!r}")
        if table[location] not in effects:
            effects.append(table[location])
    return tuple(effects)


@REGISTRY.rule("Heimr.Rule.ShortRest", "Short rest", "RU", values={"minutes": SHORT_REST_MINUTES})
def short_rest(hp: int, max_hp: int, minutes: int, *, interrupted: bool = False) -> int:
    """Hit points after resting ``minutes``: the maximum, if the rest was long and quiet enough and
    the character had at least 1 hit point; otherwise unchanged.  A dice challenge or a skill
    interrupts."""
    if not is_whole(minutes) or minutes < 0:
        raise HeimrError(f"a rest lasts a whole number of minutes, not {minutes!r}")
    for what, value in (("hit points", hp), ("maximum hit points", max_hp)):
        if not is_whole(value):
            raise HeimrError(f"{what} are a whole number, not {value!r}")
    if max_hp < 1 or hp > max_hp:
        raise HeimrError(f"hit points {hp} against a maximum of {max_hp}: the maximum is at least 1 "
                          "and the current value no higher")
    if hp >= 1 and minutes >= SHORT_REST_MINUTES and not interrupted:
        return max_hp
    return hp


@REGISTRY.rule("Heimr.Rule.Stabilising", "Stabilising", "RU")
@dataclass
class Wound:
    """A wound's clock: minutes since it was last opened, and whether someone stabilised it.

    Stabilising stops the dying and brings the character round; moving the injured part opens the
    wound again and the clock starts over at zero.
    """

    level: InjuryLevel
    minutes: int = 0
    stabilised: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.level, InjuryLevel):
            raise HeimrError(f"a wound needs an injury level (see injury_level), not {self.level!r}")

    def wait(self, minutes: int) -> Wound:
        if not is_whole(minutes) or minutes < 0:
            raise HeimrError(f"time passes in whole minutes of at least 0, not {minutes!r}")
        if not self.stabilised:
            self.minutes += minutes
        return self

    def stabilise(self) -> Wound:
        self.stabilised = True
        return self

    def reopen(self) -> Wound:
        """The injured part moved: bleeding again, clock back at zero."""
        self.stabilised = False
        self.minutes = 0
        return self

    @property
    def state(self) -> Literal["conscious", "unconscious", "dead"]:
        if self.stabilised:
            return "conscious"
        if self.level.dead_after is not None and self.minutes >= self.level.dead_after:
            return "dead"
        if self.level.unconscious_after is not None and self.minutes >= self.level.unconscious_after:
            return "unconscious"
        return "conscious"


@REGISTRY.table()
def injury_table() -> Table:
    """The injury levels with their clocks."""
    def clock(value: int | None) -> str:
        return "-" if value is None else "at once" if value == 0 else f"after {value} min"

    rows = [(level.name, f"{level.highest_hp} / {level.lowest_hp}", clock(level.unconscious_after),
             clock(level.dead_after), level.effect) for level in INJURY_LEVELS]
    return Table.of(["Level", "Hit points", "Unconscious", "Dead", "Notes"], rows, title="Injury levels")
