"""Destiny Points: luck and self-esteem the GM hands out and players spend to steer their story."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from rules.nugget.characters import SKILL_LEVELS, STARTING_DESTINY
from rules.nugget.harm import Effect
from rules.nugget.registry import REGISTRY, NuggetError
from rules.nugget.rolls import Lid, PoolRoll, is_too_hard, success_distribution
from rules.values import is_whole

#: Destiny Points per level when buying a skill level between adventures.
SKILL_COST_FACTOR = 5
#: The die a Destiny Point may buy (optional rule) when a pool has none.
DESTINY_DIE = 1


def _amount(points: object) -> int:
    if not is_whole(points) or points < 1:
        raise NuggetError(f"Destiny Points are gained and spent in whole numbers >= 1, not {points!r}")
    return points


@REGISTRY.rule("Nugget.Destiny.Points", "Destiny Points", "Destiny", values={"start": STARTING_DESTINY})
@dataclass(frozen=True)
class Destiny:
    """A character's Destiny Points and the GM's opposition pool they spill into.

    Points come for cool deeds and for steps toward a Goal; a seriously thwarted Goal takes one
    away, and a character with none to lose gives the GM's opposition pool a point instead.
    """

    points: int = STARTING_DESTINY
    gm_pool: int = 0

    def __post_init__(self) -> None:
        for what, value in (("Destiny Points", self.points), ("the GM pool", self.gm_pool)):
            if not is_whole(value) or value < 0:
                raise NuggetError(f"{what} must be a whole number >= 0, not {value!r}")

    def gain(self, points: int = 1) -> Destiny:
        """A cool deed or a step toward a Goal."""
        return replace(self, points=self.points + _amount(points))

    def thwart(self) -> Destiny:
        """A Goal seriously thwarted: lose a point, or feed the GM's pool when at zero."""
        if self.points == 0:
            return replace(self, gm_pool=self.gm_pool + 1)
        return replace(self, points=self.points - 1)

    def spend(self, points: int = 1) -> Destiny:
        if _amount(points) > self.points:
            raise NuggetError(f"cannot spend {points} Destiny Points with only {self.points}")
        return replace(self, points=self.points - points)


@REGISTRY.rule("Nugget.Destiny.Reroll", "Re-roll", "Destiny")
def keep_preferred(first: PoolRoll, second: PoolRoll, *, keep: str = "better") -> PoolRoll:
    """After spending a point to roll again, the player keeps whichever result they prefer.

    ``keep="better"`` takes more successes (the first roll on a tie, and a non-fumble over a
    fumble); ``"first"`` or ``"second"`` records an explicit choice.
    """
    if keep == "first":
        return first
    if keep == "second":
        return second
    if keep != "better":
        raise NuggetError(f"keep must be 'better', 'first' or 'second', not {keep!r}")
    return max((first, second), key=lambda roll: (roll.successes, not roll.fumble))


def reroll_chance(pool: int, at_least: int = 1, *, lid: Lid | str = Lid.ON,
                  max_rerolls: int | None = None) -> Fraction:
    """Exact chance of at least ``at_least`` successes when a failed attempt is re-rolled once."""
    if not is_whole(at_least) or at_least < 1:
        raise NuggetError(f"the successes needed must be a whole number >= 1, not {at_least!r}")
    miss = 1 - success_distribution(pool, lid=lid, max_rerolls=max_rerolls).p_ge(at_least)
    return 1 - miss * miss


@REGISTRY.rule("Nugget.Destiny.Survive", "Cheat Death", "Destiny")
def survive(effect: Effect, *, gm_allows: bool = True) -> Effect:
    """With the GM's leave, a point turns a Dead result into Unconscious: heroes are hard to kill."""
    if not effect.dead:
        return effect
    if not gm_allows:
        raise NuggetError("the GM does not allow Destiny to turn death into unconsciousness in this game")
    return replace(effect, dead=False, unconscious=True)


@REGISTRY.rule("Nugget.Destiny.SkillLevel", "Buy a Skill Level", "Destiny",
               formula="new_level * 5", values={"factor": SKILL_COST_FACTOR})
def skill_level_cost(new_level: int, current_level: int | None = None) -> int:
    """Between adventures a skill rises one level for five points per level reached.

    ``current_level`` (0 for a new skill) is checked to be one below ``new_level`` when given.
    """
    if not is_whole(new_level) or new_level not in SKILL_LEVELS:
        raise NuggetError(f"skill level {new_level!r} does not exist (levels 1..4)")
    if current_level is not None and (not is_whole(current_level)):
        raise NuggetError(f"the current skill level must be a whole number, not {current_level!r}")
    if current_level is not None and current_level != new_level - 1:
        raise NuggetError(f"a skill at level {current_level} rises to {current_level + 1}, "
                                 f"not {new_level}: buy one level at a time")
    return new_level * SKILL_COST_FACTOR


@REGISTRY.rule("Nugget.Destiny.LastDie", "Die When You Have None", "Destiny",
               values={"dice": DESTINY_DIE})
def destiny_pool(pool: int, *, allowed: bool = False) -> int:
    """Optional rule: a Destiny Point buys one die for a pool that has none left (whatever its
    shortfall), so a hopeless task gets one long shot."""
    if allowed and is_too_hard(pool):
        return DESTINY_DIE
    return pool


@REGISTRY.rule("Nugget.Destiny.Coincidence", "Coincidence", "Destiny")
def coincidence(destiny: Destiny, *, allowed: bool = False) -> Destiny:
    """Optional rule: a point establishes a minor, plausible coincidence in the character's favour."""
    if not allowed:
        raise NuggetError("this game does not allow Destiny Points to buy coincidences (allowed=False)")
    return destiny.spend()
