"""A small combat tracker: initiative, turns, attacks with active defence, damage to limbs, downed.

Disabled limbs follow the fighter: no attack without a working arm, no movement without both legs.
Energy buys a bonus reaction that the defender's turn really gets.  It strings the rules of the
other chapters together for a handful of combatants and takes every die from one
:class:`rules.dice.DiceSource`, so a scripted source replays a fight exactly.  Dice are drawn
in this order: initiative pools in the order the combatants were given; then, per attack, the attack
pool, the penalty die of an aimed attack, the defender's pool (if it defends), and the location die
(if the attack was not aimed and dealt damage).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.dice import DiceSource
from rules.nemron.actions import InitiativeRoll, Turn, initiative_pool, turn_order
from rules.nemron.characters import movement_speed
from rules.nemron.checks import Pool, apply_modifier
from rules.nemron.combat import aimed_modifier, attack_damage, attack_hits
from rules.nemron.energy import Energy
from rules.nemron.health import ARMS, ARMS_TO_ATTACK, LEGS, LEGS_TO_MOVE, Body, Limb, roll_location
from rules.nemron.registry import REGISTRY, NemronError


@dataclass
class Combatant:
    """One side of a fight: initiative ranks, an attack and a defence pool, a weapon rank, a body."""

    name: str
    agility: int
    awareness: int
    sense: int
    attack: Pool
    weapon_rank: int
    body: Body
    defence: Pool | None = None
    pc: bool = False
    energy: Energy | None = None
    arms_needed: int = ARMS_TO_ATTACK
    legs_needed: int = LEGS_TO_MOVE
    turn: Turn = field(init=False)

    def __post_init__(self) -> None:
        self.turn = Turn(movement_speed(self.agility))


@dataclass(frozen=True)
class AttackReport:
    """What one attack did."""

    attacker: str
    target: str
    faces: tuple[int, ...]
    roll: int
    hit: bool
    defence: int | None
    damage: int
    limb: Limb | None
    downed: bool
    disabled: bool = False

    def __str__(self) -> str:
        if not self.hit:
            return f"{self.attacker} attacks {self.target}: {self.roll}, a miss"
        defended = "" if self.defence is None else f", defence {self.defence}"
        landed = f" to the {self.limb.value}" if self.limb else ""
        tail = f"; the {self.limb.value} is disabled" if self.disabled and self.limb else ""
        tail += f"; {self.target} is downed" if self.downed else ""
        return f"{self.attacker} attacks {self.target}: {self.roll}{defended} -> {self.damage} damage{landed}{tail}"


@REGISTRY.rule("Generic.Rule.CombatTracker", "Combat Tracker", "RU")
class CombatTracker:
    """Run an action sequence for a few combatants with dice from ``source``.

    Call :meth:`start` to roll initiative, then :meth:`attack` and :meth:`end_turn` for whoever's turn
    it is (:attr:`current`).  Downed combatants are skipped; :attr:`log` keeps a line per event.
    """

    def __init__(self, combatants: list[Combatant], source: DiceSource) -> None:
        names = [c.name for c in combatants]
        if len(set(names)) != len(names):
            raise NemronError(f"combatant names must be unique: {names!r}")
        if len(combatants) < 2:
            raise NemronError("a fight needs at least two combatants")
        self.combatants = {c.name: c for c in combatants}
        self.source = source
        self.order: list[str] = []
        self.round = 0
        self.index = 0
        self.log: list[str] = []

    def start(self) -> list[InitiativeRoll]:
        """Roll everybody's initiative and set the turn order; round 1 begins."""
        rolls = []
        for c in self.combatants.values():
            faces = initiative_pool(c.agility, c.awareness, c.sense).roll(self.source)
            rolls.append(InitiativeRoll(c.name, max(faces), c.pc))
        ordered = turn_order(rolls)
        self.order = [r.name for r in ordered]
        self.round, self.index = 1, 0
        self.log.append("initiative: " + ", ".join(f"{r.name} {r.result}" for r in ordered))
        self._skip_downed()
        return ordered

    @property
    def current(self) -> Combatant:
        if not self.order:
            raise NemronError("the fight has not started: call start() first")
        return self.combatants[self.order[self.index]]

    def _get(self, name: str) -> Combatant:
        try:
            return self.combatants[name]
        except KeyError:
            raise NemronError(f"no combatant {name!r} ({', '.join(self.combatants)})") from None

    def attack(self, target: str, *, aim: Limb | str | None = None, defend: bool = True) -> AttackReport:
        """The current combatant attacks ``target`` with its action.

        ``aim`` names a limb (a lesser penalty on the attack); ``defend=False`` means the target does
        not spend its reaction on a defence roll (it also cannot when it has no defence pool or no
        reaction left).
        """
        attacker, defender = self.current, self._get(target)
        if defender is attacker:
            raise NemronError(f"{attacker.name} cannot attack itself")
        if defender.body.is_downed():
            raise NemronError(f"{defender.name} is already downed")
        if not self.can_attack(attacker.name):
            broken = ", ".join(f"{a.value} {attacker.body.hp[a]} HP" for a in ARMS)
            raise NemronError(f"{attacker.name} cannot attack: {attacker.arms_needed} working arm(s) "
                               f"needed ({broken})")
        modifier = aimed_modifier(aim)
        attacker.turn.act()
        faces = attacker.attack.roll(self.source)
        modifier_face = self.source.roll(modifier.rule.sides) if modifier else None
        roll = apply_modifier(faces, modifier, modifier_face)
        report: AttackReport
        if not attack_hits(roll, attacker.weapon_rank):
            report = AttackReport(attacker.name, defender.name, faces, roll, False, None, 0, None, False)
        else:
            defence = None
            if defend and defender.defence is not None and defender.turn.reactions > 0:
                defender.turn.react(to_self=True)
                defence = max(defender.defence.roll(self.source))
            damage = attack_damage(roll, defence)
            limb = None
            disabled = False
            if damage:
                limb = Limb(aim) if aim is not None else roll_location(self.source)
                was_disabled = defender.body.is_disabled(limb)
                disabled = defender.body.damage(limb, damage).disabled and not was_disabled
            report = AttackReport(attacker.name, defender.name, faces, roll, True, defence, damage, limb,
                                  defender.body.is_downed(), disabled)
        self.log.append(str(report))
        return report

    def can_attack(self, name: str) -> bool:
        """Whether a combatant has the working arms its attack needs (a disabled arm holds nothing)."""
        fighter = self._get(name)
        return fighter.body.can_attack(fighter.arms_needed)

    def move(self, metres: int) -> int:
        """The current combatant moves; both legs must work (see ``legs_needed``).  Returns metres left."""
        mover = self.current
        if not mover.body.can_move(mover.legs_needed):
            broken = ", ".join(f"{leg.value} {mover.body.hp[leg]} HP" for leg in LEGS)
            raise NemronError(f"{mover.name} cannot move: {mover.legs_needed} working leg(s) needed ({broken})")
        left = mover.turn.move(metres)
        self.log.append(f"{mover.name} moves {metres} m")
        return left

    def buy_reaction(self, name: str) -> int:
        """``name`` pays 2 Energy (once a round) for a bonus reaction this round; returns Energy left."""
        if not self.order:
            raise NemronError("the fight has not started: call start() first")
        buyer = self._get(name)
        if buyer.energy is None:
            raise NemronError(f"{buyer.name} has no Energy to buy a reaction with")
        left = buyer.energy.bonus_reaction(self.round, buyer.turn)
        self.log.append(f"{buyer.name} pays Energy for a bonus reaction ({left} left)")
        return left

    def _skip_downed(self) -> None:
        for _ in range(len(self.order)):
            if not self.combatants[self.order[self.index]].body.is_downed():
                return
            self._advance()

    def _advance(self) -> None:
        self.index += 1
        if self.index == len(self.order):
            self.index = 0
            self.round += 1
            for c in self.combatants.values():
                c.turn = Turn(movement_speed(c.agility))
            self.log.append(f"round {self.round}")

    def end_turn(self) -> Combatant:
        """End the current turn; the next combatant who is not downed is up (a new round resets turns)."""
        _ = self.current  # raises if not started
        self._advance()
        self._skip_downed()
        return self.current

    def standing(self) -> list[str]:
        """Combatants not downed, in turn order."""
        return [n for n in self.order if not self.combatants[n].body.is_downed()]
