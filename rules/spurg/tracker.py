"""A small combat tracker: the fixed turn order, attacks as Verdict Rolls, Damage Rolls, and (only
with this book's optional rule switched on) characters dropping out of the fight.

The source stops before attacks, defences and the effects of damage.  The tracker uses what it does
give: an attack is a Verdict Roll against the attacker's attack TN, a success deals the weapon's Damage
Roll, and damage is recorded.  With :class:`~rules.spurg.damage.HitPointsRule` off (the default) that
is all, and a fight runs until its turn limit; switched on, a character whose damage reaches its
Vitality is out, and the fight ends when one side is left.  The rules the source does settle apply
on the way: circumstance modifiers change the TN and never the roll, a load cuts Speed before the
order is fixed, the critical-precedence reading is the table's, and damage passes the defender's
protection steps.  Dice are drawn in this order: the turn-order roll-off (only for ties); then, per
attack, the three Verdict dice and, on a success, the Damage Roll's dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource
from rules.spurg.combat import Combatant, CombatSequence
from rules.spurg.damage import DamageRoll, DamageStep, HitPointsRule
from rules.spurg.encumbrance import SpeedRounding, encumbered_speed
from rules.spurg.registry import REGISTRY, SpurgError
from rules.spurg.verdict import CriticalPrecedence, target_number, verdict_roll
from rules.values import is_whole


@dataclass
class Fighter:
    """One fighter: a side, Speed, Agility and Vitality, the TN of its attack, and its Damage Roll.

    ``modifiers`` are the GM's circumstance modifiers on its attack TN (range, size, aim...);
    ``encumbrance`` its load level (0-4), which cuts its Speed for the turn order; ``protection`` the
    damage steps (armour and the like) that damage dealt *to* it passes through."""

    name: str
    side: str
    speed: int
    agility: int
    vitality: int
    attack_tn: int
    damage: DamageRoll
    modifiers: tuple[int, ...] = ()
    encumbrance: int = 0
    protection: tuple[DamageStep, ...] = ()
    taken: int = field(default=0, init=False)
    out: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        Combatant(self.name, self.speed, self.agility)  # checks name, Speed, Agility
        for what, value in (("Vitality", self.vitality), ("attack TN", self.attack_tn)):
            if not is_whole(value) or value < 0:
                raise SpurgError(f"{self.name}: {what} must be a whole number of 0 or more, not {value!r}")
        if not isinstance(self.damage, DamageRoll):
            raise SpurgError(f"{self.name}: damage is a DamageRoll, not {self.damage!r}")
        self.modifiers = tuple(self.modifiers)
        self.protection = tuple(self.protection)
        target_number(self.attack_tn, *self.modifiers)  # names a bad modifier
        encumbered_speed(self.speed, self.encumbrance)  # names a bad level

    @property
    def tn(self) -> int:
        """The attack's TN after every circumstance modifier (:node:ref:`Spurg.Rule.TargetNumber`)."""
        return target_number(self.attack_tn, *self.modifiers)


#: The source's rules: damage has no effect.
BY_THE_SOURCE = HitPointsRule()


@REGISTRY.rule("Spurg.Combat.Tracker", "Combat Tracker", "CB")
class Skirmish:
    """Play a fight turn by turn with dice from ``source``; ``rule`` is the optional hit-points rule
    (off by default), ``precedence`` the reading of a critical against the TN, ``rounding`` how a
    load's Speed cut rounds.  Each fighter attacks the first fighter of another side still in the
    fight."""

    def __init__(self, fighters: Sequence[Fighter], source: DiceSource, *,
                 rule: HitPointsRule = BY_THE_SOURCE,
                 precedence: CriticalPrecedence | str = CriticalPrecedence.CRITICAL,
                 rounding: SpeedRounding | str = SpeedRounding.RESULT) -> None:
        names = [f.name for f in fighters]
        if len(set(names)) != len(names):
            raise SpurgError(f"fighter names must be unique: {names!r}")
        if len({f.side for f in fighters}) < 2:
            raise SpurgError("a fight needs fighters on at least two sides")
        if not isinstance(rule, HitPointsRule):
            raise SpurgError(f"rule is a HitPointsRule, not {rule!r}")
        self.fighters = {f.name: f for f in fighters}
        self.source = source
        self.rule = rule
        self.precedence = CriticalPrecedence.of(precedence)
        self.sequence = CombatSequence()
        self.log: list[str] = []
        speeds = {f.name: encumbered_speed(f.speed, f.encumbrance, rounding=rounding) for f in fighters}
        order = self.sequence.start([Combatant(f.name, speeds[f.name], f.agility) for f in fighters], source)
        self.log.append("order: " + ", ".join(order))

    @property
    def over(self) -> bool:
        """One side (or none) is left in the fight.  Never true with the optional rule off."""
        return len({f.side for f in self.fighters.values() if not f.out}) < 2

    def play_turn(self) -> list[str]:
        """One turn: everyone still in the fight acts once, in the fixed order."""
        if self.over:
            raise SpurgError("the fight is over: one side is left")
        start = len(self.log)
        for name in self.sequence.next_turn():
            me = self.fighters[name]
            foe = next((f for f in self.fighters.values() if f.side != me.side and not f.out), None)
            if me.out or foe is None:
                continue
            verdict = verdict_roll(me.tn, self.source, precedence=self.precedence)
            line = f"turn {self.sequence.turns}: {me.name} attacks {foe.name}: {verdict.roll} vs TN {me.tn}"
            line += f" ({verdict.outcome})" if verdict.critical else ""
            if not verdict.success:
                self.log.append(line + ", a miss")
                continue
            harm = me.damage.roll(self.source, foe.protection)
            foe.taken += harm.taken
            line += f", a hit for {harm.taken} ({foe.taken} taken in all)"
            if self.rule.out_of_fight(foe.taken, foe.vitality):
                foe.out = True
                line += f"; {foe.name} is out (optional rule)"
            self.log.append(line)
        return self.log[start:]

    def play(self, max_turns: int) -> bool:
        """Play turns until the fight is over or ``max_turns`` have passed; returns whether it ended."""
        if not is_whole(max_turns) or max_turns < 1:
            raise SpurgError(f"a turn limit is a whole number of at least 1, not {max_turns!r}")
        while not self.over and self.sequence.turns < max_turns:
            self.play_turn()
        if not self.over:
            self.log.append(f"after {self.sequence.turns} turns nobody is out: the source gives damage no effect")
        return self.over
