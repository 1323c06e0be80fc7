"""Action sequences: initiative, what a character may do on a turn, held and bonus actions, intervals.

An action sequence (combat is one) starts with everybody rolling ``Agility › Awareness › Sense``;
the highest goes first and a player character beats a non-player character on a tie.  Each turn gives
one action, one reaction and one movement action.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from rules.nemron.checks import Pool
from rules.nemron.registry import REGISTRY, NemronError
from rules.values import is_whole

#: The attributes of the initiative pool, in order.
INITIATIVE_ATTRIBUTES = ("Agility", "Awareness", "Sense")


@REGISTRY.rule("Generic.Rule.Initiative", "Initiative", "RU", values={"pool": " › ".join(INITIATIVE_ATTRIBUTES)})
def initiative_pool(agility: int, awareness: int, sense: int) -> Pool:
    """The initiative pool: ``Agility › Awareness › Sense``, keep the highest (drama optional)."""
    ranks = (agility, awareness, sense)
    if set(map(type, ranks)) != _INT:  # (a bool or a float is no rank: Pool.of says so)
        return Pool.of(*zip(INITIATIVE_ATTRIBUTES, ranks))
    pool = _INITIATIVE_POOLS.get(ranks)
    if pool is None:  # a pool is immutable: each fight of a simulation starts with the same few
        pool = _INITIATIVE_POOLS[ranks] = Pool.of(*zip(INITIATIVE_ATTRIBUTES, ranks))
    return pool


_INT = {int}
#: Initiative pools made so far, by ranks (at most one per valid triple of ranks: 125).
_INITIATIVE_POOLS: dict[tuple[int, int, int], Pool] = {}


@dataclass(frozen=True)
class InitiativeRoll:
    """One participant's initiative result; ``pc`` marks a player character."""

    name: str
    result: int
    pc: bool = False


@REGISTRY.rule("Generic.Rule.TurnOrder", "Turn Order", "RU")
def turn_order(rolls: Iterable[InitiativeRoll]) -> list[InitiativeRoll]:
    """Highest initiative first; on a tie player characters go before non-player characters.

    Ties between two PCs (or two NPCs) keep the order in which the rolls were listed.
    """
    rolls = list(rolls)
    for roll in rolls:
        if not isinstance(roll, InitiativeRoll):
            raise NemronError(f"{roll!r} is not an InitiativeRoll")
        if not is_whole(roll.result) or roll.result < 1:
            raise NemronError(f"{roll.name}: initiative result {roll.result!r} is not a die result")
    names = [r.name for r in rolls]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise NemronError(f"initiative names must be unique: {', '.join(duplicates)} repeats")
    return sorted(rolls, key=lambda r: (-r.result, not r.pc))


@REGISTRY.rule("Generic.Rule.TurnEconomy", "Turn Economy", "RU",
            values={"actions": 1, "reactions": 1, "movements": 1})
class Turn:
    """What a character may still do this round: one action, one reaction, one movement action.

    Bonus actions and reactions (from boons, traits, skills, dual wielding or Energy) add to the
    counts.  Movement cannot be split: once the character does anything else after moving, the rest
    of the movement is lost.
    """

    def __init__(self, speed: int) -> None:
        if not is_whole(speed) or speed < 0:
            raise NemronError(f"movement speed must be a whole number of metres, not {speed!r}")
        self.speed = speed
        self.actions = 1
        self.reactions = 1
        self.moved = 0
        self.movement_closed = False
        self.held = False

    def _stop_moving(self) -> None:
        if self.moved:
            self.movement_closed = True

    def act(self) -> None:
        """Use the action (or a bonus action) on one's own turn."""
        if self.actions < 1:
            raise NemronError("no action left this turn")
        self._stop_moving()
        self.actions -= 1

    def react(self, *, to_self: bool = False, within_melee: bool = False) -> None:
        """Use a reaction, only to something done to oneself or within one's melee range."""
        if not (to_self or within_melee):
            raise NemronError("a reaction answers only what happens to you or within your melee range")
        if self.reactions < 1:
            raise NemronError("no reaction left this round")
        self.reactions -= 1

    def move(self, metres: int) -> int:
        """Move ``metres`` as part of the one movement action; returns the metres left."""
        if not is_whole(metres) or metres < 0:
            raise NemronError(f"a move covers a whole number of metres, not {metres!r}")
        if self.movement_closed:
            raise NemronError("the movement action is spent: it cannot resume after another action")
        if self.moved + metres > self.speed:
            raise NemronError(f"cannot move {metres} m: {self.speed - self.moved} m of movement left")
        self.moved += metres
        return self.speed - self.moved

    def hold(self) -> None:
        """Hold the action to use it at any later point in the round."""
        if self.actions < 1:
            raise NemronError("no action left to hold")
        self._stop_moving()
        self.actions -= 1
        self.held = True

    def use_held(self) -> None:
        """Use a held action, off one's own turn."""
        if not self.held:
            raise NemronError("there is no held action to use")
        self.held = False

    def bonus(self, kind: str) -> None:
        """Grant a bonus ``"action"`` or ``"reaction"``."""
        if kind == "action":
            self.actions += 1
        elif kind == "reaction":
            self.reactions += 1
        else:
            raise NemronError(f"a bonus is an 'action' or a 'reaction', not {kind!r}")


REGISTRY.define("Generic.Rule.HeldAction", "Held Action", "RU", implementation=Turn.hold,
             summary="An action held on one's turn can be used at any later point of the round.")
REGISTRY.define("Generic.Rule.BonusAction", "Bonus Actions and Reactions", "RU", implementation=Turn.bonus,
             summary="Boons, traits, skills or dual wielding can grant an extra action or reaction.")
REGISTRY.define("Generic.Rule.Reaction", "Reaction", "RU", implementation=Turn.react,
             summary="Reactions answer only what happens to oneself or within one's melee range.")
REGISTRY.define("Generic.Rule.Movement", "Movement Action", "RU", implementation=Turn.move,
             summary="One movement action a turn, which cannot be split around another action.")


@REGISTRY.rule("Generic.Rule.Interval", "Interval", "RU")
class Interval(str, Enum):
    """How often a repeating effect fires.

    ``TURN`` fires at the end of every turn of its owner (held or not); ``ROUND`` fires once each
    round, at the initiative where it started.
    """

    TURN = "turn"
    ROUND = "round"

    def fires(self, *, end_of_turn_of_owner: bool, at_start_initiative: bool) -> bool:
        """Whether an effect with this interval fires at a moment of the sequence."""
        return end_of_turn_of_owner if self is Interval.TURN else at_start_initiative
