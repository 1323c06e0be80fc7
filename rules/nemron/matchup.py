"""Nemron encounter odds: the book's stat blocks fight under the combat tracker's rules.

Each fighter is built from the stat block of the same name: its initiative ranks, attack pool and
weapon rank, HP per limb, and a dodge with its Agility rank (the tracker walk-through's defence).  The
GM's plan is the plainest one: on its turn a fighter that can attack attacks the first standing
opponent, unaimed, and a defender always spends its reaction on a defence roll.  A fight ends when a
side is downed, or in a draw when nobody standing can attack any more.

Simulated fights run through :class:`~rules.nemron.tracker.CombatTracker` itself.  The exact model of
a one-against-one fight asks the tracker's rule functions (``attack_hits``, ``attack_damage``, the
location die, ``Body.damage``, ``turn_order``) for every outcome and their chances.  Its state is each
fighter's torso, head and arms (legs decide no attack in a fight without movement, so the model leaves
them out; torso and head count alike, and so do the two arms); that fits the work budget only for
fighters of at most 2 HP a limb.  Brandon against the raider (8 and 7 HP a limb) would need millions of
states, so it is simulated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from rules.dice import DiceSource, Dist
from rules.matchup import DRAW, MAX_ROUNDS, Duel, Matchup, Played, fighters_named
from rules.nemron.actions import InitiativeRoll, initiative_pool, turn_order
from rules.nemron.characters import Attribute
from rules.nemron.checks import Pool
from rules.nemron.combat import attack_damage, attack_hits
from rules.nemron.health import ARMS_TO_ATTACK, HUMANOID_LOCATIONS, Body, Limb, limb_hp, location
from rules.nemron.registry import REGISTRY
from rules.nemron.statblocks import RAIDER, brandon, brandon_weapon, raider_weapon
from rules.nemron.tracker import Combatant, CombatTracker

#: What a fighter has "left" in a result: the HP of the two limbs that down it.
LEFT_LABEL = "torso + head HP left"


@dataclass(frozen=True)
class Fighter:
    """A combatant as the matchup builds it (a fresh tracker :class:`Combatant` per fight)."""

    name: str
    agility: int
    awareness: int
    sense: int
    attack: Pool
    weapon_rank: int
    hp: int
    defence: Pool | None
    pc: bool = False

    def combatant(self) -> Combatant:
        return Combatant(self.name, self.agility, self.awareness, self.sense, self.attack, self.weapon_rank,
                         Body(self.hp), self.defence, self.pc)


def _from_ranks(name: str, ranks: dict[str, int], weapon: tuple[Pool, int], pc: bool) -> Fighter:
    pool, rank = weapon
    return Fighter(name, ranks["Agility"], ranks["Awareness"], ranks["Sense"], pool, rank,
                   limb_hp(ranks["Power"], ranks["Agility"], ranks["Constitution"]),
                   Pool.of(("Agility", ranks["Agility"])), pc)


def brandon_fighter(name: str = "Brandon") -> Fighter:
    return _from_ranks(name, {a.value: r for a, r in brandon().attributes.items()}, brandon_weapon(), True)


def raider_fighter(name: str = "Raider") -> Fighter:
    return _from_ranks(name, {a.value: RAIDER[a.value] for a in Attribute}, raider_weapon(), False)


#: Stat block name -> the fighter built from it.
FIGHTERS: dict[str, Callable[..., Fighter]] = {"brandon": brandon_fighter, "raider": raider_fighter}


def fighters(names: Sequence[str], taken: set[str]) -> list[Fighter]:
    """Fighters from stat block names; a second raider is "Raider 2"."""
    makers = {name: (maker().name, maker) for name, maker in FIGHTERS.items()}
    return fighters_named("nemron", names, makers, taken)


# -- one fight through the tracker -------------------------------------------------------------------
def play(side_a: Sequence[Fighter], side_b: Sequence[Fighter], source: DiceSource) -> Played:
    """Play one fight with :class:`CombatTracker` and the GM's plain plan (see the module docstring)."""
    fight = CombatTracker([f.combatant() for f in (*side_a, *side_b)], source)
    teams = ([fight.combatants[f.name] for f in side_a], [fight.combatants[f.name] for f in side_b])
    everyone = (*teams[0], *teams[1])
    # Per combatant: its side and the other side (asked once a turn, so looked up once a fight).
    sides = {c.name: (side, teams[1 - side]) for side in (0, 1) for c in teams[side]}

    def able(c: Combatant) -> bool:  # what fight.can_attack(c.name) asks, without the name lookup
        return c.body.can_attack(c.arms_needed)

    fight.start()
    while True:
        current = fight.current
        side, other_side = sides[current.name]
        if able(current):
            foe = next(c for c in other_side if not c.body.is_downed())
            fight.attack(foe.name)
            if foe.body.is_downed() and all([c.body.is_downed() for c in other_side]):
                return Played(side, fight.round, tuple([_vital(c.body) for c in everyone]))
        elif not any(able(c) for c in everyone if not c.body.is_downed()):
            return Played(DRAW, fight.round, tuple([_vital(c.body) for c in everyone]))
        if fight.round > MAX_ROUNDS:
            return Played(DRAW, MAX_ROUNDS, tuple([_vital(c.body) for c in everyone]))
        fight.end_turn()


def _vital(body: Body) -> int:
    return body.hp[Limb.TORSO] + body.hp[Limb.HEAD]


# -- the exact model of a one-against-one fight ------------------------------------------------------
#: A fighter's state: the healthier and the other major limb (torso and head are alike to the location die
#: and both down at 0), then the healthier and the other arm.
Vitals = tuple[int, int, int, int]
#: A fight's state: who acts first (0 or 1), then each fighter's vitals.
State = tuple[int, Vitals, Vitals]


