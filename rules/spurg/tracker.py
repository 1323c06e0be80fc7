"""A small combat tracker: the fixed turn order, attacks as Verdict Rolls, Damage Rolls, and (only
with this book's optional rule switched on) characters dropping out of the fight.

The source stops before attacks, defences and the effects of damage.  The tracker uses what it does
give: an attack is a Verdict Roll against the attacker's attack TN, a success deals the weapon's Damage
Roll, and damage is recorded.  With :class:`~rules.spurg.damage.HitPointsRule` off (the default) that
is all, and a fight runs until its turn limit; switched on, a character whose damage reaches its
Vitality is out, and the fight ends when one side is left.  Dice are drawn in this order: the
turn-order roll-off (only for ties); then, per attack, the three Verdict dice and, on a success, the
Damage Roll's dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource
from rules.spurg.combat import Combatant, CombatSequence
from rules.spurg.damage import DamageRoll, HitPointsRule
from rules.spurg.registry import REGISTRY, SpurgError
from rules.spurg.verdict import verdict_roll
from rules.values import is_whole


@dataclass
class Fighter:
    """One fighter: a side, Speed, Agility and Vitality, the TN of its attack, and its Damage Roll."""

    name: str
    side: str
    speed: int
    agility: int
    vitality: int
    attack_tn: int
    damage: DamageRoll
    taken: int = field(default=0, init=False)
    out: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        Combatant(self.name, self.speed, self.agility)  # checks name, Speed, Agility
        for what, value in (("Vitality", self.vitality), ("attack TN", self.attack_tn)):
            if not is_whole(value) or value < 0:
                raise SpurgError(f"{self.name}: {what} must be a whole number of 0 or more, not {value!r}")
        if not isinstance(self.damage, DamageRoll):
            raise SpurgError(f"{self.name}: damage is a DamageRoll, not {self.damage!r}")


#: The source's rules: damage has no effect.
BY_THE_SOURCE = HitPointsRule()


@REGISTRY.rule("Spurg.Combat.Tracker", "Combat Tracker", "CB")
class Skirmish:
    """Play a fight turn by turn with dice from ``source``; ``rule`` is the optional hit-points rule
    (off by default).  Each fighter attacks the first fighter of another side still in the fight."""

    def __init__(self, fighters: Sequence[Fighter], source: DiceSource, *,
                 rule: HitPointsRule = BY_THE_SOURCE) -> None:
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
        self.sequence = CombatSequence()
        self.log: list[str] = []
        order = self.sequence.start([Combatant(f.name, f.speed, f.agility) for f in fighters], source)
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
            verdict = verdict_roll(me.attack_tn, self.source)
            line = f"turn {self.sequence.turns}: {me.name} attacks {foe.name}: {verdict.roll} vs TN {me.attack_tn}"
            if not verdict.success:
                self.log.append(line + ", a miss")
                continue
            harm = me.damage.roll(self.source)
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
