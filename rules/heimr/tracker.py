"""A small combat log: initiative, weapon attacks against a rolled defence, guards, hiding, readied
actions, climbing and the situation (darkness, shields).

It strings the rules of the combat, defence and modules chapters together and takes every die from one
:class:`rules.dice.DiceSource`, so a scripted source replays a fight exactly.  Dice are drawn in this
order: initiative challenges in the order the fighters were given; per attack, the attack challenge,
then the defence challenge (the defender's, or the guard's who stepped in), then the original target's
defence if a guard dodged a shot, then a climber's hold-on roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rules.dice import DiceSource
from rules.heimr.challenge import roll_challenge
from rules.heimr.combat import Combatant, ReadiedAction, roll_initiative
from rules.heimr.defence import (
    DefenceTracker,
    GuardPost,
    hidden_strike_potential,
    hold_on,
    outmanoeuvre_dodge,
    position_modifier,
    responding_guard,
    situational_modifiers,
)
from rules.heimr.modules import find_weapon
from rules.heimr.registry import REGISTRY, HeimrError
from rules.values import is_whole

AttackAction = Literal["attack", "charge", "shoot"]


@dataclass
class Fighter:
    """A fighter: initiative inputs, attack and dodge challenges (consistency, potential), a weapon
    class of the armoury, hit points, an optional shield (blocks with ``block``), and who cannot see it."""

    name: str
    dexterity: int
    willpower: int
    hp: int
    attack: tuple[int, int]
    dodge: tuple[int, int]
    weapon: str = "Medium weapon"
    shield: str | None = None
    block: tuple[int, int] | None = None
    hidden_from: set[str] = field(default_factory=set)
    climbing: int | None = None  #: the climb's requirement while climbing (0: a climb that needed no roll)
    climb: tuple[int, int] = (3, 0)  #: the hold-on challenge (the Climbing ability: base consistency 3)
    defences: DefenceTracker = field(init=False)

    def __post_init__(self) -> None:
        if not is_whole(self.hp):
            raise HeimrError(f"{self.name}: hit points must be a whole number, not {self.hp!r}")
        find_weapon(self.weapon)
        self.defences = DefenceTracker(melee_weapons=1, shield=self.shield is not None)

    @property
    def standing(self) -> bool:
        return self.hp > 0


@dataclass(frozen=True)
class Blow:
    """One attack as the log saw it: who swung at whom, who defended (a guard may have stepped in),
    the (consistency, potential) each side rolled, the results and the Hit dealt."""

    attacker: str
    target: str
    defender: str
    action: AttackAction
    attack_roll: tuple[int, int]
    attack: int
    defence_kind: str
    defence_roll: tuple[int, int]
    defence: int
    hit: int
    slipped_past: tuple[str, ...]
    intercepted_by: str | None
    line: str

    def __str__(self) -> str:
        return self.line


@REGISTRY.rule("Heimr.Rule.CombatLog", "Combat log", "RU")
class Skirmish:
    """Run a fight with dice from ``source``: :meth:`start`, then :meth:`attack` and :meth:`end_turn`
    for whoever is :attr:`current`.  ``darkness`` is the GM's consistency penalty on every combat roll.
    :attr:`log` keeps one line per event."""

    def __init__(self, fighters: Sequence[Fighter], source: DiceSource, *, darkness: int = 0) -> None:
        names = [f.name for f in fighters]
        if len(set(names)) != len(names) or len(names) < 2:
            raise HeimrError(f"a fight needs two or more fighters with distinct names, not {names!r}")
        if not is_whole(darkness) or darkness < 0:
            raise HeimrError(f"darkness is a whole consistency penalty of at least 0, not {darkness!r}")
        self.fighters = {f.name: f for f in fighters}
        self.source = source
        self.darkness = darkness
        self.order: list[str] = []
        self.index = 0
        self.round = 0
        self.guards: list[GuardPost] = []
        self.readied: list[ReadiedAction] = []
        self.log: list[str] = []
        self.blows: list[Blow] = []

    # --- turn order -------------------------------------------------------------------------------

    def start(self) -> list[str]:
        """Roll initiative (C = Dexterity, P = willpower); round 1 begins."""
        rolls = roll_initiative([Combatant(f.name, f.dexterity, f.willpower) for f in self.fighters.values()],
                                self.source)
        self.order = [r.name for r in rolls]
        self.round, self.index = 1, 0
        self.log.append("initiative: " + ", ".join(f"{r.name} {r.result}" for r in rolls))
        self._turn_starts()
        return list(self.order)

    def _started(self) -> None:
        if not self.order:
            raise HeimrError("the fight has not started: call start() first")

    @property
    def current(self) -> Fighter:
        self._started()
        return self.fighters[self.order[self.index]]

    def get(self, name: str) -> Fighter:
        try:
            return self.fighters[name]
        except KeyError:
            raise HeimrError(f"no fighter {name!r} ({', '.join(self.fighters)})") from None

    def _turn_starts(self) -> None:
        for _ in range(len(self.order)):
            if self.current.standing:
                break
            self._advance()
        me = self.current
        me.defences.new_turn()
        for readied in self.readied:
            if readied.turn_starts(me.name):
                self.log.append(f"{me.name}'s readied action (on {readied.trigger}) is lost")
        self.readied = [r for r in self.readied if r.state == "waiting"]

    def _advance(self) -> None:
        self.index += 1
        if self.index >= len(self.order):
            self.index, self.round = 0, self.round + 1
            self.log.append(f"round {self.round}")

    def end_turn(self) -> Fighter:
        """End the current turn; the next standing fighter's turn starts (fresh defences; an untriggered
        readied action of theirs is lost)."""
        self._started()
        self._advance()
        self._turn_starts()
        return self.current

    def standing(self) -> list[str]:
        return [n for n in self.order if self.fighters[n].standing]

    # --- guards and readied actions ---------------------------------------------------------------

    def guard(self, ward: str, *, border: bool = False) -> GuardPost:
        """The current fighter spends its turn guarding ``ward`` (an ally's name, or a border)."""
        if not border:
            self.get(ward)
        post = GuardPost(self.current.name, ward, border)
        self.guards.append(post)
        self.log.append(f"{post.guard} guards {ward}")
        return post

    def ready(self, trigger: str) -> ReadiedAction:
        """The current fighter readies an action for ``trigger`` (lost if its next turn comes first)."""
        readied = ReadiedAction(self.current.name, trigger)
        self.readied.append(readied)
        self.log.append(f"{readied.readier} readies an action for: {trigger}")
        return readied

    def fire(self, readied: ReadiedAction, triggered_by: str) -> None:
        """A readied action's trigger happened: the readier moves to just before ``triggered_by``."""
        acting = self.current.name
        self.order = readied.fire(self.order, triggered_by)
        self.index = self.order.index(acting)
        self.readied = [r for r in self.readied if r.state == "waiting"]
        self.log.append(f"{readied.readier}'s readied action goes off; order: {', '.join(self.order)}")

    # --- attacks ----------------------------------------------------------------------------------

    def _defend(self, defender: Fighter, *, ranged: bool) -> tuple[str, tuple[int, int], int]:
        kind: Literal["dodge", "block"] = "block" if defender.block is not None and defender.shield else "dodge"
        c, p = defender.block if kind == "block" and defender.block else defender.dodge
        c -= defender.defences.use(kind, ranged=ranged)
        if defender.climbing is not None:
            c += position_modifier("Climbing", "defence")
        c, p = situational_modifiers(c, p, darkness=self.darkness, shield=defender.shield, blocking=kind == "block")
        roll = roll_challenge(c, p, self.source).result
        return kind, (c, p), roll

    def _hurt(self, defender: Fighter, hit: int) -> str:
        defender.hp -= hit
        line = f"{hit} Hit to {defender.name} ({defender.hp} HP)"
        requirement = defender.climbing
        held = hold_on(requirement or None, *defender.climb, self.source) if requirement is not None else None
        if held is not None and requirement is not None:
            if held.meets(requirement):
                line += f"; {defender.name} holds on ({held.result} vs {requirement})"
            else:
                defender.climbing = None
                line += f"; {defender.name} loses their hold ({held.result} vs {requirement}) and falls"
        return line

    def attack(self, target: str, *, action: AttackAction = "attack") -> Blow:
        """The current fighter attacks ``target`` (``"charge"`` or ``"shoot"`` for the hidden bonus).

        A guard on the target steps in first unless the attacker is hidden from it; after that one
        interception the guard is over.  Returns (and logs) what happened.
        """
        me, aimed = self.current, self.get(target)
        if aimed is me or not aimed.standing:
            raise HeimrError(f"{me.name} cannot attack {aimed.name}" + ("" if aimed.standing else ": down"))
        if me.name in aimed.hidden_from:
            raise HeimrError(f"{aimed.name} is hidden from {me.name}: only a luck shot can reach them")
        if action not in ("attack", "charge", "shoot"):
            raise HeimrError(f"an attack is 'attack', 'charge' or 'shoot', not {action!r}")
        posts = [p for p in self.guards if p.ward == aimed.name and self.fighters[p.guard].standing
                 and me.name not in p.slipped]
        guard = responding_guard(posts, self.order, me.name, me.hidden_from) if posts else None
        slipped = [p.guard for p in posts if p.active and p.guard in me.hidden_from]
        defender = self.fighters[guard.intercept()] if guard else aimed
        return self._strike(me, aimed, defender, action, guard.guard if guard else None, tuple(slipped))

    def _strike(self, me: Fighter, aimed: Fighter, defender: Fighter, action: AttackAction,
                interceptor: str | None, slipped: tuple[str, ...]) -> Blow:
        ranged = action == "shoot"
        c, p, hit = self._attack_roll(me, defender, action)
        attack = roll_challenge(c, p, self.source).result
        kind, defence_roll, defence = self._defend(defender, ranged=ranged)
        parts = [f"{me.name} {action}s {aimed.name}"]
        if slipped:
            parts.append(f"unseen by {', '.join(slipped)}")
        if interceptor:
            parts.append(f"{defender.name} intercepts (guard over)")
        parts.append(f"attack {attack} vs {kind} {defence}")
        if attack > defence:
            parts.append(self._hurt(defender, hit))
        elif interceptor and ranged and kind == "dodge":
            _, _, second = self._defend(aimed, ranged=True)
            parts.append(f"the shot flies on to {aimed.name}: {aimed.name} defends {second}")
            parts.append(self._hurt(aimed, hit) if attack > second else "miss")
        else:
            parts.append("blocked" if kind == "block" else "dodged")
        blow = Blow(me.name, aimed.name, defender.name, action, (c, p), attack, kind, defence_roll, defence,
                    hit if attack > defence else 0, slipped, interceptor, "; ".join(parts))
        self.log.append(blow.line)
        self.blows.append(blow)
        return blow

    def cross(self, post: GuardPost, *, guard_on_my_side: bool, charge: str | None = None) -> str:
        """The current fighter crosses the border ``post`` guards, charging ``charge`` beyond it if named.

        A guard on the crosser's side stops the crossing; a guard across the border lets the crosser
        over (which ends the guard) but takes a charge on itself.  Someone hidden from the guard
        crosses unseen and the guard stays up.  Returns (and logs) what happened.
        """
        me = self.current
        if not post.border:
            raise HeimrError(f"{post.guard} guards {post.ward}, not a border")
        guard = self.get(post.guard)
        if post.active and guard.standing and guard.name in me.hidden_from:
            line = f"{me.name} crosses {post.ward} unseen by {guard.name}"
            self.log.append(line)
            return line if charge is None else f"{line}; {self.attack(charge, action='charge')}"
        outcome = post.crossing(guard_on_my_side=guard_on_my_side, charging=charge is not None) \
            if guard.standing else "crossed"
        if outcome == "stopped":
            line = f"{me.name} is stopped at {post.ward} by {guard.name} (guard over)"
            self.log.append(line)
            return line
        if outcome == "charge intercepted" and charge != guard.name:
            assert charge is not None
            aimed = self.get(charge)
            self.log.append(f"{me.name} charges across {post.ward}")
            return str(self._strike(me, aimed, guard, "charge", guard.name, ()))
        line = f"{me.name} crosses {post.ward}" + ("" if post.active else f" ({guard.name}'s guard over)")
        self.log.append(line)
        return line if charge is None else f"{line}; {self.attack(charge, action='charge')}"

    def _attack_roll(self, me: Fighter, defender: Fighter, action: AttackAction) -> tuple[int, int, int]:
        weapon = find_weapon(me.weapon)
        if (action == "shoot") != (weapon.range is not None):
            raise HeimrError(f"{me.name}'s {weapon.name.lower()} cannot {action}")
        c, p = me.attack
        p = p + (weapon.bonus or 0)
        p = hidden_strike_potential(p, action, hidden=defender.name in me.hidden_from)
        if me.climbing is not None:
            c += position_modifier("Climbing", "attack")
        c, p = situational_modifiers(c, p, darkness=self.darkness)
        return c, p, weapon.damage

    def outmanoeuvre(self, post: GuardPost) -> Blow:
        """The current fighter slips past ``post``'s guard: the guard attacks for free, dodged at -1 C.

        The mover is past that guard from then on; the guard itself stays up for everyone else.
        """
        me, guard = self.current, self.get(post.guard)
        if not post.active or not guard.standing:
            raise HeimrError(f"{guard.name}'s guard is already over")
        c, p, hit = self._attack_roll(guard, me, "attack")
        attack = roll_challenge(c, p, self.source).result
        dc, dp = me.dodge
        dc = outmanoeuvre_dodge(dc - me.defences.use("dodge"))
        if me.climbing is not None:
            dc += position_modifier("Climbing", "defence")
        dc, dp = situational_modifiers(dc, dp, darkness=self.darkness)
        dodge = roll_challenge(dc, dp, self.source).result
        post.slipped.add(me.name)
        line = f"{me.name} outmanoeuvres {guard.name}: free attack {attack} vs dodge {dodge}; "
        line += self._hurt(me, hit) if attack > dodge else "dodged"
        blow = Blow(guard.name, me.name, me.name, "attack", (c, p), attack, "dodge", (dc, dp), dodge,
                    hit if attack > dodge else 0, (), None, line)
        self.log.append(line)
        self.blows.append(blow)
        return blow