def _body(hp: int, vitals: Vitals) -> Body:
    major, other_major, arm, other_arm = vitals
    return Body(hp, {Limb.TORSO: major, Limb.HEAD: other_major, Limb.RIGHT_ARM: arm, Limb.LEFT_ARM: other_arm})


def _vitals(body: Body) -> Vitals:
    major = sorted((body.hp[Limb.TORSO], body.hp[Limb.HEAD]), reverse=True)
    arms = sorted((body.hp[Limb.RIGHT_ARM], body.hp[Limb.LEFT_ARM]), reverse=True)
    return major[0], major[1], arms[0], arms[1]


def damage_dist(attacker: Fighter, defender: Fighter) -> Dist:
    """Damage one attack deals (0 for a miss or a full defence): ``attack_hits`` then ``attack_damage``."""
    weights: dict[int, Fraction] = {}
    defence = defender.defence.dist().items() if defender.defence is not None else ((None, Fraction(1)),)
    for roll, p in attacker.attack.dist().items():
        if not attack_hits(roll, attacker.weapon_rank):
            weights[0] = weights.get(0, Fraction(0)) + p
            continue
        for block, q in defence:
            damage = attack_damage(roll, block)
            weights[damage] = weights.get(damage, Fraction(0)) + p * q
    return Dist.from_probabilities(weights)


class DuelModel(Duel[Fighter]):
    """The exact one-against-one fight, a round at a time (:class:`rules.matchup.FightModel`)."""

    def __init__(self, a: Fighter, b: Fighter) -> None:
        self.pair = (a, b)
        self.hits = (damage_dist(a, b), damage_dist(b, a))  # [i]: what fighter i deals to the other
        self.sides = len(HUMANOID_LOCATIONS)
        self._hit = cache(self._hit_uncached)
        self._status = cache(self._status_uncached)

    @property
    def estimate(self) -> int:
        def body_states(hp: int) -> int:
            return ((hp + 1) * (hp + 2) // 2) ** 2
        return 2 * body_states(self.pair[0].hp) * body_states(self.pair[1].hp)

    def start(self) -> list[tuple[Fraction, State]]:
        a, b = self.pair
        full = (_vitals(Body(a.hp)), _vitals(Body(b.hp)))
        first = {0: Fraction(0), 1: Fraction(0)}
        pools = [initiative_pool(f.agility, f.awareness, f.sense).dist() for f in self.pair]
        for ra, pa in pools[0].items():
            for rb, pb in pools[1].items():
                order = turn_order([InitiativeRoll(a.name, ra, a.pc), InitiativeRoll(b.name, rb, b.pc)])
                first[0 if order[0].name == a.name else 1] += pa * pb
        return [(p, (who, *full)) for who, p in first.items() if p]

    def _hit_uncached(self, target: int, vitals: Vitals) -> tuple[tuple[Fraction, Vitals], ...]:
        """The target's vitals after one attack from the other fighter."""
        hp = self.pair[target].hp
        out: dict[Vitals, Fraction] = {}
        for damage, p in self.hits[1 - target].items():
            faces = (0,) if damage == 0 else tuple(HUMANOID_LOCATIONS)
            for face in faces:
                body = _body(hp, vitals)
                if damage:
                    body.damage(location(face), damage)
                after = _vitals(body)
                out[after] = out.get(after, Fraction(0)) + (p if damage == 0 else p / self.sides)
        return tuple((p, v) for v, p in out.items())

    def _status_uncached(self, fighter: int, vitals: Vitals) -> tuple[bool, bool]:
        """(downed, able to attack), as the tracker's ``Body`` says."""
        body = _body(self.pair[fighter].hp, vitals)
        return body.is_downed(), not body.is_downed() and body.can_attack(ARMS_TO_ATTACK)

    def _can_attack(self, fighter: int, vitals: Vitals) -> bool:
        return self._status(fighter, vitals)[1]

    def round(self, state: State) -> list[tuple[Fraction, State]]:
        first = state[0]
        second = 1 - first
        out: dict[State, Fraction] = {}

        def put(p: Fraction, vitals: dict[int, Vitals]) -> None:
            key: State = (first, vitals[0], vitals[1])
            out[key] = out.get(key, Fraction(0)) + p

        start = {0: state[1], 1: state[2]}
        middle = (self._hit(second, start[second]) if self._can_attack(first, start[first])
                  else ((Fraction(1), start[second]),))
        for p, hurt in middle:
            now = {first: start[first], second: hurt}
            if not self._can_attack(second, hurt):
                put(p, now)
                continue
            for q, back in self._hit(first, start[first]):
                put(p * q, {first: back, second: hurt})
        return [(p, s) for s, p in out.items()]

    def outcome(self, state: State) -> int | None:
        if self._status(0, state[1])[0]:
            return 1
        if self._status(1, state[2])[0]:
            return 0
        if not (self._can_attack(0, state[1]) or self._can_attack(1, state[2])):
            return DRAW
        return None

    def left(self, state: State) -> tuple[int, ...]:
        return (state[1][0] + state[1][1], state[2][0] + state[2][1])


@REGISTRY.matchups.publish
def matchup(side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
    """The fight between two lists of stat block names; one against one has an exact model."""
    taken: set[str] = set()
    a, b = fighters(side_a, taken), fighters(side_b, taken)
    model = DuelModel(a[0], b[0]) if len(a) == len(b) == 1 else None
    names = (" and ".join(f.name for f in a), " and ".join(f.name for f in b))
    return Matchup(names, tuple(f.name for f in (*a, *b)), LEFT_LABEL,
                   lambda source: play(a, b, source), model)
