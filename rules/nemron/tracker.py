"""A small combat tracker: initiative, turns, attacks with active defence, damage to limbs, downed.

Disabled limbs follow the fighter: no attack without a working arm, no movement without both legs.
Energy buys a bonus reaction that the defender's turn really gets.  A defender set upon by two or
more melee opponents is flanked; damage goes where its type sends it (Neural to Energy, Psychic to
Stress), and area damage rolls one location die per point.  It strings the rules of the other
chapters together for a handful of combatants and takes every die from one
:class:`rules.dice.DiceSource`, so a scripted source replays a fight exactly.  Dice are drawn in this
order: initiative pools in the order the combatants were given; then, per attack, the attack pool,
the penalty die of an aimed attack, the defender's pool (if it defends), the flanking penalty die (if
a flanked defender defends against a melee attack), and the location die (if the attack was not
aimed and dealt damage to HP), or one location die per point of area damage.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from rules.dice import DiceSource
from rules.nemron.actions import InitiativeRoll, Turn, initiative_pool, turn_order
from rules.nemron.characters import movement_speed
from rules.nemron.checks import Modifier, Pool, apply_modifier
from rules.nemron.combat import aimed_modifier, area_damage, attack_damage, attack_hits, flanked_defence
from rules.nemron.damage import DamageType, Stress, Track, as_damage_type, damage_target, deal_damage
from rules.nemron.energy import Energy
from rules.nemron.health import ARMS, ARMS_TO_ATTACK, LEGS, LEGS_TO_MOVE, Body, Limb, roll_location
from rules.nemron.registry import REGISTRY, NemronError

_HP = Track.HP


def track_type(kind: DamageType | None) -> DamageType:
    """The damage type to route (untyped damage takes HP, like Kinetic)."""
    return kind or DamageType.KINETIC


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
    stress: Stress | None = None
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
    #: The damage type named for the attack (``None``: untyped, taken from limb HP).
    damage_type: DamageType | None = None
    #: Where the damage went: limb HP, Energy (Neural) or Stress (Psychic).
    track: Track = Track.HP
    #: Area damage: (limb, points) in the order the location dice first hit each limb.
    spread: tuple[tuple[Limb, int], ...] = ()
    #: Whether the defence roll carried the flanked penalty.
    flanked: bool = False
    #: Limbs this attack disabled (an area attack may disable more than one).
    disabled_limbs: tuple[Limb, ...] = ()

    @classmethod
    def of(cls, attacker: str, target: str, faces: tuple[int, ...], roll: int, hit: bool, defence: int | None,
           damage: int, limb: Limb | None, downed: bool, disabled: bool, damage_type: DamageType | None,
           track: Track, spread: tuple[tuple[Limb, int], ...], flanked: bool,
           disabled_limbs: tuple[Limb, ...]) -> AttackReport:
        """The report ``AttackReport(...)`` makes from every field, without the frozen dataclass's call per
        field on the way in (a simulated fight makes one per attack, and that call was a tenth of it)."""
        report = object.__new__(cls)
        report.__dict__.update(attacker=attacker, target=target, faces=faces, roll=roll, hit=hit, defence=defence,
                               damage=damage, limb=limb, downed=downed, disabled=disabled,
                               damage_type=damage_type, track=track, spread=spread, flanked=flanked,
                               disabled_limbs=disabled_limbs)
        return report

    def __str__(self) -> str:
        if not self.hit:
            return f"{self.attacker} attacks {self.target}: {self.roll}, a miss"
        defended = "" if self.defence is None else f", defence {self.defence}"
        defended += " (flanked)" if self.flanked else ""
        kind = f" {self.damage_type.value}" if self.damage_type else ""
        if self.spread:
            landed = " (area): " + ", ".join(f"{limb.value} {points}" for limb, points in self.spread)
        elif self.track is not Track.HP and self.damage:
            landed = f" to {self.track.value}"
        else:
            landed = f" to the {self.limb.value}" if self.limb else ""
        broken = self.disabled_limbs or ((self.limb,) if self.disabled and self.limb else ())
        tail = "".join(f"; the {limb.value} is disabled" for limb in broken)
        tail += f"; {self.target} is downed" if self.downed else ""
        return (f"{self.attacker} attacks {self.target}: {self.roll}{defended} -> {self.damage}{kind} damage"
                f"{landed}{tail}")


class EventLog(Sequence[str]):
    """A tracker's log: a line per event, oldest first, always up to date for whoever holds it.

    An attack's line is written from its report the first time the log is read, so the thousands of
    simulated fights behind a matchup, whose logs nobody reads, never write theirs.  A GM may add lines
    of their own (:meth:`append`); they stand where they were added."""

    __slots__ = ("_events", "_lines")

    def __init__(self) -> None:
        self._events: list[AttackReport | str] = []
        self._lines: list[str] = []

    def append(self, event: AttackReport | str) -> None:
        """Add an event: a report (written when read) or a line as it stands."""
        self._events.append(event)

    def _written(self) -> list[str]:
        if len(self._lines) < len(self._events):
            self._lines.extend(str(event) for event in self._events[len(self._lines):])
        return self._lines

    def __len__(self) -> int:
        return len(self._events)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._written()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._written()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventLog):
            return self._written() == other._written()
        if isinstance(other, list):
            return self._written() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so unhashable like one

    def __repr__(self) -> str:
        return repr(self._written())


@REGISTRY.rule("Generic.Rule.CombatTracker", "Combat Tracker", "RU")
class CombatTracker:
    """Run an action sequence for a few combatants with dice from ``source``.

    Call :meth:`start` to roll initiative, then :meth:`attack` and :meth:`end_turn` for whoever's turn
    it is (:attr:`current`).  Downed combatants are skipped; :attr:`log` keeps a line per event.

    An attack's line is written from its :class:`AttackReport` when the log is read, not when the attack
    is made: a simulation plays thousands of fights whose log nobody reads.
    """

    def __init__(self, combatants: list[Combatant], source: DiceSource, *,
                 flanking: Modifier | None = Modifier.LESSER_PENALTY) -> None:
        names = [c.name for c in combatants]
        if len(set(names)) != len(names):
            raise NemronError(f"combatant names must be unique: {names!r}")
        if len(combatants) < 2:
            raise NemronError("a fight needs at least two combatants")
        if flanking is not None and not isinstance(flanking, Modifier):
            raise NemronError(f"flanking is a Modifier or None, not {flanking!r}")
        self.combatants = {c.name: c for c in combatants}
        self.source = source
        #: What flanking does to a defence roll (the book's lesser penalty; ``None``: nothing).
        self.flanking = flanking
        self.order: list[str] = []
        self.round = 0
        self.index = 0
        #: A line per event, oldest first (see :class:`EventLog`).
        self.log = EventLog()
        #: Pairs of combatants in melee with each other (see :meth:`engage`).
        self.engaged: set[frozenset[str]] = set()

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

    def attack(self, target: str, *, aim: Limb | str | None = None, defend: bool = True, melee: bool = False,
               damage_type: DamageType | str | None = None, area: bool = False) -> AttackReport:
        """The current combatant attacks ``target`` with its action.

        ``aim`` names a limb (a lesser penalty on the attack); ``defend=False`` means the target does
        not spend its reaction on a defence roll (it also cannot when it has no defence pool or no
        reaction left).  ``melee=True`` puts attacker and target in melee (:meth:`engage`); a target in
        melee with two or more standing opponents defends against a melee attack with the flanked
        penalty.  ``damage_type`` routes the damage (Neural drains Energy, Psychic adds Stress, any
        other type or none takes limb HP); ``area=True`` spreads it one location die per point.
        """
        attacker, defender = self.current, self._get(target)
        if defender is attacker:
            raise NemronError(f"{attacker.name} cannot attack itself")
        if defender.body.is_downed():
            raise NemronError(f"{defender.name} is already downed")
        if not attacker.body.can_attack(attacker.arms_needed):  # what can_attack() asks, the name known good
            broken = ", ".join(f"{a.value} {attacker.body.hp[a]} HP" for a in ARMS)
            raise NemronError(f"{attacker.name} cannot attack: {attacker.arms_needed} working arm(s) "
                               f"needed ({broken})")
        if area and aim is not None:
            raise NemronError(f"an area attack rolls a location die per point: it cannot aim at {aim!r}")
        kind = None if damage_type is None else as_damage_type(damage_type)
        track = _HP if kind is None else damage_target(kind)
        if track is Track.ENERGY and defender.energy is None:
            raise NemronError(f"{kind and kind.value} damage drains Energy, and {defender.name} has none tracked")
        if track is Track.STRESS and defender.stress is None:
            raise NemronError(f"{kind and kind.value} damage becomes Stress, and {defender.name} has none tracked")
        modifier = None if aim is None else aimed_modifier(aim)
        attacker.turn.act()
        if melee:
            self.engage(attacker.name, defender.name)
        faces = attacker.attack.roll(self.source)
        modifier_face = self.source.roll(modifier.rule.sides) if modifier else None
        roll = apply_modifier(faces, modifier, modifier_face)
        report: AttackReport
        if not attack_hits(roll, attacker.weapon_rank):
            report = AttackReport.of(attacker.name, defender.name, faces, roll, False, None, 0, None, False, False,
                                     kind, track, (), False, ())
        else:
            defence = None
            flanked = None
            if defend and defender.defence is not None and defender.turn.reactions > 0:
                defender.turn.react(to_self=True)
                defence_faces = defender.defence.roll(self.source)
                flanked = (flanked_defence(self.melee_opponents(defender.name), modifier=self.flanking)
                           if melee else None)
                flanked_face = self.source.roll(flanked.rule.sides) if flanked else None
                defence = apply_modifier(defence_faces, flanked, flanked_face)
            damage = attack_damage(roll, defence)
            limb = None
            newly_disabled: list[Limb] = []
            spread: tuple[tuple[Limb, int], ...] = ()
            if damage and track is not _HP:
                deal_damage(damage, track_type(kind), body=defender.body, limb=Limb.TORSO,
                            energy=defender.energy, stress=defender.stress)
            elif damage and area:
                spread = tuple(area_damage(damage, self.source).items())
                for hit_limb, points in spread:
                    newly_disabled += self._hurt(defender, hit_limb, points, kind)
            elif damage:
                limb = Limb(aim) if aim is not None else roll_location(self.source)
                newly_disabled = self._hurt(defender, limb, damage, kind)
            report = AttackReport.of(attacker.name, defender.name, faces, roll, True, defence, damage, limb,
                                     defender.body.is_downed(), bool(newly_disabled) and limb is not None, kind,
                                     track, spread, flanked is not None, tuple(newly_disabled))
        self.log.append(report)
        return report

    def _hurt(self, defender: Combatant, limb: Limb, amount: int, kind: DamageType | None) -> list[Limb]:
        """Limb damage through :func:`deal_damage`; returns the limb if this newly disabled it."""
        was_disabled = defender.body.is_disabled(limb)
        deal_damage(amount, kind or DamageType.KINETIC, body=defender.body, limb=limb)
        return [limb] if defender.body.is_disabled(limb) and not was_disabled else []

    def engage(self, name: str, other: str) -> None:
        """``name`` and ``other`` are in melee with each other (within the melee band) until one of them
        disengages; a melee attack engages attacker and target by itself."""
        first, second = self._get(name), self._get(other)
        if first is second:
            raise NemronError(f"{name} cannot be in melee with itself")
        pair = frozenset((first.name, second.name))
        if pair not in self.engaged:
            self.engaged.add(pair)
            self.log.append(f"{first.name} and {second.name} are in melee")

    def disengage(self, name: str) -> None:
        """``name`` steps out of melee with everyone (say, by moving away beyond the melee band)."""
        self._get(name)
        self.engaged = {pair for pair in self.engaged if name not in pair}
        self.log.append(f"{name} leaves melee")

    def melee_opponents(self, name: str) -> int:
        """How many standing combatants are in melee with ``name`` (two or more flank it)."""
        self._get(name)
        return sum(1 for pair in self.engaged if name in pair
                   for other in pair - {name} if not self.combatants[other].body.is_downed())

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
