"""Rounds and initiative: ten phases counted down, who acts when, and how often.

The "up to 10, 8" clause of the source is read as :class:`ActionLimits` (two actions at most, the
second no later than phase 8); a game that reads it otherwise passes its own limits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource
from rules.nugget.registry import REGISTRY, NuggetError
from rules.nugget.rolls import DIE_SIDES
from rules.values import is_whole

#: Phases in a round, counted down from this number to 1.
PHASES = 10
#: Minions do not roll: their initiative total is this plus their bonus.
MINION_INITIATIVE = 3


def _check_bonus(bonus: object) -> int:
    if not is_whole(bonus):
        raise NuggetError(f"an initiative bonus must be a whole number, not {bonus!r}")
    return bonus


def _check_phase(phase: object) -> int:
    if not is_whole(phase) or not 1 <= phase <= PHASES:
        raise NuggetError(f"phase {phase!r} is outside 1..{PHASES}")
    return phase


@REGISTRY.rule("Nugget.Rule.WoundPenalty", "Wound Penalty", "RU", formula="Hurts + Injuries")
def wound_penalty(hurts: int = 0, injuries: int = 0) -> int:
    """Initiative lost to wounds: every Hurt and every Injury slows a character down by one."""
    for what, count in (("Hurts", hurts), ("Injuries", injuries)):
        if not is_whole(count) or count < 0:
            raise NuggetError(f"{what} must be a whole number >= 0, not {count!r}")
    return hurts + injuries


@REGISTRY.rule("Nugget.Roll.Initiative", "Initiative Roll", "RL", dice="1d6",
               formula="d6 + bonus - Hurts - Injuries")
def roll_initiative(bonus: int, source: DiceSource, *, hurts: int = 0, injuries: int = 0) -> int:
    """Each round every character rolls one die and adds their initiative bonus, less wound penalties."""
    _check_bonus(bonus)
    penalty = wound_penalty(hurts, injuries)
    return source.roll(DIE_SIDES) + bonus - penalty


@REGISTRY.rule("Nugget.NPC.MinionInitiative", "Minion Initiative", "NPC",
               formula="3 + bonus", values={"base": MINION_INITIATIVE})
def minion_initiative(bonus: int = 0, *, hurts: int = 0, injuries: int = 0) -> int:
    """Minions never roll for initiative: the GM puts them all on 3 plus their bonus, saving time."""
    return MINION_INITIATIVE + _check_bonus(bonus) - wound_penalty(hurts, injuries)


@dataclass(frozen=True)
class ActionLimits:
    """How a total over 10 turns into actions.

    ``max_actions`` caps the actions per round (``None``: every further 10 points gives another
    action at phase 10); ``later_cap`` is the latest phase of any action after the first.
    The book's default, two actions with the second at phase 8 or earlier, reads "up to 10, 8".
    """

    max_actions: int | None = 2
    later_cap: int = 8

    def __post_init__(self) -> None:
        if self.max_actions is not None and (not isinstance(self.max_actions, int)
                                             or isinstance(self.max_actions, bool) or self.max_actions < 1):
            raise NuggetError(f"max_actions must be at least 1 or None, not {self.max_actions!r}")
        if (not is_whole(self.later_cap)
                or not 1 <= self.later_cap <= PHASES):
            raise NuggetError(f"later_cap must be a phase 1..{PHASES}, not {self.later_cap!r}")


#: The book's reading of "up to 10, 8".
UP_TO_TEN_EIGHT = ActionLimits()


@REGISTRY.rule("Nugget.Rule.ActionPhases", "Action Phases", "RU",
               values={"phases": PHASES, "later_cap": UP_TO_TEN_EIGHT.later_cap,
                       "max_actions": 2})
def action_phases(total: int, limits: ActionLimits = UP_TO_TEN_EIGHT) -> tuple[int, ...]:
    """The phases a character acts in, highest first.

    A total of 1 to 10 acts once, at that phase.  Over 10 acts at 10 and again at what is left
    (within ``limits``).  Below 1 the character is too confused to act this round.
    """
    if not is_whole(total):
        raise NuggetError(f"an initiative total must be a whole number, not {total!r}")
    phases: list[int] = []
    remaining = total
    while remaining >= 1:
        if limits.max_actions is not None and len(phases) == limits.max_actions:
            break
        phase = min(remaining, PHASES)
        if phases:
            phase = min(phase, limits.later_cap)
        phases.append(phase)
        remaining -= PHASES
    return tuple(phases)


@REGISTRY.rule("Nugget.Rule.FreeAction", "Free Simple Action", "RU")
def free_action_phase(phases: Sequence[int]) -> int:
    """The first phase from which the round's one free simple action (draw, pick up, short run) may
    be taken: the first action's phase, or phase 1 for someone who cannot act."""
    return max((_check_phase(p) for p in phases), default=1)


@REGISTRY.rule("Nugget.Rule.Delay", "Delay", "RU")
def delay(phase: int, to_phase: int) -> int:
    """Hold an action until a later phase: later means a lower number, since phases count down."""
    _check_phase(phase)
    _check_phase(to_phase)
    if to_phase >= phase:
        raise NuggetError(f"cannot delay from phase {phase} to phase {to_phase}: phases count down")
    return to_phase


@dataclass(frozen=True)
class Combatant:
    """Someone acting in a round: a name, their phase, their initiative bonus."""

    name: str
    phase: int
    bonus: int = 0


@REGISTRY.rule("Nugget.Rule.SamePhase", "Same-Phase Order", "RU")
def acting_order(combatants: Sequence[Combatant]) -> list[Combatant]:
    """The order of play: higher phases first, and within a phase the higher initiative bonus first.

    Equal bonuses in the same phase keep the order given (the GM's call).
    """
    for combatant in combatants:
        _check_phase(combatant.phase)
        _check_bonus(combatant.bonus)
    return sorted(combatants, key=lambda c: (-c.phase, -c.bonus))


@REGISTRY.rule("Nugget.Rule.PhaseDefence", "One Defence per Phase", "RU")
@dataclass
class PhaseDefence:
    """One defence roll per phase: a defender rolls once and that result stands against every attack
    made on them in the same phase."""

    rolled: dict[tuple[str, int], int] = field(default_factory=dict)

    def successes(self, defender: str, phase: int, roll: Callable[[], int]) -> int:
        """The defender's successes this phase, calling ``roll`` only for the first attack."""
        key = (defender, _check_phase(phase))
        if key not in self.rolled:
            self.rolled[key] = roll()
        return self.rolled[key]

    def new_round(self) -> None:
        self.rolled.clear()
