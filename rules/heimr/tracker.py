"""A small combat log: initiative, weapon attacks against a rolled defence, guards, hiding, readied
actions, climbing and the situation (darkness, shields), ranges and clusters, parries, two weapons,
fatigue and injuries.

It strings the rules of the combat, defence, fatigue, health and modules chapters together and takes
every die from one :class:`rules.dice.DiceSource`, so a scripted source replays a fight exactly.  Dice
are drawn in this order: initiative challenges in the order the fighters were given; per attack roll
(one per weapon wielded), the attack challenge, then the defence challenge (the defender's, or the
guard's who stepped in; none if the attack failed its fatigue gate or the defender does not defend),
then the original target's defence if a guard dodged a shot, then the hit-location d6 of a hit that
leaves its target at 0 HP or below, then a climber's hold-on roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from rules.dice import DiceSource
from rules.heimr.challenge import ChallengeRoll, roll_challenge
from rules.heimr.combat import (
    Combatant,
    Outcome,
    ReadiedAction,
    range_penalty,
    roll_initiative,
    shoot_into_cluster,
    weapon_attack_rolls,
)
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
from rules.heimr.fatigue import base_fatigue, fatigue_after, passes_fatigue
from rules.heimr.health import INJURY_LEVELS, CharacterDeadError, Location, injury_effects, injury_level
from rules.heimr.modules import decline_defence, find_weapon
from rules.heimr.registry import REGISTRY, HeimrError
from rules.values import is_whole

AttackAction = Literal["attack", "charge", "shoot"]
#: The defence a defender picks: ``None`` lets the log choose (block with a shield, else dodge).
DefenceChoice = Literal["dodge", "block", "parry", "none"]
#: Hit location of an injuring hit, by a d6 (this book's reading: the source names the locations only).
HIT_LOCATIONS: dict[int, Location] = {1: "arm", 2: "arm", 3: "leg", 4: "leg", 5: "torso", 6: "torso"}
#: The highest hit points at which a fighter is out: Mutilated passes out at once.
OUT_AT_HP = INJURY_LEVELS[-1].highest_hp


@REGISTRY.rule("Heimr.Rule.HitLocation", "Hit location", "RU", dice="1d6",
               values={"arm": "1-2", "leg": "3-4", "torso": "5-6"})
def hit_location(d6: int) -> Location:
    """Where an injuring hit landed: 1-2 an arm, 3-4 a leg, 5-6 the torso (a GM may call it instead)."""
    if not is_whole(d6) or d6 not in HIT_LOCATIONS:
        raise HeimrError(f"a d6 shows 1 to 6, not {d6!r}")
    return HIT_LOCATIONS[d6]


@dataclass
class Fighter:
    """A fighter: initiative inputs, attack and dodge challenges (consistency, potential), a weapon
    class of the armoury, hit points, an optional shield (blocks with ``block``), and who cannot see it.

    ``parry`` is the weapon ability's challenge for parrying melee attacks; ``off_hand`` a second
    weapon class (one more attack roll per attack, one more parry); ``stamina`` switches fatigue on,
    from its base (or from ``fatigue`` when given).  ``injuries`` lists the hit locations of injuring
    hits, ``effects`` the injury effects (Drop, Fall, Daze) that last until the end of its next turn."""

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
    parry: tuple[int, int] | None = None
    off_hand: str | None = None
    stamina: int | None = None
    fatigue: int | None = None
    injuries: list[Location] = field(default_factory=list)
    effects: set[str] = field(default_factory=set)
    recovering: set[str] = field(default_factory=set, init=False)

    def __post_init__(self) -> None:
        if not is_whole(self.hp):
            raise HeimrError(f"{self.name}: hit points must be a whole number, not {self.hp!r}")
        find_weapon(self.weapon)
        if self.off_hand is not None:
            find_weapon(self.off_hand)
            if self.shield is not None:
                raise HeimrError(f"{self.name}: the off-hand holds a shield or a weapon, not both")
        melee = sum(find_weapon(w).range is None for w in self.weapons)
        self.defences = DefenceTracker(melee_weapons=melee, shield=self.shield is not None)
        if self.stamina is not None and self.fatigue is None:
            self.fatigue = base_fatigue(self.stamina)

    @property
    def weapons(self) -> tuple[str, ...]:
        """The weapons wielded: the sword hand's, then the off-hand's."""
        return (self.weapon,) if self.off_hand is None else (self.weapon, self.off_hand)

    @property
    def standing(self) -> bool:
        """Still in the fight: injured fighters fight on until Mutilated (or worse) knocks them out."""
        return self.hp > OUT_AT_HP

    @property
    def injured(self) -> bool:
        return self.hp <= 0


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
    #: Where an injuring hit landed, and the effects it brought.
    location: Location | None = None
    effects: tuple[str, ...] = ()
    #: The further attack rolls of the same action (a second weapon, a shot passed on in a cluster).
    more: tuple[Blow, ...] = ()
    #: Whether the attack got through (a 0-Hit weapon can land and deal nothing).
    landed: bool = False

    def __str__(self) -> str:
        return "\n".join([self.line, *(str(b) for b in self.more)])


@REGISTRY.rule("Heimr.Rule.CombatLog", "Combat log", "RU")
class Skirmish:
    """Run a fight with dice from ``source``: :meth:`start`, then :meth:`attack` and :meth:`end_turn`
    for whoever is :attr:`current`.  ``darkness`` is the GM's consistency penalty on every combat roll.
    :attr:`log` keeps one line per event."""

    def __init__(self, fighters: Sequence[Fighter], source: DiceSource, *, darkness: int = 0,
                 deeper: Literal["mutilated", "dead"] = "mutilated") -> None:
        names = [f.name for f in fighters]
        if len(set(names)) != len(names) or len(names) < 2:
            raise HeimrError(f"a fight needs two or more fighters with distinct names, not {names!r}")
        if not is_whole(darkness) or darkness < 0:
            raise HeimrError(f"darkness is a whole consistency penalty of at least 0, not {darkness!r}")
        if deeper not in ("mutilated", "dead"):
            raise HeimrError(f"deeper is 'mutilated' or 'dead', not {deeper!r}")
        self.fighters = {f.name: f for f in fighters}
        self.source = source
        self.darkness = darkness
        self.deeper: Literal["mutilated", "dead"] = deeper
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
        me.recovering = set(me.effects)
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
        ending = self.current
        if ending.recovering:
            self.log.append(f"{ending.name} recovers from {', '.join(sorted(ending.recovering))}")
        ending.effects -= ending.recovering
        ending.recovering = set()
        self._advance()
        self._turn_starts()
        return self.current

    def breather(self) -> int:
        """The current fighter takes a breather (its turn): fatigue returns to base."""
        me = self.current
        if me.stamina is None:
            raise HeimrError(f"{me.name} has no Stamina: fatigue is not tracked")
        me.fatigue = base_fatigue(me.stamina)
        self.log.append(f"{me.name} takes a breather (fatigue {me.fatigue})")
        return me.fatigue

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

    def _challenge(self, who: Fighter, consistency: int, potential: int) -> tuple[ChallengeRoll, int | None]:
        """Roll a physical combat challenge; with fatigue tracked, return the gate it had to clear and
        let fatigue grow on the d6 (:node:ref:`Heimr.Rule.FatigueGrowth`)."""
        roll = roll_challenge(consistency, potential, self.source)
        gate = who.fatigue
        if gate is not None:
            who.fatigue = fatigue_after(gate, roll.d6)
        return roll, gate

    def _defend(self, defender: Fighter, *, ranged: bool,
                choice: DefenceChoice | None = None) -> tuple[str, tuple[int, int], int, bool]:
        """Roll the defence: (kind, (C, P), result, whether it counts).  A dazed defender cannot defend;
        ``"none"`` declines (:node:ref:`Heimr.Rule.DeclineDefence`); a failed fatigue gate fails it."""
        if "Daze" in defender.effects:
            return "none (dazed)", (0, 0), 0, False
        if choice == "none":
            decline_defence()
            return "none", (0, 0), 0, False
        auto: Literal["dodge", "block"] = "block" if defender.block is not None and defender.shield else "dodge"
        kind: Literal["dodge", "block", "parry"] = auto if choice is None else choice
        if kind == "parry":
            if defender.parry is None:
                raise HeimrError(f"{defender.name} has no parry challenge (give Fighter(parry=...))")
            if ranged:
                raise HeimrError(f"{defender.name} cannot parry a shot: parries stop melee attacks only")
            c, p = defender.parry
        elif kind == "block":
            if defender.block is None or defender.shield is None:
                raise HeimrError(f"{defender.name} cannot block: no shield and block challenge")
            c, p = defender.block
        else:
            c, p = defender.dodge
        c -= defender.defences.use(kind, ranged=ranged)
        if defender.climbing is not None:
            c += position_modifier("Climbing", "defence")
        if "Fall" in defender.effects:
            c += position_modifier("Prone", "defence")
        c, p = situational_modifiers(c, p, darkness=self.darkness, shield=defender.shield, blocking=kind == "block")
        roll, gate = self._challenge(defender, c, p)
        holds = gate is None or passes_fatigue(roll.raw, gate)
        return kind if holds else f"{kind} (fails fatigue {gate})", (c, p), roll.result, holds

    def _injury(self, fighter: Fighter) -> str:
        try:
            level = injury_level(fighter.hp, deeper=self.deeper)
        except CharacterDeadError:
            return "dead"
        if level is None:
            return "unhurt"
        return level.name + ("" if fighter.standing else ", unconscious")

    def _hurt(self, defender: Fighter, hit: int) -> str:
        line, _, _ = self._wound(defender, hit)
        return line

    def _wound(self, defender: Fighter, hit: int,
               called: Location | None = None) -> tuple[str, Location | None, tuple[str, ...]]:
        """Take the Hit; a fighter left at 0 HP or below is injured and the hit location decides the
        effect (:node:ref:`Heimr.Rule.InjuryEffects`)."""
        defender.hp -= hit
        line = f"{hit} Hit to {defender.name} ({defender.hp} HP)"
        location: Location | None = None
        effects: tuple[str, ...] = ()
        if defender.injured:
            location = called or hit_location(self.source.roll(6))
            defender.injuries.append(location)
            effects = injury_effects([location])
            defender.effects |= set(effects)
            line += f": {self._injury(defender)}, hit in the {location} ({', '.join(effects)})"
        requirement = defender.climbing
        held = hold_on(requirement or None, *defender.climb, self.source) if requirement is not None else None
        if held is not None and requirement is not None:
            if held.meets(requirement):
                line += f"; {defender.name} holds on ({held.result} vs {requirement})"
            else:
                defender.climbing = None
                line += f"; {defender.name} loses their hold ({held.result} vs {requirement}) and falls"
        return line, location, effects

    def attack(self, target: str, *, action: AttackAction = "attack", defence: DefenceChoice | None = None,
               distance: int | None = None, cluster: Sequence[str] | None = None,
               location: Location | None = None) -> Blow:
        """The current fighter attacks ``target`` (``"charge"`` or ``"shoot"`` for the hidden bonus).

        A guard on the target steps in first unless the attacker is hidden from it; after that one
        interception the guard is over.  ``defence`` is the defender's pick (``"dodge"``, ``"block"``,
        ``"parry"`` or ``"none"``; by default block with a shield, else dodge).  A shot at a target
        ``distance`` squares away takes the range penalty; a shot into a ``cluster`` (its members'
        names) follows :node:ref:`Heimr.Rule.ShootingIntoCluster`.  ``location`` is a hit location the
        attacker called (an injuring hit lands there instead of rolling).  A fighter with two weapons rolls
        once for each (:node:ref:`Heimr.Action.WeaponAttack`); the returned blow holds the second in
        :attr:`Blow.more`.  Returns (and logs) what happened.
        """
        me, aimed = self.current, self.get(target)
        if aimed is me or not aimed.standing:
            raise HeimrError(f"{me.name} cannot attack {aimed.name}" + ("" if aimed.standing else ": down"))
        if me.name in aimed.hidden_from:
            raise HeimrError(f"{aimed.name} is hidden from {me.name}: only a luck shot can reach them")
        if action not in ("attack", "charge", "shoot"):
            raise HeimrError(f"an attack is 'attack', 'charge' or 'shoot', not {action!r}")
        if defence not in (None, "dodge", "block", "parry", "none"):
            raise HeimrError(f"a defence is 'dodge', 'block', 'parry' or 'none', not {defence!r}")
        for effect, why in (("Daze", "is dazed"), ("Drop", "dropped their weapon")):
            if effect in me.effects:
                raise HeimrError(f"{me.name} {why}: no attack until the end of their next turn")
        if location is not None and location not in ("arm", "leg", "torso"):
            raise HeimrError(f"a hit location is 'arm', 'leg' or 'torso', not {location!r}")
        if (distance is not None or cluster is not None) and action != "shoot":
            raise HeimrError("a distance or a cluster goes with a shot (action='shoot')")
        if cluster is not None:
            return self._shoot_cluster(me, aimed, cluster, distance)
        posts = [p for p in self.guards if p.ward == aimed.name and self.fighters[p.guard].standing
                 and me.name not in p.slipped]
        guard = responding_guard(posts, self.order, me.name, me.hidden_from) if posts else None
        slipped = [p.guard for p in posts if p.active and p.guard in me.hidden_from]
        defender = self.fighters[guard.intercept()] if guard else aimed
        weapons = [w for w in me.weapons if (action == "shoot") == (find_weapon(w).range is not None)] or [me.weapon]
        blows: list[Blow] = []
        for hand, weapon in enumerate(weapons[:weapon_attack_rolls(len(weapons))]):
            if blows and not defender.standing:
                break
            blows.append(self._strike(me, aimed, defender, action, guard.guard if guard else None, tuple(slipped),
                                      weapon=weapon, defence=defence, distance=distance, off_hand=hand > 0,
                                      location=location))
        return self._one_action(blows)

    def _one_action(self, blows: list[Blow]) -> Blow:
        first = replace(blows[0], more=tuple(blows[1:]))
        self.blows[-len(blows)] = first
        return first

    def _shoot_cluster(self, me: Fighter, aimed: Fighter, cluster: Sequence[str], distance: int | None) -> Blow:
        names = {self.get(name).name for name in cluster}
        if aimed.name not in names:
            raise HeimrError(f"{aimed.name} is not in the cluster {sorted(names)}")
        out = sorted(n for n in names if not self.fighters[n].standing or n == me.name)
        if out:
            raise HeimrError(f"a cluster holds standing fighters other than the shooter, not {out}")
        blows: list[Blow] = []

        def defend(name: str, penalty: int) -> Outcome:
            member = self.fighters[name]
            blow = self._strike(me, member, member, "shoot", None, (), penalty=penalty, distance=distance)
            blows.append(blow)
            return "hit" if blow.landed else "block" if blow.defence_kind == "block" else "dodge"

        shoot_into_cluster([n for n in self.order if n in names], aimed.name, defend)
        return self._one_action(blows)

    def _strike(self, me: Fighter, aimed: Fighter, defender: Fighter, action: AttackAction,
                interceptor: str | None, slipped: tuple[str, ...], *, weapon: str | None = None,
                defence: DefenceChoice | None = None, penalty: int = 0, distance: int | None = None,
                off_hand: bool = False, location: Location | None = None) -> Blow:
        ranged = action == "shoot"
        c, p, hit = self._attack_roll(me, defender, action, weapon=weapon, distance=distance)
        c -= penalty
        roll, gate = self._challenge(me, c, p)
        attack = roll.result
        parts = [f"{me.name} {action}s {aimed.name}"]
        if off_hand and weapon is not None:
            parts[0] += f" (off-hand {weapon.lower()})"
        if penalty:
            parts.append(f"into the cluster at -{penalty} C")
        if slipped:
            parts.append(f"unseen by {', '.join(slipped)}")
        if interceptor:
            parts.append(f"{defender.name} intercepts (guard over)")
        landed_at: Location | None = None
        effects: tuple[str, ...] = ()
        if gate is not None and not passes_fatigue(roll.raw, gate):
            parts.append(f"attack {attack} fails fatigue {gate}: no defence needed")
            blow = Blow(me.name, aimed.name, defender.name, action, (c, p), attack, "none", (0, 0), 0, 0,
                        slipped, interceptor, "; ".join(parts))
            self.log.append(blow.line)
            self.blows.append(blow)
            return blow
        kind, defence_roll, result, holds = self._defend(defender, ranged=ranged, choice=defence)
        landed = not holds or attack > result
        parts.append(f"attack {attack} vs {kind} {result}" if holds or kind.startswith(("dodge", "block", "parry"))
                     else f"attack {attack}, {kind}")
        if landed:
            line, landed_at, effects = self._wound(defender, hit, location)
            parts.append(line)
        elif interceptor and ranged and kind == "dodge":
            _, _, second, second_holds = self._defend(aimed, ranged=True)
            parts.append(f"the shot flies on to {aimed.name}: {aimed.name} defends {second}")
            parts.append(self._hurt(aimed, hit) if not second_holds or attack > second else "miss")
        else:
            parts.append({"block": "blocked", "parry": "parried"}.get(kind, "dodged"))
        blow = Blow(me.name, aimed.name, defender.name, action, (c, p), attack, kind, defence_roll, result,
                    hit if landed else 0, slipped, interceptor, "; ".join(parts), landed_at, effects, landed=landed)
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

    def _attack_roll(self, me: Fighter, defender: Fighter, action: AttackAction, *, weapon: str | None = None,
                     distance: int | None = None) -> tuple[int, int, int]:
        arm = find_weapon(weapon or me.weapon)
        if (action == "shoot") != (arm.range is not None):
            raise HeimrError(f"{me.name}'s {arm.name.lower()} cannot {action}")
        c, p = me.attack
        p = p + (arm.bonus or 0)
        p = hidden_strike_potential(p, action, hidden=defender.name in me.hidden_from)
        if me.climbing is not None:
            c += position_modifier("Climbing", "attack")
        if "Fall" in me.effects:
            c += position_modifier("Prone", "attack")
        if action == "shoot" and "Fall" in defender.effects:
            c += position_modifier("Prone", "ranged against")
        if distance is not None:
            c -= range_penalty(distance, arm.range)
        c, p = situational_modifiers(c, p, darkness=self.darkness)
        return c, p, arm.damage

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
                    hit if attack > dodge else 0, (), None, line, landed=attack > dodge)
        self.log.append(line)
        self.blows.append(blow)
        return blow
