"""A small fight tracker: initiative every round, actions by phase, attacks through to their effect,
and the days of rest afterwards.

It strings the rules of the initiative, combat and harm chapters together and takes every die from
one :class:`rules.dice.DiceSource`, so a scripted source replays a fight exactly.  Dice are drawn in
this order: each round, one initiative die per standing fighter who is not a minion (in the order the
fighters were given); then, per action, the attack pool, the defence pool (only for the defender's
first attack in that phase), the attack's Destiny re-roll (if one is spent), and the Resistance pool
of a hit.  Under lid-off each pool's 6s are followed up right after that pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource
from rules.nugget.characters import Character
from rules.nugget.combat import attack_pool, defence_pool, hit_damage, hits
from rules.nugget.destiny import keep_preferred, survive
from rules.nugget.harm import Condition, Wounds, damage_effect, resisted_damage
from rules.nugget.initiative import (
    PhaseDefence,
    action_phases,
    minion_initiative,
    roll_initiative,
)
from rules.nugget.npcs import TIERS, is_out
from rules.nugget.registry import REGISTRY, NuggetError
from rules.nugget.rolls import Lid, PoolRoll, is_too_hard, lid_style, roll_pool
from rules.values import is_whole


@dataclass
class Fighter:
    """One fighter: a character sheet, a side, the skill levels it attacks and defends with, a weapon
    base, armour, whether its blows are hand-to-hand (Brawn adds), and an NPC ``tier`` (``"minion"``,
    ``"henchman"``, ``"villain"``; ``None`` for a player character), which says when it is taken out.
    ``destiny`` is its Destiny Points for this fight (``None``: what the character sheet says)."""

    character: Character
    side: str
    attack_skill: int
    defence_skill: int
    weapon: int
    armour: int = 0
    hand_to_hand: bool = True
    tier: str | None = None
    condition: Condition = field(default_factory=Condition)
    destiny: int | None = None

    def __post_init__(self) -> None:
        if self.tier is not None:
            is_out(self.tier, Wounds())  # names the bad tier
        if self.destiny is None:
            self.destiny = self.character.destiny
        if not is_whole(self.destiny) or self.destiny < 0:
            raise NuggetError(f"{self.name}: Destiny Points are a whole number >= 0, not {self.destiny!r}")

    @property
    def points(self) -> int:
        """Destiny Points left (set in ``__post_init__``)."""
        return self.destiny or 0

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
    """Run a fight round by round with dice from a source until one side is left, then rest the fighters.

    Methods: :meth:`play_round` until :attr:`over`, then :meth:`rest`.

    Each action attacks the first standing fighter of another side, in the order fighters were given.
    ``lid`` is the game's exceptional-success style (``"on"`` or ``"off"``; ``max_rerolls`` caps a
    lid-off chain as a house rule).  With ``destiny=True`` a fighter spends a Destiny Point to re-roll
    an attack that missed and keeps the better roll, holding one point back while ``spare_the_dying``
    (the GM's consent) lets a point turn a Dead result into Unconscious.  :attr:`log` keeps one line
    per event.
    """

    def __init__(self, fighters: Sequence[Fighter], source: DiceSource, *, lid: Lid | str = Lid.ON,
                 max_rerolls: int | None = None, destiny: bool = False, spare_the_dying: bool = False) -> None:
        self.lid = lid_style(lid)
        for flag, value in (("destiny", destiny), ("spare_the_dying", spare_the_dying)):
            if not isinstance(value, bool):
                raise NuggetError(f"{flag} is True or False, not {value!r}")
        if max_rerolls is not None and (not is_whole(max_rerolls) or max_rerolls < 0):
            raise NuggetError(f"max_rerolls is None or a whole number >= 0, not {max_rerolls!r}")
        self.max_rerolls = max_rerolls
        self.destiny = destiny
        self.spare_the_dying = spare_the_dying
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

    def _roll(self, pool: int) -> PoolRoll | None:
        """Roll a pool in this fight's lid style; ``None`` when it is too hard to roll."""
        return None if is_too_hard(pool) else roll_pool(pool, self.source, lid=self.lid, max_rerolls=self.max_rerolls)

    def _attack(self, me: Fighter, target: Fighter, phase: int, defences: PhaseDefence) -> None:
        agility = me.character.attribute("Agility")
        pool = attack_pool(me.attack_skill, agility, injuries=me.condition.injuries)
        first = self._roll(pool)
        attack = first.successes if first else 0
        guard = defence_pool(target.defence_skill, target.character.attribute("Agility"),
                             injuries=target.condition.injuries)
        defended = defences.successes(target.name, phase, lambda: self._successes(guard))
        line = f"phase {phase}: {me.name} attacks {target.name}: {attack} vs {defended}"
        reserve = 1 if self.spare_the_dying else 0
        if first is not None and not hits(attack, defended) and self.destiny and me.points > reserve:
            me.destiny = me.points - 1
            second = self._roll(pool)
            assert second is not None
            attack = keep_preferred(first, second).successes
            line += f"; Destiny re-roll {second.successes}, keeps {attack} ({me.points} left)"
        if not hits(attack, defended):
            self.log.append(line + ", a miss")
            return
        damage = hit_damage(attack, defended, me.weapon, brawn=me.character.attribute("Brawn"),
                            hand_to_hand=me.hand_to_hand, armour=target.armour)
        soak = self._roll(target.character.physical_resistance)
        final = resisted_damage(damage, soak.successes if soak else 0, soak.fumble if soak else False)
        effect = damage_effect(final)
        spared = ""
        if effect.dead and self.spare_the_dying and target.points > 0:
            effect = survive(effect, gm_allows=True)
            target.destiny = target.points - 1
            spared = f"; {target.name} spends Destiny: Unconscious, not Dead"
        target.condition = target.condition.take(effect)
        self.log.append(f"{line}, damage {damage}, resisted to {final}: {effect.label}{spared}")

    def _successes(self, pool: int) -> int:
        rolled = self._roll(pool)
        return rolled.successes if rolled else 0

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
