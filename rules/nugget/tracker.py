"""A small fight tracker: initiative every round, actions by phase, attacks through to their effect,
and the days of rest afterwards.

It strings the rules of the initiative, combat and harm chapters together and takes every die from
one :class:`rules.dice.DiceSource`, so a scripted source replays a fight exactly.  Dice are drawn in
this order: each round, one initiative die per standing fighter who is not a minion (in the order the
fighters were given); then, per action, the attack pool, the defence pool (only for the defender's
first attack in that phase), and the Resistance pool of a hit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource
from rules.nugget.characters import Character
from rules.nugget.combat import attack_pool, defence_pool, hit_damage, hits
from rules.nugget.harm import Condition, Wounds, damage_effect, resisted_damage
from rules.nugget.initiative import (
    PhaseDefence,
    action_phases,
    minion_initiative,
    roll_initiative,
)
from rules.nugget.npcs import TIERS, is_out
from rules.nugget.registry import REGISTRY, NuggetError
from rules.nugget.rolls import is_too_hard, roll_pool
from rules.values import is_whole


@dataclass
class Fighter:
    """One fighter: a character sheet, a side, the skill levels it attacks and defends with, a weapon
    base, armour, whether its blows are hand-to-hand (Brawn adds), and an NPC ``tier`` (``"minion"``,
    ``"henchman"``, ``"villain"``; ``None`` for a player character), which says when it is taken out."""

    character: Character
    side: str
    attack_skill: int
    defence_skill: int
    weapon: int
    armour: int = 0
    hand_to_hand: bool = True
    tier: str | None = None
    condition: Condition = field(default_factory=Condition)

    def __post_init__(self) -> None:
        if self.tier is not None:
            is_out(self.tier, Wounds())  # names the bad tier

    @property
    def name(self) -> str:
        return self.character.name

    @property
    def standing(self) -> bool:
        return not is_out(self.tier or "villain", self.condition.physical)  # PCs go down like villains


@dataclass(frozen=True)
class InitiativeEntry:
    """One fighter's initiative this round: the die (``None`` for a minion), bonus, wound penalty,
    total, and the phases it acts in."""

    name: str
    die: int | None
    bonus: int
    penalty: int
    total: int
    phases: tuple[int, ...]


@REGISTRY.rule("Nugget.Rule.FightTracker", "Fight Tracker", "RU")
class Fight:
    """Run a fight with dice from ``source``: :meth:`play_round` until :attr:`over`, then :meth:`rest`.

    Each action attacks the first standing fighter of another side, in the order fighters were given.
    :attr:`log` keeps one line per event.
    """

    def __init__(self, fighters: Sequence[Fighter], source: DiceSource) -> None:
        names = [f.name for f in fighters]
        if len(set(names)) != len(names):
            raise NuggetError(f"fighter names must be unique: {names!r}")
        if len({f.side for f in fighters}) < 2:
            raise NuggetError("a fight needs fighters on at least two sides")
        self.fighters = list(fighters)
        self.source = source
        self.round = 0
        self.log: list[str] = []
        self.initiative: list[InitiativeEntry] = []

    @property
    def over(self) -> bool:
        """True once fighters of only one side (or none) are still standing."""
        return len({f.side for f in self.fighters if f.standing}) < 2

    def _initiative(self, fighter: Fighter) -> InitiativeEntry:
        bonus = fighter.character.initiative_bonus
        hurts, injuries = fighter.condition.hurts, fighter.condition.injuries
        if fighter.tier is not None and not TIERS[fighter.tier].rolls_initiative:
            total, die = minion_initiative(bonus, hurts=hurts, injuries=injuries), None
        else:
            total = roll_initiative(bonus, self.source, hurts=hurts, injuries=injuries)
            die = total - bonus + hurts + injuries
        return InitiativeEntry(fighter.name, die, bonus, hurts + injuries, total, action_phases(total))

    def play_round(self) -> list[str]:
        """Roll initiative, then let everyone act phase by phase (higher bonus first within a phase).
        Returns this round's log lines."""
        if self.over:
            raise NuggetError("the fight is over: one side is left standing")
        start = len(self.log)
        self.round += 1
        self.log.append(f"round {self.round}")
        entries = [self._initiative(f) for f in self.fighters if f.standing]
        self.initiative.extend(entries)
        self.log.append("initiative: " + ", ".join(f"{e.name} {e.total}" for e in entries))
        turns = sorted(((phase, e) for e in entries for phase in e.phases), key=lambda t: (-t[0], -t[1].bonus))
        defences = PhaseDefence()
        by_name = {f.name: f for f in self.fighters}
        for phase, entry in turns:
            me = by_name[entry.name]
            target = next((f for f in self.fighters if f.side != me.side and f.standing), None)
            if not me.standing or target is None:
                continue
            self._attack(me, target, phase, defences)
        return self.log[start:]

    def _attack(self, me: Fighter, target: Fighter, phase: int, defences: PhaseDefence) -> None:
        agility = me.character.attribute("Agility")
        pool = attack_pool(me.attack_skill, agility, injuries=me.condition.injuries)
        attack = roll_pool(pool, self.source).successes if not is_too_hard(pool) else 0
        guard = defence_pool(target.defence_skill, target.character.attribute("Agility"),
                             injuries=target.condition.injuries)
        defended = defences.successes(target.name, phase, lambda: 0 if is_too_hard(guard)
                                      else roll_pool(guard, self.source).successes)
        line = f"phase {phase}: {me.name} attacks {target.name}: {attack} vs {defended}"
        if not hits(attack, defended):
            self.log.append(line + ", a miss")
            return
        damage = hit_damage(attack, defended, me.weapon, brawn=me.character.attribute("Brawn"),
                            hand_to_hand=me.hand_to_hand, armour=target.armour)
        resistance = target.character.physical_resistance
        soak = roll_pool(resistance, self.source) if not is_too_hard(resistance) else None
        final = resisted_damage(damage, soak.successes if soak else 0, soak.fumble if soak else False)
        effect = damage_effect(final)
        target.condition = target.condition.take(effect)
        self.log.append(f"{line}, damage {damage}, resisted to {final}: {effect.label}")

    def rest(self, days: int) -> list[str]:
        """After the fight: ``days`` of rest and care; each day heals one Injury per fighter."""
        if not is_whole(days) or days < 1:
            raise NuggetError(f"rest lasts a whole number of days, at least 1, not {days!r}")
        lines = []
        for fighter in self.fighters:
            if fighter.condition.physical.dead:
                continue
            before = fighter.condition.physical.injuries
            fighter.condition = fighter.condition.recover("physical", days)
            after = fighter.condition.physical.injuries
            if before:
                lines.append(f"{fighter.name} rests {days} day(s): Injuries {before} -> {after}")
        self.log.extend(lines)
        return lines
